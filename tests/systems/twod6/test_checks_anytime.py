"""2d6 Gamma: checks outside the turn (RULINGS, third pass, "All systems — checks outside the turn").

A check that costs no action (a passive Notice, a healing check) is rolled for anyone at any
moment; any check is rolled outside a fight; only a check that costs an action waits for the turn.
"""

from __future__ import annotations

from systems.twod6 import system
from systems.twod6.commands import SkillCheck
from systems.twod6.events import SkillChecked
from tests.systems.twod6.helpers import DUMMY, FIGHTER, data, of, refused, setup
from tracker import Fight
from tracker.commands import AddCombatant, EndFight
from tracker.dice import ScriptedRoller

HEALER = {"int": 1, "skills": "Trade (Healing) 2, Notice 1"}


def test_a_bystander_rolls_a_free_notice_mid_fight_without_spending_an_action() -> None:
    """RULINGS third pass, checks outside the turn: a passive Notice costs no action, any moment."""
    f, roller = setup(("Fighter", FIGHTER), ("Healer", HEALER))
    assert f.state.current == "c1"
    before = data(f, "c2")
    roller.add(4, 3)
    events = f.do(SkillCheck(actor="c2", skill="Notice", dc=7, cost="none"))
    (e,) = of(events, SkillChecked)
    assert e.actor == "c2" and e.passed and e.cost == "none"
    assert (data(f, "c2").quick, data(f, "c2").half) == (before.quick, before.half)
    assert f.state.current == "c1"
    # a check that costs an action still waits for the healer's turn
    refused(f, SkillCheck(actor="c2", skill="Notice", dc=7, cost="half"), "acts on its own turn")


def test_a_healer_rolls_trade_healing_after_the_fight_has_ended() -> None:
    """RULINGS third pass: any check can be rolled outside a fight (after it ends); it costs nothing."""
    f, roller = setup(("Fighter", FIGHTER), ("Healer", HEALER))
    f.do(EndFight())
    roller.add(5, 4)
    events = f.do(SkillCheck(actor="c2", skill="Trade (Healing)", stat="int", dc=9, cost="half"))
    (e,) = of(events, SkillChecked)
    assert e.passed and e.cost == "none" and e.skill == "Trade (Healing)"
    assert "succeeds" in e.describe(f.state)


def test_a_check_before_the_fight_starts() -> None:
    """RULINGS third pass: any check can be rolled before the fight starts."""
    roller = ScriptedRoller()
    f = Fight(system, roller=roller)
    f.do(AddCombatant(name="Scout", kind="pc", sheet=DUMMY))
    roller.add(1, 2)
    (e,) = of(f.do(SkillCheck(actor="c1", skill="Notice", dc=7)), SkillChecked)
    assert not e.passed and e.cost == "none"


def test_the_dead_roll_no_check_even_outside_the_turn() -> None:
    """RULINGS third pass: the check is free, but the dead and unconscious still cannot roll."""
    from tests.systems.twod6.helpers import set_wounds

    f, _ = setup(("Fighter", FIGHTER), ("Healer", HEALER))
    set_wounds(f, "c2", 0)
    refused(f, SkillCheck(actor="c2", skill="Notice", dc=7, cost="none"), "unconscious")
