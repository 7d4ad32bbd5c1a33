"""What the GM sees in the replay and summary screens (fixed data, fixed paths)."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot

from screens.app import TrackerApp
from screens.replay import ReplayScreen
from tests.ui.test_replay import toy_fight

SIZE = (100, 32)


def test_replay_mid_fight_with_an_undone_action(snap_compare, data_dir: Path) -> None:
    path = toy_fight(data_dir)

    async def run_before(pilot: Pilot) -> None:
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, ReplayScreen)
        screen.goto(17)  # just after the miss was undone
        await pilot.pause()

    assert snap_compare(TrackerApp(replay_path=path), run_before=run_before, terminal_size=SIZE)


def test_summary_at_the_end(snap_compare, data_dir: Path) -> None:
    path = toy_fight(data_dir)

    async def run_before(pilot: Pilot) -> None:
        await pilot.pause()
        await pilot.press("end")  # the end of the log opens the summary
        await pilot.pause()

    assert snap_compare(TrackerApp(replay_path=path), run_before=run_before, terminal_size=SIZE)
