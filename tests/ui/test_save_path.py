"""`tracker --save FILE`: a file that does not exist yet is where the new fight is saved."""

from __future__ import annotations

import asyncio
from pathlib import Path

import saves
from screens.app import TrackerApp
from screens.fight import FightScreen


def test_a_new_fight_is_saved_at_the_given_path(tmp_path: Path) -> None:
    target = tmp_path / "saloon.jsonl"
    asyncio.run(_play(target))
    assert saves.load(target).header.system == "toy"


async def _play(target: Path) -> None:
    app = TrackerApp(open_path=target)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        assert not isinstance(app.screen, FightScreen)  # no such fight yet: choose a system
        app.new_fight(app_system())
        await pilot.pause()
        assert isinstance(app.screen, FightScreen)
        assert app.fight is not None and app.fight.path == target


def app_system():
    from tracker import registry

    return registry.load("toy")


def test_the_log_names_the_file_it_is_saved_to_at_both_sizes(tmp_path: Path) -> None:
    """A long folder: the border cut "autosaved to /tmp/pytest-of-root/pytest-248…" at its end, naming no file.
    The path is cut in its middle, the file's name whole, and resized with the log."""
    from tests.ui.drive import build_fight
    from tests.view.helpers import screen_text

    folder = tmp_path / ("a-long-folder-name-for-the-campaign-" * 3)
    folder.mkdir()
    target = folder / "saloon-[night].jsonl"
    build_fight("bnb", target).close()

    async def run() -> None:
        app = TrackerApp(open_path=target)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            narrow = said(screen_text(app))
            assert narrow.endswith("…/saloon-[night].jsonl"), narrow
            await pilot.resize_terminal(120, 36)
            await pilot.pause()
            wide = said(screen_text(app))
            assert wide.endswith("…/saloon-[night].jsonl") and len(wide) > len(narrow), wide  # more of the path

    def said(text: str) -> str:
        line = next(x for x in text.splitlines() if "autosaved to" in x)
        return line[line.index("autosaved to") :].rstrip(" ─╯")

    asyncio.run(run())
