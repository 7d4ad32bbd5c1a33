"""Blood & Bullets: fists, death saves, saves and Lucky Streak, critters, melee, loyalty, binding wounds."""

from __future__ import annotations

import pytest

from systems.bnb.commands import (
    Attack,
    BindWounds,
    CritterAttacks,
    DeathSave,
    LoyaltyCheck,
    LuckyStreak,
    SavingThrow,
)
from systems.bnb.events import AttackRolled, DeathSaveRolled, Dropped, HeldFire, LuckyStreakUsed
from tracker import Adjust, Damage, DismissPrompt, EndFight, NextTurn, Refused
from tracker.commands import Modifier
from tracker.events import PromptRaised, PromptResolved
from tracker.plugin import Standing

from .helpers import add_npc, add_pc, data, new_fight, next_round, start


def _refused(f, command, words):
    n, state = len(f.entries), f.state
    with pytest.raises(Refused, match=words):
        f.do(command)
    assert len(f.entries) == n and f.state == state


def _attacks(events):
    return [e for e in events if isinstance(e, AttackRolled)]


# -- fists and temporary damage --------------------------------------------


def test_fists_deal_d3_temporary_damage_and_knock_out_without_a_death_save():
    """Ruling: temporary damage is tracked apart; when it brings HP to 0 or below, knocked out, no death save."""
    f, _ = new_fight(15, 2)
    doc = add_pc(f, "Doc", cls="Gambler", str=13)
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=3)
    start(f)
    atk, drop = f.do(Attack(actor=doc, target=lefty, weapon="fists"))
    assert atk.temporary and atk.amount == 2 + 1 and atk.damage.expr == "1d3+1"
    assert isinstance(drop, Dropped) and drop.outcome == "knocked out"
    d = data(f, lefty)
    assert (d.damage, d.temp, d.hp, d.status) == (0, 3, 0, "knocked out") and f.state.prompts == ()
    f.do(NextTurn())
    assert f.state.current == doc  # the knocked-out Lefty's turn is skipped


def test_trailblazer_rowdy_fists_deal_d6():
    f, dice = new_fight(15, 5)
    jed = add_pc(f, "Jed", cls="Trailblazer")
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=10)
    start(f)
    (atk,) = f.do(Attack(actor=jed, target=lefty, weapon="fists"))
    assert dice.requests[-1].hi == 6 and atk.amount == 5 and data(f, lefty).temp == 5


def test_trailblazer_fists_listed_on_the_sheet_deal_d6_too():
    """bnb l.72 (Rowdy): fists the sheet lists hit for d6 as well; they hit for d3 (the "carries no" list also
    named fists twice), and the detail said "fists: 1d3 temporary"."""
    f, dice = new_fight(15, 5)
    tex = add_pc(f, "Tex", cls="Trailblazer", level=4, weapons="fists, wood axe, belt pistol")
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=10)
    start(f)
    f.do(Attack(actor=tex, target=lefty, weapon="fists"))
    assert dice.requests[-1].hi == 6 and data(f, lefty).temp >= 5  # (the 5 rolled, and any bonus)
    detail = f.system.detail(f.state, f.state.get(tex))
    assert "fists: 1d6 temporary" in detail and "1d3" not in detail, detail
    with pytest.raises(Refused) as refused:
        f.do(Attack(actor=tex, target=lefty, weapon="lasso"))
    assert str(refused.value).count("fists") == 1, str(refused.value)


def test_npc_rowdy_punches_for_d3_like_everyone():
    """l.72: only Trailblazers do d6 with their fists, "rather than d3 like everyone else": the NPC Rowdy
    (l.181 "Fist or Pistol") punches for d3; a GM who ticks the sheet's Rowdy box gets d6."""
    f, dice = new_fight(15, 3, 15, 4)
    jed = add_pc(f, "Jed", cls="Trailblazer", hp=20)
    (row,) = add_npc(f, "rowdy", hp=5)
    (brawler,) = add_npc(f, "rowdy", name="Brawler", hp=5, rowdy=True)
    start(f, {row: 20, brawler: 15, jed: 10})
    assert not data(f, row).rowdy
    (ev,) = f.do(Attack(actor=row, target=jed, weapon="fists"))
    assert dice.requests[-1].hi == 3 and ev.amount == 3 and data(f, jed).temp == 3
    f.do(NextTurn())
    f.do(Attack(actor=brawler, target=jed, weapon="fists"))
    assert dice.requests[-1].hi == 6 and data(f, jed).temp == 7


def test_a_lethal_blow_after_a_knockout_asks_for_a_death_save():
    f, _ = new_fight(15, 3, 15, 2)
    doc = add_pc(f, "Doc", cls="Gambler", weapons="knife")
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=3)
    start(f)
    f.do(Attack(actor=doc, target=lefty, weapon="fists"))
    next_round(f)
    events = f.do(Attack(actor=doc, target=lefty, weapon="knife"))
    assert [e.outcome for e in events if isinstance(e, Dropped)] == ["dying"]
    assert data(f, lefty).hp == -1 and f.state.prompts[0].id == f"death_save:{lefty}"


# -- sneak attack -------------------------------------------------------------


def test_gambler_sneak_attack_doubles_damage_in_the_surprise_round():
    """Sneak attack (Gambler): ×2 damage on a hit by surprise with a knife, derringer or pocket pistol."""
    f, _ = new_fight(12, 4)
    doc = add_pc(f, "Doc", cls="Gambler", weapons="derringer")
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=12)
    start(f, surprise=(doc,))
    atk = _attacks(f.do(Attack(actor=doc, target=lefty, sneak=True)))[0]  # (the form starts it ticked)
    assert atk.sneak and atk.amount == 2 * (4 - 1) and "×2 sneak attack" in atk.describe(f.steps[-1].before)


def test_sneak_attack_only_for_gamblers_with_knife_derringer_or_pocket_pistol():
    """Ruling: "knife" is the knife, not the Bowie knife."""
    f, _ = new_fight()
    doc = add_pc(f, "Doc", cls="Gambler", weapons="bowie knife, knife")
    dusty = add_pc(f, "Dusty", weapons="derringer")
    (lefty,) = add_npc(f, "outlaw", name="Lefty")
    start(f)
    _refused(f, Attack(actor=doc, target=lefty, weapon="bowie knife", sneak=True), "sneak attack is a Gambler's")
    f.roller.add(15, 3)
    atk = _attacks(f.do(Attack(actor=doc, target=lefty, weapon="knife", sneak=True)))[0]
    assert atk.amount == 2 * 2
    f.do(NextTurn())  # Dusty's turn
    _refused(f, Attack(actor=dusty, target=lefty, sneak=True), "sneak attack is a Gambler's")


# -- death ----------------------------------------------------------------------


def _shot_down(save_faces=(), **pc):
    """Lefty shoots Dusty (Shootist, CON 13, 3 HP) for 6: Dusty at -3 HP."""
    f, dice = new_fight()
    dusty = add_pc(f, "Dusty", hp=3, con=13, weapons="belt pistol", **pc)
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=6)
    start(f, {lefty: 15, dusty: 10})
    dice.add(15, 6)
    events = f.do(Attack(actor=lefty, target=dusty))
    dice.add(*save_faces)
    return f, dice, dusty, lefty, events


def test_zero_hp_raises_the_death_save_prompt_and_blocks_the_turn():
    f, _dice, dusty, _lefty, events = _shot_down()
    assert data(f, dusty).hp == -3 and data(f, dusty).status == "dying"
    (prompt,) = [e.prompt for e in events if isinstance(e, PromptRaised)]
    assert prompt.command == "death_save" and prompt.params == {"actor": dusty}
    assert "CON +1 − 3 +2 Shootist ≥ 16" in prompt.text
    _refused(f, NextTurn(), "resolve first")


def test_death_save_success_unconscious_with_con_minus_hp_below_zero_plus_shootist():
    """Death save: d20 + CON − 1 per HP below 0 (+2 Shootist) ≥ ST; success: unconscious."""
    f, _dice, dusty, lefty, _ = _shot_down(save_faces=(16,))
    ev, resolved = f.do(DeathSave(actor=dusty))
    assert isinstance(ev, DeathSaveRolled) and isinstance(resolved, PromptResolved)
    assert {m.label: m.value for m in ev.parts} == {"CON": 1, "Shootist vs death": 2, "HP below 0": -3}
    assert (ev.total, ev.st, ev.success) == (16, 16, True)
    assert data(f, dusty).status == "unconscious" and f.state.prompts == ()
    f.do(NextTurn())
    assert f.state.round == 2 and f.state.current == lefty  # the unconscious Dusty is skipped


def test_death_save_failure_is_death():
    f, _dice, dusty, _lefty, _ = _shot_down(save_faces=(15,))
    ev, _ = f.do(DeathSave(actor=dusty))
    assert not ev.success and data(f, dusty).status == "dead"
    _refused(f, DeathSave(actor=dusty), "Dusty is not dying")


def test_a_dismissed_death_save_leaves_the_combatant_unconscious():
    """Ruling: a death save the GM dismisses without a roll leaves the combatant unconscious."""
    f, _dice, dusty, _lefty, _ = _shot_down()
    f.do(DismissPrompt(prompt_id=f"death_save:{dusty}"))
    assert data(f, dusty).status == "unconscious"


def test_minor_npcs_die_at_zero_hp():
    """Ruling: the encounter option "minor NPCs die at 0 HP" skips the save for NPCs marked minor."""
    f, _ = new_fight(15, 3)
    dusty = add_pc(f, "Dusty", weapons="belt pistol")
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=3, minor=True)
    start(f)
    events = f.do(Attack(actor=dusty, target=lefty))
    assert [e.outcome for e in events if isinstance(e, Dropped)] == ["dead"]
    assert f.state.prompts == () and data(f, lefty).status == "dead"


def test_simultaneous_actors_damage_lands_even_if_one_drops():
    """Ties still tied after DEX and level act simultaneously: the dropped one's shot still lands,
    and it still takes that round's turn (but not the next)."""
    f, dice = new_fight()
    dusty = add_pc(f, "Dusty", hp=4, weapons="belt pistol")  # DEX 10, level 1
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=4)  # DEX 10, 1 HD
    (slim,) = add_npc(f, "outlaw", name="Slim", hp=4, important=True)
    start(f, {dusty: 12, lefty: 12, slim: 5})
    assert f.state.ties == ((dusty, lefty),) and f.state.current == dusty
    dice.add(15, 6, 15)
    f.do(Attack(actor=dusty, target=lefty))
    assert data(f, lefty).status == "dying"
    f.do(DeathSave(actor=lefty))  # 15 − 2 < 18: dead
    assert data(f, lefty).status == "dead"
    dice.add(15, 5)
    f.do(Attack(actor=lefty, target=dusty))  # the simultaneous shot lands
    assert data(f, dusty).hp == -1
    dice.add(19)
    f.do(DeathSave(actor=dusty))
    assert data(f, dusty).status == "unconscious"
    f.do(NextTurn())
    assert f.state.current == lefty  # the dead Lefty still has this round's turn
    f.do(NextTurn())
    assert f.state.current == slim
    f.do(NextTurn())
    assert (f.state.round, f.state.current) == (2, slim)  # neither drops' turn comes again


def test_a_dropped_combatant_not_tied_with_its_foe_cannot_shoot_back():
    f, _dice, dusty, lefty, _ = _shot_down(save_faces=(19,))
    f.do(DeathSave(actor=dusty))
    _refused(f, Attack(actor=dusty, target=lefty), "Dusty is unconscious")


# -- saving throws and Lucky Streak -------------------------------------------


def test_saving_throw_with_table_3_attribute_and_class_bonus():
    """Saving throws: d20 + Table 3's attribute modifier + class bonus (Trailblazer +2 vs poison) ≥ ST."""
    f, _ = new_fight(12)
    jed = add_pc(f, "Jed", cls="Trailblazer", con=13)
    (ev,) = f.do(SavingThrow(actor=jed, against="alcohol or poison"))
    assert {m.label: m.value for m in ev.parts} == {"CON": 1, "Trailblazer vs alcohol or poison": 2}
    assert (ev.total, ev.st, ev.success) == (15, 16, False)


def test_gambler_bonus_vs_deception_and_npc_saving_throw_19_minus_hd():
    f, _ = new_fight(11, 16)
    doc = add_pc(f, "Doc", cls="Gambler", wis=16)
    (bear,) = add_npc(f, "black_bear", hp=20)
    ev = f.do(SavingThrow(actor=doc, against="deception"))[0]
    assert ev.total == 11 + 2 + 2 and ev.success
    (ev,) = f.do(SavingThrow(actor=bear, against="falling"))
    assert (ev.st, ev.success) == (16, True)


def test_lucky_streak_rerolls_a_failed_save_and_counts_per_day():
    """Gambler's Lucky Streak re-rolls a failed save 1/2/3/4 times a day at levels 1–3/4–6/7–9/10."""
    f, _ = new_fight(5, 16, 4)
    doc = add_pc(f, "Doc", cls="Gambler")
    events = f.do(SavingThrow(actor=doc, against="falling"))
    assert not events[0].success and f.state.prompts[0].id == f"lucky_streak:{doc}"
    lucky, resolved = f.do(LuckyStreak(actor=doc))
    assert isinstance(lucky, LuckyStreakUsed) and lucky.success and lucky.left == 0
    assert isinstance(resolved, PromptResolved) and f.state.prompts == ()
    assert data(f, doc).lucky_used == 1
    events = f.do(SavingThrow(actor=doc, against="falling"))
    assert len(events) == 1  # no uses left today: no prompt
    _refused(f, LuckyStreak(actor=doc), "re-rolls 1 failed save a day, and Doc has used 1")


def test_lucky_streak_uses_left_by_level():
    f, _ = new_fight(2, 2, 2)
    doc = add_pc(f, "Doc", cls="Gambler", level=4, lucky_used=1, hp=10)
    f.do(SavingThrow(actor=doc))
    (lucky, _res) = f.do(LuckyStreak(actor=doc))
    assert lucky.left == 0 and data(f, doc).lucky_used == 2


def test_lucky_streak_on_a_failed_death_save_brings_the_gambler_back_unconscious():
    f, dice = new_fight()
    doc = add_pc(f, "Doc", cls="Gambler", hp=2)
    (lefty,) = add_npc(f, "outlaw", name="Lefty")
    start(f, {lefty: 15, doc: 10})
    dice.add(15, 3, 4, 18)
    f.do(Attack(actor=lefty, target=doc))
    events = f.do(DeathSave(actor=doc))
    assert data(f, doc).status == "dead" and [p.id for p in f.state.prompts] == [f"lucky_streak:{doc}"]
    assert isinstance(events[-1], PromptRaised)
    lucky, _ = f.do(LuckyStreak(actor=doc))
    assert lucky.against == "death" and lucky.total == 18 - 1 and lucky.success
    assert data(f, doc).status == "unconscious"


def test_lucky_streak_needs_a_gambler_and_a_failed_save():
    f, _ = new_fight()
    doc = add_pc(f, "Doc", cls="Gambler")
    dusty = add_pc(f, "Dusty")
    _refused(f, LuckyStreak(actor=dusty), "Lucky Streak is the Gambler's")
    _refused(f, LuckyStreak(actor=doc), "no failed saving throw")


def test_dismissing_the_lucky_prompt_forfeits_the_reroll():
    """Ruling: dismissing the Lucky Streak prompt accepts the failed save."""
    f, _ = new_fight(2)
    doc = add_pc(f, "Doc", cls="Gambler")
    f.do(SavingThrow(actor=doc))
    f.do(DismissPrompt(prompt_id=f"lucky_streak:{doc}"))
    _refused(f, LuckyStreak(actor=doc), "no failed saving throw")


# -- critters and melee ----------------------------------------------------


def test_critter_makes_each_listed_attack_every_round():
    """Ruling: a stat line listing several attacks ("Claws, Bite") makes each of them every round, 1d6 each."""
    f, dice = new_fight(15, 4, 2)
    jed = add_pc(f, "Jed", cls="Trailblazer", hp=20)
    (bear,) = add_npc(f, "black_bear", hp=20)
    start(f, {bear: 15, jed: 10})
    claws, bite = f.do(CritterAttacks(actor=bear, target=jed))
    assert (claws.weapon, claws.hit, claws.amount, claws.total) == ("claws", True, 4, 18)
    assert (bite.weapon, bite.hit) == ("bite", False)
    _refused(f, CritterAttacks(actor=bear, target=jed), "claws attack this round")
    next_round(f)
    dice.add(2, 2)
    assert len(f.do(CritterAttacks(actor=bear, target=jed))) == 2


def test_hoof_d3_and_an_attack_that_drops_the_target_ends_the_critters_attacks():
    f, dice = new_fight(15, 3)
    jed = add_pc(f, "Jed", cls="Trailblazer", hp=3)
    (donkey,) = add_npc(f, "donkey", hp=5)
    start(f, {donkey: 15, jed: 10})
    (hoof, _drop, _prompt) = f.do(CritterAttacks(actor=donkey, target=jed))
    assert dice.requests[-1].hi == 3 and hoof.amount == 3
    f2, _ = new_fight(15, 6, 1)
    jed2 = add_pc(f2, "Jed", cls="Trailblazer", hp=3)
    (cougar,) = add_npc(f2, "cougar", hp=5)
    start(f2, {cougar: 15, jed2: 10})
    events = f2.do(CritterAttacks(actor=cougar, target=jed2))
    assert isinstance(events[-1], HeldFire) and len(_attacks(events)) == 1


def test_firing_into_a_melee_picks_the_one_struck_at_random():
    """Firing into melee: the tracker picks one at random among those the GM names, and logs the roll."""
    f, dice = new_fight(2, 15, 3)
    dusty = add_pc(f, "Dusty", weapons="belt pistol")
    jed = add_pc(f, "Jed", cls="Trailblazer", hp=10)
    (bear,) = add_npc(f, "black_bear", hp=20)
    start(f)
    events = f.do(Attack(actor=dusty, target=bear, distance=30, into_melee=(jed,)))
    (atk,) = _attacks(events)
    assert atk.intended == bear and atk.target == jed and atk.pick.faces == (2,)
    assert dice.requests[0].hi == 2 and data(f, jed).hp == 6 and data(f, bear).hp == 20
    assert "into the melee at Bear, Black" in atk.describe(f.steps[-1].before)


def test_firing_into_melee_is_for_missiles():
    f, _ = new_fight()
    jed = add_pc(f, "Jed", cls="Trailblazer", weapons="club")
    dusty = add_pc(f, "Dusty")
    (bear,) = add_npc(f, "black_bear")
    start(f)
    _refused(f, Attack(actor=jed, target=bear, into_melee=(dusty,)), "missile attacks")


# -- loyalty --------------------------------------------------------------


def test_loyalty_check_3d6_plus_leader_cha_on_table_15_carries_to_the_next():
    """Loyalty: 3d6 + the leader's CHA loyalty modifier (Table 2), read on Table 15."""
    f, _ = new_fight(2, 2, 1, 4, 4, 4)
    boss = add_pc(f, "Boss", cha=16)
    (scout,) = add_npc(f, "scout")
    (ev,) = f.do(LoyaltyCheck(actor=scout, leader=boss))
    assert (ev.total, ev.result, ev.next_mod) == (7, "-1 on next loyalty check", -1)
    (ev,) = f.do(LoyaltyCheck(actor=scout, leader=boss))
    assert {m.label: m.value for m in ev.parts} == {"Boss's CHA loyalty": 2, "last loyalty check": -1}
    assert (ev.total, ev.result) == (13, "+1 on next loyalty check")
    _refused(f, LoyaltyCheck(actor=boss), "loyalty checks are for NPCs")


@pytest.mark.parametrize(
    "faces, result", [((1, 1, 1), "Traitor"), ((6, 6, 6), "Loyal"), ((3, 3, 4), "Average"), ((6, 6, 4), "+2")]
)
def test_loyalty_table_15(faces, result):
    f, _ = new_fight(*faces)
    (scout,) = add_npc(f, "scout")
    (ev,) = f.do(LoyaltyCheck(actor=scout))
    assert ev.result.startswith(result)


# -- after the fight ------------------------------------------------------


def test_binding_wounds_after_the_fight_1d3_only_hp_lost_in_this_fight():
    """After the fight: binding wounds restores 1d3 HP, only HP lost in this fight, never above maximum."""
    f, dice, dusty, lefty, _ = _shot_down(save_faces=(19,))
    f.do(Adjust(id=lefty, field="hp", value=5))  # hurt before this fight: not lost in it
    _refused(f, BindWounds(actor=dusty), "end the fight first")
    f.do(DeathSave(actor=dusty))
    f.do(EndFight())
    dice.add(3)
    (ev,) = f.do(BindWounds(actor=dusty))
    assert ev.healed == 3 and data(f, dusty).hp == 0 and data(f, dusty).lost == 3
    _refused(f, BindWounds(actor=dusty), "already bound")
    _refused(f, BindWounds(actor=lefty), "lost no HP to lethal damage in this fight")


def test_binding_a_dying_pc_waits_for_the_death_save():
    """Ruling: a PC still dying (its death save open) when the fight ends is not bound: the save comes first, as
    rest says (book l.138, the save "When HP reaches 0"; binding comes "following a battle").  Binding had given
    3 HP back and closed the death save as moot, so the PC never rolled it."""
    f, _dice, dusty, _lefty, _ = _shot_down(save_faces=())
    assert data(f, dusty).status == "dying"
    f.do(EndFight())
    _refused(f, BindWounds(actor=dusty), "Dusty is dying: the death save comes first")
    assert [p.command for p in f.state.prompts] == ["death_save"]


def test_binding_never_restores_more_than_was_lost():
    f, dice = new_fight(15, 1)
    dusty = add_pc(f, "Dusty", weapons="belt pistol")
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=6)
    start(f)
    f.do(Attack(actor=dusty, target=lefty))
    f.do(EndFight())
    dice.add(3)
    (ev,) = f.do(BindWounds(actor=lefty))
    assert ev.healed == 2 and data(f, lefty).hp == 6


# -- GM adjust ----------------------------------------------------------------


def test_gm_adjusts_hp_and_shots():
    f, _ = new_fight()
    dusty = add_pc(f, "Dusty", hp=10, weapons="belt pistol:6")
    f.do(Adjust(id=dusty, field="hp", value=4))
    f.do(Adjust(id=dusty, field="shots:belt pistol", value=2))
    assert data(f, dusty).hp == 4 and data(f, dusty).carried("belt pistol").shots == 2
    _refused(f, Adjust(id=dusty, field="shots:belt pistol", value=9), "above the most allowed")
    _refused(f, Adjust(id=dusty, field="armour", value=1), "no value 'armour'")
    assert Modifier  # the name is used by other tests


def test_temporary_damage_heals_per_hour_and_the_knocked_out_come_to():
    """Ruling: temporary damage heals per hour (1 HP per level/HD an hour); the knocked out come to above 0 HP."""
    from systems.bnb.commands import Recover

    f, _ = new_fight(15, 3)
    doc = add_pc(f, "Doc", cls="Gambler")
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=2)
    start(f)
    f.do(Attack(actor=doc, target=lefty, weapon="fists"))
    assert data(f, lefty).status == "knocked out" and data(f, lefty).hp == -1
    f.do(EndFight())
    (ev,) = f.do(Recover(actor=lefty, hours=1))
    assert (ev.healed, ev.woke) == (1, False) and data(f, lefty).hp == 0
    (ev,) = f.do(Recover(actor=lefty, hours=5))
    assert (ev.healed, ev.woke) == (2, True) and data(f, lefty).status == "ok" and data(f, lefty).hp == 2
    _refused(f, Recover(actor=lefty), "no temporary damage")


def test_npc_weapon_plus_one_is_to_hit_and_damage():
    """Ruling: the Gunfighter's "Pistol +1" is a belt pistol at +1 to hit and damage; "Pistol" is a belt pistol."""
    f, _ = new_fight(10, 3)
    dusty = add_pc(f, "Dusty", hp=12)
    (gun,) = add_npc(f, "gunfighter")
    start(f, {gun: 15, dusty: 10})
    (_shot, atk) = f.do(Attack(actor=gun, target=dusty, distance=40))
    assert {m.label: m.value for m in atk.parts} == {"to-hit": 1, "belt pistol (stat line)": 1, "short range": 2}
    assert atk.weapon == "belt pistol" and atk.amount == 3 + 1 and data(f, dusty).hp == 8


def test_a_pc_without_a_class_is_a_shootist_by_default():
    from tracker import AddCombatant

    f, _ = new_fight()
    f.do(AddCombatant(name="Kid", kind="pc", sheet={"hp": 5}))
    assert data(f, "c1").cls == "Shootist"


def test_the_death_saves_hp_penalty_counts_temporary_damage():
    """Ruling: the death save's −1 per HP below 0 counts temporary damage too: 2 temporary then 3 lethal
    on 3 HP leaves −2 HP, so the death save takes −2."""
    from tracker import Damage

    f, _ = new_fight(18)
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=3)
    f.do(Damage(targets=(lefty,), amount="2", temporary=True))
    f.do(Damage(targets=(lefty,), amount="3"))
    assert (data(f, lefty).temp, data(f, lefty).damage, data(f, lefty).status) == (2, 3, "dying")
    ev, _resolved = f.do(DeathSave(actor=lefty))
    assert {m.label: m.value for m in ev.parts} == {"CON": 0, "HP below 0": -2} and ev.total == 16


def test_a_death_save_asked_says_the_hp_after_a_gm_adjust_while_dying():
    """Set to -5 HP while dying, the prompt and its "Resolved" line kept "at 0 HP … − 0" while the roll took −5:
    the log contradicted itself about why the Hero died."""
    f, dice = new_fight()
    hero = add_pc(f, "Hero", hp=4)
    f.do(Damage(targets=(hero,), amount="4"))
    assert "at 0 HP" in f.state.prompts[0].text
    f.do(Adjust(id=hero, field="hp", value=-5))
    (p,) = f.state.prompts
    assert p.kind == "death_save" and "at -5 HP" in p.text and "− 5" in p.text, p.text
    dice.add(20)
    f.do(DeathSave(actor=hero))
    lines = [e.event.describe(f.log.state_at(i)) for i, e in enumerate(f.entries)]
    assert not any("at 0 HP" in x for x in lines[-3:]), lines[-3:]


def test_a_failed_death_save_with_a_lucky_streak_left_says_the_re_roll_may_save():
    """The log said "dies" while the Lucky Streak re-roll was offered: a GM could strike the Gambler off."""
    f, dice = new_fight()
    gamb = add_pc(f, "Gamb", cls="Gambler", level=4, hp=5)
    f.do(Damage(targets=(gamb,), amount="5"))
    dice.add(2)
    events = f.do(DeathSave(actor=gamb))
    rolled = next(e for e in events if isinstance(e, DeathSaveRolled))
    i = next(n for n, e in enumerate(f.entries) if e.event is rolled)
    assert rolled.describe(f.log.state_at(i)).endswith("fails: dies unless a Lucky Streak re-rolls it")
    assert [p.kind for p in f.state.prompts] == ["lucky_streak"]


def test_binding_refused_for_fist_damage_says_it_is_temporary():
    """Refused for one whose losses were all fists' damage, the refusal said "lost no HP": it lost 5 as
    temporary damage, which heals by the hour."""
    f, _dice = new_fight(15, 3)
    jed = add_pc(f, "Jed", cls="Trailblazer")
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=10)
    start(f)
    f.do(Attack(actor=jed, target=lefty, weapon="fists"))
    f.do(EndFight())
    _refused(f, BindWounds(actor=lefty), "lost no HP to lethal damage in this fight")
    _refused(f, BindWounds(actor=lefty), "temporary damage heals by the hour")


def test_binding_wounds_above_0_hp_wakes_as_healing_does():
    """Wes went from -1 to 1 HP by binding his wounds and stayed "unconscious" (quick healing and rest woke)."""
    f, dice, dusty, _lefty, _ = _shot_down(save_faces=(19,))
    f.do(DeathSave(actor=dusty))  # survives, unconscious
    f.do(EndFight())
    f.do(Adjust(id=dusty, field="hp", value=-1))
    assert data(f, dusty).status == "unconscious"
    dice.add(3)
    (ev,) = f.do(BindWounds(actor=dusty))
    assert ev.healed == 3 and data(f, dusty).hp == 2
    assert ev.revived and data(f, dusty).status == "ok" and "back on its feet" in ev.describe(f.state)
    f.undo()
    assert data(f, dusty).status == "unconscious"


def test_a_gambler_whose_death_save_a_lucky_streak_may_re_roll_stands_dying_until_it_is_settled() -> None:
    """The row, the detail and the players' view said "dead" while the re-roll was offered (a GM could strike the
    Gambler off; the players saw him die and come back). Ruling: until the offer is taken or dismissed he stands
    "dying" (out of the fight: no turn); the roll itself recorded "dead", and dismissing the offer leaves him so."""
    f, dice = new_fight()
    gamb = add_pc(f, "Gamb", cls="Gambler", level=4, hp=5)
    f.do(Damage(targets=(gamb,), amount="5"))
    dice.add(2)
    f.do(DeathSave(actor=gamb))
    c = f.state.find(gamb)
    assert c is not None and data(f, gamb).status == "dead"
    assert f.system.standing(f.state, c) == Standing(word="dying", out=True)
    assert "unless a Lucky Streak re-roll" in f.system.detail(f.state, c).splitlines()[0]
    f.do(DismissPrompt(prompt_id=f"lucky_streak:{gamb}"))
    c = f.state.find(gamb)
    assert c is not None and f.system.standing(f.state, c) == Standing(word="dead", out=True)
    assert f.system.detail(f.state, c).splitlines()[0] == "Dead."


def test_a_lucky_streak_offered_for_another_save_changes_no_standing() -> None:
    """Only the death save's re-roll can undo a death: the offer after any other failed save leaves the word
    as the HP say."""
    f, dice = new_fight()
    gamb = add_pc(f, "Gamb", cls="Gambler", level=4, hp=5)
    dice.add(2)
    f.do(SavingThrow(actor=gamb))
    assert [p.kind for p in f.state.prompts] == ["lucky_streak"]
    c = f.state.find(gamb)
    assert c is not None and f.system.standing(f.state, c).word == ""


def test_a_dying_combatant_the_gm_sets_above_0_hp_is_back_on_its_feet() -> None:
    """The GM set the dying Scout from -3 to 2 HP: it stayed "dying", its death save re-worded "Scout is at 2 HP:
    save vs death" (p would roll it, and could kill it). Above 0 HP it is back on its feet, as healing does, and
    the death save is moot; undo puts the save back."""
    from systems.bnb.events import Revived

    f, _ = new_fight()
    scout = add_pc(f, "Scout", hp=4)
    f.do(Damage(targets=(scout,), amount="7"))
    assert data(f, scout).status == "dying" and [p.kind for p in f.state.prompts] == ["death_save"]
    events = f.do(Adjust(id=scout, field="hp", value=2))
    assert data(f, scout).status == "ok" and data(f, scout).hp == 2 and f.state.prompts == ()
    (back,) = [e for e in events if isinstance(e, Revived)]
    assert back.describe(f.state) == "Scout is above 0 HP again: back on their feet, no death save"
    f.undo()
    assert data(f, scout).status == "dying" and [p.kind for p in f.state.prompts] == ["death_save"]
