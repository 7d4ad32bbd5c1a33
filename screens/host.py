"""The fight screen as its actions see it: :class:`FightHost`.

The GM's actions (:mod:`screens.actions`) and the doing of a command (:mod:`screens.doing`) are functions of the
fight screen. They name it by this protocol, not by :class:`screens.fight.FightScreen`, because that module imports
them: so no module imports another both ways round, not even for the type checker. mypy checks that a
``FightScreen`` is a ``FightHost`` wherever the screen hands itself to an action.

To let an action use something more of the screen, declare it here (an attribute, a property or a method, typed as
the screen has it).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any, Protocol, TypeVar

from textual.app import App
from textual.notifications import SeverityLevel
from textual.widget import Widget

from tracker import Fight
from tracker.dice import TypedRoller
from tracker.events import Event
from tracker.plugin import System

W = TypeVar("W", bound=Widget)


class FightHost(Protocol):
    """What the actions use of the fight screen."""

    fight: Fight
    system: System
    typed: TypedRoller  # the faces the GM types in, when the fight's dice are typed in
    system_keys: dict[str, str]  # key -> the system's command name
    marked: tuple[str, ...]
    undo_note: str  # "Undone: ..." above the list, until the next action
    serving: Any  # screens.serve.Serving while the players' view of this fight is served

    @property
    def app(self) -> App[Any]: ...

    @property
    def save_path(self) -> Path | None: ...

    @property
    def selected(self) -> str | None: ...

    def probe(self, command: Any) -> Any:
        """``command``, unless the rules would refuse it."""

    def perform(self, command: Any, after: Callable[[], None] | None = None) -> None:
        """Do one GM action (a command, or a list of them as one step) and show it."""

    def refuse(self, message: str) -> None:
        """Say why an action was not done."""

    def show_done(self, events: list[Event]) -> None:
        """Show what an action logged: its log lines and the table as it now is."""

    def add_log(self, lines: list[str], style: str = "") -> None: ...

    def mark_log(self, seqs: Collection[int], style: str) -> None: ...

    def refresh_view(self) -> None: ...

    def set_marks(self, marked: tuple[str, ...]) -> None: ...

    def clear_undo_note(self) -> None: ...

    def say_file_lost(self, name: str) -> None:
        """Say under the log that the fight's file was lost: nothing is saved there any more."""

    def close(self) -> None:
        """Back to the start screen (the fight stays saved)."""

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None: ...

    def query_one(self, selector: type[W]) -> W: ...
