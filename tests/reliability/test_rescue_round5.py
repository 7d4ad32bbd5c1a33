"""The rescue, round five (regression check rg, findings F6 and F2), at the saves layer: a write the system refuses
is told apart (WriteFailed) and the fight can be saved on elsewhere, the old file getting nothing more; a typed
path ending in the separator is a folder, made if need be."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

import saves
from saves import checkpoint, writing
from tracker import Note

pytestmark = pytest.mark.reliability


def _fight(tmp_path: Path, notes: int = 3) -> tuple[saves.SavedFight, Path]:
    folder = tmp_path / "rf"
    folder.mkdir()
    path = folder / "f.jsonl"
    fight = saves.new_fight("bnb", path, seed=1)
    for n in range(notes):
        fight.do(Note(text=f"note {n}"))
    return fight, path


def _lost_fight(tmp_path: Path) -> saves.SavedFight:
    fight, path = _fight(tmp_path)
    path.unlink()  # another program deletes it
    with pytest.raises(saves.FileLost):
        fight.do(Note(text="refused"))
    return fight


def test_a_typed_path_ending_in_a_separator_is_a_folder_made_for_it(tmp_path: Path) -> None:
    fight = _lost_fight(tmp_path)
    state = fight.state
    newdir = tmp_path / "usb" / "newdir"
    rescued = saves.rescue(fight, f"{newdir}{os.sep}")
    assert rescued.path == newdir / "f-rescued.jsonl", rescued.path
    assert newdir.is_dir() and (newdir.stat().st_mode & 0o777) == 0o700
    assert not (tmp_path / "usb" / "newdir.jsonl").exists()
    assert rescued.state == state
    rescued.close()
    assert saves.load(newdir / "f-rescued.jsonl").fight().state == state


def test_a_typed_path_ending_in_a_separator_that_is_a_file_is_refused(tmp_path: Path) -> None:
    fight = _lost_fight(tmp_path)
    taken = tmp_path / "victim"
    taken.write_text("not a folder")
    with pytest.raises(saves.SaveError, match="not a folder"):
        saves.rescue(fight, f"{taken}/")
    assert taken.read_text() == "not a folder"
    assert fight.rescued_to is None


def test_a_typed_path_without_a_separator_is_still_a_file(tmp_path: Path) -> None:
    fight = _lost_fight(tmp_path)
    rescued = saves.rescue(fight, str(tmp_path / "usb-name"))
    assert rescued.path == tmp_path / "usb-name.jsonl"
    rescued.close()


def test_a_write_the_system_refuses_is_a_write_failure_and_the_fight_goes_on_elsewhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full disk under the fight's file: the action is refused (WriteFailed), the file as it was; the fight saved
    on beside it; once the disk has room again, closing the old fight writes nothing into its file (a checkpoint
    line went in after the rescue was made)."""
    fight, path = _fight(tmp_path, notes=checkpoint.TAIL + 20)  # (enough for a checkpoint at closing)
    state = fight.state
    before = path.read_bytes()
    full = {"on": True}
    real = writing._write

    def write(fd: int, data: memoryview) -> int:
        if full["on"] and os.fstat(fd).st_ino == path.stat().st_ino:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(fd, data)

    monkeypatch.setattr(writing, "_write", write)
    with pytest.raises(writing.WriteFailed, match="No space left on device; the action was not taken"):
        fight.do(Note(text="refused"))
    assert fight.state == state and path.read_bytes() == before
    assert fight.writer.lost() == ""  # (not lost: every action shown is in it)
    rescued = saves.rescue(fight)
    assert rescued.path == path.with_name("f-rescued.jsonl") and rescued.state == state
    rescued.do(Note(text="goes on"))
    full["on"] = False  # room again
    assert fight.close() is None
    rescued.close()
    assert path.read_bytes() == before
    assert saves.load(path.with_name("f-rescued.jsonl")).fight().state == rescued.state
