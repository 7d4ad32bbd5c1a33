"""Disk full, then space comes back: the file stays exactly as it was, the action can be taken again (item 2)."""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import subprocess
import uuid
from pathlib import Path

import pytest

import saves
from saves import files, writing
from tracker import AddCombatant, Note

pytestmark = pytest.mark.reliability


def _fail_after(limit: int):
    """A write that writes at most ``limit`` bytes, then fails with ENOSPC (what a full disk does)."""

    def write(fd: int, data) -> int:
        if len(data) <= limit:
            return os.write(fd, data)
        if limit > 0:
            os.write(fd, bytes(data[:limit]))
        raise OSError(errno.ENOSPC, "No space left on device")

    return write


@pytest.mark.parametrize("written", [0, 1, 40])
def test_a_failed_write_leaves_file_and_state_as_they_were(
    written: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "f.jsonl"
    fight = saves.new_fight("toy", path, seed=1)
    fight.do(AddCombatant(name="Alice", kind="pc", sheet={"hp": 8}))
    before, state, entries = path.read_bytes(), fight.state, list(fight.entries)
    monkeypatch.setattr(writing, "_write", _fail_after(written))
    with pytest.raises(saves.SaveError, match="not taken"):
        fight.do(AddCombatant(name="Goblin", count=3, sheet={"hp": 4}))
    assert path.read_bytes() == before and fight.state == state and list(fight.entries) == entries
    with pytest.raises(saves.SaveError):
        fight.undo()
    assert path.read_bytes() == before and fight.state == state
    fight.close()  # never raises, even with the disk full (its checkpoint is a cache)
    monkeypatch.setattr(writing, "_write", os.write)
    again = saves.open_fight(path)
    again.do(AddCombatant(name="Goblin", count=3, sheet={"hp": 4}))  # the same action, taken now
    again.close()
    loaded = saves.load(path)
    assert loaded.warnings == () and [c.name for c in loaded.fight().state.combatants][-1] == "Goblin 3"


def test_a_retry_in_the_same_session_after_space_comes_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "f.jsonl"
    fight = saves.new_fight("toy", path, seed=1)
    monkeypatch.setattr(writing, "_write", _fail_after(10))
    with pytest.raises(saves.SaveError):
        fight.do(Note(text="the first note"))
    monkeypatch.setattr(writing, "_write", os.write)
    fight.do(Note(text="the first note"))
    fight.do(Note(text="the second"))
    fight.close()
    assert [e.seq for e in saves.load(path).entries] == [1, 2]


def test_a_real_full_disk(tmp_path: Path) -> None:
    """On a small tmpfs when the machine lets us mount one (root); skipped otherwise."""
    mnt = tmp_path / "small"
    mnt.mkdir()
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(mnt)], capture_output=True)
    if r.returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    fight = None
    try:
        path = mnt / "f.jsonl"
        fight = saves.new_fight("toy", path, seed=1)
        fight.do(AddCombatant(name="Alice", kind="pc", sheet={"hp": 8}))
        filler = mnt / f"filler-{uuid.uuid4().hex}"
        fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
        for chunk in (b"x" * 4096, b"x"):  # to the last byte
            with contextlib.suppress(OSError):
                while True:
                    os.write(fd, chunk)
        os.close(fd)
        refused = 0
        for n in range(8):  # the file's last page may still hold a note or two; then the disk is full
            before, state = path.read_bytes(), fight.state
            try:
                fight.do(Note(text=f"note {n} " + "y" * 900))
            except saves.SaveError:
                refused += 1
                assert path.read_bytes() == before and fight.state == state
        assert refused >= 4
        fight.close()
        filler.unlink()
        again = saves.open_fight(path)
        again.do(Note(text="note 0"))
        again.close()
        assert saves.load(path).warnings == ()
    finally:
        if fight is not None:
            fight.close()
        subprocess.run(["umount", str(mnt)], capture_output=True)
        shutil.rmtree(mnt, ignore_errors=True)


def test_a_torn_end_not_set_aside_for_a_full_disk_leaves_no_empty_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Repairing a torn last action on a full disk: refused, the fight file untouched, but each try left an empty
    FILE.torn-<time> beside it, kept for ever (where a GM looking for the bytes left out found nothing)."""
    path = tmp_path / "t.jsonl"
    f = saves.new_fight("bnb", path=path)
    f.do(AddCombatant(name="Ann", kind="pc", sheet={}))
    f.do(Note(text="the torn one"))
    f.close()
    data = path.read_bytes()
    path.write_bytes(data[: data.rindex(b"the torn one")])  # the last action cut short
    before = path.read_bytes()
    monkeypatch.setattr(writing, "_write", _fail_after(0))
    monkeypatch.setattr(files, "_write", _fail_after(0))  # (the copy is written whole by saves.files)
    for _ in range(2):
        with pytest.raises(saves.SaveError):
            saves.open_fight(path)
    assert path.read_bytes() == before
    assert not list(tmp_path.glob("t.jsonl.torn-*")) and not list(tmp_path.glob(".t.jsonl*"))


def test_a_torn_end_set_aside_before_a_crash_is_not_copied_twice(tmp_path: Path) -> None:
    """A crash after the torn bytes were copied aside, before the fight file was cut: opened again, the same bytes
    were copied again, two files alike (the notice naming only the second)."""
    path = tmp_path / "t.jsonl"
    f = saves.new_fight("bnb", path=path)
    f.do(AddCombatant(name="Ann", kind="pc", sheet={}))
    f.do(Note(text="the torn one"))
    f.close()
    data = path.read_bytes()
    cut = data.rindex(b"the torn one")
    path.write_bytes(data[:cut])
    start = data.rindex(b"\n", 0, cut) + 1
    earlier = tmp_path / "t.jsonl.torn-20261207T000000Z"
    earlier.write_bytes(data[start:cut])  # what the crash left: the copy made, the file not cut
    fight = saves.open_fight(path)
    fight.close()
    assert sorted(p.name for p in tmp_path.glob("t.jsonl.torn-*")) == [earlier.name]
    assert any(earlier.name in w for w in fight.warnings), fight.warnings
