"""The fight's file lost under the running app, round five (regression check rg, findings F5, F3, F6 and F2), in the
real app:

F5. the red "not saved: f.jsonl was lost" under the log goes once an action is saved in the file again (the file
    put back as it was);
F3. a loss found by q or ctrl+w (no action tried first) says "not saved" under the log too, after "Stay in the fight";
F6. a fight file that takes no more writes (a file made immutable, a full disk) offers the same way on as a lost
    one: the fight as it is here saved to a new file (beside it, the fights folder, a path typed), and the fight
    goes on there; nothing shown is lost, the refused action is not taken;
F2. a typed path ending in "/" names a folder, made for it, and the fight is saved in it as f-rescued.jsonl.
"""

from __future__ import annotations

import asyncio
import errno
import os
from pathlib import Path

import pytest
from textual.pilot import Pilot

import saves
from saves import writing
from screens.app import TrackerApp
from screens.dialogs.form import FormDialog
from screens.dialogs.pick import PickDialog
from screens.fight import FightScreen
from tests.ui.drive import press, type_text
from tests.ui.test_phase_keys import toasts
from tests.ui.test_rescue_round4 import _fight_in
from tests.view.helpers import screen_text

SIZES = [(80, 24), (120, 36)]
GO_ON = "Save the fight as it is here to a new file, and go on there"


def _refused_in(monkeypatch: pytest.MonkeyPatch, *folders: Path, why: int = errno.EPERM) -> None:
    """No new file can be made in ``folders`` (a folder made read-only, a full disk; chmod does not stop root)."""
    real = writing.write_whole

    def refused(path: Path, data: bytes) -> None:
        if any(Path(path).parent == f for f in folders):
            raise OSError(why, "No space left on device" if why == errno.ENOSPC else "Operation not permitted")
        real(path, data)

    monkeypatch.setattr(writing, "write_whole", refused)


class _Unwritable:
    """The fight file at ``path`` takes no more writes once ``on`` (``chattr +i`` on it, a full disk: as root, chmod
    does not stop a write, so the writer's own calls on that file fail as the system fails them)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, path: Path, why: int = errno.EPERM) -> None:
        self.on = False
        self.why = why
        self.ino = path.stat().st_ino
        real_write, real_truncate = writing._write, writing._truncate

        def refused(fd: int) -> bool:
            return self.on and os.fstat(fd).st_ino == self.ino

        def write(fd: int, data: memoryview) -> int:
            if refused(fd):
                raise OSError(self.why, "Operation not permitted" if self.why == errno.EPERM else "No space left")
            return real_write(fd, data)

        def truncate(fd: int, size: int) -> None:
            if refused(fd) and self.why == errno.EPERM:  # (an immutable file cannot be cut back either)
                raise OSError(self.why, "Operation not permitted")
            real_truncate(fd, size)

        monkeypatch.setattr(writing, "_write", write)
        monkeypatch.setattr(writing, "_truncate", truncate)


async def _under_log(app: TrackerApp, pilot: Pilot[None]) -> str:
    """The screen's text with no toast over the log's border (at 80×24 the refusal's toast lies over it)."""
    app.clear_notifications()
    await pilot.pause()
    return screen_text(app)


async def _settle(pilot: Pilot[None]) -> None:
    await pilot.pause()
    await pilot.pause()


# -- F5 ---------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_the_not_saved_line_goes_once_an_action_is_saved_again(size: tuple[int, int], tmp_path: Path) -> None:
    """The file moved away and back (a sync tool, the GM): the next action is written to it and `tracker check`
    finds it good, but the log's border went on saying "not saved: f.jsonl was lost" in red."""
    path = _fight_in(tmp_path / "rf")
    aside = path.with_name("g.jsonl")
    shown: list[object] = []

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=size, notifications=True) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, FightScreen)
            await press(pilot, "n")
            path.rename(aside)
            await press(pilot, "n")
            assert isinstance(app.screen, PickDialog) and "no longer this fight's file" in screen_text(app)
            await press(pilot, "escape")  # leave it
            await _settle(pilot)
            assert "not saved: f.jsonl was lost" in await _under_log(app, pilot)
            aside.rename(path)  # put back as it was
            await press(pilot, "n")
            await _settle(pilot)
            assert app.screen is screen, screen_text(app)
            text = await _under_log(app, pilot)
            assert "not saved" not in text and "was lost" not in text, text
            assert "autosaved to" in text and "f.jsonl" in text, text
            shown.append(screen.fight.state)
        assert app.rescued == [] and app.unsaved == []

    asyncio.run(run())
    assert saves.load(path).fight().state == shown[0]  # (every action since the file came back is in it)


def test_an_undo_saved_again_clears_the_not_saved_line_too(tmp_path: Path) -> None:
    path = _fight_in(tmp_path / "rf")
    aside = path.with_name("g.jsonl")

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await pilot.pause()
            await press(pilot, "n")
            path.rename(aside)
            await press(pilot, "u")  # an undo is written too: refused, the rescue offered
            assert isinstance(app.screen, PickDialog), screen_text(app)
            await press(pilot, "escape")
            await _settle(pilot)
            assert "not saved: f.jsonl was lost" in await _under_log(app, pilot)
            aside.rename(path)
            await press(pilot, "u")
            await _settle(pilot)
            assert isinstance(app.screen, FightScreen), screen_text(app)
            text = await _under_log(app, pilot)
            assert "not saved" not in text and "autosaved to" in text, text

    asyncio.run(run())


def test_a_refused_action_keeps_the_not_saved_line(tmp_path: Path) -> None:
    """Only a write the file took clears it: an action refused again (the file still gone) leaves it."""
    path = _fight_in(tmp_path / "rf")

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await pilot.pause()
            await press(pilot, "n")
            path.unlink()
            for _ in range(2):
                await press(pilot, "n")
                assert isinstance(app.screen, PickDialog), screen_text(app)
                await press(pilot, "escape")
                await _settle(pilot)
                text = await _under_log(app, pilot)
                assert "not saved: f.jsonl was lost" in text and "autosaved to" not in text, text

    asyncio.run(run())


# -- F3 ---------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("key", ["q", "ctrl+w"])
def test_a_loss_found_by_quitting_says_not_saved_under_the_log(
    key: str, size: tuple[int, int], data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No action tried first: q (or ctrl+w) finds the file lost and nowhere to save the fight, the GM stays in the
    fight; the border said "autosaved to …/f.jsonl" still, under the dialog and after it."""
    path = _fight_in(tmp_path / "rf")
    _refused_in(monkeypatch, tmp_path / "rf", data_dir / "fights")

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=size, notifications=True) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, FightScreen)
            await press(pilot, "n")
            path.unlink()
            await press(pilot, key)
            await pilot.pause()
            assert isinstance(app.screen, PickDialog) and "The fight is saved nowhere" in screen_text(app)
            assert [v for _label, v in app.screen.options] == ["path", "", "lose"]
            await type_text(pilot, "stay in the fight")
            await press(pilot, "enter")
            await _settle(pilot)
            assert app.screen is screen and app.is_running, screen_text(app)
            text = await _under_log(app, pilot)
            assert "autosaved to" not in text, text
            assert "not saved: f.jsonl was lost" in text, text

    asyncio.run(run())


# -- F6 ---------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_an_unwritable_fight_file_offers_to_go_on_in_a_new_file(
    size: tuple[int, int], data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``chattr +i f.jsonl`` under the app: each action was refused "could not save…" with no way on."""
    path = _fight_in(tmp_path / "rf")
    file = _Unwritable(monkeypatch, path)

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=size, notifications=True) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, FightScreen)
            await press(pilot, "n", "n")
            shown = screen.fight.state
            before = path.read_bytes()
            file.on = True
            await press(pilot, "n")
            await pilot.pause()
            assert isinstance(app.screen, PickDialog), toasts(app) + screen_text(app)
            said = screen_text(app)
            assert "f.jsonl cannot be written" in said, said
            assert "could not save to" in app.screen.help_text and "Operation not permitted" in app.screen.help_text
            assert "every action shown is saved in f.jsonl" in app.screen.help_text, app.screen.help_text
            assert [label for label, _v in app.screen.options] == [GO_ON, "Leave it"]
            assert screen.fight.state == shown and path.read_bytes() == before  # the refused action not taken
            await press(pilot, "enter")
            await _settle(pilot)
            now = app.screen
            assert isinstance(now, FightScreen) and now is not screen, screen_text(app)
            assert now.fight.path == path.with_name("f-rescued.jsonl") and now.fight.state == shown
            assert "f-rescued.jsonl" in toasts(app).replace(" ", ""), toasts(app)
            assert "autosaved to" in await _under_log(app, pilot)
            await press(pilot, "n")  # goes on there
            await _settle(pilot)
            assert isinstance(app.screen, FightScreen), screen_text(app)
            went_on = now.fight.state
            file.on = False  # the file writable again: the old one gets nothing more (no checkpoint either)
        assert saves.load(path.with_name("f-rescued.jsonl")).fight().state == went_on
        assert path.read_bytes() == before
        assert saves.load(path).fight().state == shown

    asyncio.run(run())


def test_an_unwritable_fight_file_left_as_it_is_loses_nothing(
    data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ "Leave it": the fight stays, every later action is refused and offers the new file again; quitting asks
    nothing (the file holds every action shown) and ends as usual."""
    path = _fight_in(tmp_path / "rf")
    file = _Unwritable(monkeypatch, path)

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, FightScreen)
            await press(pilot, "n")
            shown = screen.fight.state
            file.on = True
            for _ in range(2):
                await press(pilot, "n")
                assert isinstance(app.screen, PickDialog) and "f.jsonl cannot be written" in screen_text(app)
                await press(pilot, "escape")  # leave it
                await _settle(pilot)
                assert app.screen is screen and screen.fight.state == shown
            await press(pilot, "q")
            await pilot.pause()
            assert not app.is_running or app.return_code is not None, screen_text(app)
        assert app.unsaved == [] and app.rescued == []
        assert saves.load(path).fight().state == shown

    asyncio.run(run())


@pytest.mark.parametrize("size", SIZES)
def test_a_full_disk_offers_a_typed_path_for_the_fight(
    size: tuple[int, int], data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The disk of the fight and of the fights folder full: the form asks where (another disk), the error shown;
    the fight goes on in the file made there."""
    path = _fight_in(tmp_path / "rf")
    file = _Unwritable(monkeypatch, path, errno.ENOSPC)
    _refused_in(monkeypatch, tmp_path / "rf", data_dir / "fights", why=errno.ENOSPC)
    usb = tmp_path / "usb"
    usb.mkdir()

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=size, notifications=True) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, FightScreen)
            await press(pilot, "n")
            shown = screen.fight.state
            file.on = True
            await press(pilot, "n")
            assert isinstance(app.screen, PickDialog) and "f.jsonl cannot be written" in screen_text(app)
            await press(pilot, "enter")
            await pilot.pause()
            assert isinstance(app.screen, FormDialog), screen_text(app)
            said = screen_text(app)
            assert "Save the fight somewhere else" in said and "No space left" in said, said
            await type_text(pilot, str(usb))
            await press(pilot, "enter")
            await _settle(pilot)
            now = app.screen
            assert isinstance(now, FightScreen) and now is not screen, screen_text(app)
            assert now.fight.path == usb / "f-rescued.jsonl" and now.fight.state == shown
        assert saves.load(usb / "f-rescued.jsonl").fight().state == shown

    asyncio.run(run())


# -- F2 ---------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_a_typed_folder_not_made_yet_takes_the_fight(
    size: tuple[int, int], data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ "…/newdir/" typed in the form: saved as newdir.jsonl beside it, not in the folder asked for."""
    path = _fight_in(tmp_path / "rf")
    _refused_in(monkeypatch, tmp_path / "rf", data_dir / "fights")
    newdir = tmp_path / "usb" / "newdir"

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=size, notifications=True) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, FightScreen)
            await press(pilot, "n")
            shown = screen.fight.state
            path.unlink()
            await press(pilot, "n")
            assert isinstance(app.screen, PickDialog), screen_text(app)
            await press(pilot, "enter")
            await pilot.pause()
            assert isinstance(app.screen, FormDialog), screen_text(app)
            await type_text(pilot, f"{newdir}/")
            await press(pilot, "enter")
            await _settle(pilot)
            now = app.screen
            assert isinstance(now, FightScreen) and now is not screen, screen_text(app)
            assert now.fight.path == newdir / "f-rescued.jsonl", now.fight.path
            assert "newdir/f-rescued.jsonl" in toasts(app).replace(" ", ""), toasts(app)
            assert now.fight.state == shown
        assert newdir.is_dir() and not (tmp_path / "usb" / "newdir.jsonl").exists()

    asyncio.run(run())
