"""Add combatants: from a preset (type to filter), from a custom sheet, one or a group."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Hashable, Mapping
from pathlib import Path
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from saves import library
from screens.dialogs.base import show, taken
from screens.dialogs.form import HINTS, LABEL_MAX, choice_options, labels_for, unfocusable, with_label
from screens.dialogs.pick import FilteredList, matches
from screens.guard import call
from screens.widgets.fields import Choices, Cycle, TextField, YesNo, field_id
from tracker import commands as C
from tracker.errors import Refused, TrackerError
from tracker.model import KINDS, NPC, PC
from tracker.plugin import Preset, System
from tracker.text import NAME_MAX, visible, whole_number

CUSTOM = "Custom sheet (fill in the fields below)"
CUSTOM_HINT = "Custom sheet · Tab: the fields · ctrl+s or Enter in a field adds"


def _widget_type(p: C.Param) -> type[Widget]:
    return Cycle if p.kind == C.CHOICE and p.choices else YesNo if p.kind == C.BOOL else TextField


def _as_text(value: Any) -> str:
    """A preset's sheet value as a GM reads it: a list as its items comma-joined, an entry by its name, nothing
    for an empty one.

    Ruling: a GM's preset keeps the sheet as the rules checked it, so a field may hold lists and records (a
    blackjack weapon is ``{'name': 'Machete', 'kind': 'melee', …}``); the dialog showed them as Python reprs
    ("preset: [{'name': 'Machete', …", "preset: [[], [], []]").  They read "Machete, Revolver" and empty ones
    are not shown (tests/ui/test_library_text.py ``test_a_kept_presets_sheet_reads_as_text``)."""
    if isinstance(value, Mapping):
        if "name" in value:
            return _as_text(value["name"])
        return ", ".join(f"{k} {t}" for k, v in value.items() if (t := _as_text(v)))
    if isinstance(value, list | tuple):
        return ", ".join(t for v in value if (t := _as_text(v)))
    if value is None:
        return ""
    return str(value)


def _kind_text(p: Preset) -> str:
    """The preset's kind as the list shows it; a GM's preset of an NPC they made a PC says both ("NPC made PC")."""
    became = p.now.get("kind") if isinstance(p.now, Mapping) else None
    if isinstance(became, str) and became in KINDS and became != p.kind:
        return f"{p.kind.upper()} made {became.upper()}"
    return p.kind.upper()


class AddDialog(FilteredList):
    """Returns an AddCombatant the rules accept (``check`` raises to keep the dialog open).  Letters typed in its
    presets list go to its filter, as in a pick list (``A ↓↓↓ bear ⏎`` dropped "bear" and added the highlighted
    preset)."""

    CSS_PATH = Path(__file__).with_name("form.tcss")
    AUTO_FOCUS = ""  # first_field has the focus when it opens
    BINDINGS = [
        Binding("escape", "cancel", "Cancel", priority=True, id="add.cancel"),
        Binding("ctrl+s", "send", "Add", priority=True, id="add.submit"),
        Binding("down", "to_list", "Presets", show=False, id="add.list"),
    ]

    def __init__(
        self, system: System, check: Callable[[C.AddCombatant], Any], kind: str = NPC, folder: Path | None = None
    ) -> None:
        super().__init__()
        self.system = system
        self.check = check
        self.kind = kind
        # the GM's own presets first (marked "mine"), then the book's combatant presets (a system may also list
        # reference presets, e.g. weapons); a damaged library is said in the dialog, the book's still offered
        self.library_problem = ""
        try:
            mine = library.presets(system.id, folder)
        except TrackerError as e:
            # (it quotes the file, which may come from another GM: shown escaped, tests/reliability/test_library_hostile.py)
            mine, self.library_problem = (), visible(f"{e} — your presets are skipped until it is mended")
        self.presets: tuple[Preset, ...] = (
            *mine,
            *(p for p in call(system.presets, default=(), what="its presets") if p.kind in KINDS),
        )
        self.shown_presets: list[Preset | None] = [None, *self.presets]
        self.preset: Preset | None = None
        self._filtered_for: str | None = ""
        # one change of the sheet widgets at a time, each to what the dialog shows then: a newer one waits rather
        # than cancelling an older one mid-mount (a mount cut short leaves widgets that never finish mounting)
        self._sheet_lock = asyncio.Lock()

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(Text(f"Add combatants ({self.system.name})"), id="title")
            yield TextField(id="filter", placeholder="type to filter the presets; Enter takes the first", compact=True)
            yield Choices(*self._options(), id="choices", compact=True)
            yield Static(CUSTOM_HINT, id="preset", markup=False)
            # Count first: a preset's count is what the GM most often sets.  The scrolling container is not a Tab
            # stop: the list's Tab landed on it (no focus shown, no text taken) and a count typed there was lost
            with VerticalScroll(id="fields", can_focus=False):
                with Horizontal(classes="row"):
                    yield self._label("Count")
                    yield TextField(
                        "1", id="a-count", placeholder="several make a group: Outlaw 1, Outlaw 2…", compact=True
                    )
                with Horizontal(classes="row"):
                    yield self._label("Name")
                    yield TextField(
                        id="a-name",
                        placeholder=f"at most {NAME_MAX} characters (a preset gives its own)",
                        max_length=NAME_MAX,
                        compact=True,
                    )
                with Horizontal(classes="row"):
                    yield self._label("Kind")
                    yield YesNo("Player character (space)", self.kind == PC, id="a-kind")
                with Horizontal(classes="row"):
                    yield self._label("Players' view")
                    yield YesNo("Hidden from the players", False, id="a-hidden")
                with Horizontal(classes="row"):
                    yield self._label("Group (opt.)")
                    yield TextField(
                        id="a-group", placeholder="a group name; a count above 1 groups them anyway", compact=True
                    )
                yield Vertical(*self._sheet_rows(self._fields()), id="sheet")
            yield Static(self.library_problem, id="error", markup=False)
            with Horizontal(id="buttons"):
                yield unfocusable(Button("Add", id="ok", variant="primary", compact=True))
                yield unfocusable(Button("Cancel", id="cancel", compact=True))

    def _label(self, text: str) -> Label:
        label = Label(Text(text), classes="label")
        label.styles.width = self._label_width()
        return label

    def _label_width(self) -> int:
        titles = [p.title for p in self._fields()] + ["Players' view", "Group (opt.)"]
        return min(max(len(t) for t in titles) + 1, LABEL_MAX)

    def _row_classes(self, label: str) -> str:
        """A label longer than its column wraps (the row grows) rather than being cut."""
        return "row tall" if len(label) >= self._label_width() else "row"

    def _options(self) -> list[Option]:
        out = []
        for p in self.shown_presets:
            if p is None:
                out.append(Option(Text(CUSTOM)))
            else:
                extra = f" — {p.summary}" if p.summary else ""
                cat = f"{p.category}: " if p.category else ""
                out.append(Option(Text(visible(f"{cat}{p.name} ({_kind_text(p)}){extra}"))))
        return out

    def first_field(self) -> Widget | None:
        return self.query_one("#filter")

    def submits_on_enter(self, widget: Widget | None) -> bool:
        return super().submits_on_enter(widget) and getattr(widget, "id", None) != "filter"

    def on_mount(self) -> None:  # then Dialog's own (Textual calls each class's on_mount, the most derived first)
        self.query_one(OptionList).highlighted = 0

    def shape(self) -> Hashable | None:
        return (type(self), self.system.id)

    def reopen_as(self, fresh: AddDialog) -> None:
        """Empty again: every preset listed, the custom sheet for the asked kind, no text in any field."""
        self.check = fresh.check
        renewed = fresh.presets != self.presets  # the GM kept, renamed or deleted one of theirs
        self.presets = fresh.presets
        self.library_problem = fresh.library_problem
        self.kind = fresh.kind
        self.query_one("#filter", Input).value = ""
        if renewed or self._filtered_for != "" or len(self.shown_presets) != len(self.presets) + 1:
            self._filtered_for = None  # the list is made again, of every preset
        self._apply_filter("")
        self.query_one(OptionList).highlighted = 0
        self.preset = None
        show(self.query_one("#preset", Static), CUSTOM_HINT)
        for wid, value in (("#a-name", ""), ("#a-count", "1"), ("#a-group", "")):
            self.query_one(wid, Input).value = value
        self.query_one("#a-hidden", Checkbox).value = False
        self.query_one("#a-kind", Checkbox).value = self.kind == PC
        shown = {w.id: w for w in self._sheet_widgets()}  # one walk of the dialog, not one per field
        for w in shown.values():
            if isinstance(w, Input):
                w.value = ""
        for p in self._fields():
            if field_id("s", p.name) in shown:
                self._show_sheet_value(shown[field_id("s", p.name)], p)
        self.run_worker(self._sheet_fields(), group="sheet")  # the kind's fields, their hints
        show(self.query_one("#error", Static), self.library_problem)
        self.query_one("#fields", VerticalScroll).scroll_home(animate=False, immediate=True)

    def _fields(self) -> tuple[C.Param, ...]:
        return tuple(call(self.system.sheet_fields, self.kind, default=(), what="its sheet"))

    def _sheet_rows(self, fields: tuple[C.Param, ...]) -> list[Horizontal]:
        return [
            Horizontal(self._label(p.title), self._sheet_field(p), classes=self._row_classes(p.title)) for p in fields
        ]

    def _sheet_value(self, p: C.Param) -> Any:
        """What a picker or a toggle shows for ``p``: the preset's value, else the field's default."""
        if self.preset is not None and p.name in self.preset.sheet:
            try:
                return p.parse(self.preset.sheet[p.name])
            except TrackerError:
                return None
        return p.default

    def _sheet_field(self, p: C.Param) -> Widget:
        """A sheet field as a command form shows it: a choice is a picker, a yes/no a toggle, the rest typed."""
        if _widget_type(p) is Cycle:
            options, chosen, blank = choice_options(p, self._sheet_value(p))
            return Cycle(options, chosen, blank=blank, id=field_id("s", p.name))
        if _widget_type(p) is YesNo:
            return YesNo("", bool(self._sheet_value(p)), id=field_id("s", p.name))
        return TextField(id=field_id("s", p.name), placeholder=self._hint(p), select_on_focus=False, compact=True)

    def _show_sheet_value(self, widget: Widget, p: C.Param) -> None:
        """The preset (or the kind) changed: a picker or toggle shows its value, a typed field its hint."""
        if isinstance(widget, Cycle):
            options, chosen, blank = choice_options(p, self._sheet_value(p))
            widget.reset(options, chosen, blank=blank)
        elif isinstance(widget, YesNo):
            widget.value = bool(self._sheet_value(p))
        elif isinstance(widget, Input):
            widget.placeholder = self._hint(p)

    @on(Input.Changed, "#a-name")
    def _name_length(self, event: Input.Changed) -> None:
        full = len(event.value) >= NAME_MAX
        show(self.query_one("#error", Static), f"Name: at most {NAME_MAX} characters" if full else "")

    def _hint(self, p: C.Param) -> str:
        hint = p.help or HINTS.get(p.kind, "")
        shown = _as_text(self.preset.sheet[p.name]) if self.preset is not None and p.name in self.preset.sheet else ""
        if shown:  # (a preset's sheet may come from another GM's file: shown escaped)
            return visible(f"preset: {shown}")
        if p.default not in (None, ""):  # (an empty default read "default:  — …")
            hint = f"default: {p.default}" + (f" — {hint}" if hint else "")
        if p.kind == C.CHOICE and p.choices:
            hint = "one of " + ", ".join(p.choices) + (f" ({hint})" if hint else "")
        return hint

    async def _sheet_fields(self) -> None:
        """Show the sheet fields for the kind; keep the widgets (and focus) when they are the same."""
        async with self._sheet_lock:
            await self._show_sheet_fields()

    async def _show_sheet_fields(self) -> None:
        box = self.query_one("#sheet", Vertical)
        fields = self._fields()
        shape = [(field_id("s", p.name), _widget_type(p)) for p in fields]
        shown = self._sheet_widgets()
        if shape == [(w.id, type(w)) for w in shown]:
            for p, w in zip(fields, shown, strict=True):
                self._show_sheet_value(w, p)
            return
        had_focus = self.focused is not None and box in self.focused.ancestors
        await box.remove_children()
        rows = self._sheet_rows(fields)
        if rows:
            await box.mount_all(rows)
        if had_focus:
            self.set_focus(self.query_one("#a-kind"))

    @on(Input.Changed, "#filter")
    def _filter(self, event: Input.Changed) -> None:
        self._apply_filter(event.value)

    def _apply_filter(self, q: str) -> None:
        if q == self._filtered_for:
            return
        self._filtered_for = q
        found: list[Preset | None] = [p for p in self.presets if matches(q, f"{p.category} {p.name} {p.summary}")]
        self.shown_presets = [*found, None] if q else [None, *found]
        ol = self.query_one(OptionList)
        ol.clear_options()
        ol.add_options(self._options())
        if self.shown_presets:
            ol.highlighted = 0

    def _take(self, index: int) -> None:
        """Take a preset (on to its count: its name is the preset's) or the custom sheet (named as typed in the
        filter; on to the name)."""
        self._apply_filter(self.query_one("#filter", Input).value)
        if not 0 <= index < len(self.shown_presets):
            return
        chosen = self.shown_presets[index]
        typed = self.query_one("#filter", Input).value.strip()
        if chosen is None and typed:
            self.query_one("#a-name", Input).value = typed[:NAME_MAX]
        self._choose(chosen, taken=True)
        self.set_focus(self.query_one("#a-count" if chosen is not None else "#a-name"))

    async def action_enter(self) -> None:
        """Enter in the filter takes the first match, in the list the highlighted one; elsewhere it adds.

        Taken once every key typed before Enter has reached the field (see :func:`taken`: ``bear⏎`` sent at
        once); those keys may have moved the focus on (``bear↓⏎``: to the list), and Enter is then the Enter of
        the field that has it.  The keys after Enter reach the field the take went to (``bear⏎2⏎``: two bears).
        """
        focused = self.focused
        if focused is None or not (focused.id == "filter" or isinstance(focused, OptionList)):
            await super().action_enter()
            return
        await taken(focused)
        if self.focused is not focused:
            if self.focused is not None and self.is_active:
                await self.action_enter()
        elif isinstance(focused, OptionList) and self._typed_back:
            # letters typed in the list went back to the filter, and Enter came on their heels (``↓↓bear⏎`` sent at
            # once): the filter's first match, as the filter's own Enter takes
            await taken(self.query_one("#filter", Input))
            self._take(0)
        elif isinstance(focused, OptionList):
            self._take(focused.highlighted or 0)
        else:
            self._take(0)

    @on(OptionList.OptionHighlighted)
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """The preset the list highlights now (a message from a list filtered since may name another place)."""
        if self.focused is not None and self.focused.id not in ("filter", "choices"):
            return  # a preset taken stays (a message from before Enter may come after it)
        index = self.query_one(OptionList).highlighted
        if index is not None and index < len(self.shown_presets):
            self._choose(self.shown_presets[index])

    def _choose(self, chosen: Preset | None, *, taken: bool = False) -> None:
        """Show ``chosen``: its name, its kind and its sheet's fields, all at once (``taken``: by Enter, so
        its kind is set again even when it was shown already)."""
        if chosen is self.preset and not taken:
            return
        self.preset = chosen
        self._said_of_another_sheet()
        text = (
            CUSTOM_HINT
            if chosen is None
            else visible(f"Preset: {chosen.name}" + (f" — {chosen.summary}" if chosen.summary else ""))
        )
        show(self.query_one("#preset", Static), text)
        if chosen is not None and chosen.kind in KINDS:
            self.kind = chosen.kind  # now, not when the toggle's message comes: a burst of keys outruns it
            self.query_one("#a-kind", Checkbox).value = chosen.kind == PC
        self.run_worker(self._sheet_fields(), group="sheet")

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self._take(event.option_index)

    @on(Checkbox.Changed, "#a-kind")
    async def _kind(self, event: Checkbox.Changed) -> None:
        """The GM toggled the kind: its sheet's fields.  Read from the toggle as it is now, since a preset
        shown since may have set it again (the message of an older change says an older value)."""
        event.stop()
        kind = PC if self.query_one("#a-kind", Checkbox).value else NPC
        if kind != self.kind:
            self.kind = kind
            self._said_of_another_sheet()
            await self._sheet_fields()

    def _said_of_another_sheet(self) -> None:
        """Another preset or kind is shown: a refusal said of the last one goes (it stayed beside the new sheet
        as if said of it); a damaged library is still said."""
        show(self.query_one("#error", Static), self.library_problem)

    def command(self) -> C.AddCombatant:
        count_text = self.query_one("#a-count", Input).value.strip() or "1"
        try:
            count = whole_number(count_text)
        except ValueError:
            raise Refused(f"Count: '{count_text}' is not a whole number") from None
        sheet: dict[str, Any] = {}
        names = {field_id("s", p.name): p.name for p in self._fields()}
        for w in self._sheet_widgets():
            name = names.get(str(w.id))
            if name is None:  # (a field of the other kind's sheet, being replaced)
                continue
            if isinstance(w, Input) and w.value.strip():
                sheet[name] = w.value.strip()
            elif isinstance(w, Cycle) and w.value is not None:
                sheet[name] = w.value
            elif isinstance(w, YesNo):
                sheet[name] = "yes" if w.value else "no"
        kind = PC if self.query_one("#a-kind", Checkbox).value else NPC
        hidden = self.query_one("#a-hidden", Checkbox).value
        return C.AddCombatant(
            hidden=hidden,
            name=self.query_one("#a-name", Input).value.strip(),
            kind=kind,
            group=self.query_one("#a-group", Input).value.strip() or None,
            sheet=sheet,
            preset=self.preset.id if self.preset is not None else None,
            count=count,
        )

    def _sheet_widgets(self) -> list[Any]:
        """The sheet's fields (typed, pickers, toggles), in order, each with its ``field_id("s", name)``."""
        return [w for w in self.query("#sheet *") if w.id and w.id.startswith("s-")]

    def action_submit(self) -> None:
        try:
            result = self.check(self.command())
        except TrackerError as e:
            fields = self._fields()
            self.query_one("#error", Static).update(visible(with_label(str(e), fields, labels_for(fields))))
            self.app.bell()
            return
        except Exception as e:  # a plug-in bug must not crash the app
            self.query_one("#error", Static).update(f"{type(e).__name__}: {e}")
            return
        self.dismiss(result)

    def action_to_list(self) -> None:
        if self.focused is self.query_one("#filter"):
            self.set_focus(self.query_one(OptionList))
        else:
            self.focus_next()

    def action_cancel(self) -> None:
        self.dismiss(None)

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        if event.input.id != "filter":
            event.stop()
            self.action_submit()

    @on(Button.Pressed, "#ok")
    def _ok(self) -> None:
        self.action_submit()

    @on(Button.Pressed, "#cancel")
    def _cancel(self) -> None:
        self.action_cancel()
