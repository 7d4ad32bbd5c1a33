"""The summary of a fight: figures per combatant, who fell when, and harm per round per side as a chart.

Names are shown as text: the table's cells are :class:`~rich.text.Text` (a
``str`` cell would be read as markup, and a name like ``[/]`` would crash the
screen), the other widgets take no markup, and control characters are shown
as escapes (:func:`tracker.text.visible`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.color import Color
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Static
from textual_plotext import PlotextPlot

from screens.dialogs.help import HelpDialog
from screens.space import cut
from screens.widgets.footer import KeysFooter
from tracker.summary import OTHER, SIDE_NAMES, Summary, fall_line, rolls_text
from tracker.text import visible

SIDE_COLOURS = {"pc": "success", "npc": "error", OTHER: "warning"}  # theme variables
# Ruling: each side's bars have a fill of their own as well as a colour, and the legend shows it (the legend read
# "■ PCs ■ NPCs", the same key twice on a monochrome terminal, to a colour-blind GM or in a copy of the screen).
# Test: tests/ui/test_summary_marks.py
SIDE_MARKS = {"pc": "█", "npc": "▒", OTHER: "░"}
FALL = "✝"
FALLS_KEY = f"{FALL} a fall that round, {FALL}×N: N falls"  # the legend's words for :func:`_fall_mark`
FALLS_SHOWN = 40  # lines of the falls list; the rest is counted
TICKS = 4  # steps on the harm axis


def round_groups(summary: Summary, max_groups: int) -> list[tuple[str, dict[str, int], int]]:
    """(label, harm per side, falls) per round, or per group of rounds when more than ``max_groups``."""
    falls: dict[int, int] = {}
    for f in summary.falls:
        falls[f.round] = falls.get(f.round, 0) + 1
    rows = list(summary.harm_by_round)
    known = {r for r, _ in rows}
    rows += [(r, {}) for r in falls if r not in known]  # a fall in a round without a RoundStarted (setup)
    rows.sort(key=lambda row: row[0])
    if not rows:
        return []
    if len(rows) <= max_groups:
        return [("S" if r == 0 else str(r), by, falls.get(r, 0)) for r, by in rows]
    size = -(-len(rows) // max(1, max_groups))
    out: list[tuple[str, dict[str, int], int]] = []
    for k in range(0, len(rows), size):
        chunk = rows[k : k + size]
        merged: dict[str, int] = {}
        for _r, by in chunk:
            for side, v in by.items():
                merged[side] = merged.get(side, 0) + v
        first, last = chunk[0][0], chunk[-1][0]
        label = str(first) if first == last else f"{first}–{last}"
        out.append((label, merged, sum(falls.get(r, 0) for r, _ in chunk)))
    return out


def nice_step(top: int, ticks: int = TICKS) -> int:
    """The least step of 1, 2, 2.5, 3, 4 or 5 times a power of ten (whole) whose ``ticks`` steps reach ``top``."""
    power = 1
    while True:
        for m in (1, 2, 2.5, 3, 4, 5):
            step = m * power
            if step == int(step) and step * ticks >= top:
                return int(step)
        power *= 10


def _fall_mark(n: int) -> str:
    """The mark after a round's label: ✝ for a fall in it, ✝×N for N.

    Ruling: the count reads as a count, "1 ✝×2", and the legend says so (``FALLS_KEY``): "1 ✝2   2 ✝3   3   4"
    read as the rounds 1, 2, 2, 3, 3, 4, and nothing on screen said the digit was the falls
    (test: tests/ui/test_summary_marks.py).
    """
    return "" if n <= 0 else (f" {FALL}" if n == 1 else f" {FALL}×{n}")


class HarmChart(PlotextPlot):
    """Harm dealt per round, one bar per side (its colour and its fill), ✝ under a round where someone fell
    (Plotext)."""

    DEFAULT_CSS = """
    HarmChart { height: 12; width: 1fr; }
    """

    def __init__(self, summary: Summary, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.summary = summary
        self._plotted_for = -1

    @property
    def empty(self) -> bool:
        return not self.summary.sides and not self.summary.falls

    def on_mount(self) -> None:  # PlotextPlot's own runs too (Textual calls each class's on_mount)
        self.plot(self.size.width or 80)

    def on_resize(self, event: events.Resize) -> None:
        self.plot(event.size.width)

    def colour(self, side: str) -> tuple[int, int, int]:
        value = self.app.theme_variables.get(SIDE_COLOURS[side], "white")
        try:
            return Color.parse(value).rgb
        except Exception:
            return (200, 200, 200)

    def plot(self, width: int) -> None:
        """Plot the bars for this width: rounds are grouped so that each group keeps room for its bars and label."""
        if width == self._plotted_for:
            return
        self._plotted_for = width
        # typed loosely: textual-plotext's stub predates plotext 5.3 (a colour per series, float ticks)
        plt: Any = self.plt
        plt.clear_data()
        sides = self.summary.sides or ("pc", "npc")
        room = max(10, width - 8)  # the harm axis takes the rest
        most = max(1, room // (2 * len(sides) + 3))
        while True:  # as many groups as leave each its bars and its whole label
            groups = round_groups(self.summary, most)
            labels = [label + _fall_mark(fell) for label, _by, fell in groups]
            widest = max((len(x) for x in labels), default=0) + 2
            if most == 1 or (len(groups) + 1) * widest <= room:  # half a label spare at each end
                break
            most = max(1, min(most - 1, room // widest))
        if not groups:
            return
        series = [[by.get(side, 0) for _l, by, _f in groups] for side in sides]
        plt.multiple_bar(
            labels, series, marker=[SIDE_MARKS[side] for side in sides], color=[self.colour(side) for side in sides]
        )
        top = max((v for row in series for v in row), default=0)
        step = nice_step(top)  # four steps, each an exact number of rows (see fit_chart)
        plt.yticks([k * step for k in range(TICKS + 1)])
        plt.ylim(0, TICKS * step)
        plt.xlabel("round" if all("–" not in label for label, _b, _f in groups) else "rounds")
        self.refresh()


def legend(summary: Summary, app_colours: dict[str, str]) -> Text:
    """The sides' fills in their colours and the fall marks, on one line above the chart."""
    out = Text()
    for side in summary.sides or ("pc", "npc"):
        out.append(SIDE_MARKS[side] * 2 + " ", style=app_colours.get(SIDE_COLOURS[side], ""))
        out.append(f"{SIDE_NAMES[side]}   ")
    out.append(FALLS_KEY, style="bold")
    return out


def figures_text(s: Summary) -> str:
    where = "Whole log" if s.position == s.length else f"First {s.position} of {s.length} events"
    rounds = "no round yet" if s.rounds == 0 else ("1 round" if s.rounds == 1 else f"{s.rounds} rounds")
    lines = [
        f"{where}: {rounds} · {s.actions} GM actions · {s.events} events in effect"
        + (f" · {s.undone} undone" if s.undone else ""),
        rolls_text(s),
    ]
    return "\n".join(lines)


def falls_text(s: Summary, limit: int = FALLS_SHOWN) -> str:
    if not s.falls:
        return "No one fell."
    parts = []
    for f in s.falls[:limit]:
        parts.append(f"{FALL} {visible(fall_line(f))}")
    if len(s.falls) > limit:
        parts.append(f"… and {len(s.falls) - limit} more falls (the recap lists them all)")
    return "\n".join(parts)


class SummaryScreen(Screen[None]):
    CSS_PATH = Path(__file__).with_name("summary.tcss")
    BINDINGS = [
        Binding("escape,s", "close", "Back", id="summary.close"),
        Binding("f1,question_mark", "help", "Help", key_display="?", id="summary.help"),
    ]
    # no Side column: a PC is named "(PC)" as everywhere else (at 80 columns the last one, who fell and when, was
    # cut under the scrollbar)
    COLUMNS = ("Name", "Turns", "Hits", "Misses", "Dealt", "Taken", "Rolls +/−", "Fell")

    def __init__(self, summary: Summary, system_name: str = "", title: str = "") -> None:
        super().__init__()
        self.summary = summary
        self.system_name = system_name
        self.fight_title = title

    def compose(self) -> ComposeResult:
        parts = ["Fight summary", self.fight_title, self.system_name]
        yield Static(visible(" · ".join(p for p in parts if p)), id="title", markup=False)
        with VerticalScroll(id="body"):
            yield Static(figures_text(self.summary), id="figures", markup=False)
            yield DataTable(id="fighters", cursor_type="row", zebra_stripes=True, show_cursor=False)
            yield Static("Harm dealt per round, by side", classes="heading", markup=False)
            chart = HarmChart(self.summary, id="chart")
            if chart.empty:
                yield Static("No harm was dealt and no one fell.", id="no-chart", markup=False)
            else:
                yield Static("", id="legend")
                yield chart
            yield Static("Who fell", classes="heading", markup=False)
            yield Static(falls_text(self.summary), id="falls", markup=False)
            if self.summary.awards:
                yield Static("Experience", classes="heading", markup=False)
                lines = [part for line in self.summary.awards for part in line.splitlines()]  # a system may break one
                yield Static("\n".join(visible(line) for line in lines), id="awards", markup=False)
        yield KeysFooter(palette=True)

    def on_mount(self) -> None:
        table = self.query_one("#fighters", DataTable)
        rows = []
        falls: dict[str, list[int]] = {}
        for fall in self.summary.falls:
            falls.setdefault(fall.who, []).append(fall.round)
        for f in self.summary.fighters:
            # each fall's round, S the surprise round as on the chart ("before R1 ×2" for a fall in the surprise
            # round and one in round 1)
            rounds = falls.get(f.name) or ([f.fell_round] if f.fell_round is not None else [])
            fell = ", ".join("S" if r == 0 else f"R{r}" for r in rounds) or "-"
            if f.left:  # removed from the fight: after falling, both
                fell = "left" if not rounds else f"{fell}, left"
            name = visible(f.name) + (" (PC)" if f.side == "pc" else "")
            numbers = (f.turns, f.hits, f.misses, f.harm_dealt, f.harm_taken)
            rows.append((f.id, name, *map(str, numbers), f"{f.rolls_above}/{f.rolls_below}", fell))
        # every column but the names as wide as it must be; the names get what is left (a long PC name pushed
        # "Fell", the last, under the scrollbar at 80 columns)
        widths = [max([cell_len(r[n + 1]) for r in rows] + [cell_len(h)]) for n, h in enumerate(self.COLUMNS)]
        room = self.app.size.width - 2 - 2 - 2 * len(self.COLUMNS)  # (the page's padding, a scrollbar, each cell's)
        widths[0] = max(8, min(widths[0], room - sum(widths[1:])))
        for header, width in zip(self.COLUMNS, widths, strict=True):
            table.add_column(header, width=width)
        pcs = {f.id for f in self.summary.fighters if f.side == "pc"}
        for key, name, *cells in rows:  # Text, never str: a DataTable reads a str cell as markup
            if cell_len(name) > widths[0] and key in pcs:  # the name cut, "(PC)" kept
                name = cut(name.removesuffix(" (PC)"), widths[0] - len(" (PC)")) + " (PC)"
            shown = (Text(cell, overflow="ellipsis", no_wrap=True) for cell in (name, *cells))
            table.add_row(*shown, key=key)
        if not self.summary.fighters:
            table.display = False
        for box in self.query("#legend").results(Static):
            box.update(legend(self.summary, self.app.theme_variables))
        self.fit_chart()
        self.query_one("#body").focus()

    def on_resize(self) -> None:
        self.fit_chart()

    def fit_chart(self) -> None:
        """The chart takes the lines the rest leaves on screen (then the page scrolls), 9 to 21 of them.

        Plotext draws the bars on all but 4 of the lines (frame, round labels,
        axis title); one more than a multiple of 4 of them puts each tick on its row.
        """
        table = min(len(self.summary.fighters) + 1, 14) if self.summary.fighters else 0
        spare = max(9, min(21, self.size.height - 9 - table))
        for chart in self.query(HarmChart):
            chart.styles.height = spare - (spare - 5) % TICKS

    def action_close(self) -> None:
        self.dismiss(None)

    def action_help(self) -> None:
        text = "\n".join(
            [
                "Counts only what is in effect at the replay's point: undone actions are left out.",
                "Hits, misses and harm are as the game system tallies them (damage, injuries, boxes or wounds);",
                "Dealt / Taken: harm dealt and taken. Harm a GM adjustment made is harm taken, dealt by the GM.",
                "Fell: the round of the first fall (×N: fell N times, up again in between). A fall is counted",
                "whatever took them out of the fight: an attack, quick damage or a GM adjustment.",
                'Left: removed from the fight by the GM ("R1, left": fell in round 1, then removed).',
                "Rolls +/−: rolls above / below the mean of their dice expression.",
                "The chart: harm dealt per round, by side (█ PCs, ▒ NPCs, ░ GM / other).",
                "Under a round, ✝: a fall in it; ✝×N: N falls in it.",
                "Long fights group rounds. The recap (e in the replay) has the same figures as a table.",
                "",
                "esc or s: back to the replay · ↑ ↓ PgUp PgDn scroll",
            ]
        )
        self.app.push_screen(HelpDialog("Help: fight summary", text))
