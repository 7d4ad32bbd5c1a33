"""Round 4 table fixes (g2 audit, zludge): a combatant who has taken its turn's action cannot hold it (F4); the
ambush form presumes no ambusher and its line names the ambushed (F2); a skill roll is physical by its skill (F1);
an attribute no skill is based on says so in the detail pane (F5)."""

from __future__ import annotations

import pytest

from screens import logic
from systems.zludge import system
from systems.zludge.commands import AmbushInitiative, Attack, MarkWound, RollSkill
from systems.zludge.events import AmbushDeclared, SkillRolled
from systems.zludge.table import R
from tests.systems.zludge.helpers import F, add, data, new_fight, script
from tracker import Fight
from tracker.commands import ActNow, AddCombatant, Adjust, Delay, NextTurn, SetInitiative, StartFight
from tracker.dice import SeededRoller
from tracker.errors import Refused

KNIFE = {"skills": "Melee 2", "weapon": "knife"}


def _three() -> Fight:
    """Rook (c1), Mara (c2) and a Soldier (c3), in that order: Rook's turn, round 1, no one flat-footed matters."""
    f = new_fight()
    add(f, "Rook", **KNIFE)
    add(f, "Mara", **KNIFE)
    add(f, "Soldier", kind="npc", **KNIFE)
    f.do(SetInitiative(values={"c1": 3, "c2": 2, "c3": 1}))
    f.do(StartFight())
    assert f.state.current == "c1"
    return f


# -- F4: holding after the turn's action -------------------------------------------------------------------------


def test_one_who_has_acted_cannot_hold_the_action_and_the_gm_can_free_it() -> None:
    """g2 F4: Rook attacked, held (D), acted now (W) and attacked again in round 1. A held action is the turn's
    one action (l.104): once it is taken there is none to hold. The GM's adjust frees it."""
    f = _three()
    script(f, F(1), F(0))
    f.do(Attack(actor="c1", target="c3"))
    before, entries = f.state, list(f.entries)
    with pytest.raises(Refused) as e:
        f.do(Delay())
    said = str(e.value)
    assert said.startswith("Rook has taken this turn's action: holding it now would give a second one this round")
    assert "GM adjust 'Has taken this turn's action: no' frees it" in said
    assert e.value.rule == R.hold and R.hold.source == "ruling on zludge l.104"
    assert f.state == before and f.entries == entries
    # the GM frees it: the hold goes, and the held turn gives the one action it held
    f.do(Adjust(id="c1", field="spent", value=False))
    f.do(Delay())
    assert f.state.current == "c2" and f.state.get("c1").held
    f.do(ActNow(id="c1"))
    script(f, F(1), F(0))
    f.do(Attack(actor="c1", target="c3"))


def test_one_who_has_not_acted_may_hold_and_act_once_later() -> None:
    f = _three()
    f.do(Delay())
    assert f.state.current == "c2"
    f.do(ActNow(id="c1"))
    script(f, F(1), F(0))
    f.do(Attack(actor="c1", target="c3"))
    with pytest.raises(Refused, match="has taken this turn's action: holding it now"):
        f.do(Delay())
    with pytest.raises(Refused, match="already taken its action this turn"):
        f.do(Attack(actor="c1", target="c3"))


def test_has_taken_this_turns_action_yes_is_only_for_the_one_up() -> None:
    f = _three()
    with pytest.raises(Refused, match="only the one whose turn it is can be marked as having taken its action"):
        f.do(Adjust(id="c2", field="spent", value=True))
    f.do(Adjust(id="c1", field="spent", value=True))
    with pytest.raises(Refused, match="holding it now would give a second one"):
        f.do(Delay())
    f.do(NextTurn())
    assert "spent" in system.fight_only


# -- F2: the ambush form ------------------------------------------------------------------------------------------


def _ambush_fight() -> Fight:
    f = Fight(system, roller=SeededRoller(7))
    for name in ("Rook", "Mara"):
        add(f, name, skills="Reflexes 1, Alertness 1")
    f.do(AddCombatant(name="Thug", preset="thug", count=2))
    f.do(AddCombatant(name="Gunman", preset="gunman", hidden=True))
    return f


def test_the_ambush_form_starts_with_no_ambusher_ticked() -> None:
    """g2 F2: with Mara selected (a PC), b opened with Mara ticked as an ambusher; the GM ticked the Gunman too and
    recorded an ambush by both."""
    f = _ambush_fight()
    spec = next(s for s in system.commands() if s.name == "ambush_initiative")
    mara = f.state.by_name("Mara").id
    values = logic.prefill(spec, f.state, mara)
    assert not values.get("ambushers")
    assert logic.roles(spec) == (None, None)
    with pytest.raises(Refused, match="name the ambushers"):
        f.do(spec.make(logic.form_values(f.state, spec.params, {**values, "ambushers": ()})))


def test_the_ambush_line_names_the_ambushed() -> None:
    f = _ambush_fight()
    gunman, mara = f.state.by_name("Gunman").id, f.state.by_name("Mara").id
    ev = f.do(AmbushInitiative(ambushers=(gunman,), after_surprise=True))[0]
    assert isinstance(ev, AmbushDeclared)
    assert ev.describe(f.state).startswith("Ambush by Gunman; ambushed: Rook, Mara, Thug 1, Thug 2: ")
    # an ambush by both sides says so plainly: Rook is ambushed by his own ally
    f.undo()
    ev = f.do(AmbushInitiative(ambushers=(gunman, mara)))[0]
    assert ev.describe(f.state) == "Ambush by Gunman, Mara; ambushed: Rook, Thug 1, Thug 2"


# -- F1: a skill roll is physical by its skill --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("skill", "physical"),
    [
        ("Alertness", False),
        ("Medical (First Aid)", False),
        ("Survival", False),
        ("Persuasion", False),
        ("Athletics (Climbing)", True),
        ("Acrobatics", True),
        ("Stealth", True),
        ("Reflexes", True),
    ],
)
def test_a_skill_roll_is_physical_by_its_skill(skill: str, physical: bool) -> None:
    """g2 F1: a Hurt PC's Alertness took the Hurt -1 (Physical stood ticked for every skill); the book puts wound
    penalties on physical actions (l.116)."""
    f = new_fight()
    add(
        f,
        "Mara",
        skills="Alertness 2, Athletics 2 +Climbing, Medical 2 +First Aid, Acrobatics 1, Stealth 1, Reflexes 1, "
        "Survival 1",
    )
    f.do(MarkWound(target="c1", level=1))
    script(f, F(0))
    ev = f.do(RollSkill(actor="c1", skill=skill))[0]
    assert isinstance(ev, SkillRolled) and ev.physical is physical
    assert any("Hurt" in m.label for m in ev.mods) is physical


def test_the_gm_still_says_physical_or_not_on_the_form() -> None:
    f = new_fight()
    add(f, "Mara", skills="Alertness 2, Athletics 2")
    f.do(MarkWound(target="c1", level=1))
    spec = next(s for s in system.commands() if s.name == "roll_skill")
    param = next(p for p in spec.params if p.name == "physical")
    assert (param.choices, param.default) == (("by the skill", "yes", "no"), "by the skill")
    for skill, said, physical in (("Alertness", "yes", True), ("Athletics", "no", False), ("Alertness", "", False)):
        script(f, F(0))
        values = logic.form_values(f.state, spec.params, {"actor": "c1", "skill": skill, "physical": said})
        ev = f.do(spec.make(values))[0]
        assert ev.physical is physical, (skill, said)
    assert RollSkill(actor="c1", skill="x", physical=True).physical is True


# -- F5: an attribute no skill is based on ------------------------------------------------------------------------


def test_an_attribute_no_skill_is_based_on_says_so_in_the_detail() -> None:
    """g2 F5: "Agility +1" with no "@Agility" in the skills counted in no roll, and the detail showed it beside the
    skills as if it did."""
    f = new_fight()
    f.do(
        AddCombatant(
            name="Rook",
            kind="pc",
            sheet={"attributes": "Agility +1, Wits +0", "skills": "Melee 2, Acrobatics 1, Reflexes 1"},
        )
    )
    text = system.detail(f.state, f.state.get("c1"))
    assert "Agility +1 Decent (on no skill, so in no roll: 'Melee 2 @Agility' uses it)" in text
    assert "Wits +0 Fair" in text and "Wits +0 Fair (" not in text  # +0 counts for nothing either way
    f.do(Adjust(id="c1", field="skills_text", value="Melee 2 @Agility, Acrobatics 1, Reflexes 1"))
    text = system.detail(f.state, f.state.get("c1"))
    assert "Agility +1 Decent" in text and "on no skill" not in text
    assert data(f, "c1").skill_mod("Melee") == 2
