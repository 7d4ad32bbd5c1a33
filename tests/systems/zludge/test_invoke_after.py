"""Aspects and plot points spent after the roll (rules invoke and plot_point: "+1 or a reroll, before or after the roll")."""

from __future__ import annotations

import pytest

import saves
from systems.zludge import system
from systems.zludge.commands import Attack, FirstAid, InvokeAfter, MarkWound, RollSkill
from systems.zludge.events import HarmTakenBack, RollRevised, WoundMarked, WoundsTreated
from tests.systems.zludge.helpers import F, data, duel, end, script, treated
from tracker.commands import AddCombatant, NextTurn, SetInitiative, StartFight
from tracker.dice import ScriptedRoller
from tracker.errors import Refused
from tracker.events import PromptRaised, PromptResolved

SWORD = {"skills": "Melee 2, Acrobatics 1, Medical 1", "weapon": "sword", "aspects": "Star Ranger", "plot_points": 2}
BOB = {"skills": "Acrobatics 1, Melee 1", "weapon": "knife", "aspects": "Brawler", "plot_points": 1}


def boxes(f, cid="c2"):
    return [(b.level, b.wound) for b in data(f, cid).wounds]


def test_attacker_invokes_an_aspect_after_a_miss_and_clips():
    """Ruling: an aspect invoked after seeing the roll: +1 on it, the outcome is read again (miss -> clipped)."""
    f = duel(SWORD, BOB)
    script(f, F(-1), F(1))  # 0 vs +1: miss
    assert f.do(Attack(actor="c1", target="c2"))[0].outcome == "miss"
    ev = f.do(InvokeAfter(actor="c1", aspect="star ranger"))
    rr = ev[0]
    assert isinstance(rr, RollRevised) and (rr.side, rr.total_before, rr.total, rr.outcome) == (
        "attack",
        0,
        1,
        "clipped",
    )
    assert isinstance(ev[1], WoundMarked) and (ev[1].wound, ev[1].box) == (0, 0)
    assert boxes(f) == [(0, 0)] and data(f, "c2").clipped
    assert data(f, "c1").aspects_used == ("Star Ranger",)
    assert rr.describe(f.steps[-1].before) == (
        "Alice invokes 'Star Ranger' for +1 after the roll: attack +0 Fair → +1 Decent against +1 Decent: "
        "now clips Bob: 0-level damage"
    )


def test_defender_spends_a_plot_point_after_a_hit_and_the_wound_becomes_a_clip():
    """Ruling: the defender's plot point after the roll turns a hit into a tie; the Very Hurt box gives way to a Scratch."""
    f = duel(SWORD, BOB)
    script(f, F(1), F(1))  # +2 vs +1: hit, sword 2 - armor 0
    f.do(Attack(actor="c1", target="c2"))
    assert boxes(f) == [(2, 2)]
    before = f.state
    entries = list(f.entries)
    ev = f.do(InvokeAfter(actor="c2", plot_points=1))
    assert (ev[0].side, ev[0].total, ev[0].outcome, ev[0].damage_level) == ("defense", 2, "clipped", 0)
    assert boxes(f) == [(0, 0)] and data(f, "c2").plot_points == 0 and data(f, "c2").clipped
    assert "Bob spends a plot point (+1) after the roll: defense +1 Decent → +2 Good against +2 Good" in ev[0].describe(
        before
    )
    f.undo()
    assert f.state == before and f.entries[: len(entries)] == entries


def test_attacker_reroll_after_the_roll_logs_both_and_finds_a_critical():
    f = duel(SWORD, BOB)
    script(f, F(-2), F(0), F(3))  # -1 vs 0: miss; reroll 3: +4 vs 0: critical
    f.do(Attack(actor="c1", target="c2"))
    ev = f.do(InvokeAfter(actor="c1", aspect="Star Ranger", aspect_use="reroll"))
    assert (ev[0].total, ev[0].outcome, ev[0].damage_level) == (4, "critical", 3)
    assert "Alice invokes 'Star Ranger' to reroll (4dF [+,+,+,0] = 3) after the roll: attack -1 Poor → +4 Superb" in ev[
        0
    ].describe(f.steps[-1].before)
    assert isinstance(ev[1], WoundMarked) and ev[1].wound == 3
    # the attack now reads as rerolled, both rolls kept
    last = f.state.data.last_roll.event
    assert last.attack_rerolled.total == -2 and last.attack.total == 3 and last.outcome == "critical"


def test_both_sides_may_answer_each_other():
    """The attacker's plot point, then the defender's aspect and plot point: each revision reads the roll again."""
    f = duel({**SWORD, "weapon": "chainsaw"}, BOB)
    script(f, F(0), F(0))  # +1 vs +0: hit, 3-level: Incapacitated
    f.do(Attack(actor="c1", target="c2"))
    assert boxes(f) == [(3, 3)]
    ev = f.do(InvokeAfter(actor="c1", plot_points=1))  # +2 vs 0
    assert ev[0].outcome == "hit" and boxes(f) == [(3, 3)] and data(f, "c1").plot_points == 1
    ev = f.do(InvokeAfter(actor="c2", aspect="Brawler"))  # +2 vs +1
    assert ev[0].outcome == "hit" and ev[0].against == 2
    ev = f.do(InvokeAfter(actor="c2", plot_points=1))  # +2 vs +2: clipped
    assert ev[0].outcome == "clipped" and boxes(f) == [(0, 0)]
    assert data(f, "c2").aspects_used == ("Brawler",) and data(f, "c2").plot_points == 0
    assert data(f, "c1").plot_points == 1


def test_a_killing_blow_revised_by_the_defender_leaves_him_comatose():
    """A critical grenade (5-level: no box, death) brought down to a plain hit (4-level: Comatose) by an aspect."""
    f = duel({**SWORD, "weapon": "grenade", "skills": "Ranged 3"}, BOB)
    script(f, F(2), F(0))  # +4 vs +0: critical, 4 + 1 = 5-level: dead
    f.do(Attack(actor="c1", target="c2"))
    assert data(f, "c2").dead
    before = f.state
    ev = f.do(InvokeAfter(actor="c2", aspect="Brawler"))  # +4 vs +1: hit by 3, 4-level
    assert (ev[0].outcome, ev[0].damage_level) == ("hit", 4)
    assert [type(e) for e in ev] == [RollRevised, HarmTakenBack, WoundMarked]
    assert (ev[1].dead, ev[1].wounds) == (False, ()) and ev[0].follow == 2 and ev[0].takes_back
    assert ev[1].describe(before) == "Bob: the death from the earlier reading taken back"
    assert ev[2].box == 4 and not data(f, "c2").dead and data(f, "c2").unconscious
    assert "now hits Bob by 3: 4-level damage" in ev[0].describe(f.steps[-1].before)


def test_refusals_log_nothing():
    """Only the roll just made; one plot point and one aspect per roll; only the ones who rolled; something to spend."""
    f = duel(SWORD, BOB)
    entries = list(f.entries)
    with pytest.raises(Refused, match="no such roll now"):
        f.do(InvokeAfter(actor="c1", plot_points=1))
    script(f, F(0), F(0))
    f.do(Attack(actor="c1", target="c2", plot_points=1, aspect="Star Ranger"))
    entries = list(f.entries)
    for cmd, why in (
        (InvokeAfter(actor="c1", plot_points=1), "only one plot point can be spent per check"),
        (InvokeAfter(actor="c1", plot_points=2), "only one plot point can be spent per check"),
        (InvokeAfter(actor="c1", aspect="Star Ranger"), "already checked off today"),
        (InvokeAfter(actor="c1"), "name an aspect to invoke or spend a plot point"),
        (InvokeAfter(actor="c2", aspect="Star Ranger"), "no aspect 'Star Ranger'"),
    ):
        with pytest.raises(Refused, match=why):
            f.do(cmd)
        assert f.entries == entries
    f.do(NextTurn())
    entries = list(f.entries)
    with pytest.raises(Refused, match="no such roll now"):
        f.do(InvokeAfter(actor="c2", plot_points=1))
    assert f.entries == entries


def test_a_bystander_and_a_flat_footed_defender_cannot_spend_on_the_roll():
    f = duel(SWORD, BOB)
    f.do(AddCombatant(name="Cy", kind="pc", sheet={"plot_points": 1}))
    script(f, F(0), F(0))
    f.do(Attack(actor="c1", target="c3"))  # Cy has not acted: flat-footed, fixed defense
    entries = list(f.entries)
    with pytest.raises(Refused, match="Cy made no defense roll"):
        f.do(InvokeAfter(actor="c3", plot_points=1))
    with pytest.raises(Refused, match="Bob made no roll in the last attack"):
        f.do(InvokeAfter(actor="c2", plot_points=1))
    assert f.entries == entries


def test_first_aid_saved_by_a_plot_point_after_the_roll():
    f = end(duel(SWORD, BOB))  # first aid is given after the fight
    f.do(MarkWound(target="c2", level=2))
    script(f, F(-1))  # Medical +0: -1 failure
    ev = f.do(FirstAid(actor="c1", target="c2"))
    assert len(ev) == 1 and not ev[0].success
    ev = f.do(InvokeAfter(actor="c1", plot_points=1))
    assert ev[0].total == 0 and isinstance(ev[1], WoundsTreated) and ev[0].follow == 1
    assert data(f, "c2").wound_penalty == -1
    assert "after the roll: skill -1 Poor → +0 Fair: success" in ev[0].describe(f.steps[-1].before)


def test_a_failed_physical_check_made_good_closes_the_reopen_prompt():
    f = duel({**SWORD, "skills": "Medical 3, Athletics 1"}, BOB, treated("c1", 1))  # first aid before the fight
    f.do(NextTurn())
    f.do(NextTurn())
    script(f, F(-1))  # Athletics +0, treated Hurt: no penalty: -1 failure
    ev = f.do(RollSkill(actor="c1", skill="Athletics"))
    assert isinstance(ev[1], PromptRaised) and f.state.prompts
    ev = f.do(InvokeAfter(actor="c1", aspect="Star Ranger"))
    assert ev[0].total == 0 and isinstance(ev[1], PromptResolved) and f.state.prompts == ()
    f.do(NextTurn())  # nothing left open


def test_a_fight_with_revisions_replays_to_the_same_state(tmp_path):
    path = tmp_path / "f.jsonl"
    f = saves.new_fight(system, path, seed=1, roller=ScriptedRoller())
    f.do(AddCombatant(name="Alice", kind="pc", sheet=SWORD))
    f.do(AddCombatant(name="Bob", kind="npc", sheet=BOB))
    f.do(SetInitiative(values={"c1": 1, "c2": 2}))
    f.do(StartFight())
    f.do(NextTurn())
    f.roller.add(*F(1), *F(1), *F(2))
    f.do(Attack(actor="c1", target="c2"))
    f.do(InvokeAfter(actor="c2", aspect="Brawler", aspect_use="reroll"))
    f.do(InvokeAfter(actor="c1", plot_points=1))
    f.do(NextTurn())
    assert saves.load(path).fight().state == f.state


def test_invoke_form_and_help():
    spec = next(s for s in system.commands() if s.name == "invoke")
    assert spec.key == "i" and spec.actor == "actor"
    cmd = spec.make({"actor": "c1", "aspect": "Star Ranger", "aspect_use": "reroll"})
    assert cmd == InvokeAfter(actor="c1", aspect="Star Ranger", aspect_use="reroll")
    assert spec.make({"actor": "c1", "plot_points": "1"}) == InvokeAfter(actor="c1", plot_points=1)
    assert "invoke (i" in system.help()


def test_the_revision_logs_what_it_takes_back_and_evolve_only_applies_it():
    """#14: decide logs the harm taken back (HarmTakenBack); the RollRevised event alone takes nothing back."""
    f = duel(SWORD, BOB)
    script(f, F(1), F(1))  # +2 vs +1: hit, Very Hurt
    f.do(Attack(actor="c1", target="c2"))
    before = f.state
    ev = f.do(InvokeAfter(actor="c2", plot_points=1))  # now a clip
    assert [type(e) for e in ev] == [RollRevised, HarmTakenBack, WoundMarked]
    assert ev[1].describe(before) == "Bob: a Very Hurt box from the earlier reading taken back"
    only = system.evolve(before, ev[0])
    assert [(b.level, b.wound) for b in only.get("c2").data.wounds] == [(2, 2)]  # the wound is still there
    assert only.get("c2").data.plot_points == 0  # the plot point is spent
    # a revision as files before the second round wrote it (no HarmTakenBack) takes the harm back itself
    old = system.evolve(before, RollRevised(**{**_fields(ev[0]), "takes_back": False, "follow": 1}))
    assert old.get("c2").data.wounds == () and old.get("c2").data.plot_points == 0


def _fields(ev):
    import attrs

    return {a.name: getattr(ev, a.name) for a in attrs.fields(type(ev))}


def test_a_reroll_that_fails_first_aid_takes_the_treatment_back():
    """A reroll can make things worse: the first aid that succeeded fails after all; the treatment is undone."""
    f = end(duel({**SWORD, "skills": "Medical 1"}, BOB))  # first aid is given after the fight
    f.do(MarkWound(target="c2", level=1))
    script(f, F(1), F(-2))  # Medical +0: +1 success; the reroll: -2 failure
    f.do(FirstAid(actor="c1", target="c2"))
    assert data(f, "c2").wound_penalty == 0
    before = f.state
    ev = f.do(InvokeAfter(actor="c1", aspect="Star Ranger", aspect_use="reroll"))
    assert [type(e) for e in ev] == [RollRevised, HarmTakenBack]
    assert ev[1].describe(before) == "Bob: the first aid from the earlier reading taken back"
    assert data(f, "c2").wound_penalty == -1 and not any(b.treated for b in data(f, "c2").wounds)


def _fighters(f):  # type: ignore[no-untyped-def]
    from tracker.replay import Timeline
    from tracker.summary import summarize

    return {x.id: x for x in summarize(Timeline(system, list(f.entries))).fighters}


def test_the_summary_counts_an_attack_as_the_roll_revised_after_it_left_it():
    """A miss turned into a clip by an aspect after the roll: the summary counted the miss, and the Scratch box
    marked by the revision (a GM action of its own) as harm by no one.  It counts a hit, by the attacker."""
    f = duel(SWORD, BOB)
    script(f, F(-1), F(1))  # 0 vs +1: miss
    f.do(Attack(actor="c1", target="c2"))
    f.do(InvokeAfter(actor="c1", aspect="star ranger"))  # +1: clips, a Scratch box
    alice, bob = _fighters(f)["c1"], _fighters(f)["c2"]
    assert (alice.hits, alice.misses, alice.harm_dealt) == (1, 0, 1)
    assert bob.harm_taken == 1


def test_the_summary_takes_back_a_hit_a_defense_revised_after_it_turned_into_a_miss():
    """The defender's plot point after a hit makes the defense beat the attack: the hit and its wound are taken
    back in the summary (the harm as the HarmTakenBack event undoes it)."""
    f = duel(SWORD, BOB)
    script(f, F(0), F(0))  # Melee +2 vs Acrobatics +1: hit
    f.do(Attack(actor="c1", target="c2"))
    assert _fighters(f)["c1"].hits == 1 and _fighters(f)["c2"].harm_taken > 0
    ev = f.do(InvokeAfter(actor="c2", aspect="brawler", plot_points=1))  # +1 and +1: +3 beats +2
    assert ev[0].outcome == "miss" and any(isinstance(e, HarmTakenBack) for e in ev)
    alice, bob = _fighters(f)["c1"], _fighters(f)["c2"]
    assert (alice.hits, alice.misses, alice.harm_dealt) == (0, 1, 0)
    assert bob.harm_taken == 0
