"""2d6 Gamma stat limits and Stat Boost (finding F1; rulings in systems/twod6/sheet.py's docstring).

The book: "The maximum bonus you can ever have for a stat at this point in character creation is +3. You can,
however, raise a stat to +4 if you have the appropriate Stat boost talent for it" (@11862); "Stat boost +1 to a
stat, can only be taken once per stat" (@14867); "if you have a stat boost talent for a stat, it can never be lowered
below -1" (@57443).
"""

from __future__ import annotations

import saves
from systems.twod6 import plugin as twod6_plugin
from systems.twod6 import system
from systems.twod6.events import AttackRolled
from systems.twod6.sheet import check_sheet
from tests.systems.twod6.helpers import DUMMY, attack, data, of, refused, sheet
from tracker import Fight
from tracker.commands import AddCombatant, Adjust, DismissPrompt, NextTurn, SetInitiative, StartFight
from tracker.dice import ScriptedRoller
from tracker.errors import Refused


def added(kind: str = "pc", **kw: object) -> dict:
    """The sheet as the tracker writes it back after adding it."""
    f = Fight(system, roller=ScriptedRoller())
    return dict(f.do(AddCombatant(name="Vex", kind=kind, sheet=sheet(**kw)))[0].sheet)


def test_a_stat_boost_taken_twice_for_one_stat_is_refused_in_the_books_words():
    """Stat boost "can only be taken once per stat": the same stat twice (however it is spelt) is refused, naming
    it, for a PC and an NPC alike, and nothing is logged; one for each of two stats passes."""
    f = Fight(system, roller=ScriptedRoller())
    for kind in ("pc", "npc"):
        said = refused(
            f,
            AddCombatant(name="Vex", kind=kind, sheet=sheet(str=3, talents="Stat boost (STR), Stat Boost (Strength)")),
            "can only be taken once per stat",
        )
        assert "Stat Boost (STR) is taken twice" in said
    assert added(str=4, agi=4, talents="Stat Boost (STR), Stat Boost (AGI)")["talents"] == (
        "Stat Boost (STR), Stat Boost (AGI)"
    )


def test_a_stat_boost_names_its_stat():
    """A Stat Boost is "+1 bonus on a particular stat": a bare one or one naming no stat of the eight is refused with
    how to write it; "stat boost strength" and "Stat Boost (agi)" are written back with the stat's short name."""
    f = Fight(system, roller=ScriptedRoller())
    refused(f, AddCombatant(name="Vex", sheet=sheet(talents="Stat Boost")), "like 'Stat Boost (STR)'")
    said = refused(f, AddCombatant(name="Vex", sheet=sheet(talents="Stat Boost (Luck)")), "one of the eight stats")
    assert "STR, AGI, DEX, TOU, INT, WIL, CHA, PER" in said
    out = added(talents="stat boost strength, Stat Boost (agi), Extra Wound")
    assert out["talents"] == "Stat Boost (STR), Stat Boost (AGI), Extra Wound"
    assert added(**out) == out  # written back as it reads


def test_a_stat_with_its_stat_boost_is_never_below_minus_one():
    """The point a Stat Boost gives cannot be rearranged away: STR −2 with Stat Boost (STR) is refused, −1 passes."""
    f = Fight(system, roller=ScriptedRoller())
    said = refused(f, AddCombatant(name="Vex", sheet=sheet(str=-2, talents="Stat Boost (STR)")), "never below −1")
    assert said.startswith("Strength (STR) -2 with Stat Boost (STR)")
    assert added(str=-1, talents="Stat Boost (STR)")["str"] == -1


def test_plus_four_needs_no_stat_boost_and_plus_five_is_refused_without_claiming_one():
    """Ruling: a sheet is a character in play, so +4 needs no Stat Boost (a PC or NPC at +4 passes, as the tests'
    Champion at STR +4 does); +5 is refused, the message no longer saying +4 needs a Stat Boost."""
    assert added(str=4)["str"] == 4
    assert added(kind="npc", agi=4)["agi"] == 4
    f = Fight(system, roller=ScriptedRoller())
    said = refused(f, AddCombatant(name="Hero", kind="pc", sheet=sheet(str=5)), "outside −2..+4")
    assert "Stat Boost" not in said
    assert said == (
        "Strength (STR) +5 is outside −2..+4: every stat starts at −2, "
        "and +4 (beyond normal human ability) is the top of the book's scale"
    )


def test_a_gm_adjust_of_a_stat_to_plus_four_needs_no_stat_boost():
    """Ruling: the GM's ``=`` sets a stat in play, within −2..+4, no Stat Boost asked (the talents cannot be adjusted
    to add one); +5 is refused."""
    f = Fight(system, roller=ScriptedRoller())
    f.do(AddCombatant(name="Ann", kind="pc", sheet=sheet(str=3)))
    f.do(Adjust(id="c1", field="str", value=4))
    assert data(f, "c1").stat("str") == 4
    try:
        f.do(Adjust(id="c1", field="str", value=5))
    except Refused:
        pass
    else:
        raise AssertionError("STR +5 was taken")
    assert data(f, "c1").stat("str") == 4


def test_every_preset_passes_and_is_written_back_unchanged():
    f = Fight(system, roller=ScriptedRoller())
    for preset in system.presets():
        (ev,) = f.do(AddCombatant(name=preset.name, kind=preset.kind, sheet=preset.sheet))[:1]
        assert check_sheet(dict(ev.sheet)) == dict(ev.sheet), preset.id


OLD_TALENTS = "Stat Boost (WIL), Stat Boost (WIL), Stat Boost"


def test_an_older_fight_file_with_a_stat_boost_twice_loads_and_replays_as_before(tmp_path, monkeypatch):
    """A fight file written before these checks holds a PC at STR +4 with no Stat Boost for it, WIL −2, a Stat Boost
    (WIL) twice and a bare Stat Boost, as the earlier version wrote them back; it loads (the sheet in the file is not
    checked again), replays to the same state and fights on as it did."""

    def as_before(sheet: dict) -> dict:
        """The earlier version's check: the talents written back as read."""
        return {**check_sheet({**sheet, "talents": ""}), "talents": OLD_TALENTS}

    path = tmp_path / "old.jsonl"
    roller = ScriptedRoller()
    fight = saves.new_fight(system, path, seed=1, roller=roller)
    with monkeypatch.context() as m:
        m.setattr(twod6_plugin, "check_sheet", as_before)
        fight.do(
            AddCombatant(
                name="Ann", kind="pc", sheet=sheet(str=4, wil=-2, skills="Melee (Heavy) 2", talents=OLD_TALENTS)
            )
        )
    fight.do(AddCombatant(name="Bob", sheet=DUMMY))
    fight.do(SetInitiative(values={"c1": 20, "c2": 19}))
    fight.do(StartFight())
    (ev,) = of(attack(fight, roller, (3, 4, 3, 4), "c1", "c2", skill="Melee (Heavy)"), AttackRolled)
    assert ev.attack.total == 13  # 7 + Melee (Heavy) 2 + STR 4
    live = fight.state
    fight.close()
    assert f'"talents":"{OLD_TALENTS}"' in path.read_text(encoding="utf-8")
    try:  # the same sheet entered now is refused
        check_sheet(sheet(str=4, wil=-2, skills="Melee (Heavy) 2", talents=OLD_TALENTS))
    except Refused as e:
        assert "Stat Boost (WIL)" in str(e)
    else:
        raise AssertionError("the old sheet passes the new check")
    f = saves.load(path).fight(roller=roller)
    assert f.state == live
    assert data(f, "c1").stat("str") == 4 and data(f, "c1").stat("wil") == -2
    assert data(f, "c1").talents == ("Stat Boost (WIL)", "Stat Boost (WIL)", "Stat Boost")
    f.do(Adjust(id="c2", field="wounds", value=3))  # fights on from the file: the next attack as before
    for p in list(f.state.prompts):
        f.do(DismissPrompt(prompt_id=p.id, note="setup"))
    f.do(NextTurn())
    f.do(NextTurn())  # round 2: Ann again
    (again,) = of(attack(f, roller, (3, 4, 3, 4), "c1", "c2", skill="Melee (Heavy)"), AttackRolled)
    assert again.attack.total == 13


def test_a_party_member_refused_is_named() -> None:
    """Audit g2: a party loaded (F6, several AddCombatant as one action) with a bare "Stat Boost" on one member was
    refused without saying which member; the refusal names it, and nothing of the party is logged."""
    f = Fight(system, roller=ScriptedRoller())
    party = [
        AddCombatant(name="Ann", kind="pc", sheet=sheet(str=1)),
        AddCombatant(name="Bob", kind="pc", sheet=sheet(str=1, talents="Stat Boost")),
    ]
    try:
        f.do_all(party)
    except Refused as e:
        said = str(e)
    else:
        raise AssertionError("a bare Stat Boost was accepted")
    assert said.startswith("Bob: ") and "Stat Boost" in said, said
    assert not f.state.combatants and not list(f.entries)
    single = refused(f, AddCombatant(name="Bob", kind="pc", sheet=sheet(str=1, talents="Stat Boost")), "Stat Boost")
    assert not single.startswith("Bob: "), single  # one added alone: its form already says whose it is
