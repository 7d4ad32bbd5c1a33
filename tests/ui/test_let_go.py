"""A fight closed in a long session is freed (issue #15's "no lost state" has a twin: no kept state).

A fight opened from the command line is the app's first screen, which Textual
keeps to the end: going back to the start screen must still let the fight (its
states, its kept dialogs) go.
"""

from __future__ import annotations

import asyncio
import gc
import weakref
from pathlib import Path

from screens.app import TrackerApp
from screens.fight import FightScreen
from screens.start import StartScreen
from tests.ui.drive import build_fight
from tests.ui.test_start import drawn_text
from tests.ui.test_table_jobs import fast


def test_a_fight_closed_after_the_first_frame_is_freed(data_dir: Path) -> None:
    path = build_fight("bnb", data_dir / "m.jsonl").path
    asyncio.run(_closed(path))


async def _closed(path: Path) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=(80, 24)) as pilot:
        await fast(pilot, "-")  # a kept dialog, which holds the fight until the screen goes
        await fast(pilot, "escape")
        screen = app.screen
        assert isinstance(screen, FightScreen)
        gone = weakref.ref(screen)
        fight = weakref.ref(screen.fight)
        del screen
        await fast(pilot, "ctrl+w")
        for _ in range(6):
            await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        gc.collect()
        assert fight() is None, "the closed fight and its states are freed"
        # its screen may live on, empty: Textual keeps an app's first screen to the end, and the fight given at
        # launch is that screen (TrackerApp.get_default_screen); it holds no widget and no fight
        left = gone()
        assert left is None or (not left.children and not hasattr(left, "fight")), "the closed screen holds nothing"


def test_the_fight_given_at_launch_is_the_first_screen_and_the_start_screen_follows_it(data_dir: Path) -> None:
    """``tracker --save FILE``: the fight is the app's first screen (no empty screen under it, issue #13).  Closed,
    the start screen takes its place; a fight continued from there, closed, goes back to that start screen; a
    fight that cannot be opened at launch leaves the start screen saying why."""
    path = build_fight("bnb", data_dir / "first.jsonl").path
    asyncio.run(_first_then_start(path))


async def _first_then_start(path: Path) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, FightScreen) and len(app.screen_stack) == 1
        await fast(pilot, "ctrl+w")
        for _ in range(6):
            await pilot.pause()
        assert isinstance(app.screen, StartScreen) and len(app.screen_stack) == 1, app.screen_stack
        app.continue_fight(path)
        for _ in range(4):
            await pilot.pause()
        assert isinstance(app.screen, FightScreen) and isinstance(app.screen_stack[0], StartScreen)
        await fast(pilot, "ctrl+w")
        for _ in range(4):
            await pilot.pause()
        assert isinstance(app.screen, StartScreen) and len(app.screen_stack) == 1, app.screen_stack
        assert app.fight is None


def test_a_fight_that_cannot_be_opened_at_launch_leaves_the_start_screen_saying_why(data_dir: Path) -> None:
    path = data_dir / "broken.jsonl"
    path.write_text("not a fight\n")
    asyncio.run(_cannot(path))


async def _cannot(path: Path) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        for _ in range(4):
            await pilot.pause()
        assert isinstance(app.screen, StartScreen), app.screen_stack
        assert not any(isinstance(s, FightScreen) for s in app.screen_stack)
        for _ in range(12):  # (a toast grows to its size over a few frames)
            await pilot.pause()
        toasts = " ".join(drawn_text(t) for t in app.screen.query("Toast"))  # what the GM reads
        assert "Cannot open" in toasts, toasts
