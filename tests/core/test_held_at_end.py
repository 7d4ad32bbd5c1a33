"""Ending the fight ends every held action (ruling in tracker/engine.py ``_end``).

A PC holding its action still read "held" and "Holding the action (W: act now)" after the fight's end and after
8 hours' rest, with "act now" refused. The end closes the round as a new round would: the hold lapses. Undo of
the end brings the hold back; a fight file that logged its end before folds as it did.
"""

from __future__ import annotations

import pytest

from tracker import Fight, fold, registry
from tracker import commands as C
from tracker import events as E
from tracker.errors import Refused


def _holding(system_id: str) -> Fight:
    """Dusty (c1) holds the action on his turn; it is the Outlaw's (c2) turn."""
    f = Fight(registry.load(system_id))
    f.do(C.AddCombatant(name="Dusty", kind="pc"))
    f.do(C.AddCombatant(name="Outlaw", kind="npc"))
    f.do(C.SetInitiative(values={"c1": 10, "c2": 5}))
    f.do(C.StartFight())
    f.do(C.Delay(id=None))
    assert f.state.get("c1").held and f.state.current == "c2"
    return f


@pytest.mark.parametrize("system_id", ["bnb", "blackjack", "zludge", "twod6"])
def test_the_end_ends_a_held_action(system_id: str) -> None:
    f = _holding(system_id)
    f.do(C.EndFight())
    assert f.state.ended
    assert not f.state.get("c1").held
    with pytest.raises(Refused):
        f.do(C.ActNow(id="c1"))
    assert fold(f.system, [e.event for e in f.entries]) == f.state  # the replay folds the same


def test_the_hold_stays_ended_after_rest() -> None:
    f = _holding("bnb")
    f.do(C.EndFight())
    f.do(C.Rest(hours=8))
    assert not f.state.get("c1").held


def test_the_log_says_the_held_action_lapses() -> None:
    f = _holding("bnb")
    before = f.state
    events = f.do(C.EndFight(note="the outlaws ran"))
    assert events[0] == E.FightEnded(note="the outlaws ran", closes_round=True)
    assert events[0].describe(before) == "The fight ends: the outlaws ran — held action lapses: Dusty"
    step = f.last_step()
    assert step is not None
    assert f.describe_action(step.action) == "The fight ends: the outlaws ran — held action lapses: Dusty"


def test_an_end_without_a_hold_reads_as_before() -> None:
    f = Fight(registry.load("bnb"))
    f.do(C.AddCombatant(name="Dusty", kind="pc"))
    f.do(C.StartFight())
    before = f.state
    (ended,) = f.do(C.EndFight())
    assert ended.describe(before) == "The fight ends"


def test_undo_of_the_end_brings_the_hold_back() -> None:
    f = _holding("bnb")
    before = f.state
    f.do(C.EndFight())
    after = f.state
    f.undo()
    assert f.state == before and f.state.get("c1").held
    f.redo()
    assert f.state == after and not f.state.get("c1").held


def test_an_end_logged_before_folds_as_it_did() -> None:
    """An old file: its FightEnded has no ``closes_round``; the hold stays as it was saved."""
    f = _holding("bnb")
    old = [e.event for e in f.entries] + [E.FightEnded()]
    state = fold(f.system, old)
    assert state.ended and state.get("c1").held


def test_why_on_the_end_names_the_holds_that_lapse() -> None:
    """Why? on "The fight ends" cites the held-action rule with the holds it ended (it cited the end alone)."""
    from tracker.explain import explain

    f = _holding("bnb")
    f.do(C.EndFight())
    seq = next(x.seq for x in f.entries if isinstance(x.event, E.FightEnded))
    reasons = explain(f, seq)
    assert [r.rule_id for r in reasons] == ["fight-end", "held-action"]
    assert "holds that lapse as the fight ends: Dusty" in reasons[1].terms
