"""The detail pane: everything the system says about one combatant."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from screens.guard import call
from screens.widgets.initiative import standing
from tracker.model import FightState
from tracker.plugin import System
from tracker.text import visible, visible_lines


def detail_text(system: System, state: FightState, cid: str | None, marked: int = 0) -> str:
    c = state.find(cid) if cid else None
    if c is None:
        return "No one selected."
    body = visible_lines(call(system.detail, state, c, default=f"(the system could not describe {c.name})"))
    head = f"{c.kind.upper()}{' · ' + c.group if c.group else ''}"
    if c.initiative is not None:
        head += f" · init {c.initiative}"
    first = body.split("\n", 1)[0]
    if not (first == c.name or first.startswith((f"{c.name} ·", f"{c.name} ("))):  # the system's own title
        head = f"{c.name} · {head}"  # (a first line that only begins with the name, "Hero: clipped", is none)
    word = standing(system, state, c).word
    lines = [visible(head) + (f" · {word.upper()}" if word else ""), body]
    if c.conditions and "Conditions:" not in body:  # a system may list them itself
        lines.append("Conditions: " + ", ".join(visible(x.describe(state)) for x in c.conditions))
    if c.held:
        lines.append("Holding the action (W: act now)")
    if c.hidden:
        lines.append("Hidden from the players (H shows)")
    if c.removed:
        lines.append("Left the fight")
    if marked:
        lines.append(f"{marked} marked (space marks, Esc clears)")
    return "\n".join(x for x in lines if x)


class DetailPane(VerticalScroll, can_focus=False):
    """Read-only; ``show(state, cid)`` redraws it.  A detail longer than its box scrolls (the wheel; its scrollbar
    shows there is more), and the border says ``Y`` shows it whole: at 80×24 a long detail was cut at its box."""

    DEFAULT_CSS = """
    DetailPane {
        height: 1fr; padding: 0 1; border: round $primary-muted; border-title-color: $text-muted;
        border-subtitle-color: $text-muted; scrollbar-size-vertical: 1;
    }
    DetailPane > Static { height: auto; }
    """

    def __init__(self, system: System, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.system = system
        self.border_title = "Detail"
        self.text = ""

    def compose(self) -> ComposeResult:
        yield Static("", markup=False)

    def update(self, text: str) -> None:
        """Show ``text`` from its first line."""
        self.text = text
        self.query_one(Static).update(text)
        self.scroll_home(animate=False)

    def show(self, state: FightState, cid: str | None, marked: int = 0) -> None:
        self.update(detail_text(self.system, state, cid, marked))

    def watch_show_vertical_scrollbar(self, shown: bool) -> None:
        self.border_subtitle = "more: Y" if shown else ""
