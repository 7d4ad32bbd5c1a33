"""The initiative list: who is up, who is down, who is under what, one row per combatant.

Columns: the current turn (▶), the GM's mark (●), name, initiative (a tie still
tied ends in "=", "9="; a tie broken says each one's place in it, "8·1", "8·2"), the state
word (dead, unconscious, dying, fled, held…: never cut), the system's status
and the conditions with rounds left.  Columns are measured from the content and
the width on every change, so they grow and shrink with it; long text is
clipped with an ellipsis.  The status (its main numbers first) gets its room
before the conditions, which keep a dozen columns ("Blessed (2r) +2", "4
conditions").  Rows of combatants out of the fight are dimmed.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from typing import Any, ClassVar, NamedTuple

from rich.cells import cell_len, set_cell_size
from rich.padding import Padding
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from screens.guard import call
from screens.keys import initiative_words
from tracker.explain import standing as core_standing
from tracker.model import Combatant, FightState
from tracker.plugin import Standing, System
from tracker.text import visible

COLUMNS = (
    ("turn", ""),
    ("mark", ""),
    ("name", "Name"),
    ("init", "Init"),
    ("state", "State"),
    ("status", "Status"),
    ("conditions", "Conditions"),
)
KEYS = tuple(k for k, _ in COLUMNS)
ELLIPSIS = "…"
OUT = Style(bold=True, color="red3")  # a word that takes the combatant out of the fight
AT_RISK = Style(bold=True, color="dark_orange3")  # dying, held…: still in, but mind it
DIM = Style(dim=True)
BOLD = Style(bold=True)
MARK = Style(bold=True, color="dark_cyan")
NO_STYLE = Style()
HIDDEN_TAG = " (hidden)"  # after the name of a combatant hidden from the players (also in italics)
PC_TAG = " (PC)"  # after the name of a player character
NUMBER = re.compile(r" \d+$")  # a group member's number, after the group's name: "Desperado 3"
TIE_MARK = "·"  # between an initiative and the place in it of a combatant whose tie was broken: "8·1", "8·2"


def tie_places(state: FightState) -> dict[str, tuple[int, int]]:
    """Where each combatant whose initiative equals another's, but whose tie was broken (it is in no group still
    tied: ``state.ties``), stands among those on that initiative, and how many they are: ``(1, 3)``, the first
    of three on 8.  The place is the order's (the system sorted it by its tiebreak: a reroll, DEX…); equal
    numbers in an order nothing explained were all the GM saw of a tie rerolled."""
    tied = {cid for group in state.ties for cid in group}
    by_id = {c.id: c for c in state.combatants}
    same: dict[int, list[str]] = {}
    for cid in state.order:
        c = by_id.get(cid)
        if c is not None and c.initiative is not None and not c.removed:
            same.setdefault(c.initiative, []).append(cid)
    places: dict[str, tuple[int, int]] = {}
    for ids in same.values():
        if len(ids) > 1:
            for n, cid in enumerate(ids, 1):
                if cid not in tied:
                    places[cid] = (n, len(ids))
    return places


def status_line(system: System, state: FightState, c: Combatant) -> str:
    """The system's one-line status of a combatant (numbers first, equipment last)."""
    return visible(call(system.status, state, c, default="(status unavailable)"))


def standing(system: System, state: FightState, c: Combatant) -> Standing:
    """The word the table shows: :func:`tracker.explain.standing` (the system's standing, or the core's own words
    for a held or departed combatant; Why? explains the same word), a failing plug-in's word counted as none."""
    return core_standing(system, state, c, default=Standing())


def conditions_text(state: FightState, c: Combatant) -> str:
    return ", ".join(visible(x.describe(state)) for x in c.conditions)


def clip(text: str, width: int) -> str:
    """``text`` cut to ``width`` columns with an ellipsis."""
    if width <= 0:
        return ""
    if len(text) <= width:
        return text
    return text[: width - 1].rstrip() + ELLIPSIS


def fitted_cell(cell: Text, width: int) -> list[Segment] | None:
    """``cell`` fitted to ``width`` columns on one line as Rich draws it (``console.render_lines`` of it in a
    ``Padding`` of nothing, without wrapping), made directly: Rich's whole layout machinery costs about a
    millisecond a row, most of what drawing the list's first frame costs.  None where this does not
    apply (several styles, another justification or a style named by a string, a character that is not
    printable, a text too long that would wrap, no room): draw it with Rich.

    Rich's own rules kept: a cut text ends in an ellipsis at ``width`` cells (wide characters counted as
    two, a half one padded); an empty text shows no segment of its own unless it has no style; the rest
    of the width is spaces with no style.  (tests/ui/test_row_drawing.py compares both ways.)
    """
    style = cell.style
    if not (style == "" or isinstance(style, Style)) or cell.spans or cell.justify not in (None, "default", "left"):
        return None
    plain = cell.plain
    if width <= 0 or cell.end != "\n" or not plain.isprintable():
        return None
    length = cell_len(plain)
    if length > width:
        if not (cell.no_wrap and cell.overflow == "ellipsis"):
            return None
        plain = set_cell_size(plain, width - 1) + ELLIPSIS
        length = cell_len(plain)
    shown = style if isinstance(style, Style) and style else None  # a style that changes nothing is no style
    segments = [Segment(plain, shown)] if plain or shown is None else []
    if length < width:
        segments.append(Segment(" " * (width - length), NO_STYLE))
    return segments


def fit_conditions(state: FightState, c: Combatant, width: int) -> str:
    """As many conditions (with rounds left) as fit, then how many more: "Blessed (2r) +2"."""
    full = conditions_text(state, c)
    if len(full) <= width:
        return full
    parts = [visible(x.describe(state)) for x in c.conditions]
    for n in range(len(parts) - 1, 0, -1):
        text = ", ".join(parts[:n]) + f" +{len(parts) - n}"
        if len(text) <= width:
            return text
    count = f"{len(parts)} conditions" if len(parts) > 1 else parts[0]
    return clip(count, width)


class Row(NamedTuple):
    """What one row says, before it is fitted to the column widths."""

    current: bool
    marked: bool
    name: str
    init: str
    word: str
    out: bool
    status: str
    conditions: str
    hidden: bool
    pc: bool = False


def row_for(
    system: System,
    state: FightState,
    c: Combatant,
    marked: bool = False,
    tied: Collection[str] | None = None,
    places: Mapping[str, tuple[int, int]] | None = None,
) -> Row:
    """``tied``: everyone in a tie for initiative, and ``places``: :func:`tie_places`, when the caller has worked
    them out once for every row.  The initiative of a tie still tied ends in "=" ("9="), that of a tie broken
    says its place in it ("8·1", "8·2")."""
    stand = standing(system, state, c)
    init = "" if c.initiative is None else str(c.initiative)
    if c.id in tied if tied is not None else state.tied_with(c.id):
        init += "="
    elif init:
        place = (tie_places(state) if places is None else places).get(c.id)
        if place is not None:
            init += f"{TIE_MARK}{place[0]}"
    name = visible(c.name) + (PC_TAG if c.is_pc else "") + (HIDDEN_TAG if c.hidden else "")
    return Row(
        current=state.current == c.id,
        marked=marked,
        name=name,
        init=init,
        word=visible(stand.word),
        out=stand.out,
        status=status_line(system, state, c),
        conditions=conditions_text(state, c),
        hidden=c.hidden,
        pc=c.is_pc,
    )


def cut_middle(name: str, tags: str, width: int) -> str:
    """``name`` then ``tags`` in ``width`` columns, cut in the middle of the name: its trailing number (a group
    member's) and the tags are kept whole, "Extraordinarily… 3 (PC)".  Members of a group cut from the end all
    read the same ("Extraordinarily Lo…" six times): the GM could not tell which one took the damage.  Where even
    that leaves no letter of the name, the whole is cut from the end."""
    text = name + tags
    if len(text) <= width:
        return text
    number = NUMBER.search(name)
    head, tail = (name[: number.start()], name[number.start() :] + tags) if number else (name, tags)
    room = width - len(tail)
    if room < 2 or not head.strip():
        return clip(text, width)
    return clip(head, room) + tail


def fit_name(row: Row, width: int) -> Row:
    """A name cut in its middle, never its number nor its tags: "Sergeant Ba… (hidden)", "Extraordinarily… 3",
    "Bartholomew Fe… (PC)" (see :func:`cut_middle`; tests/ui/test_names_fit.py)."""
    if len(row.name) <= width:
        return row
    tags = (PC_TAG if row.pc else "") + (HIDDEN_TAG if row.hidden else "")
    if not row.name.endswith(tags):
        tags = ""
    return row._replace(name=cut_middle(row.name[: len(row.name) - len(tags)], tags, width))


class Widths(NamedTuple):
    name: int
    init: int
    state: int
    status: int
    conditions: int
    natural: int = 0  # the columns the rows need to be shown uncut


def measure(rows: Collection[Row], width: int, init_label: str = "Init") -> Widths:
    """Column widths for these rows in ``width`` columns; each text column has one space before it.

    The initiative column (headed ``init_label``) shows only once a row has a number in it, as the
    conditions' column does once a row has a condition: blank, it took five columns from the statuses at
    80×24 (blackjack's order has no numbers unless the GM sets them; the other systems' before initiative
    is rolled).  Ruling, tests/ui/test_init_column.py.

    The name keeps to a quarter of the width (30 at most) while the statuses and conditions need the room;
    in room no row's status nor conditions use (a wide window), it grows to show the names whole.  ``natural``
    is measured with the name so kept (what the list asks of the screen is the same)."""
    name_cap = max(10, min(30, width // 4))
    longest = max([len(r.name) for r in rows] + [4])
    name = min(longest, name_cap)
    init = max([len(r.init) for r in rows] + [0])
    if init:
        init = max(init, len(init_label))
    init_room = init + 1 if init else 0
    state = max([len(r.word) for r in rows] + [5])
    status_max = max([len(r.status) for r in rows] + [0])
    cond_max = max([len(r.conditions) for r in rows] + [0])
    natural = 1 + 2 + name + init_room + (state + 2) + status_max + (cond_max + 2 if cond_max else 0)
    if natural < width and name < longest:
        name += min(width - natural, longest - name)
    fixed = 1 + 2 + name + init_room + (state + 2)
    rest = max(width - fixed, 0)
    if cond_max == 0:
        return Widths(name, init, state, rest, 0, natural)
    if status_max + 1 + cond_max + 1 <= rest:
        conditions = cond_max
    else:  # the status first (its numbers lead it), the conditions what is left but a dozen columns
        conditions = min(cond_max, max(rest - status_max - 2, min(cond_max, 12)))
    conditions = max(min(conditions, rest - 2), 0)
    return Widths(name, init, state, max(rest - conditions - 1, 0), conditions, natural)


class InitiativeList(ScrollView, can_focus=True):
    """The list itself: a header line, then a line per combatant, keyed by id, under a row cursor.

    Not Textual's ``DataTable``, for behaviours it lacks (#44 item 5, space at
    80×24): the PCs and whoever's turn it is stay in view however long the list
    (pinned under a scrolling window of the others, :meth:`placed`), and a row
    with no condition gives the conditions' room to its status.  Otherwise it
    looks and answers as a DataTable with a row cursor does (its theme styles,
    hover, click targets).  Drawn line by line (Textual's line API): a change of
    one combatant draws its line again, nothing else.

    Keys: up/down, PgUp/PgDn (a page), Home/End (the first and the last row;
    also ctrl+Home/ctrl+End).  A click selects a row, a double click chooses it
    (:class:`Chosen`); the wheel scrolls the rows.  Read-only use (the replay screen): call
    :meth:`show` with any state.
    """

    # priority, as the fight screen's keys are: handled as each key is read, in order with them, so ``↓-1⏎``
    # sent at once (typed on while the screen is busy, a paste, SSH) harms the row the arrow moved to; a widget's
    # own bindings wait for the key to come back from it, and the fight's ``-`` had taken the row before
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "cursor(-1)", "Cursor up", show=False, priority=True),
        Binding("down", "cursor(1)", "Cursor down", show=False, priority=True),
        Binding("pageup", "page(-1)", "Page up", show=False, priority=True),
        Binding("pagedown", "page(1)", "Page down", show=False, priority=True),
        Binding("home,ctrl+home", "first", "First", show=False, priority=True),
        Binding("end,ctrl+end", "last", "Last", show=False, priority=True),
    ]
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "initiative-list--header",
        "initiative-list--cursor",
        "initiative-list--hover",
    }
    # DataTable's looks for what the list shows (the theme's cursor, header and hover colours)
    DEFAULT_CSS = """
    InitiativeList {
        height: 1fr; scrollbar-size-vertical: 1;
        background: $surface;
        color: $foreground;
        &:focus {
            background-tint: $foreground 5%;
            & > .initiative-list--cursor {
                background: $block-cursor-background;
                color: $block-cursor-foreground;
                text-style: $block-cursor-text-style;
            }
            & > .initiative-list--header { background-tint: $foreground 5%; }
        }
        & > .initiative-list--header { text-style: bold; background: $panel; color: $foreground; }
        &:ansi > .initiative-list--header { background: ansi_bright_blue; color: ansi_default; }
        & > .initiative-list--cursor {
            background: $block-cursor-blurred-background;
            color: $block-cursor-blurred-foreground;
            text-style: $block-cursor-blurred-text-style;
        }
        & > .initiative-list--hover { background: $block-hover-background; }
    }
    """

    class _About(Message):
        """A message about a row of the list (``cid``: its combatant)."""

        def __init__(self, table: InitiativeList, cid: str | None) -> None:
            super().__init__()
            self.table = table
            self.cid = cid

        @property
        def control(self) -> InitiativeList:
            return self.table

    class Highlighted(_About):
        """The selection moved to another combatant (``cid``; None: the list is empty)."""

    class Chosen(_About):
        """A row was double-clicked (as Enter on it)."""

    def __init__(self, system: System, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.system = system
        self.marked: tuple[str, ...] = ()
        self.cursor_row = 0
        self.hover_row = -1  # the row under the mouse (-1: none, or a key was pressed since)
        self._rows: list[str] = []
        self.wanted = 0  # the columns the list needs to show every row uncut
        self.fold_fallen = False  # the fallen (out of the fight, not a PC, not up) folded away: see folded
        self.folded: tuple[str, ...] = ()  # the names of the fallen folded away
        self._pinned: tuple[int, ...] = ()  # the rows kept in view: the PCs', and the current combatant's
        self._keys: dict[str, tuple[tuple[str, str], ...]] = {}
        self._cells: dict[str, tuple[Text, ...]] = {}  # each row's cells
        self._widths: Widths | None = None
        self._sizes: tuple[int, ...] = ()  # each column's width on screen
        self._labels: tuple[Text, ...] = ()  # the header's cells
        self._made: dict[tuple[Row, str], tuple[tuple[Text, ...], tuple[tuple[str, str], ...]]] = {}  # cells of rows
        self._state: FightState | None = None
        self._width = 0
        self._lines: dict[tuple[Any, ...], Strip] = {}  # drawn lines, by what they show (see render_line)
        self._look: tuple[Any, ...] | None = None  # what every line's drawing depends on, during render_lines
        self._look_ids: dict[tuple[Any, ...], int] = {}  # each look the lines in _lines were drawn in
        self._fitted: dict[tuple[Any, ...], list[Segment]] = {}  # a cell's text fitted to a width
        self._set_columns(Widths(4, 4, 5, 20, 0))

    # -- what it shows ---------------------------------------------------------
    @property
    def selected(self) -> str | None:
        if not 0 <= self.cursor_row < len(self._rows):
            return None
        return self._rows[self.cursor_row]

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(self._rows)

    @property
    def widths(self) -> tuple[int, ...]:
        """Each column's width on screen: turn, mark, name, init, state, status, conditions (0: not shown)."""
        return self._sizes

    def cells(self, cid: str) -> tuple[Text, ...]:
        """The cells of ``cid``'s row, one per column, before they are fitted to the columns' widths."""
        return self._cells[cid]

    @property
    def shown_rows(self) -> int:
        """How many rows the list has room for under its header."""
        return max(self.scrollable_content_region.height - 1, 0)

    def placed(self, top: int | None = None) -> tuple[int, list[int]]:
        """How many rows scroll under the header from row ``top`` (the view's, if None), and the pinned rows out
        of that window drawn under it: the PCs and whoever's turn it is stay in view, however long the list."""
        top = round(self.scroll_y) if top is None else top
        shown = self.shown_rows
        if len(self._rows) <= shown or not self._pinned:
            return shown, []
        window, below = shown, []
        for _ in range(len(self._pinned) + 1):
            below = [i for i in self._pinned if not top <= i < top + window]
            fits = max(shown - len(below), 1)
            if fits == window:
                break
            window = fits
        return window, below[: shown - window]

    def _refresh_row(self, index: int) -> None:
        """Draw row ``index`` again (the whole list while pinned rows are drawn under the window)."""
        if self.placed()[1]:
            self.refresh()
        else:
            self.refresh_lines(index + 1)

    def on_resize(self) -> None:
        if self._state is not None and self._content_width(len(self._rows)) != self._width:
            self.show(self._state)
        elif self.virtual_size.height != self._height():
            self.virtual_size = Size(self.virtual_size.width, self._height())

    def _fits(self, rows: int) -> bool:
        """Whether ``rows`` rows fit under the header: measured on the whole box, not within the scrollbars (a
        list that fits would not, once they showed)."""
        return rows <= self.size.height - 1

    def _height(self) -> int:
        """The lines to scroll: the header and the rows, and, when they do not all fit, room to scroll the last
        rows into the window over the pinned (with it while all fit, a list that fit its box had a scrollbar)."""
        rows = len(self._rows)
        return rows + 1 + (0 if self._fits(rows) else len(self._pinned))

    def _content_width(self, rows: int) -> int:
        """The columns for the rows: the box's, less the scrollbar's when ``rows`` rows do not all fit (it shows
        then), whether or not it shows yet."""
        width = self.size.width - (0 if self._fits(rows) else self.styles.scrollbar_size_vertical)
        return width if width > 0 else 80

    # -- the cursor ------------------------------------------------------------
    def select(self, cid: str | None) -> None:
        """Put the cursor on ``cid`` (the turn passing to it, or the list rebuilt).

        When it is outside the rows in view, or in the last one with someone after it, the view moves first
        so that it stands a quarter of the way down, with those who come next below it: the GM always sees
        who is next, and a long fight's turn passing down the list moves the view about once a page, not one
        row at every turn (which drew every row in view again).
        """
        before = self.selected
        self._select(cid)
        self._tell(before)

    def move_cursor(self, row: int, keep_view: bool = False) -> None:
        """Put the cursor on ``row`` (kept within the rows) and keep it in view (``keep_view``: it is in view,
        a pinned row under the window clicked; the view stays)."""
        before = self.selected
        self._move(row, keep_view)
        self._tell(before)

    def _tell(self, before: str | None) -> None:
        if self.selected != before:
            self.post_message(self.Highlighted(self, self.selected))

    def _select(self, cid: str | None) -> None:
        if cid not in self._rows:
            return
        row = self._rows.index(cid)
        shown = self.shown_rows
        top = round(self.scroll_y)
        window = self.placed(top)[0]
        last = top + window - (2 if row < len(self._rows) - 1 else 1)  # the lowest place that shows the next
        if shown > 1 and not top <= row <= last:
            self.scroll_to(y=max(0, min(row - shown // 4, round(self.max_scroll_y))), animate=False, immediate=True)
        self._move(row)

    def _move(self, row: int, keep_view: bool = False) -> None:
        old = self.cursor_row
        self.cursor_row = max(0, min(row, len(self._rows) - 1))
        if self.cursor_row != old:
            self._refresh_row(old)
            self._refresh_row(self.cursor_row)
        shown = self.shown_rows
        top = round(self.scroll_y)
        window, below = self.placed(top)
        if not shown or (keep_view and self.cursor_row in below):
            return
        if self.cursor_row < top:
            self.scroll_to(y=self.cursor_row, animate=False, immediate=True)
        elif self.cursor_row >= top + window:
            for _ in range(3):  # the window's size depends on where it starts
                top = max(self.cursor_row - window + 1, 0)
                window = self.placed(top)[0]
            self.scroll_to(y=max(self.cursor_row - window + 1, 0), animate=False, immediate=True)

    def _unlight(self) -> None:
        """The mouse's row is no longer lit: a key moved the cursor, or the mouse left (as DataTable)."""
        if self.hover_row >= 0:
            self._refresh_row(self.hover_row)
            self.hover_row = -1

    def action_cursor(self, by: int) -> None:
        self._unlight()
        self.move_cursor(self.cursor_row + by)

    def action_page(self, by: int) -> None:
        """A page down (or up): the cursor and the view move by the rows in view."""
        self._unlight()
        page = max(self.shown_rows - 1, 1)
        top = max(0, min(round(self.scroll_y) + by * page, round(self.max_scroll_y)))
        self.scroll_to(y=top, animate=False, immediate=True)
        self.move_cursor(self.cursor_row + by * page)

    def action_first(self) -> None:
        self._unlight()
        self.move_cursor(0)

    def action_last(self) -> None:
        self._unlight()
        self.move_cursor(len(self._rows) - 1)

    def _row_at(self, event: events.MouseEvent) -> int | None:
        row = event.style.meta.get("row")
        return row if isinstance(row, int) and 0 <= row < len(self._rows) else None

    def on_mouse_move(self, event: events.MouseMove) -> None:
        row = self._row_at(event)
        hover = -1 if row is None else row
        if hover != self.hover_row:
            for old_or_new in (self.hover_row, hover):
                if old_or_new >= 0:
                    self._refresh_row(old_or_new)
            self.hover_row = hover

    def on_leave(self, event: events.Leave) -> None:
        self._unlight()

    def on_click(self, event: events.Click) -> None:
        row = self._row_at(event)
        if row is None:
            return
        event.stop()
        self.move_cursor(row, keep_view=True)
        if event.chain >= 2:  # a double click: its actions, as Enter or x
            self.post_message(self.Chosen(self, self._rows[row]))

    def set_marked(self, marked: Collection[str]) -> None:
        self.marked = tuple(m for m in self._rows if m in set(marked))
        if self._state is not None:
            self.show(self._state)

    # -- drawing -------------------------------------------------------------
    def _looks(self) -> tuple[Any, ...]:
        """What the drawing of every line depends on beside its own cells: widths, scroll, styles, focus, theme."""
        return (
            self.size.width,
            self.scroll_offset.x,
            self._sizes,
            self.rich_style,
            self.get_pseudo_class_state(),
            self.app.theme,
        )

    def _base(self) -> Style:
        """The list's own style (``rich_style``: Textual works it out anew from every ancestor at each read), read
        once for all the lines of a drawing."""
        return self._look[3] if self._look is not None else self.rich_style

    def render_lines(self, crop: Region) -> list[Strip]:
        self._look = self._looks()
        try:
            return super().render_lines(crop)
        finally:
            self._look = None

    def render_line(self, y: int) -> Strip:
        """Line ``y`` of the list as it shows now; a line whose cells, place, cursor and look are as when it was
        last drawn is not drawn again (a next turn changes two rows of a hundred)."""
        if y == 0:
            key: tuple[Any, ...] = ("header",)
        else:
            window, below = self.placed(self.scroll_offset.y)
            index = y - 1 + self.scroll_offset.y if y <= window else (below + [-1] * y)[y - 1 - window]
            if not 0 <= index < len(self._rows):
                return Strip.blank(self.size.width, self._base())
            cid = self._rows[index]
            key = (index, cid, self._keys.get(cid), index == self.cursor_row, index == self.hover_row)
        look = self._look if self._look is not None else self._looks()
        key = (self._look_ids.setdefault(look, len(self._look_ids)), *key)
        strip = self._lines.get(key)
        if strip is None:
            if len(self._lines) > 8 * len(self._rows) + 64 or len(self._look_ids) > 16:
                self._lines.clear()
                self._look_ids.clear()
                key = (self._look_ids.setdefault(look, 0), *key[1:])
            strip = self._lines[key] = self._header_strip() if y == 0 else self._row_strip(index)
        return strip

    def _fit(self, cell: Text, width: int) -> list[Segment]:
        """``cell`` fitted to ``width`` columns on one line, as Rich draws it (kept)."""
        fitted = self._fitted
        fit_key = (cell.plain, str(cell.style), cell.overflow, cell.no_wrap, cell.justify, width)
        found = fitted.get(fit_key)
        if found is None:
            if len(fitted) > 4096:
                fitted.clear()
            found = fitted_cell(cell, width)
            if found is None:
                options = self.app.console_options.update_dimensions(width, 1).update(no_wrap=True)
                found = self.app.console.render_lines(Padding(cell, (0, 0)), options)[0]
            fitted[fit_key] = found
        return found

    def _strip(self, cells: Sequence[Text], index: int, style: Style, lit: Style) -> Strip:
        """A line of cells, each fitted to its column under ``style`` (and ``lit``, the cursor or the mouse's
        light, on top) with its place as its click target, the line's end filled out to the list's width."""
        post = Style.from_color(color=lit.color) + Style.from_color(bgcolor=lit.bgcolor)
        segments: list[Segment] = []
        sizes = self._sizes
        if index >= 0 and sizes[6] and not cells[6].plain:  # no condition: the status has the conditions' room too
            sizes = (*sizes[:5], sizes[5] + sizes[6], 0)
        for n, (width, cell) in enumerate(zip(sizes, cells, strict=True)):
            if not width:  # a column not shown (no one has a condition)
                continue
            pre = style + Style.from_meta({"row": index, "column": n}) + lit
            segments.extend(Segment.apply_style(self._fit(cell, width), style=pre, post_style=post))
        width = self.size.width
        ends = style + lit + Style.from_meta({"row": index, "column": 0, "out_of_bounds": True})
        segments.append(Segment(" " * max(0, width - sum(self._sizes)), ends))
        x = self.scroll_offset.x
        return Strip(segments).crop(x, x + width).adjust_cell_length(width, self._base()).simplify()

    def _header_strip(self) -> Strip:
        return self._strip(self._labels, -1, self.get_component_styles("initiative-list--header").rich_style, Style())

    def _row_strip(self, index: int) -> Strip:
        lit = Style()
        if index == self.hover_row:
            lit += self.get_component_rich_style("initiative-list--hover")
        if index == self.cursor_row:
            lit += self.get_component_rich_style("initiative-list--cursor")
        return self._strip(self._cells[self._rows[index]], index, self._base(), lit)

    def _set_columns(self, widths: Widths) -> None:
        sizes = {
            "turn": 1,
            "mark": 2,
            "name": widths.name,
            "init": widths.init + 1 if widths.init else 0,
            "state": widths.state + 2,
            "status": widths.status,
            "conditions": widths.conditions + 1 if widths.conditions else 0,
        }
        labels = []
        for key, label in COLUMNS:
            width = sizes[key]
            if key == "init":
                label = initiative_words(self.system)[1]
            head = " " + label if key in ("init", "state") else label
            if key == "conditions":
                head = " " + (label if len(label) < width else "Cond.") if width else ""
            labels.append(Text(clip(head, width), style=BOLD))
        self._widths = widths
        self._sizes = tuple(sizes[key] for key in KEYS)
        self._labels = tuple(labels)

    def _cells_for(self, row: Row, conditions: str) -> tuple[Text, ...]:
        """The cells of a row: long text is kept whole and cut with an ellipsis where it is drawn."""
        base = DIM if row.out else (BOLD if row.current else NO_STYLE)
        word_style = (OUT + DIM) if row.out else AT_RISK
        name_style = base + Style(italic=True) if row.hidden else base
        return (
            Text("▶" if row.current else " ", style=BOLD),
            Text("● " if row.marked else "  ", style=MARK),
            Text(row.name, style=name_style, no_wrap=True, overflow="ellipsis"),
            Text(" " + row.init, style=base),
            Text(" " + row.word + " ", style=word_style),
            Text(row.status, style=base, no_wrap=True, overflow="ellipsis"),
            Text(" " + conditions if conditions else "", style=base, no_wrap=True, overflow="ellipsis"),
        )

    def show(self, state: FightState) -> None:
        """Show ``state``: the columns measured again, the rows that changed drawn again."""
        self._state = state
        present = state.present
        if self.fold_fallen:
            kept = tuple(
                c for c in present if c.is_pc or c.id == state.current or not standing(self.system, state, c).out
            )
            self.folded = tuple(visible(c.name) for c in present if c not in kept)
            present = kept
        else:
            self.folded = ()
        marked = set(self.marked)
        tied = {cid for group in state.ties for cid in group}
        places = tie_places(state)
        rows = {c.id: row_for(self.system, state, c, c.id in marked, tied, places) for c in present}
        self._width = self._content_width(len(present))
        label = initiative_words(self.system)[1]
        widths = measure(rows.values(), self._width, label)
        self.wanted = measure(rows.values(), 1000, label).natural + 1  # (and its scrollbar)
        cells: dict[str, tuple[Text, ...]] = {}
        keys: dict[str, tuple[tuple[str, str], ...]] = {}
        made = self._made
        if len(made) > 4 * len(present) + 64:
            made.clear()
        for c in present:
            row = rows[c.id]
            row = fit_name(row, widths.name)
            conditions = row.conditions
            if len(conditions) > widths.conditions:
                conditions = fit_conditions(state, c, widths.conditions)
            found = made.get((row, conditions))
            if found is None:
                drawn = self._cells_for(row, conditions)
                found = made[row, conditions] = (drawn, tuple((t.plain, str(t.style)) for t in drawn))
            cells[c.id], keys[c.id] = found
        ids = [c.id for c in present]
        pinned = tuple(n for n, c in enumerate(present) if c.is_pc or c.id == state.current)
        if pinned != self._pinned:
            self._pinned = pinned
            self.refresh()
        selected = self.selected
        old_keys = self._keys
        self._cells, self._keys = cells, keys
        if widths != self._widths:
            self._set_columns(widths)
            self.refresh()  # every line: the look holds the widths
        if ids != self._rows:
            self._rows = ids
            self.marked = tuple(m for m in self.marked if m in rows)
            self.virtual_size = Size(sum(self._sizes), self._height())
            self.refresh()
            self.cursor_row = ids.index(selected) if selected in rows else 0
            self._select(selected if selected in rows else state.current)
            self._tell(selected)
            return
        self.virtual_size = Size(sum(self._sizes), self._height())
        for index, cid in enumerate(ids):
            if old_keys.get(cid) != keys[cid]:
                self._refresh_row(index)
