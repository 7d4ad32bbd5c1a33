"""At 80x24 a combatant added grows the table above the log by a row, and the log's newest line ("… joins the
fight") was one row below its view until the next action: the log keeps its newest line in view when it is made
shorter, unless the GM is reading back in it."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from screens.app import TrackerApp
from screens.fight import FightScreen
from screens.widgets.log import LogView
from tests.ui.drive import build_fight, custom_sheet
from tracker import commands as C


@pytest.mark.parametrize("system_id", ["bnb", "blackjack", "zludge", "twod6"])
def test_the_newest_line_stays_in_view_when_the_table_grows(system_id: str, tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    fight = build_fight(system_id, path, start=False)
    for n in range(12):
        fight.do(C.Note(text=f"setting the scene, line {n}"))
    fight.close()

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, FightScreen)
            log = screen.query_one(LogView)
            for name in ("Rook", "Pike", "Vale"):
                screen.perform(C.AddCombatant(name=name, kind="pc", sheet=custom_sheet(screen.system, "pc")))
                for _ in range(5):
                    await pilot.pause()
                assert log.scroll_y >= log.max_scroll_y, (name, log.scroll_y, log.max_scroll_y)

    asyncio.run(run())
