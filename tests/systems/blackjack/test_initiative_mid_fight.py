"""Issue #44 item 4: the book has no initiative: in a running fight the GM's order stays, said why."""

from __future__ import annotations

import pytest

from tests.systems.blackjack.helpers import new_fight, npc, pc
from tracker.commands import AddCombatant, RollInitiative, StartFight
from tracker.errors import Refused


@pytest.mark.parametrize("reroll", [False, True])
def test_rolling_initiative_in_a_running_fight_is_refused_with_the_reason(reroll: bool) -> None:
    f = new_fight()
    pc(f, acc=14)
    npc(f, "Outlaw", "outlaw")
    f.do(StartFight())
    f.do(AddCombatant(name="Late", kind="npc", preset="outlaw"))
    order = f.state.order
    with pytest.raises(Refused, match="no initiative: the order is the GM's"):
        f.do(RollInitiative(reroll=reroll))
    assert f.state.order == order and order[-1] == f.state.combatants[-1].id
