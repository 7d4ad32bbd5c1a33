"""Blackjack scenarios: the save, the order, attacks, weapon notes and limits."""

from __future__ import annotations

import pytest

from systems.blackjack import system
from systems.blackjack.commands import Attack, MakeSave, Reload
from systems.blackjack.events import OVER, SUCCESS, UNDER, AttackMade, InjuryMarked, SaveRolled
from tests.systems.blackjack.helpers import add, data, new_fight, npc, of_type, pc, weapon
from tracker.commands import Adjust, MoveInOrder, NextTurn, RollInitiative, StartFight, parse_modifiers
from tracker.errors import Refused
from tracker.events import OrderSet


def save_of(events: list) -> object:
    return of_type(events, SaveRolled)[0].save


# -- the Blackjack save ------------------------------------------------------


def test_save_succeeds_only_between_dv_and_stat() -> None:
    """Rule: success when DV < d20 ≤ stat; at or under the DV fails without a mark."""
    f = new_fight(7, 4, 5)
    d = pc(f, body=10)
    assert save_of(f.do(MakeSave(actor=d, stat="BODY", dv=4))).outcome == SUCCESS
    s = save_of(f.do(MakeSave(actor=d, stat="BODY", dv=4)))
    assert s.outcome == UNDER and not s.mark
    assert save_of(f.do(MakeSave(actor=d, stat="BODY", dv=4))).outcome == SUCCESS
    assert data(f, d).body_marks == 0


def test_rolling_over_marks_and_third_mark_raises_the_stat() -> None:
    """Rule: rolling over marks the stat; three marks clear and raise it by 1."""
    f = new_fight(11, 15)
    d = pc(f, body=10, body_marks=1)
    s = save_of(f.do(MakeSave(actor=d, stat="BODY")))
    assert s.outcome == OVER and s.mark and data(f, d).body_marks == 2
    ev = f.do(MakeSave(actor=d, stat="BODY"))
    assert save_of(ev).raised_to == 11
    assert (data(f, d).body, data(f, d).body_marks) == (11, 0)
    assert "BODY rises to 11" in ev[0].describe(f.state)


def test_stat_max_19_does_not_mark() -> None:
    """Ruling (ours): at 19 a stat cannot rise, so rolling over does not mark it."""
    f = new_fight(20)
    d = pc(f, acc=19, acc_marks=2)
    s = save_of(f.do(MakeSave(actor=d, stat="ACC")))
    assert s.outcome == OVER and not s.mark
    assert (data(f, d).acc, data(f, d).acc_marks) == (19, 2)


def test_dv_never_below_zero_and_each_injury_adds_one() -> None:
    """Rule: DV can never be less than 0; every injury adds +1 DV."""
    f = new_fight(1, 2, 3)
    d = pc(f, ctrl=12, injuries="lesser bruised, moderate cut")
    s = save_of(f.do(MakeSave(actor=d, stat="CTRL", modifiers=parse_modifiers("bribe -4"))))
    assert s.dv == 0 and s.outcome == SUCCESS
    s = save_of(f.do(MakeSave(actor=d, stat="CTRL")))
    assert s.dv == 2 and s.outcome == UNDER
    assert save_of(f.do(MakeSave(actor=d, stat="CTRL"))).outcome == SUCCESS


def test_npc_saves_under_threat_plus_8_or_half_when_deficient() -> None:
    """Rule: an NPC saves ≤ Threat + 8, ⌈Threat ÷ 2⌉ + 8 where deficient; NPCs never mark."""
    f = new_fight(11, 12, 11)
    o = npc(f, "Outlaw", "outlaw")
    s = save_of(f.do(MakeSave(actor=o)))
    assert (s.limit, s.outcome) == (11, SUCCESS)
    s = save_of(f.do(MakeSave(actor=o)))
    assert s.outcome == OVER and not s.mark
    s = save_of(f.do(MakeSave(actor=o, deficient=True)))
    assert (s.limit, s.outcome) == (10, OVER)


def test_pc_saves_against_an_npc_effect_at_its_threat() -> None:
    """Rule: when a PC saves against an NPC's effect the DV is that NPC's Threat; a failure can injure."""
    f = new_fight(4)
    d = pc(f, body=12)
    b = npc(f, "Bear", "bear")
    ev = f.do(MakeSave(actor=d, stat="BODY", against=b, fail_level="lesser", injury="mauled"))
    assert save_of(ev).dv == 4 and save_of(ev).outcome == UNDER
    assert data(f, d).injuries[0] == ("mauled",)


# -- order ---------------------------------------------------------------------


def test_no_initiative_pcs_then_npcs_and_reorderable() -> None:
    """Ruling: the GM sets the order; default PCs as added, then NPCs; reorder any time; rounds counted."""
    f = new_fight()
    o = npc(f, "Outlaw", "outlaw")
    d = pc(f, "Dusty")
    m = pc(f, "Ma")
    ev = f.do(RollInitiative())
    assert isinstance(ev[0], OrderSet) and ev[0].order == (d, m, o)
    f.do(MoveInOrder(id=o, position=0))
    assert f.state.order == (o, d, m)
    f.do(StartFight())
    assert (f.state.round, f.state.current) == (1, o)
    for _ in range(3):
        f.do(NextTurn())
    assert (f.state.round, f.state.current) == (2, o)


# -- attacks -------------------------------------------------------------------


def test_pc_shoots_at_dv_threat_plus_own_injuries_firearm_moderate() -> None:
    """Ruling: a PC's ACC save, DV = target's Threat + its own injuries; a firearm hit is moderate."""
    f = new_fight(4, 5)
    d = pc(f, acc=14, injuries="lesser bruised")
    o = npc(f, "Outlaw", "outlaw")
    ev = f.do(Attack(actor=d, targets=(o,), weapon="Revolver"))
    assert save_of_attack(ev).dv == 4 and save_of_attack(ev).outcome == UNDER and not ev[0].hit
    ev = f.do(Attack(actor=d, targets=(o,), weapon="Revolver"))
    assert ev[0].hit and data(f, o).injuries[1] == ("gunshot",)
    assert weapon(f, d, "Revolver").loaded == 4


def save_of_attack(events: list) -> object:
    return of_type(events, AttackMade)[0].save


@pytest.mark.parametrize(
    ("gun", "rng", "dv"),
    [
        ("Pistol", "nearby", 2),
        ("Pistol", "far", 3),
        ("Rifle", "far", 1),
        ("Rifle", "nearby", 3),
        ("Scoped rifle", "far", 0),
        ("Shotgun", "nearby", 5),
    ],
)
def test_weapon_and_range_notes(gun: str, rng: str, dv: int) -> None:
    """Ruling: pistol -1 DV nearby; rifle -2 and scoped rifle -4 far; shotgun +2 (DV never below 0)."""
    f = new_fight(10)
    d = pc(f, acc=14, weapons=gun)
    o = npc(f, "Outlaw", "outlaw")
    ev = f.do(Attack(actor=d, targets=(o,), range=rng))
    assert save_of_attack(ev).dv == dv


def test_shotgun_blast_on_several_targets_is_plus_4_and_one_shell() -> None:
    """Ruling: one shotgun blast takes several targets at +4 DV, each its own save, one shot spent."""
    f = new_fight(8, 6)
    d = pc(f, acc=14, weapons="Shotgun")
    a = npc(f, "Outlaw A", "outlaw")
    b = npc(f, "Outlaw B", "outlaw")
    ev = f.do(Attack(actor=d, targets=(a, b)))
    attacks = of_type(ev, AttackMade)
    assert [x.save.dv for x in attacks] == [7, 7]
    assert [x.hit for x in attacks] == [True, False]
    assert weapon(f, d, "Shotgun").loaded == 1
    with pytest.raises(Refused, match="each target once"):
        f.do(Attack(actor=d, targets=(a, a)))


def test_ironscales_adds_dv_against_mundane_bullets_only() -> None:
    """Ruling: the target's own DV modifiers (Ironscales +1 DV to mundane bullets) add to the attacker's DV."""
    f = new_fight(11, 11)
    d = pc(f, acc=16, body=16, weapons="Revolver, Hunting knife")
    dragon = npc(f, "Fire Dragon", "fire_dragon")
    ev = f.do(Attack(actor=d, targets=(dragon,), weapon="Revolver"))
    s = save_of_attack(ev)
    assert s.dv == 11 and any(p.label == "Ironscales" for p in s.parts) and not ev[0].hit
    ev = f.do(Attack(actor=d, targets=(dragon,), weapon="Hunting knife", range="close"))
    assert save_of_attack(ev).dv == 10 and ev[0].hit
    assert data(f, dragon).injuries[0] == ("hunting knife wound",)


def test_npc_attacks_with_its_own_save() -> None:
    """Ruling: an NPC attacking saves d20 ≤ Threat + 8 over its own DV (notes + its injuries)."""
    f = new_fight(11, 12)
    d = pc(f)
    o = npc(f, "Outlaw", "outlaw", injuries="lesser scraped")
    ev = f.do(Attack(actor=o, targets=(d,), weapon="Revolver"))
    s = save_of_attack(ev)
    assert (s.limit, s.dv, s.who) == (11, 1, o) and ev[0].hit
    assert data(f, d).injuries[1] == ("gunshot",)
    ev = f.do(Attack(actor=o, targets=(d,), weapon="Revolver"))
    assert not ev[0].hit


def test_rusty_revolver_jams_on_19_and_reload_clears_it() -> None:
    """Ruling: a weapon that jams on a face jams on that d20; a loaded jammed gun is cleared by a reload, no lead."""
    f = new_fight(19)
    d = pc(f)
    p = npc(f, "Preacher", "preacher")
    ev = f.do(Attack(actor=p, targets=(d, d)))
    assert len(of_type(ev, AttackMade)) == 1 and ev[0].jammed and not ev[0].hit
    assert weapon(f, p, "Rusty revolver").jammed and weapon(f, p, "Rusty revolver").loaded == 5
    n = len(f.entries)
    with pytest.raises(Refused, match="jammed"):
        f.do(Attack(actor=p, targets=(d,)))
    assert len(f.entries) == n
    ev = f.do(Reload(actor=p))
    assert ev[0].lead == 0 and not weapon(f, p, "Rusty revolver").jammed and data(f, p).lead == 3


def test_bear_hug_puts_the_risk_on_the_pc() -> None:
    """Ruling: for a special the PC saves against the NPC's Threat; failure: the special's injury and condition."""
    f = new_fight(3, 7)
    d = pc(f, body=10)
    b = npc(f, "Bear", "bear")
    ev = f.do(Attack(actor=b, targets=(d,), weapon="Bear hug"))
    s = save_of_attack(ev)
    assert (s.who, s.stat, s.dv) == (d, "BODY", 4) and ev[0].hit
    assert data(f, d).injuries[0] == ("crushed",) and f.state.get(d).condition("Grappled")
    ev = f.do(Attack(actor=b, targets=(d,), weapon="Bear hug"))
    assert not ev[0].hit and data(f, d).injuries[0] == ("crushed",)


def test_gm_can_put_the_risk_on_the_pc_for_a_shot() -> None:
    """Ruling: the GM picks which way: 'target' makes the PC save against the NPC's Threat."""
    f = new_fight(9)
    d = pc(f, body=12)
    o = npc(f, "Pinkerton", "pinkerton")
    ev = f.do(Attack(actor=o, targets=(d,), weapon="Repeater", risk="target"))
    s = save_of_attack(ev)
    assert (s.who, s.dv, s.outcome) == (d, 4, SUCCESS) and not ev[0].hit
    assert weapon(f, o, "Repeater").loaded == 9


def test_fire_breath_severe_on_several_targets_and_recharges_2_in_6() -> None:
    """Rule: fire breath, multiple targets, BODY save or severe injury; 2-in-6 recharge."""
    f = new_fight(2, 11, 3, 5, 12)
    a = pc(f, "Dusty", body=12)
    b = pc(f, "Ma", body=12)
    dragon = npc(f, "Fire Dragon", "fire_dragon")
    ev = f.do(Attack(actor=dragon, targets=(a, b), weapon="Fire breath"))
    assert [x.hit for x in of_type(ev, AttackMade)] == [True, False]
    assert data(f, a).injuries[2] == ("horribly burned",)
    assert weapon(f, dragon, "Fire breath").spent
    ev = f.do(Attack(actor=dragon, targets=(b,), weapon="Fire breath"))
    assert len(ev) == 1 and not ev[0].ok
    ev = f.do(Attack(actor=dragon, targets=(b,), weapon="Fire breath"))
    assert ev[0].ok and of_type(ev, AttackMade)[0].hit is False


def test_gm_sets_the_level_and_impact_shifts_it() -> None:
    """Ruling: the level is the GM's choice; a PC attacking with advantage deals one level more, with disadvantage one less."""
    f = new_fight(10, 10, 10)
    d = pc(f, acc=14, body=14, weapons="Revolver, Machete")
    o = npc(f, "Outlaw", "outlaw", slots="3/3/3")
    ev = f.do(Attack(actor=d, targets=(o,), weapon="Revolver", level="severe"))
    assert of_type(ev, InjuryMarked)[0].steps == ("severe",)
    ev = f.do(Attack(actor=d, targets=(o,), weapon="Revolver", impact="advantage"))
    assert of_type(ev, InjuryMarked)[0].steps == ("moderate", "advantage", "severe")
    ev = f.do(Attack(actor=d, targets=(o,), weapon="Revolver", impact="disadvantage"))
    assert of_type(ev, InjuryMarked)[0].steps == ("moderate", "disadvantage", "lesser")


def test_impact_on_a_defending_pc_and_never_below_lesser() -> None:
    """Ruling: a PC with advantage suffers one level less (never below lesser); with disadvantage one more."""
    f = new_fight(5, 5, 5)
    d = pc(f, slots="3/3/3")
    o = npc(f, "Outlaw", "outlaw")
    ev = f.do(Attack(actor=o, targets=(d,), weapon="Revolver", impact="advantage"))
    assert of_type(ev, InjuryMarked)[0].index == 0
    ev = f.do(Attack(actor=o, targets=(d,), weapon="Revolver", impact="disadvantage"))
    assert of_type(ev, InjuryMarked)[0].index == 2
    ev = f.do(Attack(actor=o, targets=(d,), weapon="Machete", range="close", impact="advantage"))
    assert of_type(ev, InjuryMarked)[0].steps == ("lesser", "advantage", "lesser")


def test_melee_is_body_and_lesser() -> None:
    """Ruling: BODY in melee; melee weapons default to a lesser injury."""
    f = new_fight(12)
    d = pc(f, acc=5, body=14, weapons="Machete")
    o = npc(f, "Outlaw", "outlaw")
    ev = f.do(Attack(actor=d, targets=(o,)))
    assert save_of_attack(ev).stat == "BODY" and data(f, o).injuries[0] == ("machete wound",)


def test_weapon_range_limits() -> None:
    """Ruling: bows cannot shoot at melee range; thrown axes and knives cannot reach far; melee needs close."""
    f = new_fight()
    d = pc(f, weapons="Bow, Throwing knife, Machete")
    o = npc(f, "Outlaw", "outlaw")
    n = len(f.entries)
    with pytest.raises(Refused, match="melee range"):
        f.do(Attack(actor=d, targets=(o,), weapon="Bow", range="close"))
    with pytest.raises(Refused, match="cannot reach far"):
        f.do(Attack(actor=d, targets=(o,), weapon="Throwing knife", range="far"))
    with pytest.raises(Refused, match="must be close"):
        f.do(Attack(actor=d, targets=(o,), weapon="Machete", range="nearby"))
    assert len(f.entries) == n


def test_thrown_weapon_uses_acc_at_range_and_body_close() -> None:
    """Rule: thrown axes and knives use ACC; at close range they are melee weapons (BODY). (Two carried: the
    first one thrown lies on the floor, test_second_pass.)"""
    f = new_fight(10, 10)
    d = pc(f, acc=14, body=8, weapons="Throwing axe x2")
    o = npc(f, "Outlaw", "outlaw")
    assert save_of_attack(f.do(Attack(actor=d, targets=(o,), range="nearby"))).stat == "ACC"
    assert save_of_attack(f.do(Attack(actor=d, targets=(o,), range="close"))).stat == "BODY"


def test_bow_spends_its_ammunition_stack() -> None:
    """Ruling: bow ammunition is a stack spent per shot; an empty stack cannot shoot."""
    f = new_fight(2)
    d = pc(f, weapons="Bow 1")
    o = npc(f, "Outlaw", "outlaw")
    f.do(Attack(actor=d, targets=(o,)))
    assert weapon(f, d, "Bow").ammo == 0
    n = len(f.entries)
    with pytest.raises(Refused, match="ammunition stack has 0"):
        f.do(Attack(actor=d, targets=(o,)))
    assert len(f.entries) == n


def test_attack_log_line_shows_the_dice() -> None:
    """Every roll keeps its faces in the log."""
    f = new_fight(13)
    d = pc(f, acc=14)
    o = npc(f, "Outlaw", "outlaw")
    before = f.state
    ev = f.do(Attack(actor=d, targets=(o,)))
    line = ev[0].describe(before)
    assert "1d20 [13]" in line and "Threat +3" in line and "hit" in line


def test_undo_an_attack_restores_the_state() -> None:
    """Undo: one action (attack and its injuries) is undone exactly."""
    f = new_fight(13)
    d = pc(f, acc=14)
    o = npc(f, "Outlaw", "outlaw")
    before = f.state
    f.do(Attack(actor=d, targets=(o,)))
    assert f.state != before
    f.undo()
    assert f.state == before
    f.redo()
    assert data(f, o).injuries[1] == ("gunshot",)


def test_gm_adjusts_track_and_stats() -> None:
    """Rule: the GM can edit any combatant's track and stats, logged and undoable."""
    f = new_fight()
    d = pc(f)
    f.do(Adjust(id=d, field="injuries", value="moderate cut"))
    assert data(f, d).injuries == ((), ("cut",), ())
    f.do(Adjust(id=d, field="slots", value="2/2/2/1"))
    assert data(f, d).slots == (2, 2, 2, 1) and data(f, d).injuries[3] == ()
    n = len(f.entries)
    with pytest.raises(Refused, match="3 to 19"):
        f.do(Adjust(id=d, field="acc", value=20))
    assert len(f.entries) == n
    f.undo()
    assert data(f, d).slots == (2, 2, 1)


def test_status_line() -> None:
    """The narrow line: the track and the DV it adds first, then stats, guns and lead last."""
    f = new_fight()
    d = add(f, "Dusty", "pc", acc=12, weapons="Revolver 4", injuries="lesser bruised")
    line = system.status(f.state, f.state.get(d))
    assert line == "■□|□□|□ DV+1 · ACC12 BODY10 CTRL10 · lead 3, Revolver 4/6"


def test_npc_deficient_in_its_weapon_saves_at_half_threat() -> None:
    """Rule: an NPC deficient in something divides its Threat in half (rounding up) before adding 8."""
    f = new_fight(10)
    d = pc(f)
    bandit = npc(f, "Greenhorn", threat=5, weapons="Revolver", deficiencies="firearm")
    s = save_of_attack(f.do(Attack(actor=bandit, targets=(d,))))
    assert (s.limit, s.stat) == (11, "⌈Threat/2⌉+8")
