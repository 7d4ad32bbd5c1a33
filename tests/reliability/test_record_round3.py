"""The GM's record, third round (the t3 audit, findings F1, F2 and F5): nothing the GM did is lost, and a damaged
file is named at its first bad line.

- F1: a file whose last lines were written a second time (a sync tool, a bad merge) was called damaged at the
  good original of the first repeated seq; continuing "from the last good action" then left good actions out.
- F2: another program changing the file in place, keeping its length (nano, vim with backupcopy=yes), was not
  noticed: the next actions were appended and confirmed behind a line whose checksum no longer held.
- F5: a fight saved by a newer version of its system's plug-in checked "good" and was continued with no word.
"""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest

import saves
from bench.fights import make_fight
from saves import writing
from saves.checker import check
from saves.follow import Follower
from saves.format import seal
from saves.loading import check_against_events
from tests.ui.drive import build_fight
from tracker import Note
from tracker import commands as C

pytestmark = pytest.mark.reliability


def _base(path: Path) -> list[bytes]:
    """The auditor's fight: 16 events on 17 lines (a header, then one event a line), closed; its lines."""
    fight = build_fight("bnb", path)
    fight.do(C.NextTurn())
    fight.do(C.Damage(targets=("c1",), amount="3"))
    fight.do(C.NextTurn())
    fight.undo()
    fight.close()
    lines = path.read_bytes().split(b"\n")[:-1]
    assert len(lines) == 17 and not any(x.startswith(b'{"checkpoint"') for x in lines)
    return lines


def _resealed(line: bytes, **changes: object) -> bytes:
    record = json.loads(line)
    record.pop("crc")
    record.update(changes)
    return seal(json.dumps(record, separators=(",", ":"), ensure_ascii=False)).encode("utf-8")


def _write(path: Path, lines: list[bytes]) -> None:
    path.write_bytes(b"\n".join(lines) + b"\n")


# -- F1: the line named is the first bad one, and continuing keeps every good event ---------------------------------


def test_a_repeated_tail_is_named_at_its_line(tmp_path: Path) -> None:
    base = tmp_path / "base.jsonl"
    lines = _base(base)
    good = saves.load(base)
    dup = tmp_path / "dup.jsonl"
    _write(dup, lines + lines[13:])  # lines 18-21 repeat lines 14-17, checksums intact
    with pytest.raises(saves.LoadError) as caught:
        saves.load(dup)
    assert caught.value.line == 18, "lines 14-17 are the good originals; line 18 is the first bad one"
    assert "event 13 is at line 14 already" in str(caught.value)
    with pytest.raises(saves.LoadError) as by_check:
        check(dup)
    assert by_check.value.line == 18
    checked = check_against_events(dup, good.fight().state)
    assert checked.damaged and checked.line == 18 and "damaged at line 18" in checked.message
    went_on = saves.continue_before(dup, caught.value.line)  # what the app offers
    try:
        assert len(went_on.entries) == 16 and list(went_on.entries) == list(good.entries)
        assert went_on.state == good.fight().state
        assert "(16 events)" in went_on.warnings[0]
    finally:
        went_on.close()


def test_a_line_whose_seq_repeats_an_earlier_one_is_named_at_its_line(tmp_path: Path) -> None:
    """The last line's seq edited to 3 (resealed): named at line 17, not at line 4 (the good event 3)."""
    base = tmp_path / "base.jsonl"
    lines = _base(base)
    bad = tmp_path / "bad.jsonl"
    _write(bad, [*lines[:-1], _resealed(lines[-1], seq=3)])
    with pytest.raises(saves.LoadError) as caught:
        saves.load(bad)
    assert caught.value.line == 17
    went_on = saves.continue_before(bad, 17)
    try:
        assert len(went_on.entries) == 15  # every event before the bad line (actions 1-7, whole)
    finally:
        went_on.close()


def test_an_event_that_does_not_apply_is_still_named_at_its_line(tmp_path: Path) -> None:
    """The fold's own errors (seqs all in order) still name the event's line: an undo of an action not done."""
    base = tmp_path / "base.jsonl"
    lines = _base(base)
    bad = tmp_path / "bad.jsonl"
    _write(bad, [*lines[:-1], _resealed(lines[-1], event={"action": 2})])
    with pytest.raises(saves.LoadError) as caught:
        saves.load(bad)
    assert caught.value.line == 17 and "undo of action 2" in str(caught.value)


# -- F2: a change in place of the same length is noticed -------------------------------------------------------------


def _change_in_place(path: Path, old: bytes, new: bytes, *, last: bool = False) -> None:
    assert len(old) == len(new)
    data = path.read_bytes()
    at = data.rindex(old) if last else data.index(old)
    fd = os.open(path, os.O_WRONLY)  # (no O_APPEND, no truncation: an editor writing the file over, in place)
    try:
        os.pwrite(fd, new, at)
    finally:
        os.close(fd)
    assert path.stat().st_size == len(data)


def test_a_same_size_change_in_place_is_noticed(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    _base(path)
    fight = saves.open_fight(path)
    fight.do(C.NextTurn())
    seen = list(fight.entries)  # every action the GM saw confirmed
    state = fight.state
    _change_in_place(path, b'"name":"Hero"', b'"name":"Hera"')  # nano saving a one-letter fix
    with pytest.raises(saves.FileLost, match=r"g\.jsonl was written to by another program \(changed in place\)"):
        fight.do(C.NextTurn())
    assert fight.state == state and list(fight.entries) == seen
    assert saves.rescue_refused(fight) == ""
    rescued = saves.rescue(fight)
    rescued.close()
    fight.close()
    loaded = saves.load(rescued.path)
    assert loaded.warnings == () and list(loaded.entries) == seen
    assert loaded.fight().state == state


def test_the_writers_own_writes_and_readers_are_no_change(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its appends, its checkpoints, a repair it made, a write it failed (a full disk) and readers reading the file
    meanwhile (load, check, the players' view) are not "another program"."""
    path = tmp_path / "g.jsonl"
    lines = _base(path)
    _write(path, [*lines, lines[-1][:20]])  # a torn last line: opening repairs it (cut back, in place)
    fight = saves.open_fight(path)
    view = Follower(path)
    for k in range(30):
        fight.do(C.NextTurn() if k % 3 else Note(text=f"note {k}"))
        if k % 5 == 0:
            saves.load(path)
            check(path)
            view.poll()
        if k % 7 == 0:
            fight.undo()
            fight.redo()
        if k % 10 == 0:
            assert fight.checkpoint() in (True, False)
    assert fight.writer.lost() == ""

    def full(fd: int, data: bytes) -> int:
        os.write(fd, bytes(data[:5]))  # some of it written, then the disk is full
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(writing, "_write", full)
    with pytest.raises(saves.SaveError, match="No space left"):
        fight.do(Note(text="refused"))
    monkeypatch.setattr(writing, "_write", os.write)
    fight.do(Note(text="taken once space came back"))
    assert fight.writer.lost() == ""
    state = fight.state
    assert fight.close() is None  # nothing rescued: the file is its own
    assert saves.load(path).fight().state == state and not list(tmp_path.glob("*-rescued*"))


def test_a_rescue_leaves_out_a_line_changed_in_place(tmp_path: Path) -> None:
    """Opened from its checkpoint, the fight's older part was never read: the rescue copies it from the file; a line
    of the part the app holds that another program changed is written again from what the app holds."""
    path = tmp_path / "f.jsonl"
    _long(path)
    fight = saves.open_fight(path)
    fight.settle_check()
    assert fight.older is not None, "opened from its checkpoint"
    fight.do(Note(text="the GM's last note"))
    state = fight.state
    whole = tmp_path / "whole.jsonl"
    whole.write_bytes(path.read_bytes())
    _change_in_place(path, b"the GM's last note", b"the GM's LAST note", last=True)
    with pytest.raises(saves.FileLost, match="written to by another program"):
        fight.do(Note(text="refused"))
    assert saves.rescue_refused(fight) == ""
    rescued = saves.rescue(fight)
    assert rescued.state == state
    rescued.close()
    fight.close()
    loaded = saves.load(rescued.path)
    assert loaded.warnings == () and list(loaded.entries) == list(saves.load(whole).entries)


def test_a_rescue_that_cannot_put_back_an_older_line_says_so(tmp_path: Path) -> None:
    """A line of the part the app never read, changed in place before the check of the checkpoint read it: the
    rescue cannot put it back, and says which line (it made a rescue damaged at that line, which did not open)."""
    path = tmp_path / "f.jsonl"
    _long(path)
    fight = saves.open_fight(path)
    assert fight.older is not None, "opened from its checkpoint"
    data = path.read_bytes()
    line = data[: data.index(b'"kind":"npc"')].count(b"\n") + 1  # the first NPC added, near the top
    _change_in_place(path, b'"kind":"npc"', b'"kind":"NPC"')
    why = saves.rescue_refused(fight)
    assert f"changed in place by another program at line {line}," in why
    with pytest.raises(saves.SaveError, match=f"at line {line},"):
        saves.rescue(fight)
    fight.close()
    assert not list(tmp_path.glob("*-rescued*")), "no damaged rescue is left"


def test_a_rescue_puts_back_an_older_line_from_the_checked_events(tmp_path: Path) -> None:
    """Changed in place after the check of the checkpoint agreed: the events it folded are kept, and the rescue
    writes the line as it was (tests/reliability/test_rescue_round4.py)."""
    path = tmp_path / "f.jsonl"
    _long(path)
    whole = saves.load(path)
    fight = saves.open_fight(path)
    fight.settle_check()
    fight.do(Note(text="the GM's last note"))
    _change_in_place(path, b'"kind":"npc"', b'"kind":"NPC"')
    with pytest.raises(saves.FileLost, match="written to by another program"):
        fight.do(Note(text="refused"))
    assert saves.rescue_refused(fight) == ""
    rescued = saves.rescue(fight)
    entries = list(saves.load(rescued.path).entries)
    assert entries[: len(whole.entries)] == list(whole.entries) and "the GM's last note" in rescued.path.read_text()
    rescued.close()
    fight.close()


def _long(path: Path) -> None:
    """A fight of some 400 events, closed: it opens from its checkpoint."""
    made = make_fight("bnb", 400, path, seed=4)
    assert isinstance(made, saves.SavedFight)
    made.close()


# -- F5: a fight saved by a newer plug-in version --------------------------------------------------------------------


def test_a_newer_plugin_version_is_noted(tmp_path: Path) -> None:
    base = tmp_path / "base.jsonl"
    lines = _base(base)
    assert saves.load(base).warnings == ()
    for version, noted in (("9.0", True), ("1.10", True), ("1.0", False), ("0.9", False), ("", False)):
        path = tmp_path / f"v{version or 'none'}.jsonl"
        _write(path, [_resealed(lines[0], system_version=version), *lines[1:]])
        report = check(path)
        assert report.good, "it loads whole: a note, not damage"
        notes = [w for w in report.loaded.warnings if "a newer version than the 1.0 installed" in w]
        assert bool(notes) == noted, version
        if not noted:
            continue
        assert notes == [
            f"saved by Blood & Bullets {version}, a newer version than the 1.0 installed here (not damage: every "
            "event reads with this one, and one it did not know would be refused naming its line); where the newer "
            "rules differ the fight may too: upgrade bnb before going on with it"
        ]
        fight = saves.open_fight(path)  # continuing is allowed, with the note
        try:
            assert fight.warnings == tuple(notes)
            fight.do(C.NextTurn())
        finally:
            fight.close()
        assert len(saves.load(path).entries) > 16


def test_the_note_on_a_newer_version_is_not_taken_for_the_repair(tmp_path: Path) -> None:
    base = tmp_path / "base.jsonl"
    lines = _base(base)
    path = tmp_path / "torn.jsonl"
    _write(path, [_resealed(lines[0], system_version="9.0"), *lines[1:], lines[-1][:20]])
    fight = saves.open_fight(path)
    try:
        repaired = fight.warnings[0]
        assert "was repaired" in repaired and "newer version" not in repaired
        assert any("newer version than the 1.0" in w for w in fight.warnings[1:])
    finally:
        fight.close()


def test_a_repeated_action_is_named_at_its_first_extra_line(tmp_path: Path) -> None:
    """The last action's lines written a second time right after it (one action of three events read as six): it
    was named at the action's first line, a good one, and continuing before it dropped the good action."""
    base = tmp_path / "base.jsonl"
    fight = build_fight("bnb", base)
    fight.do(C.Damage(targets=("c1", "c2"), amount="1"))  # one action, several events
    fight.close()
    good = saves.load(base)
    lines = base.read_bytes().split(b"\n")[:-1]
    last = json.loads(lines[-1])["action"]
    tail = [line for line in lines[1:] if json.loads(line).get("action") == last]
    assert len(tail) > 1
    dup = tmp_path / "dup.jsonl"
    _write(dup, [*lines, *tail])
    with pytest.raises(saves.LoadError) as caught:
        saves.load(dup)
    assert caught.value.line == len(lines) + 1, caught.value
    went_on = saves.continue_before(dup, caught.value.line)
    try:
        assert list(went_on.entries) == list(good.entries)
    finally:
        went_on.close()
