"""Issue #44 item 2: a prompt settled by ruling records the outcome the GM picks, through the rules."""

from __future__ import annotations

import pytest

from systems.zludge.commands import RollSkill
from systems.zludge.events import WoundsReopened
from tracker.commands import DismissPrompt, NextTurn

from .helpers import treated
from .test_wounds import BOB, SWORD, F, data, duel, script


def _failed_climb():
    f = duel({**SWORD, "skills": "Medical 3"}, BOB, treated("c1", 1))  # first aid before the fight
    f.do(NextTurn())
    f.do(NextTurn())
    script(f, F(-2))
    f.do(RollSkill(actor="c1", skill="Athletics"))
    (prompt,) = f.state.prompts
    return f, prompt


@pytest.mark.parametrize(("outcome", "penalty"), [("the wounds reopen", -1), ("they hold", 0)])
def test_the_reopen_prompt_ruled(outcome: str, penalty: int) -> None:
    f, prompt = _failed_climb()
    assert prompt.outcomes == ("the wounds reopen", "they hold")
    ev = f.do(DismissPrompt(prompt_id=prompt.id, note="a hard fall", outcome=outcome))
    assert bool([e for e in ev if isinstance(e, WoundsReopened)]) == (outcome == "the wounds reopen")
    assert data(f, "c1").wound_penalty == penalty and f.state.prompts == ()
    f.undo()
    assert data(f, "c1").wound_penalty == 0 and f.state.prompts == (prompt,)
