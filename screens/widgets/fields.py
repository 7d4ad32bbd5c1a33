"""Form fields for the fight's commands: combatants are chosen from a list, never typed.

- :class:`CombatantSelect`: one combatant (a drop-down; typing a name's letters
  picks it, space or ↓ opens the list);
- :class:`TargetList`: several combatants, each toggled with space; ``+``/``-``
  repeat a target (Gun-play, two shots at one foe); typing letters jumps;
- :class:`ChoiceSelect`: one of a few words;
- :class:`YesNo`: a checkbox that shows its state by a mark and a word, not
  only by colour;
- :class:`TextField`: Textual's Input, its own keys acting in order with its letters.

Out-of-the-fight combatants are offered with their state word ("Outlaw 2 · dead"), and those hidden from the
players with the table's mark ("Outlaw (hidden)").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Checkbox, Input, OptionList
from textual.widgets.option_list import Option

from screens.widgets.initiative import HIDDEN_TAG, cut_middle
from screens.widgets.paging import page
from tracker.text import visible

TYPE_RESET = 1.0  # seconds between letters before a new search starts
TAGS = re.compile(r"(?: \(hidden\))?(?: · [^·]+)?$")  # what follows a combatant's name in its label


def fit_label(label: str, width: int) -> str:
    """An option's label in ``width`` columns, cut as the fight table cuts a name: in its middle, keeping a
    group member's number, "(hidden)" and the state word ("Extraordinarily Lo… 3 · dead").  Cut from the end
    with no ellipsis, every member of a group read the same in a form's Who and Target."""
    if len(label) <= width:
        return label
    tags = TAGS.search(label)
    start = tags.start() if tags else len(label)
    return cut_middle(label[:start], label[start:], width)


def field_id(prefix: str, name: str) -> str:
    """The widget id of the field for the parameter ``name``: ``prefix-name`` where that is a valid Textual id
    (a record's field name is), else the name spelled in hex after ``prefix--``.  A parameter's name may be any
    text (a plug-in's adjust field: bnb names a gun's shots ``shots:heavy pistol``), and Textual refuses an id
    with a colon or a space: the form crashed the app as it opened.  The two spellings never meet: a name of
    the first has no hyphen."""
    if re.fullmatch(r"[A-Za-z0-9_]+", name):
        return f"{prefix}-{name}"
    return f"{prefix}--{name.encode().hex()}"


class TextField(Input):
    """Textual's Input, whose own keys (the arrows, Backspace, Delete, Home, End, the suggestion's →) act where
    its letters do: in its own queue, as it reads them.

    Textual runs an Input's bindings in the app, once the key has come back up to it through the field's
    parents; the keys behind it do not wait.  Sent at once (typed on while the app is busy, a paste, SSH), a
    bound key then acted after the Enter read behind it: ``soak→⏎`` recorded "soak", not the suggestion the
    arrow takes; ``-12⌫⏎`` did not record 1.  A dialog's Enter waits for the keys before it to reach its field
    (``screens.dialogs.base.taken``), so here they have all acted by then.
    """

    OWN_KEYS = {b.key: b.action for b in Binding.make_bindings(Input.BINDINGS) if b.key != "enter"}

    async def on_key(self, event: events.Key) -> None:
        action = self.OWN_KEYS.get(event.key)
        if action is not None:
            event.stop()
            event.prevent_default()
            await self.run_action(action)


@dataclass(frozen=True)
class Choice:
    """A combatant as a form offers it: id, name, the state word (empty when fit to fight) and whether it is
    hidden from the players (marked as the table marks it: "Outlaw (hidden)", "Spy (hidden) · dead"; a word in
    brackets, so a letter typed to find "Hero" is not taken by "hidden")."""

    id: str
    name: str
    word: str = ""
    out: bool = False
    hidden: bool = False

    @property
    def label(self) -> str:
        return visible(self.name) + (HIDDEN_TAG if self.hidden else "") + (f" · {self.word}" if self.word else "")


def _find(labels: Sequence[str], query: str, start: int) -> int | None:
    """The first label from ``start`` (wrapping) whose words start with ``query``, else containing it."""
    q = query.lower()
    order = list(range(start, len(labels))) + list(range(0, start))
    for n in order:
        if any(w.startswith(q) for w in labels[n].lower().split()) or labels[n].lower().startswith(q):
            return n
    for n in order:
        if q in labels[n].lower():
            return n
    return None


class _TypeToFind:
    """Letters typed on a closed list pick the option they name: those typed within a second are one search,
    and a key that continues no search starts a new one ("9" on five levels, then "2": the "2" is its own).

    Once a search names no option, a letter typed within the second goes on with it and names none either:
    "abc" on zludge's damage levels is "no option 'abc'", never a "c" that starts afresh on Comatose.  A digit
    still starts afresh (a place number), and so does any key after a pause or Backspace.
    """

    _query = ""
    _last = 0.0
    _lost = False  # the search so far names no option

    def _typed(self, event: events.Key, labels: Sequence[str], start: int, places: int = 0) -> int | None:
        """The option the typed text picks, or None; ``places``: that many options, and a number no option
        says picks the option at that place (the n of the n/N a one-line picker shows)."""
        if event.character is None or not event.is_printable or event.character in " +-":
            return None
        now = event.time
        going_on = now - self._last < TYPE_RESET
        typed = (self._query if going_on else "") + event.character
        self._last = now
        afresh = not (going_on and self._lost) or event.character.isdigit()
        for query in dict.fromkeys((typed, event.character) if afresh else (typed,)):  # so far, else this key
            found = _find(labels, query, start)
            if found is None and places and query.isdigit() and 1 <= int(query) <= places:
                found = int(query) - 1
            if found is not None:
                self._query, self._lost = query, False
                return found
        self._query, self._lost = typed, True
        return None


class Choices(OptionList):
    """An option list whose PageUp/PageDown never fail on options just replaced (Textual's can).

    Its keys (and those of every field below) are priority bindings: each acts as it is read, in order with
    Enter, which the screens and forms also handle as it is read.  A widget's own bindings act only once the
    key has come back up from it, and Enter would already have taken the option, value or row shown before:
    ``↓⏎`` or ``→⏎`` sent at once (keys typed on while the app is busy, a paste, SSH) took the one before
    the arrow.  A priority binding of a widget applies only while it has the focus.
    """

    BINDINGS = [
        Binding("up", "cursor_up", "Up", show=False, priority=True),
        Binding("down", "cursor_down", "Down", show=False, priority=True),
        Binding("home", "first", "First", show=False, priority=True),
        Binding("end", "last", "Last", show=False, priority=True),
        Binding("pageup", "page(-1)", "Page up", show=False, priority=True),
        Binding("pagedown", "page(1)", "Page down", show=False, priority=True),
    ]

    def action_page(self, direction: int) -> None:
        page(self, direction)


MISSED_LABEL_MIN = 6  # the fewest columns of the option shown beside a "no option" message (else it is left out)


class Cycle(_TypeToFind, Widget, can_focus=True):
    """One value of a few (or one combatant of many) on one line: ←/→ or space step, letters jump, a number
    no option says jumps to that place (the n of the n/N shown).

    Lighter than a drop-down (one widget, no overlay), so a form opens at once;
    Enter is the form's.  ``value`` is the chosen value (None: nothing chosen).
    ``missed``: what the GM typed that names no option ("zz"), shown on the line
    until a step, a match or Backspace; the form does not submit over it (the
    GM meant some option, and it is not the one shown).
    """

    missed = ""

    DEFAULT_CSS = """
    Cycle { height: 1; width: 1fr; background: $boost; padding: 0 1; }
    Cycle:focus { background: $primary 30%; }
    """
    BINDINGS = [  # (priority: see Choices)
        Binding("left,up", "step(-1)", "Previous", show=False, priority=True),
        Binding("right,down,space", "step(1)", "Next", show=False, priority=True),
        Binding("home", "first", "First", show=False, priority=True),
        Binding("end", "last", "Last", show=False, priority=True),
    ]

    @dataclass
    class Changed(Message):
        cycle: Cycle

    def __init__(
        self,
        options: Sequence[tuple[str, Any]],
        value: Any = None,
        *,
        blank: bool = False,
        dim: Iterable[Any] = (),
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self._set_options(options, value, blank=blank, dim=dim)

    def _set_options(self, options: Sequence[tuple[str, Any]], value: Any, *, blank: bool, dim: Iterable[Any]) -> None:
        self.options: list[tuple[str, Any]] = ([("—", None)] if blank else []) + list(options)
        self.dim = set(dim)
        values = [v for _label, v in self.options]
        self.index = values.index(value) if value in values else (0 if blank or not self.options else -1)
        self.missed = ""

    def reset(
        self, options: Sequence[tuple[str, Any]], value: Any = None, *, blank: bool = False, dim: Iterable[Any] = ()
    ) -> None:
        """Offer these options, with ``value`` chosen (a form opened again)."""
        self._set_options(options, value, blank=blank, dim=dim)
        self.refresh()

    @property
    def value(self) -> Any:
        return self.options[self.index][1] if 0 <= self.index < len(self.options) else None

    def render(self) -> Text:
        if self.missed:
            return self._missed_line()
        if not 0 <= self.index < len(self.options):
            text = Text("choose: ← → or type", style="dim")
        else:
            label, value = self.options[self.index]
            room = self.content_size.width - 4  # (within "‹ " and " ›"; 0 before the first layout: not cut)
            hint = ""
            if self.has_focus and len(self.options) > 1 and not self.missed:
                place = f"  {self.index + 1}/{len(self.options)}"
                # the label whole first, then the place, then how to change it
                hint = next((h for h in (place + " · ← → or type", place) if len(label) + len(h) <= room), "")
            if room > 0:
                label = fit_label(label, room - len(hint))
            text = Text.assemble(("‹ ", "dim"), (label, "dim" if value in self.dim else "bold"), (" ›", "dim"))
            if hint:
                text.append(hint, style="dim")
        return text

    def _missed_line(self) -> Text:
        """What was typed names no option: said whole in the room the field has, how to choose after it, and the
        option shown before them when there is room for it (cut no shorter than :data:`MISSED_LABEL_MIN`).

        At 80 columns a form's picker has about 34 columns: the option shown, then "no option 'y' · ← → or", cut
        there ("type" lost).  The message comes first: the option shown is not the one the GM meant
        (tests/ui/test_gm_meant_round3.py::test_a_letter_that_names_no_option_is_said_whole_at_80_columns)."""
        said = f"no option '{visible(self.missed)}'"
        how = " · ← → or type"
        width = self.content_size.width or 1_000  # (0 before the first layout: nothing cut)
        if len(said) + len(how) > width:
            how = " · ← →" if len(said) + len(" · ← →") <= width else ""
            said = fit_label(said, width - len(how)) if len(said) + len(how) > width else said
        message = Text.assemble((said, "bold red"), (how, "dim"))
        room = width - len(message) - len("‹  ›  ")
        if 0 <= self.index < len(self.options) and room >= MISSED_LABEL_MIN:
            label, value = self.options[self.index]
            style = "dim" if value in self.dim else "bold"
            return Text.assemble(("‹ ", "dim"), (fit_label(label, room), style), (" ›  ", "dim"), message)
        return message

    def _move_to(self, index: int) -> None:
        if self.missed:
            self.missed = ""
            self.refresh()
        if self.options and index != self.index:
            self.index = index % len(self.options)
            self.refresh()
            self.post_message(self.Changed(self))

    def action_step(self, step: int) -> None:
        self._move_to((self.index if self.index >= 0 else -step) + step)

    def action_first(self) -> None:
        self._move_to(0)

    def action_last(self) -> None:
        self._move_to(len(self.options) - 1)

    def on_key(self, event: events.Key) -> None:
        # a number no option says picks the option at that place ("2" on blackjack's injury levels: moderate);
        # an option that says it wins (zludge's "2" level)
        if event.key == "backspace" and self.missed:
            event.stop()
            event.prevent_default()
            self.missed = self._query = ""
            self._lost = False
            self.refresh()
            return
        found = self._typed(event, [label for label, _v in self.options], max(self.index, 0), len(self.options))
        if found is not None:
            event.stop()
            event.prevent_default()
            self._move_to(found)
        elif event.character is not None and event.is_printable and event.character not in " +-":
            self.missed = self._query  # (the key goes on: a binding of the form's still answers it)
            self.refresh()

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()


def combatant_options(choices: Sequence[Choice]) -> tuple[list[tuple[str, str]], list[str]]:
    """A combatant chooser's options (label, id), and the ones shown dimmed (out of the fight)."""
    return [(c.label, c.id) for c in choices], [c.id for c in choices if c.out]


def combatant_cycle(choices: Sequence[Choice], value: str | None, *, blank: bool, id: str | None = None) -> Cycle:
    options, dim = combatant_options(choices)
    return Cycle(options, value, blank=blank, dim=dim, id=id)


class TargetList(_TypeToFind, Choices):
    """Several combatants; a count per combatant so one can be chosen more than once."""

    BINDINGS = [  # (priority: see Choices)
        Binding("space", "choose", "Choose", show=False, priority=True),
        Binding("plus,right", "more", "Once more", show=False, priority=True),
        Binding("minus,left", "fewer", "Once fewer", show=False, priority=True),
    ]
    DEFAULT_CSS = """
    TargetList { height: auto; max-height: 6; }
    """

    @dataclass
    class Changed(Message):
        target_list: TargetList

    def __init__(
        self, choices: Sequence[Choice], chosen: Iterable[str] = (), *, repeat: bool = True, id: str | None = None
    ) -> None:
        self.choices = list(choices)
        self.repeat = repeat
        self.counts = self._counted(chosen)
        super().__init__(*[Option(self._prompt(c)) for c in self.choices], id=id, compact=True)
        self._fit()

    def _fit(self) -> None:
        """Six lines at most, fewer for a few combatants: a height set here, so a layout never measures every
        option (a hundred combatants made each layout of a form render all hundred lines to count them).
        A long name with its state word may take two lines in a form's field (about 40 columns)."""
        lines = 0
        for c in self.choices[:6]:
            lines += 2 if len(c.label) + 4 > 40 else 1
        self.styles.height = min(max(lines, 1), 6)

    def _counted(self, chosen: Iterable[str]) -> dict[str, int]:
        counts: dict[str, int] = {}
        for cid in chosen:
            if any(c.id == cid for c in self.choices):
                counts[cid] = counts.get(cid, 0) + 1 if self.repeat else 1
        return counts

    def reset(self, choices: Sequence[Choice], chosen: Iterable[str] = ()) -> None:
        """Offer these combatants, with ``chosen`` chosen (a form opened again): only the lines that differ
        from what the list shows are drawn again."""
        before = [self._prompt(c) for c in self.choices]
        self.choices = list(choices)
        self.counts = self._counted(chosen)
        after = [self._prompt(c) for c in self.choices]
        if len(after) != len(before):
            self.clear_options()
            self.add_options([Option(p) for p in after])
            self._fit()
        else:
            for n, (old, new) in enumerate(zip(before, after, strict=True)):
                if old != new:
                    self.replace_option_prompt_at_index(n, new)
        self._highlight_first_chosen()

    def _prompt(self, c: Choice) -> Text:
        n = self.counts.get(c.id, 0)
        box = "[ ]" if n == 0 else ("[x]" if n == 1 else f"[{n}]")
        return Text.assemble((box + " ", "bold"), (c.label, "dim" if c.out and not n else ""))

    def on_mount(self) -> None:
        self._highlight_first_chosen()

    def _highlight_first_chosen(self) -> None:
        first = next((n for n, c in enumerate(self.choices) if c.id in self.counts), 0)
        if self.choices:
            self.highlighted = first

    @property
    def value(self) -> tuple[str, ...]:
        """The chosen ids in list order, each as often as it is chosen."""
        return tuple(c.id for c in self.choices for _ in range(self.counts.get(c.id, 0)))

    def _set(self, n: int, count: int) -> None:
        c = self.choices[n]
        if count <= 0:
            self.counts.pop(c.id, None)
        else:
            self.counts[c.id] = count if self.repeat else 1
        self.replace_option_prompt_at_index(n, self._prompt(c))
        self.post_message(self.Changed(self))

    def action_choose(self) -> None:
        n = self.highlighted
        if n is not None:
            self._set(n, 0 if self.counts.get(self.choices[n].id) else 1)

    def action_more(self) -> None:
        n = self.highlighted
        if n is not None:
            self._set(n, self.counts.get(self.choices[n].id, 0) + 1)

    def action_fewer(self) -> None:
        n = self.highlighted
        if n is not None:
            self._set(n, self.counts.get(self.choices[n].id, 0) - 1)

    def on_key(self, event: events.Key) -> None:
        found = self._typed(event, [c.label for c in self.choices], self.highlighted or 0)
        if found is not None:
            event.stop()
            event.prevent_default()
            self.highlighted = found

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()  # Enter submits the form (the dialog's binding); a click toggles
        self.action_choose()


class YesNo(Checkbox):
    """A checkbox that says yes or no after its label (its mark alone differs only by colour)."""

    BINDINGS = [Binding("space", "toggle_button", "Toggle", show=False, priority=True)]  # (see Choices)

    def __init__(self, label: str, value: bool, *, id: str | None = None) -> None:
        self.base_label = label
        super().__init__(self._said(value), value, id=id, compact=True)
        self.BUTTON_INNER = "X" if value else " "  # off draws nothing in the box, not a dim X

    def watch_value(self) -> None:
        self.BUTTON_INNER = "X" if self.value else " "
        super().watch_value()

    def _said(self, value: bool) -> Text:
        word = ("yes" if value else "no", "bold")
        return Text.assemble(self.base_label + ": ", word) if self.base_label else Text.assemble(word)

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        if event.checkbox is self:
            self.label = self._said(event.value)
