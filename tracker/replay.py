"""A saved log seen step by step: the state after any line, in O(1).

The timeline folds the log once, keeping the state after every entry (states
share their unchanged parts, so this costs little memory), and remembers where
each GM action and each round begins.  Undo and redo entries take the state
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
    def __init__(self, system: System, entries: Sequence[Entry]) -> None:
        self.system = system
        self.entries: tuple[Entry, ...] = tuple(entries)
        self.initial = initial_state(system)
        states: list[FightState] = []
        done: list[_Step] = []
        undone: list[_Step] = []
        ever_undone: set[int] = set()
        taken_back: set[int] = set()  # undone and not redone, even once a new action ends the redo
        action_starts: list[int] = []
        round_starts: list[int] = []
        s = self.initial
        i = 0
        n = len(self.entries)
        while i < n:
            action = self.entries[i].action
            action_starts.append(i)
            ev = self.entries[i].event
            if isinstance(ev, Undone):
                if not done or done[-1].action != ev.action:
                    raise LogError(f"event {self.entries[i].seq}: undo of action {ev.action} out of order")
                step = done.pop()
                undone.append(step)
                ever_undone.add(step.action)
                taken_back.add(step.action)
                s = step.before
                states.append(s)
                i += 1
                continue
            if isinstance(ev, Redone):
                if not undone or undone[-1].action != ev.action:
                    raise LogError(f"event {self.entries[i].seq}: redo of action {ev.action} out of order")
                step = undone.pop()
                done.append(step)
                taken_back.discard(step.action)
                s = step.after
                states.append(s)
                i += 1
                continue
            before = s
            while i < n and self.entries[i].action == action:
                ev = self.entries[i].event
                if isinstance(ev, RoundStarted):
                    round_starts.append(i)
                s = evolve(system, s, ev)
                states.append(s)
                i += 1
            done.append(_Step(action, before, s))
            undone.clear()
        self.states: tuple[FightState, ...] = tuple(states)
        self.action_starts: tuple[int, ...] = tuple(action_starts)
        self.round_starts: tuple[int, ...] = tuple(round_starts)
        self.undone_actions: frozenset[int] = frozenset(taken_back)
        self.ever_undone: frozenset[int] = frozenset(ever_undone)

    def __len__(self) -> int:
        return len(self.entries)

    def state_at(self, position: int) -> FightState:
        """The state after the first ``position`` entries (0: before any)."""
        if position <= 0:
            return self.initial
        return self.states[min(position, len(self.states)) - 1]

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
