"""Blood & Bullets quick damage and healing, and GM adjusts that cross 0 HP (issue #12): the same harm path as a blow."""

from __future__ import annotations

import pytest

from systems.bnb import system
from systems.bnb.commands import Attack, DeathSave
from systems.bnb.events import DeathSaveWaived, Dropped, HpHealed, HpLost
from tracker import Adjust, Damage, DismissPrompt, Heal, NextTurn, Refused, RemoveCombatant
from tracker.commands import BOOL
from tracker.events import PromptRaised, PromptResolved

from .helpers import add_npc, add_pc, data, new_fight, start


def _refused(f, command, words):
    n, state = len(f.entries), f.state
    with pytest.raises(Refused, match=words):
        f.do(command)
    assert len(f.entries) == n and f.state == state


def _prompts(events):
    return [e.prompt for e in events if isinstance(e, PromptRaised)]


def _drops(events):
    return [e.outcome for e in events if isinstance(e, Dropped)]


# -- quick damage -----------------------------------------------------------------------------


def test_quick_damage_crossing_0_hp_raises_the_same_death_save_as_an_attack():
    """Quick damage crosses 0 HP exactly as a blow does: dying, and the same death-save prompt."""
    f, dice = new_fight()
    dusty = add_pc(f, "Dusty", hp=3, con=13, weapons="belt pistol")
    jed = add_pc(f, "Jed", cls="Trailblazer", hp=3, con=13)
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=6)
    start(f, {lefty: 18, dusty: 10, jed: 5})
    dice.add(15, 6)
    shot = f.do(Attack(actor=lefty, target=dusty, distance=20))
    quick = f.do(Damage(targets=(jed,), amount="6"))
    assert _drops(shot) == _drops(quick) == ["dying"]
    (by_shot,), (by_quick,) = _prompts(shot), _prompts(quick)
    assert (by_quick.kind, by_quick.command, by_quick.params) == (by_shot.kind, "death_save", {"actor": jed})
    assert "save vs death (d20 + CON +1 − 3" in by_quick.text
    assert data(f, jed).hp == -3 and data(f, jed).lost == 6
    _refused(f, NextTurn(), "resolve first")


def test_quick_damage_takes_sums_and_dice_and_logs_the_faces():
    f, dice = new_fight()
    dusty = add_pc(f, "Dusty", hp=20)
    (ev,) = f.do(Damage(targets=(dusty,), amount="3+4"))
    assert isinstance(ev, HpLost) and ev.amount == 7 and data(f, dusty).hp == 13
    dice.add(2, 5)
    (ev,) = f.do(Damage(targets=(dusty,), amount="2d6+1", note="fell off the roof"))
    assert ev.amount == 8 and ev.roll.faces == (2, 5) and data(f, dusty).hp == 5
    line = ev.describe(f.state)
    assert "2d6+1 [2,5] = 8" in line and "fell off the roof" in line


def test_a_quick_amount_typed_as_a_number_is_said_once_in_the_log():
    """Ruling (as twod6's wounds): a plain number is not repeated after the line that says it; a sum or dice
    still show how the amount came."""
    f, _ = new_fight()
    dusty = add_pc(f, "Dusty", hp=20)
    (ev,) = f.do(Damage(targets=(dusty,), amount="2"))
    assert ev.describe(f.state) == "Dusty loses 2 HP"
    (ev,) = f.do(Damage(targets=(dusty,), amount="3+4"))
    assert ev.describe(f.state) == "Dusty loses 7 HP: 3+4 = 7"
    (ev,) = f.do(Heal(targets=(dusty,), amount="2"))
    assert ev.describe(f.state) == "Dusty regains 2 HP (2 lethal)"
    (ev,) = f.do(Heal(targets=(dusty,), amount="20"))
    assert ev.describe(f.state) == "Dusty regains 7 HP (7 lethal; 20 given, capped at max HP 20: now 20/20)"


def test_quick_temporary_damage_knocks_out_with_no_death_save():
    """Temporary damage (fists) that brings HP to 0 or below knocks out: no death save."""
    f, _ = new_fight()
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=4)
    events = f.do(Damage(targets=(lefty,), amount="5", temporary=True))
    assert _drops(events) == ["knocked out"] and _prompts(events) == []
    d = data(f, lefty)
    assert (d.temp, d.damage, d.hp, d.status) == (5, 0, -1, "knocked out")


def test_quick_damage_kills_a_minor_npc_at_0_hp():
    """Ruling: the encounter option "minor NPCs die at 0 HP" skips the save for NPCs marked minor."""
    f, _ = new_fight()
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=4, minor=True)
    events = f.do(Damage(targets=(lefty,), amount="4"))
    assert _drops(events) == ["dead"] and _prompts(events) == [] and data(f, lefty).status == "dead"


def test_quick_damage_to_three_targets_is_one_undo_step():
    f, _ = new_fight()
    gang = add_npc(f, "outlaw", count=3, hp=5)
    before, steps = f.state, len(f.steps)
    events = f.do(Damage(targets=tuple(gang), amount="5"))
    assert len(f.steps) == steps + 1
    assert _drops(events) == ["dying"] * 3 and len(f.state.prompts) == 3
    f.undo()
    assert f.state == before


def test_quick_damage_is_refused_for_the_dead_and_for_a_negative_amount():
    f, _ = new_fight()
    dusty = add_pc(f, "Dusty", hp=10)
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=4)
    f.do(Adjust(id=lefty, field="status", value="dead"))
    _refused(f, Damage(targets=(dusty, lefty), amount="3"), "Lefty is already dead")
    _refused(f, Damage(targets=(dusty,), amount="-3"), "use Heal")
    _refused(f, Damage(targets=(dusty,), amount="lots"), "not an amount")


def test_a_lethal_quick_damage_after_a_knockout_asks_for_a_death_save():
    f, _ = new_fight()
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=4)
    f.do(Damage(targets=(lefty,), amount="4", temporary=True))
    events = f.do(Damage(targets=(lefty,), amount="1"))
    assert _drops(events) == ["dying"] and data(f, lefty).status == "dying"


def test_the_damage_form_asks_hp_lost_and_temporary():
    amount, temporary = system.harm_params(heal=False)
    assert (amount.name, amount.label) == ("amount", "HP lost")
    assert (temporary.name, temporary.kind, temporary.default) == ("temporary", BOOL, False)
    (heal,) = system.harm_params(heal=True)
    assert (heal.name, heal.label) == ("amount", "HP regained")


# -- quick healing ------------------------------------------------------------------------------


def test_quick_heal_restores_temporary_damage_first_and_never_above_maximum():
    """Ruling: temporary damage heals first, then lethal; never above the maximum; healed lethal HP are
    no longer lost in this fight."""
    f, _ = new_fight()
    dusty = add_pc(f, "Dusty", hp=12)
    f.do(Damage(targets=(dusty,), amount="5"))
    f.do(Damage(targets=(dusty,), amount="3", temporary=True))
    (ev,) = f.do(Heal(targets=(dusty,), amount="4"))
    assert isinstance(ev, HpHealed) and (ev.temporary, ev.lethal) == (3, 1)
    d = data(f, dusty)
    assert (d.temp, d.damage, d.lost, d.hp) == (0, 4, 4, 8)
    (ev,) = f.do(Heal(targets=(dusty,), amount="10"))
    assert (ev.temporary, ev.lethal) == (0, 4) and data(f, dusty).hp == 12 and data(f, dusty).lost == 0
    with pytest.raises(Refused, match="already at full HP"):
        f.do(Heal(targets=(dusty,), amount="2"))


def test_quick_heal_above_0_hp_puts_the_dying_back_on_their_feet_and_settles_the_death_save():
    """Ruling: healing that lifts a dying, unconscious or knocked-out combatant above 0 HP revives them."""
    f, _ = new_fight()
    dusty = add_pc(f, "Dusty", hp=4)
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=4)
    f.do(Damage(targets=(dusty,), amount="6"))
    f.do(Damage(targets=(lefty,), amount="5", temporary=True))
    events = f.do(Heal(targets=(dusty, lefty), amount="3"))
    healed = [e for e in events if isinstance(e, HpHealed)]
    assert [e.revived for e in healed] == [True, True]
    assert any(isinstance(e, PromptResolved) and e.prompt_id == f"death_save:{dusty}" for e in events)
    assert (data(f, dusty).hp, data(f, dusty).status) == (1, "ok") and f.state.prompts == ()
    assert (data(f, lefty).hp, data(f, lefty).status) == (2, "ok")


def test_quick_heal_short_of_0_hp_leaves_the_death_save_due():
    f, _ = new_fight()
    dusty = add_pc(f, "Dusty", hp=4)
    f.do(Damage(targets=(dusty,), amount="8"))
    ev, *restated = f.do(Heal(targets=(dusty,), amount="2"))
    assert not ev.revived and data(f, dusty).status == "dying" and data(f, dusty).hp == -2
    assert [p.kind for p in f.state.prompts] == ["death_save"]
    # its words say the HP and the penalty now (they said "at -4 HP … − 4", the roll took − 2)
    assert "at -2 HP" in f.state.prompts[0].text and "− 2 +2 Shootist" in f.state.prompts[0].text
    assert len(restated) == 2


def test_quick_heal_is_refused_for_the_dead():
    f, _ = new_fight()
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=4, minor=True)
    f.do(Damage(targets=(lefty,), amount="4"))
    _refused(f, Heal(targets=(lefty,), amount="4"), "no healing brings back the dead")


# -- GM adjust crossing 0 HP ----------------------------------------------------------------------


def test_gm_adjust_hp_to_zero_or_below_makes_the_outlaw_dying_and_skips_its_turn():
    """A GM adjust of HP to -6 runs the same consequences as a blow: dying and a death save; the outlaw
    takes no turn and makes no attack (the old code left it "ok")."""
    f, dice = new_fight()
    dusty = add_pc(f, "Dusty", hp=10)
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=7)
    start(f, {dusty: 15, lefty: 10})
    events = f.do(Adjust(id=lefty, field="hp", value=-6))
    assert _drops(events) == ["dying"] and [p.command for p in _prompts(events)] == ["death_save"]
    assert data(f, lefty).status == "dying"
    _refused(f, NextTurn(), "resolve first")
    _refused(f, Attack(actor=lefty, target=dusty), "Lefty is dying")
    dice.add(20)
    (save, _resolved) = f.do(DeathSave(actor=lefty))
    assert save.total == 20 - 6 and not save.success and data(f, lefty).status == "dead"
    f.do(NextTurn())
    assert (f.state.round, f.state.current) == (2, dusty)  # the dead Lefty's turn is skipped


def test_gm_adjust_hp_to_zero_of_a_minor_npc_kills_it():
    f, _ = new_fight()
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=7, minor=True)
    events = f.do(Adjust(id=lefty, field="hp", value=0))
    assert _drops(events) == ["dead"] and f.state.prompts == ()


def test_gm_adjust_of_temporary_damage_to_0_hp_knocks_out():
    f, _ = new_fight()
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=7)
    events = f.do(Adjust(id=lefty, field="temp", value=7))
    assert _drops(events) == ["knocked out"] and f.state.prompts == ()


def test_gm_adjust_within_the_living_or_of_the_status_raises_nothing():
    f, _ = new_fight()
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=7)
    assert len(f.do(Adjust(id=lefty, field="hp", value=1))) == 1
    assert len(f.do(Adjust(id=lefty, field="status", value="unconscious"))) == 1
    _refused(f, Adjust(id=lefty, field="hp", value=8), "above the most allowed, 7")


def test_the_death_save_is_a_gm_action_on_the_selected_combatant():
    specs = {s.name: s for s in system.commands()}
    for name in ("death_save", "save", "lucky_streak", "loyalty", "bind_wounds", "recover"):
        assert (specs[name].actor, specs[name].subject) == (None, "actor"), name
    assert (specs["attack"].actor, specs["attack"].subject) == ("actor", "target")
    assert (specs["gunplay"].subject, specs["blast"].subject) == ("targets", "targets")


def test_a_dismissed_death_save_is_logged_as_waived():
    f, _ = new_fight()
    dusty = add_pc(f, "Dusty", hp=4)
    f.do(Damage(targets=(dusty,), amount="5"))
    events = f.do(DismissPrompt(prompt_id=f"death_save:{dusty}"))
    assert any(isinstance(e, DeathSaveWaived) for e in events) and data(f, dusty).status == "unconscious"


def test_removing_a_dying_combatant_settles_its_death_save():
    f, _ = new_fight()
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=4)
    f.do(Damage(targets=(lefty,), amount="6"))
    events = f.do(RemoveCombatant(id=lefty, reason="carried off"))
    assert any(isinstance(e, PromptResolved) for e in events) and f.state.prompts == ()


def test_quick_heal_at_full_hp_is_refused_not_logged() -> None:
    """Healing someone at full HP would log a step that changes nothing: refused with the reason."""
    f, _ = new_fight()
    dusty = add_pc(f, "Dusty", hp=12)
    n = len(f.entries)
    with pytest.raises(Refused, match="already at full HP"):
        f.do(Heal(targets=(dusty,), amount="3"))
    assert len(f.entries) == n


def test_a_death_save_is_moot_once_the_gm_sets_the_dying_one_dead_or_up():
    """Ruling (the book has no GM adjust): a death save asked of one the GM then sets dead, or back to "ok", is
    closed as moot.  It stayed open, and rolling it was refused ("not dying"): a party loaded as saved with a
    dead PC showed that prompt, which only a ruling could clear."""
    f, _dice = new_fight()
    dusty = add_pc(f, "Dusty", hp=3, con=13)
    jed = add_pc(f, "Jed", hp=3, con=13)
    start(f)
    for who in (dusty, jed):
        f.do(Damage(targets=(who,), amount="5"))
    assert sorted(p.combatant for p in f.state.prompts) == sorted([dusty, jed])
    events = f.do(Adjust(id=dusty, field="status", value="dead"))
    (closed,) = [e for e in events if isinstance(e, PromptResolved)]
    assert closed.note == "moot: Dusty is no longer dying"
    assert [p.combatant for p in f.state.prompts] == [jed]
    f.do(Adjust(id=jed, field="status", value="ok"))
    assert f.state.prompts == ()
    f.undo()
    assert [p.combatant for p in f.state.prompts] == [jed]
