"""The players' view after the GM's app saved the fight on in another file (rescued, or continued past damage)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import saves
from saves import follow
from saves.follow import MOVED, Follower
from tests.ui.drive import build_fight
from tracker import commands as C


@pytest.fixture(autouse=True)
def look_each_poll(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(follow, "WENT_ON_EVERY", 0.0)


def _replaced(path: Path) -> None:
    """A sync tool writes a copy and renames it over the fight's file."""
    tmp = path.with_name("x.tmp")
    tmp.write_bytes(path.read_bytes())
    os.rename(tmp, path)


def test_the_view_says_where_a_rescued_fight_goes_on(tmp_path: Path) -> None:
    """Ruling (saves/follow.py ``Follower.poll``): the view says "The fight goes on in fight-rescued.jsonl" and
    the command that shows it; it showed the lost file's fight, frozen, as if live."""
    path = tmp_path / "fight.jsonl"
    fight = build_fight("bnb", path)
    view = Follower(path)
    view.poll()
    assert view.snapshot.fight is not None and not view.snapshot.status
    _replaced(path)
    with pytest.raises(saves.FileLost):
        fight.do(C.Note(text="refused"))
    rescued = saves.rescue(fight)
    try:
        rescued.do(C.NextTurn())
        snap = view.poll()
        assert snap is not None and snap.status == MOVED and snap.fight is None
        assert "The fight goes on in fight-rescued.jsonl" in snap.problem
        assert "tracker table fight-rescued.jsonl" in snap.problem
        assert view.poll() is None  # said once
    finally:
        rescued.close()
        fight.close()


def test_the_view_says_where_a_damaged_fight_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "fight.jsonl"
    build_fight("bnb", path).close()
    lines = path.read_bytes().split(b"\n")
    lines[3] = lines[3][:-5] + b"XXXXX"  # a line in the middle damaged
    path.write_bytes(b"\n".join(lines))
    view = Follower(path)
    assert view.poll() is not None and view.snapshot.status == follow.BAD
    went_on = saves.continue_before(path, 4)
    went_on.close()
    snap = view.poll()
    assert snap is not None and snap.status == MOVED
    assert "fight.jsonl is damaged" in snap.problem and "tracker table fight-continued.jsonl" in snap.problem


def test_a_lost_file_played_on_after_all_is_shown_again(tmp_path: Path) -> None:
    """The GM chose "Stay in this file": the lost file written after its rescue is shown again (the view does not move)."""
    path = tmp_path / "fight.jsonl"
    fight = build_fight("bnb", path)
    view = Follower(path)
    view.poll()
    _replaced(path)
    with pytest.raises(saves.FileLost):
        fight.do(C.Note(text="refused"))
    saves.rescue(fight).close()
    fight.close()
    assert view.poll() is not None and view.snapshot.status == MOVED
    stayed = saves.open_fight(path)
    try:
        stayed.do(C.Note(text="played on here"))
        st = path.stat()
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))  # (later than the rescue, whatever the clock)
        snap = view.poll()
        assert snap is not None and not snap.status and snap.fight is not None
        assert snap.fight.state == stayed.state
    finally:
        stayed.close()


def test_a_fight_rescued_to_another_folder_is_named_by_its_whole_path(tmp_path: Path) -> None:
    """A rescue at a path the GM typed (or in the fights folder) is not beside the lost file: the view said
    "(beside fight.jsonl): tracker table fight-rescued.jsonl", a command that found nothing."""
    path = tmp_path / "fight.jsonl"
    fight = build_fight("bnb", path)
    view = Follower(path)
    view.poll()
    _replaced(path)
    with pytest.raises(saves.FileLost):
        fight.do(C.Note(text="refused"))
    elsewhere = tmp_path / "kept" / "saved.jsonl"
    elsewhere.parent.mkdir()
    rescued = saves.rescue(fight, elsewhere)
    try:
        rescued.do(C.NextTurn())
        snap = view.poll()
        assert snap is not None and snap.status == MOVED
        assert f"The fight goes on in {elsewhere}" in snap.problem
        assert f"tracker table {elsewhere}" in snap.problem and "beside" not in snap.problem
    finally:
        rescued.close()
        fight.close()
