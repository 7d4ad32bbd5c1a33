"""The live log: one line per event, with every roll's faces.

Focusable (Tab, or a click) and read from the keyboard: ↑/↓ select a line (its
event's number is :attr:`LogView.selected_seq`, what "Why" explains), PgUp/PgDn
and Home/End scroll; the mouse selects a line with a click and scrolls with the
wheel.  The scrollbar has a gutter of its own so it never covers text, and the
lines are wrapped again when the width changes.  A long line wraps under its
text, not under its event number, so the numbers stay a column to read down.
"""

from __future__ import annotations

import itertools
import re
from collections import deque
from collections.abc import Collection, Iterable
from typing import ClassVar

from rich.cells import cell_len
from rich.console import Console
from rich.measure import measure_renderables
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from screens.logic import LOG_KEEP
from tracker.text import visible

_NUMBERED = re.compile(r"( *\d+ )")  # "  16 " before an event's text
_HANGING = re.compile(r"( *\d+ | *↳ )")  # where a wrapped line's text begins: after its number, or a note's arrow


def hanging(line: str, style: str, width: int, console: Console) -> Text:
    """``line`` wrapped at ``width`` with its lines after the first indented under the text after its number (or
    after the arrow of a note under an action: "↳ 2 undone actions can no longer be redone: …")."""
    text = Text(line, style=style)
    found = _HANGING.match(line)
    indent = len(found.group(1)) if found else 0
    if width <= indent + 8 or len(line) <= width:
        return text
    head, body = text[:indent], text[indent:]
    lines = body.wrap(console, width - indent)
    pad = Text(" " * indent, style=style)
    return Text("\n", style=style).join(Text.assemble(head if i == 0 else pad, part) for i, part in enumerate(lines))


def fit_path(path: str, width: int) -> str:
    """``path`` cut in its middle to ``width`` columns: the file's name stays whole while it fits (cut at its end
    by the border, "autosaved to /tmp/pytest-of-root/pytest-248…" said no file at all)."""
    if cell_len(path) <= width:
        return path
    head, _, name = path.rpartition("/")
    keep = width - cell_len(name) - 2  # (for "…/")
    if keep < 1:  # (the name's end: a start below 0 kept its last letter only, "…l")
        return "…" + name[max(0, len(name) - max(width - 1, 1)) :]
    return head[:keep] + "…/" + name


class LogView(ScrollView, can_focus=True):
    """Keeps the last lines only; the fight file keeps everything.

    Not Textual's ``RichLog``, for a behaviour it lacks: a line of the log can
    be selected (↑/↓ or a click; :attr:`selected_seq` is its event's number,
    :class:`Selected` says when it changes), which "Why" explains.  A focused
    log says so in its border (title and colour) and names the way back.

    Drawn line by line (Textual's line API) as ``RichLog`` drew it: each line
    wrapped at the log's width when it is first drawn at that width, the view
    at the end after each line written.  RichLog waited for its first Resize to
    wrap what was written before (the lines of the fight just opened), a frame
    after the first: the first frame showed an empty log, the next its oldest
    lines, the one after its newest.  This log wraps at its width as it draws,
    so the first frame shows the newest lines.
    """

    TITLE = "Log (Tab)"
    FOCUSED_TITLE = "LOG (focused) · ↑↓ a line · Tab/Esc table"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "line(-1)", "Line up", show=False),
        Binding("down", "line(1)", "Line down", show=False),
        Binding("tab,escape", "back", "Back to the table", key_display="Tab/Esc"),
    ]
    COMPONENT_CLASSES: ClassVar[set[str]] = {"log-view--cursor"}
    DEFAULT_CSS = """
    LogView {
        height: 1fr; border: round $primary-muted; background: $surface; color: $foreground;
        border-title-color: $text-muted; border-subtitle-color: $text-muted;
        overflow-y: scroll; scrollbar-gutter: stable; scrollbar-size-vertical: 1; overflow-x: hidden;
        &:focus {
            background-tint: $foreground 5%; border: double $accent;
            border-title-color: $accent; border-title-style: bold;
            & > .log-view--cursor { background: $block-cursor-background; color: $block-cursor-foreground; }
        }
        & > .log-view--cursor { background: $block-cursor-blurred-background; }
    }
    """

    class Selected(Message):
        """The GM selected a line of the log (``seq``: its event's number; None: a line of no event)."""

        def __init__(self, log: LogView, seq: int | None) -> None:
            super().__init__()
            self.log = log
            self.seq = seq

        @property
        def control(self) -> LogView:
            return self.log

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.border_title = self.TITLE
        self.cursor: int | None = None  # the selected line (an index into kept), None: none
        self.kept: deque[tuple[str, str]] = deque(maxlen=LOG_KEEP)
        self._width = 0  # the width the lines are wrapped at (0: not yet)
        self._first = 0  # the first kept line wrapped (the ones before it are wrapped once the view is drawn)
        self._strips: list[Strip] = []  # the kept lines from there, wrapped at that width
        self._counts: deque[int] = deque()  # how many of them each of those lines is
        self._widest = 0
        self._style: Style | None = None  # the log's own style, during a drawing (see render_lines)

    def say_saved_to(self, path: str, width: int) -> None:
        """Say under the log where the fight is saved: "autosaved to PATH", fitted to the log's ``width``."""
        said = "autosaved to "
        room = width - 6 - len(said)  # (the corners and the padding of the border's text)
        text = said + fit_path(visible(path), room)
        if str(self.border_subtitle) != text:  # (a new one draws the whole log again: the screen resizes as a
            self.border_subtitle = Text(text)  # dialog closes)

    def say_not_saved(self, name: str, width: int) -> None:
        """Say under the log, in the error colour, that the fight is not saved: its file (``name``) was lost."""
        said, lost = "not saved: ", " was lost"
        text = Text(said + fit_path(visible(name), width - 6 - len(said) - len(lost)) + lost, style="bold red")
        if self.border_subtitle != text:
            self.border_subtitle = text

    @property
    def lines(self) -> list[Strip]:
        """The log's lines as drawn, wrapped at its width."""
        self._ensure(self.scrollable_content_region.width)
        self._wrap_rest()
        return self._strips

    def add(self, lines: Iterable[str], style: str = "") -> None:
        """Write lines; the log shows them at once (in the frame that shows the action)."""
        wrote = False
        for line in lines:
            text = visible(line)
            if len(self.kept) == self.kept.maxlen:  # the oldest line goes (with its drawing, if it has one)
                if self.cursor is not None:
                    self.cursor = self.cursor - 1 if self.cursor > 0 else None
                if self._first:
                    self._first -= 1
                elif self._counts:
                    del self._strips[: self._counts.popleft()]
            self.kept.append((text, style))
            if self._width:
                self._strips.extend(self._wrapped(text, style))
            wrote = True
        if wrote and self._width:
            self._sized(at_end=True)
        self.refresh()

    def mark(self, seqs: Collection[int], style: str) -> None:
        """Draw the kept lines of these events in ``style`` (an action undone is struck through, as the replay
        shows it; redone, drawn plain again): the live log never said which results stood."""
        changed = False
        for n, (text, old) in enumerate(self.kept):
            found = _NUMBERED.match(text)
            if found and int(found.group(1)) in seqs and old != style:
                self.kept[n] = (text, style)
                self._redraw_line(n)
                changed = True
        if changed:
            self.refresh()

    def _redraw_line(self, n: int) -> None:
        """Kept line ``n`` wrapped anew in its style, in place (the same text takes as many rows: wrapping the whole
        log again after an undo took next the 50-90 ms of bench figure 4's undo and redo)."""
        k = n - self._first
        if not self._width or k < 0 or k >= len(self._counts):
            return  # not wrapped yet: it is, in its new style, when drawn
        start, rows = sum(itertools.islice(self._counts, k)), self._counts[k]
        strips = self._wrapped(*self.kept[n])
        self._counts[k] = self._counts.pop()  # (wrapping appended its count)
        self._strips[start : start + rows] = strips

    def _wrapped(self, text: str, style: str) -> list[Strip]:
        """One kept line wrapped at the width, as RichLog wraps a ``Text`` it writes (no minimum width)."""
        console = self.app.console
        cells = cell_len(text)
        if text and cells <= min(self._width, console.options.max_width):  # it fits: Rich would draw it as one
            # segment (measured and rendered, 0.2 ms; Rich measures no wider than its console)
            self._counts.append(1)
            self._widest = max(self._widest, cells)
            return [Strip([Segment(text, console.get_style(style) if style else None)], cells)]
        renderable = hanging(text, style, self._width, console)
        renderable.expand_tabs()
        width = max(min(measure_renderables(console, console.options, [renderable]).maximum, self._width), 1)
        lines = list(Segment.split_lines(console.render(renderable, console.options.update_width(width))))
        strips = Strip.from_lines(lines) if lines else [Strip.blank(width)]
        self._counts.append(len(strips))
        self._widest = max(self._widest, width if not lines else max(s.cell_length for s in strips))
        return strips

    def _ensure(self, width: int) -> None:
        """The lines wrapped at ``width``: again if it changed (the view stays at the end if it was there).

        A view at the end needs only its last lines to be drawn: those are wrapped now, from the newest back
        until they fill it, and the older ones once it is drawn (a fight opening shows its log in the first
        frame without wrapping all of it first, 7-11 ms for 60 lines)."""
        if not width or width == self._width:
            return
        at_end = not self._width or self.max_scroll_y == 0 or self.scroll_y >= self.max_scroll_y
        self._width, self._widest = width, 0
        self._counts.clear()
        kept = list(self.kept)
        if not at_end:
            self._first = 0
            self._strips = [s for text, style in kept for s in self._wrapped(text, style)]
            self._sized(at_end)
            return
        tail: list[list[Strip]] = []
        rows = 0
        first = len(kept)
        while first > 0 and rows < self.scrollable_content_region.height:
            first -= 1
            tail.append(self._wrapped(*kept[first]))
            rows += len(tail[-1])
        self._counts.reverse()  # (wrapped newest first)
        self._first = first
        self._strips = [s for strips in reversed(tail) for s in strips]
        self._sized(at_end)
        if first:
            self.call_after_refresh(self._wrap_rest)

    def _wrap_rest(self) -> None:
        """The kept lines before the first wrapped one, wrapped; the view stays on the lines it shows."""
        first = self._first
        if not first or not self._width:
            return
        at_end = self.scroll_y >= self.max_scroll_y
        counts = self._counts
        self._counts = deque()
        head = [s for text, style in list(self.kept)[:first] for s in self._wrapped(text, style)]
        self._counts.extend(counts)
        self._first = 0
        self._strips[:0] = head
        self._sized(at_end)
        if not at_end:
            self.scroll_to(y=self.scroll_y + len(head), animate=False, immediate=True)

    def _sized(self, at_end: bool) -> None:
        """The scroll area fitted to the lines wrapped; the view at the end if it is to be."""
        self.virtual_size = Size(self._widest, len(self._strips))
        if at_end:
            self.scroll_end(animate=False, immediate=True, x_axis=False)

    def render_lines(self, crop: Region) -> list[Strip]:
        """The lines in ``crop``, the log's own style read once for all of them (``rich_style``: Textual works it
        out anew from every ancestor at each read)."""
        self._style = self.rich_style
        try:
            return super().render_lines(crop)
        finally:
            self._style = None

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        self._ensure(width)  # (drawn before the log has had its Resize: the first frame of a fight)
        scroll_x, scroll_y = self.scroll_offset
        style = self._style if self._style is not None else self.rich_style
        index = scroll_y + y
        if index >= len(self._strips):
            return Strip.blank(width, style).apply_style(style)
        strip = self._strips[index].crop_extend(scroll_x, scroll_x + width, style).apply_style(style)
        span = self._span(self.cursor)
        if span is not None and span[0] <= index < span[0] + span[1]:
            lit = self.get_component_rich_style("log-view--cursor")
            strip = Strip(Segment.apply_style(iter(strip), post_style=lit), strip.cell_length)
        return strip

    # -- the selected line -------------------------------------------------
    @property
    def selected_seq(self) -> int | None:
        """The number of the event on the selected line (None: no line selected, or a line of no event)."""
        if self.cursor is None or not 0 <= self.cursor < len(self.kept):
            return None
        found = _NUMBERED.match(self.kept[self.cursor][0])
        return int(found.group(1)) if found else None

    def select_line(self, index: int | None) -> None:
        """Select kept line ``index`` (kept within the lines; None: no line) and bring it into view."""
        if index is not None:
            index = max(0, min(index, len(self.kept) - 1)) if self.kept else None
        if index == self.cursor:
            return
        self.cursor = index
        self.refresh()
        span = self._span(index)
        if span is not None:
            top, rows = span
            height = self.scrollable_content_region.height
            if top < self.scroll_y:
                self.scroll_to(y=top, animate=False, immediate=True)
            elif top + rows > self.scroll_y + height:
                self.scroll_to(y=top + rows - height, animate=False, immediate=True)
        self.post_message(self.Selected(self, self.selected_seq))

    def _span(self, index: int | None) -> tuple[int, int] | None:
        """The first drawn row of kept line ``index`` and how many rows it takes (None: not drawn yet)."""
        if index is None or index < self._first:
            return None
        at = index - self._first
        if at >= len(self._counts):
            return None
        return sum(list(self._counts)[:at]), self._counts[at]

    def _line_at_row(self, row: int) -> int | None:
        """The kept line drawn on row ``row`` of the wrapped lines."""
        at = 0
        for n, count in enumerate(self._counts):
            if at <= row < at + count:
                return self._first + n
            at += count
        return None

    def action_line(self, by: int) -> None:
        if self.cursor is None:
            self.select_line(len(self.kept) - 1)
        else:
            self.select_line(self.cursor + by)

    def action_back(self) -> None:
        """Back to the table (the screen's first focusable widget before the log)."""
        self.screen.focus_previous()

    def on_resize(self, event: events.Resize) -> None:
        """Shorter or taller (a row added to the table above takes one of its rows): the newest line stays in view
        unless the GM is reading back in it (at 80x24 the line of the combatant just added was one row below)."""
        if self.cursor is None and not self.has_focus:
            self.call_after_refresh(self.scroll_end, animate=False, x_axis=False)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        line = None if offset is None else self._line_at_row(round(self.scroll_y) + offset.y)
        if line is not None:
            self.select_line(line)

    def on_focus(self) -> None:
        self.border_title = self.FOCUSED_TITLE

    def on_blur(self) -> None:
        self.border_title = self.TITLE
