"""Rules fidelity, second pass (issue #16): each test quotes the book and failed on the first-pass code."""

from __future__ import annotations

import pytest

from systems.zludge import system
from systems.zludge.commands import AmbushInitiative, Attack, MarkFatigue, MarkWound, RollSkill
from systems.zludge.events import TieRerolled
from tests.systems.zludge.helpers import F, add, data, duel, new_fight, script
from tracker.commands import AddCombatant, Adjust, Modifier, RollInitiative, SetInitiative
from tracker.errors import Refused
from tracker.events import InitiativeSet

SWORD = {"skills": "Melee 2, Acrobatics 1", "weapon": "sword"}  # Melee +1
VEST = {"skills": "Acrobatics 1", "weapon": "knife", "armor": "light kevlar", "armor_covers": "torso"}


# -- 7. partial armor ----------------------------------------------------------


def test_partial_armor_rolls_a_hit_location_for_every_attack():
    """Book: "Armor in your world may only cover certain areas of the body. If so, use Hit Locations below for
    every attack."  No called shot, no "roll location": the 1d6 is rolled anyway; a head hit is unarmored."""
    f = duel(SWORD, VEST)
    script(f, F(1), F(0), 1)  # +2 vs 0: a hit; 1d6 = 1: head
    ev = f.do(Attack(actor="c1", target="c2"))
    res = ev[0]
    assert res.location_roll is not None and res.location_roll.faces == (1,)
    assert (res.location, res.armor_level, res.damage_level) == ("head", 0, 2)
    assert ev[1].box == 2
    assert "hits Bob in the head (1d6 [1] = 1) by 2: weapon 2 − armor 0 → 2-level damage" in res.describe(f.state)


def test_partial_armor_counts_where_it_covers():
    f = duel(SWORD, VEST)
    script(f, F(1), F(0), 3)  # 1d6 = 3: torso, covered: sword 2 - kevlar 2 = 0-level
    res = f.do(Attack(actor="c1", target="c2"))[0]
    assert (res.location, res.armor_level, res.damage_level) == ("torso", 2, 0)


def test_partial_armor_location_is_rolled_on_a_miss_too_and_a_called_shot_names_it():
    f = duel(SWORD, VEST)
    script(f, F(-2), F(0), 6)  # -1 vs 0: a miss, the location still rolled (logged)
    res = f.do(Attack(actor="c1", target="c2"))[0]
    assert res.outcome == "miss" and res.location_roll.faces == (6,) and res.armor_level == 0
    assert f.roller.exhausted
    f2 = duel(SWORD, VEST)
    script(f2, F(3), F(0))  # called shot at the torso: no 1d6, the armor counts
    res = f2.do(Attack(actor="c1", target="c2", called_shot="torso"))[0]
    assert res.location_roll is None and (res.location, res.armor_level) == ("torso", 2)
    assert f2.roller.exhausted


def test_full_armor_rolls_no_location_unless_asked():
    f = duel(SWORD, {**VEST, "armor_covers": "all"})
    script(f, F(1), F(0))
    res = f.do(Attack(actor="c1", target="c2"))[0]
    assert res.location_roll is None and res.armor_level == 2 and f.roller.exhausted


def test_armor_listed_on_every_location_is_full_armor():
    """Armor whose cover names every location covers the whole body: no location roll, as for "all"."""
    f = duel(SWORD, {**VEST, "armor_covers": "head, torso, right arm, left arm, legs"})
    script(f, F(1), F(0))
    res = f.do(Attack(actor="c1", target="c2"))[0]
    assert res.location_roll is None and res.armor_level == 2 and f.roller.exhausted


# -- 8. bulky armor ------------------------------------------------------------

PLATE = {"skills": "Athletics 2, Acrobatics 2, Medical 2", "armor": "platemail", "armor_penalty": 2}


@pytest.mark.parametrize("skill", ["Athletics", "Acrobatics"])
def test_bulky_armor_penalises_every_athletics_and_acrobatics_roll(skill):
    """Book: "Some bulky armors may cause a penalty to certain skills, such as Athletics and Acrobatics."
    The penalty falls on a skill roll as on a defense, labelled in the log."""
    f = new_fight()
    add(f, "Knight", **PLATE)
    script(f, F(1))  # +1, skill +1, bulky -2: 0
    ev = f.do(RollSkill(actor="c1", skill=skill))
    assert Modifier(label="bulky platemail", value=-2) in ev[0].mods
    assert ev[0].total == 0
    assert "bulky platemail -2" in ev[0].describe(f.state)


def test_bulky_armor_leaves_other_skills_alone():
    f = new_fight()
    add(f, "Knight", **PLATE)
    script(f, F(0))
    ev = f.do(RollSkill(actor="c1", skill="Medical", physical=False))
    assert ev[0].mods == (Modifier(label="Medical", value=1),)


def test_the_sheet_field_names_both_skills():
    field = next(p for p in system.sheet_fields("npc") if p.name == "armor_penalty")
    assert "Athletics" in field.label and "Acrobatics" in field.label
    adjust = next(p for p in system.adjustable(None, None) if p.name == "armor_penalty")  # type: ignore[arg-type]
    assert "Athletics" in adjust.label and "Acrobatics" in adjust.label


# -- 9. unarmed --------------------------------------------------------------


def test_an_unarmed_attack_is_0_level_whatever_is_carried():
    """Book: damage level "0: unarmed combat".  Alice carries a sword (2) but punches: a 0-level wound."""
    f = duel({**SWORD, "skills": "Melee 2, Unarmed 3"}, {"skills": "Acrobatics 1"})
    script(f, F(1), F(0))  # Unarmed +2 +1 = 3 vs Acrobatics 0: hit by 3
    ev = f.do(Attack(actor="c1", target="c2", skill="Unarmed"))
    assert (ev[0].outcome, ev[0].weapon_level, ev[0].damage_level) == ("hit", 0, 0)
    assert (ev[1].wound, ev[1].box, ev[1].source) == (0, 0, "Alice's unarmed attack")
    assert data(f, "c2").clipped


def test_a_weapon_level_the_gm_types_still_rules_an_unarmed_attack():
    """Ruling: brass knuckles and the like: the GM's weapon level is the GM's word."""
    f = duel(SWORD, {"skills": "Acrobatics 1"})
    script(f, F(3), F(0))  # Unarmed -1 + 3 = 2 vs 0: a hit
    ev = f.do(Attack(actor="c1", target="c2", skill="Unarmed", weapon_level=1))
    assert ev[0].damage_level == 1


# -- 10. initiative tie rerolls ----------------------------------------------


def test_a_tie_reroll_keeps_the_penalties_of_the_first_roll():
    """Book: "roll Reflexes"; "If there is a tie, roll again."  Bob rolled while Hurt (-1); rolling again to
    break a tie with a newcomer he keeps that -1 (the first pass rolled him with his bare Reflexes)."""
    f = new_fight()
    add(f, "Bob", kind="npc", skills="Reflexes 1")  # Reflexes +0
    f.do(MarkWound(target="c1", level=1))
    script(f, F(1))  # 1 + 0 - 1 = 0
    ev = f.do(RollInitiative(ids=("c1",)))
    assert ev[0].value == 0 and "Reflexes +0, Hurt -1 → +0 Fair" in ev[0].describe(f.state)
    assert data(f, "c1").init_modifier == -1
    add(f, "Cy", kind="npc", skills="Reflexes 1")
    script(f, F(0), F(2), F(0))  # Cy 0: tied with Bob; Bob rerolls 2 - 1 = 1, Cy 0
    ev = f.do(RollInitiative(ids=("c2",)))
    (tie,) = [e for e in ev if isinstance(e, TieRerolled)]
    assert tie.ids == ("c1", "c2") and tie.modifiers == (-1, 0) and tie.totals() == (1, 0)
    assert f.state.order == ("c1", "c2")


def test_a_tie_reroll_keeps_the_ambush_modifier():
    """Book: "In an ambush situation, the victim instead rolls the average of Reflexes and Alertness (round up)":
    a victim rolling again to break a later tie keeps that average (+1 here), not its bare Reflexes (+0)."""
    f = new_fight()
    add(f, "Vic", skills="Reflexes 1, Alertness 3")  # ambushed: (0 + 2) / 2 = +1
    add(f, "Amb", kind="npc", skills="Stealth 1")  # Stealth +0
    script(f, F(1), F(1))  # Vic 2, Amb 1
    f.do(AmbushInitiative(ambushers=("c2",)))
    assert data(f, "c1").init_modifier == 1 and data(f, "c2").init_modifier == 0
    add(f, "Late", kind="npc", skills="Reflexes 2")  # Reflexes +1
    script(f, F(1), F(0), F(1))  # Late 2 ties Vic's 2; Vic rerolls 0 + 1, Late 1 + 1
    ev = f.do(RollInitiative(ids=("c3",)))
    (tie,) = [e for e in ev if isinstance(e, TieRerolled)]
    assert tie.ids == ("c1", "c3") and tie.modifiers == (1, 1) and tie.totals() == (1, 2)
    assert f.state.order == ("c3", "c1", "c2")


def test_a_gm_set_initiative_rerolls_a_tie_with_todays_modifier():
    """Ruling (rules/initiative): no roll of its own: the modifier the roll being made would give it."""
    f = new_fight()
    add(f, "Bob", kind="npc", skills="Reflexes 2")  # +1
    f.do(SetInitiative(values={"c1": 1}))
    assert data(f, "c1").init_modifier is None
    add(f, "Cy", kind="npc")  # Reflexes -1
    script(f, F(2), F(0), F(0))  # Cy 1: tie; Bob 0 + 1, Cy 0 - 1
    ev = f.do(RollInitiative(ids=("c2",)))
    (tie,) = [e for e in ev if isinstance(e, TieRerolled)]
    assert tie.modifiers == (1, -1)


def test_initiative_shows_every_modifier_by_name():
    """Every modifier shows in the log (#11): the wound and fatigue penalties beside Reflexes."""
    f = new_fight()
    add(f, "Bob", kind="npc", skills="Reflexes 2")
    f.do(MarkWound(target="c1", level=2))
    f.do(MarkFatigue(target="c1", level=1))
    script(f, F(0))
    ev = f.do(RollInitiative())
    sets = [e for e in ev if isinstance(e, InitiativeSet)]
    assert "Reflexes +1, Very Hurt -2, Tired -1 → -2 Bad" in sets[0].describe(f.state)


# -- 10a. ranks capped at 3 ----------------------------------------------------


@pytest.mark.parametrize("field", ["durability", "endurance"])
def test_durability_and_endurance_are_capped_at_3_ranks(field):
    """Book: "A maximum of 3 ranks can be bought in each skill"; Durability and Endurance are skills."""
    f = new_fight()
    with pytest.raises(Refused, match="most allowed, 3"):
        f.do(AddCombatant(name="Tank", sheet={field: 4}))
    assert f.entries == []
    add(f, "Tank", **{field: 3})
    with pytest.raises(Refused, match="most allowed, 3"):
        f.do(Adjust(id="c1", field=field, value="4"))


def test_a_superscript_digit_in_a_typed_track_is_refused_in_words():
    """ "²|.|.|.|." passed ``isdigit`` and failed in ``int``: "the rules failed (ValueError …)"; refused as a bad box."""
    f = new_fight()
    add(f, "Tough", durability=2)
    with pytest.raises(Refused, match="'²' is not a box"):
        f.do(Adjust(id="c1", field="wound_track", value="²..|..|.|.|."))


def test_a_gm_adjust_the_track_cannot_hold_is_refused():
    """An adjust to a value the rules cannot hold: 3 Hurt boxes checked, Durability 2 -> 1 leaves room for 2."""
    f = new_fight()
    add(f, "Tough", durability=2)
    for _ in range(3):
        f.do(MarkWound(target="c1", level=1))
    before = list(f.entries)
    with pytest.raises(Refused, match="3 Hurt boxes checked and that durability leaves room for 2"):
        f.do(Adjust(id="c1", field="durability", value="1"))
    assert f.entries == before
    f.do(MarkFatigue(target="c1", level=0))
    f.do(Adjust(id="c1", field="endurance", value="1"))  # the fatigue track holds it
    f.do(Adjust(id="c1", field="fortitude", value="-1"))  # one Scratched box less: none checked


# -- Exhausted ----------------------------------------------------------------


def test_exhausted_weighs_minus_three_on_a_non_physical_roll_too():
    """Kept ruling: Exhausted -3 on every roll the GM still allows ("most actions not possible")."""
    f = new_fight()
    add(f, "Bob", skills="Medical 2")
    f.do(MarkFatigue(target="c1", level=3))
    script(f, F(0))
    ev = f.do(RollSkill(actor="c1", skill="Medical", physical=False))
    assert Modifier(label="Exhausted", value=-3) in ev[0].mods and ev[0].total == -2


@pytest.mark.parametrize("how", ["wound", "fatigue"])
def test_a_prone_combatant_acts_at_minus_3_when_the_gm_allows_it(how):
    """Incapacitated or Exhausted: "most actions not possible (-3 to physical actions)" (l.118, l.128); the ruling:
    "-3 to every roll the GM still allows". Every physical roll was refused, and unticking Physical dropped the -3:
    no roll could take it. Ruling: refused unless the GM ticks that it allows this one; then -3."""
    f = duel({"skills": "Melee 2, Athletics 1", "weapon": "sword"}, {"skills": "Acrobatics 1"})
    f.do(MarkWound(target="c1", level=3) if how == "wound" else MarkFatigue(target="c1", level=3))
    state = "Incapacitated" if how == "wound" else "Exhausted"
    before = list(f.entries)
    for cmd in (Attack(actor="c1", target="c2"), RollSkill(actor="c1", skill="Athletics")):
        with pytest.raises(Refused, match=f"{state}: knocked prone.*tick 'GM allows it though prone'"):
            f.do(cmd)
    assert f.entries == before
    script(f, F(0))
    (rolled, *_rest) = f.do(RollSkill(actor="c1", skill="Athletics", gm_allows=True, as_action=False))
    assert any(m.label == state and m.value == -3 for m in rolled.mods), rolled
    script(f, F(2), F(0))
    (attack, *_rest) = f.do(Attack(actor="c1", target="c2", gm_allows=True))
    said = attack.describe(f.state)
    assert f"{state} -3" in said, said
