"""Small helpers for Blackjack scenarios: a fight with scripted dice."""

from __future__ import annotations

from typing import Any

from systems.blackjack import system
from tracker import Fight
from tracker.commands import AddCombatant, NextTurn
from tracker.dice import ScriptedRoller


def new_fight(*faces: int) -> Fight:
    return Fight(system, roller=ScriptedRoller(list(faces)))


def add(
    f: Fight, name: str, kind: str = "pc", preset: str | None = None, group: str | None = None, **sheet: Any
) -> str:
    f.do(AddCombatant(name=name, kind=kind, preset=preset, group=group, sheet=sheet))
    return f.state.combatants[-1].id


def pc(f: Fight, name: str = "Dusty", **sheet: Any) -> str:
    return add(f, name, "pc", **sheet)


def npc(f: Fight, name: str, preset: str | None = None, group: str | None = None, **sheet: Any) -> str:
    return add(f, name, "npc", preset=preset, group=group, **sheet)


def faces(f: Fight, *values: int) -> None:
    f.roller.add(*values)  # type: ignore[attr-defined]


def data(f: Fight, cid: str) -> Any:
    return f.state.get(cid).data


def weapon(f: Fight, cid: str, name: str) -> Any:
    return next(w for w in data(f, cid).weapons if w.name == name)


def of_type(events: list[Any], cls: type) -> list[Any]:
    return [e for e in events if isinstance(e, cls)]


def log(f: Fight, events: list[Any], before: Any) -> list[str]:
    return [e.describe(before) for e in events]


def turn_of(f: Fight, cid: str) -> None:
    """On to ``cid``'s next turn (one action a turn: a second action waits for it)."""
    f.do(NextTurn())
    while f.state.current != cid:
        f.do(NextTurn())
