"""Summary figures of a fight, read off the timeline (toy system, scripted dice)."""

from __future__ import annotations

import pytest

from tests.support.toy import Hit, HitRolled, ToySystem
from tracker import AddCombatant, DismissPrompt, Fight, NextTurn, ScriptedRoller, SetInitiative, StartFight
from tracker.events import Event
from tracker.model import FightState
from tracker.plugin import Tally
from tracker.replay import Timeline
from tracker.summary import expected, summarize


class FallingToy(ToySystem):
    """The toy system, whose tally also says when a hit drops the target."""

    def tally(self, state: FightState, event: Event) -> Tally | None:
        t = super().tally(state, event)
        if t is not None and isinstance(event, HitRolled) and event.hit:
            target = state.get(event.target)
            t = Tally(actor=t.actor, target=t.target, hit=True, harm=t.harm, fell=target.data.hp - t.harm <= 0)
        return t


SYSTEM = FallingToy()


def story() -> tuple[Fight, dict[str, int]]:
    """Alice (PC, 8 HP) against two goblins (4 HP); marks: log positions after chosen actions."""
    f = Fight(SYSTEM, roller=ScriptedRoller([15, 4, 12, 2, 3, 10, 1, 20, 6]))
    f.do(AddCombatant(name="Alice", kind="pc", sheet={"hp": 8}))
    f.do(AddCombatant(name="Goblin", preset="goblin", count=2))
    f.do(SetInitiative(values={"c1": 15, "c2": 12, "c3": 10}))
    f.do(StartFight())
    marks = {"started": len(f.entries)}
    f.do(Hit(actor="c1", target="c2", damage="1d6"))  # 15, 4: hit for 4, Goblin 1 falls
    f.do(DismissPrompt(prompt_id="down:c2", note="out cold"))
    f.do(Hit(actor="c3", target="c1", damage="1d6"))  # 12, 2: hit for 2
    f.do(Hit(actor="c3", target="c1", damage="1d6"))  # 3: miss ...
    marks["miss"] = len(f.entries)
    f.undo()  # ... taken back
    f.do(Hit(actor="c1", target="c3", damage="1d6"))  # 10, 1: hit for 1
    while f.state.round < 2:
        f.do(NextTurn())
    f.do(Hit(actor="c1", target="c3", damage="1d6"))  # 20, 6: hit for 6, Goblin 2 falls
    marks["end"] = len(f.entries)
    return f, marks


def test_expected_values_of_dice_expressions() -> None:
    assert expected("d20") == 10.5
    assert expected("1d6+2") == 5.5
    assert expected("4dF") == 0
    assert expected("2d6kh1") == pytest.approx(161 / 36)
    assert expected("2d20kl1") == pytest.approx(7.175)
    assert expected("1d6!1") == pytest.approx(3.5 + 3.5 / 6)
    assert expected("2d6!") == pytest.approx(7 * 6 / 5, rel=1e-3)  # unlimited: each die averages 3.5 * 6/5
    assert expected("not dice") is None


def test_summary_of_the_whole_fight() -> None:
    f, marks = story()
    s = summarize(Timeline(SYSTEM, f.entries))
    assert s.position == s.length == len(f.entries) == marks["end"]
    assert s.rounds == 2
    alice, g1, g2 = s.fighter("Alice"), s.fighter("Goblin 1"), s.fighter("Goblin 2")
    assert (alice.hits, alice.misses, alice.harm_dealt, alice.harm_taken) == (3, 0, 11, 2)
    assert (g2.hits, g2.misses, g2.harm_dealt, g2.harm_taken) == (1, 0, 2, 7)
    assert g1.harm_taken == 4 and g1.fell_round == 1
    assert g2.fell_round == 2 and alice.fell_round is None
    assert [(x.who, x.by, x.round) for x in s.falls] == [("Goblin 1", "Alice", 1), ("Goblin 2", "Alice", 2)]
    assert alice.turns == 2 and alice.side == "pc" and g1.side == "npc"
    # the undone miss (a 3) does not count: above 15,4,12,20,6; below 2,10,1
    assert (s.rolls, s.rolls_above, s.rolls_below, s.rolls_even) == (8, 5, 3, 0)
    assert (alice.rolls_above, alice.rolls_below) == (4, 2)
    assert (g2.rolls_above, g2.rolls_below) == (1, 1)
    assert dict(s.harm_by_round) == {1: {"pc": 5, "npc": 2}, 2: {"pc": 6}}
    assert s.sides == ("pc", "npc")
    assert s.undone == 1


def test_summary_at_a_point_counts_what_was_in_effect_then() -> None:
    f, marks = story()
    t = Timeline(SYSTEM, f.entries)
    at_miss = summarize(t, marks["miss"])
    g2 = at_miss.fighter("Goblin 2")
    assert (g2.hits, g2.misses) == (1, 1)
    assert at_miss.rolls_below == 2 and at_miss.undone == 0
    after_undo = summarize(t, marks["miss"] + 1)
    assert after_undo.fighter("Goblin 2").misses == 0 and after_undo.undone == 1
    assert summarize(t, 0).rolls == 0 and summarize(t, 0).fighters == ()
    start = summarize(t, marks["started"])
    assert start.rounds == 1 and all(x.hits == 0 for x in start.fighters)


def test_in_effect_follows_undo_and_redo() -> None:
    f, _ = story()
    f.undo()
    f.undo()
    f.redo()
    entries = tuple(f.entries)
    kept = Timeline(SYSTEM, entries).in_effect(len(entries))
    folded = f.initial
    from tracker import evolve

    for i in kept:
        folded = evolve(SYSTEM, folded, entries[i].event)
    assert folded == f.state == Timeline(SYSTEM, entries).state_at(len(entries))


def test_timeline_folds_lazily_to_the_same_states_in_any_order() -> None:
    from tracker import Fight as F

    f, marks = story()
    f.undo()
    f.undo()
    f.redo()
    entries = tuple(f.entries)
    n = len(entries)
    eager = Timeline(SYSTEM, entries)
    expect = [eager.state_at(p) for p in range(n + 1)]  # folded in order
    lazy = Timeline(SYSTEM, entries)
    for p in [n // 2, 3, n, 0, n - 1, 1, *range(n + 1)]:  # jumps first, then every position
        assert lazy.state_at(p) == expect[p]
    for p in lazy.action_starts:
        check = F(SYSTEM)
        check.load(entries[:p])
        assert lazy.state_at(p) == check.state
    assert lazy.state_at(n) == f.state
    # the miss was undone and a new action followed: it stays marked undone
    miss = marks["miss"] - 1
    assert lazy.is_undone(miss) and entries[miss].action in lazy.ever_undone


def test_a_held_turn_taken_later_counts_once() -> None:
    """Delay (D) then act now (W): the summary counted two turns (its start and its taking), 3 in 2 rounds."""
    from tracker import ActNow, Delay

    f = Fight(SYSTEM, roller=ScriptedRoller([]))
    f.do(AddCombatant(name="Alice", kind="pc", sheet={"hp": 8}))
    f.do(AddCombatant(name="Gob", kind="npc", sheet={"hp": 4}))
    f.do(AddCombatant(name="Bob", kind="npc", sheet={"hp": 4}))
    f.do(SetInitiative(values={"c1": 15, "c2": 12, "c3": 10}))
    f.do(StartFight())
    f.do(NextTurn())  # Gob's turn
    f.do(Delay())  # Gob holds: Bob's turn
    f.do(ActNow(id="c2"))  # Gob acts now, before Bob
    for _ in range(4):
        f.do(NextTurn())  # to round 2, and through it
    s = summarize(Timeline(SYSTEM, f.entries))
    assert s.rounds == 2
    assert s.fighter("Gob").turns == s.fighter("Alice").turns == 2, (s.fighter("Gob").turns, s.fighter("Alice").turns)


def test_a_fall_in_the_surprise_round_is_said_as_the_chart_says_it() -> None:
    """It said "fell in before round 1 (event 21)", and the table "before R1 ×2" for a fall in the surprise round
    and one in round 1, where the chart said "S"."""
    from tracker.summary import Fall, fall_line, in_round

    assert in_round(0) == "the surprise round" and in_round(3) == "round 3"
    assert fall_line(Fall(round=0, seq=21, who="Scout", by="Bart")) == (
        "Scout fell in the surprise round (log line 21), felled by Bart"
    )
