"""The detail pane: everything the system says about one combatant."""

from __future__ import annotations

from textual.widgets import Static

from tracker.model import FightState
from tracker.plugin import System


def detail_text(system: System, state: FightState, cid: str | None) -> str:
    c = state.find(cid) if cid else None
    if c is None:
        return "No one selected."
    try:
        body = system.detail(state, c)
    except Exception as e:  # a plug-in bug shows as text, never a crash
        body = f"(the system could not describe {c.name}: {type(e).__name__})"
    head = f"{c.kind.upper()}{' · ' + c.group if c.group else ''}"
    if c.initiative is not None:
        head += f" · init {c.initiative}"
    if not body.startswith(c.name):
        head = f"{c.name} · {head}"
    lines = [head, body]
    if c.conditions:
        lines.append("Conditions: " + ", ".join(x.describe() for x in c.conditions))
    if c.held:
        lines.append("Holding the action (W: act now)")
    if c.removed:
        lines.append("Left the fight")
    return "\n".join(x for x in lines if x)


class DetailPane(Static):
    """Read-only; ``show(state, cid)`` redraws it."""

    DEFAULT_CSS = """
    DetailPane { height: 1fr; padding: 0 1; border: round $primary-muted; border-title-color: $text-muted; }
    """

    def __init__(self, system: System, *, id: str | None = None) -> None:
        super().__init__("", id=id, markup=False)
        self.system = system
        self.border_title = "Detail"

    def show(self, state: FightState, cid: str | None) -> None:
        self.update(detail_text(self.system, state, cid))
