"""The fight's file lost under the running app, round four (audit t4, findings 1, 3 and 4), in the real app:

1. the rescue cannot be written beside the lost file (a read-only folder, a full disk): the fights folder is tried,
   then a path the GM types is asked for; quitting or closing with the fight saved nowhere asks first, and if the
   app ends anyway the terminal says so and the exit code is 1;
3. a fight opened from its checkpoint whose file another program empties is rescued whole;
4. the closing lines on the terminal show a control character in the file's name as an escape.
"""

from __future__ import annotations

import asyncio
import errno
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

import saves
from saves import writing
from screens import app as app_module
from screens.app import TrackerApp
from screens.dialogs.form import FormDialog
from screens.dialogs.pick import PickDialog
from screens.fight import FightScreen
from tests.ui.drive import build_fight, press, type_text
from tests.ui.test_phase_keys import toasts
from tests.view.helpers import screen_text


def _read_only(monkeypatch: pytest.MonkeyPatch, *folders: Path) -> None:
    """No new file can be made in ``folders`` (as a folder made read-only: chmod does not stop root)."""
    real = writing.write_whole

    def refused(path: Path, data: bytes) -> None:
        if any(Path(path).parent == f for f in folders):
            raise PermissionError(errno.EPERM, "Operation not permitted", str(path))
        real(path, data)

    monkeypatch.setattr(writing, "write_whole", refused)


def _fight_in(folder: Path, name: str = "f.jsonl") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    build_fight("bnb", path).close()
    return path


async def _lose_and_refuse(pilot: Pilot[None], app: TrackerApp, path: Path) -> FightScreen:
    """Three actions saved, the file deleted by another program, the next action refused: the rescue offered."""
    screen = app.screen
    assert isinstance(screen, FightScreen)
    await press(pilot, "n", "n", "n")
    path.unlink()
    await press(pilot, "n")
    assert isinstance(app.screen, PickDialog), screen_text(app)
    assert "is no longer this fight's file" in screen_text(app)
    return screen


def test_a_rescue_beside_the_lost_file_that_cannot_be_written_goes_to_the_fights_folder(
    data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _fight_in(tmp_path / "rf")
    _read_only(monkeypatch, tmp_path / "rf")

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await pilot.pause()
            screen = await _lose_and_refuse(pilot, app, path)
            shown = screen.fight.state
            await press(pilot, "enter")  # "Save the fight as it is here to a new file, and go on there"
            await pilot.pause()
            now = app.screen
            assert isinstance(now, FightScreen) and now is not screen, screen_text(app)
            assert now.fight.path == data_dir / "fights" / "f-rescued.jsonl" and now.fight.state == shown
            assert "f-rescued.jsonl" in toasts(app) + screen_text(app)

    asyncio.run(run())


def test_a_rescue_nowhere_to_write_offers_a_path_then_asks_before_quitting(
    data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _fight_in(tmp_path / "rf")
    _read_only(monkeypatch, tmp_path / "rf", data_dir / "fights")
    usb = tmp_path / "usb"
    usb.mkdir()

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await pilot.pause()
            screen = await _lose_and_refuse(pilot, app, path)
            shown = screen.fight.state
            await press(pilot, "enter")  # save to a new file: neither beside it nor in the fights folder
            await pilot.pause()
            assert isinstance(app.screen, FormDialog), screen_text(app)
            said = screen_text(app)
            assert "Save the fight somewhere else" in said and "Operation not permitted" in said, said
            await press(pilot, "escape")  # not now
            await pilot.pause()
            assert isinstance(app.screen, FightScreen)
            assert "saved nowhere" in toasts(app), toasts(app)
            await press(pilot, "q")  # the fight exists only in this app: asked first
            await pilot.pause()
            assert app.is_running and app.return_code is None
            assert isinstance(app.screen, PickDialog), screen_text(app)
            said = screen_text(app)
            assert "The fight is saved nowhere" in said and "the fight is lost" in said, said
            assert [v for _label, v in app.screen.options] == ["path", "", "lose"]
            await press(pilot, "escape")  # stay
            await pilot.pause()
            assert isinstance(app.screen, FightScreen) and app.is_running
            await press(pilot, "ctrl+w")  # closing asks as well
            await pilot.pause()
            assert isinstance(app.screen, PickDialog) and "the fight is lost" in screen_text(app)
            await press(pilot, "enter")  # "Save it to a place I type"
            await pilot.pause()
            assert isinstance(app.screen, FormDialog)
            await type_text(pilot, str(data_dir / "fights"))  # refused there too: said, the form stays open
            await press(pilot, "enter")
            await pilot.pause()
            assert isinstance(app.screen, FormDialog) and "Operation not permitted" in screen_text(app)
            app.screen.query_one(Input).value = ""
            await type_text(pilot, str(usb))
            await press(pilot, "enter")
            await pilot.pause()
            assert not isinstance(app.screen, FightScreen | FormDialog | PickDialog), screen_text(app)
            assert "usb/f-rescued.jsonl" in toasts(app).replace(" ", ""), toasts(app)
        assert app.rescued == [(path, usb / "f-rescued.jsonl")] and app.unsaved == []
        assert saves.load(usb / "f-rescued.jsonl").fight().state == shown

    asyncio.run(run())


def _run_as_cli(
    monkeypatch: pytest.MonkeyPatch, drive: Callable[[TrackerApp, Pilot[None]], Awaitable[None]], size: tuple[int, int]
) -> None:
    """``screens.app.run`` as the CLI calls it, the app driven headless by ``drive`` in place of a terminal."""

    def headless(self: TrackerApp) -> None:
        async def go() -> None:
            async with self.run_test(size=size, notifications=True) as pilot:
                await pilot.pause()
                await drive(self, pilot)

        asyncio.run(go())

    monkeypatch.setattr(TrackerApp, "run", headless)


def test_quitting_anyway_with_the_fight_saved_nowhere_says_so_and_exits_1(
    data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _fight_in(tmp_path / "rf")
    _read_only(monkeypatch, tmp_path / "rf", data_dir / "fights")
    seen: dict[str, str] = {}

    async def drive(app: TrackerApp, pilot: Pilot[None]) -> None:
        await _lose_and_refuse(pilot, app, path)
        await press(pilot, "escape")  # "Leave it"
        await press(pilot, "q")
        seen["asked"] = screen_text(app)
        await press(pilot, "down", "down", "down", "enter")  # "Quit anyway"

    _run_as_cli(monkeypatch, drive, (100, 30))
    code = app_module.run(open_path=path)
    assert "Quit anyway, and lose the fight" in seen["asked"], seen["asked"]
    err = capsys.readouterr().err
    assert code == 1, err
    assert f"tracker: the fight in {path} is lost: f.jsonl was deleted or moved by another program" in err, err
    assert "could not be saved anywhere" in err and "Operation not permitted" in err, err


# -- finding 3 --------------------------------------------------------------------------------------------------------


def test_a_fight_opened_from_its_checkpoint_whose_file_is_emptied_is_rescued_whole(data_dir: Path) -> None:
    from bench.fights import make_fight

    path = data_dir / "long.jsonl"
    make_fight("bnb", 2500, path, seed=4).close()

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, FightScreen) and screen.fight.log.partial, "opened from its checkpoint"
            for _ in range(3):
                await press(pilot, "T")  # (dice typed in: an action whatever the fight's prompts)
            whole = saves.load(path)
            shown = screen.fight.state
            path.write_bytes(b"")  # a sync tool, a stray redirect: emptied in place
            await press(pilot, "T")
            await pilot.pause()
            assert isinstance(app.screen, PickDialog), toasts(app)
            labels = [label for label, _v in app.screen.options]
            assert labels[0] == "Save the fight as it is here to a new file, and go on there", labels
            assert "Nothing done here is lost" in app.screen.help_text, app.screen.help_text
            await press(pilot, "enter")
            await pilot.pause()
            now = app.screen
            assert isinstance(now, FightScreen) and now.fight.path == data_dir / "long-rescued.jsonl"
            assert now.fight.state == shown
            assert list(saves.load(now.fight.path).entries) == list(whole.entries)

    asyncio.run(run())


# -- finding 4 --------------------------------------------------------------------------------------------------------

EVIL = "ev\x1b]2;PWNED\x07il.jsonl"


def test_the_closing_line_of_a_rescue_shows_an_escape_in_the_name_as_text(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _fight_in(data_dir / "esc", EVIL)

    async def drive(app: TrackerApp, pilot: Pilot[None]) -> None:
        await press(pilot, "n")
        path.rename(path.with_name("moved.jsonl"))
        await press(pilot, "q")

    _run_as_cli(monkeypatch, drive, (100, 30))
    assert app_module.run(open_path=path) == 0
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\x07" not in err, repr(err)
    assert "ev\\x1b]2;PWNED\\x07il.jsonl was replaced, moved or changed" in err, err
    assert "saved in " in err and "ev\\x1b]2;PWNED\\x07il-rescued.jsonl" in err, err


def test_the_crash_line_shows_an_escape_in_the_name_as_text(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _fight_in(data_dir / "esc", EVIL)

    async def drive(app: TrackerApp, pilot: Pilot[None]) -> None:
        await press(pilot, "n")
        app.exit(return_code=1)  # as Textual ends after an exception

    _run_as_cli(monkeypatch, drive, (100, 30))
    assert app_module.run(open_path=path) == 1
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\x07" not in err, repr(err)
    assert "the app crashed; every action is saved in" in err and "ev\\x1b]2;PWNED\\x07il.jsonl" in err, err


def test_closing_anyway_with_the_fight_saved_nowhere_says_it_is_lost(
    data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from screens.start import StartScreen

    path = _fight_in(tmp_path / "rf")
    _read_only(monkeypatch, tmp_path / "rf", data_dir / "fights")

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=(120, 36), notifications=True) as pilot:
            await pilot.pause()
            await _lose_and_refuse(pilot, app, path)
            await press(pilot, "escape")  # "Leave it"
            await press(pilot, "ctrl+w")
            assert isinstance(app.screen, PickDialog), screen_text(app)
            said = app.screen.help_text
            assert "f.jsonl was deleted or moved by another program, and no new file could be made" in said, said
            assert "if it closes, the fight is lost" in screen_text(app), screen_text(app)
            await type_text(pilot, "close it anyway")
            await press(pilot, "enter")
            await pilot.pause()
            assert isinstance(app.screen, StartScreen), screen_text(app)
            assert "The fight is lost" in toasts(app) and "could not be saved anywhere" in toasts(app), toasts(app)
            assert app.unsaved and app.unsaved[0][0] == path

    asyncio.run(run())


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
def test_a_lost_file_left_for_later_is_said_under_the_log(size: tuple[int, int], tmp_path: Path) -> None:
    """The GM leaves the rescue for later: the log's border said "autosaved to …/f.jsonl" still, of a file that
    takes nothing more.  It says the fight is not saved (the next action offers the rescue again)."""
    path = _fight_in(tmp_path / "rf")

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=size, notifications=True) as pilot:
            await pilot.pause()
            screen = await _lose_and_refuse(pilot, app, path)
            await press(pilot, "escape")  # leave it
            await pilot.pause()
            assert app.screen is screen
            app.clear_notifications()  # (the refusal's toast lies over the log's border at 80×24)
            await pilot.pause()
            text = screen_text(app)
            assert "autosaved to" not in text, text
            assert "not saved: f.jsonl was lost" in text, text

    asyncio.run(run())
