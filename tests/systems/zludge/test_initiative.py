"""Zludge initiative: Reflexes rolls, ties rolled again, ambush, surprise, flat-footed, order kept."""

from __future__ import annotations

import pytest

from systems.zludge.commands import AmbushInitiative
from systems.zludge.events import AmbushDeclared, TieRerolled
from tests.systems.zludge.helpers import F, add, data, new_fight, script
from tracker.commands import NextTurn, RollInitiative, SetInitiative, StartFight
from tracker.errors import Refused
from tracker.events import InitiativeSet, OrderSet


def three():
    f = new_fight()
    add(f, "Alice", skills="Reflexes 2, Alertness 3, Stealth 1")  # Reflexes +1, Alertness +2, Stealth +0
    add(f, "Bob", kind="npc", skills="Reflexes 1, Alertness 0, Stealth 3")  # Reflexes 0, Alertness -1, Stealth +2
    add(f, "Cy", kind="npc", skills="Reflexes 0")  # -1 everywhere
    return f


def test_reflexes_roll_highest_first():
    """Each rolls Reflexes (4dF + Reflexes modifier); highest acts first."""
    f = three()
    script(f, F(0), F(2), F(-1))  # Alice +1, Bob +2, Cy -2
    ev = f.do(RollInitiative())
    sets = [e for e in ev if isinstance(e, InitiativeSet)]
    assert [(e.id, e.value) for e in sets] == [("c1", 1), ("c2", 2), ("c3", -2)]
    assert f.state.order == ("c2", "c1", "c3") and f.state.ties == ()
    assert "Reflexes +1 → +1 Decent" in sets[0].describe(f.state)


def test_ties_roll_again_among_the_tied_and_every_roll_is_logged():
    """Ties roll again among themselves (inside the one initiative action)."""
    f = three()
    script(f, F(1), F(2), F(3))  # Alice +2, Bob +2, Cy +2: all tied
    script(f, F(0), F(0), F(2))  # reroll: Alice +1, Bob 0, Cy +1: Alice and Cy still tied
    script(f, F(-1), F(1))  # Alice 0, Cy 0: tied again
    script(f, F(-2), F(0))  # Alice -1, Cy -1: tied again
    script(f, F(1), F(-1))  # Alice +2, Cy -2
    ev = f.do(RollInitiative())
    rerolls = [e for e in ev if isinstance(e, TieRerolled)]
    assert [e.ids for e in rerolls] == [("c1", "c2", "c3"), ("c1", "c3"), ("c1", "c3"), ("c1", "c3")]
    assert rerolls[0].totals() == (1, 0, 1)
    assert isinstance(ev[-1], OrderSet)
    assert f.state.order == ("c1", "c3", "c2") and f.state.ties == ()
    assert f.roller.exhausted
    assert "Initiative tie, rolled again: Alice 4dF [0,0,0,0] = 0 +1 → +1 Decent" in rerolls[0].describe(f.state)
    assert [f.state.get(i).initiative for i in ("c1", "c2", "c3")] == [2, 2, 2]


def test_order_is_kept_for_later_turns():
    """Ruling: the order is kept for later turns (no new initiative each round)."""
    f = three()
    script(f, F(0), F(2), F(-1))
    f.do(RollInitiative())
    f.do(StartFight())
    seen = [f.state.current]
    for _ in range(5):
        f.do(NextTurn())
        seen.append(f.state.current)
    assert seen == ["c2", "c1", "c3", "c2", "c1", "c3"]
    assert f.state.round == 2 and f.state.order == ("c2", "c1", "c3")


def test_gm_set_ties_use_the_tie_rerolls():
    f = three()
    script(f, F(1), F(2), F(-1), F(1), F(0))  # Alice 2, Bob 2 -> reroll Alice 2, Bob 0
    f.do(RollInitiative())
    assert f.state.order[:2] == ("c1", "c2")
    assert data(f, "c1").init_tiebreak == (2,)
    f.do(SetInitiative(values={"c2": 3}))  # the GM sets Bob's initiative: his tie-break is gone
    assert data(f, "c2").init_tiebreak == ()
    assert f.state.order == ("c2", "c1", "c3")


def test_ambush_victims_roll_average_of_reflexes_and_alertness_rounded_up_ambushers_stealth():
    """Ambush: victims roll the average of Reflexes and Alertness (rounded up), ambushers roll Stealth."""
    f = three()
    script(f, F(0), F(0), F(0), F(1), F(0))  # Alice and Bob tie at +2: Alice +3, Bob +2 on the reroll
    ev = f.do(AmbushInitiative(ambushers=("c2",)))
    assert isinstance(ev[0], AmbushDeclared)
    sets = {e.id: e for e in ev if isinstance(e, InitiativeSet)}
    # Alice: (+1 + +2) / 2 = 1.5 -> 2; Bob: Stealth +2; Cy: (-1 + -1) / 2 = -1
    assert (sets["c1"].value, sets["c2"].value, sets["c3"].value) == (2, 2, -1)
    assert "ambusher: Stealth +2" in sets["c2"].note
    assert "rounded up +2" in sets["c1"].note
    (tie,) = [e for e in ev if isinstance(e, TieRerolled)]
    assert tie.ids == ("c1", "c2") and tie.modifiers == (2, 2) and tie.totals() == (3, 2)
    assert f.state.order == ("c1", "c2", "c3")


def test_ambush_half_rounds_up_for_negative_averages():
    f = new_fight()
    add(f, "Vic", skills="Reflexes 1")  # Reflexes 0, Alertness -1: -0.5 -> 0
    add(f, "Amb", kind="npc", skills="Stealth 0")
    script(f, F(0), F(0))
    f.do(AmbushInitiative(ambushers=("c2",)))
    assert f.state.get("c1").initiative == 0 and f.state.get("c2").initiative == -1


def test_surprise_action_only_for_ambushers():
    """An unseen ambusher may get one surprise action before initiative: a surprise round for ambushers only."""
    f = three()
    before = list(f.entries)
    with pytest.raises(Refused, match="only an unseen ambusher gets a surprise action"):
        f.do(StartFight(surprise=("c2",)))
    assert f.entries == before
    script(f, F(0), F(-2), F(0))  # Alice 2, Bob 0, Cy -1
    f.do(AmbushInitiative(ambushers=("c2",)))
    with pytest.raises(Refused, match="Alice is not one"):
        f.do(StartFight(surprise=("c1",)))
    f.do(StartFight(surprise=("c2",)))
    assert f.state.round == 0 and f.state.current == "c2"
    assert not data(f, "c1").acted and not data(f, "c3").acted  # victims still flat-footed
    f.do(NextTurn())
    assert f.state.round == 1 and f.state.current == "c1"


def test_the_ambushers_declared_are_whom_the_start_form_marks_for_surprise():
    """Ruling: the start form marks the ambushers declared (``System.surprise``); none before an ambush."""
    from systems.zludge import system

    f = three()
    assert system.surprise(f.state) == ()
    script(f, F(0), F(-2), F(0))
    f.do(AmbushInitiative(ambushers=("c2", "c3")))
    assert system.surprise(f.state) == ("c2", "c3")


def test_flat_footed_until_first_turn():
    """Before its first action a combatant is flat-footed; its turn is its action."""
    f = three()
    script(f, F(0), F(2), F(-1))
    f.do(RollInitiative())
    f.do(StartFight())
    assert [data(f, i).acted for i in ("c1", "c2", "c3")] == [False, True, False]
    assert "flat-footed" in f.system.status(f.state, f.state.get("c3"))
    f.do(NextTurn())
    assert data(f, "c1").acted


def test_unconscious_do_not_roll_initiative():
    from systems.zludge.commands import MarkWound

    f = three()
    f.do(MarkWound(target="c3", level=4))
    script(f, F(0), F(2))
    f.do(RollInitiative())
    assert f.state.get("c3").initiative is None
    assert f.state.order == ("c2", "c1", "c3")


def test_ties_still_tied_after_20_rerolls_act_simultaneously():
    """Ruling (module): after 20 rerolls still tied, the tied combatants act simultaneously."""
    f = new_fight()
    add(f, "Alice", skills="Reflexes 1")
    add(f, "Bob", kind="npc", skills="Reflexes 1")
    for _ in range(21):
        script(f, F(0), F(0))
    ev = f.do(RollInitiative())
    assert len([e for e in ev if isinstance(e, TieRerolled)]) == 20
    assert f.roller.exhausted and f.state.ties == (("c1", "c2"),)


def _ambush_scene():
    """Amb (Stealth +1, pistol) lies in wait for V1 (Reflexes +1, Alertness +1: ambushed +1)."""
    f = new_fight()
    add(f, "Amb", kind="npc", skills="Stealth 2, Ranged 2", weapon="pistol")
    add(f, "V1", skills="Reflexes 2, Alertness 2")
    return f


def test_the_surprise_action_before_the_ambush_rolls_its_wound_weighs_on_the_victims_roll():
    """l.102 "an ambusher may get an entire surprise action before Reflexes are rolled". Repro
    /tmp/a11/rules2/z17.py: the surprise shot could only come after the ambush rolls, and its Very Hurt -2 never
    counted on V1's roll. Ruling in rules/initiative.py."""
    f = _ambush_scene()
    (ev,) = f.do(AmbushInitiative(ambushers=("c1",), after_surprise=True))
    assert isinstance(ev, AmbushDeclared) and ev.waits and "when round 1 begins" in ev.describe(f.state)
    assert all(c.initiative is None for c in f.state.combatants)
    with pytest.raises(Refused, match="waits for the surprise action"):
        f.do(RollInitiative())  # (the start form offers no "roll initiative first" then)
    with pytest.raises(Refused, match="waits for the surprise action"):
        f.do(StartFight())  # a surprise round is needed
    f.do(StartFight(surprise=("c1",)))
    assert f.state.round == 0 and f.state.current == "c1"
    with pytest.raises(Refused, match="rolled as round 1 begins"):
        f.do(AmbushInitiative(ambushers=("c1",)))
    from systems.zludge.commands import Attack

    script(f, F(0))  # Ranged +1 vs flat-footed -1: 2-level wound, Very Hurt -2
    f.do(Attack(actor="c1", target="c2"))
    script(f, F(1), F(0))  # in the order's turn: the rolls come as round 1 begins
    events = f.do(NextTurn())
    head = next(e for e in events if isinstance(e, AmbushDeclared))
    assert head.after_surprise and "rolled after the surprise action" in head.describe(f.state)
    sets = {e.id: e for e in events if isinstance(e, InitiativeSet)}
    assert sets["c2"].value == 1 + 1 - 2 and "Very Hurt -2" in sets["c2"].note  # the surprise shot's wound
    assert sets["c1"].value == 0 + 1 and "ambusher: Stealth +1" in sets["c1"].note
    assert f.state.round == 1 and f.state.order == ("c1", "c2") and f.state.current == "c1"
    assert not f.state.reroll_next_round
    f.do(NextTurn())
    f.do(NextTurn())
    assert f.state.round == 2 and f.state.current == "c1"  # the order is kept: no roll again


def test_the_surprise_action_before_the_ambush_rolls_replays_and_undoes(tmp_path):
    import saves
    from systems.zludge.commands import Attack
    from tracker.dice import ScriptedRoller

    f = saves.new_fight("zludge", tmp_path / "a.jsonl", seed=1, roller=ScriptedRoller())
    from tracker.commands import AddCombatant

    f.do(AddCombatant(name="Amb", kind="npc", sheet={"skills": "Stealth 2, Ranged 2", "weapon": "pistol"}))
    f.do(AddCombatant(name="V1", kind="pc", sheet={"skills": "Reflexes 2, Alertness 2"}))
    f.do(AmbushInitiative(ambushers=("c1",), after_surprise=True))
    f.do(StartFight(surprise=("c1",)))
    script(f, F(0), F(1), F(0))
    f.do(Attack(actor="c1", target="c2"))
    f.do(NextTurn())
    assert saves.load(tmp_path / "a.jsonl").fight().state == f.state
    f.undo()
    assert f.state.round == 0 and f.state.reroll_next_round and f.state.get("c2").initiative is None


def test_the_ambush_rolled_at_once_still_comes_before_the_surprise_round():
    """The order the tracker had, kept for a GM who rolls first: the rolls, then the surprise round."""
    f = _ambush_scene()
    script(f, F(0), F(1))
    ev = f.do(AmbushInitiative(ambushers=("c1",)))
    assert not ev[0].waits and any(isinstance(e, InitiativeSet) for e in ev)
    f.do(StartFight(surprise=("c1",)))
    events = f.do(NextTurn())  # round 1: no roll
    assert not any(isinstance(e, InitiativeSet) for e in events) and f.state.order == ("c2", "c1")
