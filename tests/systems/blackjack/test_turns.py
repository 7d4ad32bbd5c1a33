"""Ruling: attacks, reloads and lead-working are actions on the actor's own turn once the fight runs."""

from __future__ import annotations

import pytest

from systems.blackjack.commands import Attack
from tests.systems.blackjack.helpers import new_fight, npc, pc
from tracker.commands import StartFight
from tracker.errors import Refused


def test_an_attack_out_of_turn_is_refused_and_logs_nothing() -> None:
    f = new_fight()
    dusty = pc(f, "Dusty", weapons="Revolver")
    outlaw = npc(f, "Outlaw", preset="outlaw")
    f.do(StartFight())  # the book has no initiative: PCs first, then NPCs
    assert f.state.current == dusty
    n = len(f.entries)
    with pytest.raises(Refused, match="it is Dusty's turn, not Outlaw's"):
        f.do(Attack(actor=outlaw, targets=(dusty,)))
    assert len(f.entries) == n
