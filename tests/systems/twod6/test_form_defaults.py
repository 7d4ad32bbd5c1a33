"""Ruling: the attack form starts on the attacker's best-ranked attack skill."""

from __future__ import annotations

from screens import logic
from systems.twod6 import system
from systems.twod6.commands import Attack
from systems.twod6.events import AttackRolled
from tests.systems.twod6.helpers import data, of, setup, sheet
from tracker.commands import NextTurn


def attack_spec():
    return next(s for s in system.commands() if s.name == "attack")


def test_an_archer_attacks_with_archery_and_a_swordsman_with_the_sword() -> None:
    f, _ = setup(("Robin", sheet(skills="Archery 3, Melee (Light) 1")), ("Hugh", sheet(skills="Melee (Heavy) 2")))
    spec = attack_spec()
    assert spec.defaults_for(f.state, "c1") == {"skill": "Archery"}
    assert spec.defaults_for(f.state, "c2") == {"skill": "Melee (Heavy)"}


def test_no_trained_attack_skill_keeps_the_declared_default() -> None:
    f, _ = setup(("Peasant", sheet(skills="Resolve 1")), ("Hugh", sheet(skills="Melee (Heavy) 2")))
    assert attack_spec().defaults_for(f.state, "c1") == {}
    assert attack_spec().defaults_for(f.state, "nobody") == {}


def test_the_app_form_is_prefilled_for_whoever_acts() -> None:
    f, _ = setup(("Robin", sheet(skills="Archery 3")), ("Hugh", sheet(skills="Melee (Heavy) 2")))
    values = logic.prefill(attack_spec(), f.state, None)
    assert values["actor"] == f.state.current == "c1"
    assert values["skill"] == "Archery"


def test_a_caster_starts_on_a_spell_it_has_else_its_best_weapon_skill() -> None:
    """Ruling: Cast ranks make a spell the form's default only for a caster with that spell's talent; Entangle
    starts on its only result, grapple.  The form started every caster on Cast (Blast), which was then refused."""
    f, roller = setup(
        ("Seer", sheet(int=1, skills="Cast 3, Melee (Heavy) 1", talents="Negate, Heal")),
        ("Binder", sheet(int=1, skills="Cast 2, Melee (Light) 1", talents="Entangle")),
        ("Vex", sheet(int=1, skills="Cast 2, Melee (Light) 1", talents="Blast, Entangle")),
        ("Hedge", sheet(skills="Cast 1, Melee (Light) 1", talents="Blast")),
        ("Adept", sheet(skills="Cast (Blast) 2, Melee (Light) 1", talents="Blast")),
        ("Mute", sheet(skills="Cast 2", talents="Heal")),
        ("Kara", sheet(skills="Melee (Heavy) 2")),
    )
    spec = attack_spec()
    assert spec.defaults_for(f.state, "c1") == {"skill": "Melee (Heavy)"}
    assert spec.defaults_for(f.state, "c2") == {"skill": "Cast (Entangle)", "result": "grapple"}
    assert spec.defaults_for(f.state, "c3") == {"skill": "Cast (Blast)"}
    assert spec.defaults_for(f.state, "c4") == {"skill": "Melee (Light)"}  # a tie: weapons come first
    assert spec.defaults_for(f.state, "c5") == {"skill": "Cast (Blast)"}  # the spell's own sub-skill
    assert spec.defaults_for(f.state, "c6") == {}  # no attack spell, no weapon skill: the declared default
    # the forms' starting values make attacks the rules take
    roller.add(1, 2, 3, 3)  # a miss
    f.do(Attack(actor="c1", targets=("c7",), **spec.defaults_for(f.state, "c1")))
    f.do(NextTurn())
    roller.add(3, 3, 3, 3)  # Cast 6 + 2 + 1 = 9 vs Melee (Heavy) 6 + 2 = 8: a hit
    (ev,) = of(f.do(Attack(actor="c2", targets=("c7",), **spec.defaults_for(f.state, "c2"))), AttackRolled)
    assert ev.skill == "Cast (Entangle)" and ev.times == 1 and data(f, "c7").grappled_by == "c2"
