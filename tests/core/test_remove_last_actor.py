"""Removing the combatant whose turn it is (ruling in tracker/engine.py ``_remove``).

The next turn is worked out as if the one leaving were already gone. With no one else able to act, the removal
logged a whole phantom round ("Round 2; Outlaw's turn; Outlaw leaves the fight"): the round counter went up and
others' round-counted conditions ended early. Now its turn ends and it leaves; no round starts.
"""

from __future__ import annotations

from tracker import Fight, fold, registry
from tracker import commands as C
from tracker import events as E
from tracker.dice import ScriptedRoller


def _three(dead: tuple[str, ...] = (), roller: ScriptedRoller | None = None) -> Fight:
    """bnb: Dusty (c1), Outlaw (c2), Gunfighter (c3) in that order; ``dead`` ones cannot act."""
    f = Fight(registry.load("bnb"), roller=roller)
    f.do(C.AddCombatant(name="Dusty", kind="pc"))
    f.do(C.AddCombatant(name="Outlaw", kind="npc"))
    f.do(C.AddCombatant(name="Gunfighter", kind="npc"))
    f.do(C.SetInitiative(values={"c1": 10, "c2": 5, "c3": 3}))
    for cid in dead:
        f.do(C.Adjust(id=cid, field="status", value="dead"))
    f.do(C.StartFight())
    return f


def _types(events: list[E.Event]) -> list[str]:
    return [type(e).__name__ for e in events]


def _outlaw_alone() -> Fight:
    """Dusty and the Gunfighter dead; it is the Outlaw's turn in round 1."""
    f = _three(dead=("c1", "c3"))
    assert f.state.current == "c2" and f.state.round == 1
    return f


def test_removing_the_last_who_can_act_starts_no_round() -> None:
    f = _outlaw_alone()
    events = f.do(C.RemoveCombatant(id="c2", reason="fled"))
    assert _types(events) == ["TurnEnded", "CombatantRemoved"]
    assert f.state.round == 1
    assert f.state.get("c2").removed
    assert f.state.order == ("c1", "c3")
    assert fold(f.system, [e.event for e in f.entries]) == f.state  # the replay folds the same


def test_no_condition_of_another_expires_early() -> None:
    f = _outlaw_alone()
    # 1 round, to the end of Dusty's turn in round 2: the phantom round 2 passed that point and ended it
    f.do(C.AddCondition(id="c3", name="pinned", rounds=1, ends_on="c1", ends_at="end"))
    events = f.do(C.RemoveCombatant(id="c2"))
    assert not [e for e in events if isinstance(e, E.ConditionRemoved | E.RoundStarted | E.TurnStarted)]
    assert f.state.get("c3").condition("pinned") is not None


def test_what_ends_at_the_end_of_its_turn_ends() -> None:
    f = Fight(registry.load("bnb"))
    f.do(C.AddCombatant(name="Dusty", kind="pc"))
    f.do(C.AddCombatant(name="Outlaw", kind="npc"))
    f.do(C.SetInitiative(values={"c1": 10, "c2": 5}))
    f.do(C.Adjust(id="c1", field="status", value="dead"))
    # round 1, to the end of the Outlaw's turn
    f.do(C.AddCondition(id="c1", name="covered", rounds=1, ends_on="c2", ends_at="end"))
    f.do(C.StartFight())
    assert f.state.current == "c2"
    events = f.do(C.RemoveCombatant(id="c2"))
    assert events == [
        E.TurnEnded(id="c2"),
        E.ConditionRemoved(id="c1", name="covered", reason="expired"),
        E.CombatantRemoved(id="c2"),
    ]
    assert f.state.round == 1


def test_the_undo_line_names_the_removal_then_the_turns_end() -> None:
    f = _outlaw_alone()
    before = f.state
    f.do(C.RemoveCombatant(id="c2", reason="fled"))
    step = f.last_step()
    assert step is not None
    words = "Outlaw leaves the fight: fled; Outlaw ends the turn"
    assert step.describe() == words
    f.undo()
    assert f.state == before
    assert f.log.describe(len(f.log) - 1) == f"undone: {words}"
    f.redo()
    assert f.state.round == 1 and f.state.get("c2").removed


def test_an_ordinary_removal_logs_as_before() -> None:
    """Someone else comes next: the turn ends, the next turn starts, then the removal (as before the ruling)."""
    f = _three()
    events = f.do(C.RemoveCombatant(id="c1"))
    assert events == [E.TurnEnded(id="c1"), E.TurnStarted(id="c2", index=1), E.CombatantRemoved(id="c1")]
    assert f.state.current == "c2" and f.state.order == ("c2", "c3")
    # the last in the order: the order wraps to the next round, as it did
    f.do(C.NextTurn())
    assert f.state.current == "c3"
    events = f.do(C.RemoveCombatant(id="c3"))
    assert events == [
        E.TurnEnded(id="c3"),
        E.RoundStarted(round=2),
        E.TurnStarted(id="c2", index=0),
        E.CombatantRemoved(id="c3"),
    ]
    assert f.state.current == "c2" and f.state.round == 2


def test_a_surprise_round_passes_to_the_next_round_without_the_one_leaving() -> None:
    f = Fight(registry.load("bnb"))
    f.do(C.AddCombatant(name="Dusty", kind="pc"))
    f.do(C.AddCombatant(name="Outlaw", kind="npc"))
    f.do(C.SetInitiative(values={"c1": 10, "c2": 5}))
    f.do(C.StartFight(surprise=("c1",)))
    assert f.state.current == "c1" and f.state.round == 0
    events = f.do(C.RemoveCombatant(id="c1"))
    # not "Round 1; Dusty's turn; Dusty leaves": the Outlaw's turn in round 1
    assert events == [
        E.TurnEnded(id="c1"),
        E.CombatantRemoved(id="c1"),
        E.RoundStarted(round=1),
        E.TurnStarted(id="c2", index=0),
    ]
    assert f.state.current == "c2" and f.state.round == 1
    assert fold(f.system, [e.event for e in f.entries]) == f.state


def test_a_reroll_at_the_wrap_rolls_without_the_one_leaving() -> None:
    roller = ScriptedRoller([3] * 100)
    f = _three(roller=roller)
    f.do(C.RollInitiative(reroll=True))
    f.do(C.NextTurn())
    f.do(C.NextTurn())
    assert f.state.current == "c3"
    events = f.do(C.RemoveCombatant(id="c3"))
    assert events[:2] == [E.TurnEnded(id="c3"), E.CombatantRemoved(id="c3")]
    rolled = {e.id for e in events if isinstance(e, E.InitiativeSet)}
    assert rolled == {"c1", "c2"}  # not the Gunfighter, who is leaving
    assert isinstance(events[-1], E.TurnStarted) and events[-1].id in rolled
    assert f.state.round == 2 and f.state.current == events[-1].id
    assert fold(f.system, [e.event for e in f.entries]) == f.state


def test_a_newcomer_after_the_last_left_takes_the_turn_with_its_line() -> None:
    """Hero and Bad; Bad leaves, then Hero on his turn: no one's turn.  A newcomer then was made the turn with no
    "New's turn", and n logged "New ends the turn" (audit a14 g2, F4).  Its turn begins, said; n goes on."""
    f = Fight(registry.load("bnb"))
    f.do(C.AddCombatant(name="Hero", kind="pc"))
    f.do(C.AddCombatant(name="Bad", kind="npc"))
    f.do(C.SetInitiative(values={"c1": 20, "c2": 10}))
    f.do(C.StartFight())
    f.do(C.RemoveCombatant(id="c2"))
    f.do(C.RemoveCombatant(id="c1"))
    assert f.state.current is None
    events = f.do(C.AddCombatant(name="New", kind="pc"))
    new = f.state.by_name("New")
    assert new is not None and f.state.current == new.id
    assert isinstance(events[-1], E.TurnStarted) and events[-1].describe(f.state) == "New's turn"
    assert fold(f.system, [x.event for x in f.entries]) == f.state
    later = f.do(C.NextTurn())
    assert [type(e) for e in later][:2] == [E.TurnEnded, E.RoundStarted]


def test_a_newcomer_while_someone_has_the_turn_takes_none() -> None:
    f = Fight(registry.load("bnb"))
    f.do(C.AddCombatant(name="Hero", kind="pc"))
    f.do(C.StartFight())
    events = f.do(C.AddCombatant(name="New", kind="pc"))
    assert not any(isinstance(e, E.TurnStarted) for e in events)
    assert f.state.current == "c1"


def test_why_says_the_removal_ended_its_turn_and_the_newcomer_took_the_empty_place() -> None:
    """Why? on those lines gave the general rule: "the turn passes on if it was up" (none did), and nothing of the
    newcomer taking the empty turn (audit a14 w2, F4)."""
    from tracker.explain import explain

    f = Fight(registry.load("bnb"))
    f.do(C.AddCombatant(name="Hero", kind="pc"))
    f.do(C.AddCombatant(name="Bad", kind="npc"))
    f.do(C.SetInitiative(values={"c1": 20, "c2": 10}))
    f.do(C.StartFight())
    f.do(C.RemoveCombatant(id="c2"))
    f.do(C.RemoveCombatant(id="c1"))
    f.do(C.AddCombatant(name="New", kind="pc"))

    def terms(kind: type, cid: str) -> list[str]:
        seq = next(x.seq for x in reversed(f.entries) if isinstance(x.event, kind) and x.event.id == cid)
        return [t for r in explain(f, seq) for t in r.terms]

    assert any("it left on its turn: the turn ended" in t for t in terms(E.CombatantRemoved, "c1"))
    assert not any("it left on its turn" in t for t in terms(E.CombatantRemoved, "c2"))  # (not its turn)
    new = f.state.by_name("New")
    assert new is not None
    assert any("no one had the turn" in t and "takes the empty place" in t for t in terms(E.CombatantAdded, new.id))
