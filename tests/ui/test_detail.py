"""The detail pane's first line names the combatant in every system (issue: zludge's "Hero: flat-footed" first
line was taken for a title, and the pane's head said only "PC · init -2")."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from rich.text import Text
from textual.widgets import Static

from screens.app import TrackerApp
from screens.why import WhyDialog
from screens.widgets.detail import DetailPane, detail_text, fits
from screens.widgets.initiative import InitiativeList
from tests.ui.drive import build_fight
from tests.ui.test_table_space import SYSTEMS as BOOKS
from tests.ui.test_table_space import long_fight
from tests.ui.test_table_view import SYSTEMS
from tests.view.helpers import screen_text


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_the_detail_pane_begins_with_the_combatant_s_name(system_id: str, tmp_path: Path) -> None:
    fight = build_fight(system_id, tmp_path / "f.jsonl")
    for c in fight.state.present:
        head = detail_text(fight.system, fight.state, c.id).split("\n", 1)[0]
        assert head.startswith(f"{c.name} · {c.kind.upper()}"), head
    fight.close()


class Titled:
    """A system whose detail is titled with the name itself: the pane does not say the name twice."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def detail(self, state: Any, c: Any) -> str:
        return f"{c.name} · the system's own title\nmore"


def test_a_detail_titled_by_the_system_is_not_named_twice(tmp_path: Path) -> None:
    fight = build_fight("toy", tmp_path / "f.jsonl")
    c = fight.state.present[0]
    text = detail_text(Titled(fight.system), fight.state, c.id)  # type: ignore[arg-type]
    assert text.count(c.name) == 1 and text.split("\n")[1] == f"{c.name} · the system's own title", text
    fight.close()


SIZES = [(80, 24), (120, 36)]


def pane_lines(app: Any) -> list[str]:
    """The detail pane's lines as drawn: inside its border, from the rendered screen."""
    pane = app.screen.query_one(DetailPane)
    region = pane.region
    rows = screen_text(app).splitlines()[region.y + 1 : region.bottom - 1]
    return [r[region.x + 1 : region.right - 1].strip(" │▁▂▃▄▅▆▇█") for r in rows]


def words(text: str) -> list[str]:
    return text.split()


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("system_id", SYSTEMS)
def test_a_short_list_leaves_the_detail_its_lines_and_shows_it_whole(
    system_id: str, size: tuple[int, int], tmp_path: Path
) -> None:
    """At 80×24 the detail pane had 7 lines under a list of 4 rows and 10 empty lines: a combatant's weapons
    and armour were cut off.  Now the list is as tall as its rows, and every word of the detail is drawn."""
    build_fight(system_id, tmp_path / "f.jsonl").close()

    async def run() -> None:
        app = TrackerApp(open_path=tmp_path / "f.jsonl")
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            screen = app.screen
            table = screen.query_one(InitiativeList)
            cut = 0
            for cid in table.ids:
                table.select(cid)
                await pilot.pause()
                want = detail_text(screen.system, screen.fight.state, cid)
                drawn = words(" ".join(pane_lines(app)))
                if screen.query_one(DetailPane).border_subtitle == "more: Y":  # longer than the lines left
                    assert drawn == words(want)[: len(drawn)] and len(drawn) < len(want), (drawn, want)
                    cut += 1
                else:
                    assert drawn == words(want), (drawn, want)
            # the bnb Grunt's, cut at 7 lines before, is whole now; zludge's long tracks may still be cut
            assert cut == 0 or (system_id == "zludge" and size == (80, 24)), cut
            # the list has no scrollbar: its rows all show
            assert table.max_scroll_y == 0 and not table.show_vertical_scrollbar

    asyncio.run(run())


@pytest.mark.parametrize("system_id", BOOKS)
def test_a_detail_cut_by_a_long_list_says_so_and_y_shows_it_whole(system_id: str, tmp_path: Path) -> None:
    """Under a long list the pane keeps 9 lines: a detail longer than that says so on its border ("more: Y"),
    and Y on the combatant shows it whole after the reasons for its standing."""
    long_fight(system_id, tmp_path / "long.jsonl")

    async def run() -> None:
        app = TrackerApp(open_path=tmp_path / "long.jsonl")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            table = screen.query_one(InitiativeList)
            pane = screen.query_one(DetailPane)
            cut = None
            for cid in table.ids:
                table.select(cid)
                await pilot.pause()
                want = detail_text(screen.system, screen.fight.state, cid)
                drawn = words(" ".join(pane_lines(app)))
                if drawn != words(want):
                    assert pane.border_subtitle == "more: Y", (drawn, want)
                    cut = cid
                    break
                assert not pane.border_subtitle
            assert cut is not None, "no detail longer than the pane: the test shows nothing"
            assert "more: Y" in screen_text(app)
            await pilot.press("Y")
            await pilot.pause()
            dialog = app.screen
            assert isinstance(dialog, WhyDialog)
            shown = str(dialog.query_one("#why-text", Static).render())
            assert words(want) == words(shown)[-len(words(want)) :], shown
            await pilot.press("escape")
            await pilot.pause()
            assert app.screen is screen

    asyncio.run(run())


@settings(max_examples=300, deadline=None)
@given(
    lines=st.lists(
        st.lists(st.sampled_from(["a", "bb", "HP", "16/16", "(lethal", "eeeeeeee", "ffffffffffff", "□□|□□|□", "—"])),
        min_size=1,
        max_size=8,
    ),
    width=st.integers(4, 40),
    height=st.integers(1, 20),
)
def test_the_pane_says_more_exactly_when_the_wrapped_detail_is_longer_than_it(
    lines: list[list[str]], width: int, height: int
) -> None:
    """The bounds that spare wrapping the detail at each change agree with Rich's wrapping."""
    console = Console(width=200)
    text = "\n".join(" ".join(words) for words in lines)
    exact = sum(len(Text(line).wrap(console, width)) or 1 for line in text.split("\n"))
    assert fits(text, width, height, console) == (exact <= height)


def test_the_list_takes_back_the_undo_note_s_line_when_it_goes(tmp_path: Path) -> None:
    """At 80×24, once an "Undone: …" note went (a dialog opened), a blank row stayed between the list and the
    detail pane until the next action."""
    build_fight("bnb", tmp_path / "f.jsonl").close()

    async def run() -> None:
        app = TrackerApp(open_path=tmp_path / "f.jsonl")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("u")
            await pilot.pause()
            assert "Undone" in screen_text(app)
            for key in ("equals_sign", "enter", "escape"):  # a GM adjust opened, then let be
                await pilot.press(key)
                await pilot.pause()
            rows = screen_text(app).splitlines()
            assert "Undone" not in "\n".join(rows)
            table = app.screen.query_one(InitiativeList)
            pane = app.screen.query_one(DetailPane)
            assert table.region.height == len(table.ids) + 1, "\n".join(rows)  # its header and rows, no blank row
            assert pane.region.y == table.region.bottom, (table.region, pane.region)
            assert rows[pane.region.y].lstrip().startswith("╭─ Detail"), rows[pane.region.y - 1 : pane.region.y + 1]

    asyncio.run(run())


def test_the_undo_note_takes_one_line_the_log_has_it_whole(tmp_path: Path) -> None:
    """At 80×24 an "Undone: …" of a long action took three lines and pushed rows off the list."""
    build_fight("bnb", tmp_path / "f.jsonl").close()

    async def run() -> None:
        app = TrackerApp(open_path=tmp_path / "f.jsonl")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("u")  # the fight's start: "The fight begins; Round 1; …'s turn"
            await pilot.pause()
            note = app.screen.query_one("#reminder", Static)
            assert note.size.height == 1 and str(note.render()).startswith("Undone:"), note.size
            assert "Undone" not in str(note.render()).split("\n", 1)[-1] or "\n" not in str(note.render())

    asyncio.run(run())
