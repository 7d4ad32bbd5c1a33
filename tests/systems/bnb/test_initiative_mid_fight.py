"""Issue #44 item 4: a reinforcement in a running fight: a group's newcomer shares the group's roll."""

from __future__ import annotations

from tracker import AddCombatant, NextTurn, RollInitiative, StartFight
from tracker.events import InitiativeSet

from .helpers import add_npc, add_pc, new_fight


def test_a_newcomer_to_a_group_shares_its_roll_and_a_lone_one_rolls() -> None:
    f, dice = new_fight()
    dusty = add_pc(f, "Dusty")
    add_npc(f, "outlaw", count=2)
    dice.add(5, 12)
    f.do(RollInitiative())
    f.do(StartFight())
    f.do(NextTurn())
    current, order = f.state.current, f.state.order
    gang = f.state.get(order[0]).group if f.state.get(order[0]).group else f.state.get(order[1]).group
    f.do(AddCombatant(name="", kind="npc", preset="outlaw", group=gang, sheet={"hp": 6}))
    late = f.state.combatants[-1]
    f.do(AddCombatant(name="Preacher", kind="pc", sheet={"cls": "Gambler", "level": 1, "hp": 5}))
    preacher = f.state.combatants[-1].id
    dice.add(20)
    events = f.do(RollInitiative())
    sets = {e.id: e for e in events if isinstance(e, InitiativeSet)}
    assert set(sets) == {late.id, preacher}
    assert sets[late.id].roll is None and "shares the" in sets[late.id].note
    assert f.state.get(late.id).initiative == 12 and f.state.get(preacher).initiative == 20
    assert f.state.current == current and f.state.order[0] == preacher
    assert f.state.get(dusty).initiative == 5
