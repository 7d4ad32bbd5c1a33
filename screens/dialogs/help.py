"""Help: the keys and the current system's actions in short."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import Label, Static

from screens.dialogs.base import Dialog


class HelpDialog(Dialog[None]):
    CSS_PATH = Path(__file__).with_name("help.tcss")
    BINDINGS = [Binding("escape,q,f1,question_mark", "close", "Close", id="help.close")]

    def __init__(self, title: str, text: str) -> None:
        super().__init__()
        self.title_text = title
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical(id="help-box"):
            yield Label(Text(self.title_text), id="title")
            with VerticalScroll(id="help-body"):
                yield Static(self.text, markup=False)
            yield Label("↑↓ PgUp PgDn scroll · Escape closes", id="hint")

    def first_field(self) -> Widget | None:
        return self.query_one("#help-body")

    def action_close(self) -> None:
        self.dismiss(None)
