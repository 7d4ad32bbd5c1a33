"""Writing, loading, recovering and continuing fight logs.

One writer, many readers: a fight open for writing holds an OS lock on its
file (``flock``, released by the OS if the process dies); a second writer is
refused with :class:`FightInUse`.  Readers (load, check, export, replay, the
players' view) never take the lock and never write.

Each action is written whole, unbuffered, and fsynced before it counts as
done; if the write fails the file is cut back to its last good length, so a
failed action leaves the file exactly as it was and can be tried again.
"""

from __future__ import annotations

import contextlib
import errno
import gc
import os
import re
import stat
import threading
from array import array
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

import attrs
import platformdirs

from saves import checkpoint
from saves.format import (
    FORMAT_VERSION,
    MAX_FILE,
    MAX_LINE,
    Codec,
    Damaged,
    Header,
    LoadError,
    SaveError,
    codec_for,
    header_from,
    header_line,
    parse,
    read_line,
    unseal,
    upgrade,
)
from tracker import registry
from tracker.dice import Roller, SeededRoller
from tracker.errors import Refused, TrackerError
from tracker.events import Event
from tracker.fight import Fight
from tracker.log import ActionLog, Entry, LogError, Step
from tracker.model import FightState
from tracker.plugin import System
from tracker.replay import Timeline

APP_NAME = "gm-combat-tracker"
SUFFIX = ".jsonl"
FILE_MODE = 0o600
DIR_MODE = 0o700


class FightInUse(SaveError):
    """The fight file is open for writing elsewhere (another app, or this one); ``pid`` names it if known."""

    def __init__(self, path: Path, pid: int | None) -> None:
        if pid == os.getpid():
            who = "in this app already"
        elif pid:
            who = f"by another tracker (process {pid})"
        else:
            who = "by another tracker"
        super().__init__(f"{path.name} is open {who}; it can only be opened read-only (replay) until it is closed")
        self.path = path
        self.pid = pid


def default_dir() -> Path:
    """Where fights are saved by default: ``fights/`` in $TRACKER_DATA_DIR or the user data dir (platformdirs)."""
    env = os.environ.get("TRACKER_DATA_DIR")
    base = Path(env) if env else Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))
    return base / "fights"


def make_private_dir(folder: Path) -> None:
    """Create ``folder`` and any missing parents, private to the user (0700)."""
    missing: list[Path] = []
    p = folder
    while not p.exists():
        missing.append(p)
        if p.parent == p:
            break
        p = p.parent
    for d in reversed(missing):
        with contextlib.suppress(FileExistsError):
            os.mkdir(d, DIR_MODE)


# -- reading: regular files only, bounded ---------------------------------------------


def _kind(mode: int) -> str:
    """What a file that is not a regular file is, in the GM's words."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (a named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def open_regular(path: Path) -> tuple[int, os.stat_result]:
    """A read-only descriptor of a regular file and its stat; LoadError naming the file otherwise.

    Opening does not block (O_NONBLOCK: a FIFO is refused, never waited on) and
    the type is checked on the descriptor (fstat), so a device, a folder or a
    symlink to one is refused before anything is read.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise LoadError(f"there is no fight file at {path}") from None
    except OSError as e:
        raise LoadError(_unreadable(path, e)) from None
    try:
        st = os.fstat(fd)
    except OSError as e:
        os.close(fd)
        raise LoadError(_unreadable(path, e)) from None
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        raise LoadError(f"{path.name} is {_kind(st.st_mode)}, not a fight file: give the path of a fight file (.jsonl)")
    return fd, st


def check_save_path(path: Path) -> None:
    """Refuse at once, in the GM's words, a save path that can never hold a fight: a FIFO, a device, a socket, a
    symbolic link (a fight is written only to a file itself, never through a link), a link that loops.  A path that
    does not exist yet (a new fight) and a folder (to keep fights in) pass."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    except OSError as e:
        raise SaveError(f"cannot use {path} to save fights: {e.strerror or e}") from None
    if stat.S_ISLNK(st.st_mode):
        try:
            real = os.stat(path)
        except OSError as e:
            if e.errno == errno.ELOOP:
                raise SaveError(
                    f"{path} is a symbolic link that loops back on itself (it leads to no file): "
                    "remove it, or give the path of a fight file (.jsonl) or of a folder"
                ) from None
            raise SaveError(
                f"{path} is a symbolic link to nothing ({e.strerror or e}): "
                "remove it, or give the path of a fight file (.jsonl) or of a folder"
            ) from None
        if stat.S_ISDIR(real.st_mode):
            return
        raise SaveError(
            f"{path} is a symbolic link: a fight is written only to the file itself, never through a link; "
            f"give its real path ({os.path.realpath(path)})"
        )
    if stat.S_ISREG(st.st_mode) or stat.S_ISDIR(st.st_mode):
        return
    raise SaveError(
        f"{path} is {_kind(st.st_mode)}, not a fight file: give the path of a fight file (.jsonl) or of a folder "
        "to keep fights in"
    )


def _unreadable(path: Path, e: OSError) -> str:
    if e.errno == errno.ELOOP:
        return (
            f"{path} is a symbolic link that loops back on itself (it leads to no file): remove it or give another path"
        )
    return f"cannot read {path}: {e.strerror or e}"


def read_bytes(path: Path, limit: int = MAX_FILE, *, start: int = 0) -> bytes:
    """The bytes of a regular file (from ``start``), never more than ``limit``; LoadError otherwise.

    Opening does not block (a FIFO is refused, not waited on) and a device or
    a symlink to one is refused before anything is read.
    """
    fd, st = open_regular(path)
    try:
        if st.st_size - start > limit:
            raise LoadError(f"{path.name} is too big for a fight file ({st.st_size:,} bytes)")
        if start:
            os.lseek(fd, start, os.SEEK_SET)
        chunks: list[bytes] = []
        total = 0
        want = max(st.st_size - start, 0) + 1  # the file in one read (one buffer, no copy to join them)
        while True:
            chunk = os.read(fd, min(max(want, 1 << 16), limit + 1 - total))
            want = 1 << 22
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise LoadError(f"{path.name} is too big for a fight file")
        return b"".join(chunks)
    except OSError as e:
        raise LoadError(f"cannot read {path}: {e.strerror or e}") from None
    finally:
        os.close(fd)


class Lines(Protocol):
    """What the loader reads lines from: a list of them, or a file's, streamed (:class:`FileLines`)."""

    def __len__(self) -> int: ...
    def __getitem__(self, index: int, /) -> bytes: ...
    def __setitem__(self, index: int, value: bytes, /) -> None: ...


CHUNK = 1 << 18  # bytes read at a time by the loader: with the line being read, what reading costs in memory
TAIL_KEEP = 4 * checkpoint.EVERY  # the last lines whose byte offsets the loader keeps (for the next checkpoint)


class FileLines:
    """The lines of a fight file, streamed: read a chunk at a time, in order, as the loader asks for them.

    Nothing is split or held beyond the chunk being read and the line being
    built, so refusing a bad file costs a small multiple of one line's cap
    (``MAX_LINE``) whatever its size: a line longer than the cap is refused as
    soon as it is seen to be.  A first pass counts the lines (``len``: the
    loader must know which line is the last) and finds where the last few
    start; both passes read the file as it was when it was opened (up to its
    size then), so a fight being written meanwhile reads as it was.  Indexing
    is for the loader's one pass: each line is asked for once, in order.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        fd, st = open_regular(path)
        try:
            self.size = st.st_size
            if self.size > MAX_FILE:
                raise LoadError(f"{path.name} is too big for a fight file ({self.size:,} bytes)")
            self.fd = fd
            self.ends_with_newline = self._count()
        except BaseException:
            os.close(fd)
            raise
        self._buf: list[bytes | None] = []  # the lines of the chunk being read
        self._first = 0  # the index of self._buf[0]
        self._at = 0  # where the next chunk starts
        self._carry = b""  # the start of a line the chunk read last did not finish

    def _count(self) -> bool:
        """Count the lines (a last line without its newline counts too); whether the file ends with one."""
        newlines, at, last = 0, 0, b""
        while at < self.size:
            chunk = os.pread(self.fd, min(CHUNK * 4, self.size - at), at)
            if not chunk:
                self.size = at  # cut since it was opened: read what there is
                break
            newlines += chunk.count(b"\n")
            at += len(chunk)
            last = chunk[-1:]
        whole = last == b"\n"
        self.count = newlines + (0 if whole or not self.size else 1)
        return whole

    def __len__(self) -> int:
        return self.count

    def close(self) -> None:
        fd, self.fd = self.fd, -1
        if fd >= 0:
            os.close(fd)

    def __getitem__(self, index: int) -> bytes:
        if not 0 <= index < self.count:
            raise IndexError(index)
        while index >= self._first + len(self._buf):
            self._next_chunk()
        line = self._buf[index - self._first]
        if line is None:
            raise LoadError(f"{self.path.name}: line {index + 1} was read already (the loader reads each line once)")
        return line

    def __setitem__(self, index: int, value: bytes) -> None:
        """The loader lets a line go once it is decoded: its bytes are dropped here too."""
        i = index - self._first
        if 0 <= i < len(self._buf):
            self._buf[i] = None

    def _next_chunk(self) -> None:
        self._first += len(self._buf)
        self._buf = []
        while not self._buf:
            if self._at >= self.size:
                if self._carry:  # the last line, without its newline
                    self._buf, self._carry = [self._carry], b""
                    return
                raise LoadError(f"{self.path.name} changed while it was read (it is shorter now)")
            chunk = os.pread(self.fd, min(CHUNK, self.size - self._at), self._at)
            if not chunk:
                self.size = self._at
                continue
            self._at += len(chunk)
            lines: list[bytes | None] = (self._carry + chunk).split(b"\n")  # type: ignore[assignment]
            carry = lines.pop()
            assert carry is not None
            self._carry = carry
            if len(carry) > MAX_LINE:
                raise LoadError(
                    f"the line is too long ({len(carry):,} bytes or more): not a fight file",
                    self._first + len(lines) + 1,
                )
            self._buf = lines

    def offsets(self, keep: int = TAIL_KEEP) -> dict[int, int]:
        """The byte offset of each of the last ``keep`` lines (line number -> offset), read from the end.

        Read in a bounded block: lines so long that fewer fit are left out (the offsets serve only to place the
        next checkpoint, which is then not written)."""
        out: dict[int, int] = {}
        if not self.count:
            return out
        end = self.size - 1 if self.ends_with_newline else self.size  # where the last line's text ends
        want = CHUNK
        while True:
            start = max(0, end - want)
            block = os.pread(self.fd, end - start, start)
            starts: list[int] = []
            i = block.rfind(b"\n")
            while i >= 0 and len(starts) < keep:
                starts.append(start + i + 1)
                i = block.rfind(b"\n", 0, i)
            if len(starts) >= keep or start == 0 or want >= 16 * CHUNK:
                break
            want *= 4
        number = self.count
        for at in starts:
            out[number] = at
            number -= 1
        if start == 0 and len(starts) < keep and number == 1:
            out[1] = 0
        return out


# -- writing ------------------------------------------------------------------------------

_write = os.write  # the tests inject write failures (disk full) here
_truncate = os.ftruncate
_fsync = os.fsync


def _holder(st: os.stat_result) -> int | None:
    """The process holding a flock on this file, from /proc/locks (Linux), if it can be told."""
    try:
        with open("/proc/locks", encoding="ascii", errors="replace") as f:
            text = f.read(1 << 20)
    except OSError:
        return None
    want = (os.major(st.st_dev), os.minor(st.st_dev), st.st_ino)
    for line in text.splitlines():
        parts = line.split()
        if len(parts) < 6 or parts[1] != "FLOCK":
            continue
        try:
            pid = int(parts[4])
            major, minor, inode = parts[5].split(":")
            if (int(major, 16), int(minor, 16), int(inode)) == want:
                return pid
        except ValueError:
            continue
    return None


def _lock(fd: int, path: Path) -> None:
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise FightInUse(path, _holder(os.fstat(fd))) from None
    except OSError as e:
        if e.errno in (errno.EAGAIN, errno.EACCES):
            raise FightInUse(path, _holder(os.fstat(fd))) from None
        raise SaveError(f"cannot lock {path}: {e.strerror or e}") from None


class SaveWriter:
    """Holds the fight file's lock; appends each action whole, fsynced, or not at all."""

    def __init__(self, path: Path, codec: Codec | None) -> None:
        self.path = path
        self.codec = codec
        self.fd: int | None = None
        try:
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CLOEXEC | os.O_NOFOLLOW | os.O_NONBLOCK)
        except OSError as e:
            if e.errno in (errno.ELOOP, errno.ENXIO, errno.EISDIR):  # a link, a FIFO with no reader, a folder
                check_save_path(path)
            raise SaveError(f"cannot write the fight to {path}: {e.strerror or e}") from None
        try:
            mode = os.fstat(fd).st_mode
            if not stat.S_ISREG(mode):
                raise SaveError(f"{path.name} is {_kind(mode)}, not a fight file: give the path of a fight file")
            _lock(fd, path)
            self.size = os.fstat(fd).st_size  # the last good length
        except BaseException:
            os.close(fd)
            raise
        self.fd = fd

    def __call__(self, entries: Sequence[Entry]) -> None:
        assert self.codec is not None
        text = "".join(self.codec.encode(e, len(entries)) + "\n" for e in entries)
        self.append(text.encode("utf-8"), "the action was not taken")

    def append(self, data: bytes, what: str) -> None:
        """Write ``data`` whole and fsync it, or leave the file as it was and raise SaveError."""
        fd = self.fd
        if fd is None:
            raise SaveError(f"{self.path.name} is closed; {what}")
        try:
            if os.fstat(fd).st_size != self.size:
                _truncate(fd, self.size)  # a failed write before: cut it back first
            done = 0
            view = memoryview(data)
            while done < len(data):
                done += _write(fd, view[done:])
            _fsync(fd)
        except OSError as e:
            with contextlib.suppress(OSError):
                _truncate(fd, self.size)
                _fsync(fd)
            raise SaveError(f"could not save to {self.path}: {e.strerror or e}; {what}") from None
        self.size += len(data)

    def close(self) -> None:
        """Release the lock and the file; never raises."""
        fd, self.fd = self.fd, None
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)

    def __del__(self) -> None:  # a writer dropped without close still lets the file go
        self.close()


class SavedFight(Fight):
    """A fight and the writer of its file (the writer is the fight's save sink).

    Every ``checkpoint.EVERY`` actions, and when it is closed, the fight
    writes a checkpoint (the folded state some actions back) so the next
    opening reads only the tail of the file.

    A fight opened from a checkpoint does not trust it yet: :meth:`start_check`
    folds the events from the start in a thread and compares them with the
    checkpoint (and with the state shown), and nothing is written until that
    check is over.  The ruling for what the GM does meanwhile: the first write
    (an action, an undo or redo, a checkpoint) waits for the check to finish
    (:meth:`settle_check`; a fight of tens of thousands of events folds in a
    second or two, and the app starts the check as soon as the fight is
    shown).  If the checkpoint agrees, the action is written as usual.  If it
    disagrees, the fight becomes the fold of the events (the log is replaced,
    a checkpoint from the fold is written to replace the bad one) and that
    first action is *not* taken, since it was decided on a state that was not
    the fight's: the GM sees the fight as the events have it and decides
    again.  If the events themselves do not read (a damaged line in the
    middle), nothing more is written to the file.  No checkpoint is ever
    written from a state that was not checked.
    """

    def __init__(
        self,
        system: System,
        writer: SaveWriter,
        header: Header,
        *,
        roller: Roller | None = None,
        log: ActionLog | None = None,
        warnings: Sequence[str] = (),
        older: Callable[[], ActionLog] | None = None,
        offsets: dict[int, int] | None = None,
        checkpoints: bool = True,
        last_cut: int = 0,
    ) -> None:
        super().__init__(system, roller=roller, sink=writer, log=log, older=older)
        self.writer = writer
        self.path = writer.path
        self.header = header
        self.warnings = tuple(warnings)
        self._offsets: dict[int, int] = dict(offsets or {})  # action -> byte offset of its first line
        self._checkpoints = checkpoints
        self._last_cut = last_cut  # the action the last checkpoint was taken after
        self._since = 0  # actions since the last checkpoint
        self._unchecked = False  # opened from a checkpoint not yet checked against the events
        self._check: threading.Thread | None = None
        self._check_done = threading.Event()
        self._check_result: CheckResult | None = None
        self._settled: CheckResult | None = None
        self._refused = ""  # why nothing more is written to this file (its events do not read)

    # -- the checkpoint it was opened from, checked -------------------------------------------

    @property
    def needs_check(self) -> bool:
        """Opened from a checkpoint whose check is not settled yet."""
        return self._unchecked

    def start_check(self) -> None:
        """Start checking the checkpoint this fight was opened from against its events, in a thread (once).

        The thread only reads: the file (the events, folded from the start) and the state
        captured here; what it finds is acted on by :meth:`settle_check`, on the fight's own thread."""
        if not self._unchecked or self._check is not None:
            return
        shown = self.log.state
        thread = threading.Thread(target=self._run_check, args=(shown,), name=f"check {self.path.name}", daemon=True)
        self._check = thread
        thread.start()

    def _run_check(self, shown: FightState) -> None:
        try:
            self._check_result = check_against_events(self.path, shown)
        except BaseException as e:  # the waiter is never left hanging, whatever happened
            self._check_result = CheckResult(
                False, f"{self.path.name} could not be checked against its events ({type(e).__name__}: {e})", True
            )
        finally:
            self._check_done.set()

    def wait_checked(self, timeout: float | None = None) -> CheckResult | None:
        """The check's result once it is over (started if need be); None if there is nothing to check or the
        ``timeout`` passed.  Any thread may wait here (the app waits in a Textual thread worker)."""
        if self._settled is not None:
            return self._settled
        if not self._unchecked:
            return None
        self.start_check()
        if not self._check_done.wait(timeout):
            return None
        return self._check_result

    def settle_check(self) -> CheckResult | None:
        """Wait for the check and act on it, once (on the fight's own thread: the UI's, or the caller's).

        On a checkpoint that disagrees, the fight becomes the fold of its events and a checkpoint from the
        fold is written (the next opening trusts no bad one); on events that do not read, nothing more is
        written to the file.  The result says what happened, in the GM's words."""
        if not self._unchecked:
            return self._settled
        result = self.wait_checked()
        assert result is not None
        self._unchecked = False
        self._settled = result
        if result.log is not None:
            self.log = result.log
            self.older = None
            self._offsets = dict(result.offsets)
            self._last_cut = 0  # the next checkpoint is the fold's, wherever the bad one was
            self._since = 1
            with contextlib.suppress(Exception):
                self.checkpoint()
        if result.damaged:
            self._refused = result.message
            self._checkpoints = False
        return result

    def prepare(self) -> None:
        """Make now what saving will need (the cattrs converters of the events and the checkpoint's state),
        which opening a fight from its checkpoint leaves undone: for a quiet moment after the fight is shown."""
        with contextlib.suppress(Exception):  # only made early: a failure shows where it is needed, as before
            codec_for(self.system).converter  # noqa: B018 - made on first access
            checkpoint.state_codec(self.system).converter  # noqa: B018

    def _take(self, entries: list[Entry], *, after: FightState | None = None) -> Step:
        if self._unchecked:
            result = self.settle_check()
            if result is not None and not result.good:
                raise SaveError(
                    f"{result.message}. This action was not taken: look again and do it if it still applies"
                )
        if self._refused:
            raise SaveError(f"{self._refused}. Nothing more is written to it")
        offset = self.writer.size
        step = super()._take(entries, after=after)
        self._offsets[entries[0].action] = offset
        self._since += 1
        if self._since >= checkpoint.EVERY:
            self.checkpoint()
        return step

    def checkpoint(self) -> bool:
        """Write a checkpoint if one can be taken later than the last (a cache: failing is harmless).

        Never from a state not checked: a fight opened from a checkpoint writes none until the check is over."""
        if not self._checkpoints or self._unchecked or self._refused:
            return False
        log = self.log
        after = log._group_of_action(self._last_cut) if self._last_cut else -1
        if after < 0 and log.partial and log.groups and self._last_cut >= log._actions[0]:
            return False
        c = checkpoint.cut(log, after)
        if c is None:
            return False
        nxt = c + 1
        offset = self._offsets.get(log._actions[nxt]) if nxt < log.groups else self.writer.size
        if offset is None:
            return False
        line = checkpoint.checkpoint_line(log, c, offset)
        if line is None:
            return False
        try:
            self.writer.append((line + "\n").encode("utf-8"), "the checkpoint was not written")
        except SaveError:
            return False
        self._last_cut = log._actions[c]
        self._since = 0
        keep = self._last_cut
        self._offsets = {a: o for a, o in self._offsets.items() if a > keep}
        return True

    def close(self) -> None:
        """Write a checkpoint if anything happened, close the file and release its lock (never raises)."""
        if self.writer.fd is not None and self._since:
            with contextlib.suppress(Exception):
                self.checkpoint()
        self.writer.close()


# -- loading ------------------------------------------------------------------------------


@attrs.frozen
class Checkpoint:
    """A checkpoint line met while loading (kept as its bytes: its state is parsed only to check it)."""

    line: int
    seq: int
    action: int
    raw: bytes = attrs.field(eq=False, repr=False)

    @property
    def data(self) -> Any:
        record = parse(self.raw)
        return record.get("checkpoint") if type(record) is dict else None


@attrs.frozen
class Loaded:
    """A fight log read from disk and checked by folding it."""

    path: Path
    header: Header
    system: System
    entries: tuple[Entry, ...]
    lines: Sequence[int]  # the file line of each entry
    warnings: tuple[str, ...] = ()
    torn: bool = False
    log: ActionLog | None = attrs.field(default=None, eq=False, repr=False)
    checkpoints: tuple[Checkpoint, ...] = attrs.field(default=(), eq=False, repr=False)
    old_format: bool = False
    offsets: dict[int, int] = attrs.field(factory=dict, eq=False, repr=False)  # line -> byte offset (the last lines)
    no_line_end: bool = False  # the last line lacks its line end (continuing adds it, or sets the line aside)
    line_count: int = 0  # lines in the file, the header's included

    @property
    def needs_repair(self) -> bool:
        """Continuing this fight repairs its end first (see :func:`open_fight`): a torn or damaged last line, an
        action cut short, or a last line without its line end."""
        return self.torn or self.no_line_end or _unfinished(self)

    def _folded(self) -> ActionLog:
        log = self.log
        if log is None or log.folded < log.groups:
            log = ActionLog(self.system)
            log.extend(self.entries)
            log.fold()
        return log

    def fight(self, roller: Roller | None = None) -> Fight:
        """The fight as the log leaves it (folded once, while loading)."""
        log = self.log
        if log is not None:
            object.__setattr__(self, "log", None)  # handed over: the fight goes on from it
        else:
            log = self._folded()
        return Fight(self.system, roller=roller, log=log)

    def timeline(self) -> Timeline:
        """The log read-only, for replay, summary and export (the fold done while loading, handed over once)."""
        log = self.log
        if log is not None and log.folded == log.groups:
            object.__setattr__(self, "log", None)
            return Timeline.of(log, copy=False)
        return Timeline.of(self._folded(), copy=False)

    def line_of(self, seq: int | None) -> int | None:
        if seq is None:
            return None
        i = seq - self.entries[0].seq if self.entries else -1
        if 0 <= i < len(self.lines) and self.entries[i].seq == seq:
            return self.lines[i]
        return next((ln for e, ln in zip(self.entries, self.lines, strict=True) if e.seq == seq), None)


@attrs.frozen
class CheckResult:
    """What checking a fight's checkpoint against its events found (``message`` in the GM's words)."""

    good: bool
    message: str = ""
    damaged: bool = False  # the events themselves do not read: nothing more may be written to the file
    line: int | None = None  # the damaged line, when the events do not read
    log: ActionLog | None = attrs.field(default=None, eq=False, repr=False)  # the fold, when the checkpoint lied
    offsets: dict[int, int] = attrs.field(factory=dict, eq=False, repr=False)


def check_against_events(path: Path, shown: FightState) -> CheckResult:
    """Fold the events of ``path`` from the start and compare them with its last checkpoint and with ``shown``
    (the state the fight was opened with from that checkpoint).  Only reads; safe in a thread."""
    from saves.checkpoint import disagreement

    try:
        loaded = _load_quietly(path)
    except LoadError as e:
        return CheckResult(False, damaged_words(path, e), True, line=e.line)
    log = loaded.log
    assert log is not None
    why: str | None = None
    if loaded.checkpoints:
        cp = loaded.checkpoints[-1]
        why = disagreement(loaded.system, Timeline.of(log, copy=False), cp.seq, cp.data)
    if why is None and log.state != shown:
        why = "the fight it gives differs from the events'"
    if why is None:
        return CheckResult(True)
    return CheckResult(
        False,
        f"{path.name}: its last checkpoint disagrees with its events ({why}); the events win: the fight is shown "
        "as they have it, and a checkpoint from them replaces the bad one",
        log=log,
        offsets=_action_offsets(loaded),
    )


def damaged_words(path: Path, e: LoadError) -> str:
    """A fight file whose events do not read, in the GM's words: where, why, and what the GM can do."""
    where = f"line {e.line}" if e.line else "a line"
    why = str(e).removeprefix(f"line {e.line}: ") if e.line else str(e)
    return (
        f"{path.name} is damaged at {where}: it cannot go on in this file (replay, export and check refuse it). "
        f"Continue from the last good action in a new file ({path.name} is left as it is). What is wrong: {why}"
    )


def load_system(system_id: str) -> System:
    """The installed system of this id (SystemNotInstalled names the ones there are)."""
    return registry.load(system_id)


def _system(system: System | str) -> System:
    return registry.load(system) if isinstance(system, str) else system


def _new_path(directory: Path, system_id: str) -> Path:
    stamp = datetime.now().strftime("%Y-%m-%d_%H%M%S")
    path = directory / f"{stamp}_{system_id}{SUFFIX}"
    n = 2
    while path.exists():
        path = directory / f"{stamp}_{system_id}-{n}{SUFFIX}"
        n += 1
    return path


def _create(path: Path, header: Header, codec: Codec, body: bytes = b"") -> SaveWriter:
    """Create a fight file (private to the user), write its header (and ``body``), lock it, sync it."""
    try:
        make_private_dir(path.parent)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC | os.O_NOFOLLOW, FILE_MODE)
    except FileExistsError:
        raise SaveError(f"{path} already exists; a fight file is never overwritten") from None
    except OSError as e:
        raise SaveError(f"cannot create {path}: {e.strerror or e}") from None
    try:
        data = (header_line(header) + "\n").encode("utf-8") + body
        done = 0
        while done < len(data):
            done += _write(fd, data[done:])
        _fsync(fd)
    except OSError as e:
        os.close(fd)
        with contextlib.suppress(OSError):
            path.unlink()
        raise SaveError(f"cannot create {path}: {e.strerror or e}") from None
    os.close(fd)
    with contextlib.suppress(OSError):  # the new name is durable too
        dfd = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    return SaveWriter(path, codec)


def new_fight(
    system: System | str,
    path: str | Path | None = None,
    *,
    seed: int | None = None,
    title: str = "",
    roller: Roller | None = None,
    directory: Path | None = None,
) -> SavedFight:
    """Create a fight file (header written and synced) and return the live fight writing to it.

    Without ``path`` the file gets a fresh name in ``directory`` (default: :func:`default_dir`).
    """
    sys_ = _system(system)
    target = Path(path) if path else _new_path(directory or default_dir(), sys_.id)
    seeded = SeededRoller(seed)
    header = Header(
        system=sys_.id,
        system_version=sys_.version,
        created=datetime.now(UTC).isoformat(timespec="seconds"),
        seed=seeded.seed,
        title=title,
    )
    codec = codec_for(sys_)
    writer = _create(target, header, codec)
    return SavedFight(sys_, writer, header, roller=roller if roller is not None else seeded)


def load(path: str | Path) -> Loaded:
    """Read and check a fight log by folding it.

    An unfinished last action (a torn line, or fewer events than its ``of``)
    is dropped with a warning; any other damage raises LoadError naming the
    line.  The file is not changed.  Any error while reading, decoding,
    upgrading or folding is a LoadError.
    """
    # Loading makes many small objects and no reference cycles: the cyclic
    # garbage collector would only scan the growing heap again and again.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _load(Path(path))
    except (LoadError, MemoryError):
        raise
    except RecursionError:
        raise LoadError(f"{Path(path).name}: a line is nested too deeply") from None
    except Exception as e:  # never a traceback from a file, whatever it holds
        raise LoadError(f"{Path(path).name} cannot be read: {type(e).__name__}: {str(e)[:200]}") from None
    finally:
        # The log just loaded lives as long as the fight is open: moved to the oldest generation at
        # once (a constant-time move, as mypy does after loading its cache), the collector does not
        # scan its million young objects again at its next few collections (cyclic garbage moved
        # with them is still found, at the next full collection).
        gc.freeze()
        gc.unfreeze()
        if was_enabled:
            gc.enable()


def _load_quietly(p: Path) -> Loaded:
    """:func:`load` without touching the garbage collector (for a thread: the app's own thread manages it)."""
    try:
        return _load(p)
    except (LoadError, MemoryError):
        raise
    except RecursionError:
        raise LoadError(f"{p.name}: a line is nested too deeply") from None
    except Exception as e:
        raise LoadError(f"{p.name} cannot be read: {type(e).__name__}: {str(e)[:200]}") from None


def _split(data: bytes) -> tuple[list[bytes], bool]:
    lines = data.split(b"\n")
    torn_tail = lines[-1] != b""
    if not torn_tail:
        lines.pop()
    return lines, torn_tail


def read_header(first: bytes) -> tuple[Header, dict[str, Any], bool]:
    """The header of a fight file from its first line; whether it is of an older format."""
    if len(first) > MAX_LINE:
        raise LoadError("the header line is too long: not a fight file", 1)
    try:
        body = unseal(first)
    except Damaged as e:
        try:  # a newer tracker may seal its lines another way: say so rather than "damaged"
            raw = parse(first)
        except ValueError:
            raw = None
        if type(raw) is dict and type(raw.get("format")) is int and raw["format"] > FORMAT_VERSION:
            upgrade(raw, [])
        raise LoadError(f"the header is damaged: {e}", 1) from None
    try:
        raw = parse(body if body is not None else first)
    except ValueError:
        raise LoadError("not a fight file (its header is not JSON)", 1) from None
    if type(raw) is not dict:
        raise LoadError("the header is not a JSON object", 1)
    old = raw.get("format") != FORMAT_VERSION
    if not old and body is None:
        raise LoadError("the header has no checksum", 1)
    if old:
        up, _ = upgrade(raw, [])
        return header_from(up), raw, True
    return header_from(raw), raw, False


def _load(p: Path) -> Loaded:
    lines = FileLines(p)
    try:
        return _load_lines(p, lines)
    finally:
        lines.close()


def _load_lines(p: Path, raw_lines: FileLines) -> Loaded:
    if not raw_lines.count or (raw_lines.size <= 4096 and not os.pread(raw_lines.fd, raw_lines.size, 0).strip()):
        raise LoadError(f"{p} is empty: not a fight file")
    offsets = raw_lines.offsets()
    last = len(raw_lines)
    header, head_raw, old = read_header(raw_lines[0])
    raw_lines[0] = b""
    try:
        system = registry.load(header.system)
    except TrackerError as e:
        raise LoadError(f"this fight is played with '{header.system}': {e}") from None
    codec = codec_for(system)
    warnings: list[str] = []
    entries, lines, ofs, checkpoints, torn = _decode(codec, raw_lines, old, head_raw, warnings)
    no_line_end = not raw_lines.ends_with_newline
    if torn:  # the last line was dropped: said in the GM's words (a torn write, or a whole line damaged)
        said = [i for i, w in enumerate(warnings) if w.startswith(f"line {last} ")]
        words = _dropped_last(raw_lines, last, offsets.get(last))
        if said:
            warnings[said[-1]] = words
        else:
            warnings.append(words)
    elif no_line_end:
        warnings.append(
            f"line {last}, the last, has no line end (a crash just as it was written); the line itself is whole: "
            "continuing the fight adds the line end first, nothing is lost"
        )
    _check_groups(entries, lines, ofs, warnings)
    log = ActionLog(system)
    try:
        log.extend(entries)
        log.fold()
    except LogError as e:
        line = next((ln for en, ln in zip(entries, lines, strict=True) if en.seq == e.seq), None)
        raise LoadError(f"the log does not replay: {e}", line) from None
    return Loaded(
        p,
        header,
        system,
        tuple(entries),
        array("l", lines),
        tuple(warnings),
        torn,
        log,
        tuple(checkpoints),
        old,
        offsets,
        no_line_end=no_line_end,
        line_count=last,
    )


def _dropped_last(raw_lines: FileLines, number: int, at: int | None) -> str:
    """What was wrong with a last line the loader dropped: cut off by a crash (no line end), or damaged (whole)."""
    if not raw_lines.ends_with_newline:
        return (
            f"line {number}, the last, was cut off (the last write did not finish: a crash or power cut) "
            "and was dropped"
        )
    why = "it does not read as a fight line"
    if at is not None:
        line = os.pread(raw_lines.fd, min(raw_lines.size - at, MAX_LINE + 1), at).rstrip(b"\n")
        why = _why_damaged(line)
    return (
        f"line {number}, the last, is damaged ({why}); it is whole, so this is not a crash cutting a write short: "
        "the file was changed or the disk damaged it; the line was dropped"
    )


def _why_damaged(line: bytes) -> str:
    if len(line) > MAX_LINE:
        return "it is too long"
    try:
        body = unseal(line)
    except Damaged as e:
        return str(e)
    if body is None:
        return "it has no checksum"
    try:
        parse(body)
    except ValueError as e:
        return f"it is not valid JSON: {e}"
    return "its content does not read as a fight line"


EVENT_HEAD = re.compile(rb'\{"seq":[0-9]+,"action":[0-9]+,"of":[0-9]+,')  # a line's start as written


def _decode(
    codec: Codec,
    raw_lines: Lines,
    old: bool,
    head_raw: dict[str, Any],
    warnings: list[str],
) -> tuple[list[Entry], list[int], list[int], list[Checkpoint], bool]:
    """Check, parse and decode every line after the header.

    Returns the entries, their line numbers, each entry's ``of``, the
    checkpoints, and whether a torn last line was dropped.
    """
    entries: list[Entry] = []
    lines: list[int] = []
    ofs: list[int] = []
    checkpoints: list[Checkpoint] = []
    records: list[tuple[int, dict[str, Any]]] = []  # an older format's, upgraded together
    # Figure 3 of bench/bench_speed.py ("3. load + full replay of 100,000 events", <= 2.5x the json.loads floor)
    # misses without this (2.96x bnb): the events already read, by the bytes of their lines after seq, action
    # and of (after EVENT_HEAD the rest of the line says every other field), given again (79-91% of the lines
    # of a long fight repeat one: a turn starting, a roll's modifier), 0.5x the floor saved.
    seen: dict[bytes, Event] = {}
    head = EVENT_HEAD.match
    last = len(raw_lines)
    torn = False
    for number in range(2, last + 1):
        line = raw_lines[number - 1]
        try:
            record = read_line(line, sealed=not old)
        except (Damaged, ValueError) as e:
            if number == last:
                warnings.append(f"line {number} was cut off or damaged (the last write did not finish) and was dropped")
                torn = True
                break
            if isinstance(e, Damaged):
                raise LoadError(str(e), number) from None
            raise LoadError(f"not valid JSON ({e})", number) from None
        if type(record) is not dict:
            raise LoadError("not an event record", number)
        if "checkpoint" in record:
            cp = record["checkpoint"]
            seq = cp.get("seq") if type(cp) is dict else None
            if len(record) != 1 or type(seq) is not int:
                raise LoadError("a damaged checkpoint", number)
            act = cp.get("action")
            checkpoints.append(Checkpoint(number, seq, act if type(act) is int else 0, line))
            continue
        if old:
            records.append((number, record))
            continue
        m = head(line)  # the checksum was checked: the line ends with it, 18 bytes
        entries.append(codec.decode(record, number, seen, line[m.end() : -18]) if m else codec.decode(record, number))
        lines.append(number)
        ofs.append(record.get("of", 1))
    if old and records:
        numbers = [n for n, _ in records]
        _, upgraded = upgrade(dict(head_raw), [r for _, r in records])
        for number, record in zip(numbers, upgraded, strict=True):
            if type(record) is not dict:
                raise LoadError("not an event record", number)
            entries.append(codec.decode(record, number))
            lines.append(number)
            of = record.get("of", 0)
            ofs.append(of if type(of) is int else 0)
    return entries, lines, ofs, checkpoints, torn


def _check_groups(entries: list[Entry], lines: list[int], ofs: list[int], warnings: list[str]) -> None:
    """Every action has as many events as its ``of`` says; an unfinished last one is dropped with a warning."""
    n = len(entries)
    i = 0
    while i < n:
        action = entries[i].action
        of = ofs[i]
        j = i + 1
        while j < n and entries[j].action == action:
            if ofs[j] != of:
                raise LoadError(f"action {action}: its events disagree on how many it has", lines[j])
            j += 1
        have = j - i
        if of and have != of:
            if j == n and have < of:
                warnings.append(f"action {action} was cut short ({have} of its {of} events) and was dropped")
                del entries[i:], lines[i:], ofs[i:]
                return
            raise LoadError(f"action {action} has {have} of its {of} events", lines[i])
        i = j


# -- continuing ---------------------------------------------------------------------------


def _seed_roller(header: Header, n: int) -> SeededRoller:
    return SeededRoller(((header.seed or 0) * 1_000_003 + n) % 2**31)


def open_fight(path: str | Path, *, roller: Roller | None = None) -> SavedFight:
    """Continue a fight in its file (holding its lock).

    A fight with a checkpoint near its end opens from it, folding only the
    tail; older steps are read from the file when first needed (an undo past
    the tail).  The checkpoint is not trusted yet: the fight checks it against
    the events (:meth:`SavedFight.start_check`, off the UI thread) before it
    writes anything.  Otherwise the whole file is folded.

    Recovery happens once, in place (see :func:`repair`): a file whose end a
    crash tore (a cut-off or damaged last line, an action cut short, a last
    line without its line end) has the bytes past its last whole action
    copied aside to ``<name>.torn-<UTC time>`` next to it (kept, never
    deleted), is cut back to that action and fsynced, and the fight goes on
    in the same file; so opening it again gives the same fight with all that
    was done since.  The fight's ``warnings`` say what was done.  Fights left
    as ``…-recovered.jsonl`` copies by older trackers are ordinary fight
    files and open as any other.  A file open for writing elsewhere raises
    :class:`FightInUse`.
    """
    p = Path(path)
    fd, _st = open_regular(p)  # no such file, a FIFO, a device, a folder, a link loop: said in the GM's words
    os.close(fd)
    writer: SaveWriter | None = _lock_only(p)  # first, so no one appends between reading and writing
    try:
        assert writer is not None
        fast = _from_checkpoint(p)
        if fast is not None:
            header, system, log, offsets, cut = fast
            writer.codec = codec_for(system)
            fight = SavedFight(
                system,
                writer,
                header,
                roller=roller or _seed_roller(header, len(log)),
                log=log,
                older=lambda: _whole_log(p),
                offsets=offsets,
                last_cut=cut,
            )
            fight._unchecked = True  # from a checkpoint: checked against the events before anything is written
            writer = None
            return fight
        loaded = load(p)
        warnings: list[str] = []
        if loaded.needs_repair:
            warnings.append(repair(loaded, writer))
            loaded = load(p)  # the file as it is now: its last action whole, its last line ended
            warnings.extend(loaded.warnings)
        else:
            warnings.extend(loaded.warnings)
        codec = codec_for(loaded.system)
        header = loaded.header
        fight_roller = roller or _seed_roller(header, len(loaded.entries))
        out = writer
        out.codec = codec
        old = loaded.old_format
        offsets = _action_offsets(loaded)
        writer = None
        whole = loaded.log
        object.__setattr__(loaded, "log", None)
        last_cut = max((cp.action for cp in loaded.checkpoints), default=0)
        return SavedFight(
            loaded.system,
            out,
            header,
            roller=fight_roller,
            log=whole,
            warnings=warnings,
            offsets=offsets,
            checkpoints=not old,  # an older format's file gets no checkpoint lines (older trackers read it)
            last_cut=last_cut if type(last_cut) is int else 0,
        )
    finally:
        if writer is not None:
            writer.close()


def _action_offsets(loaded: Loaded) -> dict[int, int]:
    """The byte offset of the first line of each of the last actions loaded (where a checkpoint may point)."""
    offsets: dict[int, int] = {}
    for entry, line in zip(loaded.entries, loaded.lines, strict=True):
        at = loaded.offsets.get(line)
        if at is not None and entry.action not in offsets:
            offsets[entry.action] = at
    return offsets


def repair(loaded: Loaded, writer: SaveWriter) -> str:
    """Repair the end of a fight file a crash tore, in place (the writer holds its lock); what was done, for the GM.

    The same file always gets the same repair, so it happens once: the bytes
    after the last line kept (the last whole action, or a checkpoint after
    it) are first copied aside, durably, to a new sibling file
    ``<name>.torn-<UTC time>`` (kept, never deleted), then the file is cut
    back to that line and fsynced.  A last line that lost only its line end
    (whole, its checksum good, its action complete) is kept and gets the line
    end, fsynced, before anything is appended after it.
    """
    p = loaded.path
    fd = writer.fd
    assert fd is not None
    size = os.fstat(fd).st_size
    keep = max(loaded.lines[-1] if len(loaded.lines) else 1, max((c.line for c in loaded.checkpoints), default=1))
    cut, newline = _end_of_line(p, keep, size, loaded.offsets)
    what = "; ".join(loaded.warnings) or "its last line was not whole"
    aside: Path | None = None
    try:
        if cut < size:
            aside = _set_aside(p, cut, size)
            _truncate(fd, cut)
            _fsync(fd)
        if newline:
            writer.size = os.fstat(fd).st_size
            writer.append(b"\n", "the line end was not added")
        writer.size = os.fstat(fd).st_size
    except OSError as e:
        raise SaveError(f"{p.name} needs repair ({what}) but it could not be done: {e.strerror or e}") from None
    if aside is None:
        return (
            f"{p.name}: its last line (line {keep}) had lost its line end in a crash; the line was whole and is kept: "
            "the line end was added, nothing was lost"
        )
    return (
        f"{p.name} was repaired: {what}. The {size - cut:,} bytes left out are kept in {aside.name} (next to it); "
        f"the fight goes on from its last whole action, in {p.name} itself"
    )


def _end_of_line(p: Path, number: int, size: int, known: dict[int, int]) -> tuple[int, bool]:
    """Where line ``number`` of the file ends (after its newline), and whether that newline is missing."""
    if number + 1 in known:
        return known[number + 1], False
    fd, _st = open_regular(p)
    try:
        seen, at = 0, 0
        while at < size:
            chunk = os.pread(fd, min(CHUNK * 4, size - at), at)
            if not chunk:
                break
            n = chunk.count(b"\n")
            if seen + n >= number:
                i = -1
                for _ in range(number - seen):
                    i = chunk.index(b"\n", i + 1)
                return at + i + 1, False
            seen += n
            at += len(chunk)
        return size, True  # the line kept is the last, without its line end
    finally:
        os.close(fd)


def _set_aside(p: Path, start: int, end: int) -> Path:
    """Copy bytes ``start:end`` of ``p`` to a new private file next to it, synced; its path."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    fd_in, _st = open_regular(p)
    try:
        data = os.pread(fd_in, end - start, start)
    finally:
        os.close(fd_in)
    n = 1
    while True:
        target = p.with_name(f"{p.name}.torn-{stamp}{'' if n == 1 else f'-{n}'}")
        try:
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC | os.O_NOFOLLOW, FILE_MODE)
            break
        except FileExistsError:
            n += 1
    try:
        view = memoryview(data)
        done = 0
        while done < len(data):
            done += _write(fd, view[done:])
        _fsync(fd)
    finally:
        os.close(fd)
    with contextlib.suppress(OSError):  # the new name is durable before the file is cut
        dfd = os.open(p.parent, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    return target


def _whole_log(p: Path) -> ActionLog:
    loaded = load(p)
    if loaded.log is None:
        raise LoadError(f"{p.name} could not be read again")
    return loaded.log


def _from_checkpoint(p: Path) -> tuple[Header, System, ActionLog, dict[int, int], int] | None:
    """The fight opened from its last checkpoint and the tail after it; None if anything is amiss.

    Anything unusual (no checkpoint, a torn tail, a damaged line, a tail that
    does not follow the checkpoint) sends the caller to the full load, which
    says what is wrong with the line number.
    """
    try:
        header, _raw, old = read_header(_head(p))
        if old:
            return None
        found = checkpoint.find_last(p)
        if found is None:
            return None
        cp, _line_start, _size = found
        at = cp.get("at")
        if type(at) is not int or not 0 < at <= _line_start:
            return None
        system = registry.load(header.system)
        log = checkpoint.partial_log(system, cp)
        data = read_bytes(p, start=at)
        tail_lines, torn_tail = _split(data) if data else ([], False)
        if torn_tail:
            return None
        codec = codec_for(system)
        warnings: list[str] = []
        entries, numbers, ofs, _cps, torn = _decode(codec, [b"", *tail_lines], False, {}, warnings)
        if torn or warnings:
            return None
        _check_groups(entries, numbers, ofs, warnings)
        if warnings or (entries and entries[0].seq != log.base_entries + 1):
            return None
        offsets: dict[int, int] = {}
        pos = at
        line_at: list[int] = []
        for line in tail_lines:
            line_at.append(pos)
            pos += len(line) + 1
        for entry, number in zip(entries, numbers, strict=True):
            if entry.action not in offsets:
                offsets[entry.action] = line_at[number - 2]
        log.extend(entries)
        log.fold()
        cut = cp.get("action")
        return header, system, log, offsets, cut if type(cut) is int else 0
    except Exception:  # the full load will say what is wrong, with the line
        return None


def _unfinished(loaded: Loaded) -> bool:
    """An action was dropped: appending after it would leave its lines in the middle of the log."""
    return any("was dropped" in w for w in loaded.warnings)


def _lock_only(p: Path) -> SaveWriter:
    return SaveWriter(p, None)


def continue_from(path: str | Path, upto: int, new_path: str | Path | None = None) -> SavedFight:
    """Start a new fight file holding the first ``upto`` log entries of ``path``.

    The cut is moved forward to the end of the GM action it falls in, so no
    action is taken half.  The original file is not touched.
    """
    loaded = load(path)
    entries = loaded.entries
    if not 0 <= upto <= len(entries):
        raise Refused(f"the log has {len(entries)} entries; cannot continue from {upto}")
    while 0 < upto < len(entries) and entries[upto].action == entries[upto - 1].action:
        upto += 1
    kept = entries[:upto]
    codec = codec_for(loaded.system)
    target = Path(new_path) if new_path else _sibling(loaded.path, "branch")
    header = attrs.evolve(
        loaded.header,
        parent=str(loaded.path),
        created=datetime.now(UTC).isoformat(timespec="seconds"),
        format=FORMAT_VERSION,
    )
    fight = Fight(loaded.system)
    fight.load(kept)
    writer = _create(target, header, codec, _lines(codec, kept))
    return SavedFight(loaded.system, writer, header, roller=_seed_roller(header, upto), log=fight.log)


def continue_before(path: str | Path, line: int) -> SavedFight:
    """Start a new fight file holding the fight of ``path`` up to its last whole action before ``line`` (a damaged
    line: the file does not load past it).  The original file is not touched; the new one is named
    ``<name>-continued.jsonl`` and names the original as its parent."""
    p = Path(path)
    if line < 2:
        raise LoadError(f"{p.name} is damaged at its header: there is no fight to go on from")
    lines = FileLines(p)
    try:
        header, _raw, old = read_header(lines[0])
        if old:
            raise LoadError(f"{p.name} is of an older format: replay it to see what it holds")
        kept = [lines[i] for i in range(1, min(line - 1, len(lines)))]
    finally:
        lines.close()
    target = _sibling(p, "continued")
    scratch = p.with_name(f".{target.name}.reading")
    body = b"".join(x + b"\n" for x in kept if not x.startswith(b'{"checkpoint"'))  # a checkpoint's offsets move
    _create(scratch, header, codec_for(load_system(header.system)), body).close()
    try:
        loaded = load(scratch)  # an action cut short by the damage is left out here
    finally:
        with contextlib.suppress(OSError):
            scratch.unlink()
    system = loaded.system
    codec = codec_for(system)
    new_header = attrs.evolve(
        loaded.header, parent=str(p), created=datetime.now(UTC).isoformat(timespec="seconds"), format=FORMAT_VERSION
    )
    writer = _create(target, new_header, codec, _lines(codec, loaded.entries))
    log = loaded.log
    object.__setattr__(loaded, "log", None)
    return SavedFight(
        system,
        writer,
        new_header,
        roller=_seed_roller(new_header, len(loaded.entries)),
        log=log,
        warnings=(
            f"{p.name} is damaged at line {line}: the fight goes on from the last whole action before it "
            f"({len(loaded.entries)} events), in {target.name}; {p.name} was not changed",
        ),
    )


def _sibling(path: Path, word: str) -> Path:
    n = 1
    while True:
        candidate = path.with_name(f"{path.stem}-{word}{'' if n == 1 else n}{SUFFIX}")
        if not candidate.exists() and not candidate.is_symlink():
            return candidate
        n += 1


def _lines(codec: Codec, entries: Sequence[Entry]) -> bytes:
    sizes: dict[int, int] = {}
    for e in entries:
        sizes[e.action] = sizes.get(e.action, 0) + 1
    return "".join(codec.encode(e, sizes[e.action]) + "\n" for e in entries).encode("utf-8")


# -- the list of saved fights ------------------------------------------------------------


@attrs.frozen
class SaveInfo:
    """What the start screen shows of a saved fight (read cheaply; ``problem`` says why one is damaged)."""

    path: Path
    header: Header | None
    modified: float
    problem: str = ""
    title: str = ""
    system: str = ""
    created: str = ""
    round: int | None = None
    phase: str = ""  # "setup", "round 3", "over" when known
    combatants: int | None = None

    @property
    def damaged(self) -> bool:
        return self.header is None


HEAD_READ = 1 << 16


def recent(directory: Path | None = None, limit: int = 30) -> list[SaveInfo]:
    """Saved fights in a folder, newest first; never raises or hangs on a bad file (it is listed as damaged).

    Reads only regular files, and of each only the header and a bounded
    tail (the last checkpoint gives the round and name).  Meant to run in a
    worker thread.
    """
    folder = directory or default_dir()
    try:
        if not folder.is_dir():
            return []
        candidates = []
        for p in folder.glob(f"*{SUFFIX}"):
            try:
                st = p.lstat()
            except OSError:
                continue
            candidates.append((st.st_mtime, p, st))
    except OSError:
        return []
    candidates.sort(key=lambda t: t[0], reverse=True)
    out: list[SaveInfo] = []
    for mtime, p, st in candidates[:limit]:
        try:
            out.append(_info(p, st, mtime))
        except Exception as e:  # whatever a file holds, it is listed, never fatal
            out.append(SaveInfo(p, None, mtime, f"unreadable: {type(e).__name__}"))
    return out


def _info(p: Path, st: os.stat_result, mtime: float) -> SaveInfo:
    from saves.checkpoint import peek_tail

    if not stat.S_ISREG(st.st_mode):
        return SaveInfo(p, None, mtime, "unreadable: not a regular file")
    try:
        head = _head(p)
        header, _raw, _old = read_header(head)
    except LoadError as e:
        return SaveInfo(p, None, mtime, f"unreadable: {e}")
    title, rnd, phase, count = peek_tail(p, header)
    return SaveInfo(
        p,
        header,
        mtime,
        "",
        title=title or header.title,
        system=header.system,
        created=header.created,
        round=rnd,
        phase=phase,
        combatants=count,
    )


def _head(p: Path) -> bytes:
    """The first line of a regular file, read with a bound."""
    try:
        fd = os.open(p, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as e:
        raise LoadError(f"cannot read it: {e.strerror or e}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise LoadError("not a regular file")
        data = os.read(fd, HEAD_READ)
    finally:
        os.close(fd)
    first, nl, _ = data.partition(b"\n")
    if not nl and len(data) >= HEAD_READ:
        raise LoadError("the header line is too long: not a fight file", 1)
    return first
