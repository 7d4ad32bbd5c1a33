"""Issue #44 item 4: initiative in a running fight: newcomers are rolled and slotted in; a reroll of the whole
order is the GM's explicit choice and takes effect at the next round."""

from __future__ import annotations

import pytest

from systems.twod6 import system
from systems.twod6.events import InitiativeTieRolled
from tracker import Fight
from tracker.commands import AddCombatant, Adjust, NextTurn, RollInitiative, SetInitiative, StartFight
from tracker.dice import ScriptedRoller
from tracker.errors import Refused
from tracker.events import InitiativeSet, OrderSet, RerollPlanned, RoundStarted, TurnStarted


def _running() -> tuple[Fight, ScriptedRoller]:
    """Ann (10) and Bob (9) in round 1, Bob's turn."""
    roller = ScriptedRoller()
    f = Fight(system, roller=roller)
    f.do(AddCombatant(name="Ann", kind="pc", sheet={}))
    f.do(AddCombatant(name="Bob", kind="npc", sheet={}))
    f.do(SetInitiative(values={"c1": 10, "c2": 9}))
    f.do(StartFight())
    f.do(NextTurn())
    assert f.state.current == "c2"
    return f, roller


def test_a_reinforcement_is_rolled_and_slotted_in_leaving_the_order_and_the_turn() -> None:
    f, roller = _running()
    f.do(AddCombatant(name="Cal", kind="npc", sheet={}))
    assert f.state.order == ("c1", "c2", "c3") and f.state.get("c3").initiative is None
    roller.add(6, 5)  # 11 + PER 0 + AGI 0: first in the order
    events = f.do(RollInitiative())
    assert [e.id for e in events if isinstance(e, InitiativeSet)] == ["c3"]
    assert f.state.order == ("c3", "c1", "c2") and f.state.current == "c2" and f.state.round == 1
    assert (f.state.get("c1").initiative, f.state.get("c2").initiative, f.state.get("c3").initiative) == (10, 9, 11)
    assert "rolled in the running fight" in next(e for e in events if isinstance(e, OrderSet)).describe(f.state)
    with pytest.raises(Refused, match="everyone has an initiative"):
        f.do(RollInitiative())
    f.do(NextTurn())
    assert (f.state.round, f.state.current) == (2, "c3")
    f.undo()
    f.undo()
    assert f.state.order == ("c1", "c2", "c3") and f.state.get("c3").initiative is None


def test_a_reroll_of_the_whole_order_takes_effect_at_the_next_round() -> None:
    f, roller = _running()
    (planned,) = f.do(RollInitiative(reroll=True))
    assert isinstance(planned, RerollPlanned) and planned.round == 2
    assert f.state.order == ("c1", "c2") and f.state.current == "c2"  # this round stays as it was
    with pytest.raises(Refused, match="already rolled again at the start of round 2"):
        f.do(RollInitiative(reroll=True))
    roller.add(1, 1, 6, 6)  # Ann 2, Bob 12: Bob first from round 2
    events = f.do(NextTurn())
    kinds = [type(e).__name__ for e in events]
    assert kinds.index("InitiativeSet") < kinds.index("RoundStarted") < kinds.index("TurnStarted")
    assert [e.value for e in events if isinstance(e, InitiativeSet)] == [2, 12]
    assert f.state.order == ("c2", "c1") and (f.state.round, f.state.current) == (2, "c2")
    assert not f.state.reroll_next_round
    assert [e for e in events if isinstance(e, TurnStarted)][-1].index == 0
    assert [e.round for e in events if isinstance(e, RoundStarted)] == [2]
    f.do(NextTurn())  # round 2 goes on in the new order, no new rolls
    assert f.state.current == "c1" and roller.exhausted
    f.undo()
    f.undo()
    assert f.state.order == ("c1", "c2") and f.state.reroll_next_round and f.state.current == "c2"


def test_initiative_set_by_the_gm_mid_fight_moves_only_those_set() -> None:
    f, _roller = _running()
    f.do(AddCombatant(name="Cal", kind="npc", sheet={}))
    with pytest.raises(Refused, match="no initiative changed"):
        f.do(SetInitiative(values={"c1": 10, "c2": 9}))
    f.do(SetInitiative(values={"c1": 10, "c2": 9, "c3": 5}))  # (the form sends every value: only Cal's is new)
    assert f.state.order == ("c1", "c2", "c3") and f.state.current == "c2"


def test_a_newcomer_tied_with_the_dead_rolls_no_tie_with_them() -> None:
    """Ties reroll among the tied (@ initiative): the dead take no more turns, so a newcomer on a dead Bob's 9
    rolled the tie with him ("Bob initiative tie" in the log, his place moved). Ruling: the dead keep their
    place and roll nothing; the newcomer ties only with the living."""
    f, roller = _running()
    f.do(Adjust(id="c2", field="dead", value=True))
    f.do(AddCombatant(name="Cal", kind="npc", sheet={}))
    f.do(AddCombatant(name="Dee", kind="npc", sheet={}))
    roller.add(4, 5, 3, 6)  # Cal 9, Dee 9: both tie with the dead Bob
    roller.add(1, 1, 6, 6)  # the tie, Cal and Dee only: Cal 2, Dee 12
    events = f.do(RollInitiative())
    assert roller.exhausted
    (tie,) = [e for e in events if isinstance(e, InitiativeTieRolled)]
    assert tie.ids == ("c3", "c4")
    order = f.state.order
    assert order.index("c1") < order.index("c4") < order.index("c3")


def test_a_newcomer_tied_only_with_the_dead_rolls_no_tie() -> None:
    f, roller = _running()
    f.do(Adjust(id="c2", field="dead", value=True))
    f.do(AddCombatant(name="Cal", kind="npc", sheet={}))
    roller.add(4, 5)  # Cal 9, as the dead Bob
    events = f.do(RollInitiative())
    assert roller.exhausted and not [e for e in events if isinstance(e, InitiativeTieRolled)]
    assert set(f.state.order) == {"c1", "c2", "c3"} and f.state.order[0] == "c1"
    assert f.state.ties == ()  # not "acting at the same time" as the dead
