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
