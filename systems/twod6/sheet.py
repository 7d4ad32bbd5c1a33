"""Sheets: stats, skills with ranks, talents, items, armor, cinematics; the per-combatant record.

A sheet is kept as the GM types it (``"Melee (Heavy) 2, Resolve 1"``); ``new_combatant``
checks it and writes it back in a canonical form, and ``make_data`` reads it (pure).

Rulings kept here, each with its test:
- Dual Wield names its skill, ``Dual Wield (Melee (Light))``: "each time this talent is taken it
  applies to a different skill", so a bare "Dual Wield" or the same skill twice is refused with the
  reason (test_dual_wield_names_one_skill_each_time_it_is_taken); two items stack only on a skill a
  taking names (test_dual_wield_lets_two_items_modify_one_skill).
- Extra Wound can be taken once (test_sheet_is_checked_and_written_back_in_canonical_form).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import attrs

from tracker.commands import BOOL, CHOICE, INT, STR, Param
from tracker.errors import Refused
from tracker.text import head_and_number

STATS = ("str", "agi", "dex", "tou", "int", "wil", "cha", "per")
STAT_NAMES = {
    "str": "Strength",
    "agi": "Agility",
    "dex": "Dexterity",
    "tou": "Toughness",
    "int": "Intelligence",
    "wil": "Willpower",
    "cha": "Charisma",
    "per": "Perception",
}
STAT_MIN, STAT_MAX = -2, 4

HEAVY, LIGHT, UNARMED = "Melee (Heavy)", "Melee (Light)", "Melee (Unarmed)"
MELEE = (HEAVY, LIGHT, UNARMED)
SHOOTING, ARCHERY, THROWING = "Shooting", "Archery", "Throwing"
ATHLETICS, RESOLVE, NOTICE, STEALTH, CAST, PERFORM = "Athletics", "Resolve", "Notice", "Stealth", "Cast", "Perform"
SKILLS = (
    HEAVY,
    LIGHT,
    UNARMED,
    SHOOTING,
    ARCHERY,
    THROWING,
    ATHLETICS,
    RESOLVE,
    NOTICE,
    STEALTH,
    CAST,
    PERFORM,
    "Ride",
    "Intimidate",
    "Diplomacy",
    "Bluff",
)

# talents that touch combat (others are kept on the sheet as written)
ARMOR_PROFICIENCY = "Armor Proficiency"
EXTRA_WOUND = "Extra Wound"
MULTIATTACK = "Multiattack"
SNIPER = "Sniper"
DUAL_WIELD = "Dual Wield"
VICIOUS_PARRY = "Vicious Parry"
SNEAK_ATTACK = "Sneak Attack"
GRACEFUL = "Graceful"
FAST_CASTER = "Fast Caster"
IMPROVISATION = "Improvisation"
FAVORED_ENEMY = "Favored Enemy"
SPELL_TURNING = "Spell Turning"
MASS_SPELL = "Mass Spell"
BLAST = "Blast"
REPEL_ATTACK = "Repel Attack"
NEGATE = "Negate"
ENTANGLE = "Entangle"
TALENTS = (
    ARMOR_PROFICIENCY,
    EXTRA_WOUND,
    MULTIATTACK,
    SNIPER,
    DUAL_WIELD,
    VICIOUS_PARRY,
    SNEAK_ATTACK,
    GRACEFUL,
    FAST_CASTER,
    IMPROVISATION,
    FAVORED_ENEMY,
    SPELL_TURNING,
    MASS_SPELL,
    BLAST,
    REPEL_ATTACK,
    NEGATE,
    ENTANGLE,
    "Stat Boost",
    "Acrobat",
)

ARMORS = ("none", "light", "medium", "heavy")
ARMOR_LEVEL = {"none": 0, "light": 1, "medium": 2, "heavy": 3}


def canonical(name: str, known: tuple[str, ...]) -> str:
    """The book's spelling of a skill or talent name, else the name as typed (tidied)."""
    tidy = re.sub(r"\s+", " ", name.replace("“", "").replace("”", "").replace('"', "")).strip()
    tidy = re.sub(r"\s*\(\s*", " (", tidy).replace(" )", ")")
    for k in known:
        if k.lower() == tidy.lower():
            return k
    return tidy


def _split(text: str, seps: str = ",;") -> list[str]:
    """Split on separators outside parentheses."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch in seps and depth <= 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    out.append(cur)
    return [p.strip() for p in out if p.strip()]


def parse_skills(text: str) -> tuple[tuple[str, int], ...]:
    """``"Melee (Heavy) 2, Resolve 1"`` -> ((name, ranks), ...)."""
    out: dict[str, int] = {}
    for part in _split(text or ""):
        m = head_and_number(part, plus=True)  # re.match(r"^(.*?)\s*\+?(-?\d+)$", part), in linear time
        if not m or not m[0]:
            raise Refused(f"skill '{part}' needs its ranks after the name, like 'Melee (Heavy) 2'")
        ranks = int(m[1])
        if not 0 <= ranks <= 20:
            raise Refused(f"skill '{part}': ranks run from 0 up (each rank is +1), not {ranks}")
        out[canonical(m[0], SKILLS)] = ranks
    return tuple(out.items())


def split_talent(talent: str) -> tuple[str, str]:
    """``"Favored Enemy (Goblin)"`` -> ("Favored Enemy", "Goblin")."""
    if "(" in talent and talent.endswith(")"):
        i = talent.index("(")
        return canonical(talent[:i], TALENTS), talent[i + 1 : -1].strip()
    return canonical(talent, TALENTS), ""


def parse_talents(text: str) -> tuple[str, ...]:
    out = []
    for part in _split(text or "", ","):
        name, arg = split_talent(canonical(part, TALENTS))
        if name.lower().startswith("sneak") and "attack" in name.lower():
            name = SNEAK_ATTACK
        if arg and name in (SNEAK_ATTACK, DUAL_WIELD):
            arg = canonical(arg, SKILLS)
        out.append(f"{name} ({arg})" if arg else name)
    return tuple(out)


@attrs.frozen(kw_only=True)
class Item:
    name: str
    skill: str
    bonus: int


def parse_items(text: str) -> tuple[Item, ...]:
    """``"Ancestral Longsword: Melee (Heavy) +1; Pendant: Cast +1"``."""
    out = []
    for part in _split(text or "", ";"):
        name, _, rest = part.rpartition(":")
        m = head_and_number(rest.strip(), signs="+-", sign_required=True)  # ^(.*?)\s*([+-]\d+)$
        if not m or not m[0]:
            raise Refused(f"item '{part}' must read 'name: skill +N', like 'Longsword: Melee (Heavy) +1'")
        out.append(Item(name=name.strip() or m[0].strip(), skill=canonical(m[0], SKILLS), bonus=int(m[1])))
    return tuple(out)


def items_text(items: tuple[Item, ...]) -> str:
    return "; ".join(f"{i.name}: {i.skill} {i.bonus:+d}" for i in items)


@attrs.frozen(kw_only=True)
class Limb:
    name: str
    penalty: int


def parse_limbs(text: str) -> tuple[Limb, ...]:
    """``"left leg -3, arm -2"`` -> Limbs (a GM adjust); a penalty runs from −1 to −5."""
    out: list[Limb] = []
    seen: set[str] = set()  # the names so far, in lower case
    for part in _split(text or ""):
        m = head_and_number(part, sign_required=True)  # re.match(r"^(.*?)\s*(-\d+)$", part)
        if not m or not m[0].strip():
            raise Refused(f"useless limb '{part}' needs its penalty after the name, like 'left leg -3'")
        penalty = int(m[1])
        if not -5 <= penalty <= -1:
            raise Refused(f"useless limb '{part}': a useless limb gives −2 or −3 (at most −5), not {penalty}")
        name = m[0].strip()
        if name.lower() in seen:
            raise Refused(f"the {name} is named twice")
        seen.add(name.lower())
        out.append(Limb(name=name, penalty=penalty))
    return tuple(out)


def sheet_fields(kind: str) -> tuple[Param, ...]:
    stats = tuple(
        Param(name=k, kind=INT, label=f"{STAT_NAMES[k]} ({k.upper()})", default=0, help="−2 to +4") for k in STATS
    )
    return (
        *stats,
        Param(
            name="skills",
            label="Skills",
            default="",
            required=False,
            help="name and ranks, comma-separated: Melee (Heavy) 2, Resolve 1, Shooting 1",
        ),
        Param(
            name="talents",
            label="Talents",
            default="",
            required=False,
            help="comma-separated: Multiattack, Extra Wound, Sniper, Favored Enemy (Goblin), Blast, Repel Attack…",
        ),
        Param(
            name="items",
            label="Items",
            default="",
            required=False,
            help="'name: skill +N', separated by ';': Ancestral Longsword: Melee (Heavy) +1",
        ),
        Param(name="armor", kind=CHOICE, choices=ARMORS, default="none", label="Armor"),
        Param(name="fine_armor", kind=BOOL, default=False, label="Fine armor", help="penalties lessened by 1"),
        Param(name="race", kind=STR, default="", required=False, label="Race", help="for Favored Enemy"),
        Param(name="cinematics", kind=INT, default=0, min=0, max=99, label="Cinematics"),
    )


def check_sheet(sheet: Mapping[str, Any]) -> dict[str, Any]:
    """Check a sheet and return it in canonical form (Refused names the rule)."""
    fields = {p.name: p for p in sheet_fields("pc")}
    out: dict[str, Any] = {}
    for key in STATS:
        value = fields[key].parse(sheet.get(key))
        if not STAT_MIN <= value <= STAT_MAX:
            raise Refused(
                f"{STAT_NAMES[key]} ({key.upper()}) {value:+d} is outside −2..+4: "
                "every stat starts at −2 and no stat can pass +4 (and that only with a Stat Boost)"
            )
        out[key] = value
    skills = parse_skills(str(sheet.get("skills") or ""))
    out["skills"] = ", ".join(f"{n} {r}" for n, r in skills)
    talents = parse_talents(str(sheet.get("talents") or ""))
    if sum(1 for t in talents if t == EXTRA_WOUND) > 1:
        raise Refused("Extra Wound can only be taken once")
    check_dual_wield(talents)
    out["talents"] = ", ".join(talents)
    out["items"] = items_text(parse_items(str(sheet.get("items") or "")))
    armor = str(sheet.get("armor") or "none").lower()
    out["armor"] = fields["armor"].parse(armor)
    out["fine_armor"] = fields["fine_armor"].parse(sheet.get("fine_armor"))
    out["race"] = str(sheet.get("race") or "").strip()
    out["cinematics"] = fields["cinematics"].parse(sheet.get("cinematics"))
    for key in sheet:
        if key not in out and key not in fields:
            raise Refused(f"a 2d6 sheet has no field '{key}'")
    return out


def check_dual_wield(talents: tuple[str, ...]) -> None:
    """Each taking of Dual Wield names one skill, a different one each time."""
    named: set[str] = set()
    for t in talents:
        name, arg = split_talent(t)
        if name != DUAL_WIELD:
            continue
        if not arg:
            raise Refused(
                "Dual Wield names the skill its two items modify, like 'Dual Wield (Melee (Light))': "
                "each time this talent is taken it applies to a different skill"
            )
        if arg.lower() in named:
            raise Refused(f"Dual Wield ({arg}) is taken twice: each time it is taken it applies to a different skill")
        named.add(arg.lower())


def max_wounds(tou: int, talents: tuple[str, ...]) -> int:
    """3 + TOU (even a negative one), +1 with Extra Wound; at least 1."""
    return max(1, 3 + tou + (1 if EXTRA_WOUND in talents else 0))
