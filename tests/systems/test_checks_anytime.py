"""Checks outside the turn, in every system (RULINGS, third pass, "All systems — checks outside the turn").

A check that costs no action (a save the rules call for, a passive Notice, a resolve check) is rolled
for any combatant at any moment, not only on its own turn, and any such check is rolled before the
fight starts and after it ends. Books: bnb saving throws (l.138 area, saves on demand), blackjack saves
(made when the rules call for them), zludge skill rolls (l.18), twod6 checks (Notice, Trade (Healing)).
"""

from __future__ import annotations

from typing import Any

import pytest

from systems.blackjack.commands import MakeSave
from systems.bnb.commands import SavingThrow
from systems.twod6.commands import SkillCheck
from systems.zludge.commands import RollSkill
from tracker import Fight, registry
from tracker.commands import AddCombatant, EndFight, SetInitiative, StartFight
from tracker.dice import SeededRoller
from tracker.model import PC
from tracker.testing import sample_sheet

FREE_CHECK: dict[str, Any] = {
    "bnb": lambda cid: SavingThrow(actor=cid),
    "blackjack": lambda cid: MakeSave(actor=cid),
    "zludge": lambda cid: RollSkill(actor=cid, skill="Athletics", as_action=False),
    "twod6": lambda cid: SkillCheck(actor=cid, skill="Notice", dc=7, cost="none"),
}


@pytest.mark.parametrize("system_id", sorted(FREE_CHECK))
def test_a_free_check_before_during_off_turn_and_after_the_fight(system_id: str) -> None:
    """RULINGS third pass: any combatant, any moment; before the fight starts and after it ends."""
    system = registry.load(system_id)
    f = Fight(system, roller=SeededRoller(7))
    for name in ("First", "Second"):
        f.do(AddCombatant(name=name, kind=PC, sheet=sample_sheet(system, PC)))
    check = FREE_CHECK[system_id]
    assert f.do(check("c2"))  # before the fight starts
    f.do(SetInitiative(values={"c1": 20, "c2": 10}))
    f.do(StartFight())
    assert f.state.current == "c1"
    assert f.do(check("c2"))  # mid-fight, on someone else's turn
    assert f.state.current == "c1"
    f.do(EndFight())
    assert f.do(check("c2"))  # after the fight has ended
