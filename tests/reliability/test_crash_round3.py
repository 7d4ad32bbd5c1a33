"""Crash audit, round 3: what is said of a torn action, and a branch of a fight still being played elsewhere."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import saves
from saves.checker import check
from tracker import AddCombatant, Note

pytestmark = pytest.mark.reliability


def _torn_before_first_line_end(path: Path) -> None:
    """A note, then a crash while a two-event action was written: its first line whole but for its line end."""
    f = saves.new_fight("toy", path, seed=3)
    f.do(Note(text="kept"))
    f.do(AddCombatant(name="Goblin", count=2, sheet={"hp": 4}))
    f.close()
    lines = [x for x in path.read_bytes().split(b"\n") if x and not x.startswith(b'{"checkpoint"')]
    assert len(lines) == 4  # header, the note, the two goblins
    path.write_bytes(b"\n".join(lines[:3]))  # the first goblin's line, its line end not written


def test_an_unended_line_of_a_dropped_action_is_said_once(tmp_path: Path) -> None:
    """Ruling (saves/loading.py ``_load_lines``): the line without its end belongs to an action that is dropped,
    so only the drop is said; "continuing adds the line end first, nothing is lost" was said as well, of a line
    that continuing sets aside."""
    path = tmp_path / "f.jsonl"
    _torn_before_first_line_end(path)
    loaded = saves.load(path)
    assert [type(e.event).__name__ for e in loaded.entries] == ["NoteAdded"]
    assert loaded.warnings == ("action 2 was cut short (1 of its 2 events) and was dropped",), loaded.warnings
    report = check(path)
    assert "sets the unfinished end aside" in report.on_continuing
    fight = saves.open_fight(path)  # the app's "Recovered" notice: the same one sentence
    try:
        (said,) = fight.warnings
        assert "nothing is lost" not in said and "has no line end" not in said, said
        assert "action 2 was cut short (1 of its 2 events) and was dropped" in said
    finally:
        fight.close()
    assert saves.load(path).warnings == ()


def test_an_unended_whole_last_action_is_still_kept_and_said(tmp_path: Path) -> None:
    """The kept case is unchanged: a whole last action that lost only its line end is kept, and said so."""
    path = tmp_path / "f.jsonl"
    f = saves.new_fight("toy", path, seed=3)
    f.do(Note(text="kept"))
    f.do(AddCombatant(name="Goblin", count=2, sheet={"hp": 4}))
    f.close()
    lines = [x for x in path.read_bytes().split(b"\n") if x and not x.startswith(b'{"checkpoint"')]
    path.write_bytes(b"\n".join(lines))
    loaded = saves.load(path)
    assert len(loaded.entries) == 3
    (said,) = loaded.warnings
    assert said.startswith("line 4, the last, has no line end") and "nothing is lost" in said


# -- a branch of a fight open for writing in another tracker ---------------------------------------


def test_a_branch_of_a_fight_played_elsewhere_is_refused(tmp_path: Path) -> None:
    """Ruling (saves/writing.py ``continue_from``): "continue here" from a replay of a fight that a tracker holds
    for writing is refused, naming what to do; it made a second live copy of the fight (a fork) while the first
    went on.  Once it is closed there, the branch is made as before."""
    from saves.writing import writer_elsewhere  # (new with the ruling)

    path = tmp_path / "fight.jsonl"
    live = saves.new_fight("toy", path, seed=3)  # its lock is on its own open file: another reader is refused
    live.do(Note(text="one"))
    live.do(Note(text="two"))
    before = path.read_bytes()
    try:
        busy = writer_elsewhere(path)
        assert isinstance(busy, saves.FightInUse) and busy.pid == os.getpid()
        with pytest.raises(saves.FightInUse, match="close it there first"):
            saves.continue_from(path, 2)
        assert not list(tmp_path.glob("*-branch*")) and path.read_bytes() == before
        live.do(Note(text="three"))  # the probe took nothing from the writer
    finally:
        live.close()
    assert writer_elsewhere(path) is None
    branch = saves.continue_from(path, 2)
    try:
        assert branch.path.name == "fight-branch.jsonl" and len(branch.entries) == 2
    finally:
        branch.close()
