"""Keyboard helpers for driving the app in Pilot tests."""

from __future__ import annotations

from pathlib import Path

from textual import events
from textual.pilot import Pilot
from textual.widgets import Input, Static

import saves
from screens.app import TrackerApp
from screens.dialogs.faces import FacesDialog
from screens.fight import FightScreen
from tracker import commands as C
from tracker import registry
from tracker.errors import Refused
from tracker.model import NPC, PC
from tracker.plugin import System


async def new_fight(pilot: Pilot, system_id: str) -> FightScreen:
    """From the start screen: choose the system with the arrow keys and Enter."""
    app = pilot.app
    await pilot.pause()
    ids = [s.id for s in app.screen.systems]  # type: ignore[attr-defined]
    await press(pilot, *["down"] * ids.index(system_id), "enter")
    assert isinstance(app.screen, FightScreen), app.screen
    return app.screen


# the character each named key types (any other name, e.g. "enter", "right", types none)
CHARS = {
    "space": " ",
    "plus": "+",
    "minus": "-",
    "comma": ",",
    "full_stop": ".",
    "equals_sign": "=",
    "question_mark": "?",
    "slash": "/",
    "left_square_bracket": "[",
    "right_square_bracket": "]",
}
KEYS = {char: key for key, char in CHARS.items()}


def post_keys(pilot: Pilot, *keys: str) -> None:
    """Put ``keys`` in the app's queue, one after the other, as a terminal sends them (no wait between)."""
    for key in keys:
        pilot.app.post_message(events.Key(key, CHARS.get(key, key if len(key) == 1 else None)))


async def press(pilot: Pilot, *keys: str) -> None:
    """Press ``keys`` one after the other, as a quick typist does: each once the screen on top has handled what
    the last one asked (a dialog it opened is mounted and focused), then let the app catch up.  ``Pilot.press``
    also waits for the CPU to be idle after every key (40 ms or more a key): in the suite, 2,000 keys pressed so
    waited 100 s of the workers' time."""
    for key in keys:
        post_keys(pilot, key)
        await pilot.pause(0)
    await pilot.pause()


async def type_text(pilot: Pilot, text: str) -> None:
    await press(pilot, *[KEYS.get(ch, ch) for ch in text])


async def fill(pilot: Pilot, widget_id: str, text: str) -> None:
    """Focus an input in the open dialog, clear it and type ``text``."""
    box = pilot.app.screen.query_one(f"#{widget_id}", Input)
    box.focus()
    await pilot.pause()
    box.value = ""
    await type_text(pilot, text)


async def answer_faces(pilot: Pilot, pick: str = "lo", limit: int = 60) -> int:
    """Answer every typed-in dice request with the lowest (or highest) faces; returns how many."""
    n = 0
    while isinstance(pilot.app.screen, FacesDialog) and n < limit:
        req = pilot.app.screen.request
        face = req.lo if pick == "lo" else req.hi
        await type_text(pilot, " ".join([str(face)] * req.count))
        await press(pilot, "enter")
        n += 1
    return n


async def submit_form(pilot: Pilot) -> None:
    await press(pilot, "ctrl+s")


def error_text(app: TrackerApp) -> str:
    found = app.screen.query("#error")
    return str(found.first(Static).content) if found else ""


def footer_keys(app: TrackerApp) -> list[str]:
    """The fight screen's key bar's descriptions, as the GM reads them."""
    from screens.widgets.footer import KeysFooter

    return app.screen.query_one(KeysFooter).descriptions


def saved_state_matches(app: TrackerApp) -> bool:
    fight = app.fight
    assert fight is not None
    path: Path = fight.path
    return saves.load(path).fight().state == fight.state


def sample_value(p: C.Param) -> str:
    """A value a custom sheet accepts for a field without a default."""
    if p.kind == C.INT:
        return str(p.min if p.min is not None else 1)
    if p.kind == C.CHOICE:
        return p.choices[0]
    if p.kind == C.BOOL:
        return "no"
    return "x"


def custom_sheet(system: System, kind: str) -> dict[str, str]:
    return {p.name: sample_value(p) for p in system.sheet_fields(kind) if p.default is None and p.required}


def build_fight(system_id: str, path: Path, *, start: bool = True, seed: int = 3) -> saves.store.SavedFight:
    """A small fight made through the core API: a preset group (or a custom NPC), a custom PC, initiative."""
    system = registry.load(system_id)
    fight = saves.new_fight(system, path, seed=seed)
    npcs = [p for p in system.presets() if p.kind == NPC]
    try:
        if not npcs:
            raise Refused("no NPC preset")
        fight.do(C.AddCombatant(name="", preset=npcs[0].id, count=2))
    except Refused:
        fight.do(C.AddCombatant(name="Outlaw", kind=NPC, sheet=custom_sheet(system, NPC), count=2))
    fight.do(C.AddCombatant(name="Hero", kind=PC, sheet=custom_sheet(system, PC)))
    if start:
        fight.do(C.RollInitiative())
        fight.do(C.StartFight())
    return fight
