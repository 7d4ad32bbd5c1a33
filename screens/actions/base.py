"""What the fight screen's actions share: the context a form starts from, and asking for a command."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from screens import forms
from screens.dialogs.base import Dialog, ask
from screens.host import FightHost

CHOOSE_FIRST = "choose a combatant in the list first (add one with A)"


def context(screen: FightHost) -> forms.Context:
    """What a form starts from: the fight as it is, the selected and marked combatants, the last targets."""
    return forms.Context.of(
        screen.system, screen.fight.state, screen.selected, screen.marked, screen.probe, last_targets(screen)
    )


def last_targets(screen: FightHost, back: int = 400) -> dict[str, tuple[str, ...]]:
    """Each actor's targets in its latest attack still in effect (the last ``back`` entries are read)."""
    log = screen.fight.log
    first = max(len(log) - back, log.base_entries)  # opened from a checkpoint: only the latest entries are loaded
    out: dict[str, tuple[str, ...]] = {}
    for index in range(len(log) - 1, first - 1, -1):
        ev = log.entry(index).event
        actor = getattr(ev, "actor", None)
        targets = getattr(ev, "targets", None) or (getattr(ev, "target", None),)
        if not isinstance(actor, str) or actor in out or not all(isinstance(t, str) for t in targets):
            continue
        if targets != (actor,) and not log.is_undone(index):
            out[actor] = tuple(str(t) for t in targets if t != actor)
    return out


def ask_command(screen: FightHost, dialog: Dialog[Any], after: Callable[[], None] | None = None) -> None:
    """Open a form; do the command (or commands) it returns."""

    def done(command: Any) -> None:
        if command is not None:
            screen.perform(command, after)

    screen.clear_undo_note()
    ask(screen.app, dialog, done)


def ask_for_marked(screen: FightHost, dialog: Dialog[Any], subject: str | None = None) -> None:
    """Open a form for the chosen combatants; once its command is done, the marks have been used.

    ``subject``: the command's field naming whom it was for.  Then only the marks of those go, and the
    others stay for the next action: a form of one combatant, opened with several marked, starts on the
    first of them (see ``logic.prefill``), so the GM does each in turn (a death save each)."""

    def done(command: Any) -> None:
        if command is None:
            return
        used = getattr(command, subject, None) if subject else None
        if isinstance(used, str):
            used = (used,)
        if isinstance(used, tuple) and all(isinstance(i, str) for i in used):
            screen.perform(command, lambda: screen.set_marks(tuple(m for m in screen.marked if m not in used)))
        else:
            screen.perform(command, lambda: used_marks(screen))

    screen.clear_undo_note()
    ask(screen.app, dialog, done)


def need_selected(screen: FightHost) -> str | None:
    """The selected combatant; none: the GM is told to choose one."""
    cid = screen.selected
    if cid is None:
        screen.refuse(CHOOSE_FIRST)
    return cid


def need_chosen(screen: FightHost) -> tuple[str, ...]:
    """The marked combatants, else the selected one; none: the GM is told to choose one."""
    chosen = context(screen).chosen
    if not chosen:
        screen.refuse(CHOOSE_FIRST)
    return chosen


def used_marks(screen: FightHost) -> None:
    """An action on the marked combatants is done: the marks go."""
    if screen.marked:
        screen.set_marks(())
