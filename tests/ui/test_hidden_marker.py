"""The GM's table marks a hidden combatant with a word, not only italics (#44 item 9).

In every system, at 80x24 and 120x36: a hidden NPC's row says "(hidden)" after
its name, also when a long name is cut; the detail pane says it is hidden;
`H` shows it to the players and the word goes; the other rows never say it.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from screens.app import TrackerApp
from screens.fight import FightScreen
from screens.widgets.detail import DetailPane
from screens.widgets.initiative import InitiativeList
from tests.ui.drive import build_fight, custom_sheet
from tests.ui.test_table_view import SIZES, drawn_row, drawn_rows
from tracker import commands as C

SYSTEMS = ["bnb", "blackjack", "zludge", "twod6"]
LONG = "Masked Stranger From The Far Mountains"


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_a_hidden_combatant_is_marked_in_words(system_id: str, data_dir: Path) -> None:
    asyncio.run(_marked(system_id, data_dir / "f.jsonl"))


async def _marked(system_id: str, path: Path) -> None:
    fight = build_fight(system_id, path)
    fight.do(C.AddCombatant(name="Spy", kind="npc", sheet=custom_sheet(fight.system, "npc"), hidden=True))
    spy = fight.state.combatants[-1].id
    fight.do(C.AddCombatant(name=LONG, kind="npc", sheet=custom_sheet(fight.system, "npc"), hidden=True))
    stranger = fight.state.combatants[-1].id
    fight.close()
    app = TrackerApp(open_path=path)
    async with app.run_test(size=SIZES[0]) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, FightScreen)
        table = screen.query_one(InitiativeList)
        for size in SIZES:
            await pilot.resize_terminal(*size)
            await pilot.pause()
            assert "Spy (hidden)" in drawn_row(app, "Spy"), size
            long_row = drawn_row(app, LONG[:8])
            # the tag is kept whole: the name is shown whole where there is room, else cut, never the tag
            assert "(hidden)" in long_row and (LONG in long_row or "…" in long_row), (size, long_row)
            others = [r for r in drawn_rows(app)[1:] if r.strip() and "Spy" not in r and LONG[:8] not in r]
            assert others and not any("hidden" in r for r in others), others
        table.select(spy)
        await pilot.pause()
        assert "Hidden from the players" in screen.query_one(DetailPane).text
        await pilot.press("H")  # shown to the players
        await pilot.pause()
        assert not screen.fight.state.get(spy).hidden
        assert "hidden" not in drawn_row(app, "Spy")
        assert "(hidden)" in drawn_row(app, LONG[:8])  # still hidden
        assert screen.fight.state.get(stranger).hidden
