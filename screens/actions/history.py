"""Undo (u, ctrl+z) and redo (U, ctrl+y), what was taken back or done again said above the list; the dice mode (T)."""

from __future__ import annotations

from screens import doing
from screens.host import FightHost
from tracker import commands as C
from tracker.errors import TrackerError
from tracker.text import visible


def undo(screen: FightHost) -> None:
    try:
        step = screen.fight.undo()
    except TrackerError as e:
        doing.failed(screen, e)
        return
    _said(screen, "undone", visible(step.describe()))


def redo(screen: FightHost) -> None:
    try:
        step = screen.fight.redo()
    except TrackerError as e:
        doing.failed(screen, e)
        return
    _said(screen, "redone", visible(step.describe()))


def _said(screen: FightHost, done: str, text: str) -> None:
    """Above the list in the same frame (a toast came later, over the log), and in the log."""
    screen.undo_note = f"{done.capitalize()}: {text}"
    screen.add_log([f"{screen.fight.entries[-1].seq:>4} {done}: {text}"], style="italic")
    screen.refresh_view()


def toggle_dice(screen: FightHost) -> None:
    """Dice rolled by the tracker, or typed in by the GM (every roll asks for its faces)."""
    typed = not screen.fight.state.typed_dice

    def said() -> None:
        screen.notify("Typed-in dice: every roll asks for its faces." if typed else "Dice rolled by the tracker.")

    screen.perform(C.SetDiceMode(typed=typed), said)
