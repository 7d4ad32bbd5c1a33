"""Ready-made sheets: the book's worked-example fighters and a few common foes."""

from __future__ import annotations

from tracker.model import PC
from tracker.plugin import Preset


def _sheet(stats: str, skills: str, talents: str = "", items: str = "", armor: str = "none", **more: object) -> dict:
    keys = ("str", "agi", "dex", "tou", "int", "wil", "cha", "per")
    sheet: dict[str, object] = dict(zip(keys, (int(x) for x in stats.split()), strict=True))
    sheet.update(skills=skills, talents=talents, items=items, armor=armor, **more)
    return sheet


PRESETS = (
    Preset(
        id="longsword",
        name="Longsword Fighter",
        kind=PC,
        category="The book's examples",
        summary="the book's attacker: Melee (Heavy) 2, STR +1, Ancestral Longsword +1",
        sheet=_sheet("1 0 0 1 0 1 0 0", "Melee (Heavy) 2, Resolve 1", "", "Ancestral Longsword: Melee (Heavy) +1"),
    ),
    Preset(
        id="knife",
        name="Knife Fighter",
        kind=PC,
        category="The book's examples",
        summary="the book's defender: Melee (Light) 1, AGI +1, Well-made Knife +1, leather armor",
        sheet=_sheet("0 1 1 0 0 1 0 1", "Melee (Light) 1, Stealth 1", "", "Well-made Knife: Melee (Light) +1", "light"),
    ),
    Preset(
        id="bandit",
        name="Bandit",
        category="Foes",
        summary="Melee (Light) 1, Shooting 1, leather",
        sheet=_sheet("0 1 1 0 -1 0 0 0", "Melee (Light) 1, Shooting 1, Athletics 1", "", "", "light"),
    ),
    Preset(
        id="guard",
        name="Town Guard",
        category="Foes",
        summary="Melee (Heavy) 2, chainmail with Armor Proficiency",
        sheet=_sheet("1 0 0 1 0 0 0 0", "Melee (Heavy) 2, Resolve 1, Notice 1", "Armor Proficiency", "", "medium"),
    ),
    Preset(
        id="goblin",
        name="Goblin Raider",
        category="Foes",
        summary="Stealth (racial), Melee (Light) 1, Archery 1",
        sheet=_sheet("-1 2 1 -1 0 0 -1 1", "Stealth 1, Melee (Light) 1, Archery 1", "", "", "light", race="Goblin"),
    ),
    Preset(
        id="wolf",
        name="Wolf",
        category="Beasts",
        summary="Melee (Unarmed) 2, Athletics 2, Notice 2",
        sheet=_sheet("1 2 0 0 -2 0 -2 2", "Melee (Unarmed) 2, Athletics 2, Notice 2"),
    ),
    Preset(
        id="mage",
        name="Hedge Mage",
        category="Foes",
        summary="Cast 2 with Blast and Repel Attack",
        sheet=_sheet("-1 0 0 0 2 1 0 0", "Cast 2, Resolve 1", "Blast, Repel Attack", "Pendant: Cast +1"),
    ),
)
