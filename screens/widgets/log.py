"""The live log: one line per event, with every roll's faces."""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text
from textual.widgets import RichLog

from screens.logic import LOG_KEEP


class LogView(RichLog):
    """Keeps the last lines only; the fight file keeps everything."""

    DEFAULT_CSS = """
    LogView {
        height: 8; border: round $primary-muted; background: $surface;
        border-title-color: $text-muted; border-subtitle-color: $text-muted;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, max_lines=LOG_KEEP, wrap=True, markup=False, highlight=False, auto_scroll=True)
        self.border_title = "Log"
        self.can_focus = False

    def add(self, lines: Iterable[str], style: str = "") -> None:
        for line in lines:
            self.write(Text(line, style=style))
