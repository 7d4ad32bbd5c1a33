"""Recorded as the GM meant (review gm2): modifiers without commas, run-together faces, conditions and names that
only look the same, a timed condition before the fight, reinforcements joining a tie, numbers in other scripts."""

from __future__ import annotations

import re

import pytest

from tests.support.toy import system as toy
from tracker import (
    AddCombatant,
    AddCondition,
    Fight,
    Refused,
    RemoveCondition,
    RenameCombatant,
    ScriptedRoller,
    SetInitiative,
    StartFight,
    fold,
)
from tracker import events as E
from tracker.commands import Modifier, parse_modifiers
from tracker.dice import DiceError, DiceRequest, SeededRoller, amount, parse, parse_faces
from tracker.explain import _until
from tracker.model import Condition
from tracker.text import clean, name_key


def fight(*, start: bool = True) -> Fight:
    """Alice (PC) at 15, Goblin 1 and Goblin 2 tied at 12."""
    f = Fight(toy, roller=ScriptedRoller([]))
    f.do(AddCombatant(name="Alice", kind="pc", sheet={"hp": 8}))
    f.do(AddCombatant(name="Goblin", preset="goblin", count=2))
    f.do(SetInitiative(values={"c1": 15, "c2": 12, "c3": 12}))
    if start:
        f.do(StartFight())
    return f


def refused(f: Fight, command: object, words: str) -> None:
    before_entries, before_state = list(f.entries), f.state
    with pytest.raises(Refused, match=words):
        f.do(command)
    assert f.entries == before_entries, "a refused command must log nothing"
    assert f.state == before_state


# -- 1. modifiers ---------------------------------------------------------------


def test_modifiers_typed_without_a_comma_are_each_counted() -> None:
    """ "high ground +1 aim +2" was one +2 labelled "high ground +1 aim": the total was off by one and the log read
    as if both counted."""
    assert parse_modifiers("high ground +1 aim +2") == (
        Modifier(label="high ground", value=1),
        Modifier(label="aim", value=2),
    )
    assert sum(m.value for m in parse_modifiers("hexed +2 cover -1")) == 1
    # as before: commas, a lone number, a number without a sign kept in the label
    assert parse_modifiers("cover -2, high ground +1") == (
        Modifier(label="cover", value=-2),
        Modifier(label="high ground", value=1),
    )
    assert parse_modifiers("-2") == (Modifier(label="modifier", value=-2),)
    assert parse_modifiers("rank 2 +1") == (Modifier(label="rank 2", value=1),)
    with pytest.raises(Refused, match="'high ground' must end with a number"):
        parse_modifiers("aim +2 high ground")


# -- 2. run-together faces --------------------------------------------------------


def test_a_typographic_minus_is_a_minus() -> None:
    """Regression check: "shaken −2 charge +1" with the minus of a PDF (U+2212) was one modifier, "shaken −2 charge",
    worth +1 (the log read as if both counted); an en dash and full-width signs the same."""
    assert parse_modifiers("shaken \u22122 charge +1") == (
        Modifier(label="shaken", value=-2),
        Modifier(label="charge", value=1),
    )
    assert parse_modifiers("cover \u20132, aim \uff0b1") == (
        Modifier(label="cover", value=-2),
        Modifier(label="aim", value=1),
    )
    assert parse_modifiers("cover \uff0d2") == (Modifier(label="cover", value=-2),)


def test_run_together_faces_that_could_be_a_total_are_refused() -> None:
    """ "11" on 2d6 was read as 1 and 1 (snake eyes) where the GM said "I rolled 11" (a natural 11)."""
    two_d6 = DiceRequest(2, 1, 6, "Hero resolve")
    for typed in ("11", "12"):
        with pytest.raises(DiceError, match=f"'{typed}': the faces .* or a total of {typed}\\? type each face apart"):
            parse_faces(typed, two_d6)
    # no other reading: as before
    assert parse_faces("66", two_d6) == [6, 6]
    assert parse_faces("5 6", two_d6) == [5, 6]
    assert parse_faces("111", DiceRequest(3, 1, 6)) == [1, 1, 1]  # 111 is no total of 3d6
    assert parse_faces("1 11", DiceRequest(3, 1, 6)) == [1, 1, 1]  # beside another face, not a total


# -- 3. a condition in another case -------------------------------------------------


def test_a_condition_typed_again_in_another_case_is_refused() -> None:
    f = fight()
    f.do(AddCondition(id="c1", name="Stunned", rounds=3))
    refused(f, AddCondition(id="c1", name="stunned"), "Alice is already Stunned")
    refused(f, AddCondition(id="c1", name="  STUNNED "), "Alice is already Stunned")
    f.do(AddCondition(id="c1", name="Blessed"))
    refused(f, AddCondition(id="c1", name="blessed "), "Alice is already Blessed")
    refused(f, AddCondition(id="c1", name="Bless\u200bed"), "Alice is already Blessed")
    assert [c.name for c in f.state.get("c1").conditions] == ["Stunned", "Blessed"]


def test_removing_prefers_the_condition_named_exactly() -> None:
    """A fight from an older version may hold "Stunned" (3 rounds) and "stunned": removing "stunned" removed the
    timed "Stunned" the GM kept."""
    f = fight()
    f.record(
        [
            E.ConditionAdded(id="c1", condition=Condition(name="Stunned", rounds=3, ends_on="c1", expires_round=4)),
            E.ConditionAdded(id="c1", condition=Condition(name="stunned")),
        ]
    )
    f.do(RemoveCondition(id="c1", name="stunned"))
    assert [(c.name, c.rounds) for c in f.state.get("c1").conditions] == [("Stunned", 3)]
    f.do(RemoveCondition(id="c1", name="STUNNED"))  # no exact match: the one in another case
    assert f.state.get("c1").conditions == ()


# -- 5. names that only look the same --------------------------------------------------


def test_names_that_only_look_the_same_are_refused() -> None:
    f = fight()
    f.do(AddCombatant(name="Bandit 1", kind="npc"))
    for name in ("Bandit  1", "Bandit\u00a01", "Bandit 1\u200b", "Bandit 1\u200d", "BANDIT 1 ", "\uff22andit 1"):
        refused(f, AddCombatant(name=name, kind="npc"), "there is already a combatant called")
    f.do(AddCombatant(name="Bandit\u00a0\u00a0 2\u200b", kind="npc"))  # kept as it shows
    assert f.state.combatants[-1].name == "Bandit 2"
    assert clean("Bandit \u00a0 1\u200b", "Name") == "Bandit 1"
    assert clean("  Rook\u3000\u3000the\u2800Crow ", "Name") == "Rook the Crow"
    assert name_key("Bandit\u00a01\u200d") == name_key("bandit 1")
    assert name_key("Bandit 1") != name_key("Bandit 11")
    # tag characters (a flag emoji's), a bidi mark: format characters of no look of their own (regression check)
    for hidden in ("\U000e0020", "\U000e0041", "\u200e", "\u202a"):
        refused(f, AddCombatant(name=f"Bandit 1{hidden}", kind="npc"), "there is already a combatant called|control")
    with pytest.raises(Refused, match="a value is needed"):
        clean("\u200b\u2060", "Name", required=True)


def test_a_rename_to_a_name_that_only_looks_the_same_is_refused() -> None:
    f = fight()
    refused(f, RenameCombatant(id="c3", name="Goblin  1"), "there is already a combatant called 'Goblin 1'")
    refused(f, RenameCombatant(id="c3", name="Goblin\u00a01"), "there is already a combatant called 'Goblin 1'")
    f.do(RenameCombatant(id="c2", name="GOBLIN\u00a0 1"))  # its own name in another case: allowed, tidied
    assert f.state.get("c2").name == "GOBLIN 1"


# -- 6. a timed condition before the fight ------------------------------------------------


def test_a_timed_condition_before_the_fight_says_the_round_it_ends() -> None:
    f = fight(start=False)
    for ends_at in ("end", "start"):
        events = f.do(AddCondition(id="c1", name=f"Dazed {ends_at}", rounds=2, ends_at=ends_at))
        assert events[0].describe(f.state) == f"Alice is Dazed {ends_at} for 2 rounds, to the end of round 2"
        cond = f.state.get("c1").conditions[-1]
        assert (cond.ends_on, cond.ends_at, cond.expires_round) == (None, "end", 2)
        assert _until(f.state, cond) == "2 rounds: to the end of round 2"
    # a line of an older file, "start" recorded without a turn: it too ends at the end of the round, and says so
    old = E.ConditionAdded(id="c1", condition=Condition(name="Dazed", rounds=2, ends_at="start", expires_round=2))
    assert old.describe(f.state) == "Alice is Dazed for 2 rounds, to the end of round 2"
    # in the fight, as before
    f.do(StartFight())
    events = f.do(AddCondition(id="c2", name="Dazed", rounds=1))
    assert events[0].describe(f.state) == "Goblin 1 is Dazed for 1 round, to the end of Alice's turn"


# -- 7. reinforcements joining a tie -----------------------------------------------------


def test_reinforcements_joining_a_tie_make_one_group() -> None:
    f = fight()
    assert f.state.ties == (("c2", "c3"),)
    f.do(AddCombatant(name="Goblin", preset="goblin", count=2))
    events = f.do(SetInitiative(values={"c4": 12, "c5": 12}))
    assert f.state.ties == (("c2", "c3", "c4", "c5"),)
    assert events[-1].describe(f.state) == (
        "Order: Alice, Goblin 1, Goblin 2, Goblin 3, Goblin 4; simultaneous: Goblin 1 & Goblin 2 & Goblin 3 & "
        "Goblin 4 (set by GM in the running fight)"
    )


def test_an_older_file_with_the_tie_twice_replays_as_it_was() -> None:
    """The fix is in the decision: an OrderSet already in a file is applied as before, both groups kept."""
    f = fight()
    f.do(AddCombatant(name="Goblin", preset="goblin"))
    old = E.OrderSet(order=("c1", "c2", "c3", "c4"), ties=(("c2", "c3"), ("c2", "c3", "c4")), note="old")
    assert fold(toy, [old], f.state).ties == (("c2", "c3"), ("c2", "c3", "c4"))


# -- 8. numbers in the digits 0-9 ---------------------------------------------------------


def test_faces_amounts_and_dice_are_written_in_the_digits_0_to_9() -> None:
    d10 = DiceRequest(1, 1, 10)
    for typed in ("1_0", "\u0663", "\uff13"):
        with pytest.raises(DiceError, match="is not a face"):
            parse_faces(typed, d10)
        with pytest.raises(Refused, match="is not an amount"):
            amount(typed, SeededRoller(1))
    with pytest.raises(DiceError, match="not a dice expression"):
        parse("1d\u0666")
    assert parse_faces("10", d10) == [10]
    assert amount("3+4", SeededRoller(1)).total == 7


def test_a_number_before_its_label() -> None:
    """ "+1 flanking" was refused as "'flanking' must end with a number, like 'cover -2'", an example zludge itself
    refuses (its modifiers are ±1 each): it says where the number goes, and the example is one every system takes."""
    with pytest.raises(Refused, match=r"modifier '\+1 flanking': the number goes after its label, like 'flanking \+1'"):
        parse_modifiers("+1 flanking")
    with pytest.raises(Refused, match="must end with a number, like 'cover -1'"):
        parse_modifiers("flanking")
    for text, hint in (("cover -1 +1 flanking", "cover -1 flanking +1"), ("+2 high ground -1", "high ground +2")):
        with pytest.raises(Refused, match=f"the number goes after its label, like '{re.escape(hint)}'"):
            parse_modifiers(text)
    assert parse_modifiers("+1") == (Modifier(label="modifier", value=1),)
    assert parse_modifiers("+1, flanking -1") == (
        Modifier(label="modifier", value=1),
        Modifier(label="flanking", value=-1),
    )


def test_a_sign_apart_from_its_number() -> None:
    """ "cover - 1" (and the PDF's minus, "cover − 1") was read as a label "cover -" worth +1: the sign is the
    number's.  "+1 +2 flanking" hinted "flanking +2", and a GM copying it lost the +1."""
    assert parse_modifiers("cover - 1") == (Modifier(label="cover", value=-1),)
    assert parse_modifiers("cover \u2212 1") == (Modifier(label="cover", value=-1),)
    assert parse_modifiers("high ground +1 - 1") == (
        Modifier(label="high ground", value=1),
        Modifier(label="modifier", value=-1),
    )
    with pytest.raises(Refused, match=re.escape("like '+1 flanking +2'")):
        parse_modifiers("+1 +2 flanking")
