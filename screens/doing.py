"""Doing GM actions: the core decides, the save writer appends and fsyncs, then the screen shows it.

Several commands (a condition on three marked combatants) are decided one
after the other on the state the earlier ones lead to and logged as one GM
action, so one undo takes them all back.  In typed-in dice mode a decision
that needs dice asks the GM for the faces and is decided again with them, until
it is complete; cancelling logs nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from screens import logic
from screens.dialogs.base import ask
from screens.dialogs.faces import FacesDialog
from screens.guard import failure
from tracker import Fight
from tracker.dice import FacesNeeded, Roller, TypedRoller
from tracker.engine import decide_full
from tracker.errors import TrackerError
from tracker.events import Event
from tracker.text import visible


class Doing:
    """Mixed into the fight screen: ``fight``, ``typed`` and the screen's own methods are there."""

    fight: Fight
    typed: TypedRoller

    if TYPE_CHECKING:  # the screen's own (Textual's and the fight screen's)
        app: Any

        def notify(self, *args: Any, **kwargs: Any) -> Any: ...

        def show_done(self, events: list[Event]) -> None: ...

    def refuse(self, message: str) -> None:
        self.notify(visible(message), title="Not done", severity="error", timeout=6, markup=False)
        self.app.bell()

    @property
    def dice(self) -> Roller | None:
        """The typed-in roller when the fight's dice are typed in, else the fight's own."""
        return self.typed if self.fight.state.typed_dice else None

    def _decide_and_log(self, commands: Sequence[Any], dice: Roller | None) -> list[Event]:
        if len(commands) == 1:
            return self.fight.do(commands[0], dice=dice)
        return self.fight.do_all(commands, dice=dice)

    def perform(self, command: Any, after: Callable[[], None] | None = None) -> None:
        """Do one GM action (one command, or a list of them as one step) and show it."""
        commands = list(command) if isinstance(command, list | tuple) else [command]
        if not commands:
            return
        dice = self.dice
        try:
            events = self._decide_and_log(commands, dice)
        except FacesNeeded as need:
            typed = self.typed

            def faces_given(ok: bool | None) -> None:
                typed.rewind()
                if ok:
                    self.perform(command, after)
                else:
                    typed.supplied.clear()
                    self.notify("Cancelled: nothing was logged.", title="Dice")

            ask(self.app, FacesDialog(need.request, typed), faces_given)
            return
        except TrackerError as e:
            self._reset_typed()
            self.refuse(str(e))
            return
        except Exception as e:  # a plug-in bug: say so, keep the fight
            self._reset_typed()
            self.refuse(failure(e, "the rules"))
            return
        self._reset_typed()
        self.show_done(events)
        if after is not None:
            after()

    def _reset_typed(self) -> None:
        self.typed.supplied.clear()
        self.typed.rewind()

    def probe(self, command: Any) -> Any:
        """Ask the rules whether they would refuse ``command`` (Refused shows in the form)."""
        commands = list(command) if isinstance(command, list | tuple) else [command]
        state = self.fight.state
        try:
            for c in commands:
                _events, state = decide_full(self.fight.system, state, c, logic.ProbeRoller())
        except TrackerError:
            raise
        except Exception:  # unexpected trouble shows when the action is really taken
            pass
        return command
