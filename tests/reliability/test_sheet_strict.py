"""A sheet read from a fight file is decoded strictly, as every other value of a line is: nothing coerced.

A ``combatant_added`` line edited by hand and sealed again, with bnb's DC 13.7, blackjack's Morale 7.9 or "7", or
a weapon's jam true, was read as 13, 7, 7 and 1, and ``tracker check`` called the file good (DESIGN: "decoding is
strict (no type coercion)").  Ruling (each system's ``make_data``, zludge's ``normalize``, the toy's
``whole_numbers``): a value of another JSON type than its field declares (a number or a text for a whole number, a
flag for a number, a number for a flag, a number for a text) makes the event not apply and the loader names its
line.  The GM's sheets (the add form's texts, a preset, a party file) are parsed before they reach ``make_data``
and add as before; blackjack's weapon records given whole (a party's) are refused in words.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import saves
from saves import parties
from saves.checker import check
from saves.format import seal
from screens.cli import main as tracker_cli
from tests.ui.drive import build_fight
from tracker import AddCombatant, Fight, SeededRoller, registry
from tracker.errors import Refused
from tracker.model import NPC, PC

FORMAT1 = Path(__file__).resolve().parents[1] / "fixtures" / "format1"


def _fight(tmp_path: Path, system_id: str) -> list[str]:
    """A small fight's lines (an NPC group from a preset or a sample sheet, then a PC, started)."""
    path = tmp_path / f"{system_id}.jsonl"
    build_fight(system_id, path).close()
    return path.read_text("utf-8").splitlines()


def _sheet_line(lines: list[str], kind: str) -> int:
    """The number of the first ``combatant_added`` line of ``kind``."""
    for number, line in enumerate(lines, 1):
        record = json.loads(line)
        if record.get("type") == "combatant_added" and record["event"]["kind"] == kind:
            return number
    raise AssertionError(f"no {kind} added")


def _edited(tmp_path: Path, lines: list[str], number: int, field: tuple[Any, ...], value: Any) -> Path:
    """The fight with the sheet of line ``number`` given ``value`` at ``field``, the line sealed again (as a GM
    editing the file by hand and fixing its checksum would)."""
    record = json.loads(lines[number - 1])
    record.pop("crc")
    at = record["event"]["sheet"]
    for key in field[:-1]:
        at = at[key]
    at[field[-1]] = value
    out = list(lines)
    out[number - 1] = seal(json.dumps(record, separators=(",", ":"), ensure_ascii=False))
    path = tmp_path / "edited.jsonl"
    path.write_text("\n".join(out) + "\n", "utf-8")
    return path


WRONG_TYPES = [
    # the files of the report: a float, a text where a whole number is declared; a flag in a weapon record
    ("bnb", NPC, ("dc",), 13.7),
    ("blackjack", NPC, ("morale",), 7.9),
    ("blackjack", NPC, ("morale",), "7"),
    ("blackjack", NPC, ("weapons", 0, "jam"), True),
    # a flag where a number is (bool is an int to Python), a number where a flag is, a number where a text is
    ("bnb", NPC, ("hp",), True),
    ("bnb", NPC, ("minor",), 0),
    ("bnb", NPC, ("hd",), 2),
    ("bnb", PC, ("level",), 2.0),
    ("blackjack", PC, ("acc_marks",), True),
    ("blackjack", NPC, ("dead",), 0),
    ("blackjack", NPC, ("slots", 0), 2.0),
    ("blackjack", NPC, ("weapons", 0, "tags"), "machete"),
    ("blackjack", NPC, ("weapons", 0, "name"), 5),
    ("twod6", PC, ("tou",), "1"),
    ("twod6", PC, ("fine_armor",), 1),
    ("twod6", PC, ("cinematics",), False),
    ("zludge", PC, ("fortitude",), 1.5),
    ("zludge", PC, ("high_powered",), 1),
    ("zludge", PC, ("skills",), 5),
    ("toy", PC, ("hp",), 7.5),
    ("toy", NPC, ("hp",), "7"),
    ("toy", PC, ("init_bonus",), True),
]


@pytest.mark.parametrize(("system_id", "kind", "field", "value"), WRONG_TYPES)
def test_a_sheet_value_of_the_wrong_json_type_is_refused_at_its_line(
    tmp_path: Path, system_id: str, kind: str, field: tuple[Any, ...], value: Any
) -> None:
    lines = _fight(tmp_path, system_id)
    number = _sheet_line(lines, kind)
    path = _edited(tmp_path, lines, number, field, value)
    with pytest.raises(saves.LoadError) as refused:
        saves.load(path).fight()
    assert refused.value.line == number
    assert "does not apply" in str(refused.value) and "ValueError" not in str(refused.value)  # (its words alone)
    with pytest.raises(saves.LoadError) as checked:
        check(path)
    assert checked.value.line == number


def test_tracker_check_says_the_file_is_damaged_at_the_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = _fight(tmp_path, "blackjack")
    number = _sheet_line(lines, NPC)
    assert tracker_cli(["check", str(_edited(tmp_path, lines, number, ("morale",), 7.9))]) == 1
    said = capsys.readouterr()
    assert f"damaged at line {number}" in said.out + said.err
    assert "morale" in said.err and "7.9" in said.err


@pytest.mark.parametrize(
    ("system_id", "kind", "field", "value", "read"),
    [
        ("bnb", NPC, ("dc",), 14, lambda d: d.dc),
        ("blackjack", NPC, ("morale",), 8, lambda d: d.morale),
        ("blackjack", NPC, ("weapons", 0, "jam"), 19, lambda d: d.weapons[0].jam),
        ("blackjack", NPC, ("dead",), True, lambda d: d.dead),
        ("twod6", PC, ("tou",), 2, lambda d: d.stat("tou")),
        ("zludge", PC, ("fortitude",), 1, lambda d: d.fortitude),
        ("toy", PC, ("hp",), 8, lambda d: d.hp),
    ],
)
def test_a_value_of_its_own_type_still_loads_and_is_read_as_written(
    tmp_path: Path, system_id: str, kind: str, field: tuple[Any, ...], value: Any, read: Any
) -> None:
    lines = _fight(tmp_path, system_id)
    assert check(tmp_path / f"{system_id}.jsonl").good  # the file as written
    number = _sheet_line(lines, kind)
    path = _edited(tmp_path, lines, number, field, value)
    assert check(path).good
    added = json.loads(lines[number - 1])["event"]["id"]
    assert read(saves.load(path).fight().state.get(added).data) == value


@pytest.mark.parametrize("name", ["blackjack", "bnb", "twod6", "zludge", "toy"])
def test_fight_files_of_earlier_versions_still_load(name: str) -> None:
    assert check(FORMAT1 / f"{name}.jsonl").good


# the GM's own sheets: typed in a form (texts), from a preset, from a party file


TYPED = {
    "bnb": (NPC, {"dc": "13", "hd": "2", "hp": "9", "minor": "yes", "xp": "10"}, lambda d: (d.dc, d.minor, d.xp)),
    "blackjack": (NPC, {"threat": "4", "morale": "8", "dead": "no"}, lambda d: (d.morale, d.dead, d.threat)),
    "twod6": (PC, {"tou": "1", "fine_armor": "yes", "cinematics": "2"}, lambda d: (d.stat("tou"), d.fine_armor)),
    "zludge": (
        PC,
        {"fortitude": "1", "high_powered": "yes", "plot_points": "3"},
        lambda d: (d.fortitude, d.plot_points),
    ),
    "toy": (PC, {"hp": "7", "init_bonus": "2"}, lambda d: (d.hp, d.init_bonus)),
}
EXPECTED = {
    "bnb": (13, True, 10),
    "blackjack": (8, False, 4),
    "twod6": (1, True),
    "zludge": (1, 3),
    "toy": (7, 2),
}


@pytest.mark.parametrize("system_id", sorted(TYPED))
def test_a_sheet_typed_in_the_form_still_adds(system_id: str) -> None:
    kind, sheet, read = TYPED[system_id]
    f = Fight(registry.load(system_id), roller=SeededRoller(3))
    f.do(AddCombatant(name="Typed", kind=kind, sheet=sheet))
    assert read(f.state.get("c1").data) == EXPECTED[system_id]


@pytest.mark.parametrize("system_id", ["bnb", "blackjack", "twod6", "zludge", "toy"])
def test_every_preset_still_adds(system_id: str) -> None:
    system = registry.load(system_id)
    f = Fight(system, roller=SeededRoller(3))
    added = 0
    for preset in system.presets():
        try:
            f.do(AddCombatant(name="", preset=preset.id))
        except Refused as e:  # bnb's weapon presets fill a Weapons field
            assert "a weapon is not a combatant" in str(e)
            continue
        added += 1
    assert added >= 1 and len(f.state.combatants) == added


@pytest.mark.parametrize("system_id", ["bnb", "blackjack", "twod6", "zludge"])
@pytest.mark.parametrize("now", [False, True])
def test_a_party_still_comes_back(tmp_path: Path, system_id: str, now: bool) -> None:
    system = registry.load(system_id)
    f = Fight(system, roller=SeededRoller(3))
    pcs = [p for p in system.presets() if p.kind == PC]
    if pcs:
        f.do(AddCombatant(name="Mags", kind=PC, preset=pcs[0].id))
    else:
        f.do(AddCombatant(name="Mags", kind=PC, sheet=TYPED[system_id][1] if system_id != "bnb" else {}))
    path = parties.save_party("Posse", system_id, parties.party_members(f, now=now), tmp_path)
    back = Fight(system, roller=SeededRoller(3))
    back.do_all(parties.party_commands(path))
    mags = back.state.by_name("Mags")
    assert mags is not None and mags.data == f.state.get("c1").data


def _blackjack_party(tmp_path: Path, change: Any) -> Path:
    system = registry.load("blackjack")
    f = Fight(system, roller=SeededRoller(3))
    f.do(AddCombatant(name="Mags", kind=PC, sheet={"weapons": "Revolver, Knife"}))
    members = parties.party_members(f)
    change(members[0]["sheet"])
    return parties.save_party("Posse", "blackjack", members, tmp_path)


def test_a_party_record_of_the_wrong_type_is_refused_in_words(tmp_path: Path) -> None:
    """A party file's weapon record edited to ``"jam": true`` was read as jam 1; it is refused, naming it."""

    def jam_true(sheet: dict[str, Any]) -> None:
        sheet["weapons"][0]["jam"] = True

    path = _blackjack_party(tmp_path, jam_true)
    f = Fight(registry.load("blackjack"), roller=SeededRoller(3))
    with pytest.raises(Refused, match=r"Revolver.*jam.*whole number"):
        f.do_all(parties.party_commands(path))
    assert not f.state.combatants


def test_a_party_record_of_its_own_type_still_adds(tmp_path: Path) -> None:
    def jam_19(sheet: dict[str, Any]) -> None:
        sheet["weapons"][0]["jam"] = 19

    f = Fight(registry.load("blackjack"), roller=SeededRoller(3))
    f.do_all(parties.party_commands(_blackjack_party(tmp_path, jam_19)))
    assert f.state.get("c1").data.weapons[0].jam == 19
