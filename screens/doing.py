"""Doing GM actions: the core decides, the save writer appends and fsyncs, then the screen shows it.

Several commands (a condition on three marked combatants) are decided one
after the other on the state the earlier ones lead to and logged as one GM
action, so one undo takes them all back.  In typed-in dice mode a decision
that needs dice asks the GM for the faces and is decided again with them, until
it is complete; cancelling logs nothing.

Ruling: a GM action taken while there is something to redo says, with the action, what can no longer be
redone (a new action empties the redo stack: the core's rule, kept).  The log view shows, under the action's
lines, "N undone action(s) can no longer be redone: <each, short>", and a toast says the same; nothing is said
when there was nothing to redo.  Neither is written to the fight's file (the players' view and a replay read the
file as before).  The attack undone with its typed-in faces was dropped without a word; the GM found out on
pressing U.  Tests: tests/ui/test_redo_dropped.py.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from saves import FileLost
from saves.writing import WriteFailed
from screens import logic
from screens.dialogs.base import ask
from screens.dialogs.faces import FacesDialog
from screens.guard import failure
from screens.host import FightHost
from tracker import Fight
from tracker.dice import FacesNeeded, Roller
from tracker.engine import decide_full
from tracker.errors import TrackerError
from tracker.events import Event
from tracker.text import visible

DROPPED_SHOWN = 3  # the undone actions named when a new action drops them (the rest are counted)
DROPPED_WIDTH = 60  # the most of each one's description shown


def refuse(screen: FightHost, message: str) -> None:
    """Say why an action was not done (a toast and the bell); nothing is logged."""
    screen.notify(visible(message), title="Not done", severity="error", timeout=6, markup=False)
    screen.app.bell()


def failed(screen: FightHost, error: TrackerError) -> None:
    """Say why an action was not done; when the fight's file is no longer its own (another program deleted or
    replaced it) or takes no more writes (a full disk, a file made read-only), offer to save the fight to a new
    file (see ``TrackerApp.offer_rescue``)."""
    screen.refuse(str(error))
    if isinstance(error, FileLost):
        screen.say_file_lost(screen.save_path.name if screen.save_path is not None else "its file")
    offer = getattr(screen.app, "offer_rescue", None)
    if offer is None:
        return
    if isinstance(error, FileLost):
        offer(screen.fight, str(error).split(": ", 1)[0])
    elif isinstance(error, WriteFailed):
        offer(screen.fight, str(error), unwritable=True)


def dice(screen: FightHost) -> Roller | None:
    """The typed-in roller when the fight's dice are typed in, else the fight's own."""
    return screen.typed if screen.fight.state.typed_dice else None


def _decide_and_log(screen: FightHost, commands: Sequence[Any], dice: Roller | None) -> list[Event]:
    if len(commands) == 1:
        return screen.fight.do(commands[0], dice=dice)
    return screen.fight.do_all(commands, dice=dice)


def perform(screen: FightHost, command: Any, after: Callable[[], None] | None = None) -> None:
    """Do one GM action (one command, or a list of them as one step) and show it."""
    commands = list(command) if isinstance(command, list | tuple) else [command]
    if not commands:
        return
    redoable = _redoable(screen.fight)
    try:
        events = _decide_and_log(screen, commands, dice(screen))
    except FacesNeeded as need:
        typed = screen.typed

        def faces_given(ok: bool | None) -> None:
            typed.rewind()
            if ok:
                perform(screen, command, after)
            else:
                typed.supplied.clear()
                screen.notify("Cancelled: nothing was logged.", title="Dice")

        ask(screen.app, FacesDialog(need.request, typed), faces_given)
        return
    except TrackerError as e:
        _reset_typed(screen)
        failed(screen, e)
        return
    except Exception as e:  # a plug-in bug: say so, keep the fight
        _reset_typed(screen)
        screen.refuse(failure(e, "the rules"))
        return
    _reset_typed(screen)
    screen.show_done(events)
    if redoable is not None and not screen.fight.can_redo:
        note = no_longer_redoable(screen.fight, *redoable)
        screen.add_log([f"{'':>4} ↳ {note}"], style="italic")  # (no number first: not an event's line)
        screen.notify(note, title="Redo", severity="warning", timeout=8, markup=False)
    if after is not None:
        after()


def _redoable(fight: Fight) -> tuple[list[int], int] | None:
    """The undone actions that can be redone now (the next to redo first, the first few) and how many; None when
    there are none."""
    if not fight.can_redo:
        return None
    _done, _n, undone, size = fight.log.stack_tops(top=DROPPED_SHOWN)
    return undone, size


def no_longer_redoable(fight: Fight, actions: Sequence[int], size: int) -> str:
    """What a GM action dropped from the redo stack, in the GM's words: ``size`` undone actions, the first of
    them (``actions``, the next to redo first) described in short."""
    said: list[str] = []
    for action in actions[:DROPPED_SHOWN]:
        try:
            text = fight.describe_action(action)
        except TrackerError:  # (the older part of the log unreadable: its number, at least)
            text = f"action {action}"
        text = visible(text)
        said.append(text if len(text) <= DROPPED_WIDTH else text[: DROPPED_WIDTH - 1] + "…")
    more = size - len(said)
    if more > 0:
        said.append(f"and {more} more")
    what = "1 undone action" if size == 1 else f"{size} undone actions"
    return f"{what} can no longer be redone: " + " · ".join(said)


def _reset_typed(screen: FightHost) -> None:
    screen.typed.supplied.clear()
    screen.typed.rewind()


def probe(screen: FightHost, command: Any) -> Any:
    """Ask the rules whether they would refuse ``command`` (Refused shows in the form)."""
    commands = list(command) if isinstance(command, list | tuple) else [command]
    state = screen.fight.state
    try:
        for c in commands:
            _events, state = decide_full(screen.fight.system, state, c, logic.ProbeRoller())
    except TrackerError:
        raise
    except Exception:  # unexpected trouble shows when the action is really taken
        pass
    return command
