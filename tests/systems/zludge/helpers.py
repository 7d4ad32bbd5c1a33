"""Helpers for Zludge scenarios: 4dF faces by total, a fight with two or three people."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from systems.zludge import system
from tracker import Fight
from tracker.commands import AddCombatant, EndFight, NextTurn, SetInitiative, StartFight
from tracker.dice import ScriptedRoller


def F(total: int) -> list[int]:
    """Four Fudge faces summing to ``total`` (-4..+4)."""
    assert -4 <= total <= 4
    sign = 1 if total >= 0 else -1
    return [sign] * abs(total) + [0] * (4 - abs(total))


def new_fight(*faces: int) -> Fight:
    return Fight(system, roller=ScriptedRoller(list(faces)))


def add(f: Fight, name: str, kind: str = "pc", **sheet: Any) -> str:
    f.do(AddCombatant(name=name, kind=kind, sheet=sheet))
    return f.state.by_name(name).id


def script(f: Fight, *groups: list[int] | int) -> None:
    """Queue faces: lists (4dF) and single ints (1d6)."""
    for g in groups:
        if isinstance(g, list):
            f.roller.add(*g)
        else:
            f.roller.add(g)


def duel(
    alice: dict[str, Any] | None = None,
    bob: dict[str, Any] | None = None,
    before: Callable[[Fight], None] | None = None,
) -> Fight:
    """Alice (c1) and Bob (c2); Bob acts first in round 1, then it is Alice's turn: Bob is no longer flat-footed.
    ``before``: what happens before the fight starts (first aid, which waits for no running fight)."""
    f = new_fight()
    add(f, "Alice", **(alice or {}))
    add(f, "Bob", kind="npc", **(bob or {}))
    if before is not None:
        before(f)
    f.do(SetInitiative(values={"c1": 1, "c2": 2}))
    f.do(StartFight())
    f.do(NextTurn())
    assert f.state.current == "c1"
    return f


def end(f: Fight) -> Fight:
    """The fight ends: first aid, a few minutes' work with bandages, is given after it (not in a 3-second turn)."""
    f.do(EndFight())
    return f


def treated(wounded: str, level: int, medic: str | None = None, *faces: int) -> Callable[[Fight], None]:
    """Before the fight: a wound at ``level`` on ``wounded``, treated by ``medic`` (itself by default) with first
    aid on these 4dF faces (a success)."""
    from systems.zludge.commands import FirstAid, MarkWound

    def setup(f: Fight) -> None:
        f.do(MarkWound(target=wounded, level=level))
        f.roller.add(*(faces or (0, 0, 0, 0)))
        (ev, *_) = f.do(FirstAid(actor=medic or wounded, target=wounded))
        assert ev.success

    return setup


def data(f: Fight, cid: str) -> Any:
    return f.state.get(cid).data
