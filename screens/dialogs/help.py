"""Help: the keys and the current system's actions in short."""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
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
            yield Label(self.title_text, id="title", markup=False)
            with VerticalScroll(id="help-body"):
                yield Static(self.text, markup=False)
            yield Label("Escape closes", id="hint")

    def on_mount(self) -> None:
        self.query_one("#help-body").focus()

    def action_close(self) -> None:
        self.dismiss(None)
