"""The detail pane: everything the system says about one combatant."""

from __future__ import annotations

from rich.cells import cell_len
from rich.console import Console
from rich.text import Text
from textual.visual import VisualType
from textual.widgets import Static

from screens.guard import call
from screens.keys import initiative_words
from screens.widgets.initiative import standing, tie_places
from tracker.model import FightState
from tracker.plugin import System
from tracker.text import visible, visible_lines


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ``11th``, ``21st``."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def detail_text(system: System, state: FightState, cid: str | None, marked: int = 0) -> str:
    c = state.find(cid) if cid else None
    if c is None:
        return "No one selected."
    body = visible_lines(call(system.detail, state, c, default=f"(the system could not describe {c.name})"))
    head = f"{c.kind.upper()}{' · ' + c.group if c.group else ''}"
    if c.initiative is not None:
        head += f" · {initiative_words(system)[1].lower()} {c.initiative}"  # (blackjack's "order 5")
        place = tie_places(state).get(c.id)
        if place is not None:  # a tie broken (the table's "8·1"): its place in it; how it was broken, the system says
            head += f" (tie: {ordinal(place[0])} of {place[1]})"
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


def fits(text: str, width: int, height: int, console: Console) -> bool:
    """Whether ``text`` wrapped at ``width`` takes no more than ``height`` lines.  Long lines are wrapped to
    count them only when bounds cannot tell: a line takes at least ⌈cells without spaces/width⌉ lines, at most
    ⌈cells/(width − its longest word)⌉ (wrapping the detail at every change was 1 ms of a key, figure 4)."""
    least = most = 0
    long: list[str] = []
    for line in text.split("\n"):
        cells = cell_len(line)
        if cells <= width:
            least, most = least + 1, most + 1
            continue
        longest = max((cell_len(w) for w in line.split()), default=0)
        least += max(1, -(-cell_len(line.replace(" ", "")) // width))  # (a break drops its spaces)
        most += -(-cells // (width - longest)) if longest < width else cells
        long.append(line)
    if most <= height or least > height:
        return most <= height
    short = text.count("\n") + 1 - len(long)
    return short + sum(len(Text(x).wrap(console, width)) for x in long) <= height


class DetailPane(Static):
    """Read-only; ``show(state, cid)`` redraws it.  A detail longer than its box is cut, and its border says
    "more: Y" (``Y`` on the combatant shows it whole): at 80×24 a long detail was cut without a word.  A Static,
    not a scrolling container: one cost a reflow of the whole screen at each change (figure 4 of
    bench/bench_speed.py, quick damage at 100 combatants: +3 to 5 ms)."""

    DEFAULT_CSS = """
    DetailPane {
        height: 1fr; padding: 0 1; border: round $primary-muted; border-title-color: $text-muted;
        border-subtitle-color: $text-muted;
    }
    """

    def __init__(self, system: System, *, id: str | None = None) -> None:
        super().__init__("", id=id, markup=False)
        self.system = system
        self.border_title = "Detail"
        self.text = ""

    def update(self, content: VisualType = "", *, layout: bool = True) -> None:
        self.text = str(content)
        super().update(content, layout=layout)
        self._say_if_cut()

    def show(self, state: FightState, cid: str | None, marked: int = 0) -> None:
        self.update(detail_text(self.system, state, cid, marked))

    def on_resize(self) -> None:
        self._say_if_cut()

    def _say_if_cut(self) -> None:
        width, height = self.content_size
        if width <= 0 or height <= 0:
            return
        said = "" if fits(self.text, width, height, self.app.console) else "more: Y"
        if self.border_subtitle != said:
            self.border_subtitle = said
