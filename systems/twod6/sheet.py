"""Sheets: stats, skills with ranks, talents, items, armor, cinematics; the per-combatant record.

A sheet is kept as the GM types it (``"Melee (Heavy) 2, Resolve 1"``); ``new_combatant``
checks it and writes it back in a canonical form, and ``make_data`` reads it (pure).

Rulings kept here, each with its test:
- Dual Wield names its skill, ``Dual Wield (Melee (Light))``: "each time this talent is taken it
  applies to a different skill", so a bare "Dual Wield" or the same skill twice is refused with the
  reason (test_dual_wield_names_one_skill_each_time_it_is_taken); two items stack only on a skill a
  taking names (test_dual_wield_lets_two_items_modify_one_skill).
- Extra Wound can be taken once (test_sheet_is_checked_and_written_back_in_canonical_form).
- Stat Boost ("+1 to a stat, can only be taken once per stat", twod6 @14867, @23594) names its stat, written back as
  ``Stat Boost (STR)`` ("Stat boost strength" reads so); a bare or unknown one is refused, and the same stat's taken
  twice is refused in the book's words; a stat with its Stat Boost is never below −1 ("if you have a stat boost
  talent for a stat, it can never be lowered below -1", @57443).  These hold for every sheet, PC or NPC, as Extra
  Wound's once does (test_stat_limits.py::test_a_stat_boost_taken_twice_for_one_stat_is_refused_in_the_books_words,
  ::test_a_stat_boost_names_its_stat, ::test_a_stat_with_its_stat_boost_is_never_below_minus_one).
- Ruling: a stat at +4 needs no Stat Boost on the sheet.  The book caps a stat at +3 "at this point in character
  creation", +4 with "the appropriate Stat boost talent" (@11862); a sheet here is a character in play, not one
  being created: none of creation's budgets is checked (24 stat points, five skill points, two talents), skill
  ranks run past the creation cap and a plot item's +2 ("never taken at character creation") is taken, and a
  character can stand at +4 with no Stat Boost after Stat Rearranges (@56884) or in an Altered State ("+1 bonus to
  one stat", @15248).  The stats run −2..+4 whatever the talents, and the refusal of +5 no longer claims a Stat
  Boost condition the check never made; the tests' sheets at +4 (a PC Champion at STR +4 with Melee (Heavy) 8)
  are such characters.  A GM's adjust (``=``) of a stat is held to the same −2..+4, no Stat Boost asked: a GM
  sets a stat in play (a state that lifts it, a mistake fixed), and the talents cannot be adjusted to add one
  (test_stat_limits.py::test_plus_four_needs_no_stat_boost_and_plus_five_is_refused_without_claiming_one,
  ::test_a_gm_adjust_of_a_stat_to_plus_four_needs_no_stat_boost).
- Only a sheet being added is checked so: a fight file keeps the sheet as checked when it was added, and
  ``make_data`` reads it unchecked, so an older file with a Stat Boost twice loads and replays as before
  (test_stat_limits.py::test_an_older_fight_file_with_a_stat_boost_twice_loads_and_replays_as_before).
- Names are matched as the book spells them whatever the case, spaces, hyphens, a missing parenthesis or a
  trailing plural; a near miss of a name the book lists is refused with the name to write, a skill listed twice is
  refused, and an item names a skill of the book or of the sheet (test_sheet_typos.py).  Only a sheet being added
  is checked so: a fight file written before reads its sheets as it always did (``strict=False``).
"""

from __future__ import annotations

import difflib
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
FAVORED_CULTURE = "Favored Culture"
SPELL_TURNING = "Spell Turning"
MASS_SPELL = "Mass Spell"
BLAST = "Blast"
REPEL_ATTACK = "Repel Attack"
NEGATE = "Negate"
ENTANGLE = "Entangle"
STAT_BOOST = "Stat Boost"
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
    STAT_BOOST,
    "Acrobat",
)

# the book's other sample skills (twod6 @31873), and those "with a set of parentheses after the name" (each taking names
# what it covers: Melee's three kinds, a field of Knowledge, a Trade, ...)
BOOK_SKILLS = (*SKILLS, "Drive", "Forgery", "Hacking", "Lockpicking", "Pilot", "Research", "Sleight of Hand")
MELEE_KIND = "Melee"
SUBSET_SKILLS = (MELEE_KIND, "Knowledge", "Trade", "Language", "Perform", "Craft")
# the book's other sample talents (twod6 @13613), its racial example (@43185), and its spells (talents, @23927)
BOOK_TALENTS = (
    *TALENTS,
    "Altered State",
    "Alternate Form",
    "Animal Kinship",
    "Companion",
    "Computer Literacy",
    "Connections",
    "Credentials",
    "Extra Organ",
    "Extra Sense",
    FAVORED_CULTURE,
    "Literacy",
    "Polyglot",
    "Rich",
    "Darkvision",
    "Armor",
    "Animate",
    "Charm",
    "Control",
    "Create",
    "Destroy",
    "Fly/Jump",
    "Heal",
    "Illusion",
    "Levitate",
    "Natural Phenomenon",
    "Ritual",
    "Runes",
    "Stick to Walls",
    "Summon",
    "Transmute",
    "Ward",
)
# talents that name what they apply to, so "Favored Enemy Goblin" is read as "Favored Enemy (Goblin)"
ARG_TALENTS = (
    FAVORED_ENEMY,
    FAVORED_CULTURE,
    STAT_BOOST,
    DUAL_WIELD,
    SNEAK_ATTACK,
    "Altered State",
    "Extra Organ",
    "Extra Sense",
    "Credentials",
    "Companion",
    "Polyglot",
)
CLOSE = 0.8  # how alike (difflib's ratio) a name must be to one of the book's to be taken for a misspelling of it

ARMORS = ("none", "light", "medium", "heavy")
ARMOR_LEVEL = {"none": 0, "light": 1, "medium": 2, "heavy": 3}


def _tidy(name: str) -> str:
    tidy = re.sub(r"\s+", " ", name.replace("“", "").replace("”", "").replace('"', "")).strip()
    return re.sub(r"\s*\(\s*", " (", tidy).replace(" )", ")")


def canonical(name: str, known: tuple[str, ...]) -> str:
    """The book's spelling of a skill or talent name, else the name as typed (tidied)."""
    tidy = _tidy(name)
    for k in known:
        if k.lower() == tidy.lower():
            return k
    return tidy


def _key(name: str) -> str:
    """A name as matched: lower case, letters and digits only (no spaces, hyphens, parentheses, quotes)."""
    return "".join(ch for ch in name.lower() if ch.isalnum())


def _keys(names: tuple[str, ...]) -> dict[str, str]:
    return {_key(n): n for n in names}


_SKILL_KEYS = _keys(BOOK_SKILLS)
_SUBSET_KEYS = _keys(SUBSET_SKILLS)
_MELEE_KEYS = _keys(MELEE)
_TALENT_KEYS = _keys(BOOK_TALENTS)
_ARG_TALENT_KEYS = _keys(ARG_TALENTS)


def _lookup(key: str, table: Mapping[str, str]) -> str | None:
    """The name whose key is ``key``, or ``key`` less a trailing plural ("Extra Wounds" -> Extra Wound)."""
    tries = [key]
    if key.endswith("ies"):
        tries.append(key[:-3] + "y")
    if key.endswith("es"):
        tries.append(key[:-2])
    if key.endswith("s"):
        tries.append(key[:-1])
    return next((table[k] for k in tries if k in table), None)


def _close(key: str, table: Mapping[str, str]) -> str | None:
    """The name ``key`` is a near miss of (no name of the book runs past 40 letters: a longer one is none)."""
    if not key or len(key) > 40:
        return None
    hit = difflib.get_close_matches(key, list(table), n=1, cutoff=CLOSE)
    return table[hit[0]] if hit else None


def _paren(text: str) -> tuple[str, str] | None:
    """``"Knowledge (History)"`` -> ("Knowledge", "History"); None without a closing parenthesis."""
    if "(" in text and text.endswith(")"):
        i = text.index("(")
        return text[:i].strip(), text[i + 1 : -1].strip()
    return None


def _skill(name: str) -> tuple[str, bool]:
    """The book's spelling of a skill, and whether the book has it (else the new skill as typed, tidied).

    Ruling: case, spaces, hyphens, a missing parenthesis ("Melee Heavy", "Trade Healing") and a trailing plural
    do not matter; a near miss of a skill the book lists ("Meele (Heavy)") is refused with the name to write;
    Melee is one of its three kinds; any other name is a skill of the GM's own, kept as typed.
    """
    tidy = _tidy(name)
    hit = _lookup(_key(tidy), _SKILL_KEYS)
    if hit is not None:
        return hit, True
    parts = _paren(tidy) or tuple(re.split(r"[\s\-]+", tidy, maxsplit=1))
    head = _lookup(_key(parts[0]), _SUBSET_KEYS)
    arg = parts[1] if len(parts) == 2 else ""
    if head is None and len(parts) == 2 and _paren(tidy):  # "Knowlege (History)"
        near = _close(_key(parts[0]), _SUBSET_KEYS)
        if near is not None and near != MELEE_KIND:
            raise Refused(f"'{tidy}' is not a skill of the book; did you mean {near} ({arg})?")
    if head == MELEE_KIND:
        near = _close(_key(tidy), _MELEE_KEYS) if arg else None
        if near is not None:
            raise Refused(f"'{tidy}' is not a skill of the book; did you mean {near}?")
        raise Refused(f"'{tidy}': melee comes in three kinds, each a skill of its own: {HEAVY}, {LIGHT} or {UNARMED}")
    if head is not None:
        return (f"{head} ({arg})" if arg else head), True
    near = _close(_key(tidy), _SKILL_KEYS)
    if near is not None:
        raise Refused(f"'{tidy}' is not a skill of the book; did you mean {near}?")
    return tidy, False


def skill_name(name: str) -> str:
    """The book's spelling of a skill (see :func:`_skill`; Refused for a near miss)."""
    return _skill(name)[0]


def talent_name(talent: str) -> str:
    """The book's spelling of a talent, with what it names: ``"favoured enemy (Goblin)"`` is refused.

    Ruling: case, spaces, hyphens, quotes, a missing parenthesis ("Favored Enemy Goblin") and a trailing plural
    ("Extra Wounds") do not matter, and "Multi-attack" is Multiattack; a near miss of a talent or spell the book
    lists is refused with the name to write; any other name is a talent of the GM's own, kept as typed.  Dual Wield
    and Sneak Attack name a skill, read as :func:`skill_name` reads one.
    """
    tidy = _tidy(talent)
    name, arg = _paren(tidy) or (tidy, "")
    hit = _lookup(_key(name), _TALENT_KEYS)
    if hit is None and not arg:  # a missing parenthesis: the first words name a talent that names something
        words = tidy.split(" ")
        for n in range(min(3, len(words) - 1), 0, -1):
            found = _lookup(_key(" ".join(words[:n])), _ARG_TALENT_KEYS)
            if found is not None:
                hit, arg = found, " ".join(words[n:])
                break
    if hit is None:
        near = _close(_key(name), _TALENT_KEYS)
        if near is not None:
            raise Refused(f"'{tidy}' is not a talent of the book; did you mean {near}{f' ({arg})' if arg else ''}?")
        hit = name
    if arg and hit in (SNEAK_ATTACK, DUAL_WIELD):
        arg = skill_name(arg)
    return f"{hit} ({arg})" if arg else hit


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


def parse_skills(text: str, *, strict: bool = True) -> tuple[tuple[str, int], ...]:
    """``"Melee (Heavy) 2, Resolve 1"`` -> ((name, ranks), ...).

    Ruling: each name is read as :func:`skill_name` reads it (a near miss of the book's is refused), and a skill
    listed twice is refused, as zludge does.  ``strict=False`` reads a sheet already checked, or one a fight file
    written before these checks holds, as it was always read (the book's spelling by case only; the last of a
    skill listed twice).
    """
    out: dict[str, int] = {}
    for part in _split(text or ""):
        m = head_and_number(part, plus=True)  # re.match(r"^(.*?)\s*\+?(-?\d+)$", part), in linear time
        if not m or not m[0]:
            raise Refused(f"skill '{part}' needs its ranks after the name, like 'Melee (Heavy) 2'")
        ranks = int(m[1])
        if not 0 <= ranks <= 20:
            raise Refused(f"skill '{part}': ranks run from 0 up (each rank is +1), not {ranks}")
        name = skill_name(m[0]) if strict else canonical(m[0], SKILLS)
        if strict and name.lower() in (n.lower() for n in out):
            raise Refused(f"the skill {name} is listed twice: give its ranks once")
        out[name] = ranks
    return tuple(out.items())


def split_talent(talent: str) -> tuple[str, str]:
    """``"Favored Enemy (Goblin)"`` -> ("Favored Enemy", "Goblin")."""
    if "(" in talent and talent.endswith(")"):
        i = talent.index("(")
        return canonical(talent[:i], TALENTS), talent[i + 1 : -1].strip()
    return canonical(talent, TALENTS), ""


def parse_talents(text: str, *, strict: bool = True) -> tuple[str, ...]:
    """``"Multiattack, Favored Enemy (Goblin)"`` -> the talents, each as :func:`talent_name` reads it.

    Ruling: a near miss of a talent or spell of the book is refused with the name to write.  ``strict=False``
    reads a checked sheet, or an older fight file's, as it was always read.
    """
    if strict:
        return tuple(talent_name(part) for part in _split(text or "", ","))
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


ITEM_FORM = "'name: skill +N', like 'Longsword: Melee (Heavy) +1'"


def _item_parts(text: str) -> list[str]:
    """The items a sheet being added lists: split on ';', and on a ',' that ends a whole 'name: skill +N'.

    A ',' splits only where the text since the last split already reads as an item (a ':' and then a signed
    number), so "Sword, Flaming: Melee (Heavy) +1" stays one item named "Sword, Flaming".
    """
    out: list[str] = []
    for part in _split(text, ";"):
        held: list[str] = []
        colon = False
        for piece in _split(part, ","):
            held.append(piece)
            colon = colon or ":" in piece
            if colon and head_and_number(piece, signs="+-", sign_required=True):
                out.append(", ".join(held))
                held, colon = [], False
        if held:
            out.append(", ".join(held))
    return out


def parse_items(text: str, skills: tuple[str, ...] = (), *, strict: bool = True) -> tuple[Item, ...]:
    """``"Ancestral Longsword: Melee (Heavy) +1; Pendant: Cast +1"`` (or the same with a comma).

    Ruling: an item modifies a skill of the book or one of ``skills`` (the sheet's); any other ("Longsword +1",
    the item's own name where its skill should be) is refused with how an item is written, and a near miss of a
    skill of the book with the name to write.

    Ruling: items are separated by ';' or, as skills and talents are, by ',': a ',' ends an item where the text
    before it reads 'name: skill +N' ("Ancestral Longsword: Melee (Heavy) +1, Pendant: Cast +1" is two items, the
    Longsword's +1 kept; a ',' inside a name, "Sword, Flaming: Melee (Heavy) +1", stays in it); an item's name
    holding a ':' (two items run together, "Longsword: Melee (Heavy) +1 Pendant: Cast +1") is refused, saying to
    separate them.  Tests: test_sheet_typos.py::test_items_typed_with_commas_are_read_as_items,
    ::test_an_item_name_holding_a_colon_is_refused_saying_how_to_separate_items.

    ``strict=False`` reads a checked sheet, or an older fight file's, as it was always read: split on ';' only, the
    name running to the last ':'.  A sheet checked before commas split items holds such a merged item in its fight
    file ("Ancestral Longsword: Melee (Heavy) +1, Pendant" for Cast +1) and replays with it, unchanged
    (test_sheet_typos.py::test_an_older_fight_file_with_items_typed_with_commas_replays_as_before); a sheet checked
    now is written back with ';' between its items, so it reads the same either way.
    """
    out = []
    mine = {s.lower(): s for s in skills}
    for part in _item_parts(text or "") if strict else _split(text or "", ";"):
        name, _, rest = part.rpartition(":")
        m = head_and_number(rest.strip(), signs="+-", sign_required=True)  # ^(.*?)\s*([+-]\d+)$
        if not m or not m[0]:
            raise Refused(f"item '{part}' must read {ITEM_FORM}; separate items with ';' or ','")
        if strict and ":" in name:
            raise Refused(
                f"item '{part}' runs two items together: write each as 'name: skill +N' and separate them with ';' "
                "or ',', like 'Longsword: Melee (Heavy) +1; Pendant: Cast +1'"
            )
        if strict:
            try:
                skill, known = _skill(m[0])
            except Refused as e:
                raise Refused(f"item '{part}': {e}") from None
            if not known and skill.lower() in mine:
                skill = mine[skill.lower()]  # as the sheet spells it
            elif not known:
                raise Refused(
                    f"item '{part}': '{skill}' is no skill of the book or of this sheet; an item must read {ITEM_FORM}"
                )
        else:
            skill = canonical(m[0], SKILLS)
        out.append(Item(name=name.strip() or m[0].strip(), skill=skill, bonus=int(m[1])))
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
            help="'name: skill +N', separated by ';' or ',': Ancestral Longsword: Melee (Heavy) +1, Pendant: Cast +1",
        ),
        Param(name="armor", kind=CHOICE, choices=ARMORS, default="none", label="Armor"),
        Param(name="fine_armor", kind=BOOL, default=False, label="Fine armor", help="penalties lessened by 1"),
        Param(
            name="race",
            kind=STR,
            default="",
            required=False,
            label="Race",
            help="race or culture, for Favored Enemy / Culture",
        ),
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
                f"{STAT_NAMES[key]} ({key.upper()}) {value:+d} is outside −2..+4: every stat starts at −2, "
                "and +4 (beyond normal human ability) is the top of the book's scale"
            )
        out[key] = value
    skills = parse_skills(str(sheet.get("skills") or ""))
    out["skills"] = ", ".join(f"{n} {r}" for n, r in skills)
    talents = parse_talents(str(sheet.get("talents") or ""))
    if sum(1 for t in talents if t == EXTRA_WOUND) > 1:
        raise Refused("Extra Wound can only be taken once")
    talents = check_stat_boosts(talents, out)
    check_dual_wield(talents)
    out["talents"] = ", ".join(talents)
    out["items"] = items_text(parse_items(str(sheet.get("items") or ""), tuple(n for n, _ in skills)))
    armor = str(sheet.get("armor") or "none").lower()
    out["armor"] = fields["armor"].parse(armor)
    out["fine_armor"] = fields["fine_armor"].parse(sheet.get("fine_armor"))
    out["race"] = str(sheet.get("race") or "").strip()
    out["cinematics"] = fields["cinematics"].parse(sheet.get("cinematics"))
    for key in sheet:
        if key not in out and key not in fields:
            raise Refused(f"a 2d6 sheet has no field '{key}'")
    return out


_STAT_KEYS = {**{k: k for k in STATS}, **{_key(n): k for k, n in STAT_NAMES.items()}}


def check_stat_boosts(talents: tuple[str, ...], stats: Mapping[str, int]) -> tuple[str, ...]:
    """The talents with each Stat Boost naming its stat as ``Stat Boost (STR)``; Refused for a Stat Boost naming no
    stat or one of the eight, the same stat's taken twice, or a boosted stat below −1 (see the module's rulings)."""
    out: list[str] = []
    boosted: set[str] = set()
    for t in talents:
        name, arg = split_talent(t)
        if name != STAT_BOOST:
            out.append(t)
            continue
        if not arg:
            raise Refused(
                "Stat Boost names the stat it raises, like 'Stat Boost (STR)': "
                "+1 to a stat, can only be taken once per stat"
            )
        key = _STAT_KEYS.get(_key(arg))
        if key is None:
            raise Refused(
                f"Stat Boost ({arg}): a Stat Boost raises one of the eight stats "
                f"({', '.join(k.upper() for k in STATS)}), like 'Stat Boost (STR)'"
            )
        if key in boosted:
            raise Refused(
                f"Stat Boost ({key.upper()}) is taken twice: Stat boost, +1 to a stat, can only be taken once per stat"
            )
        boosted.add(key)
        if stats[key] < -1:
            raise Refused(
                f"{STAT_NAMES[key]} ({key.upper()}) {stats[key]:+d} with Stat Boost ({key.upper()}): the point a stat "
                "boost talent gives cannot be rearranged, so that stat is never below −1"
            )
        out.append(f"{STAT_BOOST} ({key.upper()})")
    return tuple(out)


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
