"""Quick damage and healing, GM adjusts and the forms' subjects (issue #12)."""

from __future__ import annotations

import pytest

from systems.zludge import system
from systems.zludge.commands import ARMOR_CHOICES, LEVEL_CHOICES, Attack, MarkWound
from systems.zludge.events import BoxCleared, FatigueMarked, WoundMarked
from tests.systems.zludge.helpers import F, add, data, duel, script, treated
from tracker.commands import BOOL, CHOICE, Adjust, Damage, EndFight, Heal, NextTurn
from tracker.errors import Refused

SWORD = {"skills": "Melee 2, Acrobatics 1", "weapon": "sword"}
BOB = {"skills": "Acrobatics 1", "weapon": "knife"}


def standing(f, cid):
    return f.system.standing(f.state, f.state.get(cid))


def test_quick_damage_checks_a_box_at_its_level_like_an_attack():
    """Damage amount = a damage level: one WoundMarked per target, through the track as an attack's damage."""
    f = duel(SWORD, BOB)
    ev = f.do(Damage(targets=("c2",), amount="2 Very Hurt", note="falling crate"))
    assert [type(e) for e in ev] == [WoundMarked]
    assert (ev[0].wound, ev[0].box, ev[0].full, ev[0].source) == (2, 2, (), "falling crate")
    assert data(f, "c2").wound_penalty == -2


@pytest.mark.parametrize(
    ("marks", "level", "word", "out"),
    [
        ((), 3, "incapacitated", False),  # straight to Incapacitated
        ((2,), 2, "incapacitated", False),  # Very Hurt full: overflow to Incapacitated
        ((), 4, "comatose", True),
        ((3, 4), 3, "dead", True),  # Incapacitated and Comatose full: no box left
    ],
)
def test_quick_damage_crosses_each_threshold_as_an_attack_does(marks, level, word, out):
    """The same box, the same overflow, the same standing (and no prompt: Zludge has none on harm)."""
    quick = duel(SWORD, BOB)
    hit = duel({**SWORD, "weapon": f"club {level}"}, BOB)
    for f in (quick, hit):
        for m in marks:
            f.do(MarkWound(target="c2", level=m))
    q = quick.do(Damage(targets=("c2",), amount=str(level)))[-1]
    if data(hit, "c2").unconscious:  # no defense roll: fixed -1 less Comatose -4; -2 vs -5, a hit by 3
        script(hit, F(-3))
    else:
        script(hit, F(0), F(0))  # +1 vs 0 (or less): a hit by 1 to 3, weapon level - armor 0
    a = hit.do(Attack(actor="c1", target="c2"))[-1]
    assert isinstance(q, WoundMarked) and isinstance(a, WoundMarked)
    assert (q.wound, q.box, q.full) == (a.wound, a.box, a.full)
    assert standing(quick, "c2") == standing(hit, "c2")
    assert (standing(quick, "c2").word, standing(quick, "c2").out) == (word, out)
    assert quick.state.prompts == hit.state.prompts == ()
    assert data(quick, "c2").wounds == data(hit, "c2").wounds and data(quick, "c2").dead == data(hit, "c2").dead


def test_quick_damage_to_three_targets_is_one_undo_step():
    f = duel(SWORD, BOB)
    add(f, "Cy", kind="npc")
    before = f.state
    ev = f.do(Damage(targets=("c1", "c2", "c3"), amount="1 Hurt"))
    assert [(e.target, e.box) for e in ev] == [("c1", 1), ("c2", 1), ("c3", 1)]
    assert len(f.steps[-1].events) == 3
    f.undo()
    assert f.state == before


def test_quick_damage_twice_on_one_target_in_one_action_overflows():
    f = duel(SWORD, BOB)
    f.do(MarkWound(target="c2", level=1))
    ev = f.do(Damage(targets=("c2", "c2"), amount="1"))  # the core keeps each target once
    assert len(ev) == 1 and ev[0].box == 1
    ev = f.do(Damage(targets=("c2",), amount="hurt"))
    assert (ev[0].box, ev[0].full) == (2, (1,))


def test_temporary_quick_damage_is_physical_fatigue():
    """Ruling (rules/harm): fatigue is the book's "nonlethal physical damage": temporary marks it, P."""
    f = duel(SWORD, BOB)
    ev = f.do(Damage(targets=("c2",), amount="1", temporary=True, note="punched breathless"))
    assert isinstance(ev[0], FatigueMarked) and (ev[0].level, ev[0].box, ev[0].physical) == (1, 1, True)
    assert data(f, "c2").wounds == () and data(f, "c2").fatigue_penalty == -1


@pytest.mark.parametrize("amount", ["5", "2d6", "-1", "a lot"])
def test_quick_damage_that_is_not_a_level_is_refused(amount):
    f = duel(SWORD, BOB)
    before = list(f.entries)
    with pytest.raises(Refused, match="not a damage level: give 0 to 4"):
        f.do(Damage(targets=("c2",), amount=amount))
    assert f.entries == before


def test_quick_damage_on_the_dead_is_refused():
    f = duel(SWORD, BOB)
    f.do(Adjust(id="c2", field="dead", value=True))
    with pytest.raises(Refused, match="Bob is already dead"):
        f.do(Damage(targets=("c1", "c2"), amount="0"))


def test_quick_heal_is_refused_while_the_fight_runs():
    """Ruling (rules/harm): "Other wounds heal at the rate of 1 level/week": nothing heals within a fight."""
    f = duel(SWORD, BOB)
    f.do(MarkWound(target="c2", level=1))
    before = list(f.entries)
    with pytest.raises(Refused, match=r"heal over days and weeks.*first aid"):
        f.do(Heal(targets=("c2",), amount="1"))
    assert f.entries == before


def test_quick_heal_after_the_fight_clears_one_box_of_the_level_on_each_target():
    f = duel(SWORD, BOB)
    f.do(Damage(targets=("c1", "c2"), amount="1"))
    f.do(Damage(targets=("c2",), amount="0"))
    f.do(EndFight())
    state = f.state
    ev = f.do(Heal(targets=("c1", "c2"), amount="1 Hurt", note="a week's rest"))
    assert [(type(e), e.target, e.level) for e in ev] == [(BoxCleared, "c1", 1), (BoxCleared, "c2", 1)]
    assert data(f, "c1").wounds == () and [b.level for b in data(f, "c2").wounds] == [0]
    f.undo()
    assert f.state == state
    with pytest.raises(Refused, match="Alice has no checked Very Hurt box to clear"):
        f.do(Heal(targets=("c1",), amount="2"))


def test_harm_forms_ask_for_a_level_by_its_name():
    damage = system.harm_params(False)
    assert [p.name for p in damage] == ["amount", "temporary"]
    assert (
        damage[0].kind == CHOICE
        and damage[0].choices == (*LEVEL_CHOICES, *ARMOR_CHOICES)
        and damage[0].label == "Damage level"
    )
    assert LEVEL_CHOICES == ("0 Scratched", "1 Hurt", "2 Very Hurt", "3 Incapacitated", "4 Comatose")
    assert damage[1].kind == BOOL
    heal = system.harm_params(True)
    assert [p.name for p in heal] == ["amount"] and heal[0].choices == LEVEL_CHOICES
    assert damage[0].parse("2 very hurt") == "2 Very Hurt"


def test_a_gm_adjust_to_dead_takes_the_combatant_out():
    f = duel(SWORD, BOB)
    ev = f.do(Adjust(id="c2", field="dead", value=True))
    assert len(ev) == 1  # no follow-up: Zludge raises no prompt on death
    assert (standing(f, "c2").word, standing(f, "c2").out) == ("dead", True)
    assert not f.system.takes_turns(f.state, f.state.get("c2"))
    f.do(NextTurn())
    assert f.state.current == "c1" and f.state.round == 2


@pytest.mark.parametrize(
    ("name", "subject", "actor"),
    [
        ("attack", "target", "actor"),
        ("first_aid", "target", "actor"),
        ("mark_wound", "target", None),
        ("mark_fatigue", "target", None),
        ("clear_box", "target", None),
        ("reopen_wounds", "target", None),
        ("ambush_initiative", None, None),  # no one presumed (test_round4_table.py)
        ("refresh_aspects", None, None),
    ],
)
def test_gm_actions_start_on_the_selected_combatant_not_on_whose_turn_it_is(name, subject, actor):
    """The subject of mark wound (w) is the GM's selected combatant; it is not taken by the current one."""
    spec = next(s for s in system.commands() if s.name == name)
    assert (spec.subject, spec.actor) == (subject, actor)


def test_forms_keep_their_names_keys_and_fields():
    keys = {s.name: s.key for s in system.commands()}
    assert keys == {
        "attack": "a",
        "invoke": "i",
        "ambush_initiative": "b",
        "roll_skill": "r",
        "first_aid": "f",
        "reopen_wounds": None,
        "mark_wound": "w",
        "mark_fatigue": "t",
        "clear_box": None,
        "refresh_aspects": None,
        "act": "o",
        "contest": "k",
    }
    attack = next(s for s in system.commands() if s.name == "attack")
    assert [p.name for p in attack.params][:3] == ["actor", "target", "skill"]
    assert attack.make({"actor": "c1", "target": "c2"}) == Attack(actor="c1", target="c2")
    wound = next(s for s in system.commands() if s.name == "mark_wound")
    assert wound.make({"target": "c2", "level": "3"}) == MarkWound(target="c2", level=3)


def test_a_removed_combatant_leaves_no_prompt_behind():
    """react: the reopen prompt of a combatant removed from the fight is closed in the same action."""
    from systems.zludge.commands import RollSkill
    from tracker.commands import RemoveCombatant
    from tracker.events import PromptResolved

    f = duel({**SWORD, "skills": "Medical 3"}, BOB, treated("c2", 1, "c1"))  # first aid before the fight
    script(f, F(-1))
    f.do(RollSkill(actor="c2", skill="Athletics", as_action=False))  # fails: do the wounds reopen?
    assert [p.id for p in f.state.prompts] == ["reopen:c2"]
    ev = f.do(RemoveCombatant(id="c2", reason="fled"))
    assert isinstance(ev[-1], PromptResolved) and ev[-1].note == "Bob left the fight"
    assert f.state.prompts == ()
    f.do(NextTurn())


def test_exhausted_is_the_word_in_the_row_but_still_in_the_fight():
    """Exhausted: "−3 to physical actions and prone": a word the GM must see; it still takes its turns."""
    f = duel(SWORD, BOB)
    f.do(Damage(targets=("c2",), amount="3", temporary=True))  # physical fatigue at Exhausted
    assert (standing(f, "c2").word, standing(f, "c2").out) == ("exhausted", False)


def test_the_gm_can_set_the_wound_and_fatigue_tracks():
    """GM adjust of the boxes, as the status shows them: each checked box the level of the wound that made
    it; a track the rules cannot hold is refused with the reason; down by an adjust shows at once."""
    f = duel(SWORD, BOB)
    f.do(Adjust(id="c2", field="wound_track", value="00.|1.|.|.|."))
    assert data(f, "c2").wound_track == "00.|1.|.|.|." and data(f, "c2").wound_penalty == -1
    f.do(Adjust(id="c2", field="wound_track", value="...|..|.|3|."))
    assert standing(f, "c2").word == "incapacitated"
    for bad, words in (
        ("0000|..|.|.|.", "Scratched has 3 box"),
        ("...|2.|.|.|.", "'2' is not a box"),
        ("a", "not a box"),
    ):
        with pytest.raises(Refused, match=words):
            f.do(Adjust(id="c2", field="wound_track", value=bad))
    f.do(Adjust(id="c2", field="fatigue_track", value="P..|..|.|.|."))
    assert data(f, "c2").fatigue_track == "P..|..|.|.|."
