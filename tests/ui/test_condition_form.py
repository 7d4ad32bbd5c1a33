"""The condition form shows whose turn ends a condition of N rounds, as it will be recorded: it showed
"Ends on turn of ‹ — ›" and logged "to the end of Hattie's turn" (whoever acted)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from screens.app import TrackerApp
from screens.dialogs.form import FormDialog
from screens.fight import FightScreen
from screens.widgets.initiative import InitiativeList
from tests.ui.drive import build_fight, error_text, fill, press, submit_form
from tests.ui.test_table_space import SYSTEMS
from tests.view.helpers import screen_text

SIZES = [(80, 24), (120, 36)]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("system_id", SYSTEMS)
def test_the_turn_that_ends_a_condition_is_shown_as_recorded(
    system_id: str, size: tuple[int, int], tmp_path: Path
) -> None:
    build_fight(system_id, tmp_path / "f.jsonl").close()

    async def run() -> None:
        app = TrackerApp(open_path=tmp_path / "f.jsonl")
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, FightScreen)
            state = screen.fight.state
            current = state.get(state.current)
            other = next(c for c in state.present if c.id != current.id)
            screen.query_one(InitiativeList).select(other.id)
            await pilot.pause()
            await press(pilot, "C")
            assert isinstance(app.screen, FormDialog)
            row = next(x for x in screen_text(app).splitlines() if "Ends on turn of" in x)
            assert current.name in row, row  # (it showed "—")
            await fill(pilot, "f-name", "Pinned")
            await fill(pilot, "f-rounds", "2")
            await submit_form(pilot)
            assert isinstance(app.screen, FightScreen), error_text(app)
            cond = screen.fight.state.get(other.id).condition("Pinned")
            assert cond is not None and cond.ends_on == current.id
            # no rounds: until removed, the turn shown notwithstanding (it is what rounds would count to)
            await press(pilot, "C")
            await fill(pilot, "f-name", "Blessed")
            await submit_form(pilot)
            assert isinstance(app.screen, FightScreen), error_text(app)
            cond = screen.fight.state.get(other.id).condition("Blessed")
            assert cond is not None and cond.ends_on is None and cond.expires_round is None

    asyncio.run(run())
