"""The fight's file lost or unwritable under the running app, round six (record audit r1, findings 1, 3 and 5), in
the real app:

1. a fight saved on in the fights folder (its own folder took no new file) is offered when the old file is opened
   again; one saved to a typed path with no note left for the old file says so, and where;
3. two quick keys on a lost file (or ctrl+q twice on a fight saved nowhere) open one rescue dialog, and make one
   rescue; the old file opened again names its newest rescue;
5. the typed-path form of a file that takes no more writes says Escape stays in it (it holds every action).
"""

from __future__ import annotations

import asyncio
import errno
import os
import shutil
from pathlib import Path

import pytest

import saves
from saves import listing
from screens.app import TrackerApp
from screens.dialogs.form import FormDialog
from screens.dialogs.pick import PickDialog
from screens.fight import FightScreen
from screens.testing import post_keys
from tests.ui.drive import press, type_text
from tests.ui.test_phase_keys import toasts
from tests.ui.test_rescue_round4 import _fight_in
from tests.ui.test_rescue_round5 import _refused_in, _settle, _Unwritable
from tests.view.helpers import screen_text
from tracker import Note

SIZES = [(80, 24), (120, 36)]


def _dialogs(app: TrackerApp) -> list[PickDialog | FormDialog]:
    return [s for s in app.screen_stack if isinstance(s, (PickDialog, FormDialog))]


def _no_notes(monkeypatch: pytest.MonkeyPatch, *folders: Path) -> dict[str, bool]:
    """No note can be left in ``folders`` while ``on`` (the same full disk)."""
    refused = {"on": True}
    real = getattr(listing, "_append", None)

    def append(path: Path, data: bytes) -> None:
        if refused["on"] and Path(path).parent in folders:
            raise OSError(errno.ENOSPC, "No space left on device")
        assert real is not None
        real(path, data)

    monkeypatch.setattr(listing, "_append", append, raising=False)  # (raising: the test run before the fix)
    return refused


# -- finding 3 --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_two_quick_keys_on_a_lost_file_open_one_rescue_dialog(size: tuple[int, int], tmp_path: Path) -> None:
    """n n before the first dialog is up: two dialogs stacked, each Enter made a copy (f-rescued, f-rescued2), and
    the old file pointed at the stale one."""
    path = _fight_in(tmp_path / "rf")

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=size, notifications=True) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, FightScreen)
            await press(pilot, "n")
            path.unlink()
            post_keys(pilot, "n", "n")  # (no wait between: a fast typist, key repeat)
            await _settle(pilot)
            assert len(_dialogs(app)) == 1, [type(s).__name__ for s in app.screen_stack]
            assert isinstance(app.screen, PickDialog) and "no longer this fight's file" in app.screen.title_text
            shown = screen.fight.state
            await press(pilot, "enter")  # save it to a new file, and go on there
            await _settle(pilot)
            now = app.screen
            assert isinstance(now, FightScreen) and now is not screen, screen_text(app)
            assert now.fight.path == path.with_name("f-rescued.jsonl") and now.fight.state == shown
            assert _dialogs(app) == []
            await press(pilot, "n")  # goes on there
            await _settle(pilot)
            assert isinstance(app.screen, FightScreen), screen_text(app)
        assert sorted(p.name for p in path.parent.glob("*.jsonl")) == ["f-rescued.jsonl"]
        assert saves.rescued_in(path) == path.with_name("f-rescued.jsonl")

    asyncio.run(run())


def test_ctrl_q_twice_on_a_fight_saved_nowhere_asks_once(
    data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _fight_in(tmp_path / "rf")
    _refused_in(monkeypatch, tmp_path / "rf", data_dir / "fights")

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=(120, 36), notifications=True) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, FightScreen)
            await press(pilot, "n")
            path.unlink()
            post_keys(pilot, "ctrl+q", "ctrl+q")
            await _settle(pilot)
            assert len(_dialogs(app)) == 1, [type(s).__name__ for s in app.screen_stack]
            assert "The fight is saved nowhere" in screen_text(app)
            await press(pilot, "escape")  # stay in the fight
            await _settle(pilot)
            assert app.screen is screen and app.is_running
            await press(pilot, "ctrl+q")  # asked again once that one is over
            await _settle(pilot)
            assert len(_dialogs(app)) == 1 and "The fight is saved nowhere" in screen_text(app)

    asyncio.run(run())


def test_a_file_lost_twice_offers_its_newest_rescue(tmp_path: Path) -> None:
    """Lost, rescued to r-rescued; opened again, "Stay in this file", lost again, rescued to r-rescued2: the app
    offered the stale r-rescued."""
    path = _fight_in(tmp_path / "rf", "r.jsonl")
    for n in (1, 3):
        f = saves.open_fight(path)
        for i in range(n):
            f.do(Note(text=f"{n}.{i}"))
        shutil.copy(path, f"{path}.tmp")
        os.replace(f"{path}.tmp", path)  # a sync tool puts its copy in place
        with pytest.raises(saves.FileLost):
            f.do(Note(text="refused"))
        c = saves.rescue(f)
        c.do(Note(text="on"))
        c.close()
        f.close()

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=(120, 36), notifications=True) as pilot:
            await _settle(pilot)
            assert isinstance(app.screen, PickDialog), screen_text(app)
            labels = [label for label, _v in app.screen.options]
            assert labels[0] == "Open r-rescued2.jsonl, where this fight goes on", labels
            await press(pilot, "enter")
            await _settle(pilot)
            assert isinstance(app.screen, FightScreen) and app.screen.fight.path == path.with_name("r-rescued2.jsonl")

    asyncio.run(run())


# -- finding 1 --------------------------------------------------------------------------------------------------------


def test_a_fight_saved_on_in_the_fights_folder_is_offered_when_its_old_file_is_opened(
    data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The full disk of the report: the file and its folder take nothing, the fight goes on in the fights folder.
    Once the disk had room, the old file was opened with no word and took new actions (a fork)."""
    path = _fight_in(tmp_path / "rf")
    file = _Unwritable(monkeypatch, path, errno.ENOSPC)
    _refused_in(monkeypatch, tmp_path / "rf", why=errno.ENOSPC)
    fights = data_dir / "fights"

    async def rescue() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=(120, 36), notifications=True) as pilot:
            await pilot.pause()
            await press(pilot, "n")
            file.on = True
            await press(pilot, "n")
            assert isinstance(app.screen, PickDialog) and "f.jsonl cannot be written" in screen_text(app)
            await press(pilot, "enter")
            await _settle(pilot)
            assert isinstance(app.screen, FightScreen) and app.screen.fight.path == fights / "f-rescued.jsonl"
            await press(pilot, "n")
            await _settle(pilot)

    async def reopen() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=(120, 36), notifications=True) as pilot:
            await _settle(pilot)
            assert isinstance(app.screen, PickDialog), screen_text(app)
            assert "f.jsonl was saved on elsewhere" in screen_text(app)
            assert str(fights / "f-rescued.jsonl") in app.screen.help_text.replace("\n", ""), app.screen.help_text
            assert app.screen.options[0][0] == "Open f-rescued.jsonl, where this fight goes on"

    asyncio.run(rescue())
    file.on = False  # the disk is freed
    asyncio.run(reopen())


def test_a_typed_path_no_note_could_be_left_for_says_where_the_fight_is(
    data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The disk of the fight and of the data folder full: the fight goes on on another disk, and nothing on the full
    one can say so; the app says where, and that the old file does not know."""
    path = _fight_in(tmp_path / "rf")
    file = _Unwritable(monkeypatch, path, errno.ENOSPC)
    fights = data_dir / "fights"
    _refused_in(monkeypatch, tmp_path / "rf", fights, why=errno.ENOSPC)
    notes = _no_notes(monkeypatch, tmp_path / "rf", fights)
    usb = tmp_path / "usb"
    usb.mkdir()

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=(120, 36), notifications=True) as pilot:
            await pilot.pause()
            await press(pilot, "n")
            file.on = True
            await press(pilot, "n")
            await press(pilot, "enter")
            await pilot.pause()
            assert isinstance(app.screen, FormDialog), screen_text(app)
            await type_text(pilot, str(usb))
            await press(pilot, "enter")
            await _settle(pilot)
            assert isinstance(app.screen, FightScreen) and app.screen.fight.path == usb / "f-rescued.jsonl"
            said = "".join(toasts(app).split())
            assert "Nonoteofitcouldbeleftbesidef.jsonl" in said, said
            assert f"open{usb / 'f-rescued.jsonl'}fromnowon,notf.jsonl" in said, said
            file.on = notes["on"] = False  # the disk is freed: the copy leaves its note as it closes

    asyncio.run(run())
    assert saves.rescued_in(path) == usb / "f-rescued.jsonl"


# -- finding 5 --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_the_path_form_of_an_unwritable_file_says_escape_stays_in_it(
    size: tuple[int, int], data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """It said "or Escape to leave it unsaved for now" of a file that holds every action shown."""
    path = _fight_in(tmp_path / "rf")
    file = _Unwritable(monkeypatch, path, errno.ENOSPC)
    _refused_in(monkeypatch, tmp_path / "rf", data_dir / "fights", why=errno.ENOSPC)

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=size, notifications=True) as pilot:
            await pilot.pause()
            screen = app.screen
            await press(pilot, "n")
            file.on = True
            await press(pilot, "n")
            await press(pilot, "enter")
            await pilot.pause()
            form = app.screen
            assert isinstance(form, FormDialog), screen_text(app)
            help_text = form.help_text.replace("\n", " ")
            assert "unsaved" not in help_text, help_text
            assert "every action shown is saved in f.jsonl, which takes no more" in help_text, help_text
            assert "or Escape to stay in f.jsonl for now" in help_text, help_text
            await press(pilot, "escape")
            await _settle(pilot)
            assert app.screen is screen
            assert "the fight stays in f.jsonl" in toasts(app).replace("\n", " ")

    asyncio.run(run())


def test_the_path_form_of_a_lost_file_still_says_unsaved(
    data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A lost file holds nothing more of the fight: Escape leaves it unsaved, as before."""
    path = _fight_in(tmp_path / "rf")
    _refused_in(monkeypatch, tmp_path / "rf", data_dir / "fights")

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await pilot.pause()
            await press(pilot, "n")
            path.unlink()
            await press(pilot, "n")
            await press(pilot, "enter")
            await pilot.pause()
            form = app.screen
            assert isinstance(form, FormDialog), screen_text(app)
            assert "or Escape to leave it unsaved for now" in form.help_text.replace("\n", " "), form.help_text

    asyncio.run(run())
