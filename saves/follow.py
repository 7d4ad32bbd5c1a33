"""Following a fight file as it is written: read-only, incremental, never an error for a torn tail.

The players' view calls :meth:`Follower.poll` a few times a second.  It keeps
the byte offset of the last complete line it took, reads only what was added
since, decodes the new lines and folds them into a :class:`~tracker.engine.Fight`
(undo included: an ``Undone`` line folds like any other).  A line still being
written (no line end yet), or an action whose lines are not all there yet, is
waited for.  If the file shrinks or is replaced, it is read again from the
start; if it is not there (yet), the follower waits for it.  The file is opened
for reading only and no lock is taken: the writer's lock is the writer's.

Everything that knows the line format is in :func:`read_lines` and
:func:`decode_lines`; a change of format (checksums, checkpoint lines) is
adapted there.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

from saves import store
from saves.format import (
    FORMAT_VERSION,
    MAX_LINE,
    Codec,
    Damaged,
    Header,
    LoadError,
    codec_for,
    header_from,
    parse,
    unseal,
)
from tracker import registry
from tracker.engine import Entry, Fight, LogError
from tracker.errors import TrackerError
from tracker.plugin import System

# what a follower says when it has no fight to show
WAITING = "waiting"  # no file there (yet)
BAD = "bad"  # a file that is not a fight this tracker can read; the message says why


def read_lines(path: Path, offset: int) -> tuple[list[bytes], int, int]:
    """The complete lines of ``path`` from byte ``offset`` on, the offset after them, and the file size.

    A last line without its line end is left for the next read.  Relies on:
    lines end with ``\\n``; the file only grows by appending (checked by the
    caller, which reloads when the size drops below ``offset`` or the file is
    replaced).
    """
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        if size <= offset:
            return [], offset, size
        f.seek(offset)
        data = f.read(size - offset)
    end = data.rfind(b"\n")
    if end < 0:
        return [], offset, size
    return data[: end + 1].split(b"\n")[:-1], offset + end + 1, size


def _record(raw: bytes, line: int) -> Any:
    """One line's JSON object, its checksum checked (LoadError names the line)."""
    if len(raw) > MAX_LINE:
        raise LoadError("the line is too long", line)
    try:
        body = unseal(raw)
    except Damaged as e:
        raise LoadError(str(e), line) from None
    if body is None:
        raise LoadError("the line has no checksum", line)
    try:
        return parse(body)
    except ValueError as e:
        raise LoadError(f"not valid JSON ({e})", line) from None


def decode_lines(codec: Codec, lines: Sequence[bytes], first_line: int) -> list[tuple[Entry, int]]:
    """Each event line as an entry and the size ("of") of the GM action it belongs to.

    Relies on: one sealed JSON object per line (format 2: a checksum on each),
    decoded alone by :meth:`Codec.decode` (raising LoadError that names the
    line); ``of`` on each line counts the events of its action; checkpoint
    lines (a cache of the folded state) are skipped.  Blank lines are skipped.
    """
    out: list[tuple[Entry, int]] = []
    for n, raw in enumerate(lines, start=first_line):
        if not raw.strip():
            continue
        record = _record(raw, n)
        if type(record) is dict and "checkpoint" in record:
            continue
        entry = codec.decode(record, n)
        of = record.get("of", 1)
        out.append((entry, of if type(of) is int and of > 0 else 1))
    return out


@attrs.frozen
class Snapshot:
    """What the follower knows now: a fight to show, or why there is none."""

    fight: Fight | None = None
    header: Header | None = None
    problem: str = ""  # a message for the viewer (no fight, or the file went bad after it)
    status: str = ""  # WAITING, BAD or "" (following)
    version: int = 0  # grows by one whenever anything shown may have changed


class Follower:
    """Follows one fight file; ``poll()`` returns a new :class:`Snapshot` when something changed, else None."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._version = 0
        self._reset()
        self.snapshot = Snapshot(status=WAITING, problem=self._waiting_text())

    def _reset(self) -> None:
        self._identity: tuple[int, int] | None = None
        self._offset = 0
        self._size = -1
        self._mtime = -1
        self._line = 0  # lines taken so far (the header is line 1)
        self._header: Header | None = None
        self._system: System | None = None
        self._codec: Codec | None = None
        self._fight: Fight | None = None
        self._pending: list[tuple[Entry, int]] = []  # an action not yet complete
        self._stuck = False  # a bad file: wait until it changes
        self._legacy = False  # an older format: read whole (upgraded) at each change

    def _waiting_text(self) -> str:
        return f"Waiting for the fight file {self.path.name} …"

    def _emit(self, status: str = "", problem: str = "") -> Snapshot:
        self._version += 1
        fight = None if status else self._fight
        self.snapshot = Snapshot(
            fight=fight, header=self._header, problem=problem, status=status, version=self._version
        )
        return self.snapshot

    def poll(self) -> Snapshot | None:
        """Read what was added since the last poll; a new snapshot if anything changed."""
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            if self.snapshot.status == WAITING and self._fight is None:
                return None
            self._reset()
            return self._emit(status=WAITING, problem=self._waiting_text())
        except OSError as e:
            return self._fail(f"Cannot read {self.path.name}: {e.strerror or e}")
        identity = (st.st_dev, st.st_ino)
        if self._identity is not None and (identity != self._identity or st.st_size < self._offset):
            self._reset()  # replaced or shrunk: read it again from the start
        if identity == self._identity and st.st_size == self._size and st.st_mtime_ns == self._mtime:
            return None
        self._identity = identity
        if self._stuck:
            self._reset()
            self._identity = identity
        try:
            return self._read(st.st_mtime_ns)
        except FileNotFoundError:
            self._reset()
            return self._emit(status=WAITING, problem=self._waiting_text())
        except OSError as e:
            return self._fail(f"Cannot read {self.path.name}: {e.strerror or e}")
        except TrackerError as e:
            return self._fail(str(e))

    def _fail(self, message: str) -> Snapshot:
        self._stuck = True
        self._fight = None  # never a half-folded state
        return self._emit(status=BAD, problem=message)

    def _read(self, mtime: int) -> Snapshot | None:
        lines, offset, size = read_lines(self.path, self._offset)
        self._size, self._mtime = size, mtime
        if not lines:
            if self._header is None and size > 0 and self.snapshot.status != WAITING:
                return self._emit(status=WAITING, problem=self._waiting_text())
            return None
        first = self._line + 1
        if self._header is None and not self._legacy:
            head, lines = lines[0], lines[1:]
            self._open_header(head)
            first = 2
        if self._legacy:
            loaded = store.load(self.path)  # upgrades the format; a torn tail is dropped
            self._header, self._system, self._fight = loaded.header, loaded.system, loaded.fight()
            self._offset = offset
            return self._emit()
        new = decode_lines(self._codec, lines, first) if self._codec else []
        self._offset = offset
        self._line = first - 1 + len(lines)
        if self._fight is None:
            assert self._system is not None
            self._fight = Fight(self._system)
        self._fold(new)
        return self._emit()

    def _open_header(self, raw: bytes) -> None:
        name = self.path.name
        try:
            head = parse(unseal(raw) or raw)
        except (Damaged, ValueError):
            raise LoadError(f"{name} is not a fight file (its first line is not a fight header)") from None
        if not isinstance(head, dict) or "system" not in head or "format" not in head:
            raise LoadError(f"{name} is not a fight file (its first line is not a fight header)")
        version = head.get("format")
        if not isinstance(version, int) or version > FORMAT_VERSION:
            raise LoadError(f"{name} was saved by a newer tracker (format {version}): upgrade the tracker to show it")
        if version < FORMAT_VERSION:
            self._legacy = True
            return
        header = header_from(head)
        try:
            system = registry.load(header.system)
        except TrackerError as e:
            raise LoadError(f"this fight is played with '{header.system}': {e}") from None
        self._header, self._system, self._codec = header, system, codec_for(system)

    def _fold(self, new: list[tuple[Entry, int]]) -> None:
        """Fold the complete actions; keep an action whose lines are not all there yet."""
        pending = self._pending + new
        ready = len(pending)
        if pending:
            last_action = pending[-1][0].action
            start = ready
            while start > 0 and pending[start - 1][0].action == last_action:
                start -= 1
            if ready - start < pending[start][1]:
                ready = start  # the last action is still being written
        self._pending = pending[ready:]
        if ready:
            assert self._fight is not None
            try:
                self._fight.load([e for e, _ in pending[:ready]])
            except LogError as e:
                raise LoadError(f"the log does not replay: {e}") from None
