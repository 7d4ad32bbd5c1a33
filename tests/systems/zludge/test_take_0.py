"""Zludge "Take 0" (book l.18; rules take_0 and combat_rolls).

A skill check may take a result of 0 instead of rolling when the GM allows; the log says so.
Combat skills always roll: taking 0 on one is refused with the reason.
"""

from __future__ import annotations

import pytest

from systems.zludge.commands import RollSkill
from tests.systems.zludge.helpers import add, duel, new_fight
from tracker.errors import Refused

SHEET = {"skills": "Athletics 2, Melee 2, Medical 1"}


def test_taking_0_rolls_no_dice_and_the_log_says_so() -> None:
    """l.18: not under pressure, assume a roll result of 0; the skill's modifier still counts."""
    f = new_fight()  # no faces queued: a roll would run out of dice
    add(f, "Knight", **SHEET)
    (ev,) = f.do(RollSkill(actor="c1", skill="Athletics", take_0=True))
    assert ev.took_0 and ev.roll.faces == ()
    assert ev.total == sum(m.value for m in ev.mods) == 1  # Athletics 2: Poor -1 + 2 ranks
    text = ev.describe(f.state)
    assert "Knight takes 0 on" in text and "no roll" in text and "success" in text
    assert f.roller.exhausted


def test_taking_0_after_a_difficulty_can_fail() -> None:
    """l.18: the 0 replaces the dice only: difficulty and penalties still apply."""
    f = new_fight()
    add(f, "Knight", **SHEET)
    (ev,) = f.do(RollSkill(actor="c1", skill="Medical", difficulty=-2, take_0=True))
    assert ev.total < 0 and "failure" in ev.describe(f.state)


@pytest.mark.parametrize("skill", ["Melee", "Unarmed", "Ranged"])
def test_combat_skills_always_roll(skill: str) -> None:
    """Rule combat_rolls (l.21): a skill check, not a combat roll — combat skills always roll."""
    f = duel(alice=SHEET)
    entries = list(f.entries)
    with pytest.raises(Refused, match="combat skill"):
        f.do(RollSkill(actor="c1", skill=skill, take_0=True))
    assert f.entries == entries


def test_the_form_offers_take_0_unticked() -> None:
    """The skill-roll form has the Take 0 box, off unless the GM ticks it."""
    from systems.zludge import system

    spec = next(s for s in system.commands() if s.name == "roll_skill")
    assert spec.make({"actor": "c1", "skill": "Athletics"}).take_0 is False
    assert spec.make({"actor": "c1", "skill": "Athletics", "take_0": "yes"}).take_0 is True
