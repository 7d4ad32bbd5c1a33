"""The summary of a fight: figures per combatant, who fell when, and harm per round per side as bars."""

from __future__ import annotations

from pathlib import Path

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from tracker.summary import OTHER, Summary

SIDE_NAMES = {"pc": "PCs", "npc": "NPCs", OTHER: "other"}
EIGHTHS = " ▏▎▍▌▋▊▉"
MAX_ROWS = 24  # rounds beyond this are shown in groups
BAR_WIDTH = 48  # cells of the longest bar


def bar(value: float, scale: float, width: int) -> str:
    """A horizontal bar of ``value`` out of ``scale`` in at most ``width`` cells, in eighths of a cell."""
    if scale <= 0 or value <= 0:
        return ""
    eighths = max(1, round(value / scale * width * 8))
    full, part = divmod(eighths, 8)
    return "█" * full + (EIGHTHS[part] if part else "")


def round_groups(summary: Summary, max_rows: int = MAX_ROWS) -> list[tuple[str, dict[str, int]]]:
    """(label, harm per side) per round, or per group of rounds when there are many."""
    rows = [(r, by) for r, by in summary.harm_by_round]
    if not rows:
        return []
    if len(rows) <= max_rows:
        return [("Surprise" if r == 0 else f"Round {r}", by) for r, by in rows]
    size = -(-len(rows) // max_rows)
    out: list[tuple[str, dict[str, int]]] = []
    for k in range(0, len(rows), size):
        chunk = rows[k : k + size]
        merged: dict[str, int] = {}
        for _r, by in chunk:
            for side, v in by.items():
                merged[side] = merged.get(side, 0) + v
        out.append((f"R{chunk[0][0]}–{chunk[-1][0]}", merged))
    return out


class HarmChart(Static):
    """Harm dealt per round, one bar per side."""

    COMPONENT_CLASSES = {"harm-chart--pc", "harm-chart--npc", "harm-chart--other", "harm-chart--label"}
    DEFAULT_CSS = """
    HarmChart { height: auto; padding: 0 1; }
    HarmChart > .harm-chart--pc { color: $success; }
    HarmChart > .harm-chart--npc { color: $error; }
    HarmChart > .harm-chart--other { color: $warning; }
    HarmChart > .harm-chart--label { color: $text-muted; }
    """

    def __init__(self, summary: Summary, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self.summary = summary

    def render(self) -> Text:
        rows = round_groups(self.summary)
        sides = self.summary.sides
        if not rows or not sides:
            return Text("No harm was dealt.", style=self.get_component_rich_style("harm-chart--label"))
        label_w = max(len(label) for label, _ in rows)
        side_w = max(len(SIDE_NAMES[s]) for s in sides)
        scale = max((v for _l, by in rows for v in by.values()), default=0)
        width = max(10, min(BAR_WIDTH, (self.size.width or 80) - label_w - side_w - 12))
        muted = self.get_component_rich_style("harm-chart--label")
        out = Text()
        for n, (label, by) in enumerate(rows):
            for k, side in enumerate(sides):
                value = by.get(side, 0)
                style: Style = self.get_component_rich_style(f"harm-chart--{side}")
                out.append(f"{label if k == 0 else '':<{label_w}} ", style=muted)
                out.append(f"{SIDE_NAMES[side]:<{side_w}} ", style=style)
                out.append(bar(value, scale, width), style=style)
                out.append(f" {value}" if value else " ·", style=muted if not value else style)
                if n < len(rows) - 1 or k < len(sides) - 1:
                    out.append("\n")
        return out


def figures_text(s: Summary) -> str:
    where = "the whole log" if s.position == s.length else f"the first {s.position} of {s.length} events"
    rounds = "no round yet" if s.rounds == 0 else ("1 round" if s.rounds == 1 else f"{s.rounds} rounds")
    lines = [
        f"Up to {where}: {rounds} · {s.actions} GM actions, {s.events} events in effect"
        + (f" · {s.undone} undone" if s.undone else ""),
        f"Rolls: {s.rolls} — {s.rolls_above} above their expected value, {s.rolls_below} below"
        + (f", {s.rolls_even} on it" if s.rolls_even else ""),
    ]
    return "\n".join(lines)


def falls_text(s: Summary) -> str:
    if not s.falls:
        return "No one fell."
    parts = []
    for f in s.falls:
        when = "before round 1" if f.round == 0 else f"round {f.round}"
        parts.append(f"{f.who} fell in {when} (event {f.seq})" + (f", felled by {f.by}" if f.by else ""))
    return "\n".join(parts)


class SummaryScreen(Screen[None]):
    CSS_PATH = Path(__file__).with_name("summary.tcss")
    BINDINGS = [
        Binding("escape,s", "close", "Back to the replay", id="summary.close"),
        Binding("f1,question_mark", "help", "Help", key_display="?", id="summary.help"),
    ]
    COLUMNS = ("Name", "Side", "Turns", "Hits", "Misses", "Harm dealt", "Harm taken", "Rolls +/−", "Fell")

    def __init__(self, summary: Summary, system_name: str = "") -> None:
        super().__init__()
        self.summary = summary
        self.system_name = system_name

    def compose(self) -> ComposeResult:
        title = "Fight summary" + (f" · {self.system_name}" if self.system_name else "")
        yield Static(title, id="title", markup=False)
        with VerticalScroll(id="body"):
            yield Static(figures_text(self.summary), id="figures", markup=False)
            yield DataTable(id="fighters", cursor_type="row", zebra_stripes=True, show_cursor=False)
            yield Static("Harm dealt per round, by side", classes="heading", markup=False)
            yield HarmChart(self.summary, id="chart")
            yield Static("Who fell", classes="heading", markup=False)
            yield Static(falls_text(self.summary), id="falls", markup=False)
        yield Footer(compact=True)

    def on_mount(self) -> None:
        table = self.query_one("#fighters", DataTable)
        table.add_columns(*self.COLUMNS)
        for f in self.summary.fighters:
            fell = "-" if f.fell_round is None else ("before R1" if f.fell_round == 0 else f"round {f.fell_round}")
            if f.left and f.fell_round is None:
                fell = "left"
            table.add_row(
                f.name,
                f.side.upper(),
                str(f.turns),
                str(f.hits),
                str(f.misses),
                str(f.harm_dealt),
                str(f.harm_taken),
                f"{f.rolls_above}/{f.rolls_below}",
                fell,
                key=f.id,
            )
        if not self.summary.fighters:
            table.display = False
        self.query_one("#body").focus()

    def action_close(self) -> None:
        self.dismiss(None)

    def action_help(self) -> None:
        from screens.dialogs.help import HelpDialog

        text = "\n".join(
            [
                "Counts only what is in effect at the replay's point: undone actions are left out.",
                "Hits, misses, harm and falls are as the game system tallies them (damage, injuries or boxes).",
                "Rolls +/−: rolls above / below the mean of their dice expression.",
                "The chart shows harm dealt per round by each side; long fights group rounds.",
                "",
                "esc or s: back to the replay · ↑ ↓ PgUp PgDn scroll",
            ]
        )
        self.app.push_screen(HelpDialog("Help: fight summary", text))
