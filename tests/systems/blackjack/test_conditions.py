"""Book conditions (#46): blackjack's named conditions, and the one its rules read (Hexed) however it is typed."""

from __future__ import annotations

from systems.blackjack import system
from systems.blackjack.commands import Injure, MakeSave
from systems.blackjack.events import InjuryMarked, SaveRolled
from systems.blackjack.presets import WEAPONS, WORKINGS
from tests.systems.blackjack.helpers import new_fight, of_type, pc
from tracker.commands import AddCondition


def test_the_books_named_conditions_are_offered() -> None:
    conds = {c.name: c for c in system.conditions()}
    assert {"Hexed", "Grappled", "Prone", "Encumbered", "Blinded", "Asleep"} <= set(conds)
    assert conds["Hexed"].source == "blackjack l.266" and conds["Hexed"].automated
    assert conds["Grappled"].source == "blackjack l.261" and not conds["Grappled"].automated
    assert conds["Prone"].source == "blackjack l.263"
    assert all(c.effect and c.source.startswith("blackjack l.") for c in conds.values())
    assert [c.name for c in conds.values() if c.automated] == ["Hexed", "Encumbered"]
    assert all(c.rounds is None for c in conds.values())  # the book gives no durations


def test_every_condition_the_rules_lay_is_offered_under_the_same_name() -> None:
    names = {c.name for c in system.conditions()}
    laid = {w.condition for w in WEAPONS.values() if w.condition} | {
        w.condition for w in WORKINGS.values() if w.condition
    }
    assert laid == {"Grappled", "Prone", "Hexed"} and laid <= names


def test_hexed_typed_any_way_by_the_gm_adds_the_hexs_2_dv() -> None:
    f = new_fight(5, 5)
    d = pc(f, "Dusty", body=12)
    (plain,) = of_type(f.do(MakeSave(actor=d, stat="BODY")), SaveRolled)
    assert plain.save.dv == 0
    f.do(AddCondition(id=d, name="  HEXED "))
    (hexed,) = of_type(f.do(MakeSave(actor=d, stat="BODY")), SaveRolled)
    assert hexed.save.dv == 2 and [(p.label.strip().lower(), p.value) for p in hexed.save.parts] == [("hexed", 2)]
    assert "DV 2" in hexed.describe(f.state)


def test_a_gm_condition_with_its_own_value_keeps_it() -> None:
    f = new_fight(5)
    d = pc(f, "Dusty", body=12)
    f.do(AddCondition(id=d, name="Hexed", value=3))
    (save,) = of_type(f.do(MakeSave(actor=d, stat="BODY")), SaveRolled)
    assert save.save.dv == 3


def test_encumbered_counts_as_a_lesser_injury() -> None:
    """RULINGS (blackjack, other DV sources): an encumbered injury slot counts as a lesser injury, l.36. Slim,
    Encumbered, saved on a 1 at DV 0, and his lesser slots took two injuries: it adds +1 DV and takes a lesser
    slot, however the GM typed it."""
    f = new_fight(1)
    d = pc(f, "Slim", body=10)
    f.do(AddCondition(id=d, name="encumbered"))
    (save,) = of_type(f.do(MakeSave(actor=d, stat="BODY")), SaveRolled)
    assert save.save.dv == 1 and not save.save.success
    assert [(p.label, p.value) for p in save.save.parts] == [("Encumbered (a lesser injury)", 1)]
    (first,) = of_type(f.do(Injure(target=d, level="lesser", name="cut")), InjuryMarked)
    assert first.index == 0
    (second,) = of_type(f.do(Injure(target=d, level="lesser", name="bruise")), InjuryMarked)
    assert second.steps == ("lesser", "slots full", "moderate") and second.index == 1
    # the slot it takes is drawn (the row showed ■□ and the detail "Lesser (1/2)")
    c = f.state.get(d)
    assert system.status(f.state, c).startswith("■▣|■□|□")
    assert "Lesser (2/2): cut, encumbered" in system.detail(f.state, c)
