"""The rescue, round six (record audit r1, findings 1 and 3), at the saves layer: every place a rescue can go is found
again from the lost file (the fights folder, a typed path), a fight is rescued once, and of several rescues of one
file the newest, followed to the last, is the one the fight goes on in."""

from __future__ import annotations

import errno
import os
import shutil
import time
from pathlib import Path

import pytest

import saves
from saves import follow, listing, writing
from saves.follow import MOVED, Follower
from screens.cli import main
from tracker import Note

pytestmark = pytest.mark.reliability


def _fight(tmp_path: Path, name: str = "f.jsonl") -> tuple[saves.SavedFight, Path]:
    folder = tmp_path / "rf"
    folder.mkdir(exist_ok=True)
    path = folder / name
    fight = saves.new_fight("bnb", path, seed=1)
    for n in range(3):
        fight.do(Note(text=f"note {n}"))
    return fight, path


class _Refused:
    """No new file can be made in ``folders`` while ``on`` (read-only, a full disk; chmod does not stop root); with
    ``notes``, no note either."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, *folders: Path, notes: bool = True) -> None:
        self.on = True
        real_whole, real_append = writing.write_whole, getattr(listing, "_append", None)

        def refused(path: Path) -> None:
            if self.on and Path(path).parent in folders:
                raise OSError(errno.ENOSPC, "No space left on device")

        def whole(path: Path, data: bytes) -> None:
            refused(path)
            real_whole(path, data)

        def append(path: Path, data: bytes) -> None:
            if notes:
                refused(path)
            assert real_append is not None
            real_append(path, data)

        monkeypatch.setattr(writing, "write_whole", whole)
        monkeypatch.setattr(listing, "_append", append, raising=False)  # (raising: the test run before the fix)


def _unwritable(monkeypatch: pytest.MonkeyPatch, path: Path) -> dict[str, bool]:
    """The fight file takes no more writes while ``on`` (a full disk)."""
    full = {"on": True}
    ino = path.stat().st_ino
    real = writing._write

    def write(fd: int, data: memoryview) -> int:
        if full["on"] and os.fstat(fd).st_ino == ino:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(fd, data)

    monkeypatch.setattr(writing, "_write", write)
    return full


def _lose(path: Path) -> None:
    """A sync tool puts a copy in the file's place."""
    shutil.copy(path, f"{path}.tmp")
    os.replace(f"{path}.tmp", path)


# -- finding 1: the fights folder, a typed path ---------------------------------------------------------------------


def test_a_rescue_in_the_fights_folder_is_found_from_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The report's full disk: the file takes no more, beside it neither, so the fight goes on in the fights folder.
    Once the disk has room, check called the old file good with no word, and the app reopened it: a fork."""
    fight, path = _fight(tmp_path)
    fights = saves.default_dir()
    full = _unwritable(monkeypatch, path)
    refused = _Refused(monkeypatch, path.parent)
    with pytest.raises(writing.WriteFailed):
        fight.do(Note(text="refused"))
    rescued = saves.rescue(fight, elsewhere=(fights,))
    assert rescued.path == fights / "f-rescued.jsonl"
    rescued.do(Note(text="on"))
    full["on"] = refused.on = False  # the disk is freed
    rescued.close()
    fight.close()
    assert saves.rescued_in(path) == rescued.path
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"the fight was saved on in {rescued.path}" in out, out


def test_the_players_view_finds_a_rescue_in_the_fights_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The file deleted, its folder read-only: the view waited for the file for ever."""
    monkeypatch.setattr(follow, "WENT_ON_EVERY", 0.0)
    fight, path = _fight(tmp_path)
    view = Follower(path)
    view.poll()
    path.unlink()
    with pytest.raises(saves.FileLost):
        fight.do(Note(text="refused"))
    _Refused(monkeypatch, path.parent)
    rescued = saves.rescue(fight, elsewhere=(saves.default_dir(),))
    try:
        snap = view.poll()
        assert snap is not None and snap.status == MOVED, snap
        assert rescued.path.name in snap.problem, snap.problem
    finally:
        rescued.close()
        fight.close()


def test_a_rescue_to_a_typed_path_is_found_from_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Beside the file and the fights folder refused it; the GM typed a path on another disk, a file of any name.
    A note beside the old file (its folder took no fight file, but takes the note) says where it went."""
    fight, path = _fight(tmp_path)
    fights = saves.default_dir()
    full = _unwritable(monkeypatch, path)
    refused = _Refused(monkeypatch, path.parent, fights, notes=False)
    with pytest.raises(writing.WriteFailed):
        fight.do(Note(text="refused"))
    with pytest.raises(saves.SaveError):
        saves.rescue(fight, elsewhere=(fights,))
    usb = tmp_path / "usb"
    rescued = saves.rescue(fight, usb / "kept")
    assert rescued.path == usb / "kept.jsonl" and getattr(rescued, "unnoted", None) is None
    rescued.close()
    fight.close()
    full["on"] = refused.on = False
    assert saves.rescued_in(path) == rescued.path
    assert listing.note_path(path.parent, path).is_file()


def test_a_typed_rescue_no_note_could_be_left_for_says_so_and_leaves_it_at_closing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The whole disk is full (notes too): the copy says the old file could not be told (the app says where the fight
    is); closing the copy once the disk has room leaves the note, and the old file then names it."""
    fight, path = _fight(tmp_path)
    fights = saves.default_dir()
    path.unlink()
    with pytest.raises(saves.FileLost):
        fight.do(Note(text="refused"))
    refused = _Refused(monkeypatch, path.parent, fights)
    rescued = saves.rescue(fight, str(tmp_path / "usb") + "/")
    assert rescued.path == tmp_path / "usb" / "f-rescued.jsonl"
    assert rescued.unnoted == path
    assert saves.rescued_in(path) is None  # (nothing says it yet: the app said where, at once)
    refused.on = False  # room again
    rescued.do(Note(text="on"))
    rescued.close()
    fight.close()
    assert rescued.unnoted is None
    assert saves.rescued_in(path) == rescued.path
    assert listing.note_path(fights, path).is_file()


def test_a_note_naming_a_file_that_is_not_the_rescue_is_not_taken(tmp_path: Path) -> None:
    """A note is only a pointer: the file it names must say, in its header, that it goes on from the old file."""
    other, other_path = _fight(tmp_path, "other.jsonl")
    other.close()
    fight, path = _fight(tmp_path)
    fight.close()
    note = listing.note_path(path.parent, path)
    note.write_text(
        f'{{"lost": "{path}", "saved_in": "{other_path}"}}\nnot json\n{{"lost": 3}}\n[1]\n{"[" * 5000}\n',
        encoding="utf-8",
    )
    assert saves.rescued_in(path) is None


# -- finding 3: one rescue per fight; the newest is where it goes on ---------------------------------------------------


def test_a_fight_is_rescued_once(tmp_path: Path) -> None:
    fight, path = _fight(tmp_path)
    path.unlink()
    with pytest.raises(saves.FileLost):
        fight.do(Note(text="refused"))
    first = saves.rescue(fight)
    with pytest.raises(saves.SaveError, match=f"saved on in {first.path} already"):
        saves.rescue(fight)
    with pytest.raises(saves.SaveError, match="already"):
        saves.rescue(fight, tmp_path / "usb" / "x")
    first.close()
    fight.close()
    assert sorted(p.name for p in path.parent.glob("*.jsonl")) == ["f-rescued.jsonl"]
    assert not (tmp_path / "usb").exists()


def test_a_file_lost_twice_names_its_newest_rescue(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The report's library repro: lost once, rescued to r-rescued; reopened ("Stay in this file"), lost again,
    rescued to r-rescued2.  Check, the app and the players' view named the stale r-rescued."""
    monkeypatch.setattr(follow, "WENT_ON_EVERY", 0.0)
    fight, path = _fight(tmp_path, "r.jsonl")
    fight.close()
    copies = []
    for n in (1, 3):
        f = saves.open_fight(path)
        for _ in range(n):
            f.do(Note(text="on"))
        _lose(path)
        with pytest.raises(saves.FileLost):
            f.do(Note(text="on"))
        c = saves.rescue(f)
        c.do(Note(text="on"))
        c.close()
        f.close()
        copies.append(c.path)
    assert [p.name for p in copies] == ["r-rescued.jsonl", "r-rescued2.jsonl"]
    assert saves.rescued_in(path) == copies[1]
    assert main(["check", str(path)]) == 0
    assert f"saved on in {copies[1]}" in capsys.readouterr().out
    snap = Follower(path).poll()
    assert snap is not None and snap.status == MOVED and "r-rescued2.jsonl" in snap.problem, snap


def test_of_two_rescues_made_in_the_same_second_the_one_played_on_is_taken(tmp_path: Path) -> None:
    """A fork made by an earlier version (two dialogs at once): both copies name the file their parent, created in
    the same second; the one the fight went on in was written last."""
    fight, path = _fight(tmp_path)
    path.unlink()
    with pytest.raises(saves.FileLost):
        fight.do(Note(text="refused"))
    stale = saves.rescue(fight)
    fight.rescued_to = None  # (as an earlier version let it)
    played = saves.rescue(fight)
    stale.close()
    played.do(Note(text="on"))
    played.close()
    fight.close()
    now = time.time()
    os.utime(stale.path, (now - 5, now - 5))
    assert played.path.name == "f-rescued2.jsonl"
    assert saves.rescued_in(path) == played.path


def test_a_rescue_of_a_rescue_is_followed_to_the_last(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fight, path = _fight(tmp_path)
    path.unlink()
    with pytest.raises(saves.FileLost):
        fight.do(Note(text="refused"))
    first = saves.rescue(fight)
    _lose(first.path)  # lost again, under the copy
    with pytest.raises(saves.FileLost):
        first.do(Note(text="refused"))
    _Refused(monkeypatch, path.parent)
    second = saves.rescue(first, elsewhere=(saves.default_dir(),))
    second.close()
    first.close()
    fight.close()
    assert second.path == saves.default_dir() / "f-rescued-rescued.jsonl"
    assert saves.rescued_in(path) == second.path


def test_a_rescue_beside_the_file_is_found_as_before(tmp_path: Path) -> None:
    """Unchanged: one rescue beside the lost file, from any version."""
    fight, path = _fight(tmp_path)
    _lose(path)
    with pytest.raises(saves.FileLost):
        fight.do(Note(text="refused"))
    rescued = saves.rescue(fight)
    rescued.close()
    fight.close()
    assert rescued.path == path.with_name("f-rescued.jsonl")
    assert saves.rescued_in(path) == rescued.path
    assert not list(tmp_path.rglob("*where*")) and not list(saves.default_dir().rglob("*where*"))  # (no note)


# -- round 2 of the audit: a FIFO named like a note; a rescue back into the old file -----------------------------------


def _returns_within(seconds: float, fn: object) -> object:
    """``fn()``'s result, or a failure if it has not returned in ``seconds`` (a thread: a hang fails, not hangs)."""
    import threading

    out: list[object] = []
    t = threading.Thread(target=lambda: out.append(fn()), daemon=True)  # type: ignore[operator]
    t.start()
    t.join(seconds)
    assert not t.is_alive(), "it hung"
    return out[0]


def test_a_fifo_named_like_a_note_hangs_nothing(tmp_path: Path) -> None:
    """A FIFO named f-rescued-where.txt beside f.jsonl hung check, the app and the players' view for good."""
    fight, path = _fight(tmp_path)
    fight.close()
    os.mkfifo(listing.note_path(path.parent, path))
    assert _returns_within(5, lambda: saves.rescued_in(path, folders=())) is None
    target = tmp_path / "usb" / "kept.jsonl"
    written = _returns_within(5, lambda: listing.leave_note(path, target, folders=()))
    assert written == []  # (the FIFO takes no note, and nothing waits on it)


def test_a_rescue_back_into_the_old_files_name_leaves_it_the_live_one(tmp_path: Path) -> None:
    """f lost, rescued to f-rescued; that lost too, and the GM typed f.jsonl (gone) as its rescue: check named the
    stale f-rescued as where the fight of f.jsonl goes on, and the app offered to open it."""
    fight, path = _fight(tmp_path)
    path.unlink()
    with pytest.raises(saves.FileLost):
        fight.do(Note(text="refused"))
    first = saves.rescue(fight)
    first.do(Note(text="in the first rescue"))
    _lose(first.path)  # (it stays, stale)
    with pytest.raises(saves.FileLost):
        first.do(Note(text="refused"))
    back = saves.rescue(first, path)
    assert back.path == path
    back.do(Note(text="back home"))
    back.close()
    first.close()
    fight.close()
    assert first.path.exists()
    assert saves.rescued_in(path, folders=()) is None
    assert saves.rescued_in(first.path, folders=()) == path
