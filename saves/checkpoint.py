"""Checkpoints: the folded state written into the log now and then, read back from the end of the file.

A checkpoint is a cache; the events are the truth.  A checkpoint line::

    {"checkpoint": {"seq": S, "action": A, "at": OFFSET, "done": [...], "done_n": N,
                    "undone": [...], "undone_n": M, "state": {...}}, "crc": "…"}

holds the state after entry ``S`` (the last of action ``A``); the entries
after it start at byte ``OFFSET``.  A checkpoint is written some actions
*behind* the end (at least ``TAIL`` entries, and never between an action and
an undo or redo of it), so opening a fight to continue it reads the last
checkpoint and folds a short tail that already holds the fight screen's log
lines and the first undo steps.  ``done``/``undone`` are the tops of the undo
and redo stacks (action numbers, top first) and ``*_n`` their sizes; anything
older is loaded on demand from the whole file.

The state is serialised with cattrs and the system's data classes (the return
types of its ``make_data`` and ``initial_data``), and read back by the
generated functions of ``saves.structure`` (as strict; cattrs only for a type
they leave to it); a state that does not come back equal is not checkpointed
(the fight then opens by folding, only slower).
``tracker check`` folds everything and reports a checkpoint that disagrees.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import typing
from collections.abc import Callable
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from saves.format import MAX_LINE, Damaged, Header, parse, seal, strict_converter, unseal
from saves.structure import Structurer
from tracker.log import ActionLog, NeedOlder, Older
from tracker.model import Combatant, FightState
from tracker.plugin import System
from tracker.record import is_record, resolved_fields

if TYPE_CHECKING:
    import cattrs

EVERY = 200  # actions between checkpoints
TAIL = 80  # entries a checkpoint leaves behind it (the fight screen shows 60 on opening)
TOP = 16  # stack entries kept in a checkpoint
BACK_READ = 1 << 20  # bytes read from the end at a time when looking for the last checkpoint
BACK_MAX = 1 << 25  # give up looking (and fold the file) beyond this


class StateCodec:
    """A fight state to JSON and back, with the system's own data classes."""

    def __init__(self, system: System) -> None:
        self.system = system
        self.ok = True
        self.comb_cls = _return_type(system, "make_data")
        self.fight_cls = _return_type(system, "initial_data")
        for cls in (self.comb_cls, self.fight_cls):
            _resolve(cls, set())
        fast = Structurer(
            lambda: self.converter,
            overrides={
                (Combatant, "data"): self._data_fn(fast_of=lambda: fast, cls=self.comb_cls),
                (FightState, "data"): self._data_fn(fast_of=lambda: fast, cls=self.fight_cls),
            },
        )
        self._structure = fast.fn(FightState)

    @staticmethod
    def _data_fn(fast_of: Callable[[], Structurer], cls: Any) -> Callable[[Any], Any]:
        """A ``data`` field: None, or the system's record (no data at all when the system has no class)."""
        if cls is None:

            def none_only(v: Any) -> Any:
                if v is not None:
                    raise TypeError("expected no data")
                return None

            return none_only

        structure: list[Callable[[Any], Any]] = []

        def record(v: Any) -> Any:
            if v is None:
                return None
            if not structure:
                structure.append(fast_of().fn(cls))
            return structure[0](v)

        return record

    @cached_property
    def converter(self) -> cattrs.Converter:
        """The cattrs converter that writes the state (and reads a type the generated functions leave to it)."""
        from cattrs.gen import make_dict_structure_fn, override

        conv = strict_converter()

        def data_hook(cls: Any) -> Any:
            if cls is None:

                def none_only(v: Any, _t: Any) -> Any:
                    if v is not None:
                        raise TypeError("expected no data")
                    return None

                return none_only

            def hook(v: Any, _t: Any) -> Any:
                return None if v is None else conv.structure(v, cls)

            return hook

        conv.register_structure_hook(
            Combatant, make_dict_structure_fn(Combatant, conv, data=override(struct_hook=data_hook(self.comb_cls)))
        )
        conv.register_structure_hook(
            FightState, make_dict_structure_fn(FightState, conv, data=override(struct_hook=data_hook(self.fight_cls)))
        )
        return conv

    def encode(self, state: FightState) -> Any:
        return self.converter.unstructure(state)

    def decode(self, raw: Any) -> FightState:
        state: FightState = self._structure(raw)
        return state


def _resolve(cls: Any, seen: set[Any]) -> None:
    """Resolve a data class's annotations against its module only (a class attribute named like a type,
    such as a ``int`` stat property, must not shadow the type), and those of the classes it holds."""
    if not is_record(cls) or cls in seen:
        return
    seen.add(cls)
    with contextlib.suppress(Exception):
        for f in resolved_fields(cls, module_only=True):
            for t in (f.type, *typing.get_args(f.type)):
                for inner in (t, *typing.get_args(t)):
                    _resolve(inner, seen)


def _return_type(system: System, method: str) -> Any:
    fn = getattr(type(system), method, None)
    if fn is None:
        return None
    try:
        hints = typing.get_type_hints(fn)
    except Exception:
        return None
    t = hints.get("return")
    return t if isinstance(t, type) and t is not type(None) and t is not object else None


_codecs: dict[int, StateCodec] = {}


def state_codec(system: System) -> StateCodec:
    codec = _codecs.get(id(system))
    if codec is None or codec.system is not system:
        codec = _codecs[id(system)] = StateCodec(system)
    return codec


# -- writing ------------------------------------------------------------------------------


def cut(log: ActionLog, after: int = -1) -> int | None:
    """The action group to checkpoint after: at least TAIL entries behind the end, no undo across it.

    None if there is no such group later than ``after`` in the loaded log.
    """
    groups = log.groups
    if groups == 0:
        return None
    ops, targets = log._op, log._target
    n = len(log._entries)
    c = groups - 1
    while c >= 0 and n - log._end(c) < TAIL:
        c -= 1
    lowest = min((targets[k] for k in range(c + 1, groups) if ops[k]), default=groups)
    while c >= 0 and lowest <= c:
        c = lowest - 1
        lowest = min((targets[k] for k in range(c + 1, groups) if ops[k]), default=groups)
    if c <= after or c < 0:
        return None
    return c


def checkpoint_line(log: ActionLog, c: int, offset: int) -> str | None:
    """The checkpoint line for the state after group ``c`` (None if the state does not round-trip)."""
    codec = state_codec(log.system)
    if not codec.ok:
        return None
    state = log._state(c)
    try:
        raw = codec.encode(state)
        text = json.dumps(raw, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
        if codec.decode(json.loads(text)) != state:
            return None
        done, done_n, undone, undone_n = log.stack_tops(c + 1, TOP)
    except (NeedOlder, Exception):
        return None
    end = log._end(c) - 1
    seq = log._entries[end].seq
    record = {
        "checkpoint": {
            "seq": seq,
            "action": log._actions[c],
            "at": offset,
            "done": done,
            "done_n": done_n,
            "undone": undone,
            "undone_n": undone_n,
            "state": "@",
        }
    }
    head = json.dumps(record, separators=(",", ":"), ensure_ascii=False)
    body = head.replace('"@"', text, 1)
    if len(body) > MAX_LINE - 64:
        return None
    return seal(body)


# -- reading from the end -----------------------------------------------------------------


def find_last(path: Path) -> tuple[dict[str, Any], int, int] | None:
    """The last checkpoint of a file (its fields, its line's offset, the file size), read from the end."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return None
        size = st.st_size
        want = BACK_READ
        while True:
            start = max(0, size - want)
            data = os.pread(fd, size - start, start)
            pos = data.rfind(b'\n{"checkpoint":')
            if pos >= 0:
                line_start = start + pos + 1
                end = data.find(b"\n", pos + 1)
                if end < 0:
                    return None  # the last line, unfinished: no trusted checkpoint at the end
                line = data[pos + 1 : end]
                try:
                    body = unseal(line)
                    if body is None:
                        return None
                    record = parse(body)
                except (Damaged, ValueError):
                    return None
                cp = record.get("checkpoint") if type(record) is dict else None
                if type(cp) is not dict:
                    return None
                return cp, line_start, size
            if start == 0 or want >= BACK_MAX:
                return None
            want *= 4
    except OSError:
        return None
    finally:
        os.close(fd)


def _int(cp: dict[str, Any], key: str) -> int:
    v = cp.get(key)
    if type(v) is not int or v < 0:
        raise ValueError(key)
    return v


def _ints(cp: dict[str, Any], key: str) -> list[int]:
    v = cp.get(key)
    if type(v) is not list or not all(type(x) is int for x in v):
        raise ValueError(key)
    return v


def partial_log(system: System, cp: dict[str, Any]) -> ActionLog:
    """An action log that starts at a checkpoint (ValueError or a cattrs error if it is damaged)."""
    state = state_codec(system).decode(cp.get("state"))
    if state.system != system.id:
        raise ValueError("the checkpoint is of another system")
    seq, action = _int(cp, "seq"), _int(cp, "action")
    done, undone = _ints(cp, "done"), _ints(cp, "undone")
    done_n, undone_n = _int(cp, "done_n"), _int(cp, "undone_n")
    return ActionLog(
        system,
        base_state=state,
        base_entries=seq,
        base_action=action,
        done=Older(done, done_n) if done_n else None,
        undone=Older(undone, undone_n) if undone_n else None,
    )


# -- checking -----------------------------------------------------------------------------


def verify(loaded: Any, timeline: Any) -> list[str]:
    """Problems with the checkpoints of a loaded fight: each is compared with the fold (the fold wins)."""
    problems: list[str] = []
    if not loaded.checkpoints:
        return problems
    for cp in loaded.checkpoints:
        why = disagreement(loaded.system, timeline, cp.seq, cp.data)
        if why is not None:
            where = f"line {cp.line}: the checkpoint after event {cp.seq}"
            problems.append(f"{where} disagrees with the events ({why}); the events win")
    return problems


def disagreement(system: System, timeline: Any, seq: int, data: Any) -> str | None:
    """Why one checkpoint (its fields ``data``, taken after entry ``seq``) disagrees with the fold of the events
    (``timeline``), or None when it agrees: its place, its state, its undo and redo stacks, its action number."""
    import cattrs

    codec = state_codec(system)
    n = len(timeline)
    try:
        if type(data) is not dict:
            raise ValueError("it is not a checkpoint record")
        if not 0 <= seq <= n or (seq < n and timeline.end_of_action(seq) != seq):
            raise ValueError("it does not fall between two actions of the log")
        state = codec.decode(data.get("state"))
        if state != timeline.state_at(seq):
            raise ValueError("its state differs from the log's")
        groups = len(timeline.action_starts) if seq >= n else timeline._group_at(seq)
        tops = timeline.stack_tops(groups, TOP)
        if (data.get("done"), data.get("done_n"), data.get("undone"), data.get("undone_n")) != tops:
            raise ValueError("its undo and redo stacks differ from the log's")
        if _int(data, "action") != (timeline.entries[seq - 1].action if seq else 0):
            raise ValueError("its action number differs from the log's")
    except (ValueError, TypeError, cattrs.BaseValidationError, KeyError, AttributeError) as e:
        return _why(e)
    return None


def _why(e: Exception) -> str:
    text = str(e)
    return text[:120] if text else type(e).__name__


# -- the start screen's peek ------------------------------------------------------------------


def peek_tail(path: Path, header: Header) -> tuple[str, int | None, str, int | None]:
    """The fight's name, round, phase and combatants, read cheaply: the last checkpoint and the tail after it.

    A file without a checkpoint is folded whole only if it is small; otherwise
    what is known is left empty.
    """
    from saves.store import _from_checkpoint, load

    state: FightState | None = None
    with contextlib.suppress(Exception):
        fast = _from_checkpoint(path)
        if fast is not None:
            state = fast[2].state
        elif path.stat().st_size <= BACK_READ:
            loaded = load(path)
            if loaded.log is not None:
                state = loaded.log.state
    if state is None:
        return "", None, "", None
    return state.title, state.round, _phase_of(state.started, state.ended, state.round), len(state.present)


def _phase(state: dict[str, Any]) -> tuple[int | None, str, int | None]:
    rnd = state.get("round")
    rnd = rnd if type(rnd) is int else None
    combatants = state.get("combatants")
    count = None
    if type(combatants) is list:
        count = sum(1 for c in combatants if type(c) is dict and not c.get("removed"))
    return rnd, _phase_of(bool(state.get("started")), bool(state.get("ended")), rnd), count


def _phase_of(started: bool, ended: bool, rnd: int | None) -> str:
    if ended:
        return "over"
    if not started:
        return "setup"
    return f"round {rnd}" if rnd is not None else ""
