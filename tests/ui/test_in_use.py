"""A fight open for writing in another tracker is refused by name and offered read-only (replay)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import saves
from screens.app import TrackerApp
from screens.dialogs.pick import PickDialog
from screens.fight import FightScreen
from screens.replay import ReplayScreen
from tests.ui.drive import build_fight


def test_a_fight_open_elsewhere_is_offered_for_replay(tmp_path: Path) -> None:
    path = build_fight("toy", tmp_path / "fights" / "saloon.jsonl").path
    writer = saves.open_fight(path)  # the other tracker, holding the file
    try:
        before = path.read_bytes()
        asyncio.run(_open(path))
        assert path.read_bytes() == before, "nothing written to a fight open elsewhere"
    finally:
        writer.close()


async def _open(path: Path) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, PickDialog), app.screen
        assert not any(isinstance(s, FightScreen) for s in app.screen_stack)
        await pilot.press("enter")  # "Replay it, read-only"
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)


def test_the_players_view_command_it_offers_can_be_pasted_into_a_shell(tmp_path: Path) -> None:
    """ "run: tracker table /…/my fight.jsonl" named a path with a space unquoted: pasted, it ran on two files."""
    import shlex

    from tests.view.helpers import screen_text

    path = build_fight("toy", tmp_path / "fights" / "my fight.jsonl").path
    writer = saves.open_fight(path)

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=(160, 40)) as pilot:
            await pilot.pause()
            await pilot.pause()
            assert isinstance(app.screen, PickDialog)
            said = app.screen.help_text  # (as the dialog shows it, before it wraps to its width)
            assert said.endswith(f"run: tracker table {shlex.quote(str(path))}"), said
            assert "tracker table" in screen_text(app)

    try:
        asyncio.run(run())
    finally:
        writer.close()
