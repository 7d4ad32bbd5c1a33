"""Choose one thing from a list, typing to filter it."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from pathlib import Path
from typing import Any

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widget import Widget
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.input import Selection
from textual.widgets.option_list import Option

from screens.dialogs.base import Dialog, taken
from screens.widgets.fields import Choices, TextField


def matches(query: str, label: str) -> bool:
    words = query.lower().split()
    low = label.lower()
    return all(w in low for w in words)


def matching(query: str, options: Sequence[tuple[str, Any]]) -> list[tuple[str, Any]]:
    """The options whose label matches ``query``, those matching by their name (before " — ") first: "paper"
    took "Treat an injury — … a paper …" before "The paper is destroyed"."""
    found = [(label, v) for label, v in options if matches(query, label)]
    return sorted(found, key=lambda o: not matches(query, o[0].split(" — ", 1)[0]))


def types_in_filter(event: events.Key) -> bool:
    """A key typed in a list that belongs to its filter: a letter, a digit, a space, Backspace."""
    return event.is_printable or event.key == "backspace"


def send_to_filter(dialog: Dialog[Any], box: Input, event: events.Key) -> None:
    """Give a key typed in a list to its filter ``box`` (focused, its cursor at the end: the letter adds to what it
    holds): the hint "type to filter" holds wherever the focus is (the letters were dropped, and Enter took the
    highlighted row)."""
    event.stop()
    event.prevent_default()
    dialog.set_focus(box, scroll_visible=False)
    box.call_later(_cursor_at_end, box)  # after its Focus selected it all
    box.post_message(events.Key(event.key, event.character))


def _cursor_at_end(box: Input) -> None:
    box.selection = Selection.cursor(len(box.value))


class FilteredList(Dialog[Any]):
    """A dialog of a list (its OptionList) and the filter above it (``#filter``): a letter or Backspace typed in
    the list goes to the filter (``_typed_back`` says so until the list has the focus again, for an Enter that
    came on the letters' heels: the filter's first match)."""

    _typed_back = False

    def on_key(self, event: events.Key) -> None:
        """A key of the filter typed in the list goes to the filter; any other is the base class's to place."""
        if self.focused is self.query_one(OptionList) and types_in_filter(event):
            send_to_filter(self, self.query_one("#filter", Input), event)
            self._typed_back = True
            return
        super().on_key(event)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        if event.widget is self.query_one(OptionList):
            self._typed_back = False  # in the list again: its Enter is its row


class PickDialog(FilteredList):
    """Returns the chosen value, or None on Escape.

    Ruling: the hint's "type to filter" holds wherever the focus is.  In the list (reached with ↓) a printable
    key goes back to the filter and is added to it, and Backspace takes the filter's last letter; ↑/↓, Home,
    End, the page keys and Enter stay the list's.  Before, the letters were dropped and Enter picked the row the
    ↓s had reached (GM adjust of Outlaw 1, ↓ ×12, "Injuries", Enter: the Group form).  Tests:
    tests/ui/test_pick_type_ahead.py.
    """

    CSS_PATH = Path(__file__).with_name("form.tcss")
    AUTO_FOCUS = ""  # first_field has the focus when it opens
    BINDINGS = [
        Binding("escape", "cancel", "Cancel", priority=True, id="pick.cancel"),
        # priority, as the dialog's other keys: it acts as the app reads it, in order with the Enter behind it
        # (bound the ordinary way it came back up from the filter after Enter had taken the first row: ``↓↓⏎``)
        Binding("down", "to_list", "List", show=False, priority=True, id="pick.list"),
    ]

    def __init__(self, title: str, options: Sequence[tuple[str, Any]], help: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.options = list(options)
        self.help_text = help
        self.shown_options: list[tuple[str, Any]] = list(self.options)
        self.shown_for = ""  # the filter the options shown match
        self._typed_back = False  # keys typed in the list went back to the filter since the list had the focus

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(Text(self.title_text), id="title")
            if self.help_text:
                yield Static(self.help_text, id="help", markup=False)
            yield TextField(id="filter", placeholder="type to filter, Enter chooses", compact=True)
            yield Choices(*[Option(Text(label)) for label, _v in self.options], id="choices", compact=True)
            yield Static("type to filter · ↓ the list · Enter chooses · Esc cancels", id="hint", markup=False)
            yield Static("", id="error", markup=False)

    def first_field(self) -> Widget | None:
        return self.query_one("#filter")

    def on_mount(self) -> None:  # then Dialog's own (Textual calls each class's on_mount, the most derived first)
        if self.options:
            self.query_one(OptionList).highlighted = 0

    def shape(self) -> Hashable | None:
        return (type(self), tuple(label for label, _v in self.options), bool(self.help_text))

    def reopen_as(self, fresh: PickDialog) -> None:
        self.title_text = fresh.title_text
        self.options = fresh.options  # the same labels; the values may be new
        self.help_text = fresh.help_text
        self.query_one("#title", Label).update(Text(self.title_text))
        if self.help_text:
            self.query_one("#help", Static).update(self.help_text)
        if self.query_one("#filter", Input).value:
            self.query_one("#filter", Input).value = ""  # its Changed shows the whole list again
        self._show("", rebuild=self.query_one(OptionList).option_count != len(self.options))

    @on(Input.Changed, "#filter")
    def _filter(self, event: Input.Changed) -> None:
        if event.value != self.shown_for:  # (shown already: a ↓ read after it moved the highlight on)
            self._show(event.value)

    def _show(self, query: str, rebuild: bool = True) -> None:
        """The options matching ``query`` listed (``rebuild``: the list made again), the first highlighted."""
        self.shown_for = query
        self.shown_options = matching(query, self.options)
        ol = self.query_one(OptionList)
        if rebuild:
            ol.clear_options()
            ol.add_options([Option(Text(label)) for label, _v in self.shown_options])
        if self.shown_options:
            ol.highlighted = 0
        self.query_one("#error", Static).update("" if self.shown_options else "nothing matches")

    @on(Input.Submitted, "#filter")
    def _choose_first(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_submit()

    def action_submit(self) -> None:
        """The highlighted option of those the filter matches as it is now: ``note⏎`` sent at once (a paste, SSH,
        keys typed on while the dialog opened) reaches this before the filter's Changed messages did."""
        typed = self.query_one("#filter", Input).value
        if typed != self.shown_for:
            self._show(typed)
        ol = self.query_one(OptionList)
        if not self.shown_options:
            self.app.bell()
            return
        self.dismiss(self.shown_options[ol.highlighted or 0][1])

    @on(OptionList.OptionSelected)
    async def _chosen(self, event: OptionList.OptionSelected) -> None:
        """Enter (or a click) in the list: its row; the filter's first match if letters typed in the list went
        back to the filter meanwhile (``↓↓Injuries⏎`` sent at once: Enter reached the list, which still had the
        focus, before the filter had read the letters)."""
        event.stop()
        if self._typed_back:
            await taken(self.query_one("#filter", Input))
            self.action_submit()
            return
        self.dismiss(self.shown_options[event.option_index][1])

    async def action_to_list(self) -> None:
        """↓ in the filter: on to the list, once the letters typed before it have filtered it (``her↓↓⏎`` sent at
        once moved down the whole list, which the letters then filtered: the wrong party); in the list, the next
        row."""
        ol = self.query_one(OptionList)
        if self.focused is not ol:
            box = self.query_one("#filter", Input)
            await taken(box)
            if box.value != self.shown_for:
                self._show(box.value)
            self.set_focus(ol)
            if ol.highlighted is None and self.shown_options:
                ol.highlighted = 0
        else:
            ol.action_cursor_down()

    def action_cancel(self) -> None:
        self.dismiss(None)
