"""``tracker --save FILE``, then ctrl+w: the start screen lists the fight's own folder too (it said "No saved fights
yet" of the data folder right after the GM played the fight), and parties and presets stay in the data folder."""

from __future__ import annotations

import asyncio
from pathlib import Path

import saves
from screens.actions.party import parties_folder
from screens.app import TrackerApp
from screens.fight import FightScreen
from screens.start import StartScreen
from tests.ui.drive import build_fight, press


def test_the_start_screen_lists_the_folder_of_the_fight_opened_by_file(data_dir: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    path = elsewhere / "saloon.jsonl"
    build_fight("bnb", path).close()

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, FightScreen)
            assert parties_folder(app.screen) == saves.parties.parties_dir()  # not beside the file
            await press(pilot, "ctrl+w")
            for _ in range(50):
                if isinstance(app.screen, StartScreen) and app.screen.saved:
                    break
                await pilot.pause(0.05)
            assert isinstance(app.screen, StartScreen)
            assert [info.path for info in app.screen.saved] == [path]
            listed = str(app.screen.query_one("#saves").get_option_at_index(0).prompt)
            assert listed.endswith("in elsewhere/"), listed  # (which folder: two "fight.jsonl" read the same)

    asyncio.run(run())
