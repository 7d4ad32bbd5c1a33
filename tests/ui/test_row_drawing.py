"""The initiative list draws a changed row itself (InitiativeList._row_strip): it must be DataTable's drawing.

Every row of a fight in every system is drawn both ways and compared segment by
segment (text, colour, style and the click target each cell carries), in the
looks a GM meets: the cursor on a row or not, the list focused or not, marks,
a dead combatant dimmed, a hidden one, a condition, a long name clipped (wide
characters too), the dark and the light theme, at 80x24 and 120x36.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from rich.padding import Padding
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.widgets import DataTable

from screens.app import TrackerApp
from screens.fight import FightScreen
from screens.widgets.initiative import BOLD, DIM, InitiativeList, fitted_cell
from tests.support import examples
from tests.ui.drive import build_fight, custom_sheet, press
from tests.ui.test_table_view import DEAD, SYSTEMS
from tracker import commands as C

LONG = "Bartholomew 狼の the Unreasonably Named"  # clipped, with characters two cells wide


def segments(strip: object) -> list[tuple[str, object]]:
    return [(s.text, s.style) for s in strip if isinstance(s, Segment)]  # type: ignore[attr-defined]


def compare_every_row(table: InitiativeList, look: str) -> int:
    """Each data row in view, drawn by the list and by DataTable, is the same; returns how many were compared."""
    head = table.header_height if table.show_header else 0
    compared = 0
    for y in range(head, table.size.height):
        index = y - head + table.scroll_offset.y
        if not 0 <= index < len(table.ids) or index == table.hover_row:
            continue
        ours = table._row_strip(index)
        assert ours is not None, f"{look}: row {index} not drawn by the list"
        theirs = DataTable.render_line(table, y)
        assert segments(ours) == segments(theirs), f"{look}: row {index} ({table.ids[index]}) drawn differently"
        assert ours.cell_length == theirs.cell_length == table.size.width, look
        compared += 1
    return compared


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_a_row_drawn_by_the_list_is_the_row_datatable_draws(system_id: str, data_dir: Path) -> None:
    asyncio.run(_same_rows(system_id, data_dir / f"{system_id}.jsonl"))


async def _same_rows(system_id: str, path: Path) -> None:
    fight = build_fight(system_id, path)
    npcs = [c for c in fight.state.present if not c.is_pc]
    field, value = DEAD[system_id]
    fight.do(C.Adjust(id=npcs[0].id, field=field, value=value))
    fight.do(C.AddCombatant(name=LONG, kind="npc", sheet=custom_sheet(fight.system, "npc"), hidden=True))
    fight.close()
    app = TrackerApp(open_path=path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, FightScreen)
        table = screen.query_one(InitiativeList)
        compared = compare_every_row(table, "no conditions: no conditions column")
        assert table.ordered_columns[-1].width == 0, "no one has a condition yet: that column takes no room"
        screen.perform(C.AddCondition(id=npcs[1].id, name="Pinned", rounds=2))
        await pilot.pause()
        looks = (
            ((80, 24), "dark", True),
            ((80, 24), "dark", False),
            ((120, 36), "light", True),
            ((120, 36), "light", False),
        )
        for size, theme, focused in looks:
            if size != app.size:
                await pilot.resize_terminal(*size)
                await press(pilot, "ctrl+t")  # the light theme at 120x36
            if focused:
                table.focus()
            else:
                screen.set_focus(None)
            for row in (0, len(table.ids) - 1):
                table.move_cursor(row=row)
                await pilot.pause()
                compared += compare_every_row(table, f"{size} {theme} focused={focused} cursor={row}")
            if focused:
                await press(pilot, "space")  # a mark on the row under the cursor
                compared += compare_every_row(table, f"{size} {theme} marked")
                await press(pilot, "escape")
        assert not app.current_theme.dark, "the light theme was drawn too"
        assert compared > 30, compared
        assert any("…" in s.text for y in range(table.size.height) for s in table.render_line(y)), "a name clipped"


def test_a_tie_is_marked_on_the_tied_rows_only_and_a_click_selects_a_row(data_dir: Path) -> None:
    asyncio.run(_ties(data_dir / "ties.jsonl"))


async def _ties(path: Path) -> None:
    fight = build_fight("toy", path, start=False)
    a, b, c = (x.id for x in fight.state.present)
    fight.do(C.SetInitiative(values={a: 7, b: 7, c: 12}))
    assert fight.state.tied_with(a) == fight.state.tied_with(b) != ()
    fight.close()
    app = TrackerApp(open_path=path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        table = app.screen.query_one(InitiativeList)
        drawn = {cid: table.render_line(1 + table.ids.index(cid)).text for cid in (a, b, c)}
        assert " 7=" in drawn[a] and " 7=" in drawn[b], drawn
        assert " 12 " in drawn[c] and "12=" not in drawn[c], drawn
        await pilot.click(InitiativeList, offset=(6, 3))  # the third row: each cell carries its place for the mouse
        await pilot.pause()
        assert table.selected == table.ids[2], "a click on a row selects that combatant"
        assert isinstance(app.screen, FightScreen)


CHARS = "ab Z狼の…▶●■□|-=(+.\t\n\x1b"
STYLES = (
    "",
    "bold",
    "none",
    Style(),
    Style(bold=True),
    Style(dim=True),
    Style(bold=True, color="red3") + Style(dim=True),
)


@settings(max_examples=examples(300), deadline=None)
@given(
    text=st.text(alphabet=CHARS, max_size=14),
    style=st.sampled_from(STYLES),
    no_wrap=st.booleans(),
    ellipsis=st.booleans(),
    width=st.integers(min_value=0, max_value=16),
)
def test_a_cell_fitted_directly_is_the_cell_rich_draws(
    text: str, style: str | Style, no_wrap: bool, ellipsis: bool, width: int
) -> None:
    """fitted_cell (the list's own fitting of a cell to its column) gives Rich's segments, or leaves it to Rich."""
    cell = Text(text, style=style, no_wrap=no_wrap, overflow="ellipsis" if ellipsis else None)
    ours = fitted_cell(cell, width)
    if ours is None:
        return
    console = Console(width=100)
    options = console.options.update_dimensions(width, 1).update(no_wrap=True)
    theirs = console.render_lines(Padding(cell, (0, 0)), options)[0]
    assert segments(ours) == segments(theirs)


def test_the_cells_of_the_list_are_fitted_directly() -> None:
    """The cells the list makes take the direct way (a string style or several spans would send them to Rich)."""
    cell = Text("Bartholomew 狼の", style=BOLD + Style(italic=True), no_wrap=True, overflow="ellipsis")
    assert segments(fitted_cell(cell, 13) or []) == [("Bartholomew …", cell.style)]
    assert segments(fitted_cell(Text("▶", style=BOLD), 1) or []) == [("▶", BOLD)]
    assert segments(fitted_cell(Text("", style=DIM), 3) or []) == [("   ", Style())]
