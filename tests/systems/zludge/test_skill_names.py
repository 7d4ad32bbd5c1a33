"""Naming the skill of a roll or a contest, the skill form off the roller's turn, the help's keys.

Found in play (a10 audit, Z-A/Z-B/Z-C): "Medical (First Aid)" typed in the skill field rolled untrained at -1
under a label that looked like the specialization roll; "Stelth" rolled -1 with no word; the skill form opened
as the turn's action for someone whose turn it was not and the refusal did not say to untick it; the help named
the ambush's key as A (the core's Add) and left out contest (k).
"""

from __future__ import annotations

import pytest

from screens.logic import prefill
from systems.zludge import system
from systems.zludge.commands import Attack, RollSkill
from systems.zludge.contest import Contest, ContestRolled
from systems.zludge.events import SkillRolled
from tests.systems.zludge.helpers import F, add, duel, new_fight, script
from tracker import Fight
from tracker.commands import EndFight, SetInitiative, StartFight
from tracker.errors import Refused

ANA = {"skills": "Melee 2 +Swords, Medical 1 +First Aid, Stealth 2, Acrobatics 1", "weapon": "sword"}
KNIGHT = {"skills": "Melee 2, Medical 1 +First Aid, Athletics 1"}
PLAIN = {"skills": "Medical 2, Athletics 1"}


def _rolled(f: Fight, cmd: object) -> SkillRolled:
    (ev,) = [e for e in f.do(cmd) if isinstance(e, SkillRolled)]
    return ev


# -- Z-A: skill roll -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("typed", ["Medical (First Aid)", "medical (first aid)", "Medical(First Aid)"])
def test_a_specialization_typed_in_the_skill_field_is_the_specialization_roll(typed: str) -> None:
    """Medical 1 +First Aid: -1 + 1 rank + 2 = +2 Good, as with the specialization in its own field (it rolled -1)."""
    f = new_fight()
    ana = add(f, "Ana", **ANA)
    script(f, F(0), F(0))
    typed_in = _rolled(f, RollSkill(actor=ana, skill=typed, as_action=False))
    in_field = _rolled(f, RollSkill(actor=ana, skill="Medical", specialty="First Aid", as_action=False))
    assert (typed_in.skill, typed_in.total) == ("Medical (First Aid)", 2)
    assert (in_field.skill, in_field.total) == ("Medical (First Aid)", 2)
    assert typed_in.mods == in_field.mods


def test_a_sheet_skill_named_with_parentheses_is_that_skill() -> None:
    f = new_fight()
    sage = add(f, "Sage", skills="Knowledge (History) 2 +Wars, Knowledge 1")
    script(f, F(0))
    ev = _rolled(f, RollSkill(actor=sage, skill="knowledge (history)", as_action=False))
    assert (ev.skill, ev.total) == ("Knowledge (History)", 1)
    script(f, F(0), F(0))
    for typed, field in (("Knowledge (History) (wars)", ""), ("Knowledge (History)", "Wars")):
        ev = _rolled(f, RollSkill(actor=sage, skill=typed, specialty=field, as_action=False))
        assert (ev.skill, ev.total) == ("Knowledge (History) (Wars)", 3)
    with pytest.raises(Refused, match="no specialization 'History' in Knowledge"):
        f.do(RollSkill(actor=sage, skill="Knowledge", specialty="History", as_action=False))


def test_the_same_specialization_in_both_fields_is_one_and_two_are_refused() -> None:
    f = new_fight()
    ana = add(f, "Ana", **ANA)
    script(f, F(0))
    ev = _rolled(f, RollSkill(actor=ana, skill="Medical (First Aid)", specialty="first aid", as_action=False))
    assert ev.total == 2
    with pytest.raises(Refused, match="two specializations"):
        f.do(RollSkill(actor=ana, skill="Medical (First Aid)", specialty="Surgery", as_action=False))


def test_a_specialization_the_sheet_does_not_have_is_refused_naming_the_skills() -> None:
    f = new_fight()
    ana = add(f, "Ana", **ANA)
    with pytest.raises(Refused, match="no specialization 'Surgery' in Medical"):
        f.do(RollSkill(actor=ana, skill="Medical (Surgery)", as_action=False))
    with pytest.raises(Refused, match=r"no Athletics on the sheet.*skills: Melee 2 \+Swords, Medical 1 \+First Aid"):
        f.do(RollSkill(actor=ana, skill="Athletics (Climbing)", as_action=False))
    assert not f.entries or not any(isinstance(e.event, SkillRolled) for e in f.entries)


@pytest.mark.parametrize(("typed", "meant"), [("Stelth", "Stealth"), ("Medic", "Medical"), ("acro", "Acrobatics")])
def test_a_typo_of_a_sheet_skill_is_refused_naming_it(typed: str, meant: str) -> None:
    """It rolled untrained at -1 with no word."""
    f = new_fight()
    ana = add(f, "Ana", **ANA)
    with pytest.raises(Refused, match=f"no skill '{typed}'; did you mean {meant}\\?"):
        f.do(RollSkill(actor=ana, skill=typed, as_action=False))


def test_a_specialization_typed_alone_is_refused_naming_its_skill() -> None:
    f = new_fight()
    ana = add(f, "Ana", **ANA)
    with pytest.raises(Refused, match=r"First Aid is Ana's specialization in Medical: roll Medical \(First Aid\)"):
        f.do(RollSkill(actor=ana, skill="first aid", as_action=False))


def test_a_skill_not_on_the_sheet_rolls_untrained_and_the_log_says_so() -> None:
    """l.63: skills default to -1 (Poor). Athletics is no typo of Acrobatics: it rolls."""
    f = new_fight()
    ana = add(f, "Ana", **ANA)
    script(f, F(0), F(0))
    ev = _rolled(f, RollSkill(actor=ana, skill="athletics", as_action=False))
    assert (ev.skill, ev.total) == ("Athletics", -1)
    assert "untrained -1 → -1 Poor" in ev.describe(f.state)
    trained = _rolled(f, RollSkill(actor=ana, skill="Stealth", as_action=False))
    assert "untrained" not in trained.describe(f.state)


def test_a_skill_listed_with_0_ranks_rolls_though_its_name_is_close_to_another() -> None:
    """The way the typo refusal gives to roll a skill named close to a listed one (Diving beside Driving)."""
    f = new_fight()
    ana = add(f, "Ana", skills="Driving 2")
    with pytest.raises(Refused, match="did you mean Driving"):
        f.do(RollSkill(actor=ana, skill="Diving", as_action=False))
    bo = add(f, "Bo", skills="Driving 2, Diving 0")
    script(f, F(0))
    assert _rolled(f, RollSkill(actor=bo, skill="Diving", as_action=False)).total == -1


# -- Z-A: contest ----------------------------------------------------------------------------------------------


def test_a_contest_reads_the_specialization_in_the_skill() -> None:
    """Ana Medical (First Aid) +2 against a Knight with the same specialization (+2) and one without (Medical +1)."""
    f = new_fight()
    ana, knight, plain = add(f, "Ana", **ANA), add(f, "Knight", "npc", **KNIGHT), add(f, "Plain", "npc", **PLAIN)
    (ev,) = f.do(Contest(actor=ana, target=plain, skill="Medical (First Aid)", kind="simple"))
    assert isinstance(ev, ContestRolled)
    assert (ev.first.skill, ev.first.total, ev.second.skill, ev.second.total) == (
        "Medical (First Aid)",
        2,
        "Medical",
        1,
    )
    assert ev.winner == ana
    script(f, F(0), F(0), F(1), F(0))
    first, second = f.do(Contest(actor=ana, target=knight, skill="Medical", specialty="First Aid"))
    assert (first.first.total, first.second.skill, first.second.total) == (2, "Medical (First Aid)", 2)
    assert second.winner == ana


def test_a_contest_against_a_named_skill_and_specialization() -> None:
    f = new_fight()
    ana, knight = add(f, "Ana", **ANA), add(f, "Knight", "npc", **KNIGHT)
    (ev,) = f.do(Contest(actor=knight, target=ana, skill="Melee", target_skill="Melee (Swords)", kind="simple"))
    assert (ev.first.total, ev.second.skill, ev.second.total, ev.winner) == (1, "Melee (Swords)", 3, ana)
    script(f, F(1), F(0))
    (ev,) = f.do(Contest(actor=knight, target=ana, skill="Melee", target_skill="stealth", target_specialty=""))
    assert (ev.second.skill, ev.second.total, ev.winner) == ("Stealth", 1, knight)
    (ev,) = f.do(Contest(actor=knight, target=ana, skill="Medical", target_specialty="First Aid", kind="simple"))
    assert (ev.first.skill, ev.second.skill, ev.winner) == ("Medical", "Medical (First Aid)", ana)


def test_a_contest_refuses_a_typo_or_a_specialization_not_on_the_sheet() -> None:
    f = new_fight()
    ana, knight = add(f, "Ana", **ANA), add(f, "Knight", "npc", **KNIGHT)
    with pytest.raises(Refused, match="did you mean Stealth"):
        f.do(Contest(actor=ana, target=knight, skill="Stelth"))
    with pytest.raises(Refused, match="no specialization 'Surgery' in Medical"):
        f.do(Contest(actor=ana, target=knight, skill="Medical", target_skill="Medical (Surgery)"))


def test_the_contest_form_asks_for_both_specializations() -> None:
    spec = next(s for s in system.commands() if s.name == "contest")
    names = [p.name for p in spec.params]
    assert {"specialty", "target_specialty"} <= set(names)
    built = spec.make({"actor": "c1", "target": "c2", "skill": "Medical", "specialty": "First Aid"})
    assert built == Contest(actor="c1", target="c2", skill="Medical", specialty="First Aid")


# -- Z-B: the skill form off the roller's turn -----------------------------------------------------------------


def _three() -> tuple[Fight, str, str]:
    f = new_fight()
    ana, bo = add(f, "Ana", **ANA), add(f, "Bo", **PLAIN)
    f.do(SetInitiative(values={ana: 2, bo: 1}))
    return f, ana, bo


def test_the_skill_form_off_turn_starts_as_no_action() -> None:
    """A check that costs no action is rolled at any moment: off Bo's turn, Bo's form starts unticked."""
    f, ana, bo = _three()
    spec = next(s for s in system.commands() if s.name == "roll_skill")
    assert spec.defaults_for(f.state, bo) == {}  # before the fight the box means nothing: the form keeps its default
    f.do(StartFight())
    assert f.state.current == ana
    assert spec.defaults_for(f.state, bo) == {"as_action": False}
    assert spec.defaults_for(f.state, ana) == {"as_action": True}
    assert prefill(spec, f.state, bo)["as_action"] is False  # the GM selected Bo and pressed r
    assert prefill(spec, f.state, ana)["as_action"] is True
    f.do(EndFight())
    assert spec.defaults_for(f.state, bo) == {}


def test_the_off_turn_refusal_says_to_untick_the_box() -> None:
    f, _, bo = _three()
    f.do(StartFight())
    with pytest.raises(Refused, match=r"it is Ana's turn.*untick 'Is the turn's action'"):
        f.do(RollSkill(actor=bo, skill="Athletics", as_action=True))
    script(f, F(0))
    assert _rolled(f, RollSkill(actor=bo, skill="Athletics", as_action=False)).total == 0


# -- the attack form's specialization after the skill changed (minor note) ------------------------------------


def test_a_weapon_specialization_left_on_another_skill_is_refused_saying_whose_it_is() -> None:
    """The attack form starts on "Swords" for a sword; the GM switched to Unarmed and the refusal said only
    "no specialization 'Swords' in Unarmed"."""
    f = duel(ANA, {"skills": "Acrobatics 1"})
    with pytest.raises(Refused, match=r"Swords is a Melee specialization \(empty the specialization"):
        f.do(Attack(actor="c1", target="c2", skill="Unarmed", specialty="Swords"))


# -- Z-C: the help's keys --------------------------------------------------------------------------------------


def test_help_lists_every_action_with_its_real_key() -> None:
    text = system.help()
    actions = " ".join(text[text.index("Actions:") :].split())
    assert "ambush_initiative (b)" in actions and "contest (k)" in actions
    assert "(A)" not in actions
    for s in system.commands():
        assert f"{s.name} ({s.key}" in actions if s.key else s.name in actions, s.name
