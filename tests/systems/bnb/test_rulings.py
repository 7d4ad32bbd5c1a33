"""Issue #44 item 2: a prompt settled by ruling records the outcome the GM picks, through the rules."""

from __future__ import annotations

import pytest

from systems.bnb.commands import DeathSave
from systems.bnb.events import DeathRuled, DeathSaveWaived
from tracker import DismissPrompt, Refused
from tracker.events import PromptResolved

from .helpers import data
from .test_harm import _shot_down


def test_a_death_save_ruled_dies_or_lives_and_undo_restores() -> None:
    """Ruling: "dies" leaves the combatant dead, "lives" alive and unconscious; the note is in the log."""
    f, _dice, dusty, _lefty, _ = _shot_down()
    (prompt,) = f.state.prompts
    assert prompt.outcomes == ("lives", "dies")
    events = f.do(DismissPrompt(prompt_id=prompt.id, note="dead, no save for mooks", outcome="dies"))
    assert [type(e) for e in events] == [PromptResolved, DeathRuled]
    assert data(f, dusty).status == "dead" and f.state.prompts == ()
    assert "dies" in events[0].describe(f.state) and "dead, no save for mooks" in events[0].describe(f.state)
    f.undo()
    assert data(f, dusty).status == "dying" and f.state.prompts == (prompt,)
    events = f.do(DismissPrompt(prompt_id=prompt.id, note="a lucky break", outcome="lives"))
    assert [type(e) for e in events] == [PromptResolved, DeathSaveWaived]
    assert data(f, dusty).status == "unconscious"
    f.undo()
    assert data(f, dusty).status == "dying"


def test_a_ruling_names_one_of_the_prompts_outcomes() -> None:
    f, _dice, _dusty, _lefty, _ = _shot_down()
    (prompt,) = f.state.prompts
    with pytest.raises(Refused, match="its outcomes: lives, dies"):
        f.do(DismissPrompt(prompt_id=prompt.id, outcome="breaks"))
    assert f.state.prompts == (prompt,)


def test_a_lucky_streak_offer_declares_its_outcome() -> None:
    f, _dice, dusty, _lefty, _ = _shot_down(save_faces=(2,), cls="Gambler")
    f.do(DeathSave(actor=dusty))
    (offer,) = f.state.prompts
    assert offer.outcomes == ("failure stands",)
    f.do(DismissPrompt(prompt_id=offer.id, outcome="failure stands"))
    assert f.state.prompts == () and data(f, dusty).status == "dead"
