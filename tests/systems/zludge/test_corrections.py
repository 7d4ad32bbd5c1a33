"""Issue #44 item 3: the wound and fatigue tracks' boxes vary with Durability, Fortitude and Endurance."""

from __future__ import annotations

from tests.systems.zludge.helpers import add, data, new_fight
from tracker.commands import Adjust


def test_durability_and_endurance_add_boxes_and_undo_restores() -> None:
    f = new_fight()
    add(f, "Bob")
    wounds, fatigue = data(f, "c1").wound_capacity, data(f, "c1").fatigue_capacity
    f.do(Adjust(id="c1", field="durability", value=1))
    f.do(Adjust(id="c1", field="endurance", value=2))
    assert data(f, "c1").wound_capacity != wounds and data(f, "c1").fatigue_capacity != fatigue
    f.do(Adjust(id="c1", field="kind", value="npc"))
    assert not f.state.get("c1").is_pc
    for _ in range(3):
        f.undo()
    assert (data(f, "c1").wound_capacity, data(f, "c1").fatigue_capacity) == (wounds, fatigue)
    assert f.state.get("c1").is_pc
