"""Typed-in dice: ask the GM for the faces of one roll, refusing impossible ones."""

from __future__ import annotations

from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widget import Widget
from textual.widgets import Input, Label, Static

from screens.dialogs.base import Dialog
from screens.widgets.fields import TextField
from tracker.dice import DiceError, DiceRequest, TypedRoller, parse_faces
from tracker.text import counted


class FacesDialog(Dialog[bool]):
    """Returns True once the faces are queued on the roller, False when the GM gives up."""

    CSS_PATH = Path(__file__).with_name("form.tcss")
    BINDINGS = [Binding("escape", "cancel", "Cancel the action", priority=True, id="faces.cancel")]

    def __init__(self, request: DiceRequest, roller: TypedRoller) -> None:
        super().__init__()
        self.request = request
        self.roller = roller

    def compose(self) -> ComposeResult:
        r = self.request
        with Vertical(id="dialog"):
            yield Label(f"Roll {r.describe()}", id="title", markup=False)
            fudge = (r.lo, r.hi) == (-1, 1)
            hint = "+ 0 - for each Fudge die" if fudge else f"{counted(r.count, 'face')}, {r.lo} to {r.hi}"
            yield Static(f"Type the faces you rolled: {hint}. Escape cancels the action.", id="help", markup=False)
            example = "++0-, + + 0 - or 1 1 0 -1" if fudge else "e.g. " + " ".join([str(r.hi)] * min(r.count, 4))
            yield TextField(id="faces", placeholder=example, compact=True)
            yield Static("", id="error", markup=False)

    def first_field(self) -> Widget | None:
        return self.query_one("#faces")

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_submit()

    def action_submit(self) -> None:
        try:
            faces = parse_faces(self.query_one("#faces", Input).value, self.request)
            self.roller.supply(self.request, faces)
        except DiceError as e:
            self.query_one("#error", Static).update(str(e))
            self.app.bell()
            return
        self.dismiss(True)

    def action_cancel(self) -> None:
        self.dismiss(False)
