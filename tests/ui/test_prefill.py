"""Form starting values: who acts, whom it targets, and what is left for the GM."""

from __future__ import annotations

from screens import logic
from tracker import AddCombatant, Fight, ScriptedRoller, StartFight, registry


def started(system_id: str) -> Fight:
    f = Fight(registry.load(system_id), roller=ScriptedRoller())
    f.do(AddCombatant(name="Dusty", kind="pc", sheet={"weapons": "Revolver"}))
    f.do(AddCombatant(name="Outlaw", preset="outlaw"))
    f.do(StartFight())
    return f


def test_a_required_target_is_guessed_as_the_first_foe() -> None:
    f = started("blackjack")
    spec = logic.find_spec(f.system, "attack")
    values = logic.prefill(spec, f.state, None)
    assert values["actor"] == "c1"
    assert values["targets"] == ("c2",)


def test_an_optional_opponent_is_left_empty() -> None:
    """A blackjack save 'against' an NPC adds its Threat to the DV: the GM must choose it."""
    f = started("blackjack")
    spec = logic.find_spec(f.system, "save")
    optional = [p.name for p in spec.params if p.kind in ("combatant", "combatants") and not p.required]
    assert optional, "the save form has an optional opponent"
    values = logic.prefill(spec, f.state, None)
    assert all(name not in values for name in optional)
