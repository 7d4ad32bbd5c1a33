"""The action log: the one place that folds a fight's entries.

Entries (one event each) are grouped into GM actions; an undo or a redo is an
action of its own.  The log knows which actions are in effect (a done stack
and an undone stack, kept as persistent lists so the stacks after *any*
action are known), what was undone, and the state after every action; the
state after any entry is at most one action's fold away.

:class:`ActionLog` is what :class:`~tracker.fight.Fight` (the log plus a save
sink) and :class:`~tracker.replay.Timeline` (a read-only log, folded as far as
it is asked) are made of.  The summary, the export, ``tracker replay --text``
and the replay screen all ask it; no one else folds undo and redo.

A log may be *partial*: opened from a checkpoint, it holds the state after
the first ``base_entries`` entries and the actions after them.  Anything that
needs an older action raises :class:`NeedOlder`; the owner (the saves layer)
then loads the whole log and carries on.
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple

from tracker import events as E
from tracker.engine import evolve, initial_state
from tracker.errors import TrackerError
from tracker.model import FightState
from tracker.plugin import System

NORMAL, UNDO, REDO = 0, 1, 2


class Entry(NamedTuple):
    """One line of the log: a sequence number, the GM action it belongs to, the event."""

    seq: int
    action: int
    event: E.Event


def describe_action(before: FightState, events: Sequence[E.Event]) -> str:
    """One GM action in the GM's words: its first events (what undo and redo show).

    Ruling: a removal is named first, before the turn it moved on (the removal of the combatant whose turn it is
    logs the turn's end, the round, the next turn, then the removal; the undo said "Undone: Gunfighter 2 ends the
    turn; Round 2 …; Kid's turn …" and never that a combatant came back).  Only the words change: the events keep
    their order in the log (tests/core/test_gm3_fixes.py::test_undo_of_removing_the_current_combatant_names_it).
    """
    if len(events) > 1 and any(type(ev) is E.CombatantRemoved for ev in events[1:]):
        events = sorted(events, key=lambda ev: type(ev) is not E.CombatantRemoved)  # (stable: each kept in order)
    return "; ".join(ev.describe(before) for ev in events[:3]) + (" …" if len(events) > 3 else "")


class Step(NamedTuple):
    """One GM action in effect: its events and the states around it."""

    action: int
    events: tuple[E.Event, ...]
    before: FightState
    after: FightState

    def describe(self) -> str:
        return describe_action(self.before, self.events)


class LogError(TrackerError):
    """The log does not make sense (an undo of nothing, a redo out of order); ``seq`` names the event at fault
    (the loader and the players' view name its line)."""

    seq: int | None = None

    def __init__(self, message: str, seq: int | None = None) -> None:
        super().__init__(message)
        if seq is not None:
            self.seq = seq


# a persistent stack: (group, below) or None; the bottom of a partial log's stack is an Older
Node = Any


class Older:
    """The part of a stack that lies before a partial log (action numbers only, top first)."""

    __slots__ = ("actions", "size")

    def __init__(self, actions: Sequence[int], size: int) -> None:
        self.actions = tuple(actions)
        self.size = size

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Older) and (self.actions, self.size) == (other.actions, other.size)

    def __hash__(self) -> int:
        return hash((self.actions, self.size))


class NeedOlder(TrackerError):
    """The log is partial and the answer lies in the entries it has not loaded."""


class ActionLog:
    """Entries grouped into actions, with the undo and redo stacks and the states after each action.

    ``extend`` checks and adds entries (a log that does not make sense raises
    :class:`LogError` whose ``seq`` names the event at
    fault); states are folded by ``fold_to``, as far as needed.
    """

    def __init__(
        self,
        system: System,
        *,
        base_state: FightState | None = None,
        base_entries: int = 0,
        base_action: int = 0,
        done: Node = None,
        undone: Node = None,
    ) -> None:
        self.system = system
        self.initial = initial_state(system)
        self.base_state = self.initial if base_state is None else base_state
        self.base_entries = base_entries  # entries before this log (a partial log's older part)
        self._entries: list[Entry] = []
        self._starts = array("q")  # index (in _entries) of each action's first entry (no int object each)
        self._actions: list[int] = []  # each action's number
        self._op: list[int] = []  # NORMAL, UNDO or REDO
        self._target: list[int] = []  # the action group an undo or redo takes back or again
        self._after: list[FightState] = []  # the state after each action, as far as folded
        self._done: list[Node] = []  # the done stack after each action
        self._undone: list[Node] = []
        self._base_done: Node = done
        self._base_undone: Node = undone
        self.new_seq = base_entries + 1
        self.new_action = base_action + 1
        self._mid: tuple[int, list[FightState]] | None = None  # states inside one action
        self._rounds: tuple[int, ...] | None = None
        self._marks: tuple[frozenset[int], frozenset[int]] | None = None

    # -- size and entries ------------------------------------------------------
    @property
    def partial(self) -> bool:
        return self.base_entries > 0

    def __len__(self) -> int:
        return self.base_entries + len(self._entries)

    @property
    def loaded(self) -> list[Entry]:
        """The entries this log holds (all of them unless it is partial)."""
        return self._entries

    def entry(self, index: int) -> Entry:
        i = index - self.base_entries
        if i < 0:
            raise NeedOlder(f"entry {index} is older than the loaded part of the log")
        return self._entries[i]

    @property
    def groups(self) -> int:
        return len(self._starts)

    @property
    def folded(self) -> int:
        return len(self._after)

    # -- adding ------------------------------------------------------------------
    def _tops(self) -> tuple[Node, Node]:
        if self._starts:
            return self._done[-1], self._undone[-1]
        return self._base_done, self._base_undone

    def _group_of_action(self, action: int) -> int:
        """The group index of an action number in the loaded part (-1 if not loaded)."""
        k = bisect_right(self._actions, action) - 1
        return k if k >= 0 and self._actions[k] == action else -1

    def check(self, entries: Sequence[Entry]) -> tuple[int, int, Node, Node]:
        """Check one action's entries against the log; its kind, target and the stacks after it."""
        first = entries[0]
        if first.seq != self.new_seq:
            raise LogError(f"event {first.seq} out of sequence: expected {self.new_seq}", first.seq)
        if first.action < self.new_action:
            raise LogError(f"action {first.action} out of sequence: expected {self.new_action} or later", first.seq)
        for i, entry in enumerate(entries):
            if entry.seq != first.seq + i:
                raise LogError(f"event {entry.seq} out of sequence: expected {first.seq + i}", entry.seq)
            if entry.action != first.action:
                raise LogError(f"event {entry.seq}: one action's entries share its number", entry.seq)
        done, undone = self._tops()
        ev = first.event
        kind = type(ev)
        if kind is E.Undone or kind is E.Redone:
            if len(entries) != 1:
                raise LogError(f"event {first.seq}: an undo or redo must stand alone in its action", first.seq)
            undo = kind is E.Undone
            wanted: int = ev.action  # type: ignore[attr-defined]
            source = done if undo else undone
            what = "undo" if undo else "redo"
            if isinstance(source, Older):
                if source.actions and source.actions[0] == wanted:
                    raise NeedOlder(f"the {what} of action {wanted} needs older entries")
                source = None
            if source is None or self._actions[source[0]] != wanted:
                raise LogError(
                    f"event {first.seq}: {what} of action {wanted}, which is not the next to {what}", first.seq
                )
            target = source[0]
            if undo:
                return UNDO, target, done[1], (target, undone)
            return REDO, target, (target, done), undone[1]
        for entry in entries[1:]:
            if type(entry.event) is E.Undone or type(entry.event) is E.Redone:
                raise LogError(f"event {entry.seq}: an undo or redo must stand alone in its action", entry.seq)
        return NORMAL, -1, (len(self._starts), done), None

    def _push(self, entries: Sequence[Entry], op: int, target: int, done: Node, undone: Node) -> None:
        self._starts.append(len(self._entries))
        self._actions.append(entries[0].action)
        self._op.append(op)
        self._target.append(target)
        self._done.append(done)
        self._undone.append(undone)
        self._entries.extend(entries)
        self.new_seq = entries[-1].seq + 1
        self.new_action = entries[0].action + 1
        self._rounds = None
        self._marks = None

    def add(self, entries: Sequence[Entry], after: FightState | None = None, checked: Any = None) -> None:
        """Add one checked action (``checked`` from :meth:`check`) and its state (folded if not given)."""
        op, target, done, undone = checked if checked is not None else self.check(entries)
        folded_all = len(self._after) == len(self._starts)
        self._push(entries, op, target, done, undone)
        if folded_all:
            if after is None or op != NORMAL:
                self.fold_to(len(self._starts))
            else:
                self._after.append(after)

    def state_after_action(self, entries: Sequence[Entry], checked: tuple[int, int, Node, Node]) -> FightState:
        """The state one checked action leads to (without adding it)."""
        op, target = checked[0], checked[1]
        if op == UNDO:
            return self._before(target)
        if op == REDO:
            return self._state(target)
        s = self.state
        for entry in entries:
            s = evolve(self.system, s, entry.event)
        return s

    def extend(self, entries: Sequence[Entry]) -> None:
        """Add saved entries (grouped by action); states are folded later, as far as asked.

        The hot path of loading: the common case (an action of ordinary events)
        is checked inline; an undo or redo goes through :meth:`check`.
        """
        n = len(entries)
        starts, actions, ops, targets = self._starts, self._actions, self._op, self._target
        dones, undones = self._done, self._undone
        own = self._entries
        base = len(own)
        undo_t, redo_t = E.Undone, E.Redone
        new_seq, new_action = self.new_seq, self.new_action
        done = dones[-1] if dones else self._base_done
        k = len(starts)
        added = 0  # entries[:added] are in the log's list (the others are added at once, at the end)
        i = 0
        try:
            while i < n:
                first = entries[i]
                action = first.action
                kind = type(first.event)
                if kind is undo_t or kind is redo_t or first.seq != new_seq or action < new_action:
                    j = i + 1
                    while j < n and entries[j].action == action:
                        j += 1
                    group = entries[i:j]
                    own.extend(entries[added:i])
                    added = i
                    self.new_seq, self.new_action = new_seq, new_action
                    self._push(group, *self.check(group))
                    added = j
                    new_seq, new_action = self.new_seq, self.new_action
                    done = dones[-1]
                    k = len(starts)
                    i = j
                    continue
                seq = first.seq + 1
                j = i + 1
                while j < n:
                    e = entries[j]
                    if e.action != action:
                        break
                    if e.seq != seq:
                        raise LogError(f"event {e.seq} out of sequence: expected {seq}", e.seq)
                    t = type(e.event)
                    if t is undo_t or t is redo_t:
                        raise LogError(f"event {e.seq}: an undo or redo must stand alone in its action", e.seq)
                    seq += 1
                    j += 1
                starts.append(base + i)
                actions.append(action)
                ops.append(NORMAL)
                targets.append(-1)
                done = (k, done)
                dones.append(done)
                undones.append(None)
                k += 1
                new_seq = seq
                new_action = action + 1
                i = j
        except LogError as e:
            if e.seq is None:  # (else the event at fault, named where it was found: not the action's first)
                e.seq = entries[i].seq
            raise
        finally:
            own.extend(entries[added:i])  # (the actions added, up to one that does not make sense)
            self.new_seq, self.new_action = new_seq, new_action
            self._rounds = None
            self._marks = None

    # -- folding -------------------------------------------------------------------
    def _before(self, k: int) -> FightState:
        return self._state(k - 1) if k > 0 else self.base_state

    def _state(self, k: int) -> FightState:
        if k >= len(self._after):
            self.fold_to(k + 1)
        return self._after[k]

    def fold_to(self, groups: int) -> None:
        """Fold until the state after the first ``groups`` actions is known (the hot path of loading)."""
        after = self._after
        k = len(after)
        if k >= groups:
            return
        system = self.system
        entries, starts, ops, targets = self._entries, self._starts, self._op, self._target
        total = len(starts)
        s = after[-1] if after else self.base_state
        i = -1  # the entry being applied (the error names it, not its action's first)
        try:
            while k < groups:
                op = ops[k]
                if op == NORMAL:
                    end = starts[k + 1] if k + 1 < total else len(entries)
                    for i in range(starts[k], end):
                        s = evolve(system, s, entries[i].event)
                elif op == UNDO:
                    t = targets[k]
                    s = after[t - 1] if t > 0 else self.base_state
                else:
                    s = after[targets[k]]
                after.append(s)
                k += 1
        except LogError as e:
            e.seq = entries[i if starts[k] <= i < len(entries) else starts[k]].seq
            raise
        except Exception as e:  # a damaged or hostile log: one clear error naming the event that does not apply
            seq = entries[i if starts[k] <= i < len(entries) else starts[k]].seq
            # a value refused (a plug-in's ValueError): its words alone; anything else named with its kind
            why = _short(e) if type(e) is ValueError else f"{type(e).__name__}: {_short(e)}"
            raise LogError(f"event {seq} does not apply: {why}", seq) from None

    def fold(self) -> None:
        self.fold_to(len(self._starts))

    # -- the state -----------------------------------------------------------------
    @property
    def state(self) -> FightState:
        if not self._starts:
            return self.base_state
        return self._state(len(self._starts) - 1)

    def _group_at(self, index: int) -> int:
        """The group holding entry ``index`` (absolute)."""
        return bisect_right(self._starts, index - self.base_entries) - 1

    def _end(self, k: int) -> int:
        return self._starts[k + 1] if k + 1 < len(self._starts) else len(self._entries)

    def state_at(self, position: int) -> FightState:
        """The state after the first ``position`` entries (0: before any)."""
        position = min(position, len(self))
        if position <= self.base_entries:
            if position == self.base_entries:
                return self.base_state
            raise NeedOlder(f"the state at {position} is older than the loaded part of the log")
        k = self._group_at(position - 1)
        local = position - self.base_entries
        end = self._end(k)
        if local == end:
            return self._state(k)
        # inside a GM action: fold its first events (kept for the next question)
        mid = self._mid
        if mid is None or mid[0] != k:
            states: list[FightState] = []
            s = self._before(k)
            for i in range(self._starts[k], end - 1):
                s = evolve(self.system, s, self._entries[i].event)
                states.append(s)
            self._mid = mid = (k, states)
        return mid[1][local - self._starts[k] - 1]

    def before(self, index: int) -> FightState:
        """The state just before entry ``index`` (to describe it)."""
        return self.state_at(index)

    # -- the stacks ----------------------------------------------------------------
    def _step(self, k: int) -> Step:
        start, end = self._starts[k], self._end(k)
        events = tuple(e.event for e in self._entries[start:end])
        return Step(self._actions[k], events, self._before(k), self._state(k))

    def _walk(self, node: Node) -> Iterator[int]:
        while node is not None:
            if isinstance(node, Older):
                if node.size:
                    raise NeedOlder("the stack reaches into older entries")
                return
            yield node[0]
            node = node[1]

    def done_steps(self) -> tuple[Step, ...]:
        """The actions in effect, first to last."""
        done, _ = self._tops()
        return tuple(self._step(k) for k in reversed(list(self._walk(done))))

    def _top(self, node: Node) -> Step | None:
        if node is None:
            return None
        if isinstance(node, Older):
            if node.size:
                raise NeedOlder("the next step is older than the loaded part of the log")
            return None
        return self._step(node[0])

    def last_step(self) -> Step | None:
        return self._top(self._tops()[0])

    def next_redo(self) -> Step | None:
        return self._top(self._tops()[1])

    @staticmethod
    def _nonempty(node: Node) -> bool:
        return bool(node.size) if isinstance(node, Older) else node is not None

    @property
    def can_undo(self) -> bool:
        return self._nonempty(self._tops()[0])

    @property
    def can_redo(self) -> bool:
        return self._nonempty(self._tops()[1])

    def stacks(self, groups: int | None = None) -> tuple[list[int], list[int]]:
        """The action numbers of the done and undone stacks (top first) after the first ``groups`` actions."""
        k = len(self._starts) if groups is None else groups
        if k == 0:
            done, undone = self._base_done, self._base_undone
        else:
            done, undone = self._done[k - 1], self._undone[k - 1]
        return self._numbers(done), self._numbers(undone)

    def stack_tops(self, groups: int | None = None, top: int = 16) -> tuple[list[int], int, list[int], int]:
        """The top ``top`` action numbers of the done and undone stacks, and their sizes, after ``groups`` actions."""
        k = len(self._starts) if groups is None else groups
        if k == 0:
            nodes = (self._base_done, self._base_undone)
        else:
            nodes = (self._done[k - 1], self._undone[k - 1])
        out: list[Any] = []
        for node in nodes:
            numbers: list[int] = []
            size = 0
            while node is not None:
                if isinstance(node, Older):
                    numbers.extend(node.actions[: max(top - len(numbers), 0)])
                    size += node.size
                    break
                if len(numbers) < top:
                    numbers.append(self._actions[node[0]])
                size += 1
                node = node[1]
            out += [numbers[:top], size]
        return out[0], out[1], out[2], out[3]

    def _numbers(self, node: Node) -> list[int]:
        out: list[int] = []
        while node is not None:
            if isinstance(node, Older):
                out.extend(node.actions)
                break
            out.append(self._actions[node[0]])
            node = node[1]
        return out

    def in_effect(self, upto: int | None = None) -> list[int]:
        """Indexes of the entries among the first ``upto`` whose action is in effect there, in log order."""
        n = len(self)
        upto = n if upto is None else max(0, min(upto, n))
        if upto <= self.base_entries:
            return []
        k = self._group_at(upto - 1)
        groups = sorted(self._walk(self._done[k]))
        out: list[int] = []
        for g in groups:
            start = self._starts[g]
            end = min(self._end(g), upto - self.base_entries)
            out.extend(range(start + self.base_entries, end + self.base_entries))
        return out

    # -- what the log says -------------------------------------------------------------
    def describe_action(self, action: int) -> str:
        """One action in the GM's words (its first events), as undo and redo show it."""
        k = self._group_of_action(action)
        if k < 0:
            if self.partial and (not self._actions or action < self._actions[0]):
                raise NeedOlder(f"action {action} is older than the loaded part of the log")
            return f"action {action}"
        start, end = self._starts[k], self._end(k)
        events = [e.event for e in self._entries[start:end]]
        return describe_action(self._before(k), events)

    def action_seqs(self, action: int) -> tuple[int, int] | None:
        """The first and last event numbers of an action (what the GM reads beside its lines; None if it is not
        loaded): the action's own number is the log's, shown nowhere."""
        k = self._group_of_action(action)
        if k < 0:
            return None
        return self._entries[self._starts[k]].seq, self._entries[self._end(k) - 1].seq

    def action_before(self, action: int) -> FightState | None:
        """The state just before an action (None if the log has no such action loaded)."""
        k = self._group_of_action(action)
        return self._before(k) if k >= 0 else None

    def describe(self, index: int) -> str:
        """Entry ``index`` in the GM's words; an undo or redo names what it took back or again."""
        ev = self.entry(index).event
        if type(ev) is E.Undone:
            return f"undone: {self.describe_action(ev.action)}"
        if type(ev) is E.Redone:
            return f"redone: {self.describe_action(ev.action)}"
        return ev.describe(self.before(index))

    def _scan_marks(self) -> tuple[frozenset[int], frozenset[int]]:
        if self._marks is None:
            ever: set[int] = set()
            back: set[int] = set()
            for k, op in enumerate(self._op):
                if op == UNDO:
                    a = self._actions[self._target[k]]
                    ever.add(a)
                    back.add(a)
                elif op == REDO:
                    back.discard(self._actions[self._target[k]])
            self._marks = (frozenset(back), frozenset(ever))
        return self._marks

    @property
    def undone_actions(self) -> frozenset[int]:
        """Actions taken back and not redone (by the end of the log)."""
        return self._scan_marks()[0]

    @property
    def ever_undone(self) -> frozenset[int]:
        return self._scan_marks()[1]

    def is_undone(self, index: int) -> bool:
        """Entry ``index`` belongs to an action that was taken back (and not redone)."""
        return self.entry(index).action in self.undone_actions

    # -- navigation: positions count entries applied (0..len) -------------------
    @property
    def action_starts(self) -> tuple[int, ...]:
        b = self.base_entries
        return tuple(s + b for s in self._starts)

    @property
    def round_starts(self) -> tuple[int, ...]:
        if self._rounds is None:
            b = self.base_entries
            self._rounds = tuple(i + b for i, e in enumerate(self._entries) if type(e.event) is E.RoundStarted)
        return self._rounds

    def next_action(self, position: int) -> int:
        i = bisect_right(self._starts, position - self.base_entries)
        return self._starts[i] + self.base_entries if i < len(self._starts) else len(self)

    def prev_action(self, position: int) -> int:
        i = bisect_right(self._starts, position - 1 - self.base_entries) - 1
        return self._starts[i] + self.base_entries if i >= 0 else self.base_entries

    def end_of_action(self, position: int) -> int:
        """Position just after the action that the entry at ``position - 1`` belongs to."""
        return self.next_action(position - 1) if position > 0 else 0

    def _round_landing(self, start: int) -> int:
        """Where a round jump shows the round beginning at entry ``start``: the end of the action that began it
        (next turn goes from a turn's end through the round's start to its first turn in one action; just after
        "Round 2" the last turn of round 1 was still shown up, which the live fight never showed)."""
        return self.end_of_action(start + 1)

    def _rounds_kept(self, skip_undone: bool) -> tuple[int, ...]:
        """The round starts, but those of actions a later undo takes back when ``skip_undone`` (a round jump with
        undone actions stepped over landed in a round that was taken back)."""
        rs = self.round_starts
        return tuple(r for r in rs if self.skip_forward(r) == r) if skip_undone else rs

    def next_round(self, position: int, skip_undone: bool = False) -> int:
        rs = self._rounds_kept(skip_undone)
        i = max(bisect_right(rs, position - 1) - 1, 0)  # (the round begun by the action ``position`` is in)
        while i < len(rs) and self._round_landing(rs[i]) <= position:
            i += 1
        return self._round_landing(rs[i]) if i < len(rs) else len(self)

    def prev_round(self, position: int, skip_undone: bool = False) -> int:
        rs = self._rounds_kept(skip_undone)
        i = bisect_right(rs, position - 1) - 1
        while i >= 0 and self._round_landing(rs[i]) >= position:
            i -= 1
        return self._round_landing(rs[i]) if i >= 0 else 0

    # -- stepping over undone actions ----------------------------------------------------
    def skip_forward(self, position: int) -> int:
        """Past every action (or redo) at ``position`` that a later undo takes back."""
        undos, _ = self._undo_index()
        n = len(self)
        while position < n:
            k = self._group_at(position)
            op = self._op[k]
            if op == UNDO:
                return position
            g = self._target[k] if op == REDO else k
            later = [u for u in undos.get(g, ()) if self._starts[u] + self.base_entries >= position]
            if not later:
                return position
            position = self._starts[later[0]] + self.base_entries + 1
        return position

    def skip_back(self, position: int) -> int:
        """Before every undo just behind ``position`` and the action it took back."""
        _, applies = self._undo_index()
        while position > self.base_entries:
            k = self._group_at(position - 1)
            if self._op[k] != UNDO:
                return position
            starts = [a for a in applies.get(self._target[k], ()) if a < k]
            if not starts:
                return position
            position = self._starts[starts[-1]] + self.base_entries
        return position

    def _undo_index(self) -> tuple[dict[int, list[int]], dict[int, list[int]]]:
        """Per action group: the groups that undo it, and the groups where it takes effect (itself, redos)."""
        undos: dict[int, list[int]] = {}
        applies: dict[int, list[int]] = {}
        for k, op in enumerate(self._op):
            if op == UNDO:
                undos.setdefault(self._target[k], []).append(k)
            elif op == REDO:
                applies.setdefault(self._target[k], []).append(k)
            else:
                applies.setdefault(k, []).append(k)
        return undos, applies


def _short(e: BaseException) -> str:
    text = str(e)
    return text if len(text) <= 200 else text[:200] + "…"
