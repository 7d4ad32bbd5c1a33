"""Blood & Bullets, second pass of the rules (issue #16): each scenario quotes the book and failed on the old code."""

from __future__ import annotations

import pytest

from systems.bnb import system
from systems.bnb.commands import Attack, Blast, DeathSave, LuckyStreak, Reload, SavingThrow
from systems.bnb.events import AttackRolled, LuckyStreakUsed
from tracker import Delay, DismissPrompt, NextTurn, Refused, SetInitiative
from tracker.plugin import FIT

from .helpers import add_npc, add_pc, data, new_fight, start


def _refused(f, command, words):
    n, state = len(f.entries), f.state
    with pytest.raises(Refused, match=words):
        f.do(command)
    assert len(f.entries) == n and f.state == state


def _attacks(events):
    return [e for e in events if isinstance(e, AttackRolled)]


# -- 1. an NPC attacks at its HD, never its DEX ----------------------------------------------


def test_an_npc_attacks_at_its_hd_never_its_dex():
    """Book: "the monster's normal 'to-hit' bonus is equal to its hit dice (capped at +15)".
    An Outlaw (1 HD) with DEX 18 shoots at short range: d20 6 + to-hit 1 + short range 2 = 9 < DC 10,
    a miss (the old code added DEX +3 and hit)."""
    f, dice = new_fight()
    dusty = add_pc(f, "Dusty", weapons="belt pistol")  # DEX 10, level 1: DC 10
    (lefty,) = add_npc(f, "outlaw", name="Lefty", dex=18)
    start(f, {lefty: 18, dusty: 10})
    dice.add(6)
    (atk,) = _attacks(f.do(Attack(actor=lefty, target=dusty, distance=20)))
    assert {m.label: m.value for m in atk.parts} == {"to-hit": 1, "short range": 2}
    assert (atk.total, atk.dc, atk.hit) == (9, 10, False) and data(f, dusty).hp == 10


def test_an_npcs_dex_still_breaks_initiative_ties_and_counts_in_its_dex_saves():
    """An NPC's DEX breaks initiative ties and counts in its DEX saves (rules npc_no_dex, critter_save)."""
    f, dice = new_fight()
    (quick,) = add_npc(f, "outlaw", name="Quick", dex=18, important=True)
    (gun,) = add_npc(f, "gunfighter")  # 1+1 HD, DEX 10
    f.do(SetInitiative(values={quick: 10, gun: 10}))
    assert f.state.order[:2] == (quick, gun)  # DEX before HD
    dice.add(14)
    (ev,) = f.do(SavingThrow(actor=quick, against="falling"))
    assert {m.label: m.value for m in ev.parts} == {"DEX": 3} and ev.total == 17


def test_an_npc_with_a_class_attacks_as_that_class():
    """An NPC built from the class tables (a levelled gunslinger) adds DEX to missile attacks like a PC."""
    f, dice = new_fight()
    dusty = add_pc(f, "Dusty", weapons="belt pistol")
    (kid,) = add_npc(f, "outlaw", name="Kid", cls="Shootist", level=1, dex=16, weapons="belt pistol")
    start(f, {kid: 18, dusty: 10})
    dice.add(6, 3)
    (atk,) = _attacks(f.do(Attack(actor=kid, target=dusty, distance=20)))
    assert {m.label: m.value for m in atk.parts} == {"to-hit": 0, "DEX": 2, "Sure Shot": 1, "short range": 2}
    assert (atk.total, atk.hit, atk.amount) == (11, True, 3 + 1)


def test_the_npc_dex_field_says_what_it_is_for():
    (dex,) = [p for p in system.sheet_fields("npc") if p.name == "dex"]
    assert "initiative" in dex.label and "save" in dex.label
    assert "never in attacks" in dex.help


# -- 2. Lucky Streak re-rolls any failed save, the scattergun's too -------------------------------


def _blasted(doc_hp: int, save: int):
    """Jed (Trailblazer, level 1) blasts Doc (Gambler, ST 15) at 40 ft: hit, 4+5 = 9 damage, Doc's save rolls ``save``."""
    f, dice = new_fight()
    jed = add_pc(f, "Jed", cls="Trailblazer", weapons="scattergun")
    doc = add_pc(f, "Doc", cls="Gambler", hp=doc_hp)
    start(f, {jed: 20, doc: 10})
    dice.add(15, 4, 5, save)
    events = f.do(Blast(actor=jed, targets=(doc,), distance=40))
    return f, dice, doc, events


def test_lucky_streak_rerolls_a_failed_scattergun_save_for_half_damage():
    """Book: "Gamblers can re-roll any failed saving throw"; a scattergun beyond 30 ft: targets "get to make a
    save (DEX mod applies) for half damage". Doc fails (3 < 15) and takes 9; the re-roll (16) succeeds and
    replaces it: half damage, 4, so 5 HP come back (the old code: "has no failed saving throw to re-roll")."""
    f, dice, doc, events = _blasted(doc_hp=10, save=3)
    (atk,) = _attacks(events)
    assert (atk.saved, atk.amount) == (False, 9) and data(f, doc).hp == 1
    assert [p.id for p in f.state.prompts] == [f"lucky_streak:{doc}"]
    assert "scattergun" in f.state.prompts[0].text
    dice.add(16)
    lucky, _resolved = f.do(LuckyStreak(actor=doc))
    assert isinstance(lucky, LuckyStreakUsed) and lucky.success and lucky.restored == 9 - 4
    assert lucky.against == "scattergun (half damage)" and {m.label for m in lucky.parts} == {"DEX"}
    assert data(f, doc).hp == 10 - 4 and data(f, doc).lucky_used == 1 and f.state.prompts == ()
    assert "half damage, 5 HP back" in lucky.describe(f.state)


def test_a_lucky_reroll_that_lifts_the_gambler_above_0_hp_undoes_the_fall():
    """The re-roll's outcome replaces the first: Doc (6 HP) took the full 9 and fell to -3 (dying, a death save
    due); the re-rolled save succeeds, so he took only 4 and stands at 2 HP, no death save."""
    f, dice, doc, _ = _blasted(doc_hp=6, save=3)
    assert data(f, doc).status == "dying"
    assert {p.kind for p in f.state.prompts} == {"death_save", "lucky_streak"}
    dice.add(15)
    events = f.do(LuckyStreak(actor=doc))
    assert events[0].revived and data(f, doc).hp == 2 and data(f, doc).status == "ok"
    assert f.state.prompts == () and system.standing(f.state, f.state.get(doc)) == FIT
    _refused(f, DeathSave(actor=doc), "Doc is not dying")


def test_a_lucky_reroll_that_fails_again_keeps_the_full_damage():
    f, dice, doc, _ = _blasted(doc_hp=10, save=3)
    dice.add(14)  # 14 < 15: failed again
    lucky, _resolved = f.do(LuckyStreak(actor=doc))
    assert not lucky.success and lucky.restored == 0 and data(f, doc).hp == 1
    assert f.state.prompts == () and data(f, doc).lucky_used == 1


def test_rolling_the_death_save_accepts_the_failed_scattergun_save():
    """Ruling: another save while the Lucky Streak offer is open accepts the earlier failure."""
    f, dice, doc, _ = _blasted(doc_hp=6, save=3)
    dice.add(19)
    f.do(DeathSave(actor=doc))
    assert data(f, doc).status == "unconscious" and f.state.prompts == ()
    _refused(f, LuckyStreak(actor=doc), "no failed saving throw")


def test_a_gambler_without_uses_left_is_offered_no_reroll():
    f, dice = new_fight()
    jed = add_pc(f, "Jed", cls="Trailblazer", weapons="scattergun")
    doc = add_pc(f, "Doc", cls="Gambler", hp=10, lucky_used=1)
    start(f, {jed: 20, doc: 10})
    dice.add(15, 4, 5, 3)
    f.do(Blast(actor=jed, targets=(doc,), distance=40))
    assert f.state.prompts == ()
    _refused(f, LuckyStreak(actor=doc), "has used 1")


def test_a_dismissed_lucky_offer_after_a_blast_keeps_the_full_damage():
    f, _dice, doc, _ = _blasted(doc_hp=10, save=3)
    f.do(DismissPrompt(prompt_id=f"lucky_streak:{doc}"))
    assert data(f, doc).hp == 1
    _refused(f, LuckyStreak(actor=doc), "no failed saving throw")


# -- 3a. a PC holds and acts later, never before it is due ---------------------------------------


def test_a_pc_cannot_act_before_its_place_in_the_order():
    """Book: individuals "can withhold their initiative and wait for an opportunity to act at any time after
    they were due to act", "until any time later in the combat round". Dusty (15) cannot shoot during the
    Outlaw's turn (18); on his own turn he may hold, and then shoot during Slim's turn (10)."""
    f, dice = new_fight()
    dusty = add_pc(f, "Dusty", weapons="belt pistol")
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=30)
    (slim,) = add_npc(f, "outlaw", name="Slim", hp=30, important=True)
    start(f, {lefty: 18, dusty: 15, slim: 10})
    assert f.state.current == lefty
    _refused(f, Attack(actor=dusty, target=lefty, distance=20), "Dusty \\(initiative 15\\) is not due yet")
    _refused(f, Reload(actor=dusty), "not due yet")
    f.do(NextTurn())
    f.do(Delay())
    assert f.state.current == slim and f.state.get(dusty).held
    dice.add(2)
    (atk,) = _attacks(f.do(Attack(actor=dusty, target=slim, distance=20)))
    assert atk.actor == dusty


def test_a_held_action_ends_with_the_round():
    """Book: "until any time later in the combat round": in the next round Dusty waits for his place again."""
    f, _dice = new_fight()
    dusty = add_pc(f, "Dusty", weapons="belt pistol")
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=30)
    start(f, {lefty: 18, dusty: 15})
    f.do(NextTurn())
    f.do(NextTurn())  # round 2, Lefty's turn: Dusty passed his turn in round 1 without acting
    assert (f.state.round, f.state.current) == (2, lefty)
    _refused(f, Attack(actor=dusty, target=lefty, distance=20), "not due yet")
