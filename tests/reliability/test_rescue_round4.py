"""The fight's file lost under the app, round four (audit t4, findings 1 and 3): a rescue that cannot be written
beside the lost file goes to the fights folder or a path the GM gives, a close that can save it nowhere says so,
and a fight opened from its checkpoint is whole in memory once the check agreed (a file emptied under it lost the
fight whole)."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

import saves
from bench.fights import make_fight
from saves import writing
from tracker import Note

pytestmark = pytest.mark.reliability


def _read_only(monkeypatch: pytest.MonkeyPatch, *folders: Path) -> None:
    """No new file can be made in ``folders`` (a folder made read-only, a share remounted read-only, a full disk;
    chmod does not stop root, so the write itself is refused)."""
    real = writing.write_whole

    def refused(path: Path, data: bytes) -> None:
        if any(Path(path).parent == f for f in folders):
            raise PermissionError(errno.EPERM, "Operation not permitted", str(path))
        real(path, data)

    monkeypatch.setattr(writing, "write_whole", refused)


def _lost_fight(tmp_path: Path) -> tuple[saves.SavedFight, Path]:
    folder = tmp_path / "rf"
    folder.mkdir()
    path = folder / "f.jsonl"
    fight = saves.new_fight("bnb", path, seed=1)
    for n in range(3):
        fight.do(Note(text=f"note {n}"))
    path.unlink()  # another program deletes it
    with pytest.raises(saves.FileLost):
        fight.do(Note(text="refused"))
    return fight, folder


def test_a_rescue_that_cannot_be_written_beside_goes_to_the_fights_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fight, folder = _lost_fight(tmp_path)
    fights = tmp_path / "data" / "fights"
    _read_only(monkeypatch, folder)
    state = fight.state
    rescued = saves.rescue(fight, elsewhere=(fights,))
    assert rescued.path == fights / "f-rescued.jsonl" and rescued.state == state
    assert fight.rescued_to == rescued.path
    rescued.do(Note(text="on in the fights folder"))
    rescued.close()
    assert saves.load(fights / "f-rescued.jsonl").fight().state == rescued.state
    assert not (folder / "f-rescued.jsonl").exists()
    fight.close()


def test_a_rescue_to_a_typed_folder_or_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fight, folder = _lost_fight(tmp_path)
    _read_only(monkeypatch, folder)
    usb = tmp_path / "usb"
    usb.mkdir()
    state = fight.state
    rescued = saves.rescue(fight, usb)  # a folder: the lost file's name, "-rescued", there
    assert rescued.path == usb / "f-rescued.jsonl" and rescued.state == state
    rescued.close()
    fight.rescued_to = None
    again = saves.rescue(fight, usb / "kept")  # a file: ".jsonl" added, as the start screen lists only those
    assert again.path == usb / "kept.jsonl" and again.state == state
    again.close()
    fight.close()


def test_a_rescue_nowhere_names_each_place_tried(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fight, folder = _lost_fight(tmp_path)
    fights = tmp_path / "fights"
    fights.mkdir()
    _read_only(monkeypatch, folder, fights)
    with pytest.raises(saves.SaveError) as e:
        saves.rescue(fight, elsewhere=(fights,))
    said = str(e.value)
    assert f"cannot create {folder / 'f-rescued.jsonl'}: Operation not permitted" in said, said
    assert f"cannot create {fights / 'f-rescued.jsonl'}: Operation not permitted" in said, said
    assert fight.rescued_to is None
    fight.close()


def test_close_says_when_the_fight_is_saved_nowhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The failed rescue was swallowed: close returned None, as for a fight whose file was its own."""
    fight, folder = _lost_fight(tmp_path)
    fights = tmp_path / "fights"
    _read_only(monkeypatch, folder, fights)
    assert fight.close(elsewhere=(fights,)) is None
    assert "f.jsonl was deleted or moved by another program" in fight.unsaved, fight.unsaved
    assert "could not be saved anywhere" in fight.unsaved and "Operation not permitted" in fight.unsaved


def test_close_rescues_to_the_fights_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fight, folder = _lost_fight(tmp_path)
    fights = tmp_path / "fights"
    _read_only(monkeypatch, folder)
    state = fight.state
    assert fight.close(elsewhere=(fights,)) == fights / "f-rescued.jsonl"
    assert fight.unsaved == ""
    assert saves.load(fights / "f-rescued.jsonl").fight().state == state


def test_a_fight_whose_file_is_its_own_closes_with_nothing_unsaved(tmp_path: Path) -> None:
    fight = saves.new_fight("bnb", tmp_path / "g.jsonl", seed=1)
    fight.do(Note(text="kept"))
    assert fight.close() is None and fight.unsaved == ""
    assert not list(tmp_path.rglob("*-rescued*"))


# -- finding 3: opened from its checkpoint, the file emptied by another program -------------------------------------


def _from_checkpoint(tmp_path: Path) -> tuple[saves.SavedFight, Path]:
    path = tmp_path / "long.jsonl"
    make_fight("bnb", 2500, path, seed=4).close()
    fight = saves.open_fight(path)
    assert fight.needs_check and fight.log.partial, "opened from its checkpoint"
    return fight, path


@pytest.mark.parametrize("how", ["emptied", "cut short"])
def test_a_fight_opened_from_its_checkpoint_survives_its_file_emptied(how: str, tmp_path: Path) -> None:
    fight, path = _from_checkpoint(tmp_path)
    result = fight.settle_check()
    assert result is not None and result.good
    for n in range(3):
        fight.do(Note(text=f"done here {n}"))
    whole = saves.load(path)
    state = fight.state
    with path.open("r+b") as f:  # a sync tool, a stray redirect: in place
        f.truncate(0 if how == "emptied" else 300)
    with pytest.raises(saves.FileLost, match="cut short"):
        fight.do(Note(text="refused"))
    assert saves.rescue_refused(fight) == ""
    rescued = saves.rescue(fight)
    assert rescued.path == tmp_path / "long-rescued.jsonl" and rescued.state == state
    rescued.close()
    again = saves.load(rescued.path)
    assert again.warnings == () and list(again.entries) == list(whole.entries)
    assert again.header.parent == str(path)
    fight.close()


def test_a_check_that_agreed_before_the_file_was_emptied_still_keeps_the_fight(tmp_path: Path) -> None:
    """The check was over (in its thread) when the file was emptied, and settled only at the next action: what it
    folded is still this fight's (its events after the checkpoint are the ones the fight opened with)."""
    fight, path = _from_checkpoint(tmp_path)
    whole = saves.load(path)
    fight.start_check()
    assert fight.wait_checked(timeout=60) is not None
    path.write_bytes(b"")  # in place: the same file, emptied
    with pytest.raises(saves.FileLost):
        fight.do(Note(text="refused"))
    assert fight.describe(0)  # the older part, folded from memory (the file has none of it)
    rescued = saves.rescue(fight)
    assert rescued.state == fight.state
    rescued.close()
    assert list(saves.load(rescued.path).entries) == list(whole.entries)
    fight.close()


def test_a_fight_opened_from_its_checkpoint_closes_to_a_rescue_when_its_file_is_emptied(tmp_path: Path) -> None:
    fight, path = _from_checkpoint(tmp_path)
    fight.settle_check()
    fight.do(Note(text="the last one"))
    state = fight.state
    os.truncate(path, 0)
    assert fight.close() == tmp_path / "long-rescued.jsonl" and fight.unsaved == ""
    assert saves.load(tmp_path / "long-rescued.jsonl").fight().state == state
