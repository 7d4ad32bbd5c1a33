"""The initiative list from the keyboard and the mouse, in the real app: what the GM sees move.

Up/Down move the selection a row, PgUp/PgDn a page, Home/End to the first and
the last; the selected row stays in view under a header that never scrolls
away, and the detail pane follows it.  The mouse lights the row under it (a
key puts the light out), a click selects a row, a double click opens its
actions (a second single click does not).  Assertions are on the lines drawn, at 80x24 and 120x36.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.widgets import Label

from screens.app import TrackerApp
from screens.dialogs.pick import PickDialog
from screens.fight import FightScreen
from screens.widgets.detail import DetailPane
from screens.widgets.initiative import InitiativeList
from tests.ui.drive import build_fight, press
from tracker import commands as C

SIZES = [(80, 24), (120, 36)]


def crowd(path: Path, count: int = 40) -> None:
    fight = build_fight("toy", path, start=False)
    fight.do(C.AddCombatant(name="Goblin", kind="npc", sheet={"hp": 5}, count=count))
    fight.do(C.RollInitiative())
    fight.do(C.StartFight())
    fight.close()


def lines(table: InitiativeList) -> list[str]:
    return [table.render_line(y).text for y in range(table.size.height)]


def name_of(app: TrackerApp, cid: str | None) -> str:
    return name_of_on(app.screen, cid)


def name_of_on(screen: object, cid: str | None) -> str:
    assert isinstance(screen, FightScreen) and cid is not None
    return screen.fight.state.get(cid).name


def in_view(app: TrackerApp, table: InitiativeList) -> None:
    """The selected row is drawn (with its cursor), under the header."""
    drawn = lines(table)
    assert drawn[0].split()[:2] == ["Name", "Init"], drawn[0]
    name = name_of(app, table.selected)
    rows = [y for y, line in enumerate(drawn) if f" {name} " in line or f" {name}…" in line]
    assert rows and rows[0] >= 1, (name, drawn)
    cursor = table.get_component_rich_style("initiative-list--cursor").bgcolor
    assert any(s.style and s.style.bgcolor == cursor for s in table.render_line(rows[0])), "drawn with the cursor"


def detail_names(app: TrackerApp, cid: str | None) -> bool:
    return name_of(app, cid) in app.screen.query_one(DetailPane).text


@pytest.mark.parametrize("size", SIZES)
def test_keys_move_the_selection_by_a_row_a_page_and_to_either_end(size: tuple[int, int], data_dir: Path) -> None:
    asyncio.run(_keys(size, data_dir / "crowd.jsonl"))


async def _keys(size: tuple[int, int], path: Path) -> None:
    crowd(path)
    app = TrackerApp(open_path=path)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        table = app.screen.query_one(InitiativeList)
        ids = table.ids
        assert len(ids) > table.shown_rows + 10, "more combatants than rows in view"
        await press(pilot, "home")
        assert table.selected == ids[0]
        await press(pilot, "up")
        assert table.selected == ids[0], "Up on the first row stays there"
        await press(pilot, "down", "down")
        assert table.selected == ids[2] and detail_names(app, ids[2])
        in_view(app, table)
        await press(pilot, "pagedown")
        page = table.shown_rows - 1
        assert table.selected == ids[2 + page], "PgDn: a page down"
        in_view(app, table)
        await press(pilot, "end")
        assert table.selected == ids[-1] and detail_names(app, ids[-1])
        in_view(app, table)
        assert table.scroll_y == table.max_scroll_y > 0
        await press(pilot, "down")
        assert table.selected == ids[-1], "Down on the last row stays there"
        await press(pilot, "pageup")
        assert table.selected == ids[-1 - page], "PgUp: a page up"
        in_view(app, table)
        for _ in range(len(ids)):
            await press(pilot, "up")
        assert table.selected == ids[0] and table.scroll_y == 0
        in_view(app, table)
        await press(pilot, "ctrl+end")
        assert table.selected == ids[-1]
        await press(pilot, "ctrl+home")
        assert table.selected == ids[0]


@pytest.mark.parametrize("size", SIZES)
def test_the_mouse_lights_a_row_a_click_selects_it_and_a_double_click_opens_its_actions(
    size: tuple[int, int], data_dir: Path
) -> None:
    asyncio.run(_mouse(size, data_dir / "mouse.jsonl"))


async def _mouse(size: tuple[int, int], path: Path) -> None:
    crowd(path, count=4)
    app = TrackerApp(open_path=path)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        table = screen.query_one(InitiativeList)
        await press(pilot, "home")
        hover = table.get_component_rich_style("initiative-list--hover").bgcolor
        assert hover is not None

        def lit(y: int) -> bool:
            return any(s.style and s.style.bgcolor == hover for s in table.render_line(y))

        await pilot.hover(InitiativeList, offset=(6, 3))  # the third row
        await pilot.pause()
        assert lit(3) and not lit(2) and not lit(1), "the row under the mouse is lit, no other"
        await press(pilot, "down")
        assert not lit(3), "a key puts the mouse's light out"
        assert table.selected == table.ids[1]
        await pilot.click(InitiativeList, offset=(6, 4))  # the fourth row
        await pilot.pause()
        assert table.selected == table.ids[3] and isinstance(app.screen, FightScreen), "a click selects"
        assert detail_names(app, table.ids[3])
        await asyncio.sleep(0.6)  # (not a double click)
        await pilot.click(InitiativeList, offset=(6, 4))  # again: still selected, nothing opens
        await pilot.pause()
        assert table.selected == table.ids[3] and app.screen is screen, "a second click is no double click"
        await pilot.double_click(InitiativeList, offset=(6, 4))  # a double click: its actions
        await pilot.pause()
        title = str(app.screen.query_one("#title", Label).render())
        assert isinstance(app.screen, PickDialog) and f"selected: {name_of_on(screen, table.ids[3])}" in title, title
        await press(pilot, "escape")
        assert app.screen is screen and table.selected == table.ids[3]
        await pilot.click(InitiativeList, offset=(6, 0))  # the header: nothing moves
        await pilot.pause()
        assert table.selected == table.ids[3] and app.screen is screen
