"""Quick damage and healing (issue #12), GM adjusts that mean a casualty, and who a form starts on."""

from __future__ import annotations

import pytest

from systems.blackjack import system
from systems.blackjack.commands import Attack, Injure
from systems.blackjack.events import InjuryCleared, InjuryMarked
from tests.systems.blackjack.helpers import data, new_fight, npc, of_type, pc
from tracker import Fight
from tracker.commands import CHOICE, Adjust, Damage, Heal, RemoveCombatant, StartFight
from tracker.errors import Refused
from tracker.events import PromptRaised

# -- quick damage: an injury level through the injury path ------------------------------------


def test_quick_damage_is_an_injury_level_that_escalates_and_kills() -> None:
    """Rule: "When an injury of a certain level must be marked but the row is already full, then the injury
    moves up to the next level"; Fatal kills. Quick damage marks the level the GM names the same way."""
    f = new_fight()
    d = pc(f, injuries="lesser a, lesser b")
    ev = f.do(Damage(targets=(d,), amount="lesser", note="rope burn"))
    assert [(e.name, e.steps) for e in ev] == [("rope burn", ("lesser", "slots full", "moderate"))]
    f.do(Damage(targets=(d,), amount="Severe"))
    ev = f.do(Damage(targets=(d,), amount="severe"))
    assert ev[0].steps == ("severe", "slots full", "fatal") and data(f, d).dead
    assert system.standing(f.state, f.state.get(d)).word == "dead"
    with pytest.raises(Refused, match="already dead"):
        f.do(Damage(targets=(d,), amount="lesser"))


def test_quick_damage_is_an_untagged_injury_resistance_does_not_apply() -> None:
    """Ruling (rules/harm.py): quick damage carries no tags, so the Skeleton's resistance to piercing and
    slashing (which names what it resists) does not lower it; Inflict injury with tags does."""
    f = new_fight()
    s = npc(f, "Skeleton", "skeleton")
    ev = f.do(Damage(targets=(s,), amount="lesser"))
    assert ev[0].steps == ("lesser",) and data(f, s).injuries[0] == ("damage",)
    ev = f.do(Injure(target=s, level="lesser", tags="slashing"))
    assert ev[0].steps == ("lesser", "resists slashing", "ignored")


def test_quick_damage_grievous_only_where_the_track_has_it_and_never_temporary() -> None:
    """Ruling: Grievous is the fourth group (the Fire Dragon's); there is no temporary harm in blackjack."""
    f = new_fight()
    d = pc(f)
    dragon = npc(f, "Fire Dragon", "fire_dragon")
    n = len(f.entries)
    with pytest.raises(Refused, match="Dusty: there is no grievous level"):
        f.do(Damage(targets=(dragon, d), amount="grievous"))
    with pytest.raises(Refused, match="no temporary harm"):
        f.do(Damage(targets=(d,), amount="lesser", temporary=True))
    with pytest.raises(Refused, match="not an injury level"):
        f.do(Damage(targets=(d,), amount="3"))
    assert len(f.entries) == n
    f.do(Damage(targets=(dragon,), amount="grievous"))
    assert data(f, dragon).injuries[3] == ("damage",)


def test_quick_damage_to_three_targets_is_one_undo_step() -> None:
    f = new_fight()
    ids = [pc(f, "Dusty"), pc(f, "Ma"), npc(f, "Outlaw", "outlaw")]
    before = f.state
    ev = f.do(Damage(targets=tuple(ids), amount="moderate"))
    assert [e.target for e in of_type(ev, InjuryMarked)] == ids
    assert all(data(f, i).injuries[1] == ("damage",) for i in ids)
    f.undo()
    assert f.state == before


def _gang() -> tuple[Fight, str, str, str]:
    f = new_fight(10)
    d = pc(f, acc=14)
    a = npc(f, "Outlaw A", "outlaw", group="Gang", injuries="moderate x, moderate y, severe z")
    b = npc(f, "Outlaw B", "outlaw", group="Gang")
    f.do(StartFight())
    return f, d, a, b


def test_quick_damage_raises_the_same_morale_prompt_an_attack_does() -> None:
    """Rule: the first casualty on a side prompts its morale check, whatever killed it."""
    f, d, a, _b = _gang()
    shot = of_type(f.do(Attack(actor=d, targets=(a,))), PromptRaised)
    g, _d, a2, _b2 = _gang()
    quick = of_type(g.do(Damage(targets=(a2,), amount="moderate")), PromptRaised)
    assert data(f, a).dead and data(g, a2).dead
    assert [p.prompt for p in quick] == [p.prompt for p in shot]
    assert "first casualty; half its number out of the fight" in quick[0].prompt.text


def test_quick_damage_to_a_lone_npc_raises_the_two_moderate_prompt() -> None:
    """Rule: "(If alone) they suffer 2 moderate injuries": quick damage crosses it as an attack would."""
    f = new_fight()
    p = npc(f, "Pinkerton", "pinkerton")
    f.do(StartFight())
    assert not of_type(f.do(Damage(targets=(p,), amount="moderate")), PromptRaised)
    ev = f.do(Damage(targets=(p,), amount="moderate"))
    assert "alone with 2 moderate injuries" in of_type(ev, PromptRaised)[0].prompt.text


@pytest.mark.parametrize(
    ("field", "value"), [("dead", True), ("out", "fled"), ("out", "surrendered"), ("injury_list", "fatal")]
)
def test_a_gm_adjust_that_means_a_casualty_prompts_morale(field: str, value: object) -> None:
    """A GM adjust to dead, fled or surrendered opens the morale prompt in the same action; a track that
    the rules cannot hold (a fatal injury has no slot) is refused with the reason."""
    f, _d, a, b = _gang()
    if field == "injury_list":
        with pytest.raises(Refused, match="a fatal injury kills; mark the combatant dead"):
            f.do(Adjust(id=a, field=field, value=f"{value} shot"))
        return
    ev = f.do(Adjust(id=b, field=field, value=value))
    assert [(p.prompt.kind, p.prompt.combatant) for p in of_type(ev, PromptRaised)] == [("morale", a)]


def test_a_removal_after_the_start_prompts_morale_in_the_same_action() -> None:
    f, _d, a, b = _gang()
    ev = f.do(RemoveCombatant(id=b, reason="ran off"))
    assert [(p.prompt.kind, p.prompt.combatant) for p in of_type(ev, PromptRaised)] == [("morale", a)]
    f.undo()
    assert not f.state.prompts


# -- quick healing: a treatment ---------------------------------------------------------------


def test_quick_heal_clears_one_injury_as_treatment_does() -> None:
    """Book: "Proper treatment or healing will clear any single injury: lesser, moderate, or severe."
    Ruling (rules/harm.py): quick Heal clears one injury of the level named (or the worst) from each target."""
    f = new_fight()
    d = pc(f, injuries="lesser a, moderate b, severe c")
    m = pc(f, "Ma", injuries="lesser x")
    ev = f.do(Heal(targets=(d, m), amount="worst", note="the doc"))
    assert [(e.target, e.level, e.name, e.reason) for e in of_type(ev, InjuryCleared)] == [
        (d, "severe", "c", "the doc"),
        (m, "lesser", "x", "the doc"),
    ]
    f.do(Heal(targets=(d,), amount="lesser"))
    assert data(f, d).injuries == ((), ("b",), ())
    n = len(f.entries)
    with pytest.raises(Refused, match="Ma has no injury to treat"):
        f.do(Heal(targets=(d, m), amount="worst"))
    with pytest.raises(Refused, match="no severe injury"):
        f.do(Heal(targets=(d,), amount="severe"))
    f.do(Damage(targets=(m,), amount="fatal"))
    with pytest.raises(Refused, match="Ma is dead"):
        f.do(Heal(targets=(m,), amount="worst"))
    assert len(f.entries) == n + 1


def test_harm_forms_ask_for_a_level() -> None:
    """The quick damage form asks for an injury level (a choice), the heal form for the level treated."""
    (hurt,) = system.harm_params(heal=False)
    (heal,) = system.harm_params(heal=True)
    assert (hurt.name, hurt.kind, hurt.label) == ("amount", CHOICE, "Injury level")
    assert hurt.choices == ("lesser", "moderate", "severe", "grievous", "fatal")
    assert (heal.kind, heal.choices[0]) == (CHOICE, "worst") and "fatal" not in heal.choices


# -- who a form starts on -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "actor", "subject"),
    [
        ("attack", "actor", "targets"),
        ("injure", None, "target"),
        ("treat", None, "target"),
        ("save", None, "actor"),
        ("morale", None, "actor"),
        ("paper", None, "target"),
        ("burn", None, "actor"),
        ("rest", None, None),
        ("cast", "actor", "target"),  # the caster acts; the selected one is the target (tbj finding 1)
    ],
)
def test_gm_actions_start_on_the_selected_combatant_not_the_current_one(
    name: str, actor: str | None, subject: str | None
) -> None:
    """Inflict injury, treatment, saves and morale are the GM's: they start on the selected combatant (subject),
    never silently on whoever's turn it is (actor None); an attack starts on its actor and targets the selected."""
    spec = next(s for s in system.commands() if s.name == name)
    assert (spec.actor, spec.subject) == (actor, subject)
