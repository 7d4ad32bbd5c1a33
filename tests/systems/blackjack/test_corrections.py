"""Issue #44 item 3: maxima (the injury track) corrected afterwards; the kind stays with the sheet."""

from __future__ import annotations

import pytest

from tests.systems.blackjack.helpers import data, new_fight, npc, pc
from tracker.commands import Adjust
from tracker.errors import Refused


def test_the_injury_track_is_corrected_and_undone() -> None:
    f = new_fight()
    o = npc(f, "Outlaw", "outlaw")
    f.do(Adjust(id=o, field="slots", value="2/2/2/1", note="a supernatural one"))
    assert data(f, o).slots == (2, 2, 2, 1)
    f.undo()
    assert data(f, o).slots == (2, 2, 1)


def test_the_kind_cannot_change_a_sheet_of_stats_into_a_threat() -> None:
    """Ruling: a blackjack PC's sheet is stats, an NPC's a Threat and Morale: the kind is not adjusted."""
    f = new_fight()
    d = pc(f, acc=14)
    with pytest.raises(Refused, match=r"remove .* and add it again as an NPC"):
        f.do(Adjust(id=d, field="kind", value="npc"))


def test_the_injury_track_adjust_is_logged_and_kept_as_the_record_holds_it() -> None:
    """The log said "[2, 2, 1] → '3/2/2'" (the old value as held, the new as typed) and the event kept the text
    typed, read again at every fold.  An older file's text still folds."""
    from tracker.engine import evolve
    from tracker.events import Adjusted

    f = new_fight()
    o = npc(f, "Outlaw", "outlaw")
    (ev,) = f.do(Adjust(id=o, field="slots", value="3/2/2"))
    assert isinstance(ev, Adjusted) and ev.value == [3, 2, 2] and ev.old == [2, 2, 1], ev
    assert "2, 2, 1 → 3, 2, 2" in ev.describe(f.state)
    older = Adjusted(id=o, field="slots", value="2/2/2/1", old=[3, 2, 2])
    assert evolve(f.system, f.state, older).get(o).data.slots == (2, 2, 2, 1)
    with pytest.raises(Refused):
        f.do(Adjust(id=o, field="slots", value="²/2/1"))  # (a digit of another script: refused, no crash)
