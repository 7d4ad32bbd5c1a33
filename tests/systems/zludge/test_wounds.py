"""Zludge wounds, penalties, fatigue and first aid."""

from __future__ import annotations

import pytest

from systems.zludge.commands import (
    Attack,
    ClearBox,
    FirstAid,
    MarkFatigue,
    MarkWound,
    ReopenWounds,
    RollSkill,
    TakeAction,
)
from systems.zludge.events import WoundsTreated
from tests.systems.zludge.helpers import F, add, data, duel, end, new_fight, script, treated
from tracker.commands import Adjust, DismissPrompt, Modifier, NextTurn
from tracker.errors import Refused

SWORD = {"skills": "Melee 2, Acrobatics 1", "weapon": "sword"}
BOB = {"skills": "Acrobatics 1", "weapon": "knife"}


def boxes(f, cid="c2"):
    return [(b.level, b.wound) for b in data(f, cid).wounds]


def test_a_full_hurt_row_pushes_a_1_level_wound_to_very_hurt():
    """If that level is full, the next higher level with a free box; the box records the wound's level."""
    f = duel(SWORD, BOB)
    f.do(MarkWound(target="c2", level=1))
    f.do(MarkWound(target="c2", level=1))
    script(f, F(1), F(0))  # +2 vs 0: a hit with a 1-level weapon
    ev = f.do(Attack(actor="c1", target="c2", weapon_level=1))
    mark = ev[1]
    assert (mark.wound, mark.box, mark.full) == (1, 2, (1,))
    assert boxes(f) == [(1, 1), (1, 1), (2, 1)]
    assert "Hurt full: checks a Very Hurt box" in mark.describe(f.state)
    assert f.system.status(f.state, f.state.get("c2")).startswith("Very Hurt -2 ...|11|1|.|.")
    assert "H[11] V[1]" in f.system.detail(f.state, f.state.get("c2"))


def test_punches_pushed_up_keep_their_own_level():
    """A 0-level punch pushed up to Hurt is recorded as a 0-level wound (it heals like a scratch)."""
    f = new_fight()
    add(f, "Bob")
    for _ in range(4):
        f.do(MarkWound(target="c1", level=0))
    assert boxes(f, "c1") == [(0, 0), (0, 0), (0, 0), (1, 0)]
    assert data(f, "c1").wound_penalty == -1


def test_a_chain_of_escalations_ends_in_death():
    """Ruling: a box needed above Comatose means death."""
    f = new_fight()
    add(f, "Bob")
    for level in (0, 0, 0, 1, 1, 2, 3, 4):
        f.do(MarkWound(target="c1", level=level))
    assert not data(f, "c1").dead and data(f, "c1").unconscious
    ev = f.do(MarkWound(target="c1", level=0))
    assert (ev[0].box, ev[0].full) == (None, (0, 1, 2, 3, 4))
    assert data(f, "c1").dead
    line = ev[0].describe(f.state)
    assert "Scratched full; Hurt full; Very Hurt full; Incapacitated full; Comatose full" in line
    assert "no box left above Comatose: Bob dies" in line
    assert f.system.standing(f.state, f.state.get("c1")).word == "dead"
    assert f.system.status(f.state, f.state.get("c1")) == "000|11|2|3|4 · unarmed 0"
    with pytest.raises(Refused, match="already dead"):
        f.do(MarkWound(target="c1", level=0))


def test_a_critical_explosion_is_beyond_comatose():
    """Weapon 4 and a critical: a 5-level wound has no box: death."""
    f = duel({**SWORD, "weapon": "grenade"}, BOB)
    script(f, F(4), F(-1))  # Ranged -1: +3 vs -1
    ev = f.do(Attack(actor="c1", target="c2", skill="Ranged"))
    assert ev[0].damage_level == 5 and ev[1].box is None
    assert data(f, "c2").dead
    assert not f.system.takes_turns(f.state, f.state.get("c2"))


def test_durability_adds_boxes_that_absorb_escalation():
    f = new_fight()
    add(f, "Tough", durability=2)
    for _ in range(3):
        f.do(MarkWound(target="c1", level=1))
    assert boxes(f, "c1") == [(1, 1), (1, 1), (1, 1)]


def test_clipped_and_wound_penalties_do_not_stack_the_worst_applies():
    f = new_fight()
    add(f, "Bob")
    f.do(MarkWound(target="c1", level=2))
    f.do(MarkWound(target="c1", level=0))
    d = data(f, "c1")
    assert d.clipped and d.penalties() == (Modifier(label="Very Hurt", value=-2),)
    f2 = new_fight()
    add(f2, "Cy")
    f2.do(MarkWound(target="c1", level=0))
    assert data(f2, "c1").penalties() == (Modifier(label="clipped", value=-1),)


def test_fatigue_penalties_add_to_the_wound_penalty():
    """Ruling: fatigue penalties add to the wound or clipped penalty."""
    f = new_fight()
    add(f, "Bob")
    f.do(MarkWound(target="c1", level=1))
    f.do(MarkFatigue(target="c1", level=1))
    assert data(f, "c1").penalties() == (Modifier(label="Hurt", value=-1), Modifier(label="Tired", value=-1))
    assert sum(m.value for m in data(f, "c1").penalties(physical=False)) == -1


def test_wound_penalty_applies_to_the_attack_roll():
    f = duel(SWORD, BOB)
    f.do(MarkWound(target="c1", level=2))
    script(f, F(0), F(0))  # +1 - 2 = -1 vs 0
    res = f.do(Attack(actor="c1", target="c2"))[0]
    assert Modifier(label="Very Hurt", value=-2) in res.attack_mods and res.outcome == "miss"


def test_an_incapacitated_combatant_cannot_attack():
    """Incapacitated: knocked prone, most actions not possible (bad input: refused, nothing logged)."""
    f = duel(SWORD, BOB)
    f.do(MarkWound(target="c1", level=3))
    before = list(f.entries)
    with pytest.raises(Refused, match="Alice is Incapacitated: knocked prone"):
        f.do(Attack(actor="c1", target="c2"))
    with pytest.raises(Refused, match="prone"):
        f.do(TakeAction(actor="c1", text="stands up"))
    assert f.entries == before
    f.do(TakeAction(actor="c1", text="calls for help", physical=False))
    assert f.system.standing(f.state, f.state.get("c1")).word == "incapacitated"
    assert f.system.status(f.state, f.state.get("c1")).startswith("-3 ...|..|.|3|.")


def test_prone_or_unconscious_defenders_make_no_defense_roll():
    """Ruling (module): a prone or unconscious target has fixed defense -1 like a stationary flat-footed one, less
    its wound penalties, as the roll it cannot make would take them (at -1 alone an Incapacitated Bob was harder
    to hit than rolling at -3: Alice's -1 only clipped him)."""
    f = duel(SWORD, BOB)
    f.do(MarkWound(target="c2", level=3))
    script(f, F(-2))  # -1 vs -4: a hit by 3
    ev = f.do(Attack(actor="c1", target="c2"))
    res = ev[0]
    assert res.defense is None and res.defense_total == -4 and res.outcome == "hit"
    # the log says why there is no defense roll (not "flat-footed": Bob has acted)
    assert "(no defense roll, fixed defense, prone -1, Incapacitated -3 → -4 Abysmal)" in res.describe(f.state)
    f.do(MarkWound(target="c2", level=4))
    f.do(NextTurn())
    script(f, F(-2))
    res = f.do(Attack(actor="c1", target="c2"))[0]
    assert "(no defense roll, fixed defense, unconscious -1, Comatose -4 → -5 Abysmal)" in res.describe(f.state)


def test_log_lines_use_an_before_a_vowel():
    """A 3-level wound 'checks an Incapacitated box'; 'an Athletics check'; 'an Exhausted box'."""
    f = duel(SWORD, BOB)
    ev = f.do(MarkWound(target="c2", level=3, note="fall"))
    assert ev[0].describe(f.state) == "Bob takes a 3-level wound (fall): checks an Incapacitated box"
    ev = f.do(MarkFatigue(target="c2", level=3))
    assert ev[0].describe(f.state).endswith("checks an Exhausted box")
    script(f, F(0))
    ev = f.do(RollSkill(actor="c1", skill="Athletics", physical=False))
    assert ev[0].describe(f.state).startswith("Alice rolls an Athletics check")


def test_comatose_is_unconscious_and_skipped():
    f = duel(SWORD, BOB)
    f.do(MarkWound(target="c2", level=4))
    assert not f.system.takes_turns(f.state, f.state.get("c2"))
    f.do(NextTurn())  # Bob is skipped: Alice again in round 2
    assert f.state.current == "c1" and f.state.round == 2
    with pytest.raises(Refused, match="Comatose: unconscious"):
        f.do(RollSkill(actor="c2", skill="Medical", physical=False, as_action=False))


def test_fatigue_track_with_p_marks_and_endurance_boxes():
    """Fatigue: Winded 3, Tired 2, Very Tired 1, Exhausted 1, Unconscious 1; P for physical; Endurance adds boxes."""
    f = new_fight()
    add(f, "Runner", endurance=1)
    for _ in range(4):
        f.do(MarkFatigue(target="c1", level=0, physical=True))
    ev = f.do(MarkFatigue(target="c1", level=0, physical=False))
    assert (ev[0].box, ev[0].full) == (1, (0,))
    d = data(f, "c1")
    assert [(b.level, b.physical) for b in d.fatigue] == [(0, True)] * 4 + [(1, False)]
    assert "Tired -1" in f.system.status(f.state, f.state.get("c1"))
    assert "Fatigue (Endurance 1): W[PPPP] T[0.]" in f.system.detail(f.state, f.state.get("c1"))


def test_exhausted_is_prone_and_fatigue_unconscious_takes_no_actions():
    f = duel(SWORD, BOB)
    f.do(MarkFatigue(target="c1", level=3))
    with pytest.raises(Refused, match="Exhausted: knocked prone"):
        f.do(Attack(actor="c1", target="c2"))
    f.do(MarkFatigue(target="c1", level=3))  # Exhausted full: Unconscious
    assert data(f, "c1").unconscious and not f.system.takes_turns(f.state, f.state.get("c1"))
    ev = f.do(MarkFatigue(target="c1", level=4))
    assert ev[0].box is None and "stays Unconscious" in ev[0].describe(f.state)


def test_first_aid_lowers_each_wound_one_level_without_clearing_boxes():
    """A successful Medical roll: Incapacitated now hobbles at -2, a Hurt no longer impairs; the boxes stay."""
    f = end(duel({**SWORD, "skills": "Medical 2"}, BOB))  # first aid is given after the fight
    f.do(MarkWound(target="c2", level=1))
    f.do(MarkWound(target="c2", level=3))
    assert data(f, "c2").prone
    script(f, F(-1))  # -1 + Medical +1 = 0: success
    ev = f.do(FirstAid(actor="c1", target="c2"))
    assert ev[0].success and isinstance(ev[1], WoundsTreated)
    d = data(f, "c2")
    assert boxes(f) == [(1, 1), (3, 3)]
    assert d.wound_penalty == -2 and not d.prone
    assert "Incapacitated treated -2" in f.system.status(f.state, f.state.get("c2"))
    assert "first aid on Bob (Medical 4dF [-,0,0,0] = -1, Medical +1 → +0 Fair): success" in ev[0].describe(f.state)


def test_first_aid_uses_the_medical_first_aid_specialization():
    """First aid is a Medical(First Aid) roll: a medic's First Aid specialization (+2) counts by itself."""
    f = end(duel({**SWORD, "skills": "Medical 1 +First Aid"}, BOB))  # Medical +0, (First Aid) +2; after the fight
    f.do(MarkWound(target="c2", level=1))
    script(f, F(-2))  # -2 + 2 = 0: success (plain Medical would fail at -2)
    ev = f.do(FirstAid(actor="c1", target="c2"))
    assert ev[0].total == 0 and ev[0].success and isinstance(ev[1], WoundsTreated)
    assert "(Medical (First Aid) 4dF [-,-,0,0] = -2, Medical (First Aid) +2 → +0 Fair): success" in ev[0].describe(
        f.state
    )


def test_failed_first_aid_changes_nothing():
    f = end(duel(SWORD, BOB))
    f.do(MarkWound(target="c2", level=1))
    script(f, F(0))  # Medical -1: failure
    ev = f.do(FirstAid(actor="c1", target="c2"))
    assert len(ev) == 1 and not ev[0].success
    assert data(f, "c2").wound_penalty == -1


def test_first_aid_needs_an_untreated_wound():
    f = end(duel(SWORD, BOB))
    with pytest.raises(Refused, match="no untreated wound"):
        f.do(FirstAid(actor="c1", target="c2"))


def test_a_failed_physical_check_can_reopen_treated_wounds():
    """A failed physical check can reopen the wounds (GM action): a prompt, resolved by reopen_wounds."""
    f = duel({**SWORD, "skills": "Medical 3, Athletics 0"}, BOB, treated("c1", 2))  # first aid before the fight
    assert data(f, "c1").wound_penalty == -1
    f.do(NextTurn())
    f.do(NextTurn())
    script(f, F(0))  # Athletics -1, Hurt-treated -1: -2, failure
    ev = f.do(RollSkill(actor="c1", skill="Athletics", difficulty=0))
    assert not ev[0].success and ev[1].prompt.command == "reopen_wounds"
    with pytest.raises(Refused, match="resolve first"):
        f.do(NextTurn())
    ev = f.do(ReopenWounds(target="c1", note="climbing the wall"))
    assert [type(e).__name__ for e in ev] == ["WoundsReopened", "PromptResolved"]
    assert data(f, "c1").wound_penalty == -2 and f.state.prompts == ()


def test_gm_may_rule_the_wounds_hold():
    f = duel({**SWORD, "skills": "Medical 3"}, BOB, treated("c1", 1))  # first aid before the fight
    f.do(NextTurn())
    f.do(NextTurn())
    script(f, F(-2))
    f.do(RollSkill(actor="c1", skill="Athletics"))
    f.do(DismissPrompt(prompt_id="reopen:c1", note="they hold"))
    assert data(f, "c1").wound_penalty == 0


def test_clear_box_heals_and_adjust_sets_values():
    f = new_fight()
    add(f, "Bob", plot_points=1)
    f.do(MarkWound(target="c1", level=1))
    f.do(ClearBox(target="c1", track="wounds", level=1, note="a week of rest"))
    assert data(f, "c1").wounds == ()
    with pytest.raises(Refused, match="no checked Hurt box"):
        f.do(ClearBox(target="c1", track="wounds", level=1))
    f.do(Adjust(id="c1", field="plot_points", value="3"))
    assert data(f, "c1").plot_points == 3


def test_undo_of_a_wound_restores_the_state():
    f = duel(SWORD, BOB)
    before = f.state
    f.do(MarkWound(target="c2", level=0))
    f.undo()
    assert f.state == before


def test_exhausted_is_minus_three_to_every_roll():
    """Ruling (module): Exhausted is -3 to all rolls, physical or not."""
    f = new_fight()
    add(f, "Bob")
    f.do(MarkFatigue(target="c1", level=3, physical=False))
    d = data(f, "c1")
    assert d.penalties(physical=False) == (Modifier(label="Exhausted", value=-3),)
    assert d.penalties(physical=True) == (Modifier(label="Exhausted", value=-3),)


def test_gm_edits_skills_attributes_aspects_and_checked_aspects():
    """GM adjust edits a stat: skills, attributes, aspects and which aspects are checked off, as the sheet writes them."""
    f = duel({**SWORD, "aspects": "Star Ranger, Brawler"}, BOB)
    fields = {p.name for p in f.system.adjustable(f.state, f.state.get("c1"))}
    assert {"skills_text", "attributes_text", "aspects_text", "aspects_checked"} <= fields
    ev = f.do(Adjust(id="c1", field="skills_text", value="melee 3 +swords @agility"))
    assert ev[0].value == "melee 3 +swords @Agility" and ev[0].old == "Melee 2, Acrobatics 1"
    f.do(Adjust(id="c1", field="attributes_text", value="agility +2"))  # the GM may go beyond ±1
    d = data(f, "c1")
    assert d.skill_mod("Melee") == 4 and d.skill_mod("Melee", "swords") == 5 and d.skill_mod("Acrobatics") == -1
    f.do(Adjust(id="c1", field="aspects_checked", value="brawler"))
    assert data(f, "c1").aspects_used == ("Brawler",)
    f.do(Adjust(id="c1", field="aspects_text", value="Star Ranger"))
    assert data(f, "c1").aspects == ("Star Ranger",) and data(f, "c1").aspects_used == ()
    before = list(f.entries)
    for field, value, why in (
        ("skills_text", "Melee 5", "0 to 3 ranks"),
        ("attributes_text", "Agility +4", "-3 to \\+3"),
        ("aspects_checked", "Brawler", "not one of the aspects"),
    ):
        with pytest.raises(Refused, match=why):
            f.do(Adjust(id="c1", field=field, value=value))
    assert f.entries == before
    state = f.state
    f.do(Adjust(id="c1", field="skills_text", value=""))
    assert data(f, "c1").skills == ()
    f.undo()
    assert f.state == state
