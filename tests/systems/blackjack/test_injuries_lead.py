"""Blackjack scenarios: injury-slot escalation, shots and reloading, lead-working and powderburn."""

from __future__ import annotations

import pytest

from systems.blackjack import system
from systems.blackjack.commands import Attack, CastWorking, IngestLead, Injure, MakeSave, Reload, ResolveSixes
from systems.blackjack.events import AttackMade, InjuryMarked, SaveRolled, WorkingCast, WorkingTookEffect
from tests.systems.blackjack.helpers import data, new_fight, npc, of_type, pc, turn_of, weapon
from tracker.commands import Adjust, NextTurn, RollInitiative, StartFight
from tracker.errors import Refused
from tracker.events import NoteAdded, PromptRaised, PromptResolved

FULL = "lesser a, lesser b, moderate c, moderate d, severe e"


# -- escalation ----------------------------------------------------------------


def test_almost_full_track_escalates_to_fatal_in_one_hit() -> None:
    """Rule: a full level pushes the injury up, repeatedly, to Fatal = dead; the log shows each step."""
    f = new_fight(10)
    d = pc(f, acc=14)
    o = npc(f, "Outlaw", "outlaw", injuries="lesser a, lesser b, moderate c, moderate d, severe e")
    before = f.state
    ev = f.do(Attack(actor=d, targets=(o,), level="lesser"))
    inj = of_type(ev, InjuryMarked)[0]
    assert inj.steps == ("lesser", "slots full", "moderate", "slots full", "severe", "slots full", "fatal")
    assert inj.fatal and data(f, o).dead
    assert inj.describe(before) == (
        "Outlaw injury (gunshot): lesser → slots full → moderate → slots full → severe → slots full → fatal — DEAD"
    )
    assert not system.takes_turns(f.state, f.state.get(o))


def test_lesser_on_full_lesser_row_lands_as_moderate() -> None:
    """Rule (book): a lesser injury with two lessers marked fills a moderate slot."""
    f = new_fight()
    d = pc(f, injuries="lesser a, lesser b")
    ev = f.do(Injure(target=d, level="lesser", name="dehydrated"))
    assert ev[0].steps == ("lesser", "slots full", "moderate")
    assert data(f, d).injuries == (("a", "b"), ("dehydrated",), ())


def test_severe_on_full_severe_is_fatal() -> None:
    """Rule (book): a severe wound with the severe slot full is a fatal wound."""
    f = new_fight()
    d = pc(f, injuries="severe impaled")
    ev = f.do(Injure(target=d, level="severe"))
    assert ev[0].fatal and data(f, d).dead


def test_resisted_lesser_is_ignored_and_moderate_drops() -> None:
    """Rule: resistance lowers one level, a lesser injury is ignored (the Skeleton resists piercing, slashing)."""
    f = new_fight(10, 10)
    d = pc(f, acc=14, body=14, weapons="Revolver, Machete")
    s = npc(f, "Skeleton", "skeleton")
    ev = f.do(Attack(actor=d, targets=(s,), weapon="Machete"))
    inj = of_type(ev, InjuryMarked)[0]
    assert inj.steps == ("lesser", "resists slashing", "ignored") and inj.index == -1
    assert data(f, s).injuries == ((), (), ())
    ev = f.do(Attack(actor=d, targets=(s,), weapon="Revolver"))
    assert of_type(ev, InjuryMarked)[0].steps == ("moderate", "resists piercing", "lesser")
    assert data(f, s).injuries[0] == ("gunshot",)


def test_weakness_raises_one_level() -> None:
    """Rule: weakness raises one level (the Skeleton is weak to bludgeoning)."""
    f = new_fight(10)
    d = pc(f, body=14, weapons="Club")
    s = npc(f, "Skeleton", "skeleton")
    ev = f.do(Attack(actor=d, targets=(s,)))
    assert of_type(ev, InjuryMarked)[0].steps == ("lesser", "weak to bludgeoning", "moderate")


def test_immunity_takes_no_injury() -> None:
    """Rule: the Preacher is immune to snake venom."""
    f = new_fight()
    p = npc(f, "Preacher", "preacher")
    ev = f.do(Injure(target=p, level="moderate", name="snakebite", tags="snake venom"))
    assert ev[0].index == -1 and data(f, p).injuries == ((), (), ())


def test_an_affliction_named_by_its_injury_name_meets_the_immunity() -> None:
    """The Preacher took a moderate "snake venom" typed as the injury's name, tags empty: the name made it an
    affliction (moderate) but only the tags were held against his immunity. The affliction named is its cause."""
    f = new_fight()
    p = npc(f, "Preacher", "preacher")
    ev = f.do(Injure(target=p, name="snake venom"))
    assert ev[0].index == -1 and ev[0].steps[-2:] == ("immune to snake venom", "none")
    assert data(f, p).injuries == ((), (), ())
    s = npc(f, "Skeleton", "skeleton")  # immune to poison and venom
    ev = f.do(Injure(target=s, name="poison"))
    assert ev[0].index == -1 and data(f, s).injuries == ((), (), ())
    ev = f.do(Injure(target=s, name="sword cut"))  # no affliction named: nothing more is read from the name
    assert ev[0].index == 0


def test_fire_dragon_fourth_group_is_grievous() -> None:
    """Ruling: a fourth box group is Grievous, between Severe and Fatal (the Fire Dragon ▢▢|▢▢|▢▢|▢)."""
    f = new_fight()
    dragon = npc(f, "Fire Dragon", "fire_dragon", injuries="severe a, severe b")
    ev = f.do(Injure(target=dragon, level="severe"))
    assert ev[0].steps == ("severe", "slots full", "grievous") and not data(f, dragon).dead
    ev = f.do(Injure(target=dragon, level="grievous"))
    assert ev[0].steps == ("grievous", "slots full", "fatal") and data(f, dragon).dead


def test_grievous_refused_on_a_normal_track() -> None:
    f = new_fight()
    d = pc(f)
    with pytest.raises(Refused, match="no grievous level"):
        f.do(Injure(target=d, level="grievous"))


# -- shots and reloading -----------------------------------------------------------


def test_revolver_fans_several_shots_each_its_own_save_and_target() -> None:
    """Ruling: a revolver fires several shots in one action, each its own save and target (repeats allowed)."""
    f = new_fight(10, 2, 10)
    d = pc(f, acc=14)
    a = npc(f, "Outlaw A", "outlaw")
    b = npc(f, "Outlaw B", "outlaw")
    ev = f.do(Attack(actor=d, targets=(a, b, a)))
    shots = of_type(ev, AttackMade)
    assert [(x.target, x.hit) for x in shots] == [(a, True), (b, False), (a, True)]
    assert weapon(f, d, "Revolver").loaded == 3
    assert data(f, a).injuries[1] == ("gunshot", "gunshot")


def test_a_later_shot_at_a_dead_target_is_held() -> None:
    """Ruling (ours): a volley's later shot at a target already killed is held, no shot spent."""
    f = new_fight(10)
    d = pc(f, acc=14)
    o = npc(f, "Outlaw", "outlaw", morale=12, injuries="moderate c, moderate d, severe e")
    ev = f.do(Attack(actor=d, targets=(o, o)))
    assert data(f, o).dead and len(of_type(ev, AttackMade)) == 1
    assert of_type(ev, NoteAdded) and weapon(f, d, "Revolver").loaded == 5


def test_multi_shot_limits() -> None:
    """Ruling: only a revolver or repeater fires several shots; never more than are loaded."""
    f = new_fight()
    d = pc(f, weapons="Revolver 2, Rifle")
    a = npc(f, "Outlaw A", "outlaw")
    b = npc(f, "Outlaw B", "outlaw")
    n = len(f.entries)
    with pytest.raises(Refused, match="takes one target"):
        f.do(Attack(actor=d, targets=(a, b), weapon="Rifle"))
    with pytest.raises(Refused, match="2 shot"):
        f.do(Attack(actor=d, targets=(a, b, a), weapon="Revolver"))
    assert len(f.entries) == n


def test_empty_gun_refused_and_reload_spends_one_lead() -> None:
    """Rule: each shot spends one; reloading spends 1 lead and an action and fills the gun."""
    f = new_fight()
    d = pc(f, weapons="Revolver 0", lead=1)
    o = npc(f, "Outlaw", "outlaw")
    n = len(f.entries)
    with pytest.raises(Refused, match="empty"):
        f.do(Attack(actor=d, targets=(o,)))
    assert len(f.entries) == n
    f.do(Reload(actor=d))
    assert weapon(f, d, "Revolver").loaded == 6 and data(f, d).lead == 0
    with pytest.raises(Refused, match="already loaded"):
        f.do(Reload(actor=d))
    f.do(Adjust(id=d, field="shots", value="Revolver 1"))
    n = len(f.entries)
    with pytest.raises(Refused, match="no lead left"):
        f.do(Reload(actor=d))
    assert len(f.entries) == n


# -- lead-working -------------------------------------------------------------------


def test_ingest_lead_spends_it_and_too_little_is_refused() -> None:
    """Rule: ingesting N lead is an action; lead stock is checked and spent."""
    f = new_fight()
    m = pc(f, "Ma", lead=3, workings="Hex 1")
    f.do(IngestLead(actor=m, amount=2))
    assert (data(f, m).lead, data(f, m).ingested) == (1, 2)
    n = len(f.entries)
    with pytest.raises(Refused, match="too little to ingest 2"):
        f.do(IngestLead(actor=m, amount=2))
    assert len(f.entries) == n


def test_casting_needs_the_lead_ingested_first() -> None:
    """Rule: a working needs its level of lead ingested (another action) before casting."""
    f = new_fight()
    m = pc(f, "Ma", lead=5, workings="Fireball 3")
    f.do(IngestLead(actor=m, amount=2))
    n = len(f.entries)
    with pytest.raises(Refused, match="needs 3 lead ingested"):
        f.do(CastWorking(actor=m, working="Fireball"))
    with pytest.raises(Refused, match="does not know"):
        f.do(CastWorking(actor=m, working="Naming"))
    assert len(f.entries) == n


def test_powderburn_on_two_sixes_of_3d6() -> None:
    """Rule: roll Nd6, each 6 is powderburn, a lesser injury with full escalation; the GM chooses per die."""
    f = new_fight(6, 2, 6)
    m = pc(f, "Ma", lead=3, workings="Fireball 3", injuries="lesser old scar")
    o = npc(f, "Outlaw", "outlaw")
    f.do(RollInitiative())
    f.do(StartFight())
    f.do(IngestLead(actor=m, amount=3))
    turn_of(f, m)  # ingesting was the turn's action: the working is cast with another, next turn
    ev = f.do(CastWorking(actor=m, working="Fireball"))
    cast = of_type(ev, WorkingCast)[0]
    assert (cast.lead, cast.roll.faces, cast.sixes) == (3, (6, 2, 6), 2)
    prompt = of_type(ev, PromptRaised)[0].prompt
    assert (prompt.command, prompt.params["choices"]) == ("burn", "powderburn, powderburn")
    assert data(f, m).ingested == 0 and data(f, m).pending_sixes == 2
    n = len(f.entries)
    with pytest.raises(Refused, match="resolve first"):
        f.do(NextTurn())
    with pytest.raises(Refused, match="one choice per six"):
        f.do(ResolveSixes(actor=m, choices="powderburn"))
    assert len(f.entries) == n
    ev = f.do(ResolveSixes(actor=m, choices=prompt.params["choices"]))
    steps = [e.steps for e in of_type(ev, InjuryMarked)]
    assert steps == [("lesser",), ("lesser", "slots full", "moderate")]
    assert data(f, m).injuries == (("old scar", "powderburn"), ("powderburn",), ())
    assert of_type(ev, PromptResolved) and not f.state.prompts
    f.do(NextTurn())
    assert f.state.current == o


def test_catastrophe_instead_of_powderburn_for_one_six() -> None:
    """Rule: the caster may take a catastrophe instead for a 6; the GM may inflict other injuries."""
    f = new_fight(6, 6)
    m = pc(f, "Ma", lead=2, workings="Blast 2")
    f.do(IngestLead(actor=m, amount=2))
    f.do(CastWorking(actor=m, working="Blast"))
    n = len(f.entries)
    with pytest.raises(Refused, match="only a catastrophe"):
        f.do(ResolveSixes(actor=m, choices="p, p", injuries="moderate burned hands"))
    assert len(f.entries) == n
    ev = f.do(
        ResolveSixes(
            actor=m, choices="powderburn, catastrophe", injuries="moderate burned hands", note="the sky rains lead"
        )
    )
    assert "catastrophe" in ev[0].describe(f.state) and "the sky rains lead" in ev[0].describe(f.state)
    assert data(f, m).injuries == (("powderburn",), ("burned hands",), ())


def test_unwilling_target_saves_ctrl_at_plus_n_and_hex_adds_2_dv() -> None:
    """Ruling: an unwilling target's save has DV = N + its injuries (the caster's Threat is not added); a Hex is +2 DV."""
    f = new_fight(3, 2, 2, 9)
    w = npc(f, "Hexpaper Witch", "hexpaper_witch")
    d = pc(f, ctrl=12, injuries="lesser bruised")
    f.do(IngestLead(actor=w, amount=2))
    ev = f.do(CastWorking(actor=w, working="Hex", target=d))
    s = of_type(ev, SaveRolled)[0].save
    assert (s.who, s.stat, s.dv) == (d, "CTRL", 3) and not s.success
    assert of_type(ev, WorkingTookEffect)[0].took
    hex_ = f.state.get(d).condition("Hexed")
    assert hex_ is not None and hex_.value == 2
    s = of_type(f.do(MakeSave(actor=d, stat="BODY")), SaveRolled)[0].save
    assert s.dv == 3 and any(p.label == "Hexed" for p in s.parts)


def test_npc_target_resists_with_its_own_save() -> None:
    """Ruling: an NPC target resists with its ≤ Threat + 8 save at DV = N."""
    f = new_fight(1, 5)
    m = pc(f, "Ma", lead=3, workings="Hex 1")
    o = npc(f, "Outlaw", "outlaw")
    f.do(IngestLead(actor=m, amount=1))
    ev = f.do(CastWorking(actor=m, working="Hex", target=o))
    s = of_type(ev, SaveRolled)[0].save
    assert (s.limit, s.dv, s.success) == (11, 1, True)
    assert not of_type(ev, WorkingTookEffect)[0].took and f.state.get(o).condition("Hexed") is None


def test_second_casting_in_a_day_costs_a_lesser_injury() -> None:
    """Rule: a working is safe once per day; casting it again that day costs a lesser injury (powderburn)."""
    f = new_fight(1, 2)
    m = pc(f, "Ma", lead=3, workings="Hag eye 1")
    f.do(IngestLead(actor=m, amount=1))
    ev = f.do(CastWorking(actor=m, working="Hag eye"))
    assert not of_type(ev, InjuryMarked) and data(f, m).workings[0].cast_today
    f.do(IngestLead(actor=m, amount=1))
    ev = f.do(CastWorking(actor=m, working="Hag eye"))
    assert of_type(ev, WorkingCast)[0].again
    assert of_type(ev, InjuryMarked)[0].name.startswith("powderburn") and data(f, m).injuries[0]


def test_naming_inflicts_severe_agony_and_healing_hands_restores_a_slot() -> None:
    """Rule: the witch's Naming is a severe injury (agony), bound to the paper; the Preacher's Healing hands
    restores 1 injury slot: the worst one it may clear, never the agony ("Can only be removed if the paper is
    destroyed")."""
    f = new_fight(1, 1, 1, 1, 2)
    w = npc(f, "Hexpaper Witch", "hexpaper_witch")
    p = npc(f, "Preacher", "preacher")
    d = pc(f, ctrl=12, injuries="moderate cut")
    f.do(IngestLead(actor=w, amount=3))
    f.do(CastWorking(actor=w, working="Naming", target=d))
    assert data(f, d).injuries[2] == ("agony",)
    f.do(IngestLead(actor=p, amount=1))
    ev = f.do(CastWorking(actor=p, working="Healing hands", target=d, willing=True))
    assert not of_type(ev, SaveRolled)
    assert data(f, d).injuries == ((), (), ("agony",))


def test_undo_a_casting_restores_lead_and_prompts() -> None:
    """Undo: the casting, its sixes prompt and its lead use are undone exactly."""
    f = new_fight(6, 1)
    m = pc(f, "Ma", lead=2, workings="Hex 1")
    o = npc(f, "Outlaw", "outlaw")
    f.do(IngestLead(actor=m, amount=1))
    before = f.state
    f.do(CastWorking(actor=m, working="Hex", target=o))
    assert f.state.prompts
    f.undo()
    assert f.state == before


def test_the_cast_form_offers_the_workings_the_caster_knows() -> None:
    """ "Cast a working" was an empty text field: no hint, no list, and anything but the exact name refused as
    unknown. It is a picker of the caster's own workings."""
    from systems.blackjack.commands import SPECS

    f = new_fight()
    jesse = pc(f, "Jesse", workings="Hex 1, Naming 2")
    plain = pc(f, "Plain")
    spec = next(s for s in SPECS if s.name == "cast")
    (working,) = [p for p in spec.params_for(f.state, jesse) if p.name == "working"]
    assert working.choices == ("Hex", "Naming")
    (every,) = [p for p in spec.params_for(f.state, plain) if p.name == "working"]
    assert "Hex" in every.choices and len(every.choices) > 2  # knows none: every working, refused when cast
