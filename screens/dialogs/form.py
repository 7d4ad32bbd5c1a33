"""A form built from a command's declared parameters; it returns what ``check`` made of them.

``check`` gets the raw values (text, a chosen id, a yes/no) and returns the
result to hand back, or raises :class:`~tracker.errors.TrackerError`: its
message shows under the form and the dialog stays open, so nothing is logged
until the rules accept it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.widgets import Button, Checkbox, Input, Label, Select, Static

from screens.dialogs.base import Dialog
from screens.logic import shown
from tracker import commands as C
from tracker.errors import TrackerError
from tracker.model import FightState

HINTS = {
    C.INT: "a whole number",
    C.COMBATANTS: "names or places, comma separated (Name x2 repeats)",
    C.MODIFIERS: "labelled modifiers: cover -2, high ground +1",
    C.DICE: "dice, like 2d6+1",
}


class SafeSelect(Select[Any]):
    """A Select that tolerates its dialog closing while a value change is on its way."""

    def _watch_value(self, value: Any) -> None:
        with contextlib.suppress(NoMatches):
            super()._watch_value(value)


def field_widget(param: C.Param, value: Any, state: FightState | None) -> Input | Select[Any] | Checkbox:
    wid = f"f-{param.name}"
    if param.kind == C.COMBATANT and state is not None:
        options = [(f"{n}. {c.name}", c.id) for n, c in enumerate(state.present, start=1)]
        known = value in {v for _l, v in options}
        return SafeSelect(
            options, id=wid, allow_blank=True, value=value if known else Select.NULL, prompt="choose", compact=True
        )
    if param.kind == C.CHOICE:
        options = [(c, c) for c in param.choices]
        ok = value in param.choices
        return SafeSelect(
            options, id=wid, allow_blank=not ok, value=value if ok else Select.NULL, prompt="choose", compact=True
        )
    if param.kind == C.BOOL:
        return Checkbox(param.title, bool(value), id=wid, compact=True)
    return Input(
        shown(value, state),
        id=wid,
        placeholder=param.help or HINTS.get(param.kind, ""),
        select_on_focus=False,
        compact=True,
    )


def read_field(widget: Any) -> Any:
    if isinstance(widget, Select):
        return None if widget.value is Select.NULL else widget.value
    return widget.value


class FormDialog(Dialog[Any]):
    """One row per parameter; Enter or ctrl+s submits, Escape cancels."""

    CSS_PATH = Path(__file__).with_name("form.tcss")
    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="form.cancel"),
        Binding("ctrl+s", "submit", "OK", id="form.submit"),
    ]

    def __init__(
        self,
        title: str,
        params: Sequence[C.Param],
        check: Callable[[dict[str, Any]], Any],
        *,
        values: Mapping[str, Any] | None = None,
        state: FightState | None = None,
        help: str = "",
    ) -> None:
        super().__init__()
        self.title_text = title
        self.params = tuple(params)
        self.check = check
        self.values = dict(values or {})
        self.state = state
        self.help_text = help

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(self.title_text, id="title")
            if self.help_text:
                yield Static(self.help_text, id="help", markup=False)
            with VerticalScroll(id="fields"):
                for p in self.params:
                    with Horizontal(classes="row"):
                        yield Label(p.title + ("" if p.required and p.default is None else " (opt.)"), classes="label")
                        yield field_widget(p, self.values.get(p.name), self.state)
            yield Static("", id="error", markup=False)
            with Horizontal(id="buttons"):
                yield Button("OK", id="ok", variant="primary", compact=True)
                yield Button("Cancel", id="cancel", compact=True)

    def on_mount(self) -> None:
        for p in self.params:
            if p.name not in self.values or self.values.get(p.name) in (None, ""):
                self.query_one(f"#f-{p.name}").focus()
                return
        self.query_one("#ok").focus()

    def raw(self) -> dict[str, Any]:
        return {p.name: read_field(self.query_one(f"#f-{p.name}")) for p in self.params}

    def action_submit(self) -> None:
        try:
            result = self.check(self.raw())
        except TrackerError as e:
            self.show_error(str(e))
            return
        except Exception as e:  # a plug-in's form code must not crash the app
            self.show_error(f"{type(e).__name__}: {e}")
            return
        self.dismiss(result)

    def show_error(self, message: str) -> None:
        self.query_one("#error", Static).update(message)
        self.app.bell()

    def action_cancel(self) -> None:
        self.dismiss(None)

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_submit()

    @on(Button.Pressed, "#ok")
    def _ok(self) -> None:
        self.action_submit()

    @on(Button.Pressed, "#cancel")
    def _cancel(self) -> None:
        self.action_cancel()
