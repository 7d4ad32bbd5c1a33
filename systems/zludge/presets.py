"""Presets: common weapons and armor by level (reference data, kinds "weapon" and "armor"), and a few NPCs.

Only "pc" and "npc" presets are offered as combatants; a weapon or armor preset
can still be named when adding a combatant (its sheet gives just that item).
"""

from __future__ import annotations

from tracker.model import NPC
from tracker.plugin import Preset

from .sheet import ARMORS, WEAPONS


def _slug(name: str) -> str:
    return name.replace(" (", "-").replace(")", "").replace(" ", "-")


def presets() -> tuple[Preset, ...]:
    weapons = tuple(
        Preset(
            id=f"weapon-{_slug(name)}",
            name=name.title(),
            kind="weapon",
            sheet={"weapon": name},
            summary=f"weapon, damage level {level} ({skill})",
            category="Weapons",
        )
        for name, (level, skill) in WEAPONS.items()
    )
    armors = tuple(
        Preset(
            id=f"armor-{_slug(name)}",
            name=name.title(),
            kind="armor",
            sheet={"armor": name},
            summary=f"armor level {level}",
            category="Armor",
        )
        for name, level in ARMORS.items()
        if name != "none"
    )
    people = (
        Preset(
            id="thug",
            name="Thug",
            kind=NPC,
            sheet={
                "skills": "Melee 1, Unarmed 1, Acrobatics 0, Reflexes 0",
                "weapon": "short club",
                "armor": "leather jacket",
            },
            summary="club (1), Melee +0 Fair, leather jacket",
            category="People",
        ),
        Preset(
            id="gunman",
            name="Gunman",
            kind=NPC,
            sheet={
                "skills": "Ranged 2, Acrobatics 1, Reflexes 1, Alertness 1",
                "weapon": "pistol",
                "armor": "flak jacket",
            },
            summary="pistol (2), Ranged +1 Decent, flak jacket (1)",
            category="People",
        ),
        Preset(
            id="soldier",
            name="Soldier",
            kind=NPC,
            sheet={
                "skills": "Ranged 3, Melee 1, Acrobatics 1, Reflexes 2, Alertness 2, Stealth 1",
                "durability": 1,
                "weapon": "machine gun",
                "armor": "light kevlar",
                "armor_penalty": 1,
            },
            summary="machine gun (3), Ranged +2 Good, light kevlar (2)",
            category="People",
        ),
        Preset(
            id="knight",
            name="Knight",
            kind=NPC,
            sheet={
                "skills": "Melee 3, Acrobatics 1, Reflexes 1",
                "durability": 2,
                "weapon": "sword",
                "armor": "platemail",
                "armor_penalty": 2,
            },
            summary="sword (2), Melee +2 Good, platemail (3, -2 Acrobatics)",
            category="People",
        ),
        Preset(
            id="brawler",
            name="Brawler",
            kind=NPC,
            sheet={"skills": "Unarmed 2, Acrobatics 1, Reflexes 1", "durability": 1, "fortitude": 1},
            summary="fists (0), Unarmed +1 Decent",
            category="People",
        ),
    )
    return weapons + armors + people
