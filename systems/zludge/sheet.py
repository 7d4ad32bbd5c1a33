"""Zludge sheets: the form, weapons and armor by level, checking a sheet, the GM's edits.

A sheet is checked and normalised by :func:`normalize` (pure, idempotent,
raises Refused naming the rule) and turned into a
:class:`~systems.zludge.model.ZludgeData` by :func:`build_data`.

Ruling (rule ``ranks``): skills, Durability and Endurance included, are
capped at 3 ranks (a specialization still adds to a skill's rank modifier).  A
fight file saved before the cap with 4 ranks of Durability or Endurance still
loads with them (``normalize(..., strict=False)`` when the data is rebuilt);
only a new sheet or a GM adjust is held to 3.
"""

from __future__ import annotations

import difflib
import re
import string
from collections.abc import Mapping
from typing import Any

import attrs

from tracker.commands import BOOL, CHOICE, INT, Param, parse_modifiers
from tracker.errors import Refused
from tracker.shapes import sheet_value
from tracker.text import digits_end, head_and_number, spaces_end

from .model import ATTACK_SKILLS, LOCATIONS, MAX_RANKS, Skill, ZludgeData
from .table import R

# name: (damage level, skill)
WEAPONS: dict[str, tuple[int, str]] = {
    "unarmed": (0, "Unarmed"),
    "small rock": (0, "Ranged"),
    "knife": (1, "Melee"),
    "short club": (1, "Melee"),
    "holdout pistol": (1, "Ranged"),
    "sword": (2, "Melee"),
    "axe": (2, "Melee"),
    "baseball bat": (2, "Melee"),
    "pistol": (2, "Ranged"),
    "small rifle": (2, "Ranged"),
    "chainsaw": (3, "Melee"),
    "machine gun": (3, "Ranged"),
    "shotgun (close)": (3, "Ranged"),
    "grenade": (4, "Ranged"),
}

ARMORS: dict[str, int] = {
    "none": 0,
    "leather jacket": 0,
    "winter coat": 0,
    "flak jacket": 1,
    "leather armor": 1,
    "studded leather": 1,
    "light kevlar": 2,
    "chainmail": 2,
    "heavy kevlar": 3,
    "platemail": 3,
    "bomb suit": 4,
}


# ---------------------------------------------------------------------------
# the sheet form


def sheet_fields(kind: str) -> tuple[Param, ...]:
    return (
        Param(
            name="attributes",
            label="Attributes",
            default="",
            required=False,
            help="e.g. 'Agility +1, Perception -1' (each -1..+1; Fair 0 if not named; Fortitude has its own field)",
        ),
        Param(
            name="fortitude", kind=INT, label="Fortitude", default=0, min=-3, max=3, help="+1: one more Scratched box"
        ),
        Param(
            name="high_powered",
            kind=BOOL,
            label="GM allows attributes beyond ±1",
            default=False,
            help="High-powered campaign: free bonuses beyond the usual -1..+1",
        ),
        Param(
            name="skills",
            label="Skills",
            default="",
            required=False,
            help="'Melee 2 @Agility, Ranged 3 +Pistols, Acrobatics 1, Reflexes 1' (ranks 0-3; unnamed skills are -1 Poor)",
        ),
        Param(
            name="durability",
            kind=INT,
            label="Durability ranks",
            default=0,
            min=0,
            max=MAX_RANKS,
            help="one more wound box per rank: Scratched, then Hurt, then Very Hurt (0-3 ranks)",
        ),
        Param(
            name="endurance",
            kind=INT,
            label="Endurance ranks",
            default=0,
            min=0,
            max=MAX_RANKS,
            help="one more fatigue box per rank: Winded, then Tired, then Very Tired (0-3 ranks)",
        ),
        Param(
            name="aspects",
            label="Aspects",
            default="",
            required=False,
            help="comma-separated, e.g. 'Star Ranger, Brawler'",
        ),
        Param(name="plot_points", kind=INT, label="Plot points", default=0, min=0, max=99),
        Param(
            name="weapon",
            label="Weapon",
            default="unarmed",
            help="knife, pistol, sword, shotgun (close), grenade... or 'name level' like 'laser cutter 3' (levels 0-4)",
        ),
        Param(
            name="weapon_skill",
            kind=CHOICE,
            label="Weapon skill",
            choices=("auto", *ATTACK_SKILLS),
            default="auto",
            help="auto: from the weapon (a custom weapon is Melee)",
        ),
        Param(
            name="armor",
            label="Armor",
            default="none",
            help="leather jacket, flak jacket, light kevlar, heavy kevlar, bomb suit... or 'name level' (levels 0-4)",
        ),
        Param(
            name="armor_penalty",
            kind=INT,
            label="Bulky armor penalty to Athletics and Acrobatics",
            default=0,
            min=0,
            max=4,
            help="taken on every Athletics and Acrobatics roll (defense rolls included)",
        ),
        Param(
            name="armor_covers",
            label="Armor covers",
            default="all",
            help="'all', or hit locations: head, torso, right arm, left arm, legs",
        ),
    )


_LETTERS = frozenset(string.ascii_letters)
_NAME_CHARS = frozenset(string.ascii_letters + " ()'/-")
_MARKS = "+@"


def split_skill(text: str) -> tuple[str, str, str] | None:
    """'Ranged 3 +Pistols @Agility' -> (name, ranks, the rest), in linear time; None if it is not a skill.

    The groups of ``re.match(r"^(?P<name>[A-Za-z][A-Za-z ()'/-]*?)\\s+(?P<ranks>-?\\d+)"
    r"(?P<rest>(?:\\s*[+@][^+@]+)*)$", text)``, which took seconds on long runs of spaces.
    """
    n = len(text)
    if not n or text[0] not in _LETTERS:
        return None
    last = 1  # the name ends anywhere in [1, last]
    while last < n and text[last] in _NAME_CHARS:
        last += 1
    # the rest: '+' or '@' each followed by something else, only whitespace before the first
    bad = -1
    for i in range(n - 1, -1, -1):
        if text[i] in _MARKS and (i + 1 == n or text[i + 1] in _MARKS):
            bad = i
            break
    e = 1
    while e <= last and e < n:
        if not text[e].isspace():
            e += 1
            continue
        f = spaces_end(text, e)  # \s+ takes the whole run: the ranks start at f
        first = f + 1 if f < n and text[f] == "-" else f
        g = digits_end(text, first)
        if g > first:
            if g == n or (g == n - 1 and text[g] == "\n"):
                return text[:e], text[f:g], ""
            h = spaces_end(text, g)
            if h < n and text[h] in _MARKS and bad < g:
                return text[:e], text[f:g], text[g:]
        e = f  # every name end in this run of whitespace meets the same ranks
    return None


def parse_attributes(text: str, high_powered: bool) -> tuple[tuple[str, int], ...]:
    out: list[tuple[str, int]] = []
    for m in parse_modifiers(text):
        name = m.label.strip().title()
        if name == "Modifier":
            raise Refused(f"attribute '{m.describe()}' needs a name, like 'Agility +1'")
        if name == "Fortitude":
            raise Refused("give Fortitude in its own field (it also changes the Scratched boxes)")
        _check_attribute(name, m.value, high_powered)
        out.append((name, m.value))
    return tuple(out)


def _check_attribute(name: str, value: int, high_powered: bool) -> None:
    if not high_powered and not -1 <= value <= 1:
        raise Refused(
            f"{name} {value:+d}: attributes run -1 (Poor) to +1 (Decent) at creation "
            "(tick 'GM allows attributes beyond ±1' for a high-powered campaign)"
        )
    if not -3 <= value <= 3:
        raise Refused(f"{name} {value:+d}: attributes run -3 to +3 even in a high-powered campaign")


def parse_skills(text: str) -> tuple[Skill, ...]:
    out: list[Skill] = []
    seen: set[str] = set()  # the names so far, in lower case
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        m = split_skill(part)
        if not m:
            raise Refused(f"skill '{part}': write it like 'Melee 2', 'Ranged 3 +Pistols' or 'Athletics 1 @Fortitude'")
        ranks = int(m[1])
        name = m[0].strip()
        if not 0 <= ranks <= MAX_RANKS:
            raise Refused(
                f"{name} {ranks}: a skill has 0 to {MAX_RANKS} ranks (specializations add to it)", rule=R.ranks
            )
        specs: list[str] = []
        attribute = ""
        for piece in re.findall(r"([+@])\s*([^+@]+)", m[2]):
            sign, value = piece[0], piece[1].strip()
            if sign == "+":
                specs.append(value)
            else:
                attribute = value.title()
        if name.lower() in seen:
            raise Refused(f"the skill {name} is listed twice")
        seen.add(name.lower())
        out.append(Skill(name=name, ranks=ranks, specs=tuple(specs), attribute=attribute))
    return tuple(out)


def _check_based_on(skills: tuple[Skill, ...], attributes: tuple[tuple[str, int], ...]) -> None:
    """Ruling: a skill's ``@Attribute`` that is no attribute on the sheet but close to one ("@Agilty", "@Agi" with
    Agility +1 listed) is refused, naming it: taken as written it was an unlisted attribute, Fair (+0, l.33), and
    every roll of the skill quietly lost the bonus. An attribute far from every listed one is still taken as an
    unlisted Fair attribute (the GM's world may have it)."""
    listed = {"fortitude": "Fortitude", **{n.lower(): n for n, _v in attributes}}
    for skill in skills:
        based = skill.attribute.lower()
        if not based or based in listed:
            continue
        close = [listed[n] for n in listed if len(based) >= 2 and n.startswith(based)]
        close += [listed[n] for n in difflib.get_close_matches(based, list(listed), n=1, cutoff=0.75)]
        if close:
            raise Refused(
                f"{skill.text()}: '{skill.attribute}' is not an attribute on this sheet; did you mean {close[0]}? "
                f"(an attribute not listed is Fair, +0: list it as '{skill.attribute} +0' to base a skill on it)"
            )


def parse_levelled(text: str, table: Mapping[str, Any], what: str) -> tuple[str, int | None]:
    """A preset name, or 'name level'; returns the name and its level (None: a preset)."""
    key = text.strip().lower()
    if key in table:
        return key, None
    m = head_and_number(key)  # re.match(r"^(?P<name>.*?)\s*(?P<level>-?\d+)$", key), in linear time
    if not m:
        known = ", ".join(table)
        raise Refused(f"{what} '{text}' is not one of {known}, nor 'name level' like '{what} 2'")
    level = int(m[1])
    if not 0 <= level <= 4:
        raise Refused(f"{what} '{text}': damage levels run 0 to 4, not {level}")
    return (m[0].strip() or what), level


def _track_skills(skills: tuple[Skill, ...], out: dict[str, Any]) -> tuple[Skill, ...]:
    """Durability or Endurance written among the skills (as a sheet prints them, l.121, l.131) are their ranks
    fields: taken as an ordinary skill, the boxes they buy were silently missing. Given in both places, they must
    agree. Ruling: a specialization or attribute written on them ("Durability 2 +Tough") is refused in words, since
    they are never rolled (l.121) and it would be dropped unseen."""
    kept = []
    for skill in skills:
        field = skill.name.lower()
        if field not in ("durability", "endurance"):
            kept.append(skill)
            continue
        if skill.specs or skill.attribute:
            extra = " ".join([f"+{sp}" for sp in skill.specs] + ([f"@{skill.attribute}"] if skill.attribute else []))
            raise Refused(
                f"{skill.text()}: {skill.name} only buys boxes and is never rolled, so '{extra}' would do nothing; "
                f"write {skill.name} {skill.ranks}",
                rule=R.boxes,
            )
        given = int(out.get(field, 0) or 0)
        if given and given != skill.ranks:
            raise Refused(
                f"{skill.name} is {skill.ranks} in Skills but {given} in {skill.name} ranks: give it once", rule=R.boxes
            )
        out[field] = skill.ranks
    return tuple(kept)


def normalize(kind: str, sheet: Mapping[str, Any], strict: bool = True) -> dict[str, Any]:
    """Check a parsed sheet and return it with canonical texts and the weapon and armor levels.

    ``strict=False`` (rebuilding a combatant from a saved fight) lets Durability
    and Endurance keep the 4 ranks files saved before the 3-rank cap may hold.

    Ruling: each value is read as JSON holds it, of the type its field declares, nothing coerced: a
    ``combatant_added`` line read from a file whose sheet gives 1.5 or "1" for Fortitude or a rank, 1 for High
    powered or a number for a text was edited by hand (the form's ``Param.parse`` writes whole numbers, flags and
    texts), so its event does not apply (ValueError) and the loader names its line (Fortitude 1.5 was read as 1).
    A null reads as the field's default, as before.  Tests: tests/reliability/test_sheet_strict.py::
    test_a_sheet_value_of_the_wrong_json_type_is_refused_at_its_line.
    """
    ranks = MAX_RANKS if strict else 4
    out = dict(sheet)
    high = sheet_value(sheet, "high_powered", bool, False, null=True)
    attrs_ = parse_attributes(sheet_value(sheet, "attributes", str, "", null=True), high)
    fort = sheet_value(sheet, "fortitude", int, 0, null=True)
    _check_attribute("Fortitude", fort, high)
    skills = parse_skills(sheet_value(sheet, "skills", str, "", null=True))
    if strict:
        skills = _track_skills(skills, out)
        _check_based_on(skills, attrs_)
    weapon, wlevel = parse_levelled(sheet_value(sheet, "weapon", str, "", null=True) or "unarmed", WEAPONS, "weapon")
    wskill = sheet_value(sheet, "weapon_skill", str, "", null=True) or "auto"
    if wlevel is None:
        wlevel, auto_skill = WEAPONS[weapon]
    else:
        auto_skill = "Melee"
        weapon = f"{weapon} {wlevel}"
    if wskill.lower() == "auto":
        wskill = auto_skill
    if wskill.title() not in ATTACK_SKILLS:
        raise Refused(f"weapon skill '{wskill}' must be Melee, Ranged or Unarmed")
    armor, alevel = parse_levelled(sheet_value(sheet, "armor", str, "", null=True) or "none", ARMORS, "armor")
    if alevel is None:
        alevel = ARMORS[armor]
    else:
        armor = f"{armor} {alevel}"
    covers = (sheet_value(sheet, "armor_covers", str, "", null=True) or "all").strip().lower()
    if covers != "all":
        parts = tuple(p.strip() for p in covers.split(",") if p.strip())
        for p in parts:
            if p not in LOCATIONS:
                raise Refused(f"armor covers '{p}': hit locations are {', '.join(LOCATIONS)}")
        covers = ", ".join(parts) or "all"
    for name, lo, hi in (
        ("durability", 0, ranks),
        ("endurance", 0, ranks),
        ("plot_points", 0, 99),
        ("armor_penalty", 0, 4),
    ):
        value = sheet_value(out, name, int, 0, null=True)  # (Durability or Endurance may come from the skills)
        if not lo <= value <= hi:
            what = name.replace("_", " ")
            if name in ("durability", "endurance"):
                raise Refused(
                    f"{what} runs {lo} to {hi} ranks (a skill has at most {MAX_RANKS}), not {value}", rule=R.ranks
                )
            raise Refused(f"{what} runs {lo} to {hi}, not {value}")
        out[name] = value
    aspects = tuple(a.strip() for a in sheet_value(sheet, "aspects", str, "", null=True).split(",") if a.strip())
    out.update(
        attributes=", ".join(f"{n} {v:+d}" for n, v in attrs_),
        fortitude=fort,
        high_powered=high,
        skills=", ".join(s.text() for s in skills),
        aspects=", ".join(aspects),
        weapon=weapon,
        weapon_level=wlevel,
        weapon_skill=wskill.title(),
        armor=armor,
        armor_level=alevel,
        armor_covers=covers,
    )
    return out


def build_data(sheet: Mapping[str, Any]) -> ZludgeData:
    covers = str(sheet.get("armor_covers", "all"))
    return ZludgeData(
        attributes=parse_attributes(str(sheet.get("attributes", "")), True),
        fortitude=int(sheet.get("fortitude", 0)),
        skills=parse_skills(str(sheet.get("skills", ""))),
        durability=int(sheet.get("durability", 0)),
        endurance=int(sheet.get("endurance", 0)),
        aspects=tuple(a.strip() for a in str(sheet.get("aspects", "")).split(",") if a.strip()),
        plot_points=int(sheet.get("plot_points", 0)),
        weapon=str(sheet.get("weapon", "unarmed")),
        weapon_level=int(sheet.get("weapon_level", 0)),
        weapon_skill=str(sheet.get("weapon_skill", "Unarmed")),
        armor=str(sheet.get("armor", "none")),
        armor_level=int(sheet.get("armor_level", 0)),
        armor_penalty=int(sheet.get("armor_penalty", 0)),
        armor_covers=() if covers == "all" else tuple(p.strip() for p in covers.split(",")),
    )


TEXT_FIELDS = ("skills_text", "attributes_text", "aspects_text", "aspects_checked")


def check_text_adjust(d: ZludgeData, field: str, value: Any) -> str:
    """Parse a GM's edit of skills, attributes, aspects or checked aspects; return its canonical text."""
    text = str(value or "").strip()
    if field == "skills_text":
        skills = parse_skills(text)
        _check_based_on(skills, d.attributes)
        return ", ".join(s.text() for s in skills)
    if field == "attributes_text":
        return ", ".join(f"{n} {v:+d}" for n, v in parse_attributes(text, True))
    names = tuple(dict.fromkeys(a.strip() for a in text.split(",") if a.strip()))
    if field == "aspects_text":
        return ", ".join(names)
    checked = []
    known: dict[str, str] = {}
    for a in d.aspects:
        known.setdefault(a.lower(), a)  # the first aspect of that spelling
    for name in names:
        match = known.get(name.lower())
        if match is None:
            raise Refused(f"'{name}' is not one of the aspects ({d.aspects_text or 'none'})")
        checked.append(match)
    return ", ".join(checked)


def apply_text_adjust(d: ZludgeData, field: str, text: str) -> ZludgeData:
    if field == "skills_text":
        return attrs.evolve(d, skills=parse_skills(text))
    if field == "attributes_text":
        return attrs.evolve(d, attributes=parse_attributes(text, True))
    names = tuple(a.strip() for a in text.split(",") if a.strip())
    if field == "aspects_text":
        kept = set(names)
        return attrs.evolve(d, aspects=names, aspects_used=tuple(a for a in d.aspects_used if a in kept))
    return attrs.evolve(d, aspects_used=names)


# The GM adjust of skills shows and takes ranks ("Melee 1"), where the detail pane shows modifiers ("Melee +0
# Fair"): a GM who read "Acrobatics 0" as the ladder's Fair typed "Melee 2" for +2 Good and got +1 Decent.  The
# label and the help say the numbers are ranks, and what each rank reads as (a skill's modifier is -1 + its
# ranks, +2 for a specialization, + the attribute after @: ZludgeData.skill_mod).  Test:
# tests/systems/zludge/test_adjust_skill_help.py.
SKILL_RANKS_HELP = (
    "ranks, not modifiers: rank 0 is -1 Poor, 1 is +0 Fair, 2 +1 Decent, 3 +2 Good (+ the @attribute); "
    "'Melee 2 @Agility, Ranged 3 +Pistols' (unnamed skills are -1 Poor)"
)


def adjustable() -> tuple[Param, ...]:
    return (
        Param(
            name="skills_text",
            label="Skills (ranks 0-3)",
            required=False,
            help=SKILL_RANKS_HELP,
        ),
        Param(name="attributes_text", label="Attributes", required=False, help="'Agility +1, Perception -1'"),
        Param(name="aspects_text", label="Aspects", required=False, help="comma-separated"),
        Param(
            name="aspects_checked",
            label="Aspects checked off today",
            required=False,
            help="comma-separated",  # the adjust form adds "none: clear it" (empty is refused there)
        ),
        Param(name="plot_points", kind=INT, label="Plot points", min=0, max=99),
        Param(name="durability", kind=INT, label="Durability ranks", min=0, max=MAX_RANKS),
        Param(name="endurance", kind=INT, label="Endurance ranks", min=0, max=MAX_RANKS),
        Param(name="fortitude", kind=INT, label="Fortitude", min=-3, max=3),
        Param(name="weapon_level", kind=INT, label="Weapon damage level", min=0, max=4),
        Param(name="weapon_skill", kind=CHOICE, label="Weapon skill", choices=ATTACK_SKILLS),
        Param(name="armor_level", kind=INT, label="Armor level", min=0, max=4),
        Param(name="armor_penalty", kind=INT, label="Bulky armor penalty to Athletics and Acrobatics", min=0, max=4),
        Param(
            name="wound_track",
            label="Wound boxes",
            required=False,
            help="Scratched|Hurt|Very Hurt|Incap.|Comatose: each box the wound's level, ' treated, ~ healed, . empty",
        ),
        Param(
            name="fatigue_track",
            label="Fatigue boxes",
            required=False,
            help="Winded|Tired|Very Tired|Exhausted|Unconscious: level or P physical, . empty",
        ),
        Param(name="clipped", kind=BOOL, label="Clipped"),
        Param(name="acted", kind=BOOL, label="Has acted (not flat-footed)"),
        Param(name="spent", kind=BOOL, label="Has taken this turn's action"),
        Param(name="dead", kind=BOOL, label="Dead"),
    )
