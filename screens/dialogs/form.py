"""A form built from a command's declared parameters; it returns what ``check`` made of them.

``check`` gets the raw values (text, a chosen id, the chosen ids, a yes/no)
and returns the result to hand back (a command), or raises
:class:`~tracker.errors.TrackerError`: its message shows under the form, with
the field's label, and the dialog stays open, so nothing is logged until the
rules accept it.  The title names who acts and on whom, and follows the fields.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.suggester import SuggestFromList
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Input, Label, Static

from screens.dialogs.base import Dialog, show
from screens.logic import shown
from screens.widgets.fields import (
    Choice,
    Cycle,
    TargetList,
    TextField,
    YesNo,
    combatant_cycle,
    combatant_options,
    field_id,
)
from tracker import commands as C
from tracker.errors import TrackerError
from tracker.model import FightState
from tracker.text import visible

HINTS = {
    C.INT: "a whole number",
    C.COMBATANTS: "space chooses, + repeats",
    C.MODIFIERS: "labelled modifiers: cover -1, high ground +1",
    C.DICE: "dice, like 2d6+1",
}
LABEL_MAX = 30


def hint_for(param: C.Param) -> str:
    """What the hint line says while ``param``'s field has the focus: its whole help, whatever its kind."""
    return visible(param.help or HINTS.get(param.kind, ""))


def labels_for(params: Sequence[C.Param]) -> dict[str, str]:
    """Each field's label, made unique (a form never shows two fields under one label)."""
    titles = [p.title for p in params]
    out: dict[str, str] = {}
    for p in params:
        label = p.title
        if titles.count(label) > 1:
            label = f"{label} ({p.name.replace('_', ' ')})"
        out[p.name] = label
    return out


def with_label(message: str, params: Sequence[C.Param], labels: Mapping[str, str]) -> str:
    """An error that starts with a field's internal name ("dc: ...") names it by its label instead."""
    for p in params:
        for prefix in (f"{p.name}:", f"{p.name.replace('_', ' ')}:"):
            if message.lower().startswith(prefix.lower()) and prefix.lower() != f"{labels[p.name].lower()}:":
                return labels[p.name] + ":" + message[len(prefix) :]
    return message


def _one(param: C.Param, value: Any) -> tuple[str | None, bool]:
    """A one-combatant field's value, and whether it offers no one ("—")."""
    return (value if isinstance(value, str) else None), not param.required or value is None


def _several(value: Any) -> tuple[str, ...]:
    return (value,) if isinstance(value, str) else tuple(value or ())


def choice_options(param: C.Param, value: Any) -> tuple[list[tuple[str, str]], Any, bool]:
    """A choice field's options, its value, and whether it offers none ("—")."""
    ok = value in param.choices
    return [(param.choice_label(c), c) for c in param.choices], value if ok else None, not ok and not param.required


def unfocusable(button: Button) -> Button:
    """A form's button is for the mouse: Enter submits from any field, Escape cancels, so Tab and Enter never
    land on Cancel (``1 Tab Tab text Enter`` cancelled a form and logged nothing)."""
    button.can_focus = False
    return button


def field_widget(param: C.Param, value: Any, state: FightState | None, choices: Sequence[Choice]) -> Widget:
    wid = field_id("f", param.name)
    if param.kind == C.COMBATANT and state is not None:
        one, blank = _one(param, value)
        return combatant_cycle(choices, one, blank=blank, id=wid)
    if param.kind == C.COMBATANTS and state is not None:
        return TargetList(choices, _several(value), id=wid)
    if param.kind == C.CHOICE:
        options, chosen, blank = choice_options(param, value)
        return Cycle(options, chosen, blank=blank, id=wid)
    if param.kind == C.BOOL:
        return YesNo("", bool(value), id=wid)  # the row's label names it
    return TextField(
        shown(value, state),
        id=wid,
        placeholder=param.help or HINTS.get(param.kind, ""),
        select_on_focus=True,
        compact=True,
        suggester=SuggestFromList(param.suggestions, case_sensitive=False) if param.suggestions else None,
    )


def read_field(widget: Any) -> Any:
    return widget.value


def set_field(widget: Widget, param: C.Param, value: Any, state: FightState | None, choices: Sequence[Choice]) -> None:
    """Show ``value`` in a field made by :func:`field_widget` for ``param`` (a form opened again)."""
    if isinstance(widget, TargetList):
        widget.reset(choices, _several(value))
    elif isinstance(widget, Cycle) and param.kind == C.COMBATANT:
        one, blank = _one(param, value)
        options, dim = combatant_options(choices)
        widget.reset(options, one, blank=blank, dim=dim)
    elif isinstance(widget, Cycle):
        options, chosen, blank = choice_options(param, value)
        widget.reset(options, chosen, blank=blank)
    elif isinstance(widget, YesNo):
        widget.value = bool(value)
    elif isinstance(widget, Input):
        widget.value = shown(value, state)


class FormDialog(Dialog[Any]):
    """One row per parameter; Enter or ctrl+s submits, Escape cancels.

    ``focus``: the field the GM is likely to change (default: the first one
    needed without a value, else the first needed that is not a combatant,
    else an optional empty one).  The focused row is marked (▌ and a bold label,
    not only a shade); Enter submits from any field (the buttons take no focus:
    Tab never lands on Cancel).  ``who``: the
    actor and subject fields, named in the title as they change.
    ``choices_for``: the parameters as they are for a combatant (a command's
    choices that depend on who acts: the checks a cinematic may reroll); the
    pickers follow the actor (else the subject) as the GM changes it.
    """

    CSS_PATH = Path(__file__).with_name("form.tcss")
    AUTO_FOCUS = ""  # first_field has the focus when it opens
    BINDINGS = [
        Binding("escape", "cancel", "Cancel", priority=True, id="form.cancel"),
        Binding("ctrl+s", "send", "OK", priority=True, id="form.submit"),
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
        choices: Sequence[Choice] = (),
        who: tuple[str | None, str | None] = (None, None),
        focus: str | None = None,
        choices_for: Callable[[str | None], Sequence[C.Param]] | None = None,
        no_one: str = "no one chosen yet",
    ) -> None:
        super().__init__()
        self.title_text = title
        self.params = tuple(params)
        self.check = check
        self.values = dict(values or {})
        self.state = state
        self.help_text = help
        self.choices = tuple(choices)
        self.who = who
        self.labels = labels_for(self.params)
        self.focus_name = focus or self._likely_field()
        self.choices_for = choices_for
        self.no_one = no_one  # what the title says with no one chosen (the rest form: "everyone")

    def _likely_field(self) -> str | None:
        def empty(p: C.Param) -> bool:
            return self.values.get(p.name) in (None, "", ())

        combatant = (C.COMBATANT, C.COMBATANTS)
        for test in (
            lambda p: empty(p) and p.required and p.default is None,
            lambda p: p.required and p.kind not in combatant,  # what the GM came to set (a level), not a note
            lambda p: empty(p) and p.kind not in combatant,
            lambda p: p.kind not in combatant,
            lambda p: True,
        ):
            for p in self.params:
                if test(p):
                    return p.name
        return None

    def title_line(self) -> Text:
        actor, subject = self.who
        names: dict[str, str] = {c.id: c.name for c in self.choices}
        values = {p.name: self.values.get(p.name) for p in self.params}
        if self.is_mounted:
            values.update(self.raw())

        def named(value: Any) -> str:
            ids = (value,) if isinstance(value, str) else tuple(value or ())
            counts: dict[str, int] = {}
            for i in ids:
                counts[i] = counts.get(i, 0) + 1
            return ", ".join(visible(names.get(i, i)) + (f" ×{n}" if n > 1 else "") for i, n in counts.items())

        a = named(values.get(actor)) if actor else ""
        s = named(values.get(subject)) if subject and subject != actor else ""
        who = f"{a} → {s}" if a and s else (a or s)
        if (actor or subject) and not who:
            who = self.no_one
        return Text(visible(self.title_text) + (f": {who}" if who else ""), style="bold")

    def compose(self) -> ComposeResult:
        texts = {
            p.name: self.labels[p.name] + ("" if p.required and p.default is None else " (opt.)") for p in self.params
        }
        width = min(max([len(x) for x in texts.values()] + [6]) + 1, LABEL_MAX)
        with Vertical(id="dialog"):
            with Vertical(id="head"):  # docked at the top, the buttons at the bottom: the fields scroll between
                yield Label(self.title_line(), id="title")
                if self.help_text:
                    yield Static(self.help_text, id="help", markup=False)
            # not a Tab stop: Textual's scrolling container takes the focus, shows no mark and takes no text (a
            # Tab from the last field landed there); a field focused is scrolled into view all the same
            with VerticalScroll(id="fields", can_focus=False):
                for p in self.params:
                    # a label longer than its column wraps (the row grows) rather than being cut
                    tall = p.kind == C.COMBATANTS or len(texts[p.name]) >= width
                    classes = "row tall" if tall else "row"
                    with Horizontal(classes=classes):
                        label = Label(Text(texts[p.name]), classes="label")
                        label.styles.width = width
                        yield label
                        yield field_widget(p, self.values.get(p.name), self.state, self.choices)
            with Vertical(id="foot"):
                if any(hint_for(p) for p in self.params):
                    yield Static("", id="hint", markup=False)
                yield Static("", id="error", markup=False)
                with Horizontal(id="buttons"):
                    yield unfocusable(Button("OK", id="ok", variant="primary", compact=True))
                    yield unfocusable(Button("Cancel", id="cancel", compact=True))

    def shape(self) -> Hashable | None:
        """The fields (and whether there is help and a fight to choose combatants from) make the widgets."""
        return (type(self), self.params, bool(self.help_text), self.state is not None)

    def reopen_as(self, fresh: FormDialog) -> None:
        self.title_text = fresh.title_text
        self.check = fresh.check
        self.values = fresh.values
        self.state = fresh.state
        self.help_text = fresh.help_text
        self.choices = fresh.choices
        self.who = fresh.who
        self.focus_name = fresh.focus_name
        self.choices_for = fresh.choices_for
        self.no_one = fresh.no_one
        shown = {w.id: w for w in self.query("#fields *") if w.id}  # one walk of the dialog, not one per field
        for p in self.params:
            set_field(shown[field_id("f", p.name)], p, self.values.get(p.name), self.state, self.choices)
        show(self.query_one("#title", Label), self.title_line())
        if self.help_text:
            show(self.query_one("#help", Static), self.help_text)
        show(self.query_one("#error", Static), "")
        self._show_hint(self.focused or self.first_field())
        self.query_one("#fields", VerticalScroll).scroll_home(animate=False, immediate=True)

    def first_field(self) -> Widget | None:
        if self.focus_name is None:
            return None
        found = self.query(f"#{field_id('f', self.focus_name)}")
        return found.first() if found else None

    def submits_on_enter(self, widget: Widget | None) -> bool:
        return isinstance(widget, TargetList | Cycle) or super().submits_on_enter(widget)

    def raw(self) -> dict[str, Any]:
        return {p.name: read_field(self.query_one(f"#{field_id('f', p.name)}")) for p in self.params}

    def action_submit(self) -> None:
        for p in self.params:
            field = self.query_one(f"#{field_id('f', p.name)}")
            if isinstance(field, Cycle) and field.missed:  # typed, and it named no option: not the one shown
                self.show_error(
                    f"{self.labels[p.name]}: no option '{visible(field.missed)}'. "
                    "Choose with ← → or type its first letters (Backspace clears what was typed)."
                )
                field.focus()
                return
        try:
            result = self.check(self.raw())
        except TrackerError as e:
            said = with_label(str(e), self.params, self.labels)
            self.show_error(said)
            named = next((p for p in self.params if said.startswith(f"{self.labels[p.name]}:")), None)
            if named is not None:  # the field the message names takes the focus: the GM fixes it there
                self.query_one(f"#{field_id('f', named.name)}").focus()
            return
        except Exception as e:  # a plug-in's form code must not crash the app
            self.show_error(f"{type(e).__name__}: {e}")
            return
        self.dismiss(result)

    def show_error(self, message: str) -> None:
        self.query_one("#error", Static).update(visible(message))
        self.app.bell()

    def action_cancel(self) -> None:
        self.dismiss(None)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self._show_hint(event.widget)

    def _show_hint(self, widget: Widget | None) -> None:
        """The focused field's whole help on the hint line under the fields (a placeholder shows only in an
        empty text field, and cut to the field's width; a choice, a yes/no or a combatant showed none:
        tests/ui/test_form_hints.py)."""
        found = self.query("#hint")
        if not found:
            return
        param = next((p for p in self.params if widget is not None and widget.id == field_id("f", p.name)), None)
        show(found.first(Static), hint_for(param) if param is not None else "")

    def _retitle(self) -> None:
        if self.who != (None, None):
            show(self.query_one("#title", Label), self.title_line())

    @on(Cycle.Changed)
    @on(TargetList.Changed)
    def _who_changed(self, event: Cycle.Changed | TargetList.Changed) -> None:
        self._retitle()
        show(self.query_one("#error", Static), "")  # what it said was of the choice before (a bound wound's
        # "already bound" stayed beside the next combatant chosen)
        actor, subject = self.who
        name = actor or subject
        changed = event.cycle if isinstance(event, Cycle.Changed) else event.target_list
        if self.choices_for is None or name is None or changed.id != field_id("f", name):
            return
        who = self.raw().get(name)
        fresh = {p.name: p for p in self.choices_for(who if isinstance(who, str) else None)}
        for p in self.params:
            now = fresh.get(p.name)
            if p.kind != C.CHOICE or now is None or now.choices == p.choices:
                continue
            widget = self.query_one(f"#{field_id('f', p.name)}", Cycle)
            kept = widget.value if widget.value in now.choices else (now.choices[0] if now.choices else None)
            options, chosen, blank = choice_options(now, kept)
            widget.reset(options, chosen, blank=blank)
        self.params = tuple(fresh.get(p.name, p) for p in self.params)

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_submit()

    @on(Checkbox.Changed)
    def _checked(self, event: Checkbox.Changed) -> None:
        event.stop()

    @on(Button.Pressed, "#ok")
    def _ok(self) -> None:
        self.action_submit()

    @on(Button.Pressed, "#cancel")
    def _cancel(self) -> None:
        self.action_cancel()
