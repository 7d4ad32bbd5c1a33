"""The book's catalogues and example stat lines: weapons, NPC attacks and specials, workings, presets.

Any sheet names a catalogued weapon or working by name ("2 Revolvers", "Hex 1").

Rulings made here (beyond the rules table: ``default_level``, ``throw_melee``), each named in a test:
- Default injury levels by weapon: firearms and bows moderate, everything else
  (melee, thrown, natural attacks, blowgun darts) lesser; specials as the book says
  (``test_pc_shoots_at_dv_threat_plus_own_injuries_firearm_moderate``, ``test_melee_is_body_and_lesser``).
- Damage tags decide resistance, weakness, immunity and DV modifiers: firearms
  are "firearm mundane bullet piercing" (``test_resisted_lesser_is_ignored_and_moderate_drops``).
- The book's melee axes and knives (hand axe, hatchet, hunting knife, knife) can
  be thrown ("Some can be thrown, like axes and knives"); the other melee weapons
  cannot (``test_other_melee_weapons_are_not_thrown_and_a_close_axe_is_melee``).
- A working's level is the lead to ingest; the book gives none for its NPC
  workings, so Hex, Healing hands and Hag eye are 1 and Naming 3 (editable).
  Hex and Naming last "until the paper is destroyed" (``test_presets_load_with_their_stat_lines``).
"""

from __future__ import annotations

from typing import Any

from tracker.model import NPC, PC
from tracker.plugin import Preset

from .records import Weapon, Working

# ---------------------------------------------------------------------------
# catalogues: the book's weapons, NPC attacks, specials and workings

FIREARM_TAGS = ("firearm", "mundane", "bullet", "piercing")


def _fire(name: str, shots: int, notes: str, **kw: Any) -> Weapon:
    return Weapon(name=name, kind="firearm", shots=shots, loaded=shots, level=1, tags=FIREARM_TAGS, notes=notes, **kw)


WEAPONS: dict[str, Weapon] = {
    w.name.lower(): w
    for w in (
        _fire("Pistol", 10, "-1 DV on nearby range shots", near_dv=-1),
        _fire("Revolver", 6, "multiple shots per round", multi="shots"),
        _fire("Repeater", 10, "multiple shots per round", multi="shots"),
        _fire("Shotgun", 2, "+2 DV, +4 DV on multiple targets", multi="blast", dv=2, blast_dv=4),
        _fire("Rifle", 5, "-2 DV on far range shots", far_dv=-2),
        _fire("Scoped rifle", 1, "-4 DV on far range shots", far_dv=-4),
        _fire("Rusty revolver", 6, "multiple shots per round; jams on 19+", multi="shots", jam=19),
        Weapon(
            name="Bow",
            kind="bow",
            ammo=10,
            level=1,
            tags=("arrow", "mundane", "piercing"),
            notes="not at melee range; shoots over cover; arrows 10 to a slot",
        ),
        Weapon(
            name="Blowgun",
            kind="blowgun",
            ammo=10,
            tags=("dart", "mundane", "piercing"),
            notes="injuries worsen over time; darts 10 to a slot",
        ),
        Weapon(name="Throwing axe", kind="thrown", tags=("axe", "slashing"), notes="not at far range; melee at close"),
        Weapon(
            name="Throwing knife", kind="thrown", tags=("knife", "piercing"), notes="not at far range; melee at close"
        ),
        Weapon(name="Hand axe", tags=("axe", "slashing"), throwable=True, notes="can be thrown at nearby range (ACC)"),
        Weapon(
            name="Hunting knife",
            tags=("knife", "piercing", "slashing"),
            throwable=True,
            notes="can be thrown at nearby range (ACC)",
        ),
        Weapon(
            name="Knife",
            tags=("knife", "piercing", "slashing"),
            throwable=True,
            notes="can be thrown at nearby range (ACC)",
        ),
        Weapon(name="Club", tags=("bludgeoning",)),
        Weapon(name="Hammer", tags=("bludgeoning",)),
        Weapon(name="Hatchet", tags=("axe", "slashing"), throwable=True, notes="can be thrown at nearby range (ACC)"),
        Weapon(name="Cleaver", tags=("slashing",)),
        Weapon(name="Machete", tags=("slashing",)),
        Weapon(name="Staff", tags=("bludgeoning",)),
        Weapon(name="Pirate sword", tags=("sword", "slashing")),
        Weapon(name="Fists", kind="natural", tags=("bludgeoning",)),
        Weapon(name="Claws", kind="natural", tags=("claw", "slashing")),
        Weapon(name="Bite", kind="natural", tags=("bite", "piercing")),
        Weapon(name="Tail", kind="natural", tags=("tail", "bludgeoning")),
        Weapon(
            name="Bear hug",
            kind="special",
            stat="BODY",
            condition="Grappled",
            injury="crushed",
            tags=("crushing", "bludgeoning"),
            notes="BODY save or be grappled and suffer a lesser injury (crushed)",
        ),
        Weapon(
            name="Buffeting wings",
            kind="special",
            stat="BODY",
            condition="Prone",
            level=-1,
            multi="area",
            tags=("wind",),
            notes="BODY save or fall prone",
        ),
        Weapon(
            name="Fire breath",
            kind="special",
            stat="BODY",
            level=2,
            multi="area",
            injury="horribly burned",
            recharge=2,
            tags=("fire",),
            notes="2-in-6 recharge; inhale 1 round; lights flammable items; BODY save or severe injury",
        ),
    )
}

WORKINGS: dict[str, Working] = {
    w.name.lower(): w
    for w in (
        Working(
            name="Hex",
            level=1,
            effect="condition",
            condition="Hexed",
            value=2,
            notes="+2 DV until the paper is destroyed",
            paper=True,
        ),
        Working(
            name="Naming",
            level=3,
            effect="injury",
            injury_level=2,
            injury="agony",
            notes="severe injury (agony); only destroying the paper removes it",
            paper=True,
        ),
        Working(name="Hag eye", level=1, notes="an enchanted eyeball to spy with"),
        Working(name="Healing hands", level=1, effect="heal", notes="restore 1 injury slot"),
    )
}


NPC_PRESETS: tuple[Preset, ...] = (
    Preset(
        id="outlaw",
        name="Outlaw",
        kind=NPC,
        category="NPCs",
        summary="T 3 ML 7 ▢▢|▢▢|▢ Machete. 2 Revolvers",
        sheet={"threat": 3, "morale": 7, "slots": "2/2/1", "weapons": "Machete, 2 Revolvers", "lead": 3},
    ),
    Preset(
        id="pinkerton",
        name="Pinkerton",
        kind=NPC,
        category="NPCs",
        summary="T 4 ML 9 ▢▢|▢▢|▢ Knife. Repeater",
        sheet={"threat": 4, "morale": 9, "slots": "2/2/1", "weapons": "Knife, Repeater", "lead": 3},
    ),
    Preset(
        id="preacher",
        name="Preacher",
        kind=NPC,
        category="NPCs",
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
        category="NPCs",
        summary="T 4 ML 7, Large ▢▢|▢▢|▢ Claws. Bite. Bear hug: BOD save or grappled, lesser (crushed)",
        sheet={"threat": 4, "morale": 7, "slots": "2/2/1", "weapons": "Claws, Bite, Bear hug", "size": "large"},
    ),
    Preset(
        id="fire_dragon",
        name="Fire Dragon",
        kind=NPC,
        category="Monsters",
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
        category="NPCs",
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
        category="Monsters",
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
        category="Characters",
        summary="ACC 14 BODY 10 CTRL 9, Revolver, Rifle, Hunting knife, 4 lead",
        sheet={"acc": 14, "body": 10, "ctrl": 9, "weapons": "Revolver, Rifle, Hunting knife", "lead": 4},
    ),
    Preset(
        id="lead_eater",
        name="Lead-eater",
        kind=PC,
        category="Characters",
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
