"""The live log (LogView) draws what the RichLog it replaced drew, and shows its newest lines at once.

LogView was a ``RichLog``: lines written before its first Resize (a fight's
lines, as the fight opens) waited for it, so the first frame showed an empty
log, the next its oldest lines, the one after its newest.  It now draws line by
line, wrapping at its width as it draws.  A real RichLog given the same lines
(wrapped the same way, written once its width is known) stands beside it, and
every line of both is compared segment by segment: at the end, scrolled to the
top and a page up, in the dark and the light theme, at two widths, focused.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from rich.segment import Segment
from textual.app import App, ComposeResult
from textual.containers import Horizontal
from textual.widgets import RichLog

from screens.logic import LOG_KEEP
from screens.widgets.log import LogView, hanging

LINES = [
    ("   1 Grunt 1 [Grunt] joins the fight as NPC", ""),
    ("   2 Order: Hero, Grunt 1, Grunt 2, Grunt 3 (no initiative in this book: PCs, then NPCs, as added)", ""),
    ("   3 The fight begins", "bold"),
    ("   4 Bartholomew 狼の the Unreasonably Named attacks Grunt 2: 1d20 [17] + 3 = 20 vs DC 13: hit", ""),
    ("! Grunt: first casualty — morale check (2d6 against Morale)", "bold dark_orange3"),
    ("   5 Hero 1 saves vs death: 1d20 [18] = 18 (Shootist vs death +2, HP below 0 -3) = 17 vs ST 16", "dim"),
    ("undone: a line with no number, long enough to wrap at the widths of this test, twice or more over", ""),
] * 4


class Beside(App[None]):
    # the RichLog styled as LogView was (its border, gutter and focus)
    CSS = """
    Horizontal > * { width: 1fr; height: 1fr; }
    RichLog {
        border: round $primary-muted; background: $surface; scrollbar-gutter: stable;
        scrollbar-size-vertical: 1; overflow-x: hidden;
    }
    RichLog:focus { border: round $primary; }
    """

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield LogView()
            yield RichLog(max_lines=LOG_KEEP, min_width=1, wrap=True, markup=False, highlight=False)

    def theirs(self) -> None:
        """The RichLog given the lines as LogView gave them to it: wrapped at its width, once it had one."""
        ours, log = self.query_one(LogView), self.query_one(RichLog)
        log.clear()
        width = log.scrollable_content_region.width
        for line, style in ours.kept:
            log.write(hanging(line, style, width, self.console))
        log.scroll_end(animate=False, immediate=True)


def drawn(widget: LogView | RichLog) -> list[list[tuple[str, object]]]:
    return [
        [(s.text, s.style) for s in widget.render_line(y) if isinstance(s, Segment)] for y in range(widget.size.height)
    ]


async def same(app: Beside, pilot: object) -> None:
    ours, theirs = app.query_one(LogView), app.query_one(RichLog)
    for _ in range(3):
        await pilot.pause()  # type: ignore[attr-defined]
    assert ours.scroll_offset == theirs.scroll_offset and ours.virtual_size.height == theirs.virtual_size.height
    assert drawn(ours) == drawn(theirs)


@pytest.mark.parametrize("theme", ["textual-dark", "textual-light"])
@pytest.mark.parametrize("size", [(100, 16), (150, 30)])
def test_the_log_draws_what_richlog_drew(theme: str, size: tuple[int, int]) -> None:
    async def run() -> None:
        app = Beside()
        async with app.run_test(size=size) as pilot:
            app.theme = theme
            app.set_focus(None)  # (the first focusable widget, ours, has it at the start)
            ours = app.query_one(LogView)
            ours.add([line for line, _ in LINES[:3]])
            for line, style in LINES[3:]:
                ours.add([line], style=style)
            await pilot.pause()
            app.theirs()
            await same(app, pilot)  # at the end
            for log in (ours, app.query_one(RichLog)):
                log.scroll_home(animate=False, immediate=True)
            await same(app, pilot)
            for log in (ours, app.query_one(RichLog)):
                log.scroll_end(animate=False, immediate=True)
                log.scroll_page_up(animate=False)
            await same(app, pilot)
            app.set_focus(app.query_one(RichLog))
            await pilot.pause()
            focused_theirs = drawn(app.query_one(RichLog))
            assert focused_theirs != drawn(ours), "focused, the log is tinted"
            app.set_focus(ours)
            await pilot.pause()
            assert drawn(ours) == focused_theirs, "focused, both tinted alike"

    asyncio.run(run())


def test_lines_written_before_the_log_has_a_size_show_at_once_wrapped_at_its_width() -> None:
    """As a fight opens: the lines come before the first layout; the first drawing shows the newest, wrapped."""

    class Early(App[None]):
        def compose(self) -> ComposeResult:
            log = LogView()
            log.add([f"{n:>4} event number {n} of a long fight, with words enough to wrap at 40" for n in range(60)])
            yield log

    async def run() -> None:
        app = Early()
        async with app.run_test(size=(40, 10)):
            log = app.query_one(LogView)
            text = [log.render_line(y).text for y in range(log.size.height)]
            assert "wrap at 40" in text[-1] and any(" 59 event number 59" in t for t in text), text
            width = log.scrollable_content_region.width
            assert all(line.cell_length <= width for line in log.lines)
            assert log.scroll_y == log.max_scroll_y > 0

    asyncio.run(run())


def test_the_log_keeps_its_last_lines_and_a_new_line_shows_in_the_same_frame() -> None:
    async def run() -> None:
        app = Beside()
        async with app.run_test(size=(100, 16)) as pilot:
            log = app.query_one(LogView)
            log.add([f"{n:>4} line" for n in range(LOG_KEEP + 25)])
            await pilot.pause()
            assert len(log.kept) == LOG_KEEP and log.kept[0][0] == f"{25:>4} line"
            assert len(log.lines) == LOG_KEEP, "the oldest lines' drawing went with them"
            log.scroll_home(animate=False, immediate=True)
            log.add(["9999 the newest"])  # read the screen at once, before any later frame
            assert log.render_line(log.size.height - 1).text.startswith("9999 the newest")

    asyncio.run(run())


def test_a_log_scrolled_back_stays_there_when_the_width_changes_and_one_at_the_end_stays_at_the_end() -> None:
    async def run() -> None:
        app = Beside()
        async with app.run_test(size=(100, 16)) as pilot:
            log = app.query_one(LogView)
            for line, style in LINES:
                log.add([line], style=style)
            await pilot.pause()
            await pilot.resize_terminal(70, 16)
            await pilot.pause()
            assert log.scroll_y == log.max_scroll_y, "at the end it stays at the end"
            log.scroll_home(animate=False, immediate=True)
            await pilot.resize_terminal(120, 16)
            await pilot.pause()
            assert log.scroll_y == 0 < log.max_scroll_y, "scrolled back it stays where it was"

    asyncio.run(run())


def test_a_log_at_the_end_wraps_its_last_lines_first_and_the_rest_once_drawn() -> None:
    """The view at the end needs its last lines only: the older ones are wrapped once it is drawn, and the lines
    shown do not move when they are (at the end; or scrolled back meanwhile, as far as the last lines allow:
    lines of three rows fill a view of 14 rows with 15)."""

    async def run() -> None:
        app = Beside()
        async with app.run_test(size=(100, 16)) as pilot:
            log = app.query_one(LogView)
            later: list[Any] = []
            log.call_after_refresh = lambda callback, *args: later.append(callback)  # type: ignore[method-assign,assignment]
            log.add(
                [f"{n:>4} the line number {n}, long enough to wrap into three rows at this width" for n in range(60)]
            )
            for back in (0, 1):
                log.styles.width = 40 + back
                await pilot.pause()  # drawn at the new width: its last lines wrapped, the rest left for later
                rest = [c for c in later if getattr(c, "__name__", "") == "_wrap_rest"]
                assert rest and 0 < log._first < 60 and len(log._strips) == 15, (log._first, len(log._strips))
                assert log.scroll_y == log.max_scroll_y == 1
                log.scroll_to(y=log.scroll_y - back, animate=False, immediate=True)
                shown = [log.render_line(y).text for y in range(log.size.height)]
                assert " 59 the line number 59" in "".join(shown)
                rest[-1]()
                later.clear()
                assert log._first == 0 and len(log._strips) == sum(log._counts) == 3 * 60
                assert [log.render_line(y).text for y in range(log.size.height)] == shown, "the view did not move"
                assert log.max_scroll_y - log.scroll_y == back

    asyncio.run(run())


def test_a_saved_to_path_keeps_the_end_of_a_name_it_cannot_show_whole() -> None:
    """At 80 columns a twod6 fight's log said "autosaved to …l": a name of 29 letters in 31 columns (a slice
    from below 0 kept its last letter). The path keeps as much of its name as fits; the name whole when it does."""
    from screens.widgets.log import fit_path

    name = "2026-12-07_031408_twod6.jsonl"
    path = f"/tmp/a3/ux/data/fights/{name}"
    assert fit_path(path, 31) == "…" + name
    assert fit_path(path, 20) == "…" + name[-19:]
    assert fit_path(path, 45).endswith("…/" + name) and len(fit_path(path, 45)) == 45
    assert fit_path(path, 200) == path


def test_a_note_under_an_action_wraps_under_its_own_text() -> None:
    """The note a new action says about the undone ones it drops ("     ↳ 2 undone actions can no longer be redone:
    …") wrapped to the left edge, under the numbers of the events."""
    from rich.console import Console

    line = "     ↳ 2 undone actions can no longer be redone: Bear 1 attacks Hero · Hero makes a death save"
    rows = hanging(line, "", 40, Console(width=40)).plain.split("\n")
    assert len(rows) > 1 and all(row.startswith(" " * 7) and row[7] != " " for row in rows[1:]), rows
    numbered = hanging("  16 Hero attacks Bear 1 with a heavy pistol and hits for 7", "", 30, Console(width=30))
    assert all(row.startswith(" " * 5) for row in numbered.plain.split("\n")[1:])
