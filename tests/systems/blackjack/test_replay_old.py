"""Decide, react, evolve (issue #14): morale prompts are decided in react and logged; evolve only applies;
a fight file written before the rework replays to the same state, step by step.

``fixtures/v1_morale.jsonl`` was written by the plug-in before the rework (commit "an old-format fight
file…"): a setup removal, a GM adjust to dead, a removal and an injury edit after the start (whose morale
prompts that plug-in opened inside evolve, unlogged), a second casting, a treatment. ``.state.json`` is the
state it folded to then; ``.steps.json`` the prompts and morale triggers after each action.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cattrs

import saves
from systems.blackjack import system
from tests.systems.blackjack.helpers import new_fight, npc, pc
from tracker import fold
from tracker.commands import Adjust, StartFight
from tracker.events import PromptRaised

FIXTURE = Path(__file__).parent / "fixtures" / "v1_morale"


def _contained(old: Any, new: Any, path: str = "") -> list[str]:
    """Where ``new`` differs from ``old`` (fields that ``old`` has; fields added since are left out)."""
    if isinstance(old, dict):
        out = []
        for k, v in old.items():
            out += [f"{path}/{k}: missing"] if k not in new else _contained(v, new[k], f"{path}/{k}")
        return out
    if isinstance(old, list):
        if not isinstance(new, list) or len(old) != len(new):
            return [f"{path}: {old!r} != {new!r}"]
        return [x for i, (a, b) in enumerate(zip(old, new, strict=True)) for x in _contained(a, b, f"{path}[{i}]")]
    return [] if old == new else [f"{path}: {old!r} != {new!r}"]


def test_an_old_fight_file_replays_to_the_same_state() -> None:
    """Ruling (rules/morale.py): the prompts the old evolve opened after a GM adjust or a removal open again on
    replay, so every step folds to what it did then."""
    loaded = saves.load(f"{FIXTURE}.jsonl")
    fight = loaded.fight()
    now = json.loads(json.dumps(cattrs.unstructure(fight.state), default=str))
    then = json.loads(Path(f"{FIXTURE}.state.json").read_text("utf-8"))
    assert _contained(then, now) == []
    steps = [[s.action, [p.id for p in s.after.prompts], list(s.after.data.morale_seen)] for s in fight.steps]
    assert steps == json.loads(Path(f"{FIXTURE}.steps.json").read_text("utf-8"))
    assert [p.id for p in fight.state.prompts] == ["morale:Outlaw"]  # opened by the injury edit, unlogged


def test_a_new_fight_logs_the_morale_prompt_and_evolve_raises_none() -> None:
    """In a new fight the prompt a GM adjust calls for is an event of the same action; folding that action
    without it opens no prompt: evolve only applies."""
    f = new_fight()
    pc(f)
    a = npc(f, "Outlaw A", "outlaw", group="Gang")
    npc(f, "Outlaw B", "outlaw", group="Gang")
    f.do(StartFight())
    before = f.state
    ev = f.do(Adjust(id=a, field="dead", value=True))
    assert [type(e).__name__ for e in ev] == ["Adjusted", "PromptRaised"]
    assert fold(system, [e for e in ev if not isinstance(e, PromptRaised)], before).prompts == ()
    assert fold(system, ev, before) == f.state
