"""An action a system declares ``in_fight`` (an attack) is one the rules refuse before the fight starts and after
it ends, whatever its form says: the app refuses it before its form opens (tests/ui/test_phase_keys.py), so the
declaration must match the rules, in every system."""

from __future__ import annotations

from pathlib import Path

import pytest

from screens import logic
from tests.ui.drive import build_fight
from tracker import commands as C
from tracker import registry
from tracker.errors import Refused
from tracker.fight import Fight

SYSTEMS = ["bnb", "blackjack", "zludge", "twod6"]


def _refused_everywhere(fight: Fight, spec: C.CommandSpec) -> list[str]:
    """For each combatant doing it (selected, as the form would start): what happened when it was not refused."""
    system = fight.system
    done = []
    for c in fight.state.present:
        values = logic.prefill(spec, fight.state, c.id, turn_commands=system.turn_commands)
        try:
            fight.do(spec.make(values))
        except Refused:
            continue
        fight.undo()
        done.append(c.name)
    return done


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_an_in_fight_action_is_refused_by_the_rules_before_the_start_and_after_the_end(
    system_id: str, tmp_path: Path
) -> None:
    system = registry.load(system_id)
    specs = [s for s in logic.specs(system) if s.in_fight]
    assert all(s.name not in {c.name for c in C.CORE_SPECS} for s in specs)
    setup = build_fight(system_id, tmp_path / "setup.jsonl", start=False)
    ended = build_fight(system_id, tmp_path / "ended.jsonl")
    ended.do(C.EndFight())
    for spec in specs:
        assert _refused_everywhere(setup, spec) == [], spec.name
        assert _refused_everywhere(ended, spec) == [], spec.name


def test_the_attacks_of_the_turn_based_systems_are_declared_in_fight() -> None:
    """The attack of each system whose rules refuse it outside the fight says so (blackjack's is not one: its
    attack is refused by nothing but its own terms outside a fight)."""
    declared = {sid: {s.name for s in logic.specs(registry.load(sid)) if s.in_fight} for sid in SYSTEMS}
    assert declared["bnb"] == {"attack", "gunplay", "critter_attacks", "blast"}
    assert declared["twod6"] == {"attack", "aim", "act", "sneak", "break_grapple", "negate"}
    assert declared["zludge"] == {"attack", "act"}
    assert declared["blackjack"] == set()
