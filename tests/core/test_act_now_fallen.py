"""One who fell while holding (dead, unconscious, comatose) could still act now: "Bandit 1 acts now", its turn
logged, and the players saw "Up: Bandit 1" (audit a14 s1, F0).  Ruling in tracker/engine.py:_act_now: refused,
saying the hold lapses at the next round; the players' row no longer says "holding" of one who cannot act."""

from __future__ import annotations

from pathlib import Path

import pytest

from screens.table import project
from tests.ui.drive import build_fight
from tracker import commands as C
from tracker.errors import Refused


@pytest.mark.parametrize(("sid", "amount"), [("twod6", "9"), ("twod6", "3"), ("zludge", "4"), ("blackjack", "fatal")])
def test_one_fallen_while_holding_cannot_act_now(tmp_path: Path, sid: str, amount: str) -> None:
    f = build_fight(sid, tmp_path / "f.jsonl")
    first = f.state.current
    assert first is not None
    f.do(C.Delay(id=first))
    f.do(C.Damage(targets=(first,), amount=amount))
    for p in list(f.state.prompts):
        f.do(C.DismissPrompt(prompt_id=p.id, note="r", outcome=None))
    c = f.state.get(first)
    assert c.held and f.system.takes_turns(f.state, c) is False
    with pytest.raises(Refused, match="cannot act now: the held action lapses at the next round"):
        f.do(C.ActNow(id=first))
    row = next(r for r in project(f.system, f).rows if r.cid == first)
    assert "holding" not in row.conditions
    f.close()


def test_a_rename_by_adjust_keeps_the_gms_why(tmp_path: Path) -> None:
    """GM adjust of the name asked for a "Why" and dropped it (audit a14 s1, F1): it is a note of the action."""
    from tracker import events as E

    f = build_fight("bnb", tmp_path / "f.jsonl")
    c = f.state.present[0]
    events = f.do(C.Adjust(id=c.id, field="name", value="Assassin", note="she was the spy all along"))
    assert [type(e) for e in events] == [E.CombatantRenamed, E.NoteAdded]
    assert events[1].text == "she was the spy all along" and events[1].id == c.id
    assert f.state.get(c.id).name == "Assassin"
    f.close()
