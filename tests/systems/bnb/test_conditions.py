"""The book's conditions (#46): offered by name with the book's place; Cover is read by the rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from systems.bnb import system
from systems.bnb.commands import Attack
from systems.bnb.events import AttackRolled
from tests.systems.bnb.helpers import add_npc, add_pc, new_fight, next_round, start
from tracker import AddCondition, RemoveCondition

SEEDS = Path(__file__).resolve().parents[3].parent / "shared" / "seeds"

# the word of the book each condition's cited line holds
SAYS = {
    "Cover": "Cover",
    "Surprised": "surprise",
    "In melee": "in melee",
    "Grappled": "Grappled",
    "Poisoned": "poison",
    "Drunk": "Alcohol",
    "Holding": "withhold",
    "Unconscious": "unconscious",
    "Knocked out": "Temporary damage",
}


def test_the_books_conditions_are_offered_with_an_effect_and_only_cover_is_automated():
    conditions = system.conditions()
    assert [c.name for c in conditions] == list(SAYS)
    assert all(c.effect and c.source.startswith("bnb l.") and c.rounds is None for c in conditions)
    assert [c.name for c in conditions if c.automated] == ["Cover"]


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the book's text (../shared/seeds/) is not beside this checkout")
def test_each_conditions_place_in_the_book_names_it():
    (book,) = SEEDS.glob("000_*.txt")
    lines = book.read_text(encoding="utf-8").split("\n")
    for c in system.conditions():
        n = int(c.source.removeprefix("bnb l."))
        assert SAYS[c.name].lower() in lines[n - 1].lower(), c


def _cover(events) -> list[tuple[str, int]]:
    (atk,) = [e for e in events if isinstance(e, AttackRolled)]
    return [(p.label, p.value) for p in atk.parts if "cover" in p.label]


@pytest.mark.parametrize("typed", ["Cover", "  COVER ", "cover"])
def test_a_target_in_cover_gives_attacks_its_value_whatever_the_case_typed(typed):
    f, dice = new_fight()
    dusty = add_pc(f, "Dusty", weapons="belt pistol")
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=30)
    start(f)
    f.do(AddCondition(id=lefty, name=typed, value=3))
    dice.add(15, 2, 15, 2)
    assert _cover(f.do(Attack(actor=dusty, target=lefty))) == [("cover (Cover condition)", -3)]
    assert _cover(f.do(Attack(actor=dusty, target=lefty, cover=1))) == [("cover", -1)]  # the attack's own wins
    next_round(f)
    name = f.state.get(lefty).conditions[0].name
    f.do(RemoveCondition(id=lefty, name=name))
    dice.add(15, 2)
    assert _cover(f.do(Attack(actor=dusty, target=lefty))) == []


def test_cover_without_a_value_is_2():
    f, _dice = new_fight(15, 2)
    dusty = add_pc(f, "Dusty", weapons="belt pistol")
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=30)
    start(f)
    f.do(AddCondition(id=lefty, name="Cover"))
    assert _cover(f.do(Attack(actor=dusty, target=lefty))) == [("cover (Cover condition)", -2)]
