"""The live fight: an action log (state, undo, redo) plus a save sink.

:class:`Fight` decides each GM action with :mod:`tracker.engine`, keeps it in
a :class:`~tracker.log.ActionLog` (which holds the state after every action,
so undo and redo cost the same however long the log is) and hands its entries
to the sink (the saves layer's writer) before it takes effect.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

from tracker import commands as C
from tracker import events as E
from tracker.dice import Roller, SeededRoller
from tracker.engine import decide, decide_full
from tracker.errors import Refused, TrackerError
from tracker.log import ActionLog, Entry, NeedOlder, Step
from tracker.model import FightState
from tracker.plugin import System

_T = TypeVar("_T")


Sink = Callable[[Sequence[Entry]], None]


class Fight:
    """A fight in progress: an action log (state, undo, redo) plus a save sink.

    ``sink`` is called with each action's entries after they are checked and
    before the action takes effect; the saves module passes a writer that
    appends, flushes and fsyncs, so an action shown as done is on disk.  If
    the sink raises, the action is not taken: the state and the log stay as
    they were, and the same action can be tried again.
    """

    def __init__(
        self,
        system: System,
        *,
        roller: Roller | None = None,
        sink: Sink | None = None,
        log: ActionLog | None = None,
        older: Callable[[], ActionLog] | None = None,
    ) -> None:
        self.system = system
        self.roller: Roller = roller if roller is not None else SeededRoller()
        self.sink = sink
        self.log: ActionLog = log if log is not None else ActionLog(system)
        self.initial = self.log.initial
        # a log opened from a checkpoint: ``older`` loads it whole when an older step is needed
        self.older = older
        self.notices: list[str] = []

    def _whole(self) -> None:
        """Replace a partial log by the whole one (folded from the start; the fold wins)."""
        loader, self.older = self.older, None
        if loader is None:
            raise TrackerError("the older part of this fight's log cannot be read")
        whole = loader()
        if whole.state != self.log.state:
            self.notices.append("a checkpoint in the file disagreed with its log; the log's state is used")
        self.log = whole

    def _ask(self, question: Callable[[], _T]) -> _T:
        try:
            return question()
        except NeedOlder:
            self._whole()
            return question()

    # -- asking --------------------------------------------------------------
    @property
    def state(self) -> FightState:
        return self.log.state

    @property
    def entries(self) -> Sequence[Entry]:
        """Every entry of the log, in order (older ones read from the file when first asked for)."""
        if self.log.partial:
            return _Entries(self)
        return self.log.loaded

    @property
    def can_undo(self) -> bool:
        return self.log.can_undo

    @property
    def can_redo(self) -> bool:
        return self.log.can_redo

    @property
    def steps(self) -> tuple[Step, ...]:
        """The GM actions in effect, first to last."""
        return self._ask(lambda: self.log.done_steps())

    def last_step(self) -> Step | None:
        return self._ask(lambda: self.log.last_step())

    def next_redo(self) -> Step | None:
        return self._ask(lambda: self.log.next_redo())

    def describe_action(self, action: int) -> str:
        return self._ask(lambda: self.log.describe_action(action))

    def describe(self, index: int) -> str:
        """Entry ``index`` of the log in the GM's words (an undo names what it took back)."""
        return self._ask(lambda: self.log.describe(index))

    def action_before(self, action: int) -> FightState | None:
        """The state just before an action of the log (None if there is no such action)."""
        return self._ask(lambda: self.log.action_before(action))

    def decide(self, command: Any, dice: Roller | None = None) -> list[E.Event]:
        return decide(self.system, self.state, command, dice if dice is not None else self.roller)

    # -- doing ---------------------------------------------------------------
    def do(self, command: Any, dice: Roller | None = None) -> list[E.Event]:
        """Decide, save and apply one GM action; Refused leaves everything as it was."""
        events, after = decide_full(self.system, self.state, command, dice if dice is not None else self.roller)
        if events:  # (none: a restoring step that already holds, C.Adjust.restore; nothing to log)
            self.record(events, after)
        return events

    def do_all(self, commands: Sequence[Any], dice: Roller | None = None) -> list[E.Event]:
        """Several commands as one GM action (one undo step): each decided on the state the earlier ones lead
        to; if any is refused, nothing is logged."""
        state = self.state
        done: list[E.Event] = []
        for command in commands:
            try:
                events, state = decide_full(self.system, state, command, dice if dice is not None else self.roller)
            except Refused as e:
                raise _which(commands, command, e) from e
            done += events
        if not done:
            raise Refused("nothing to do")
        self.record(done, state)
        return done

    def record(self, events: Sequence[E.Event], after: FightState | None = None) -> Step:
        """Append one GM action's events (already decided; ``after``, the state they lead to, if known)."""
        log = self.log
        entries = [Entry(log.new_seq + i, log.new_action, ev) for i, ev in enumerate(events)]
        return self._take(entries, after=after)

    def undo(self) -> Step:
        step = self.last_step()
        if step is None:
            raise Refused("nothing to undo")
        self._take([Entry(self.log.new_seq, self.log.new_action, E.Undone(action=step.action))])
        return step

    def redo(self) -> Step:
        step = self.next_redo()
        if step is None:
            raise Refused("nothing to redo")
        self._take([Entry(self.log.new_seq, self.log.new_action, E.Redone(action=step.action))])
        return step

    def load(self, entries: Iterable[Entry]) -> None:
        """Replay saved entries (grouped by action) without writing them again.

        A log that does not replay raises LogError whose ``seq`` names the
        first event of the action that failed.
        """
        items = entries if isinstance(entries, (list, tuple)) else list(entries)
        if not items:
            return
        self.log.extend(items)
        self.log.fold()

    def _take(self, entries: list[Entry], *, after: FightState | None = None) -> Step:
        """Check one action, compute its state, hand it to the sink, then take it."""
        checked = self._ask(lambda: self.log.check(entries))
        log = self.log
        if checked[0] != 0 or after is None:
            after = log.state_after_action(entries, checked)
        if self.sink is not None:
            self.sink(entries)  # raises if it could not save: nothing was taken
        log.add(entries, after, checked)
        if checked[0] == 0:
            step = log.last_step()
            assert step is not None
            return step
        k = log._group_of_action(entries[0].event.action)  # type: ignore[attr-defined]
        return log._step(k)


class _Entries(Sequence[Entry]):
    """The entries of a fight opened from a checkpoint: the tail at hand, older ones loaded when asked for."""

    def __init__(self, fight: Fight) -> None:
        self.fight = fight

    def __len__(self) -> int:
        return len(self.fight.log)

    def _all(self) -> list[Entry]:
        if self.fight.log.partial:
            self.fight._whole()
        return self.fight.log.loaded

    def __getitem__(self, index: Any) -> Any:
        log = self.fight.log
        n = len(log)
        base = log.base_entries
        if isinstance(index, slice):
            start, stop, step = index.indices(n)
            if step == 1 and start >= base:
                return log.loaded[start - base : max(stop - base, 0)]
            return self._all()[index]
        i = index + n if index < 0 else index
        if not 0 <= i < n:
            raise IndexError(index)
        if i >= base:
            return log.loaded[i - base]
        return self._all()[i]

    def __iter__(self) -> Iterator[Entry]:
        return iter(self._all())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]


def _which(commands: Sequence[Any], command: Any, refused: Refused) -> Refused:
    """A refusal of one of several combatants added as one action (a party loaded, F6) names the one refused:
    "Stat Boost must name a stat" did not say which of four PCs (audit g2)."""
    said = str(refused)
    if len(commands) < 2 or not isinstance(command, C.AddCombatant) or not command.name or command.name in said:
        return refused
    named = Refused(f"{command.name}: {said}")
    named.rule = refused.rule
    return named
