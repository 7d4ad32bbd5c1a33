"""Audit scenarios: the GM adjust form as the app fills it, workings that need a target, NPC targets of specials."""

from __future__ import annotations

import pytest

from screens.logic import shown
from systems.blackjack import system
from systems.blackjack.commands import Attack, CastWorking, IngestLead, Injure, MoraleCheck, Reload
from systems.blackjack.events import AttackMade, MoraleChecked, SaveRolled
from tests.systems.blackjack.helpers import data, new_fight, npc, of_type, pc, weapon
from tracker.commands import Adjust, NextTurn, StartFight
from tracker.errors import Refused
from tracker.events import Event, PromptRaised

# -- GM adjust, as the app's form fills it ------------------------------------------


def test_every_adjust_field_takes_back_the_value_the_form_shows() -> None:
    """The adjust form starts from the current value as text: sent back unchanged it changes nothing."""
    f = new_fight()
    d = pc(f, injuries="lesser bruised, moderate cut", weapons="Revolver 4, Rifle")
    o = npc(f, "Fire Dragon", "fire_dragon", injuries="grievous scorched")
    for cid in (d, o):
        c = f.state.get(cid)
        for p in system.adjustable(f.state, c):
            before, n = f.state, len(f.entries)
            text = shown(getattr(c.data, p.name, None), f.state)
            try:
                f.do(Adjust(id=cid, field=p.name, value=p.parse(text or None)))
            except Refused as e:
                assert "already" in str(e), (p.name, text, str(e))
            assert f.state == before and len(f.entries) == n, (p.name, text)


def test_adjust_slots_typed_with_commas_or_boxes() -> None:
    """Ruling: a track may be typed '2, 2, 2, 1', '2/2/1' or as boxes '▢▢|▢▢|▢'; anything else is refused."""
    f = new_fight()
    d = pc(f)
    f.do(Adjust(id=d, field="slots", value="2, 2, 2, 1"))
    assert data(f, d).slots == (2, 2, 2, 1)
    f.do(Adjust(id=d, field="slots", value="▢▢|▢▢|▢"))
    assert data(f, d).slots == (2, 2, 1)
    n = len(f.entries)
    with pytest.raises(Refused, match="a number per level"):
        f.do(Adjust(id=d, field="slots", value="abc"))
    assert len(f.entries) == n


def test_adjust_injuries_shots_and_out_from_their_text() -> None:
    """The GM edits the track as 'lesser bruised, moderate cut', guns as 'Revolver 3', and brings a fled NPC back."""
    f = new_fight()
    d = pc(f, weapons="Revolver, Rifle")
    assert data(f, d).shots == "Revolver 6, Rifle 5" and data(f, d).injury_list == ""
    f.do(Adjust(id=d, field="injury_list", value="moderate cut, lesser bruised"))
    assert data(f, d).injuries == (("bruised",), ("cut",), ())
    assert data(f, d).injury_list == "lesser bruised, moderate cut"
    f.do(Adjust(id=d, field="shots", value="Revolver 3"))
    assert weapon(f, d, "Revolver").loaded == 3 and weapon(f, d, "Rifle").loaded == 5
    o = npc(f, "Outlaw", "outlaw")
    f.do(Adjust(id=o, field="out", value="fled"))
    assert not data(f, o).standing
    f.do(Adjust(id=o, field="out", value="in"))
    assert data(f, o).out == "" and data(f, o).standing
    n = len(f.entries)
    with pytest.raises(Refused, match="already in the fight"):
        f.do(Adjust(id=o, field="out", value=""))
    with pytest.raises(Refused, match="Threat runs 1 to 10"):
        f.do(Adjust(id=o, field="threat", value=11))
    assert len(f.entries) == n


# -- workings that need a target ------------------------------------------------------


def test_a_hex_without_a_target_is_refused_not_cast_on_the_caster() -> None:
    """Ruling: Hex and Naming work on a target; cast with none they are refused, nothing logged, lead kept."""
    f = new_fight()
    w = npc(f, "Witch", "hexpaper_witch")
    f.do(IngestLead(actor=w, amount=3))
    n = len(f.entries)
    for working in ("Hex", "Naming"):
        with pytest.raises(Refused, match="works on a target"):
            f.do(CastWorking(actor=w, working=working))
    assert len(f.entries) == n and data(f, w).ingested == 3
    assert not f.state.get(w).conditions and data(f, w).injury_count == 0


def test_a_working_with_no_target_just_happens() -> None:
    """Rule: a working with no target happens (Hag eye); healing hands with no target heals the caster."""
    f = new_fight(3, 2)
    p = npc(f, "Preacher", "preacher", injuries="moderate cut")
    w = npc(f, "Witch", "hexpaper_witch")
    f.do(IngestLead(actor=w, amount=1))
    ev = f.do(CastWorking(actor=w, working="Hag eye"))
    assert not of_type(ev, SaveRolled) and "takes effect" in ev[-1].describe(f.state)
    f.do(IngestLead(actor=p, amount=1))
    f.do(CastWorking(actor=p, working="Healing hands"))
    assert data(f, p).injury_count == 0


# -- NPC targets of an NPC's special -------------------------------------------------------


def test_fire_breath_over_a_pc_and_an_outlaw_each_saves() -> None:
    """Ruling: an NPC caught by an NPC's effect saves as an NPC (≤ Threat + 8) over the attacker's Threat + its DV."""
    f = new_fight(11, 12)
    d = pc(f, body=12)
    o = npc(f, "Outlaw", "outlaw", injuries="lesser bruised")
    dragon = npc(f, "Fire Dragon", "fire_dragon")
    ev = f.do(Attack(actor=dragon, targets=(d, o), weapon="Fire breath"))
    saves = [x.save for x in of_type(ev, AttackMade)]
    assert [(s.who, s.limit, s.dv) for s in saves] == [(d, 12, 10), (o, 11, 11)]
    assert [x.hit for x in of_type(ev, AttackMade)] == [False, True]
    assert data(f, o).injuries[2] == ("horribly burned",)


def test_a_pc_attack_cannot_put_the_risk_on_the_target() -> None:
    """Ruling: a PC attacking always makes its own save; 'target' is refused naming the rule, nothing logged."""
    f = new_fight()
    d = pc(f)
    o = npc(f, "Outlaw", "outlaw")
    with pytest.raises(Refused, match="a PC attacking makes its own save"):
        f.do(Attack(actor=d, targets=(o,), risk="target"))
    assert len(f.entries) == 2


def test_a_broken_npc_counts_as_fallen_in_the_summary() -> None:
    """The summary tallies a broken NPC as out of the fight."""
    f = new_fight(6, 6)
    o = npc(f, "Outlaw", "outlaw", group="Gang")
    ev: list[Event] = f.do(MoraleCheck(actor=o))
    t = system.tally(f.state, ev[0])
    assert t is not None and t.fell and t.target == o


# -- bare hands and ammunition stacks ---------------------------------------------------------


def test_anyone_can_punch_with_fists_for_a_lesser_injury() -> None:
    """Ruling: Fists are always at hand (BODY in melee, lesser, bludgeoning) even when the sheet lists none."""
    f = new_fight(5, 4)
    d = pc(f, body=12, weapons="Revolver")
    s = npc(f, "Skeleton", "skeleton")
    ev = f.do(Attack(actor=d, targets=(s,), weapon="Fists"))
    hit = of_type(ev, AttackMade)[0]
    assert (hit.weapon, hit.weapon_index, hit.save.stat, hit.range) == ("Fists", -1, "BODY", "close")
    assert data(f, s).injuries[1] == ("fists wound",)  # weak to bludgeoning: lesser → moderate
    assert weapon(f, d, "Revolver").loaded == 6
    brawler = npc(f, "Brawler", weapons="")
    ev = f.do(Attack(actor=brawler, targets=(d,)))
    assert of_type(ev, AttackMade)[0].weapon == "Fists" and data(f, d).injuries[0] == ("fists wound",)
    n = len(f.entries)
    with pytest.raises(Refused, match=r"has no weapon 'Lasso'.*Fists"):
        f.do(Attack(actor=d, targets=(s,), weapon="Lasso"))
    with pytest.raises(Refused, match="only firearms reload"):
        f.do(Reload(actor=d, weapon="Fists"))
    assert len(f.entries) == n


def test_gm_restocks_a_bow_through_the_shots_field() -> None:
    """The GM refills an ammunition stack (a supply) as 'Bow 10'; more than 99 or a melee weapon is refused."""
    f = new_fight()
    d = pc(f, weapons="Bow 2, Revolver 3, Knife")
    assert data(f, d).shots == "Bow 2, Revolver 3"
    f.do(Adjust(id=d, field="shots", value="Bow 10"))
    assert weapon(f, d, "Bow").ammo == 10 and weapon(f, d, "Revolver").loaded == 3
    n = len(f.entries)
    for bad in ("Knife 3", "Revolver 7", "Bow 100", "Revolver ²"):  # ² failed in int(): "the rules failed"
        with pytest.raises(Refused, match="its Shots, or a bow"):
            f.do(Adjust(id=d, field="shots", value=bad))
    with pytest.raises(Refused, match="already"):
        f.do(Adjust(id=d, field="shots", value="Revolver 3"))
    assert len(f.entries) == n
    f.undo()
    assert weapon(f, d, "Bow").ammo == 2


# -- rulings in the module docstrings that had no test of their own ----------------------------


def test_resistance_and_weakness_to_the_same_attack_cancel_out() -> None:
    """Ruling (rules.py): resistant and weak to the same attack: the level stands."""
    f = new_fight()
    g = npc(f, "Golem", resistances="bludgeoning", weaknesses="stone")
    ev = f.do(Injure(target=g, level="moderate", name="boulder", tags="stone bludgeoning"))
    assert ev[0].steps == ("moderate",) and data(f, g).injuries[1] == ("boulder",)


def test_a_jam_ends_the_volley_and_the_jamming_shot_is_spent() -> None:
    """Ruling (rules.py): a jam ends a volley; the jamming shot is spent, the later ones are not fired."""
    f = new_fight(19)
    d = pc(f)
    m = pc(f, "Ma")
    p = npc(f, "Preacher", "preacher")
    ev = f.do(Attack(actor=p, targets=(d, m, m)))
    assert len(of_type(ev, AttackMade)) == 1 and ev[0].jammed
    assert weapon(f, p, "Rusty revolver").loaded == 5 and data(f, m).injury_count == 0


def test_morale_sides_are_groups_and_ungrouped_npcs_are_one_side() -> None:
    """Ruling (rules/common.py): a side is the NPCs sharing a group; ungrouped NPCs are one side; one 2d6 for the side."""
    f = new_fight(4, 4)
    a = npc(f, "Bandit", threat=2, morale=7)
    b = npc(f, "Drifter", threat=2, morale=7)
    g = npc(f, "Agent", "pinkerton", group="Agency")
    f.do(StartFight())
    ev = f.do(Injure(target=a, level="fatal"))
    prompts = of_type(ev, PromptRaised)
    assert [(p.prompt.kind, p.prompt.combatant) for p in prompts] == [("morale", b)]
    assert prompts[0].prompt.text.startswith("NPCs: first casualty")
    ev = f.do(MoraleCheck(actor=b))
    checked = of_type(ev, MoraleChecked)[0]
    assert checked.checked == (b,) and checked.broken == (b,) and data(f, b).out == "fled"
    assert data(f, g).standing and not f.state.prompts


def test_a_gm_marking_an_npc_dead_prompts_morale_at_once() -> None:
    """Ruling (rules/morale.py): a casualty from a GM adjust or a removal prompts the check in the same action,
    logged; an NPC already dead when the fight starts is no casualty and not in its side's number."""
    f = new_fight(6, 6)
    pc(f)
    a = npc(f, "Outlaw A", "outlaw", group="Gang")
    b = npc(f, "Outlaw B", "outlaw", group="Gang")
    c = npc(f, "Outlaw C", "outlaw", group="Gang")
    f.do(Adjust(id=a, field="dead", value=True))
    assert not f.state.prompts  # not before the fight
    f.do(StartFight())
    ev = f.do(Adjust(id=b, field="out", value="fled"))
    assert [(p.kind, p.combatant) for p in f.state.prompts] == [("morale", c)]
    assert of_type(ev, PromptRaised)[0].prompt == f.state.prompts[0]
    assert "first casualty; half its number out" in f.state.prompts[0].text
    with pytest.raises(Refused):
        f.do(NextTurn())
    ev = f.do(MoraleCheck(actor=c))
    assert of_type(ev, MoraleChecked)[0].broken == (c,) and not f.state.prompts
    f.undo()
    f.undo()
    assert not f.state.prompts and data(f, b).standing
