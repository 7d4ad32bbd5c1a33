"""The plug-ins' sheet parsers run in linear time and read every text exactly as the old patterns did.

The old regular expressions (kept here, and only here) had a lazy head like
``^(.*?)\\s*(-?\\d+)$``; on hostile text (thousands of spaces, digits or '(')
the engine retried the tail from every position: 8,000 spaces took seconds,
and old fight files, written before the length caps, are parsed again each
time they load.  Their replacements are scans from the end; since old files
replay through them, each must give the same match and the same groups as
its pattern for every input: checked on every short text over the characters
that matter, on random texts (hypothesis), and on the books' stat lines.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import re
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import saves
from saves.checker import check
from saves.format import seal
from systems.blackjack import sheet as bj
from systems.blackjack import system as blackjack
from systems.twod6 import sheet as t6
from systems.twod6 import system as twod6
from systems.zludge import sheet as zl
from systems.zludge import system as zludge
from tests.support import examples
from tracker import AddCombatant
from tracker.errors import Refused
from tracker.plugin import System
from tracker.shapes import checker
from tracker.text import head_and_number

# ---------------------------------------------------------------------------
# the old patterns, as they were in the plug-ins

OLD_SKILL = re.compile(r"^(?P<name>[A-Za-z][A-Za-z ()'/-]*?)\s+(?P<ranks>-?\d+)(?P<rest>(?:\s*[+@][^+@]+)*)$")
OLD_LEVELLED = re.compile(r"^(?P<name>.*?)\s*(?P<level>-?\d+)$")
OLD_WEAPON = re.compile(r"^(?:(?P<count>\d+)\s+)?(?P<name>.+?)(?:\s+(?P<loaded>\d+)(?:/\d+)?)?$")
OLD_WORKING = re.compile(r"^(?P<name>.+?)(?:\s+(?P<level>\d+))?(?:\s*\((?P<cast>cast[^)]*)\))?$", re.IGNORECASE)
OLD_DV = re.compile(r"^(?P<tags>.*?)\s*(?P<v>[+-]\d+)\s*(?:dv)?$", re.IGNORECASE)
OLD_T6_SKILL = re.compile(r"^(.*?)\s*\+?(-?\d+)$")
OLD_T6_ITEM = re.compile(r"^(.*?)\s*([+-]\d+)$")
OLD_T6_LIMB = re.compile(r"^(.*?)\s*(-\d+)$")
OLD_PARENS = re.compile(r"\(.*?\)")


@attrs.frozen
class Case:
    name: str
    old: re.Pattern[str]
    groups: tuple[str | int, ...]
    new: Callable[[str], tuple[str | None, ...] | None]
    alphabet: tuple[str, ...]  # for every text up to SHORT of these pieces

    def want(self, text: str) -> tuple[str | None, ...] | None:
        m = self.old.match(text)
        return None if m is None else tuple(m.group(g) for g in self.groups)


CASES = (
    Case(
        "zludge skill", OLD_SKILL, ("name", "ranks", "rest"), zl.split_skill, ("a", " ", "\t", "1", "-", "+", "\n", "(")
    ),
    Case("zludge name level", OLD_LEVELLED, ("name", "level"), head_and_number, ("a", " ", "1", "-", "+", "\n", "\t")),
    Case(
        "blackjack weapon", OLD_WEAPON, ("count", "name", "loaded"), bj.split_weapon, ("a", " ", "1", "/", "\n", "\t")
    ),
    Case(
        "blackjack working",
        OLD_WORKING,
        ("name", "level", "cast"),
        bj.split_working,
        ("a", " ", "1", "(cast", ")", "\n", "("),
    ),
    Case("blackjack DV modifier", OLD_DV, ("tags", "v"), bj.split_dv_mod, ("a", " ", "1", "+", "dv", "\n", "V")),
    Case("2d6 skill", OLD_T6_SKILL, (1, 2), lambda s: head_and_number(s, plus=True), ("a", " ", "1", "-", "+", "\n")),
    Case(
        "2d6 item",
        OLD_T6_ITEM,
        (1, 2),
        lambda s: head_and_number(s, signs="+-", sign_required=True),
        ("a", " ", "1", "-", "+", "\n"),
    ),
    Case(
        "2d6 limb",
        OLD_T6_LIMB,
        (1, 2),
        lambda s: head_and_number(s, sign_required=True),
        ("a", " ", "1", "-", "+", "\n"),
    ),
)
SHORT = 5

# pieces of sheet text: letters (with 's' and its long form, which IGNORECASE matches), digits (an
# Arabic-Indic one too), whitespace (tab, no-break space, line break) and every mark the patterns use
PIECES = (
    *"abxMDVdvcsſé019٣",
    " ",
    "  ",
    "\t",
    "\u00a0",
    "\n",
    *"-+@/(),:;'",
    "dv",
    "DV",
    "cast",
    "(cast",
    "(Cast ",
    "ast",
    " 2",
    "12",
    "-3",
    "+1",
    "1/2",
)
texts = st.lists(st.sampled_from(PIECES), max_size=24).map("".join) | st.text(max_size=30)


def every_text(alphabet: tuple[str, ...], most: int) -> Iterator[str]:
    for n in range(most + 1):
        for pieces in itertools.product(alphabet, repeat=n):
            yield "".join(pieces)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_every_short_text_reads_as_the_old_pattern_read_it(case: Case) -> None:
    for text in every_text(case.alphabet, SHORT):
        assert case.new(text) == case.want(text), text


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
@settings(max_examples=examples(150))  # and every short text above
@given(text=texts)
def test_any_text_reads_as_the_old_pattern_read_it(case: Case, text: str) -> None:
    assert case.new(text) == case.want(text)


@given(text=texts)
def test_notes_in_parentheses_go_as_before(text: str) -> None:
    assert bj.drop_parens(text) == OLD_PARENS.sub("", text)


def test_every_short_text_loses_its_notes_as_before() -> None:
    for text in every_text(("a", "(", ")", "\n"), 8):
        assert bj.drop_parens(text) == OLD_PARENS.sub("", text), text


def test_the_scans_mean_what_the_regex_classes_mean() -> None:
    """``\\s`` is str.isspace and ``\\d`` is str.isdecimal, on every code point."""
    every = "".join(map(chr, range(sys.maxunicode + 1)))
    assert re.findall(r"\s", every) == [c for c in every if c.isspace()]
    assert re.findall(r"\d", every) == [c for c in every if c.isdecimal()]


BOOK_LINES = {
    "zludge skill": (
        "Melee 2 @Agility",
        "Ranged 3 +Pistols",
        "Athletics 1 @Fortitude",
        "Melee 1",
        "Acrobatics 0",
        "Reflexes 2",
        "Ranged 3 +Pistols +Rifles @Perception",
        "Close Combat (Knives) 2",
        "Sleight-of-hand 1",
        "Melee -1",
        "Melee",
        "2 Melee",
    ),
    "zludge name level": ("laser cutter 3", "heavy kevlar", "flak jacket 1", "knife -1", "3", "bomb suit 4 "),
    "blackjack weapon": (
        "Machete",
        "2 Revolvers",
        "Bow 12",
        "Shotgun 1/2",
        "Revolver 4",
        "Rusty revolver",
        "10 Throwing knives",
        "Claws",
        "Bear hug",
        "Buffeting wings",
        "Fire breath",
        "Hunting knife",
        "Knife: thrown",
        "2",
        "1 2",
    ),
    "blackjack working": ("Hex 1", "Naming 3 (cast)", "Hag eye 1", "Healing hands 1", "Naming (Cast today)", "Hex"),
    "blackjack DV modifier": ("mundane bullet +1", "mundane bullet +1 DV", "fire -2dv", "+1", "silver -1 dv"),
    "2d6 skill": ("Melee (Heavy) 2", "Resolve 1", "Shooting +1", "Melee (Light) 1", "Stealth -1", "Notice"),
    "2d6 item": ("Melee (Heavy) +1", "Cast +1", "Melee (Light) -1", "Melee (Heavy) 1"),
    "2d6 limb": ("left leg -3", "arm -2", "left leg 3", "-2"),
}


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_the_books_stat_lines_read_as_before(case: Case) -> None:
    lines = BOOK_LINES[case.name]
    assert any(case.want(line) for line in lines)
    for line in lines:
        assert case.new(line) == case.want(line), line


def test_the_presets_read_as_before() -> None:
    for preset in blackjack.presets():
        for item in bj.split_list(preset.sheet.get("weapons")):
            item = bj.drop_parens(item).strip()
            assert bj.split_weapon(item) == CASES[2].want(item)
        for item in bj.split_list(preset.sheet.get("workings")):
            assert bj.split_working(item) == CASES[3].want(item)
    for preset in twod6.presets():
        for part in t6._split(str(preset.sheet.get("skills") or "")):
            assert head_and_number(part, plus=True) == CASES[5].want(part)
    for preset in zludge.presets():
        for part in str(preset.sheet.get("skills") or "").split(","):
            assert zl.split_skill(part.strip()) == CASES[0].want(part.strip())


# ---------------------------------------------------------------------------
# blackjack's weapon list, as a whole: the names given to copies ('Knife 2') were found by trying every
# number again for each copy; the old list reader, kept here, against the one in the plug-in


def old_parse_weapons(text: str) -> list[dict[str, Any]]:
    out: list[Any] = []
    for item in bj.split_list(text):
        item = OLD_PARENS.sub("", item).strip()
        m = OLD_WEAPON.match(item)
        if not m:
            continue
        count = int(m["count"] or 1)
        if not 1 <= count <= 10:
            raise Refused(f"weapons: carry 1 to 10 of '{m['name']}', not {count}")
        name = m["name"].strip()
        kind = ""
        if ":" in name:
            name, kind = (x.strip() for x in name.split(":", 1))
        base = bj.find_weapon(name)
        if base is None:
            base = bj.Weapon(name=name[:1].upper() + name[1:], kind=kind or "melee", tags=bj.words(name))
        elif kind:
            base = attrs.evolve(base, kind=kind)
        if m["loaded"] is not None:
            n = int(m["loaded"])
            if base.is_firearm:
                if n > base.shots:
                    raise Refused(f"weapons: a {base.name} holds {base.shots} shots, not {n}")
                base = attrs.evolve(base, loaded=n)
            elif base.ammo >= 0:
                base = attrs.evolve(base, ammo=n)
        taken = {w.name.lower() for w in out}
        for _ in range(count):
            name_i = base.name
            n = 2
            while name_i.lower() in taken:
                name_i = f"{base.name} {n}"
                n += 1
            taken.add(name_i.lower())
            out.append(attrs.evolve(base, name=name_i))
    return [checker().unstructure(w) for w in out]


def outcome(parse: Callable[[str], Any], text: str) -> Any:
    try:
        return parse(text)
    except Refused as e:
        return f"Refused: {e}"


WEAPON_PIECES = (
    "Knife",
    "knife",
    "KNIFE",
    "Knives",
    "Knife 2",
    "Knife 2: melee",
    "Revolver",
    "Revolver 4",
    "Shotgun 1/2",
    "ΑΣ",
    "ας",
    "x",
    " ",
    "2 ",
    "3 ",
    "10 ",
    "11 ",
    ", ",
    ";",
    "(note)",
    "(",
    ")",
    " 3",
    ":",
)


@settings(max_examples=examples(150))
@given(pieces=st.lists(st.sampled_from(WEAPON_PIECES), max_size=30))
def test_a_weapon_list_reads_as_before(pieces: list[str]) -> None:
    text = "".join(pieces)
    assert outcome(bj.parse_weapons, text) == outcome(old_parse_weapons, text)


def test_copies_are_numbered_as_before() -> None:
    text = "2 Knives, knife, Knife 3: thrown, 3 KNIFE, Knife 2: melee, 2 Revolvers, Knife"
    new = [w["name"] for w in bj.parse_weapons(text)]
    assert new == [w["name"] for w in old_parse_weapons(text)]
    assert new[:4] == ["Knives", "Knives 2", "Knife", "Knife 3"]
    assert len(set(new)) == len(new)  # every copy has a name of its own


# ---------------------------------------------------------------------------
# hostile text: 16,000 characters read in well under a second (a safety bound, not a benchmark)

HOSTILE = 16_000
UNITS = (
    " ",
    "\t",
    "1",
    "(",
    ")",
    "+",
    "@",
    "-",
    "/",
    "a",
    " 1",
    "1 ",
    "a ",
    "( ",
    "+ ",
    "-1",
    "1/",
    "(cast",
    " (",
    "dv",
)
ENDS = (("", "x"), ("a", ")"), ("1 ", "+"), ("a", "\n"), ("(cast", ""))


def hostile() -> Iterator[str]:
    for unit in UNITS:
        for before, after in ENDS:
            yield before + unit * (HOSTILE // len(unit)) + after


PARSERS: dict[str, Callable[[str], Any]] = {
    "zludge skill": zl.split_skill,
    "zludge skills": zl.parse_skills,
    "zludge name level": lambda s: zl.parse_levelled(s, zl.WEAPONS, "weapon"),
    "blackjack weapon": bj.split_weapon,
    "blackjack weapons": bj.parse_weapons,
    "blackjack notes": bj.drop_parens,
    "blackjack working": bj.split_working,
    "blackjack workings": bj.parse_workings,
    "blackjack DV modifier": bj.split_dv_mod,
    "blackjack DV modifiers": bj.parse_dv_mods,
    "2d6 skills": t6.parse_skills,
    "2d6 talents": t6.parse_talents,
    "2d6 items": t6.parse_items,
    "2d6 limbs": t6.parse_limbs,
}


@pytest.mark.parametrize("name", PARSERS)
def test_hostile_text_is_read_in_well_under_a_second(name: str) -> None:
    parse = PARSERS[name]
    for text in hostile():
        start = time.perf_counter()
        with contextlib.suppress(Refused, ValueError):  # ValueError: int() of more than 4,300 digits, as before
            parse(text)
        took = time.perf_counter() - start
        assert took < 1.0, f"{name}: {took:.1f} s for {text[:12]!r}…{text[-4:]!r}"


def test_many_copies_are_named_in_well_under_a_second() -> None:
    text = ", ".join(["10 Knife"] * (HOSTILE // 10))
    start = time.perf_counter()
    names = [w["name"] for w in bj.parse_weapons(text)]
    assert time.perf_counter() - start < 5.0
    assert len(names) == len(set(names)) == 10 * (HOSTILE // 10)


# ---------------------------------------------------------------------------
# a fight file written before the caps: a 32,000-character field loads and checks in bounded time

LONG = 32_000


def _file(
    tmp_path: Path, system: System, kind: str, sheet: dict[str, Any], edit: Callable[[dict[str, Any]], None]
) -> Path:
    """A fight file made by the plug-in's own command, its sheet then edited past the caps and resealed."""
    path = tmp_path / f"{system.id}.jsonl"
    fight = saves.new_fight(system, path, seed=1)
    fight.do(AddCombatant(name="Hostile", kind=kind, sheet=sheet))
    fight.close()
    lines = path.read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[1])
    assert record["type"] == "combatant_added"
    del record["crc"]
    edit(record["event"]["sheet"])
    assert len(json.dumps(record["event"]["sheet"])) > LONG  # far past the caps (2,000 a field, 16,000 a sheet)
    lines[1] = seal(json.dumps(record, separators=(",", ":"), ensure_ascii=False))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _set(**fields: Any) -> Callable[[dict[str, Any]], None]:
    return lambda sheet: sheet.update(fields)


def _long_weapon_name(sheet: dict[str, Any]) -> None:
    sheet["weapons"][0]["name"] = "Knife" + " " * LONG + "x"


FILES = {
    # each value was read by a lazy pattern that retried it from every space: seconds at load
    "zludge weapon": (zludge, "pc", {"weapon": "laser cutter 3"}, _set(weapon="a" + " " * LONG + "b 3")),
    "zludge armor": (zludge, "pc", {"armor": "flak jacket"}, _set(armor="a" + " " * LONG + "b 2")),
    "zludge skills": (zludge, "pc", {"skills": "Melee 2"}, _set(skills="Melee 2, A" + " " * LONG + "b 2")),
    "2d6 skills": (twod6, "pc", {"skills": "Resolve 1"}, _set(skills="Resolve 1, Melee" + " " * LONG + "x 2")),
    "2d6 items": (twod6, "pc", {}, _set(items="Sword: Melee" + " " * LONG + "x +1")),
    "blackjack weapon": (blackjack, "npc", {"weapons": "Machete, 2 Revolvers"}, _long_weapon_name),
}


@pytest.mark.parametrize("name", FILES)
def test_an_old_file_with_a_long_field_loads_and_checks_in_bounded_time(tmp_path: Path, name: str) -> None:
    system, kind, sheet, edit = FILES[name]
    path = _file(tmp_path, system, kind, sheet, edit)
    start = time.perf_counter()
    loaded = saves.load(path)
    report = check(path)
    took = time.perf_counter() - start
    assert report.good, report.problems
    (c,) = loaded.fight().state.combatants
    assert took < 10.0, f"{name}: load and check took {took:.1f} s"
    if name == "zludge weapon":
        assert (c.data.weapon_level, c.data.weapon[-3:]) == (3, "b 3")
    if name == "zludge skills":
        assert [(s.name[-1], s.ranks) for s in c.data.skills] == [("e", 2), ("b", 2)]
