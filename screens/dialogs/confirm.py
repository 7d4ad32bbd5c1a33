"""Yes or no."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import Button, Label

from screens.dialogs.base import Dialog


class ConfirmDialog(Dialog[bool]):
    """Yes (y) or no (n, Escape).

    The answer's keys are priority bindings: they act as the app reads them, so the keys typed after them reach
    the screen under the dialog once it has the answer (``del y n`` sent at once removes, then passes the turn).
    Bound the ordinary way, they came back up to the app through the dialog, behind the keys after them, which
    the dialog, still open, took and lost."""

    CSS_PATH = Path(__file__).with_name("form.tcss")
    BINDINGS = [
        Binding("y", "answer(True)", "Yes", priority=True, id="confirm.yes"),
        Binding("n,escape", "answer(False)", "No", priority=True, id="confirm.no"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(Text(self.question), id="title")
            with Horizontal(id="buttons"):
                yield Button("Yes (y)", id="yes", variant="warning", compact=True)
                yield Button("No (n)", id="no", compact=True)

    def first_field(self) -> Widget | None:
        return self.query_one("#no")

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")
