"""Ruling: the attack form starts on the attacker's best-ranked attack skill."""

from __future__ import annotations

from screens import logic
from systems.twod6 import system
from tests.systems.twod6.helpers import setup, sheet


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
