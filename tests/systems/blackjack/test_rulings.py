"""Issue #44 item 2: a prompt settled by ruling records the outcome the GM picks, through the rules."""

from __future__ import annotations

import json

import pytest

from saves.format import Codec
from systems.blackjack import system
from systems.blackjack.commands import CastWorking, IngestLead, Injure
from systems.blackjack.events import InjuryMarked, MoraleRuled, SixesResolved
from tests.systems.blackjack.helpers import data, new_fight, npc, of_type, pc, turn_of
from tracker import Entry
from tracker.commands import DismissPrompt, RollInitiative, StartFight
from tracker.errors import Refused


def _morale():
    f = new_fight(3, 4)
    for n in range(4):
        npc(f, f"Outlaw {n}", "outlaw", group="Gang")
    f.do(StartFight())
    f.do(Injure(target="c1", level="fatal"))
    (prompt,) = f.state.prompts
    return f, prompt


@pytest.mark.parametrize(("outcome", "word"), [("breaks: flees", "fled"), ("breaks: surrenders", "surrendered")])
def test_a_morale_prompt_ruled_breaks_sends_the_side_off_and_undo_restores(outcome: str, word: str) -> None:
    f, prompt = _morale()
    assert prompt.outcomes == ("holds", "breaks: flees", "breaks: surrenders")
    ev = f.do(DismissPrompt(prompt_id=prompt.id, note="they saw the sheriff", outcome=outcome))
    (ruled,) = of_type(ev, MoraleRuled)
    assert ruled.broken == ("c2", "c3", "c4") and ruled.outcome == word
    assert all(data(f, c).out == word for c in ruled.broken) and not f.state.prompts
    assert f"({word})" in ruled.describe(f.state)
    back = Codec(system).decode(json.loads(Codec(system).encode(Entry(1, 1, ruled))), 2)
    assert back.event == ruled
    f.undo()
    assert all(data(f, c).out == "" for c in ("c2", "c3", "c4")) and f.state.prompts == (prompt,)


def test_a_morale_prompt_ruled_holds_sends_no_one_off() -> None:
    f, prompt = _morale()
    ev = f.do(DismissPrompt(prompt_id=prompt.id, outcome="holds"))
    assert not of_type(ev, MoraleRuled) and all(data(f, c).out == "" for c in ("c2", "c3", "c4"))
    f.do(Injure(target="c2", level="fatal"))  # half its number out: a new prompt
    (again,) = f.state.prompts
    with pytest.raises(Refused, match="its outcomes: holds, breaks: flees"):
        f.do(DismissPrompt(prompt_id=again.id, outcome="dies"))


@pytest.mark.parametrize(("outcome", "marked"), [("powderburn for each six", 2), ("catastrophe for each six", 0)])
def test_the_sixes_prompt_ruled(outcome: str, marked: int) -> None:
    f = new_fight(6, 2, 6)
    m = pc(f, "Ma", lead=3, workings="Fireball 3")
    npc(f, "Outlaw", "outlaw")
    f.do(RollInitiative())
    f.do(StartFight())
    f.do(IngestLead(actor=m, amount=3))
    turn_of(f, m)  # ingesting was the turn's action: the working is cast with another, next turn
    f.do(CastWorking(actor=m, working="Fireball"))
    (prompt,) = f.state.prompts
    assert prompt.outcomes == ("powderburn for each six", "catastrophe for each six")
    ev = f.do(DismissPrompt(prompt_id=prompt.id, outcome=outcome))
    (resolved,) = of_type(ev, SixesResolved)
    assert len(resolved.choices) == 2 and len(of_type(ev, InjuryMarked)) == marked
    assert data(f, m).pending_sixes == 0 and not f.state.prompts
