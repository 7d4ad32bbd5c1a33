"""Issue #44 item 3: maxima and kind corrected afterwards, as logged, undoable GM adjustments."""

from __future__ import annotations

import pytest

from tracker import Adjust, Damage, Refused

from .helpers import add_npc, add_pc, data, new_fight


def test_the_hp_maximum_is_corrected_and_the_damage_taken_stays() -> None:
    """Ruling: a corrected HP maximum keeps the damage taken, so HP follow it (never above it); undo restores."""
    f, _dice = new_fight()
    dusty = add_pc(f, "Dusty", hp=2)
    with pytest.raises(Refused, match="above the most allowed, 2"):
        f.do(Adjust(id=dusty, field="hp", value=7))
    f.do(Adjust(id=dusty, field="max_hp", value=7, note="rolled on paper"))
    assert (data(f, dusty).hp, data(f, dusty).max_hp) == (7, 7)
    f.do(Damage(targets=(dusty,), amount="3"))
    f.do(Adjust(id=dusty, field="max_hp", value=5))
    assert (data(f, dusty).hp, data(f, dusty).max_hp) == (2, 5)
    f.undo()
    f.undo()
    f.undo()
    assert (data(f, dusty).hp, data(f, dusty).max_hp) == (2, 2)


def test_the_kind_is_corrected_and_undone() -> None:
    f, _dice = new_fight()
    (lefty,) = add_npc(f, "outlaw", name="Lefty")
    f.do(Adjust(id=lefty, field="kind", value="pc"))
    assert f.state.get(lefty).is_pc
    with pytest.raises(Refused, match="already a PC"):
        f.do(Adjust(id=lefty, field="kind", value="pc"))
    f.undo()
    assert not f.state.get(lefty).is_pc
