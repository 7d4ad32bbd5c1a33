"""The book's named conditions (#46): offered to the GM, and "clipped" read by the rules."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from systems.zludge import system
from systems.zludge.commands import Attack
from tests.systems.zludge.helpers import F, data, duel, script
from tracker.commands import AddCondition, NextTurn, RemoveCondition

SEEDS = sorted((Path(__file__).resolve().parents[4] / "shared" / "seeds").glob("002_*.txt"))
SWORD = {"skills": "Melee 2, Acrobatics 1", "weapon": "sword"}
BOB = {"skills": "Acrobatics 1, Melee 1", "weapon": "knife"}


def test_the_books_named_conditions_are_offered():
    named = {c.name for c in system.conditions()}
    assert {"clipped", "flat-footed", "prone"} <= named
    assert {"Scratched", "Hurt", "Very Hurt", "Incapacitated", "Comatose"} <= named
    assert {"Winded", "Tired", "Very Tired", "Exhausted", "Unconscious"} <= named
    for c in system.conditions():
        assert re.fullmatch(r"zludge l\.\d+", c.source) and c.effect and c.rounds is None


def test_only_clipped_is_read_by_the_rules():
    assert [c.name for c in system.conditions() if c.automated] == ["clipped"]


@pytest.mark.skipif(not SEEDS, reason="the seed books are not beside the checkout")
def test_each_condition_is_named_on_its_line_of_the_book():
    lines = SEEDS[0].read_text(encoding="utf-8").splitlines()
    for c in system.conditions():
        n = int(c.source.split("l.")[1])
        assert c.name.lower() in lines[n - 1].lower(), (c.name, n)


@pytest.mark.parametrize("typed", ["clipped", "  CLIPPED ", "Clipped"])
def test_a_clipped_condition_weighs_on_the_defense_until_the_victims_next_action(typed: str):
    f = duel(SWORD, BOB)
    f.do(AddCondition(id="c2", name=typed))
    assert data(f, "c2").clipped
    script(f, F(0), F(1))  # +1 vs +1 -1 clipped = 0: a hit, not a clip
    (res, *_) = f.do(Attack(actor="c1", target="c2"))
    assert [m.describe() for m in res.defense_mods] == ["Acrobatics +0", "clipped -1"]
    assert res.outcome == "hit"
    f.do(NextTurn())  # Bob acts: the clip ends, the condition with it
    assert not data(f, "c2").clipped
    assert f.state.get("c2").conditions == ()


def test_removing_the_condition_ends_the_clip_and_other_conditions_change_nothing():
    f = duel(SWORD, BOB)
    f.do(AddCondition(id="c2", name="clipped"))
    f.do(RemoveCondition(id="c2", name="clipped"))
    assert not data(f, "c2").clipped
    f.do(AddCondition(id="c2", name="Hurt"))
    assert data(f, "c2").penalties() == ()
