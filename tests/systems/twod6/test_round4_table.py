"""Round 4 table fixes (g2 audit, finding F4b): a turn with actions spent cannot be held, since the held turn comes
back whole (ruling in ``TwoD6System.check_core``, rule ``hold``)."""

from __future__ import annotations

from systems.twod6.commands import Act
from systems.twod6.table import R
from tests.systems.twod6.helpers import DUMMY, FIGHTER, attack, data, refused, setup
from tracker.commands import ActNow, Adjust, Delay
from tracker.errors import Refused


def test_a_turn_with_actions_spent_cannot_be_held() -> None:
    """g2 F4b: Bandit attacked (a full-round action), held, acted now and attacked again in the same round."""
    f, roller = setup(("Bandit", FIGHTER), ("Hero", DUMMY), ("Other", DUMMY))
    attack(f, roller, (2, 3, 3, 4), "c1", "c2")  # 5 + 4 = 9 vs 7: a wound
    assert (data(f, "c1").quick, data(f, "c1").half) == (2, 0)
    said = refused(f, Delay(), "Bandit has 2 quick and 0 half-round actions left this turn, not a whole turn's")
    assert "holding it now would give more actions than the round's" in said
    assert "GM adjust 'Quick actions left' and 'Half-round actions left' to 2 frees it" in said
    try:
        f.do(Delay())
    except Refused as e:
        assert e.rule == R.HOLD
    assert f.state.current == "c1" and not f.state.get("c1").held


def test_a_turn_with_only_a_quick_action_spent_cannot_be_held_either() -> None:
    """Two quick actions a round (@48608): a held turn would give a third."""
    f, _ = setup(("Bandit", FIGHTER), ("Hero", DUMMY))
    f.do(Act(actor="c1", action="speak"))
    refused(f, Delay(), "Bandit has 1 quick and 2 half-round actions left this turn")


def test_a_whole_turn_can_be_held_and_comes_back_whole() -> None:
    f, roller = setup(("Bandit", FIGHTER), ("Hero", DUMMY), ("Other", DUMMY))
    f.do(Delay())
    assert f.state.current == "c2" and f.state.get("c1").held
    f.do(ActNow(id="c1"))
    assert f.state.current == "c1" and (data(f, "c1").quick, data(f, "c1").half) == (2, 2)
    attack(f, roller, (2, 3, 3, 4), "c1", "c2")
    refused(f, Delay(), "not a whole turn's")


def test_the_gm_frees_the_hold_by_giving_the_actions_back() -> None:
    f, roller = setup(("Bandit", FIGHTER), ("Hero", DUMMY), ("Other", DUMMY))
    attack(f, roller, (2, 3, 3, 4), "c1", "c2")
    f.do(Adjust(id="c1", field="half", value=2))
    f.do(Delay())
    assert f.state.current == "c2" and f.state.get("c1").held and f.state.round == 1
