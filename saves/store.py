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
from array import array
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

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
from tracker.engine import Entry, Fight, LogError, Step
from tracker.errors import Refused, TrackerError
from tracker.events import Event
from tracker.log import ActionLog
from tracker.model import FightState
from tracker.plugin import System
from tracker.record import Record, field, record
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


def read_bytes(path: Path, limit: int = MAX_FILE, *, start: int = 0) -> bytes:
    """The bytes of a regular file (from ``start``), never more than ``limit``; LoadError otherwise.

    Opening does not block (a FIFO is refused, not waited on) and a device or
    a symlink to one is refused before anything is read.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise LoadError(f"there is no fight file at {path}") from None
    except OSError as e:
        raise LoadError(f"cannot read {path}: {e.strerror or e}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise LoadError(f"{path.name} is not a regular file: not a fight file")
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
            raise SaveError(f"cannot write the fight to {path}: {e.strerror or e}") from None
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise SaveError(f"{path.name} is not a regular file")
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

    def prepare(self) -> None:
        """Make now what saving will need (the cattrs converters of the events and the checkpoint's state),
        which opening a fight from its checkpoint leaves undone: for a quiet moment after the fight is shown."""
        with contextlib.suppress(Exception):  # only made early: a failure shows where it is needed, as before
            codec_for(self.system).converter  # noqa: B018 - made on first access
            checkpoint.state_codec(self.system).converter  # noqa: B018

    def _take(self, entries: list[Entry], *, after: FightState | None = None) -> Step:
        offset = self.writer.size
        step = super()._take(entries, after=after)
        self._offsets[entries[0].action] = offset
        self._since += 1
        if self._since >= checkpoint.EVERY:
            self.checkpoint()
        return step

    def checkpoint(self) -> bool:
        """Write a checkpoint if one can be taken later than the last (a cache: failing is harmless)."""
        if not self._checkpoints:
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


@record(repr=False, eq=False)
class Checkpoint(Record):
    """A checkpoint line met while loading (kept as its bytes: its state is parsed only to check it)."""

    line: int
    seq: int
    action: int
    raw: bytes = field(eq=False, repr=False)

    @property
    def data(self) -> Any:
        record = parse(self.raw)
        return record.get("checkpoint") if type(record) is dict else None


@record(repr=False, eq=False)
class Loaded(Record):
    """A fight log read from disk and checked by folding it."""

    path: Path
    header: Header
    system: System
    entries: tuple[Entry, ...]
    lines: Sequence[int]  # the file line of each entry
    warnings: tuple[str, ...] = ()
    torn: bool = False
    log: ActionLog | None = field(default=None, eq=False, repr=False)
    checkpoints: tuple[Checkpoint, ...] = field(default=(), eq=False, repr=False)
    old_format: bool = False
    offsets: dict[int, int] = field(factory=dict, eq=False, repr=False)  # line -> byte offset (the last lines)

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
    data = read_bytes(p)
    if not data.strip():
        raise LoadError(f"{p} is empty: not a fight file")
    raw_lines, torn_tail = _split(data)
    offsets = _tail_offsets(raw_lines, len(data), torn_tail)
    del data
    header, head_raw, old = read_header(raw_lines[0])
    try:
        system = registry.load(header.system)
    except TrackerError as e:
        raise LoadError(f"this fight is played with '{header.system}': {e}") from None
    codec = codec_for(system)
    warnings: list[str] = []
    entries, lines, ofs, checkpoints, torn = _decode(codec, raw_lines, old, head_raw, warnings)
    del raw_lines
    if torn_tail and not torn:
        warnings.append(f"line {len(lines) + len(checkpoints) + 1} had no line end (the last write did not finish)")
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
    )


def _tail_offsets(
    raw_lines: list[bytes], size: int, torn_tail: bool, keep: int = 4 * checkpoint.EVERY
) -> dict[int, int]:
    """The byte offset of each of the last ``keep`` lines (line number -> offset), for the next checkpoint."""
    out: dict[int, int] = {}
    end = size if torn_tail else size - 1  # where the last line's text ends
    for k in range(len(raw_lines) - 1, max(len(raw_lines) - keep, 0) - 1, -1):
        start = end - len(raw_lines[k])
        out[k + 1] = start
        end = start - 1
    return out


EVENT_HEAD = re.compile(rb'\{"seq":[0-9]+,"action":[0-9]+,"of":[0-9]+,')  # a line's start as written


def _decode(
    codec: Codec,
    raw_lines: list[bytes],
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
    the tail).  Otherwise the whole file is folded.  A file with a torn tail
    is never rewritten: its good part is copied to a new
    ``…-recovered.jsonl`` file, and the fight continues there.  A file open
    for writing elsewhere raises :class:`FightInUse`.
    """
    p = Path(path)
    if not p.exists() and not p.is_symlink():
        load(p)  # the clear "no fight file" error
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
            writer = None
            return fight
        loaded = load(p)
        codec = codec_for(loaded.system)
        warnings = list(loaded.warnings)
        header = loaded.header
        fight_roller = roller or _seed_roller(header, len(loaded.entries))
        offsets = {}
        if loaded.torn or _unfinished(loaded):
            target = _sibling(p, "recovered")
            header = attrs.evolve(header, parent=str(p), format=FORMAT_VERSION)
            out = _create(target, header, codec, _lines(codec, loaded.entries))
            writer.close()
            warnings.append(f"the fight goes on in {target.name}; the damaged file was left as it was")
            old = False
        else:
            out = writer
            out.codec = codec
            old = loaded.old_format
            for entry, line in zip(loaded.entries, loaded.lines, strict=True):
                at = loaded.offsets.get(line)
                if at is not None and entry.action not in offsets:
                    offsets[entry.action] = at
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


@record(repr=False, eq=False)
class SaveInfo(Record):
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
