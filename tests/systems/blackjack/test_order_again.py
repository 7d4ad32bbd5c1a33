"""I (set the order) in blackjack when the order is already PCs, then NPCs, as added: it logged the same
"Order: …" line again (audit rg2, F5).  It is refused, saying so; after a move in the order, I sets it back."""

from __future__ import annotations

from pathlib import Path

import pytest

import saves
from tests.ui.drive import build_fight
from tracker import commands as C
from tracker.errors import Refused


def test_setting_the_order_again_is_refused_and_logs_nothing(tmp_path: Path) -> None:
    fight = build_fight("blackjack", tmp_path / "f.jsonl", start=False)
    fight.do(C.RollInitiative())
    before = len(fight.entries)
    with pytest.raises(Refused, match="already PCs, then NPCs, as added"):
        fight.do(C.RollInitiative())
    assert len(fight.entries) == before
    fight.close()


def test_after_a_move_the_order_is_set_back(tmp_path: Path) -> None:
    fight = build_fight("blackjack", tmp_path / "f.jsonl", start=False)
    fight.do(C.RollInitiative())
    first = fight.state.order
    fight.do(C.MoveInOrder(id=first[0], position=1))
    assert fight.state.order != first
    fight.do(C.RollInitiative())
    assert fight.state.order == first
    fight.close()
    assert saves.load(tmp_path / "f.jsonl").entries
