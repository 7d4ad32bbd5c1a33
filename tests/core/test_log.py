"""The one action log: Fight, Timeline, the summary and the replay screen all read undo and redo from it."""

from __future__ import annotations

import pytest

from tests.support.toy import Hit
from tests.support.toy import system as toy
from tracker import AddCombatant, Entry, Fight, NextTurn, Note, ScriptedRoller, SetInitiative, StartFight
from tracker.events import Undone
from tracker.log import LogError
from tracker.replay import Timeline


def story() -> Fight:
    f = Fight(toy, roller=ScriptedRoller([15, 4, 3, 12, 5]))
    f.do(AddCombatant(name="Alice", kind="pc", sheet={"hp": 8}))
    f.do(AddCombatant(name="Goblin", sheet={"hp": 9}))
    f.do(SetInitiative(values={"c1": 12, "c2": 8}))
    f.do(StartFight())
    f.do(Hit(actor="c1", target="c2"))
    f.undo()
    f.redo()
    f.do(NextTurn())
    f.do(Note(text="a mistake"))
    f.undo()
    f.do(Note(text="the right note"))
    return f


def test_the_text_of_an_undone_action_is_built_in_one_place() -> None:
    f = story()
    t = Timeline(toy, f.entries)
    undo_lines = [i for i, e in enumerate(t.entries) if isinstance(e.event, Undone)]
    step = f.log._step(f.log._group_of_action(t.entries[undo_lines[-1]].event.action))
    assert t.describe(undo_lines[-1]) == f"undone: {step.describe()}" == "undone: Note: a mistake"
    assert f.describe_action(t.entries[undo_lines[-1]].event.action) == step.describe()


def test_in_effect_skip_and_marks_agree() -> None:
    f = story()
    t = Timeline(toy, f.entries)
    n = len(t)
    kept = t.in_effect(n)
    mistake = next(i for i, e in enumerate(t.entries) if getattr(e.event, "text", "") == "a mistake")
    assert mistake not in kept and t.is_undone(mistake)
    assert t.skip_forward(mistake) == mistake + 2  # past the note and its undo
    assert t.skip_back(mistake + 2) == mistake
    assert t.state_at(n) == f.state


def test_a_mismatched_undo_is_refused_everywhere() -> None:
    f = story()
    entries = [*f.entries, Entry(len(f.entries) + 1, 99, Undone(action=1))]
    with pytest.raises(LogError, match="not the next to undo"):
        Timeline(toy, entries)
    with pytest.raises(LogError):
        Fight(toy).load(entries)


def test_a_sink_that_fails_leaves_the_fight_as_it_was() -> None:
    calls: list[int] = []

    def sink(entries: list[Entry]) -> None:
        calls.append(len(entries))
        if len(calls) == 2:
            raise OSError("disk full")

    f = Fight(toy, sink=sink)
    f.do(Note(text="one"))
    state, entries = f.state, list(f.entries)
    with pytest.raises(OSError):
        f.do(AddCombatant(name="Goblin", count=2, sheet={"hp": 3}))
    assert f.state == state and list(f.entries) == entries and f.log.groups == 1
    f.do(AddCombatant(name="Goblin", count=2, sheet={"hp": 3}))  # taken on the retry
    assert [c.name for c in f.state.combatants] == ["Goblin 1", "Goblin 2"]


def test_extending_with_a_bad_action_keeps_the_actions_before_it() -> None:
    """``extend`` adds what it reads up to an action that does not make sense (the entries and the stacks of the
    good ones, in any mix of ordinary actions, undos and redos), names that action, and goes on from there."""
    from tracker.log import ActionLog

    entries = story().entries
    k = next(i for i, e in enumerate(entries) if isinstance(e.event, Undone))
    for cut in (1, k - 1, k, k + 1, len(entries) - 1):
        log = ActionLog(toy)
        bad = [*entries[:cut], entries[cut]._replace(seq=entries[cut].seq + 5), *entries[cut + 1 :]]
        with pytest.raises(LogError) as err:
            log.extend(bad)
        start = cut
        while start > 0 and entries[start - 1].action == entries[cut].action:
            start -= 1
        assert err.value.seq == bad[start].seq, "the error names the first event of the action at fault"
        assert log.loaded == list(entries[:start]) and len(log) == start
        assert log.new_seq == start + 1 and log.groups == len({e.action for e in entries[:start]})
        log.extend(entries[start:])  # the rest, as it should have been: the whole log
        whole = ActionLog(toy)
        whole.extend(entries)
        assert log.loaded == whole.loaded and log.stacks() == whole.stacks() and log.state == whole.state


def test_a_round_jump_lands_where_the_gm_saw_the_round_begin() -> None:
    """PgDn in replay stopped just after "Round 2", with the last turn of round 1 still up (a state the live
    fight never showed: next turn goes from the end of a turn through the round's start to the first turn in
    one action). It lands at the end of the action that began the round, as ] does."""
    f = Fight(toy, roller=ScriptedRoller([]))
    f.do(AddCombatant(name="Alice", kind="pc", sheet={"hp": 8}))
    f.do(AddCombatant(name="Goblin", sheet={"hp": 9}))
    f.do(SetInitiative(values={"c1": 12, "c2": 8}))
    f.do(StartFight())
    f.do(NextTurn())
    f.do(NextTurn())  # round 2, Alice
    f.do(NextTurn())
    f.do(NextTurn())  # round 3, Alice
    t = Timeline(toy, f.entries)
    first = t.next_round(0)
    assert (t.state_at(first).round, t.state_at(first).current) == (1, "c1")
    second = t.next_round(first)
    assert (t.state_at(second).round, t.state_at(second).current) == (2, "c1")
    assert second == t.end_of_action(second) and t.next_round(second - 1) == second
    third = t.next_round(second)
    assert (t.state_at(third).round, t.state_at(third).current) == (3, "c1")
    assert t.prev_round(third) == second and t.prev_round(second) == first and t.prev_round(first) == 0
    assert t.next_round(third) == len(t)


def test_an_error_inside_an_action_names_the_event_at_fault() -> None:
    """An event out of sequence, or one that does not apply, in the middle of an action: the error names that
    event (the loader and the players' view show its line), not the action's first; what is kept is the same,
    the actions before it (review a11 files #3)."""
    from tracker.events import TurnStarted
    from tracker.log import ActionLog

    entries = story().entries
    # the second event of an action of several (the initiative values and the order)
    cut = next(i for i in range(1, len(entries)) if entries[i].action == entries[i - 1].action)
    start = cut - 1
    assert entries[start].action != entries[start - 1].action
    bad = [*entries[:cut], entries[cut]._replace(seq=entries[cut].seq + 5), *entries[cut + 1 :]]
    log = ActionLog(toy)
    with pytest.raises(LogError, match=f"event {entries[cut].seq + 5} out of sequence") as err:
        log.extend(bad)
    assert err.value.seq == entries[cut].seq + 5
    assert log.loaded == list(entries[:start])
    # an event that does not apply: the turn of someone not at that place, the last event of a next turn
    turn = max(i for i, e in enumerate(entries) if isinstance(e.event, TurnStarted))
    assert entries[turn - 1].action == entries[turn].action
    bad = [*entries[:turn], entries[turn]._replace(event=TurnStarted(id="c9", index=0)), *entries[turn + 1 :]]
    log = ActionLog(toy)
    log.extend(bad)
    with pytest.raises(LogError, match=f"event {entries[turn].seq} does not apply") as err:
        log.fold()
    assert err.value.seq == entries[turn].seq
