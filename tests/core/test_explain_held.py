"""Why? on a held (or departed) combatant explains the word the initiative list shows.

The table's word is the system's standing word, else the core's own: "held" for a combatant holding its action,
"gone" for one removed.  ``standing_seq`` asked the system only, so a held combatant was "fit to fight" and its
cause the line it joined on (audit a14 finding 2).  Both now use :func:`tracker.explain.standing`: the cause of
"held" is the hold (``TurnDelayed``), of "gone" the removal, in the live fight, in a replay (``upto``) and after
undo and redo.
"""

from __future__ import annotations

import attrs
import pytest

from tests.support import toy
from tracker import Fight
from tracker import commands as C
from tracker import events as E
from tracker.dice import SeededRoller
from tracker.explain import standing, standing_seq
from tracker.model import Combatant, FightState
from tracker.plugin import FIT, Standing
from tracker.replay import Timeline


def seq_of(f: Fight, kind: type) -> int:
    return max(e.seq for e in f.entries if type(e.event) is kind)


def holding() -> tuple[Fight, str, int]:
    """A toy fight: Ann (PC) and Gob; Ann's turn first, she holds.  (fight, Ann's id, the hold's seq)."""
    f = Fight(toy.system, roller=SeededRoller(1))
    f.do(C.AddCombatant(name="Ann", kind="pc", sheet={"hp": 10}))
    f.do(C.AddCombatant(name="Gob", kind="npc", sheet={"hp": 4}))
    f.do(C.SetInitiative(values={"c1": 15, "c2": 5}))
    f.do(C.StartFight())
    assert f.state.current == "c1"
    f.do(C.Delay(id=None))
    assert f.state.get("c1").held
    return f, "c1", seq_of(f, E.TurnDelayed)


def test_the_core_word_of_a_held_combatant_is_held() -> None:
    f, ann, _ = holding()
    assert toy.system.standing(f.state, f.state.get(ann)).word == ""  # the system has no word for it
    assert standing(toy.system, f.state, f.state.get(ann)) == Standing(word="held")


def test_why_is_ann_held_points_at_the_hold() -> None:
    f, ann, hold = holding()
    f.do(C.Note(text="later"))
    assert standing_seq(f, ann) == hold  # it was 1: "Ann joins the fight"
    timeline = Timeline(f.system, list(f.entries))
    assert standing_seq(timeline, ann) == hold
    assert standing_seq(timeline, ann, upto=hold) == hold  # the replay at the hold's line
    assert standing_seq(timeline, ann, upto=hold - 1) == 1  # before it: fit since she joined


def test_undo_and_redo_of_the_hold() -> None:
    f, ann, hold = holding()
    f.undo()
    assert not f.state.get(ann).held
    assert standing_seq(f, ann) == 1  # fit, as she joined (not the undo)
    f.redo()
    assert f.state.get(ann).held
    assert standing_seq(f, ann) == hold  # the hold, not the redo


def test_a_new_round_ends_the_hold_and_says_so() -> None:
    f, ann, _ = holding()
    f.do(C.NextTurn())  # Gob
    f.do(C.NextTurn())  # round 2: the hold lapses
    assert not f.state.get(ann).held
    lapsed = seq_of(f, E.RoundStarted)
    assert "held action lapses: Ann" in f.log.describe(lapsed - 1)
    assert standing_seq(f, ann) == lapsed  # fit again: the round that ended the hold


class Wordless(toy.ToySystem):
    """The toy with no word for a removed combatant (the core's "gone" shows)."""

    def standing(self, state: FightState, combatant: Combatant) -> Standing:
        return FIT if combatant.removed else super().standing(state, combatant)


def test_why_is_gob_gone_points_at_the_removal() -> None:
    system = Wordless()
    f = Fight(system, roller=SeededRoller(1))
    f.do(C.AddCombatant(name="Ann", kind="pc", sheet={"hp": 10}))
    f.do(C.AddCombatant(name="Gob", kind="npc", sheet={"hp": 4}))
    f.do(C.RemoveCombatant(id="c2", reason="ran off"))
    f.do(C.Note(text="later"))
    gob = f.state.get("c2")
    assert standing(system, f.state, gob) == Standing(word="gone", out=True)
    assert standing_seq(f, "c2") == seq_of(f, E.CombatantRemoved)  # it was 2: "Gob joins the fight"


def test_the_systems_word_comes_first() -> None:
    """Held and down: the system's "down" is the word (as the table shows it), and its cause the harm."""
    f, ann, _ = holding()
    f.do(C.Damage(targets=(ann,), amount="20"))
    c = f.state.get(ann)
    assert c.held and standing(toy.system, f.state, c).word == "down"
    assert type(f.entries[standing_seq(f, ann) - 1].event) is toy.HpChanged  # type: ignore[operator]


class Failing(toy.ToySystem):
    def standing(self, state: FightState, combatant: Combatant) -> Standing:
        raise RuntimeError("broken")


def test_a_failing_plugin() -> None:
    """A failing standing raises for the caller to report, or counts as no word when a default is given."""
    f = Fight(toy.system, roller=SeededRoller(1))
    f.do(C.AddCombatant(name="Ann", kind="pc", sheet={"hp": 10}))
    c = attrs.evolve(f.state.get("c1"), held=True)
    failing = Failing()
    with pytest.raises(RuntimeError, match="broken"):
        standing(failing, f.state, c)
    assert standing(failing, f.state, c, default=Standing()).word == "held"
