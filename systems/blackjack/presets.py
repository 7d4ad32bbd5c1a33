"""The book's example stat lines, as presets, and a couple of PC archetypes.

The book's weapons (firearms, ranged, melee) and NPC specials are the
catalogue in :mod:`systems.blackjack.sheet`; any sheet names them by name.
"""

from __future__ import annotations

from tracker.model import NPC, PC
from tracker.plugin import Preset

from .sheet import WEAPONS

NPC_PRESETS: tuple[Preset, ...] = (
    Preset(
        id="outlaw",
        name="Outlaw",
        kind=NPC,
        category="npc",
        summary="T 3 ML 7 ▢▢|▢▢|▢ Machete. 2 Revolvers",
        sheet={"threat": 3, "morale": 7, "slots": "2/2/1", "weapons": "Machete, 2 Revolvers", "lead": 3},
    ),
    Preset(
        id="pinkerton",
        name="Pinkerton",
        kind=NPC,
        category="npc",
        summary="T 4 ML 9 ▢▢|▢▢|▢ Knife. Repeater",
        sheet={"threat": 4, "morale": 9, "slots": "2/2/1", "weapons": "Knife, Repeater", "lead": 3},
    ),
    Preset(
        id="preacher",
        name="Preacher",
        kind=NPC,
        category="npc",
        summary="T 2 ML 5 ▢▢|▢▢|▢ Prayer book. Rusty revolver (jams on 19+). Immunity: snake venom. Working: Healing hands",
        sheet={
            "threat": 2,
            "morale": 5,
            "slots": "2/2/1",
            "weapons": "Rusty revolver",
            "immunities": "snake venom",
            "workings": "Healing hands 1",
            "specials": "Prayer book",
            "lead": 3,
        },
    ),
    Preset(
        id="bear",
        name="Bear",
        kind=NPC,
        category="npc",
        summary="T 4 ML 7, Large ▢▢|▢▢|▢ Claws. Bite. Bear hug: BOD save or grappled, lesser (crushed)",
        sheet={"threat": 4, "morale": 7, "slots": "2/2/1", "weapons": "Claws, Bite, Bear hug", "size": "large"},
    ),
    Preset(
        id="fire_dragon",
        name="Fire Dragon",
        kind=NPC,
        category="monster",
        summary="T 10 ML 12, Gargantuan ▢▢|▢▢|▢▢|▢ Claws. Tail. Bite. Ironscales. Buffeting wings. Fire breath",
        sheet={
            "threat": 10,
            "morale": 12,
            "slots": "2/2/2/1",
            "weapons": "Claws, Tail, Bite, Buffeting wings, Fire breath",
            "dv_mods": "Ironscales: mundane bullet +1",
            "size": "gargantuan",
            "specials": "Fire breath: inhale 1 round, lights flammable items",
        },
    ),
    Preset(
        id="hexpaper_witch",
        name="Hexpaper Witch",
        kind=NPC,
        category="npc",
        summary="T 8 ML 5 ▢▢|▢▢|▢ Staff. Workings: Hex, Naming, Hag eye",
        sheet={
            "threat": 8,
            "morale": 5,
            "slots": "2/2/1",
            "weapons": "Staff",
            "workings": "Hex 1, Naming 3, Hag eye 1",
            "lead": 6,
        },
    ),
    Preset(
        id="skeleton",
        name="Skeleton",
        kind=NPC,
        category="monster",
        summary="T 1 ML 12 ▢▢|▢▢|▢ Pirate sword. Resists piercing, slashing. Weak: bludgeoning",
        sheet={
            "threat": 1,
            "morale": 12,
            "slots": "2/2/1",
            "weapons": "Pirate sword",
            "resistances": "piercing, slashing",
            "weaknesses": "bludgeoning",
            "immunities": "poison, venom, mind control, mind reading",
        },
    ),
)

PC_PRESETS: tuple[Preset, ...] = (
    Preset(
        id="gunslinger",
        name="Gunslinger",
        kind=PC,
        category="pc",
        summary="ACC 14 BODY 10 CTRL 9, Revolver, Rifle, Hunting knife, 4 lead",
        sheet={"acc": 14, "body": 10, "ctrl": 9, "weapons": "Revolver, Rifle, Hunting knife", "lead": 4},
    ),
    Preset(
        id="lead_eater",
        name="Lead-eater",
        kind=PC,
        category="pc",
        summary="ACC 9 BODY 10 CTRL 14, Pistol, Hex, 6 lead",
        sheet={"acc": 9, "body": 10, "ctrl": 14, "weapons": "Pistol, Hatchet", "workings": "Hex 1", "lead": 6},
    ),
)


def presets() -> tuple[Preset, ...]:
    return NPC_PRESETS + PC_PRESETS


def weapon_table() -> str:
    """The weapons catalogue as help lines."""
    lines = []
    for w in WEAPONS.values():
        shots = f", {w.shots} shots" if w.is_firearm else ""
        notes = f": {w.notes}" if w.notes else ""
        lines.append(f"  {w.name} ({w.kind}{shots}){notes}")
    return "\n".join(lines)
