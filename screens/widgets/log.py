"""The live log: one line per event, with every roll's faces.

Focusable (Tab) and scrolled from the keyboard (PgUp/PgDn, Home/End, arrows);
the scrollbar has a gutter of its own so it never covers text, and the lines
are wrapped again when the width changes.  A long line wraps under its text,
not under its event number, so the numbers stay a column to read down.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable

from rich.console import Console
from rich.text import Text
from textual import events
from textual.widgets import RichLog

from screens.logic import LOG_KEEP
from tracker.text import visible

_NUMBERED = re.compile(r"( *\d+ )")  # "  16 " before an event's text


def hanging(line: str, style: str, width: int, console: Console) -> Text:
    """``line`` wrapped at ``width`` with its lines after the first indented under the text after its number."""
    text = Text(line, style=style)
    found = _NUMBERED.match(line)
    indent = len(found.group(1)) if found else 0
    if width <= indent + 8 or len(line) <= width:
        return text
    head, body = text[:indent], text[indent:]
    lines = body.wrap(console, width - indent)
    pad = Text(" " * indent, style=style)
    return Text("\n", style=style).join(Text.assemble(head if i == 0 else pad, part) for i, part in enumerate(lines))


class LogView(RichLog):
    """Keeps the last lines only; the fight file keeps everything."""

    DEFAULT_CSS = """
    LogView {
        height: 1fr; border: round $primary-muted; background: $surface;
        border-title-color: $text-muted; border-subtitle-color: $text-muted;
        scrollbar-gutter: stable; scrollbar-size-vertical: 1; overflow-x: hidden;
    }
    LogView:focus { border: round $primary; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(
            id=id, max_lines=LOG_KEEP, min_width=1, wrap=True, markup=False, highlight=False, auto_scroll=True
        )
        self.border_title = "Log (Tab, PgUp/PgDn)"
        self.kept: deque[tuple[str, str]] = deque(maxlen=LOG_KEEP)
        self._wrapped_at = 0

    def add(self, lines: Iterable[str], style: str = "") -> None:
        """Write lines; once the log has its size, it scrolls to them at once (in the frame that shows the
        action, not in one after it: RichLog scrolls after the next refresh)."""
        width = self.scrollable_content_region.width
        wrote = False
        for line in lines:
            self.kept.append((visible(line), style))
            self.write(self._text(visible(line), style), scroll_end=None if not width else False)
            wrote = True
        if width:
            self._wrapped_at = width
            if wrote and self.auto_scroll:
                self.scroll_end(animate=False, immediate=True, x_axis=False)

    def on_resize(self, event: events.Resize) -> None:  # RichLog's own runs too (Textual calls each class's)
        self.call_after_refresh(self._rewrap)

    def _rewrap(self) -> None:
        """Lines are wrapped when written: write them again at a new width."""
        width = self.scrollable_content_region.width
        if not width or width == self._wrapped_at:
            return
        self._wrapped_at = width
        at_end = self.is_vertical_scroll_end or self.max_scroll_y == 0
        self.clear()
        for line, style in self.kept:
            self.write(self._text(line, style), scroll_end=at_end)

    def _text(self, line: str, style: str) -> Text:
        width = self.scrollable_content_region.width
        return hanging(line, style, width, self.app.console) if width else Text(line, style=style)
