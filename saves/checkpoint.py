"""Checkpoints: the folded state written into the log now and then, read back from the end of the file.

A checkpoint is a cache; the events are the truth.  A checkpoint line::

    {"checkpoint": {"seq": S, "action": A, "at": OFFSET, "done": [...], "done_n": N,
                    "undone": [...], "undone_n": M, "version": V, "state": {...}}, "crc": "…"}

holds the state after entry ``S`` (the last of action ``A``); the entries
after it start at byte ``OFFSET``.  A checkpoint is written some actions
*behind* the end (at least ``TAIL`` entries, and never between an action and
an undo or redo of it), so opening a fight to continue it reads the last
checkpoint and folds a short tail that already holds the fight screen's log
lines and the first undo steps.  ``done``/``undone`` are the tops of the undo
and redo stacks (action numbers, top first) and ``*_n`` their sizes; anything
older is loaded on demand from the whole file.  ``version`` is the system's version that folded it: a checkpoint
of another version (one without it: the header's) is not read (see :func:`of_this_version`).

The state is written and read by the converter of the system's log (the
system's data classes, the return types of its ``make_data`` and
``initial_data``, in the ``data`` fields), as strictly as the events; a state
that does not come back equal is not checkpointed (the fight then opens by
folding, only slower).
``tracker check`` folds everything and reports a checkpoint that disagrees.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import cattrs
import orjson

from saves.format import MAX_LINE, Damaged, codec_for, explain, parse, seal, unseal
from tracker.log import ActionLog, NeedOlder, Older
from tracker.model import FightState
from tracker.plugin import System

EVERY = 200  # actions between checkpoints
TAIL = 80  # entries a checkpoint leaves behind it (the fight screen shows 60 on opening)
TOP = 16  # stack entries kept in a checkpoint
BACK_READ = 1 << 20  # bytes read from the end at a time when looking for the last checkpoint
BACK_MAX = 1 << 25  # give up looking (and fold the file) beyond this


class StateCodec:
    """A fight state to JSON and back, by the converter of the system's log (its data classes in the ``data``
    fields: see :func:`saves.format.system_converter`)."""

    def __init__(self, system: System) -> None:
        self.system = system
        self.ok = True
        self.converter = codec_for(system).converter

    def encode(self, state: FightState) -> Any:
        return self.converter.unstructure(state)

    def decode(self, raw: Any) -> FightState:
        """The state a checkpoint holds; ValueError says what is wrong with it."""
        try:
            state: FightState = self.converter.structure(raw, FightState)
        except (TypeError, KeyError, ValueError, AttributeError, cattrs.errors.CattrsError) as e:
            raise ValueError(explain(e)) from None
        return state


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
        text = orjson.dumps(raw).decode()
        if codec.decode(orjson.loads(text)) != state:
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
            "version": log.system.version,
            "state": "@",
        }
    }
    head = orjson.dumps(record).decode()
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


def of_this_version(system: System, header: Any, cp: Any) -> bool:
    """Whether a checkpoint is a cache of this version of the rules' fold: it names the system's version it was
    written by (one written before they did: the header's, the version that made the file).  A version that
    folds the same events another way (twod6 1.1: the failed checks a cinematic may reroll) makes the older
    checkpoints another fold's, not this one's: they are not read, and disagreeing they are no damage."""
    version = cp.get("version") if isinstance(cp, dict) else None
    if not isinstance(version, str):
        version = getattr(header, "system_version", "") or ""
    return version == system.version


def verify(loaded: Any, timeline: Any) -> tuple[list[str], list[str]]:
    """Problems with the checkpoints of a loaded fight, and those only stale: each after the last that agrees with
    the fold is compared with it (the fold wins); one an agreeing checkpoint follows is replaced by it, and never
    read again. A checkpoint whose state does not read as this version's (an older version of the system wrote the
    state in another shape, "unknown field 'last_failed'") is a stale cache, not a disagreement: said as a note
    (check called every such file bad after an upgrade)."""
    problems: list[str] = []
    stale: list[str] = []
    if not loaded.checkpoints:
        return problems, stale
    for cp in reversed(loaded.checkpoints):
        why = disagreement(loaded.system, timeline, cp.seq, cp.data)
        if why is None:
            break  # an agreeing checkpoint after a bad one replaces it (the app wrote it so): the bad ones before
            # it are no longer read (a file once corrected was reported bad for ever)
        where = f"line {cp.line}: the checkpoint after event {cp.seq}"
        if not of_this_version(loaded.system, loaded.header, cp.data):
            stale.insert(0, f"{where} was written by another version of the rules: left out, the events stand")
        elif _unreadable_state(loaded.system, cp.data):
            stale.insert(0, f"{where} is of another version's shape ({why}): left out, the events stand")
        else:
            problems.insert(0, f"{where} disagrees with the events ({why}); the events win")
    return problems, stale


def _unreadable_state(system: System, data: Any) -> bool:
    """Whether a checkpoint's state does not read as this version's state at all (as against one that reads and
    differs from the events)."""
    if type(data) is not dict:
        return False
    try:
        state_codec(system).decode(data.get("state"))
    except ValueError:
        return True
    return False


def disagreement(system: System, timeline: Any, seq: int, data: Any) -> str | None:
    """Why one checkpoint (its fields ``data``, taken after entry ``seq``) disagrees with the fold of the events
    (``timeline``), or None when it agrees: its place, its state, its undo and redo stacks, its action number."""
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
