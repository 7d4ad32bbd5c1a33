"""The initiative list draws itself line by line (InitiativeList): ties, click targets, and its cells fitted as
Rich fits them.

(The list no longer draws what ``DataTable`` drew, by design: it keeps the PCs
and the current combatant in view under a scrolling window, and a row without
conditions gives their room to its status (#44 item 5), which DataTable cannot;
the cell-by-cell comparison with a DataTable went with that.  What it shows is
asserted on the rendered screen in test_table_space.py.)
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from rich.padding import Padding
from rich.segment import Segment
from rich.style import Style
from rich.text import Text

from screens.app import TrackerApp
from screens.fight import FightScreen
from screens.widgets.initiative import BOLD, DIM, InitiativeList, fitted_cell
from tests.support import examples
from tests.ui.drive import build_fight
from tracker import commands as C

LONG = "Bartholomew 狼の the Unreasonably Named"  # clipped, with characters two cells wide


def segments(strip: object) -> list[tuple[str, object]]:
    return [(s.text, s.style) for s in strip if isinstance(s, Segment)]  # type: ignore[attr-defined]


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
