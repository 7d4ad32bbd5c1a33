"""A saved log seen step by step: the state after any line.

A :class:`Timeline` is a read-only :class:`~tracker.log.ActionLog`: opening
it checks the log's shape (actions, undo and redo) without applying any rule;
states are folded as far as they are asked for, once, and kept per GM action,
so a step costs at most one action's fold and the first jump to the end costs
one fold of the log.
"""

from __future__ import annotations

from collections.abc import Sequence

from tracker.log import ActionLog, Entry
from tracker.model import FightState
from tracker.plugin import System


class Timeline(ActionLog):
    """Positions, actions, rounds and undo marks of a saved log; states folded as far as asked."""

    def __init__(self, system: System, entries: Sequence[Entry]) -> None:
        super().__init__(system)
        self.extend(entries)

    @classmethod
    def of(cls, log: ActionLog, *, copy: bool = True) -> Timeline:
        """A read-only view of a log already folded (its states shared; its lists copied unless ``copy`` is
        false, when the log is handed over and must not change any more)."""
        t = cls.__new__(cls)
        t.__dict__.update(log.__dict__)
        if copy:
            for name in ("_entries", "_starts", "_actions", "_op", "_target", "_after", "_done", "_undone"):
                setattr(t, name, list(getattr(log, name)))
        return t

    @property
    def entries(self) -> list[Entry]:
        return self.loaded

    @property
    def states(self) -> tuple[FightState, ...]:
        """The state after every entry (folds the whole log)."""
        return tuple(self.state_at(p) for p in range(1, len(self) + 1))
