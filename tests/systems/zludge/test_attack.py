"""Zludge attacks: attack roll against defense roll, clips, hits, criticals, armor, called shots, boosts."""

from __future__ import annotations

import pytest

from systems.zludge.commands import Attack, RefreshAspects
from systems.zludge.events import AttackResolved, WoundMarked
from tests.systems.zludge.helpers import F, data, duel, new_fight, script
from tracker.commands import AddCombatant, Modifier, NextTurn, parse_modifiers
from tracker.errors import Refused

SWORD = {"skills": "Melee 2, Acrobatics 1", "weapon": "sword"}  # Melee +1, Acrobatics +0
BOB = {"skills": "Acrobatics 1, Melee 1", "weapon": "knife"}  # Acrobatics +0, Melee +0


def attack(f, **kw):
    return f.do(Attack(actor=kw.pop("actor", "c1"), target=kw.pop("target", "c2"), **kw))


def test_attack_less_than_defense_misses():
    """Attack < defense: miss; both rolls are made by the one command."""
    f = duel(SWORD, BOB)
    script(f, F(-1), F(1))  # 0 vs +1
    ev = attack(f)
    res = ev[0]
    assert isinstance(res, AttackResolved)
    assert (res.attack_total, res.defense_total, res.outcome, res.damage_level) == (0, 1, "miss", None)
    assert len(ev) == 1
    assert data(f, "c2").wounds == ()
    line = res.describe(f.state)
    assert "Alice attacks Bob (Melee 4dF [-,0,0,0] = -1, Melee +1 → +0 Fair)" in line
    assert "Acrobatics 4dF [+,0,0,0] = 1, Acrobatics +0 → +1 Decent" in line
    assert "misses" in line


def test_a_tie_clips_for_0_level_damage():
    """Equal rolls: clipped, 0-level damage: a Scratched box and -1 until the victim's next action."""
    f = duel(SWORD, BOB)
    script(f, F(0), F(1))  # +1 vs +1
    ev = attack(f)
    assert ev[0].outcome == "clipped" and ev[0].damage_level == 0
    assert isinstance(ev[1], WoundMarked) and (ev[1].wound, ev[1].box) == (0, 0)
    bob = data(f, "c2")
    assert bob.clipped and [(b.level, b.wound) for b in bob.wounds] == [(0, 0)]
    assert "clipped -1" in f.system.status(f.state, f.state.get("c2"))
    assert "clips Bob" in ev[0].describe(f.state)


def test_a_tie_clips_even_through_armor():
    """Ruling (module): a tie deals 0-level damage whatever the armor."""
    f = duel(SWORD, {**BOB, "armor": "heavy kevlar"})
    script(f, F(0), F(1))
    ev = attack(f)
    assert ev[0].outcome == "clipped" and [type(e) for e in ev] == [AttackResolved, WoundMarked]


def test_clip_penalty_weighs_on_defense_until_the_victims_next_action():
    """Clipped -1 to physical actions until the victim's next action, cleared automatically when it acts."""
    f = duel(SWORD, BOB)
    script(f, F(0), F(1))
    attack(f)  # clipped
    assert data(f, "c2").clipped
    f.do(NextTurn())  # Bob's turn: round 2 starts with Bob
    assert f.state.current == "c2"
    assert not data(f, "c2").clipped


def test_clip_minus_one_applies_to_the_next_defense():
    """A clipped victim defends at -1 until its next action."""
    from tracker.commands import AddCombatant, SetInitiative, StartFight

    f = new_fight()
    f.do(AddCombatant(name="Alice", kind="pc", sheet=SWORD))
    f.do(AddCombatant(name="Bob", kind="npc", sheet=BOB))
    f.do(AddCombatant(name="Cy", kind="pc", sheet=SWORD))
    f.do(SetInitiative(values={"c2": 3, "c1": 2, "c3": 1}))
    f.do(StartFight())
    f.do(NextTurn())  # Bob acted; Alice's turn
    script(f, F(0), F(1))
    attack(f)  # clips Bob
    f.do(NextTurn())  # Cy
    script(f, F(0), F(1))  # +1 vs +1 - 1 = 0: a hit, not a clip
    res = attack(f, actor="c3")[0]
    assert Modifier(label="clipped", value=-1) in res.defense_mods
    assert (res.defense_total, res.outcome) == (0, "hit")


def test_hit_deals_weapon_minus_armor():
    """Attack > defense: damage level = weapon level - armor level."""
    f = duel({**SWORD, "weapon": "chainsaw"}, {**BOB, "armor": "flak jacket"})
    script(f, F(1), F(0))  # +2 vs 0
    ev = attack(f)
    assert (ev[0].outcome, ev[0].weapon_level, ev[0].armor_level, ev[0].damage_level) == ("hit", 3, 1, 2)
    assert (ev[1].wound, ev[1].box) == (2, 2)
    assert data(f, "c2").wound_penalty == -2
    assert "Very Hurt -2" in f.system.status(f.state, f.state.get("c2"))
    assert "weapon 3 − armor 1 → 2-level damage" in ev[0].describe(f.state)


def test_margin_of_four_raises_the_level():
    """Attack >= defense + 4: critical, +1 damage level."""
    f = duel(SWORD, BOB)
    script(f, F(3), F(0))  # +4 vs 0
    ev = attack(f)
    assert (ev[0].outcome, ev[0].damage_level) == ("critical", 3)
    assert ev[1].box == 3
    assert "critical, +1 level" in ev[0].describe(f.state)
    f = duel(SWORD, BOB)
    script(f, F(2), F(0))  # +3 vs 0 is only a hit
    ev = attack(f)
    assert (ev[0].outcome, ev[0].damage_level) == ("hit", 2)


def test_armor_absorbs_a_hit_entirely():
    """Ruling: a damage level below 0 after armor does no damage."""
    f = duel({**SWORD, "weapon": "knife"}, {**BOB, "armor": "heavy kevlar"})
    script(f, F(2), F(0))
    ev = attack(f)
    assert (ev[0].outcome, ev[0].damage_level) == ("hit", None)
    assert len(ev) == 1
    assert data(f, "c2").wounds == () and not data(f, "c2").clipped
    assert "armor absorbs it all" in ev[0].describe(f.state)


def test_armor_bringing_a_hit_down_to_0_scratches_and_clips():
    f = duel(SWORD, {**BOB, "armor": "light kevlar"})
    script(f, F(2), F(0))
    ev = attack(f)
    assert ev[0].damage_level == 0 and ev[1].box == 0
    assert data(f, "c2").clipped


def test_flat_footed_target_uses_fixed_defense_minus_one_stationary():
    """Ruling: before its first action no defense roll, fixed defense -1 (stationary)."""
    f = duel(SWORD, BOB)
    from tracker.commands import AddCombatant

    f.do(AddCombatant(name="Cy", kind="npc", sheet=BOB))  # joins now: has not acted
    assert not data(f, "c3").acted
    script(f, F(-2))  # only the attack roll: -1 vs fixed -1 -> clipped
    ev = attack(f, target="c3")
    assert ev[0].defense is None and ev[0].defense_total == -1 and ev[0].outcome == "clipped"
    assert f.roller.exhausted
    assert "flat-footed, fixed defense, stationary -1 → -1 Poor" in ev[0].describe(f.state)


def test_flat_footed_moving_target_has_fixed_defense_zero():
    f = duel(SWORD, BOB)
    from tracker.commands import AddCombatant

    f.do(AddCombatant(name="Cy", kind="npc", sheet=BOB))
    script(f, F(-2))  # -1 vs 0: miss
    ev = attack(f, target="c3", target_moving=True)
    assert (ev[0].defense_total, ev[0].outcome) == (0, "miss")


def test_flat_footed_target_cannot_spend_on_a_defense_it_does_not_roll():
    f = duel(SWORD, BOB)
    from tracker.commands import AddCombatant

    f.do(AddCombatant(name="Cy", kind="npc", sheet={**BOB, "aspects": "Lucky", "plot_points": 1}))
    before = list(f.entries)
    with pytest.raises(Refused, match="flat-footed and makes no defense roll"):
        attack(f, target="c3", defense_plot_points=1)
    assert f.entries == before


def test_defender_may_parry_close_attacks_with_melee_but_not_bullets():
    """Defense is Acrobatics, or Melee/Unarmed against Melee or Unarmed attacks."""
    f = duel(SWORD, {"skills": "Acrobatics 0, Melee 3", "weapon": "sword"})
    script(f, F(1), F(0))
    ev = attack(f)  # auto: Melee +2 is better than Acrobatics -1
    assert ev[0].defense_skill == "Melee" and ev[0].defense_total == 2 and ev[0].outcome == "clipped"
    f.do(NextTurn())
    f.do(NextTurn())
    before = list(f.entries)
    with pytest.raises(Refused, match="against a Ranged attack the defense roll is Acrobatics"):
        attack(f, skill="Ranged", defense="Melee")
    assert f.entries == before
    script(f, F(1), F(0))
    ev = attack(f, skill="Ranged")
    assert ev[0].defense_skill == "Acrobatics" and ev[0].defense_total == -1


def test_bulky_armor_penalises_acrobatics_defense():
    """Bulky armor may penalise Acrobatics (and so the usual defense) as the sheet says."""
    f = duel(SWORD, {"skills": "Acrobatics 2", "armor": "platemail", "armor_penalty": 2})
    script(f, F(0), F(0))  # +1 vs 0 + 1 - 2 = -1
    ev = attack(f, skill="Ranged")
    assert ev[0].defense_total == -1
    assert Modifier(label="bulky platemail", value=-2) in ev[0].defense_mods


def test_called_shot_is_minus_two_and_picks_the_location():
    f = duel(SWORD, {**BOB, "armor": "light kevlar", "armor_covers": "torso"})
    script(f, F(3), F(0))  # +4 - 2 = +2 vs 0: hit
    ev = attack(f, called_shot="head")
    res = ev[0]
    assert Modifier(label="called shot (head)", value=-2) in res.attack_mods
    assert (res.attack_total, res.location, res.armor_level, res.damage_level) == (2, "head", 0, 2)
    assert "in the head" in res.describe(f.state)


@pytest.mark.parametrize(
    ("face", "where"), [(1, "head"), (2, "torso"), (3, "torso"), (4, "right arm"), (5, "left arm"), (6, "legs")]
)
def test_hit_location_on_1d6(face, where):
    """Ruling: hit location on 1d6: 1 head, 2-3 torso, 4 right arm, 5 left arm, 6 legs."""
    f = duel(SWORD, {**BOB, "armor": "light kevlar", "armor_covers": "torso"})
    script(f, F(1), F(0), face)
    res = attack(f, roll_location=True)[0]
    assert res.location == where and res.location_roll.faces == (face,)
    assert res.armor_level == (2 if where == "torso" else 0)


def test_situational_modifiers_are_plus_or_minus_one_with_labels():
    """Ruling: any number of ±1 situational modifiers, each shown with its label."""
    f = duel(SWORD, BOB)
    script(f, F(0), F(0))
    res = attack(
        f,
        modifiers=parse_modifiers("higher ground +1, off hand -1, surprise +1"),
        defense_modifiers=parse_modifiers("cover +1"),
    )[0]
    assert res.attack_total == 2 and res.defense_total == 1
    line = res.describe(f.state)
    assert "higher ground +1, off hand -1, surprise +1" in line and "cover +1" in line
    before = list(f.entries)
    f.do(NextTurn())
    f.do(NextTurn())
    before = list(f.entries)
    with pytest.raises(Refused, match=r"\+1 or -1 each"):
        attack(f, modifiers=parse_modifiers("ambush +2"))
    assert f.entries == before


def test_aspect_gives_plus_one_once_a_day():
    """Ruling: an invoked aspect gives +1, once per game day, checked off."""
    f = duel({**SWORD, "aspects": "Star Ranger"}, BOB)
    script(f, F(0), F(1))
    res = attack(f, aspect="star ranger")[0]
    assert res.attack_total == 2 and res.outcome == "hit" and res.aspect == "Star Ranger"
    assert data(f, "c1").aspects_used == ("Star Ranger",)
    assert "[x] Star Ranger" in f.system.detail(f.state, f.state.get("c1"))
    f.do(NextTurn())
    f.do(NextTurn())
    before = list(f.entries)
    with pytest.raises(Refused, match="already checked off today"):
        attack(f, aspect="Star Ranger")
    assert f.entries == before
    f.do(RefreshAspects())
    assert data(f, "c1").aspects_used == ()


def test_aspect_reroll_keeps_the_better_roll_and_logs_both():
    """Ruling: invoking an aspect may give a reroll of the dice instead of +1; chosen before the roll, the better
    of the two rolls counts (test_reroll_before_the_roll.py)."""
    f = duel({**SWORD, "aspects": "Star Ranger"}, BOB)
    script(f, F(-4), F(2), F(0))
    res = attack(f, aspect="Star Ranger", aspect_use="reroll")[0]
    assert res.attack_rerolled.total == -4 and res.attack.total == 2 and res.attack_total == 3
    assert "4dF [+,+,0,0] = 2 kept over 4dF [-,-,-,-] = -4" in res.describe(f.state)


def test_plot_point_gives_plus_one_and_only_one_per_roll():
    f = duel({**SWORD, "plot_points": 2}, {**BOB, "plot_points": 1})
    before = list(f.entries)
    with pytest.raises(Refused, match="only one plot point can be spent per check"):
        attack(f, plot_points=2)
    assert f.entries == before
    script(f, F(0), F(0))
    res = attack(f, plot_points=1, defense_plot_points=1)[0]
    assert res.attack_total == 2 and res.defense_total == 1
    assert data(f, "c1").plot_points == 1 and data(f, "c2").plot_points == 0
    assert "Alice spends a plot point" in res.describe(f.state)


def test_aspect_and_plot_point_combine_on_one_roll():
    f = duel({**SWORD, "aspects": "Brawler", "plot_points": 1}, BOB)
    script(f, F(0), F(0))
    res = attack(f, aspect="Brawler", plot_points=1)[0]
    assert res.attack_total == 3


def test_no_plot_points_left_is_refused():
    f = duel(SWORD, BOB)
    with pytest.raises(Refused, match="no plot points left"):
        attack(f, plot_points=1)


def test_weapon_damage_level_outside_0_to_4_is_refused():
    """Bad input: a damage level outside 0-4; nothing is logged."""
    f = duel(SWORD, BOB)
    before = list(f.entries)
    with pytest.raises(Refused, match=r"weapon damage levels run 0 .* not 5"):
        attack(f, weapon_level=5)
    with pytest.raises(Refused, match="armor levels run 0"):
        attack(f, armor_level=-1)
    assert f.entries == before


def test_fudge_faces_other_than_minus_one_zero_plus_one_are_refused():
    """Bad input: 4dF faces other than -1/0/+1; nothing is logged."""
    f = duel(SWORD, BOB)
    before = list(f.entries)
    script(f, [2, 0, 0, 0], F(0))
    with pytest.raises(Refused, match="4dF faces are -1, 0 or \\+1"):
        attack(f)
    assert f.entries == before


def test_one_action_per_turn_on_ones_own_turn():
    f = duel(SWORD, BOB)
    before = list(f.entries)
    with pytest.raises(Refused, match="it is Alice's turn"):
        attack(f, actor="c2", target="c1")
    assert f.entries == before
    script(f, F(-4), F(0))
    attack(f)
    with pytest.raises(Refused, match="already taken its action this turn"):
        attack(f)


def test_undo_of_an_attack_restores_the_state_exactly():
    f = duel({**SWORD, "aspects": "Star Ranger", "plot_points": 1}, BOB)
    before = f.state
    script(f, F(3), F(-1))
    attack(f, aspect="Star Ranger", plot_points=1)
    assert f.state != before
    f.undo()
    assert f.state == before


def test_fixed_defense_still_takes_defense_modifiers():
    """Ruling (module): a flat-footed target's fixed defense still takes the GM's ±1 defense modifiers (cover)."""
    from tracker.commands import AddCombatant

    f = duel(SWORD, BOB)
    f.do(AddCombatant(name="Cy", kind="npc", sheet=BOB))
    script(f, F(-1))  # 0 vs -1 + 1 = 0: clipped
    res = attack(f, target="c3", defense_modifiers=parse_modifiers("cover +1"))[0]
    assert (res.defense_total, res.outcome) == (0, "clipped")


def test_a_held_action_stepping_in_does_not_give_a_second_action():
    """Ruling (module): one action per turn; the interrupted turn goes on without a fresh action."""
    from tracker.commands import ActNow, AddCombatant, Delay, SetInitiative, StartFight

    f = new_fight()
    f.do(AddCombatant(name="Alice", kind="pc", sheet=SWORD))
    f.do(AddCombatant(name="Bob", kind="npc", sheet=BOB))
    f.do(AddCombatant(name="Cy", kind="npc", sheet=BOB))
    f.do(SetInitiative(values={"c1": 3, "c2": 2, "c3": 1}))
    f.do(StartFight())
    f.do(Delay())  # Alice holds; Bob's turn
    script(f, F(-4))
    attack(f, actor="c2", target="c3")  # Bob acts (Cy is flat-footed: only one roll)
    f.do(ActNow(id="c1"))
    script(f, F(-4), F(0))
    attack(f, actor="c1", target="c2")
    f.do(NextTurn())  # back to Bob's turn, resumed
    assert f.state.current == "c2"
    with pytest.raises(Refused, match="already taken its action this turn"):
        attack(f, actor="c2", target="c1")


def test_the_attack_form_starts_on_the_specialization_named_for_the_weapon():
    """Ruling: "Ranged 2 +Pistols" firing a pistol rolls Pistols by default; the blank field rolled Ranged alone."""
    from systems.zludge import system
    from systems.zludge.commands import attack_defaults

    f = new_fight()
    f.do(
        AddCombatant(name="Rook", kind="pc", sheet={"skills": "Ranged 2 +Pistols, Melee 1 +Knives", "weapon": "pistol"})
    )
    f.do(AddCombatant(name="Bo", kind="pc", sheet={"skills": "Ranged 2 +Rifles", "weapon": "pistol"}))
    assert attack_defaults(f.state, "c1") == {"specialty": "Pistols"}
    assert attack_defaults(f.state, "c2") == {}
    spec = next(s for s in system.commands() if s.name == "attack")
    assert spec.defaults_for(f.state, "c1") == {"specialty": "Pistols"}


def test_the_weapon_specialization_default_matches_whole_words_only():
    """ "Ranged 2 +Bows" firing a crossbow started the form on Bows (the stem was found inside "crossbow"); a
    specialization must name the weapon in whole words."""
    from systems.zludge.commands import attack_defaults

    f = new_fight()
    f.do(AddCombatant(name="Xan", kind="pc", sheet={"skills": "Ranged 2 +Bows", "weapon": "crossbow 2"}))
    f.do(AddCombatant(name="Gus", kind="pc", sheet={"skills": "Ranged 2 +Guns", "weapon": "shotgun (close)"}))
    f.do(AddCombatant(name="Hal", kind="pc", sheet={"skills": "Ranged 2 +Pistols", "weapon": "holdout pistol"}))
    f.do(AddCombatant(name="Max", kind="pc", sheet={"skills": "Ranged 2 +Machine Guns", "weapon": "machine gun"}))
    assert attack_defaults(f.state, "c1") == {}
    assert attack_defaults(f.state, "c2") == {}
    assert attack_defaults(f.state, "c3") == {"specialty": "Pistols"}
    assert attack_defaults(f.state, "c4") == {"specialty": "Machine Guns"}
