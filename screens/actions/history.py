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
    screen.mark_log(_seqs(screen, step.action), UNDONE_STYLE)


def redo(screen: FightHost) -> None:
    try:
        step = screen.fight.redo()
    except TrackerError as e:
        doing.failed(screen, e)
        return
    _said(screen, "redone", visible(step.describe()))
    screen.mark_log(_seqs(screen, step.action), "")


UNDONE_STYLE = "strike dim"  # the lines of an action taken back, as the replay draws them


def _seqs(screen: FightHost, action: int) -> range:
    """The event numbers of an action's lines (none when its lines are older than the log holds)."""
    span = screen.fight.log.action_seqs(action)
    return range(span[0], span[1] + 1) if span is not None else range(0)


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
