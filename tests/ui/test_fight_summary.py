"""F7 on the fight screen: the fight's summary so far, as the replay shows it (there was none after ctrl+e but in a
replay); ending the fight says where it is."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

import saves
from screens.app import TrackerApp
from screens.fight import FightScreen
from screens.summary import SummaryScreen
from tests.ui.drive import build_fight, press
from tests.ui.test_table_space import SYSTEMS
from tests.view.helpers import screen_text
from tracker import commands as C

SIZES = [(80, 24), (120, 36)]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("system_id", SYSTEMS)
def test_f7_shows_the_summary_and_the_end_of_the_fight_says_so(
    system_id: str, size: tuple[int, int], tmp_path: Path
) -> None:
    build_fight(system_id, tmp_path / "f.jsonl").close()

    async def run() -> None:
        app = TrackerApp(open_path=tmp_path / "f.jsonl")
        async with app.run_test(size=size, notifications=True) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, FightScreen)
            await press(pilot, "f7")
            assert isinstance(app.screen, SummaryScreen), app.screen
            shown = screen_text(app)
            assert "Fight summary" in shown and "Turns" in shown, shown
            await press(pilot, "escape")
            assert app.screen is screen
            await press(pilot, "ctrl+e", "y")
            await pilot.pause()
            assert screen.fight.state.ended
            assert "F7 shows its summary" in screen_text(app)
            await press(pilot, "f7")
            assert isinstance(app.screen, SummaryScreen)

    asyncio.run(run())


@pytest.mark.parametrize("system_id", ["bnb", "twod6"])
def test_every_column_of_the_summary_shows_at_80_columns(system_id: str, tmp_path: Path) -> None:
    """At 80×24 the last column ("Fell") sat under the scrollbar, cut to "Fel" (who fell, and when, hidden):
    the PCs are named "(PC)" as everywhere else, and the Side column is gone."""
    from bench.fights import make_fight

    make_fight(system_id, 400, tmp_path / "f.jsonl", seed=4).close()
    fight = saves.open_fight(tmp_path / "f.jsonl")
    fight.settle_check()
    pc = next(c for c in fight.state.combatants if c.is_pc)
    fight.do(C.RenameCombatant(id=pc.id, name="Bartholomew Quicksilver"))  # (a long PC name pushed it off again)
    fight.close()

    async def run() -> None:
        app = TrackerApp(open_path=tmp_path / "f.jsonl")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await press(pilot, "f7")
            assert isinstance(app.screen, SummaryScreen)
            lines = screen_text(app).splitlines()
            header = next(line for line in lines if "Turns" in line)
            assert header.rstrip().endswith("Fell"), header
            assert any("(PC)" in line for line in lines), lines

    asyncio.run(run())
