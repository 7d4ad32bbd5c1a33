"""The fight's file deleted or replaced by another program while the app has it open: the next action is refused
as not saved (it said "autosaved" and wrote into a file no one would open again), and the app offers to save the
fight as it is on screen to a new file and go on there (at 80×24 and 120×36)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

import saves
from screens.app import TrackerApp
from screens.dialogs.pick import PickDialog
from screens.fight import FightScreen
from tests.ui.drive import build_fight, press
from tests.ui.test_phase_keys import toasts
from tests.view.helpers import screen_text


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
@pytest.mark.parametrize("how", ["deleted", "replaced"])
def test_a_lost_file_refuses_the_action_and_the_fight_goes_on_in_a_new_file(
    how: str, size: tuple[int, int], data_dir: Path
) -> None:
    path = data_dir / "f.jsonl"
    build_fight("bnb", path).close()

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=size, notifications=True) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, FightScreen)
            await press(pilot, "n")
            shown = screen.fight.state
            if how == "deleted":
                path.unlink()
            else:
                copy = data_dir / "copy.jsonl"
                copy.write_bytes(path.read_bytes())
                os.replace(copy, path)
            await press(pilot, "n")
            await pilot.pause()
            said = toasts(app)
            assert "Not done" in said and f"f.jsonl was {how}" in said and "action was not taken" in said, said
            assert isinstance(app.screen, PickDialog), screen_text(app)
            assert "is no longer this fight's file" in screen_text(app)
            await press(pilot, "enter")  # save it to a new file and go on there
            await pilot.pause()
            now = app.screen
            assert isinstance(now, FightScreen) and now is not screen, screen_text(app)
            assert now.fight.path == data_dir / "f-rescued.jsonl" and now.fight.state == shown
            assert "f-rescued.jsonl" in screen_text(app)
            await press(pilot, "n")
            assert saves.load(now.fight.path).fight().state == now.fight.state

    asyncio.run(run())


def test_a_file_cut_short_under_a_fight_opened_from_its_checkpoint_is_rescued_whole(data_dir: Path) -> None:
    """The offer said "nothing done here is lost", and saving then said what was saved was gone; then it could only
    say "put the file back".  The check of the checkpoint keeps the events it folded: the fight is saved whole."""
    from bench.fights import make_fight

    path = data_dir / "long.jsonl"
    make_fight("bnb", 2500, path, seed=4).close()
    whole = saves.load(path)

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, FightScreen)
            screen.fight.settle_check()
            with path.open("r+b") as f:
                f.truncate(200)
            await press(pilot, "T")  # (dice typed in: an action whatever the fight's prompts)
            await pilot.pause()
            assert isinstance(app.screen, PickDialog), (toasts(app), screen.fight.older)
            assert "cut short by another program" in app.screen.help_text, app.screen.help_text
            labels = [label for label, _v in app.screen.options]
            assert labels[0].startswith("Save the fight as it is here to a new file"), labels
            await press(pilot, "enter")
            await pilot.pause()
            now = app.screen
            assert isinstance(now, FightScreen) and now.fight.path == data_dir / "long-rescued.jsonl"
            assert list(saves.load(now.fight.path).entries)[: len(whole.entries)] == list(whole.entries)

    asyncio.run(run())


@pytest.mark.parametrize("leave", [False, True], ids=["quit at once", "after leave it"])
def test_quitting_after_the_file_was_replaced_saves_what_the_screen_showed(leave: bool, data_dir: Path) -> None:
    """A sync tool put an older copy back under the app and the GM quit (or said "Leave it" to the rescue, then
    quit): the app exited with nothing said, and the actions the screen showed as done went with the replaced file.
    Closing saves the fight as the app had it to a new file, says so, and the CLI says it again on exit."""
    path = data_dir / "f.jsonl"
    build_fight("bnb", path).close()
    older = path.read_bytes()

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, FightScreen)
            await press(pilot, "n")
            await press(pilot, "n")
            shown = screen.fight.state
            copy = data_dir / "copy.jsonl"
            copy.write_bytes(older)
            os.replace(copy, path)
            if leave:
                await press(pilot, "n")  # refused: the rescue is offered
                assert isinstance(app.screen, PickDialog), screen_text(app)
                await press(pilot, "escape")  # "Leave it"
            await press(pilot, "q")
            await pilot.pause()
        assert app.rescued == [(path, data_dir / "f-rescued.jsonl")]
        assert saves.load(data_dir / "f-rescued.jsonl").fight().state == shown
        assert path.read_bytes() == older  # the file put back is left as it is

    asyncio.run(run())


def test_closing_a_fight_whose_file_was_replaced_saves_it_once(data_dir: Path) -> None:
    from tracker import commands as C

    path = data_dir / "g.jsonl"
    build_fight("bnb", path).close()
    fight = saves.open_fight(path)
    if fight.needs_check:
        fight.settle_check()
    fight.do(C.NextTurn())
    older = data_dir / "older.jsonl"
    older.write_bytes(path.read_bytes())
    fight.do(C.NextTurn())
    os.replace(older, path)
    rescued = fight.close()
    assert rescued == data_dir / "g-rescued.jsonl"
    assert saves.load(rescued).fight().state == fight.state
    assert fight.close() is None and not (data_dir / "g-rescued2.jsonl").exists()
    healthy = saves.open_fight(rescued)
    assert healthy.close() is None
