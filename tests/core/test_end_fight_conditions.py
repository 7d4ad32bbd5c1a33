"""Ending the fight ends the conditions counted in rounds (ruling in tracker/engine.py ``_end``).

A 2-round "pinned" stayed on the table after ctrl+e, still reading "pinned (ends this round)", live and in the
replay.  Rounds are counted in a fight: its end ends them, as letting time pass does.  A condition with no rounds
stays; undo of the end brings them back; a fight file that logged its end before this folds as it did.
"""

from __future__ import annotations

import pytest

from tracker import Fight, fold, registry
from tracker import commands as C
from tracker import events as E

REASON = "its rounds are over: the fight ended"


def _fight(system_id: str) -> Fight:
    f = Fight(registry.load(system_id))
    f.do(C.AddCombatant(name="Dusty", kind="pc"))
    f.do(C.AddCombatant(name="Gunfighter", kind="npc"))
    f.do(C.AddCombatant(name="Outlaw", kind="npc"))
    f.do(C.SetInitiative(values={"c1": 10, "c2": 5, "c3": 3}))
    f.do(C.StartFight())
    f.do(C.AddCondition(id="c2", name="pinned", rounds=2, ends_on="c1", ends_at="end"))
    f.do(C.AddCondition(id="c1", name="Cursed"))  # until removed
    f.do(C.AddCondition(id="c3", name="Dazed", rounds=1))
    return f


@pytest.mark.parametrize("system_id", ["bnb", "blackjack", "zludge", "twod6"])
def test_ending_the_fight_ends_the_conditions_counted_in_rounds(system_id: str) -> None:
    f = _fight(system_id)
    events = f.do(C.EndFight())
    assert isinstance(events[0], E.FightEnded)
    removed = [(ev.id, ev.name, ev.reason) for ev in events if isinstance(ev, E.ConditionRemoved)]
    assert removed == [("c2", "pinned", REASON), ("c3", "Dazed", REASON)]
    assert f.state.ended
    assert f.state.get("c2").conditions == ()
    assert f.state.get("c3").conditions == ()
    assert [c.name for c in f.state.get("c1").conditions] == ["Cursed"]  # no rounds: it stays
    # the state folds the same from the log (what the replay shows)
    assert fold(f.system, [e.event for e in f.entries]) == f.state


def test_the_log_says_why_they_ended() -> None:
    f = _fight("bnb")
    before = f.state
    events = f.do(C.EndFight())
    lines = [ev.describe(before) for ev in events]
    assert lines == [
        "The fight ends",
        f"Gunfighter is no longer pinned ({REASON})",
        f"Outlaw is no longer Dazed ({REASON})",
    ]
    # undo names the end first
    assert f.last_step() is not None
    assert f.describe_action(f.last_step().action).startswith("The fight ends; Gunfighter is no longer pinned")


def test_undo_of_the_end_brings_the_conditions_back_and_redo_ends_them_again() -> None:
    f = _fight("bnb")
    before = f.state
    f.do(C.EndFight())
    after = f.state
    step = f.undo()
    assert isinstance(step.events[0], E.FightEnded) and len(step.events) == 3  # one action, one undo step
    assert f.state == before
    assert not f.state.ended
    pinned = f.state.get("c2").condition("pinned")
    assert pinned is not None and pinned.rounds == 2
    f.redo()
    assert f.state == after


def test_a_removed_combatant_gets_no_removal_logged() -> None:
    f = _fight("bnb")
    f.do(C.RemoveCombatant(id="c3"))
    events = f.do(C.EndFight())
    assert [(ev.id, ev.name) for ev in events if isinstance(ev, E.ConditionRemoved)] == [("c2", "pinned")]


def test_a_fight_ended_before_the_ruling_folds_as_it_did() -> None:
    """An old file: its FightEnded stands alone; the condition stays on the table as it was saved."""
    f = _fight("bnb")
    old = [e.event for e in f.entries] + [E.FightEnded()]
    state = fold(f.system, old)
    assert state.ended
    pinned = state.get("c2").condition("pinned")
    assert pinned is not None and pinned.expires_round is not None


def test_time_passing_after_the_end_has_no_rounds_left_to_end() -> None:
    f = _fight("bnb")
    f.do(C.EndFight())
    events = f.do(C.Rest(days=1))
    assert not [ev for ev in events if isinstance(ev, E.ConditionRemoved) and "rounds are over" in ev.reason]
    assert [c.name for c in f.state.get("c1").conditions] == ["Cursed"]
