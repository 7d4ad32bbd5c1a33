"""The initiative list draws itself line by line (InitiativeList): it must draw what DataTable drew.

The list replaced a ``DataTable`` with a row cursor.  A real DataTable given the
same columns and cells stands beside it, and every line of both is compared
segment by segment (text, colour, style and the click target each cell
carries), in the looks a GM meets: the cursor on the first row or the last, the
list focused or not, a mark, a dead combatant dimmed, a hidden one, a
condition, a long name clipped (wide characters too), the dark and the light
theme, two widths.  Keys, the mouse and scrolling are tested with the real app.
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
from textual.app import App, ComposeResult
from textual.containers import Horizontal
from textual.widgets import DataTable

from screens.app import TrackerApp
from screens.fight import FightScreen
from screens.widgets.initiative import BOLD, DIM, KEYS, InitiativeList, fitted_cell
from tests.support import examples
from tests.ui.drive import build_fight, custom_sheet
from tests.ui.test_table_view import DEAD, SYSTEMS
from tracker import commands as C
from tracker.model import FightState
from tracker.plugin import System

LONG = "Bartholomew 狼の the Unreasonably Named"  # clipped, with characters two cells wide


def segments(strip: object) -> list[tuple[str, object]]:
    return [(s.text, s.style) for s in strip if isinstance(s, Segment)]  # type: ignore[attr-defined]


class Beside(App[None]):
    """The list and a DataTable given its columns and cells, side by side at the same size."""

    CSS = "Horizontal > * { width: 1fr; height: 1fr; }"

    def __init__(self, system: System, state: FightState) -> None:
        super().__init__()
        self.system, self.state = system, state

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield InitiativeList(self.system)
            yield DataTable(cursor_type="row", zebra_stripes=False, cell_padding=0)

    def copy(self) -> None:
        """The DataTable given the list's columns, cells and cursor."""
        ours, theirs = self.query_one(InitiativeList), self.query_one(DataTable)
        theirs.clear(columns=True)
        for key, width, label in zip(KEYS, ours.widths, ours._labels, strict=True):
            theirs.add_column(label, key=key, width=width)
        for cid in ours.ids:
            theirs.add_row(*ours.cells(cid), key=cid)
        theirs.move_cursor(row=ours.cursor_row, animate=False)


async def drawn(app: Beside, widget: InitiativeList | DataTable, focused: bool) -> list[list[tuple[str, object]]]:
    app.set_focus(widget if focused else None)
    await app.workers.wait_for_complete()
    for _ in range(3):
        await asyncio.sleep(0)
    return [[s for s in segments(widget.render_line(y)) if s[0]] for y in range(widget.size.height)]  # ("": nothing)


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_the_list_draws_what_datatable_drew(system_id: str, data_dir: Path) -> None:
    asyncio.run(_same_lines(system_id, data_dir / f"{system_id}.jsonl"))


async def _same_lines(system_id: str, path: Path) -> None:
    fight = build_fight(system_id, path)
    npcs = [c for c in fight.state.present if not c.is_pc]
    field, value = DEAD[system_id]
    fight.do(C.Adjust(id=npcs[0].id, field=field, value=value))
    fight.do(C.AddCombatant(name=LONG, kind="npc", sheet=custom_sheet(fight.system, "npc"), hidden=True))
    plain = fight.state
    fight.do(C.AddCondition(id=npcs[1].id, name="Pinned", rounds=2))
    app = Beside(fight.system, plain)
    compared = 0
    conditions_column: set[bool] = set()
    async with app.run_test(size=(160, 24)) as pilot:
        ours = app.query_one(InitiativeList)
        theirs = app.query_one(DataTable)
        for state, width, theme, marked in (
            (plain, 160, "textual-dark", ()),
            (fight.state, 160, "textual-dark", (npcs[1].id,)),
            (fight.state, 240, "textual-light", ()),
            (plain, 240, "textual-light", (npcs[0].id,)),
        ):
            if width != app.size.width:
                await pilot.resize_terminal(width, 24)
            app.theme = theme
            ours.marked = marked
            ours.show(state)
            await pilot.pause()
            conditions_column.add(ours.widths[-1] > 0)
            for row in (0, len(ours.ids) - 1):
                ours.move_cursor(row)
                app.copy()
                await pilot.pause()
                for focused in (True, False):
                    look = f"{system_id} width={width} {theme} marked={bool(marked)} cursor={row} focused={focused}"
                    mine, reference = await drawn(app, ours, focused), await drawn(app, theirs, focused)
                    assert len(mine) == len(reference) > len(ours.ids), look
                    for y, (a, b) in enumerate(zip(mine, reference, strict=True)):
                        assert a == b, f"{look}: line {y} drawn differently"
                    compared += len(mine)
        assert not app.current_theme.dark, "the light theme was drawn too"
        assert conditions_column == {True, False}, "drawn with the conditions column and without it"
        assert any("…" in s.text for y in range(ours.size.height) for s in ours.render_line(y)), "a name clipped"
    assert compared > 100, compared


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
