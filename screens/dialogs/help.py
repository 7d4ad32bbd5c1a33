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
    BINDINGS = [Binding("escape,q,f1,question_mark", "close", "Close", priority=True, id="help.close")]

    def __init__(self, title: str, text: str, *, system_id: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.text = text
        self.system_id = system_id  # the rules page it cites (default: the system of the screen under it)

    def rules_line(self) -> str:
        """Where the rules this tracker applies are written down: ``tracker rules <system>`` (docs/rules/ in the
        source; pip install . ships no docs folder), and Y on a line."""
        sid = self.system_id
        if not sid:
            under = [s for s in self.app.screen_stack if s is not self and getattr(s, "system", None) is not None]
            sid = getattr(under[-1].system, "id", "") if under else ""  # type: ignore[attr-defined]
        page = f"tracker rules {sid} and " if sid else ""
        return f"The rules as this tracker reads them: {page}tracker rules (in a terminal) · Y on a log line: why"

    def compose(self) -> ComposeResult:
        with Vertical(id="help-box"):
            yield Label(Text(self.title_text), id="title")
            with VerticalScroll(id="help-body"):
                yield Static(self.text, markup=False)
                yield Static(self.rules_line(), id="help-rules", markup=False)
            yield Label("↑↓ PgUp PgDn scroll · Escape closes", id="hint")

    def first_field(self) -> Widget | None:
        return self.query_one("#help-body")

    def action_close(self) -> None:
        self.dismiss(None)
