"""Issue #44 item 2: a prompt settled by ruling records the outcome the GM picks, through the rules."""

from __future__ import annotations

import pytest

from systems.twod6.events import EffectApplied, ResolveRuled
from tracker.commands import Adjust, DismissPrompt
from tracker.events import PromptResolved

from .helpers import DUMMY, FIGHTER, attack, data, prompts, setup, sheet


def test_a_death_check_ruled_fails_kills_passes_knocks_out_and_undo_restores() -> None:
    f, roller = setup(("Ann", FIGHTER), ("Bob", sheet(wil=1, tou=2, skills="Resolve 1")))
    attack(f, roller, (6, 6, 3, 3, 1, 2), "c1", "c2", result="shove")  # tripled: DC 7 or die, out either way
    death = next(p for p in f.state.prompts if p.kind == "death")
    assert death.outcomes == ("passes", "fails")
    double = next(p for p in f.state.prompts if p.kind == "double")
    assert double.outcomes == ("no second result",)
    f.do(DismissPrompt(prompt_id=double.id, outcome="no second result"))  # one check a blow: the extra first
    ev = f.do(DismissPrompt(prompt_id=death.id, note="no mercy", outcome="fails"))
    (ruled,) = [e for e in ev if isinstance(e, ResolveRuled)]
    assert not ruled.passed and "dies" in ruled.describe(f.state)
    assert data(f, "c2").dead and prompts(f) == []
    f.undo()
    assert not data(f, "c2").dead and ("death", "c2") in prompts(f)
    ev = f.do(DismissPrompt(prompt_id=death.id, outcome="passes"))
    assert [e.effect for e in ev if isinstance(e, EffectApplied)] == ["unconscious"]
    assert data(f, "c2").unconscious and not data(f, "c2").dead


@pytest.mark.parametrize(("outcome", "out"), [("fails", True), ("passes", False)])
def test_an_unconsciousness_check_ruled(outcome: str, out: bool) -> None:
    f, _roller = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    f.do(Adjust(id="c2", field="wounds", value=2))
    (p,) = f.state.prompts
    assert p.kind == "resolve" and p.outcomes == ("passes", "fails")
    ev = f.do(DismissPrompt(prompt_id=p.id, outcome=outcome))
    assert isinstance(ev[0], PromptResolved) and ev[0].outcome == outcome
    assert data(f, "c2").unconscious is out and not data(f, "c2").dead
