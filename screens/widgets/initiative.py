"""The initiative list: order, name, group, initiative and the system's one-line status."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widgets import DataTable

from tracker.model import Combatant, FightState
from tracker.plugin import System

COLUMNS = (("mark", " "), ("place", "#"), ("name", "Name"), ("group", "Group"), ("init", "Init"), ("status", "Status"))


def status_line(system: System, state: FightState, c: Combatant) -> str:
    """The system's status, then conditions and a held action, in one line."""
    try:
        text = system.status(state, c)
    except Exception as e:  # a plug-in bug shows as text, never a crash
        text = f"({type(e).__name__})"
    extra = [cond.describe() for cond in c.conditions]
    if c.held:
        extra.append("holding")
    return " · ".join(x for x in (text, ", ".join(extra)) if x)


class InitiativeList(DataTable):
    """Rows keyed by combatant id; refreshes only the cells that changed.

    Read-only use (the replay screen): call :meth:`show` with any state.
    """

    DEFAULT_CSS = """
    InitiativeList { height: 1fr; }
    """

    def __init__(self, system: System, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=False)
        self.system = system
        self._rows: list[str] = []
        self._cells: dict[str, tuple[object, ...]] = {}
        self._cell_lines: dict[tuple[Any, ...], Any] = {}

    def on_mount(self) -> None:
        for key, label in COLUMNS:
            self.add_column(label, key=key)

    def _render_cell(
        self,
        row_index: int,
        column_index: int,
        base_style: Any,
        width: int,
        cursor: bool = False,
        hover: bool = False,
    ) -> Any:
        """DataTable forgets every rendered cell on any update; keep them by content instead.

        A next turn changes two rows, so only their cells are drawn again: this
        keeps "next turn" fast in a 100-combatant fight.
        """
        content: tuple[str, str] | None = None
        if row_index >= 0 and column_index >= 0 and row_index < len(self._rows):
            cells = self._cells.get(self._rows[row_index])
            if cells is not None and column_index < len(cells):
                cell = cells[column_index]
                content = (cell.plain, str(cell.style)) if isinstance(cell, Text) else (str(cell), "")
        if content is None:
            return super()._render_cell(row_index, column_index, base_style, width, cursor, hover)
        key = (
            row_index,
            column_index,
            content,
            base_style,
            width,
            cursor,
            hover,
            self._show_hover_cursor,
            self.show_cursor,
            self._pseudo_class_state,
        )
        found = self._cell_lines.get(key)
        if found is None:
            if len(self._cell_lines) > 5000:
                self._cell_lines.clear()
            found = self._cell_lines[key] = super()._render_cell(
                row_index, column_index, base_style, width, cursor, hover
            )
        return found

    def notify_style_update(self) -> None:
        self._cell_lines.clear()  # a theme or focus change restyles every cell
        super().notify_style_update()

    @property
    def selected(self) -> str | None:
        if not self._rows or self.cursor_row < 0 or self.cursor_row >= len(self._rows):
            return None
        return self._rows[self.cursor_row]

    def select(self, cid: str | None) -> None:
        if cid in self._rows:
            self.move_cursor(row=self._rows.index(cid))

    def _cells_for(self, state: FightState, c: Combatant, place: int) -> tuple[object, ...]:
        current = state.current == c.id
        style = "bold" if current else ("dim" if c.held else "")
        init = "" if c.initiative is None else str(c.initiative)
        if state.tied_with(c.id):
            init += "="
        return (  # Text, never str: a str cell is read as markup ("[b]" in a status would vanish)
            Text("▶" if current else " ", style="bold"),
            Text(str(place) if c.id in state.order else "·"),
            Text(c.name + (" (PC)" if c.is_pc else ""), style=style),
            Text(c.group or ""),
            Text(init),
            Text(status_line(self.system, state, c)),
        )

    def show(self, state: FightState) -> None:
        present = state.present
        ids = [c.id for c in present]
        selected = self.selected
        rows = {c.id: self._cells_for(state, c, n) for n, c in enumerate(present, start=1)}
        if ids != self._rows:
            self._cell_lines.clear()
            with self.app.batch_update():
                self.clear()
                for cid in ids:
                    self.add_row(*rows[cid], key=cid)
            self._rows = ids
            self._cells = rows
            self.select(selected if selected in ids else state.current)
            return
        keys = [k for k, _ in COLUMNS]
        for cid, cells in rows.items():
            old = self._cells.get(cid)
            if old == cells:
                continue
            for n, value in enumerate(cells):
                if old is None or old[n] != value:
                    self.update_cell(cid, keys[n], value)
        self._cells = rows
