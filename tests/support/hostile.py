"""Fights whose text is hostile: names, notes, conditions and a fight name that look like markup, or that hold
control characters in a file whose checksums hold (issue #42, items 4 and 5).

The app refuses control characters where a GM types text, so such a file is forged: the fight is played
normally with placeholder words, then each line holding one is rewritten with the hostile text and sealed
again with a good checksum (:func:`tests.reliability.support.reseal`), as an edited or crafted file would be.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import saves
from tests.reliability.support import reseal
from tests.ui.test_replay import CycleRoller, play
from tests.view.helpers import add_npc, add_pc
from tracker import commands as C
from tracker.text import CONTROLS

SYSTEMS = ("bnb", "blackjack", "zludge", "twod6")

# names as a GM may type them (each within the name cap) that Rich would read as markup
MARKUP = {
    "title": "[b]Duel[/b] at [red]noon",
    "hero": "[/]",
    "orc": "Orc [boss]",
    "boss": "[@click=app.quit]x[/]",
    "cond": "[reverse]dazed[/]",
    "note": "[@click=app.quit]note[/] [/]",
}

# what a crafted file may hold: a terminal-title change (OSC ... BEL), a screen clear (CSI 2J), an 8-bit CSI (C1)
OSC, CLEAR, C1 = "\x1b]0;PWNED\x07", "|\x1b[2J|", "\x9b1m>"
HOSTILE = f"<{OSC}{CLEAR}{C1}"
RAW = tuple(s.encode() for s in (OSC, CLEAR, C1))  # any of these bytes in an output: a raw control went out
SHOWN = "PWNED"  # the escaped text does show (the hostile names are there, as text)

PLACEHOLDERS = {"title": "Qtitle", "hero": "Qhero", "orc": "Qorc", "boss": "Qboss", "cond": "Qcond", "note": "Qnote"}


def played_fight(system_id: str, path: Path, words: dict[str, str], actions: int = 24) -> Path:
    """A fight of ``system_id`` with ``words`` as its fight name, names, a condition and a note; played on."""
    fight = saves.new_fight(system_id, path, seed=3, roller=CycleRoller())
    fight.do(C.NameFight(name=words["title"]))
    hero = add_pc(fight, words["hero"])
    add_npc(fight, words["orc"])
    add_npc(fight, words["boss"])
    fight.do(C.AddCondition(id=hero, name=words["cond"], rounds=3, note=words["note"]))
    fight.do(C.Note(text=words["note"]))
    fight.do(C.RollInitiative())
    fight.do(C.StartFight())
    play(fight, actions)
    fight.close()
    return path


def _swap(value: Any, swaps: dict[str, str]) -> Any:
    if isinstance(value, str):
        for old, new in swaps.items():
            value = value.replace(old, new)
        return value
    if isinstance(value, list):
        return [_swap(v, swaps) for v in value]
    if isinstance(value, dict):
        return {_swap(k, swaps): _swap(v, swaps) for k, v in value.items()}
    return value


def forged_fight(system_id: str, path: Path, hostile: str = HOSTILE) -> Path:
    """A fight whose every name, note, condition and fight name holds ``hostile``; every checksum holds."""
    played_fight(system_id, path, PLACEHOLDERS)
    swaps = {word: f"{key[0].upper()}{hostile}" for key, word in PLACEHOLDERS.items()}
    lines = path.read_bytes().split(b"\n")
    for i, line in enumerate(lines):
        if any(word.encode() in line for word in PLACEHOLDERS.values()):
            lines[i] = reseal(_swap(json.loads(line), swaps))
    path.write_bytes(b"\n".join(lines))
    saves.load(path)  # the forged file loads: its checksums hold
    return path


def raw_controls(text: str | bytes) -> set[str]:
    """The control characters in an output that are not line ends (each one a raw control that went out)."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    return {ch for ch in text if ch in CONTROLS and ch != "\n"}
