"""Shared set-up for the Blood & Bullets scenarios: scripted dice, quick sheets."""

from __future__ import annotations

from typing import Any

from systems.bnb import system
from tracker import AddCombatant, Fight, SetInitiative, StartFight
from tracker.dice import ScriptedRoller


def new_fight(*faces: int) -> tuple[Fight, ScriptedRoller]:
    dice = ScriptedRoller(faces)
    return Fight(system, roller=dice), dice


def add_pc(f: Fight, name: str, cls: str = "Shootist", level: int = 1, hp: int = 10, **sheet: Any) -> str:
    f.do(AddCombatant(name=name, kind="pc", sheet={"cls": cls, "level": level, "hp": hp, **sheet}))
    return f.state.combatants[-1].id


def add_npc(f: Fight, preset: str, name: str = "", hp: int = 6, count: int = 1, **sheet: Any) -> list[str]:
    before = len(f.state.combatants)
    f.do(AddCombatant(name=name, kind="npc", preset=preset, count=count, sheet={"hp": hp, **sheet}))
    return [c.id for c in f.state.combatants[before:]]


def start(f: Fight, inits: dict[str, int] | None = None, surprise: tuple[str, ...] = ()) -> None:
    """Set initiative (highest first by default in the order given) and start."""
    ids = [c.id for c in f.state.combatants]
    values = inits or {cid: 20 - i for i, cid in enumerate(ids)}
    f.do(SetInitiative(values=values))
    f.do(StartFight(surprise=surprise))


def data(f: Fight, cid: str):
    return f.state.get(cid).data


def next_round(f: Fight) -> None:
    """NextTurn until a new round starts."""
    from tracker import NextTurn

    rnd = f.state.round
    while f.state.round == rnd:
        f.do(NextTurn())


def gunfight(level: int = 3, **pc: Any) -> tuple[Fight, ScriptedRoller, str, list[str], str]:
    """Dusty (Shootist, DEX 13, heavy pistol Sure Shot, belt pistol) against 3 Outlaws (6 HP) and a Gunfighter."""
    f, dice = new_fight()
    sheet = {"dex": 13, "weapons": "heavy pistol, belt pistol", "favoured": "heavy pistol", "hp": 12, **pc}
    dusty = add_pc(f, "Dusty", level=level, **sheet)
    gang = add_npc(f, "outlaw", count=3, hp=6)
    (gun,) = add_npc(f, "gunfighter", hp=6)
    start(f)
    return f, dice, dusty, gang, gun
