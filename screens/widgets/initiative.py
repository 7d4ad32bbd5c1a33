"""The initiative list: who is up, who is down, who is under what, one row per combatant.

Columns: the current turn (▶), the GM's mark (●), name, initiative, the state
word (dead, unconscious, dying, fled, held…: never cut), the system's status
and the conditions with rounds left.  Columns are measured from the content and
the width on every change, so they grow and shrink with it; long text is
clipped with an ellipsis.  Rows of combatants out of the fight are dimmed.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, NamedTuple, Self

from rich.cells import cell_len, set_cell_size
from rich.padding import Padding
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import DataTable

from screens.guard import call
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


def status_line(system: System, state: FightState, c: Combatant) -> str:
    """The system's one-line status of a combatant (numbers first, equipment last)."""
    return visible(call(system.status, state, c, default="(status unavailable)"))


def standing(system: System, state: FightState, c: Combatant) -> Standing:
    """The system's standing, or the core's own words for a held or departed combatant."""
    found = call(system.standing, state, c, default=Standing())
    if not found.word and c.removed:
        return Standing(word="gone", out=True)
    if not found.word and c.held:
        return Standing(word="held")
    return found


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


def row_for(
    system: System, state: FightState, c: Combatant, marked: bool = False, tied: Collection[str] | None = None
) -> Row:
    """``tied``: everyone in a tie for initiative, when the caller has worked it out once for every row."""
    stand = standing(system, state, c)
    init = "" if c.initiative is None else str(c.initiative)
    if c.id in tied if tied is not None else state.tied_with(c.id):
        init += "="
    name = visible(c.name) + (" (PC)" if c.is_pc else "")
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
    )


class Widths(NamedTuple):
    name: int
    init: int
    state: int
    status: int
    conditions: int


def measure(rows: Collection[Row], width: int) -> Widths:
    """Column widths for these rows in ``width`` columns; each text column has one space before it."""
    name_cap = max(10, min(30, width // 4))
    name = min(max([len(r.name) for r in rows] + [4]), name_cap)
    init = max([len(r.init) for r in rows] + [4])
    state = max([len(r.word) for r in rows] + [5])
    fixed = 1 + 2 + name + (init + 1) + (state + 2)
    rest = max(width - fixed, 0)
    status_max = max([len(r.status) for r in rows] + [0])
    cond_max = max([len(r.conditions) for r in rows] + [0])
    if cond_max == 0:
        return Widths(name, init, state, rest, 0)
    if status_max + 1 + cond_max + 1 <= rest:
        conditions = cond_max
    else:
        conditions = min(cond_max, max(rest - status_max - 2, (rest * 2) // 5, min(cond_max, 12)))
    conditions = max(min(conditions, rest - 2), 0)
    return Widths(name, init, state, max(rest - conditions - 1, 0), conditions)


class InitiativeList(DataTable[Text]):
    """Rows keyed by combatant id; only changed cells are updated, columns re-measured on every change.

    Read-only use (the replay screen): call :meth:`show` with any state.
    """

    DEFAULT_CSS = """
    InitiativeList { height: 1fr; scrollbar-size-vertical: 1; }
    """
    _quiet = False  # while show updates cells: a repaint of the whole table is not needed

    def __init__(self, system: System, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=False, cell_padding=0)
        self.system = system
        self.marked: tuple[str, ...] = ()
        self._rows: list[str] = []
        self._keys: dict[str, tuple[tuple[str, str], ...]] = {}
        self._widths: Widths | None = None
        self._made: dict[tuple[Row, str], tuple[tuple[Text, ...], tuple[tuple[str, str], ...]]] = {}  # cells of rows
        self._state: FightState | None = None
        self._width = 0
        self._lines: dict[tuple[Any, ...], Strip] = {}  # drawn rows, by what they show (see render_line)
        self._look: tuple[Any, ...] | None = None  # what every row's drawing depends on, during render_lines
        self._look_ids: dict[tuple[Any, ...], int] = {}  # each look the rows in _lines were drawn in
        self._cells: dict[str, tuple[Text, ...]] = {}  # each row's cells, as given to the table
        self._fitted: dict[tuple[Any, ...], list[Segment]] = {}  # a cell's text fitted to a width

    def refresh(self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False) -> Self:
        if self._quiet and not (regions or layout or recompose):
            return self
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def on_mount(self) -> None:
        self._add_columns(Widths(4, 4, 5, 20, 0))

    def on_resize(self) -> None:
        if self._state is not None and self._content_width() != self._width:
            self.show(self._state)

    def _content_width(self) -> int:
        width = self.scrollable_content_region.width
        return width if width > 0 else 80

    @property
    def selected(self) -> str | None:
        if not self._rows or self.cursor_row < 0 or self.cursor_row >= len(self._rows):
            return None
        return self._rows[self.cursor_row]

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(self._rows)

    def select(self, cid: str | None) -> None:
        """Put the cursor on ``cid`` (the turn passing to it, or the list rebuilt).

        When it is outside the rows in view, or in the last one with someone after it, the view moves first
        so that it stands a quarter of the way down, with those who come next below it: the GM always sees
        who is next, and a long fight's turn passing down the list moves the view about once a page, not one
        row at every turn (which drew every row in view again).
        """
        if cid not in self._rows:
            return
        row = self._rows.index(cid)
        head = self.header_height if self.show_header else 0
        shown = self.scrollable_content_region.height - head  # rows in view
        top = round(self.scroll_y)
        last = top + shown - (2 if row < len(self._rows) - 1 else 1)  # the lowest place that shows the next
        if shown > 1 and not top <= row <= last:
            self.scroll_to(y=max(0, min(row - shown // 4, round(self.max_scroll_y))), animate=False, immediate=True)
        self.move_cursor(row=row)

    def set_marked(self, marked: Collection[str]) -> None:
        self.marked = tuple(m for m in self._rows if m in set(marked))
        if self._state is not None:
            self.show(self._state)

    # -- drawing -------------------------------------------------------------
    def _looks(self) -> tuple[Any, ...]:
        """What the drawing of every row depends on beside its own cells: widths, scroll, styles, focus, theme."""
        return (
            self.size.width,
            self.scroll_offset.x,
            self._widths,
            self.rich_style,
            self.get_pseudo_class_state(),
            self.app.theme,
            self.cursor_type,
            self.show_cursor,
        )

    def render_lines(self, crop: Region) -> list[Strip]:
        self._look = self._looks()
        try:
            return super().render_lines(crop)
        finally:
            self._look = None

    def render_line(self, y: int) -> Strip:
        """A row whose cells, place, cursor and look are as when it was last drawn is not drawn again.

        DataTable draws every visible row again after any cell changes; a next
        turn changes two rows of a hundred.  Rows are kept in each look they were
        drawn in (the list loses its focus while a dialog is open, and has it
        again after).  The row under the hover cursor is always drawn (DataTable
        shows that cursor or not as the mouse comes and goes), the header when
        the mouse is on it.
        """
        if self.fixed_rows or self.fixed_columns:
            return super().render_line(y)
        key: tuple[Any, ...]
        head = self.header_height if self.show_header else 0
        if y < head:
            if self.hover_row == -1:
                return super().render_line(y)
            key = ("header", y)
        else:
            index = y - head + self.scroll_offset.y
            if not 0 <= index < len(self._rows) or index == self.hover_row:
                return super().render_line(y)
            cid = self._rows[index]
            key = (index, cid, self._keys.get(cid), index == self.cursor_row)
        look = self._look if self._look is not None else self._looks()
        key = (self._look_ids.setdefault(look, len(self._look_ids)), *key)
        strip = self._lines.get(key)
        if strip is None:
            if len(self._lines) > 8 * len(self._rows) + 64 or len(self._look_ids) > 16:
                self._lines.clear()
                self._look_ids.clear()
                key = (self._look_ids.setdefault(look, 0), *key[1:])
            drawn = None if y < head else self._row_strip(y - head + self.scroll_offset.y)
            strip = self._lines[key] = drawn if drawn is not None else super().render_line(y)
        return strip

    def _row_strip(self, index: int) -> Strip | None:
        """Row ``index`` drawn as DataTable draws it (every character, style and click target the same: see
        tests/ui/test_row_drawing.py), from its cells fitted to their columns once; None where this does not
        apply (a row not drawn by :meth:`show`).

        DataTable renders every cell of a changed row through Rich's whole layout machinery (a padding, a
        sandwich of styles, a wrap) again after any cell of the table changed: about a millisecond a row, the
        most of what a next turn's frame drew in the list.  The parts are the same: each cell's text fitted to
        its column's width (kept), under the row's style with the cell's place as its click target, the
        cursor's style on top; the row's end filled out to the list's width.
        """
        cid = self._rows[index]
        cells = self._cells.get(cid)
        columns = self.ordered_columns
        if cells is None or len(cells) != len(columns):  # not a row of show's (the rows have no labels)
            return None
        console = self.app.console
        base = self.rich_style
        cursor = self.show_cursor and self.cursor_type == "row" and index == self.cursor_row
        lit = self.get_component_rich_style("datatable--cursor") if cursor else Style()
        post = Style.from_color(color=lit.color) if self.cursor_foreground_priority == "css" else Style.null()
        if self.cursor_background_priority == "css":
            post += Style.from_color(bgcolor=lit.bgcolor)
        segments: list[Segment] = []
        used = 0
        fitted = self._fitted
        if len(fitted) > 4096:
            fitted.clear()
        for n, (column, cell) in enumerate(zip(columns, cells, strict=True)):
            width = column.get_render_width(self)
            used += width
            if not width:  # a column not shown (no one has a condition): DataTable leaves an empty, unstyled mark
                segments.append(Segment(""))
                continue
            if cell.spans:  # (the list's cells are one style each)
                return None
            fit_key = (cell.plain, str(cell.style), cell.overflow, cell.no_wrap, cell.justify, width)
            core = fitted.get(fit_key)
            if core is None:
                core = fitted_cell(cell, width) if not self.cell_padding else None
                if core is None:
                    options = self.app.console_options.update_dimensions(width, 1).update(no_wrap=True)
                    core = console.render_lines(Padding(cell, (0, self.cell_padding)), options)[0]
                fitted[fit_key] = core
            pre = base + Style.from_meta({"row": index, "column": n}) + lit
            segments.extend(Segment.apply_style(core, style=pre, post_style=post))
        width = self.size.width
        ends = base + lit + Style.from_meta({"row": index, "column": 0, "out_of_bounds": True})
        segments.append(Segment(" " * max(0, width - used), ends))
        x = self.scroll_offset.x
        return Strip(segments).crop(x, x + width).adjust_cell_length(width, base).simplify()

    def _add_columns(self, widths: Widths) -> None:
        sizes = {
            "turn": 1,
            "mark": 2,
            "name": widths.name,
            "init": widths.init + 1,
            "state": widths.state + 2,
            "status": widths.status,
            "conditions": widths.conditions + 1 if widths.conditions else 0,
        }
        for key, label in COLUMNS:
            width = sizes[key]
            head = " " + label if key in ("init", "state") else label
            if key == "conditions":
                head = " " + (label if len(label) < width else "Cond.") if width else ""
            self.add_column(Text(clip(head, width), style="bold"), key=key, width=width)
        self._widths = widths

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
        self._state = state
        present = state.present
        marked = set(self.marked)
        tied = {cid for group in state.ties for cid in group}
        rows = {c.id: row_for(self.system, state, c, c.id in marked, tied) for c in present}
        self._width = self._content_width()
        widths = measure(rows.values(), self._width)
        cells: dict[str, tuple[Text, ...]] = {}
        keys: dict[str, tuple[tuple[str, str], ...]] = {}
        made = self._made
        if len(made) > 4 * len(present) + 64:
            made.clear()
        for c in present:
            row = rows[c.id]
            conditions = row.conditions
            if len(conditions) > widths.conditions:
                conditions = fit_conditions(state, c, widths.conditions)
            found = made.get((row, conditions))
            if found is None:
                drawn = self._cells_for(row, conditions)
                found = made[row, conditions] = (drawn, tuple((t.plain, str(t.style)) for t in drawn))
            cells[c.id], keys[c.id] = found
        self._cells = cells
        ids = [c.id for c in present]
        selected = self.selected
        if widths != self._widths or ids != self._rows:
            with self.app.batch_update():
                self.clear(columns=widths != self._widths)
                if widths != self._widths:
                    self._add_columns(widths)
                for cid in ids:
                    self.add_row(*cells[cid], key=cid)
            self._rows = ids
            self._keys = keys
            self.marked = tuple(m for m in self.marked if m in rows)
            self.select(selected if selected in rows else state.current)
            return
        changed = []
        self._quiet = True  # update_cell repaints the whole table: only the changed rows are repainted
        try:
            for index, (cid, key) in enumerate(keys.items()):
                old = self._keys.get(cid)
                if old == key:
                    continue
                changed.append(index)
                for n, value in enumerate(cells[cid]):
                    if old is None or old[n] != key[n]:
                        self.update_cell(cid, KEYS[n], value)
        finally:
            self._quiet = False
        self._keys = keys
        for index in changed:
            self.refresh_row(index)
