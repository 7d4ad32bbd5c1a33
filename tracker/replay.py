"""A saved log seen step by step: the state after any line, in O(1).

The timeline scans the log once to know where each GM action and each round
begins and which actions were undone, then folds it as far as it is asked,
once, keeping the state after every entry (states share their unchanged parts,
so this costs little memory).  Undo and redo entries take the state
back or forward exactly as they did live.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence

import attrs

from tracker.engine import Entry, LogError, evolve, initial_state
from tracker.events import Redone, RoundStarted, Undone
from tracker.model import FightState
from tracker.plugin import System


@attrs.frozen
class _Step:
    action: int
    before: FightState
    after: FightState


class Timeline:
    """Positions, actions, rounds and undo marks at once; states folded as far as asked, then kept.

    Opening costs one scan of the log (no rules applied); the fold runs up to
    the furthest position asked for, once, so a step costs O(1) and the first
    jump to the end costs one fold of the log.
    """

    def __init__(self, system: System, entries: Sequence[Entry]) -> None:
        self.system = system
        self.entries: tuple[Entry, ...] = tuple(entries)
        self.initial = initial_state(system)
        done: list[int] = []
        undone: list[int] = []
        ever_undone: set[int] = set()
        taken_back: set[int] = set()  # undone and not redone, even once a new action ends the redo
        action_starts: list[int] = []
        round_starts: list[int] = []
        previous: int | None = None
        for i, entry in enumerate(self.entries):
            action = entry.action
            new = action != previous
            previous = action
            if new:
                action_starts.append(i)
            ev = entry.event
            if isinstance(ev, Undone):
                if not done or done[-1] != ev.action:
                    raise LogError(f"event {entry.seq}: undo of action {ev.action} out of order")
                undone.append(done.pop())
                ever_undone.add(ev.action)
                taken_back.add(ev.action)
            elif isinstance(ev, Redone):
                if not undone or undone[-1] != ev.action:
                    raise LogError(f"event {entry.seq}: redo of action {ev.action} out of order")
                done.append(undone.pop())
                taken_back.discard(ev.action)
            else:
                if isinstance(ev, RoundStarted):
                    round_starts.append(i)
                if new:
                    done.append(action)
                    undone.clear()
        self.action_starts: tuple[int, ...] = tuple(action_starts)
        self.round_starts: tuple[int, ...] = tuple(round_starts)
        self.undone_actions: frozenset[int] = frozenset(taken_back)
        self.ever_undone: frozenset[int] = frozenset(ever_undone)
        # the fold so far: the state after each entry folded, the undo stacks, the open action
        self._states: list[FightState] = []
        self._done: list[_Step] = []
        self._undone: list[_Step] = []
        self._open: tuple[int, FightState] | None = None
        self._state = self.initial

    def _fold_to(self, k: int) -> None:
        """Fold entries until the state after the first ``k`` is known."""
        entries, system, states = self.entries, self.system, self._states
        done, undone = self._done, self._undone
        s, open_ = self._state, self._open
        i = len(states)
        try:
            while i < k:
                entry = entries[i]
                ev = entry.event
                if open_ is not None and entry.action != open_[0]:
                    done.append(_Step(open_[0], open_[1], s))
                    undone.clear()
                    open_ = None
                if isinstance(ev, Undone):
                    step = done.pop()
                    undone.append(step)
                    s = step.before
                elif isinstance(ev, Redone):
                    step = undone.pop()
                    done.append(step)
                    s = step.after
                else:
                    if open_ is None:
                        open_ = (entry.action, s)
                    s = evolve(system, s, ev)
                states.append(s)
                i += 1
        finally:
            self._state, self._open = s, open_

    @property
    def states(self) -> tuple[FightState, ...]:
        """The state after every entry (folds the whole log)."""
        self._fold_to(len(self.entries))
        return tuple(self._states)

    def __len__(self) -> int:
        return len(self.entries)

    def state_at(self, position: int) -> FightState:
        """The state after the first ``position`` entries (0: before any)."""
        if position <= 0:
            return self.initial
        p = min(position, len(self.entries))
        if p > len(self._states):
            self._fold_to(p)
        return self._states[p - 1]

    def before(self, index: int) -> FightState:
        """The state just before entry ``index`` (to describe it)."""
        return self.state_at(index)

    def describe(self, index: int) -> str:
        return self.entries[index].event.describe(self.before(index))

    def is_undone(self, index: int) -> bool:
        """Entry ``index`` belongs to an action that was taken back (and not redone)."""
        return self.entries[index].action in self.undone_actions

    # -- navigation: positions count entries applied (0..len) -------------------
    def next_action(self, position: int) -> int:
        i = bisect_right(self.action_starts, position)
        return self.action_starts[i] if i < len(self.action_starts) else len(self)

    def prev_action(self, position: int) -> int:
        i = bisect_right(self.action_starts, position - 1) - 1
        return self.action_starts[i] if i >= 0 else 0

    def end_of_action(self, position: int) -> int:
        """Position just after the action that the entry at ``position - 1`` belongs to."""
        return self.next_action(position - 1) if position > 0 else 0

    def next_round(self, position: int) -> int:
        i = bisect_right(self.round_starts, position - 1)
        while i < len(self.round_starts) and self.round_starts[i] + 1 <= position:
            i += 1
        return self.round_starts[i] + 1 if i < len(self.round_starts) else len(self)

    def prev_round(self, position: int) -> int:
        i = bisect_right(self.round_starts, position - 2) - 1
        return self.round_starts[i] + 1 if i >= 0 else 0
