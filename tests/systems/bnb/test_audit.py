"""Blood & Bullets: gaps found in the audit, each as a scenario with scripted dice."""

from __future__ import annotations

import pytest

from systems.bnb import system
from systems.bnb.commands import Attack, Blast, DeathSave, GunPlay, LuckyStreak, Reload, SavingThrow
from systems.bnb.events import AttackRolled, DeathSaveRolled, SaveRolled
from tracker import Adjust, NextTurn, Refused
from tracker.events import PromptRaised, PromptResolved

from .helpers import add_npc, add_pc, data, new_fight, next_round, start


def _refused(f, command, words):
    n, state = len(f.entries), f.state
    with pytest.raises(Refused, match=words):
        f.do(command)
    assert len(f.entries) == n and f.state == state


# -- the surprise round ---------------------------------------------------------


def test_only_the_side_granted_surprise_acts_in_the_surprise_round():
    """Ruling: the surprise round is for the side granted it; the surprised make no attack,
    Gun-play, blast or reload until round 1."""
    f, dice = new_fight()
    doc = add_pc(f, "Doc", cls="Gambler", weapons="derringer")
    dusty = add_pc(f, "Dusty", weapons="belt pistol:5, scattergun")
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=12)
    start(f, surprise=(doc,))
    assert f.state.round == 0
    _refused(f, Attack(actor=lefty, target=doc), "surprise round is for Doc: Lefty is caught by surprise")
    _refused(f, Attack(actor=dusty, target=lefty), "surprise round is for Doc: Dusty")
    _refused(f, GunPlay(actor=dusty, targets=(lefty,)), "surprise round is for Doc")
    _refused(f, Blast(actor=dusty, targets=(lefty,)), "surprise round is for Doc")
    _refused(f, Reload(actor=dusty), "surprise round is for Doc")
    dice.add(2)
    (_shot, miss) = f.do(Attack(actor=doc, target=lefty))
    assert isinstance(miss, AttackRolled) and miss.actor == doc
    f.do(NextTurn())
    assert f.state.round == 1
    while f.state.current != lefty:  # NPCs act on their own turn
        f.do(NextTurn())
    dice.add(2)
    assert _attacks(f.do(Attack(actor=lefty, target=doc)))[0].actor == lefty


def _attacks(events):
    return [e for e in events if isinstance(e, AttackRolled)]


# -- one weapon a round -----------------------------------------------------------


def test_a_combatant_attacks_with_one_weapon_a_round():
    """Ruling: a combatant attacks with one weapon a round, at its rate of fire; firing a second gun
    (or swinging a club after a shot) in the same round is refused, and it comes back next round."""
    f, dice = new_fight()
    dusty = add_pc(f, "Dusty", level=2, weapons="belt pistol:6, belt pistol:6, horse pistol, club")
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=30)
    start(f)
    dice.add(2, 2)
    f.do(Attack(actor=dusty, target=lefty, weapon="belt pistol", distance=20))
    f.do(Attack(actor=dusty, target=lefty, weapon="belt pistol", distance=20))
    rule = "Dusty has attacked with the belt pistol this round: one weapon a round"
    _refused(f, Attack(actor=dusty, target=lefty, weapon="belt pistol 2", distance=20), rule)
    _refused(f, Attack(actor=dusty, target=lefty, weapon="horse pistol", distance=20), rule)
    _refused(f, Attack(actor=dusty, target=lefty, weapon="club"), rule)
    next_round(f)
    dice.add(2)
    (_shot, ev) = f.do(Attack(actor=dusty, target=lefty, weapon="horse pistol", distance=20))
    assert ev.weapon == "horse pistol"
    assert data(f, dusty).used == ("horse pistol",)


def test_the_gm_can_clear_the_rounds_action_by_an_adjustment():
    """Every automatic limit can be overridden: adjusting "acted" to no lets a second weapon fire;
    adjusting it to yes marks the round's action as taken."""
    f, dice = new_fight()
    dusty = add_pc(f, "Dusty", weapons="belt pistol:6, scattergun")
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=30)
    start(f)
    dice.add(2)
    f.do(Attack(actor=dusty, target=lefty, distance=20))
    assert data(f, dusty).acted
    f.do(Adjust(id=dusty, field="acted", value="no"))
    assert not data(f, dusty).acted and data(f, dusty).used == ()
    dice.add(2)
    f.do(Attack(actor=dusty, target=lefty, weapon="scattergun", distance=20))
    while f.state.current != lefty:  # NPCs act on their own turn
        f.do(NextTurn())
    f.do(Adjust(id=lefty, field="acted", value="yes"))
    _refused(f, Attack(actor=lefty, target=dusty, distance=20), "Lefty has taken the round's action")
    f.undo()
    assert not data(f, lefty).acted


# -- GM adjustments -----------------------------------------------------------------


def test_gm_adjust_fields_fit_the_combatant_and_log_the_old_shots():
    """Lucky Streaks used are a Gambler's, at most the day's allowance; "minor" is an NPC's;
    a gun's shots adjustment logs the old count."""
    f, _ = new_fight()
    doc = add_pc(f, "Doc", cls="Gambler", level=4, weapons="derringer:2")
    dusty = add_pc(f, "Dusty", weapons="belt pistol:6")
    (lefty,) = add_npc(f, "outlaw", name="Lefty")
    fields = {c.id: [p.name for p in system.adjustable(f.state, c)] for c in f.state.combatants}
    assert "lucky_used" in fields[doc] and "lucky_used" not in fields[dusty] + fields[lefty]
    assert "minor" in fields[lefty] and "minor" not in fields[doc] + fields[dusty]
    _refused(f, Adjust(id=doc, field="lucky_used", value=3), "above the most allowed, 2")
    _refused(f, Adjust(id=dusty, field="lucky_used", value=1), "no value 'lucky_used'")
    (ev,) = f.do(Adjust(id=dusty, field="shots:belt pistol", value=2))
    assert (ev.old, ev.value) == (6, 2)
    assert "6 → 2" in ev.describe(f.steps[-1].before)


# -- saves and prompts ------------------------------------------------------------


def test_a_new_save_accepts_an_open_lucky_streak_offer():
    """Ruling: rolling another save while the Lucky Streak offer is open accepts the earlier failure;
    the offer does not linger and block the turn."""
    f, _ = new_fight(2, 19)
    doc = add_pc(f, "Doc", cls="Gambler")
    f.do(SavingThrow(actor=doc, against="falling"))
    assert [p.id for p in f.state.prompts] == [f"lucky_streak:{doc}"]
    resolved, save = f.do(SavingThrow(actor=doc, against="drowning"))
    assert isinstance(resolved, PromptResolved) and resolved.prompt_id == f"lucky_streak:{doc}"
    assert isinstance(save, SaveRolled) and save.success
    assert f.state.prompts == () and data(f, doc).last_save is None and data(f, doc).lucky_used == 0
    _refused(f, LuckyStreak(actor=doc), "no failed saving throw")


def test_a_death_save_without_an_open_prompt_resolves_nothing():
    """Ruling: a death save rolled for a combatant the GM set to "dying" by hand logs no stray
    "Resolved" line."""
    f, _ = new_fight(15)
    dusty = add_pc(f, "Dusty", hp=10)
    f.do(Adjust(id=dusty, field="status", value="dying"))
    events = f.do(DeathSave(actor=dusty))
    assert [type(e) for e in events] == [DeathSaveRolled]
    assert events[0].success and data(f, dusty).status == "unconscious"
    assert not any(isinstance(e, (PromptRaised, PromptResolved)) for e in events)


# -- log lines ------------------------------------------------------------------------


def test_log_lines_show_the_half_damage_save_and_the_least_damage():
    """The scattergun's save for half names who saves, the DEX modifier and the ST; a hit that rolls
    below 1 says it deals at least 1."""
    f, _dice = new_fight(15, 3, 4, 18, 12, 1)
    jed = add_pc(f, "Jed", cls="Trailblazer", weapons="scattergun, knife")
    (o1,) = add_npc(f, "outlaw", name="Lefty", hp=10, dex=13)
    doc = add_pc(f, "Doc", cls="Gambler", weapons="knife")
    start(f, {jed: 20, doc: 19, o1: 10})
    (a1,) = _attacks(f.do(Blast(actor=jed, targets=(o1,), distance=40)))
    line = a1.describe(f.steps[-1].before)
    assert (a1.save_total, a1.save_st, a1.saved, a1.amount) == (19, 18, True, 3)
    assert "Lefty saves for half: 1d20 [18] = 18 (DEX +1) = 19 vs ST 18: half" in line
    f.do(NextTurn())  # Doc's turn
    (a2,) = _attacks(f.do(Attack(actor=doc, target=o1, weapon="knife")))
    assert a2.amount == 1 and "hit for 1 damage (1d6-1 [1] = 0, at least 1)" in a2.describe(f.steps[-1].before)


def test_a_critters_listed_attack_reaches_only_5_ft():
    """A critter's bite or claws is a melee attack: a target beyond 5 ft is out of reach, nothing logged."""
    f, dice = new_fight()
    jed = add_pc(f, "Jed", cls="Trailblazer", hp=20)
    (wolf,) = add_npc(f, "wolf", name="Wolf", hp=8)
    start(f, {wolf: 15, jed: 10})
    _refused(f, Attack(actor=wolf, target=jed, weapon="bite", distance=30), "bite is a melee attack: Jed at 30 ft")
    dice.add(15, 3)
    (ev,) = f.do(Attack(actor=wolf, target=jed, weapon="bite", distance=5))
    assert ev.hit and ev.amount == 3 and data(f, jed).hp == 17


def test_setting_hp_heals_temporary_damage_first_and_never_makes_lethal_damage_negative():
    """Ruling: HP the GM sets above the current value come off temporary damage first; lethal damage
    never goes below 0."""
    f, _ = new_fight()
    dusty = add_pc(f, "Dusty", hp=10)
    f.do(Adjust(id=dusty, field="temp", value=4))
    f.do(Adjust(id=dusty, field="hp", value=4))
    assert (data(f, dusty).damage, data(f, dusty).temp, data(f, dusty).hp) == (2, 4, 4)
    f.do(Adjust(id=dusty, field="hp", value=8))
    assert (data(f, dusty).damage, data(f, dusty).temp, data(f, dusty).hp) == (0, 2, 8)
    f.do(Adjust(id=dusty, field="hp", value=-2))
    assert (data(f, dusty).damage, data(f, dusty).temp, data(f, dusty).hp) == (10, 2, -2)


def test_gunfighters_are_important_and_roll_alone_even_as_a_group():
    """Ruling (presets): the Gunfighter is an important NPC — two added as a group roll d20+1 each."""
    from tracker import RollInitiative

    f, dice = new_fight()
    g1, g2 = add_npc(f, "gunfighter", count=2)
    o1, o2 = add_npc(f, "outlaw", count=2)
    dice.add(5, 12, 9)
    f.do(RollInitiative())
    inits = {c.id: c.initiative for c in f.state.combatants}
    assert (inits[g1], inits[g2], inits[o1], inits[o2]) == (6, 13, 9, 9)
    assert data(f, g1).important and not data(f, o1).important


def test_npcs_act_on_their_own_turn_but_pcs_may_act_later_in_the_round():
    """Ruling: NPCs may not withhold their action, so an NPC's attack out of its turn is refused
    (those tied with the current combatant act at the same time); a PC whose turn has come may act
    at any later moment of the round, interrupting, as the book allows."""
    f, dice = new_fight()
    dusty = add_pc(f, "Dusty", weapons="belt pistol:6")
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=30)
    start(f)
    assert f.state.current == dusty
    _refused(f, Attack(actor=lefty, target=dusty, distance=20), "NPCs act on their own turn")
    f.do(NextTurn())
    assert f.state.current == lefty
    dice.add(2)
    assert _attacks(f.do(Attack(actor=dusty, target=lefty, distance=20)))[0].actor == dusty
