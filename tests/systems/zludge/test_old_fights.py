"""Old fight files keep loading and replay to the same state, action by action.

``data/old_fight.jsonl`` was written by the plug-in before the second round
(its RollRevised events took the earlier reading's harm back inside evolve);
``data/old_fight_states.json`` holds, after each action, what that code's
state was: the wound and fatigue boxes, clip, acted/spent, death, tie-breaks,
aspects checked off, plot points and Durability of every combatant, the open
prompts, whether the last roll was still open to an aspect or plot point, the
order and whose turn it was.  The fight covers an ambush with tie rerolls,
revisions by attacker and defender (a hit made a clip, a death made Comatose,
a critical found by a reroll), first aid saved by a plot point (on another and
on oneself while clipped), a reopen prompt closed by an aspect, GM adjusts,
undo and redo.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import saves
from systems.zludge import system
from tracker import Fight

DATA = Path(__file__).parent / "data"
FIELDS = ("clipped", "acted", "spent", "dead", "aspects_used", "plot_points", "durability")


def _box(b: Any) -> list[Any]:
    return [b.level, b.wound, b.treated, b.physical]


def project(fight: Fight) -> dict[str, Any]:
    s = fight.state
    combatants = {}
    for c in s.combatants:
        d = c.data
        p: dict[str, Any] = {k: getattr(d, k) for k in FIELDS}
        p["aspects_used"] = list(d.aspects_used)
        p["init_tiebreak"] = list(d.init_tiebreak)
        p["wounds"] = [_box(b) for b in d.wounds]
        p["fatigue"] = [_box(b) for b in d.fatigue]
        combatants[c.id] = p
    last = s.data.last_roll
    return {
        "entries": len(fight.entries),
        "combatants": combatants,
        "prompts": [p.id for p in s.prompts],
        "open": last is not None and last.tail == 0,
        "order": list(s.order),
        "current": s.current,
    }


def test_an_old_fight_file_replays_to_the_same_state_after_every_action():
    loaded = saves.load(DATA / "old_fight.jsonl")
    assert loaded.warnings == ()
    expected = json.loads((DATA / "old_fight_states.json").read_text(encoding="utf-8"))
    entries = list(loaded.entries)
    fight = Fight(system)
    pos = 0
    for n, want in enumerate(expected):
        fight.load(entries[pos : want["entries"]])
        pos = want["entries"]
        assert project(fight) == want, f"state after action {n + 1} (entry {pos}) differs"
    assert pos == len(entries)
    assert loaded.fight().state == fight.state


def test_old_contests_and_an_ambush_replay_to_the_same_state_after_every_action():
    """``data/old_contests.jsonl`` was written before contests took modifiers, aspects and plot points, raised the
    reopen prompt or could be revised after the roll, and before an ambush's initiative could wait for the surprise
    action: a simple contest, a regular one with two ties (the loser with treated wounds), a failed check that
    reopened them, an ambush rolled before the surprise shot, a contest in the fight, a revision after a skill roll,
    undo and redo.  ``data/old_contests_states.json`` is that code's state after each action, made as the file
    was written."""
    loaded = saves.load(DATA / "old_contests.jsonl")
    assert loaded.warnings == ()
    expected = json.loads((DATA / "old_contests_states.json").read_text(encoding="utf-8"))
    entries = list(loaded.entries)
    fight = Fight(system)
    pos = 0
    for n, want in enumerate(expected[:-2]):  # (the last two: the undo and the redo of the last action)
        fight.load(entries[pos : want["entries"]])
        pos = want["entries"]
        assert project(fight) == want, f"state after action {n + 1} (entry {pos}) differs"
    assert loaded.fight().state == fight.state
    assert not fight.state.prompts  # the contests raised no reopen prompt in these files
