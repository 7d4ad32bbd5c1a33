"""2d6 Gamma: quick damage and healing in wounds (#12), what the GM and the players see (#11, #17)."""

from __future__ import annotations

import re

import pytest

from systems.twod6 import system
from systems.twod6.commands import Attack, ChooseDouble, Resolve
from systems.twod6.events import Healed, Wounded
from tests.systems.twod6.helpers import DUMMY, FIGHTER, attack, data, of, prompts, refused, set_wounds, setup, sheet
from tracker import evolve
from tracker.commands import Adjust, Damage, DismissPrompt, Heal, NextTurn
from tracker.events import PromptRaised, PromptResolved
from tracker.model import changed

# -- quick damage goes the attack's way ----------------------------------------------------------------


@pytest.mark.parametrize(("left", "kind", "dc"), [(3, "resolve", 7), (2, "resolve", 9), (1, "death", 7)])
def test_quick_damage_crossing_each_threshold_raises_the_attacks_prompt(left: int, kind: str, dc: int) -> None:
    """One wound of quick damage raises exactly the prompt one wound from an attack raises."""
    by_attack, roller = setup(("Ann", FIGHTER), ("Bob", DUMMY), ("Cat", sheet(tou=1)))
    by_damage, _ = setup(("Ann", FIGHTER), ("Bob", DUMMY), ("Cat", sheet(tou=1)))
    for f in (by_attack, by_damage):
        set_wounds(f, "c3", left)
    attack(by_attack, roller, (4, 4, 3, 4), "c1", "c3")  # 12 vs 7: one wound
    events = by_damage.do(Damage(targets=("c3",), amount="1"))
    assert isinstance(events[0], Wounded) and events[0].by is None
    (raised,) = of(events, PromptRaised)
    (p,) = by_attack.state.prompts
    assert raised.prompt == p and (p.kind, p.params["dc"]) == (kind, dc)
    # the same record, but for the defense lost to the attack, which a cinematic may reroll (RULINGS third pass)
    (lost,) = data(by_attack, "c3").failed
    assert lost.kind == "defense" and data(by_damage, "c3").failed == ()
    assert data(by_damage, "c3") == changed(data(by_attack, "c3"), failed=())


def test_quick_damage_to_0_is_unconscious_and_a_death_check_and_a_wound_at_0_kills():
    f, _ = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    f.do(Damage(targets=("c2",), amount="1+2"))
    assert data(f, "c2").wounds == 0 and data(f, "c2").unconscious and prompts(f) == [("death", "c2")]
    events = f.do(Damage(targets=("c2",), amount="1", note="the fall"))
    assert data(f, "c2").dead and prompts(f) == []
    assert "a wound at 0: dead" in events[0].describe(f.steps[-1].before)
    assert of(events, PromptResolved)[0].note == "Bob is dead"


def test_quick_damage_takes_sums_and_dice_and_logs_the_faces():
    f, roller = setup(("Ann", FIGHTER), ("Bob", sheet(tou=3)))
    roller.add(2)
    (hurt, *_rest) = f.do(Damage(targets=("c2",), amount="1d3"))
    assert isinstance(hurt, Wounded) and hurt.wounds == 2 and hurt.roll is not None and hurt.roll.faces == (2,)
    assert hurt.describe(f.steps[-1].before) == "Bob takes 2 wounds (1d3 [2] = 2): 4/6 left"
    refused(f, Damage(targets=("c2",), amount="1-1"), "at least 1 wound")
    refused(f, Damage(targets=("c2",), amount="fists"), "not an amount")
    refused(f, Damage(targets=("c2",), amount="1", temporary=True), "no temporary harm")


def test_one_blow_past_several_thresholds_rolls_only_the_lowest_check():
    """Ruling: only the check of the lowest threshold reached: 3 → 1 in one go is the DC 9 check alone."""
    f, _ = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    events = f.do(Damage(targets=("c2",), amount="2"))
    assert [(e.prompt.kind, e.prompt.params["dc"]) for e in of(events, PromptRaised)] == [("resolve", 9)]


def test_damage_to_three_targets_is_one_undo_step():
    f, _ = setup(("Ann", FIGHTER), ("Bob", DUMMY), ("Cat", DUMMY), ("Dan", DUMMY))
    before, steps = f.state, len(f.steps)
    events = f.do(Damage(targets=("c2", "c3", "c4"), amount="1"))
    assert len(of(events, Wounded)) == 3 and len(of(events, PromptRaised)) == 3 and len(f.steps) == steps + 1
    f.undo()
    assert f.state == before
    refused(f, Damage(targets=("c2", "Zed"), amount="1"), "no target 'Zed'")


def test_damage_to_the_dead_is_refused():
    f, _ = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    f.do(Adjust(id="c2", field="dead", value=True))
    refused(f, Damage(targets=("c2",), amount="1"), "already dead")


# -- a GM adjust of the wounds ---------------------------------------------------------------------------


def test_gm_adjust_of_wounds_to_a_threshold_raises_the_same_check():
    """A GM adjust to 2 left, 1 left or 0 raises what a wound there raises (react), in the same undo step."""
    f, _ = setup(("Ann", FIGHTER), ("Bob", sheet(tou=1)))
    events = f.do(Adjust(id="c2", field="wounds", value=2))
    assert [(e.prompt.kind, e.prompt.params["dc"]) for e in of(events, PromptRaised)] == [("resolve", 7)]
    f.undo()
    assert f.state.prompts == ()
    f.do(Adjust(id="c2", field="wounds", value=1))
    assert [(p.kind, p.params["dc"]) for p in f.state.prompts] == [("resolve", 9)]
    events = f.do(Adjust(id="c2", field="wounds", value=0))
    assert [type(e).__name__ for e in events] == ["Adjusted", "EffectApplied", "PromptRaised", "PromptResolved"]
    assert data(f, "c2").unconscious and prompts(f) == [("death", "c2")]  # the DC 9 check is moot: out already
    f.do(Adjust(id="c2", field="dead", value=True))
    assert f.state.prompts == ()


def test_gm_cannot_wake_a_character_at_0_wounds():
    """Ruling (ours): "they are unconscious until they regain at least one wound": waking at 0 is refused."""
    f, _ = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    set_wounds(f, "c2", 0)
    refused(f, Adjust(id="c2", field="unconscious", value=False), "unconscious until regaining a wound")
    f.do(Adjust(id="c2", field="wounds", value=1))
    f.do(Adjust(id="c2", field="unconscious", value=False))
    assert not data(f, "c2").unconscious


# -- healing -------------------------------------------------------------------------------------------


def test_healing_from_0_wakes_but_healing_a_knocked_out_character_does_not():
    """Wounds: at 0 "they are unconscious until they regain at least one wound"; never above the maximum."""
    f, _ = setup(("Ann", FIGHTER), ("Bob", DUMMY), ("Cat", DUMMY))
    set_wounds(f, "c2", 0)
    set_wounds(f, "c3", 2)
    f.do(Adjust(id="c3", field="unconscious", value=True))
    events = f.do(Heal(targets=("c2", "c3"), amount="5"))
    bob, cat = of(events, Healed)
    assert (bob.wounds, bob.wakes, cat.wounds, cat.wakes) == (3, True, 1, False)
    assert "5 asked, at most the maximum" in bob.describe(f.steps[-1].before) and "wakes up" in bob.describe(
        f.steps[-1].before
    )
    assert data(f, "c2").wounds == 3 and not data(f, "c2").unconscious
    assert data(f, "c3").wounds == 3 and data(f, "c3").unconscious
    refused(f, Heal(targets=("c2", "c3"), amount="1"), "full wounds")


def test_heal_is_refused_for_the_dead_and_a_death_check_due():
    f, roller = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    f.do(Damage(targets=("c2",), amount="3"))
    refused(f, Heal(targets=("c2",), amount="1"), "check against death is still due")
    roller.add(1, 1)
    f.do(Resolve(actor="c2", stakes="death"))
    refused(f, Heal(targets=("c2",), amount="1"), "no healing brings back the dead")


def test_harm_forms_ask_for_wounds():
    (hurt,) = system.harm_params(False)
    (heal,) = system.harm_params(True)
    assert (hurt.name, hurt.label, heal.name, heal.label) == ("amount", "Wounds", "amount", "Wounds regained")


def test_resolve_checks_and_ripostes_are_gm_actions_on_the_selected_combatant():
    """#12: a resolve check prompted by harm is rolled by whoever it is due for, not whoever's turn it is."""
    specs = {s.name: s for s in system.commands()}
    assert (specs["resolve"].actor, specs["resolve"].subject) == (None, "actor")
    assert (specs["riposte"].actor, specs["riposte"].subject) == (None, "actor")
    assert (specs["cinematic"].actor, specs["cinematic"].subject) == (None, "actor")
    assert (specs["attack"].actor, specs["attack"].subject) == ("actor", "targets")
    f, _ = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    f.do(Damage(targets=("c2",), amount="1"))
    (p,) = f.state.prompts
    cmd = specs[p.command or ""].make(p.params)
    assert isinstance(cmd, Resolve) and cmd.actor == "c2" and cmd.stakes == "unconscious"


# -- what the GM sees, what the players see ----------------------------------------------------------------


def test_standing_status_and_public_for_each_state():
    """#11 / #17: the one word never missed, the status without it, the players' descriptor without numbers."""
    f, roller = setup(
        ("Ann", sheet(str=1, skills="Melee (Heavy) 2", cinematics=1)),
        ("Fresh", DUMMY),
        ("Hurt", DUMMY),
        ("Low", DUMMY),
        ("Out", DUMMY),
        ("Gone", sheet(wil=-2)),
        kind="npc",
    )
    set_wounds(f, "c3", 2)
    set_wounds(f, "c4", 1)
    f.do(Adjust(id="c5", field="unconscious", value=True))
    attack(f, roller, (6, 6, 3, 3, 1, 2), "c1", "c6", result="shove")  # tripled: DC 7 or die
    double = next(p for p in f.state.prompts if p.kind == "double")
    f.do(DismissPrompt(prompt_id=double.id, outcome="no second result"))  # one check a blow: the extra first
    roller.add(1, 2)
    f.do(Resolve(actor="c6", stakes="death"))  # 3 - 2 = 1: dies, still at 3 wounds
    expect = {
        "c2": ("", False, "fresh"),
        "c3": ("", False, "wounded"),
        "c4": ("", False, "badly wounded"),
        "c5": ("unconscious", True, "down"),
        "c6": ("dead", True, "dead"),
    }
    assert f.state.prompts == ()
    for cid, (word, out, public) in expect.items():
        c = f.state.get(cid)
        standing = system.standing(f.state, c)
        assert (standing.word, standing.out, system.public(f.state, c)) == (word, out, public), cid
        assert not re.search(r"\d", system.public(f.state, c))
        status = system.status(f.state, c)
        assert status.startswith(f"Wounds {data(f, cid).wounds}/3"), status
        assert not re.search(r"dead|unconscious", status, re.I), status
    gone = f.state.get("c6")
    assert system.status(f.state, gone) == "Wounds 3/3"
    assert system.detail(f.state, gone).splitlines()[0] == "Wounds 3/3 — DEAD"
    assert system.detail(f.state, gone).count("DEAD") == 1
    ann = f.state.get("c1")
    assert system.status(f.state, ann) == "Wounds 3/3 · 2 quick, 0 half · cin 1"
    assert len("Wounds 3/3 · 2 quick, 0 half") <= 29  # the list's status column at 80x24


def test_status_numbers_come_first_then_the_flags():
    f, _ = setup(("Ann", sheet(per=1, skills="Shooting 1", talents="Sniper", cinematics=2)), ("Bob", DUMMY))
    f.do(Adjust(id="c1", field="prone", value=True))
    f.do(Adjust(id="c1", field="aim", value=1))
    assert system.status(f.state, f.state.get("c1")) == (
        "Wounds 3/3 · 2 quick, 2 half · cin 2 · prone · aim +1 (×2 Sniper)"
    )
    detail = system.detail(f.state, f.state.get("c1"))
    assert "Actions left: 2 quick, 2 half (or one full-round)" in detail and "Now: prone, aim +1" in detail
    f.do(NextTurn())
    assert system.status(f.state, f.state.get("c1")) == "Wounds 3/3 · cin 2 · prone · aim +1 (×2 Sniper)"
    f.do(Adjust(id="c2", field="unconscious", value=True))  # the current combatant, out: no actions shown
    assert f.state.current == "c2" and system.status(f.state, f.state.get("c2")) == "Wounds 3/3"


def test_the_summary_counts_who_falls():
    """A failed resolve check is the fall; the wound before it is not."""
    f, roller = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    attack(f, roller, (4, 4, 3, 4), "c1", "c2")
    roller.add(1, 2)
    f.do(Resolve(actor="c2"))
    fell = []
    for step in f.steps[-2:]:
        state = step.before
        for ev in step.events:
            t = system.tally(state, ev)
            if t is not None and t.fell:
                fell.append((type(ev).__name__, t.target))
            state = evolve(system, state, ev)
    assert fell == [("ResolveRolled", "c2")]
    refused(f, Attack(actor="c2", targets=("c1",)), "unconscious")


# -- one blow, one check ---------------------------------------------------------------------------------


def test_a_doubled_blows_check_waits_for_its_extra_result_one_check_a_blow():
    """Ruling ``lowest``: one blow, one check.  While the extra result of a doubled or tripled blow is still to
    choose, the target's resolve check is refused (rolled, ruled or dismissed), in words: rolled first, the second
    wound raised a second check for the same blow (a tripled blow at 2 wounds: two death checks)."""
    f, r = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    set_wounds(f, "c2", 2)
    attack(f, r, (6, 6, 2, 2, 1, 2), "c1", "c2")  # 19 vs 3: tripled; 2 → 1, the tripled death check is due
    death = next(p for p in f.state.prompts if p.kind == "death")
    r.add(4, 4)
    refused(f, Resolve(actor="c2", stakes="death"), "choose the extra result of Ann's blow on Bob first")
    r.queue.clear()
    refused(f, DismissPrompt(prompt_id=death.id, outcome="passes"), "one check a blow")
    refused(f, DismissPrompt(prompt_id=death.id), "one check a blow")
    f.do(ChooseDouble(actor="c1", target="c2", choice="wound"))  # 1 → 0: still the one death check
    assert prompts(f) == [("death", "c2")] and data(f, "c2").wounds == 0
    r.add(5, 5)
    f.do(Resolve(actor="c2", stakes="death"))  # 10 − 3 (unconscious at 0) = 7: lives
    assert prompts(f) == [] and data(f, "c2").unconscious and not data(f, "c2").dead

    # a doubled hit at 3 wounds: the declared wound (3 → 2) and the second (2 → 1): the DC 9 check alone
    f, r = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    attack(f, r, (5, 5, 2, 3), "c1", "c2")  # 14 vs 5: doubled
    refused(f, Resolve(actor="c2", stakes="unconscious"), "one check a blow")
    f.do(ChooseDouble(actor="c1", target="c2", choice="wound"))
    assert [(p.kind, p.params["dc"]) for p in f.state.prompts] == [("resolve", 9)]
