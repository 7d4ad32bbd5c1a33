"""Issue #44 item 3: maxima and kind corrected afterwards, as logged, undoable GM adjustments."""

from __future__ import annotations

from tracker.commands import Adjust, Damage

from .helpers import DUMMY, data, setup


def test_the_most_wounds_are_corrected_and_the_wounds_taken_stay() -> None:
    """Ruling: a corrected maximum keeps the wounds taken, so the wounds left follow it; undo restores."""
    f, _roller = setup(("Ann", DUMMY), ("Bob", DUMMY))
    assert (data(f, "c2").wounds, data(f, "c2").max_wounds) == (3, 3)
    f.do(Adjust(id="c2", field="max_wounds", value=5, note="Extra Wound and TOU 1"))
    assert (data(f, "c2").wounds, data(f, "c2").max_wounds) == (5, 5)
    f.do(Damage(targets=("c2",), amount="1"))
    f.do(Adjust(id="c2", field="max_wounds", value=3))
    assert (data(f, "c2").wounds, data(f, "c2").max_wounds) == (2, 3)
    f.undo()
    assert (data(f, "c2").wounds, data(f, "c2").max_wounds) == (4, 5)


def test_a_pc_added_by_mistake_becomes_an_npc() -> None:
    f, _roller = setup(("Bandit 1", DUMMY))
    assert f.state.get("c1").is_pc
    f.do(Adjust(id="c1", field="kind", value="npc"))
    assert not f.state.get("c1").is_pc
    f.undo()
    assert f.state.get("c1").is_pc
