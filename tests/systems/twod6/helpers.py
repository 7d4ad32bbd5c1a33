"""Shared set-up for the 2d6 Gamma scenarios: sheets, a started fight with scripted dice."""

from __future__ import annotations

from typing import Any

from systems.twod6 import system
from systems.twod6.commands import Attack
from tracker import Fight
from tracker.commands import AddCombatant, Adjust, DismissPrompt, SetInitiative, StartFight
from tracker.dice import ScriptedRoller
from tracker.errors import Refused


def sheet(**kw: Any) -> dict[str, Any]:
    return kw


FIGHTER = sheet(str=1, skills="Melee (Heavy) 2, Resolve 1", items="Longsword: Melee (Heavy) +1")  # attacks at +4
DUMMY = sheet()  # all zero: defends at +0


def setup(*people: tuple[str, dict[str, Any]], kind: str = "pc") -> tuple[Fight, ScriptedRoller]:
    """Add ``(name, sheet)`` combatants as c1, c2, …, set the order as given, start round 1."""
    roller = ScriptedRoller()
    f = Fight(system, roller=roller)
    for name, sh in people:
        f.do(AddCombatant(name=name, kind=kind, sheet=sh))
    f.do(SetInitiative(values={f"c{n + 1}": 20 - n for n in range(len(people))}))
    f.do(StartFight())
    return f, roller


def set_wounds(f: Fight, cid: str, n: int) -> None:
    """GM setup: set the wounds left and settle the checks that calls for (as if passed)."""
    f.do(Adjust(id=cid, field="wounds", value=n))
    for p in list(f.state.prompts):
        f.do(DismissPrompt(prompt_id=p.id, note="setup"))


def prompts(f: Fight) -> list[tuple[str, str | None]]:
    """The open prompts as (kind, combatant)."""
    return [(p.kind, p.combatant) for p in f.state.prompts]


def attack(f: Fight, roller: ScriptedRoller, faces: tuple[int, ...], actor: str, *targets: str, **kw: Any) -> list:
    roller.add(*faces)
    events = f.do(Attack(actor=actor, targets=targets, **kw))
    assert roller.exhausted, f"unused faces: {roller.queue}"
    return events


def refused(f: Fight, command: Any, words: str) -> str:
    """The command is refused with a reason containing ``words``, and nothing is logged."""
    before, entries = f.state, list(f.entries)
    try:
        f.do(command)
    except Refused as e:
        assert words.lower() in str(e).lower(), str(e)
        assert f.entries == entries
        assert f.state == before
        return str(e)
    raise AssertionError(f"not refused: {command}")


def data(f: Fight, cid: str) -> Any:
    return f.state.get(cid).data


def of(events: list, cls: type) -> list:
    return [e for e in events if isinstance(e, cls)]
