"""Writing fight files: a new fight, a fight continued in its file (repaired first if a crash tore its end), or
continued in a new file from a point of another.

One writer, many readers: a fight open for writing holds an OS lock on its
file (``flock``, released by the OS if the process dies); a second writer is
refused with :class:`FightInUse`.

Each action is written whole, unbuffered, and fsynced before it counts as
done; if the write fails the file is cut back to its last good length, so a
failed action leaves the file exactly as it was and can be tried again.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import re
import stat
import threading
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path

import attrs

from saves import checkpoint
from saves.files import (
    SUFFIX,
    check_save_path,
    default_dir,
    file_kind,
    glob_escape,
    make_private_dir,
    open_regular,
    read_bytes,
    write_whole,
)
from saves.format import (
    FORMAT_VERSION,
    Codec,
    Damaged,
    Header,
    LoadError,
    SaveError,
    codec_for,
    header_line,
    unseal,
)
from saves.listing import continuation_of, found_without_note, leave_note
from saves.loading import (
    CHUNK,
    NEWER_NOTE,
    CheckResult,
    FileLines,
    Loaded,
    action_offsets,
    check_against_events,
    from_checkpoint,
    load,
    load_system,
    read_header,
)
from tracker import registry
from tracker.dice import Roller, SeededRoller
from tracker.errors import Refused
from tracker.fight import Fight
from tracker.log import ActionLog, Entry, Step
from tracker.model import FightState
from tracker.plugin import System

# -- the writer: one per file, holding its lock ----------------------------------------------------


class FightInUse(SaveError):
    """The fight file is open for writing elsewhere (another app, or this one); ``pid`` names it if known."""

    def __init__(self, path: Path, pid: int | None, *, branching: bool = False) -> None:
        if pid == os.getpid():
            who = "in this app already"
        elif pid:
            who = f"by another tracker (process {pid})"
        else:
            who = "by another tracker"
        if branching:  # "continue here" from its replay: see continue_from
            text = (
                f"{path.name} is still being played (open {who}): a new file going on from it now would be a "
                "second copy of a fight that goes on there, and the record would fork; close it there first, "
                "then continue from here"
            )
        else:
            text = f"{path.name} is open {who}; it can only be opened read-only (replay) until it is closed"
        super().__init__(text)
        self.path = path
        self.pid = pid


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
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise FightInUse(path, _holder(os.fstat(fd))) from None
    except OSError as e:
        if e.errno in (errno.EAGAIN, errno.EACCES):
            raise FightInUse(path, _holder(os.fstat(fd))) from None
        raise SaveError(f"cannot lock {path}: {e.strerror or e}") from None


def writer_elsewhere(path: str | Path) -> FightInUse | None:
    """Whether a tracker holds ``path`` open for writing (:class:`FightInUse`, naming it if it can be told), else
    None (not held, or not there: whoever reads it says what is wrong).

    Asked with a shared lock taken and let go at once on a file opened read-only: never blocks, and takes nothing
    from a writer (a writer opening it in that instant is told it is in use, as with any other reader's probe).
    """
    p = Path(path)
    try:
        fd = os.open(p, os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError as e:
            if isinstance(e, BlockingIOError) or e.errno in (errno.EAGAIN, errno.EACCES):
                return FightInUse(p, _holder(os.fstat(fd)))
            return None
        return None
    finally:
        os.close(fd)  # (lets the shared lock go)


class FileLost(SaveError):
    """The fight's file is no longer the one this app writes: deleted, moved, replaced or changed by another
    program.  Nothing more is written to it; the fight as the app has it can be saved to a new file (:func:`rescue`)."""


class WriteFailed(SaveError):
    """The system refused a write to the fight's file (a full disk, a file made read-only or immutable, a share
    gone read-only): the action was not taken and the file is as it was, holding every action confirmed before.
    The fight as the app has it is whole and can be saved to a new file to go on there (:func:`rescue`), as when
    the file is lost (:class:`FileLost`)."""


class SaveWriter:
    """Holds the fight file's lock; appends each action whole, fsynced, or not at all.

    Before each append it checks that the path still names the file it holds and that the file is as it left it:
    a file deleted, replaced (an editor or a sync tool writes a copy and renames it over), moved or written by
    another program took every later action into a file no one would open again, each shown as saved, and let a
    second tracker open the path (a fork).  Such an append is refused (:class:`FileLost`), and the bytes it did
    not write are never cut nor padded.

    Ruling: "as it left it" is its length and its modification time (``st_mtime_ns``), taken with ``fstat`` on
    the file it holds right after each of its own writes (the write and its fsync set the time: the stamp is the
    one they left).  Any other change of either is "written to by another program", a change in place of the
    same length too (nano, vim with backupcopy=yes, ``dd conv=notrunc``): checked by length alone, it passed,
    the next actions were appended and confirmed behind a line whose checksum no longer held, and the only way
    on (continuing before the damaged line) left them out.  The change time (``st_ctime_ns``) is not compared:
    a chmod, a hard link or an extended attribute (a sync tool's, a backup's) changes it with no byte written,
    and each would have stopped the fight.  Readers (replay, the players' view, check, export) never change
    either.  The cost: one ``fstat`` per write (about a microsecond); the check itself uses the ``fstat``
    :meth:`lost` made already.  What it cannot see: a change that keeps the length and sets the time back to
    the very nanosecond (``touch -r``), or one within the clock tick of the writer's own write.
    Test: tests/reliability/test_record_round3.py::test_a_same_size_change_in_place_is_noticed.
    """

    def __init__(self, path: Path, codec: Codec | None) -> None:
        self.path = path
        self.codec = codec
        self.fd: int | None = None
        self._failed = False  # the last append failed: the bytes past ``size`` are its own, cut back first
        try:
            # read and write: what it wrote can be read back from the file it holds, whatever is at the path now
            fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CLOEXEC | os.O_NOFOLLOW | os.O_NONBLOCK)
        except OSError as e:
            if e.errno in (errno.ELOOP, errno.ENXIO, errno.EISDIR):  # a link, a FIFO with no reader, a folder
                check_save_path(path)
            raise SaveError(f"cannot write the fight to {path}: {e.strerror or e}") from None
        try:
            mode = os.fstat(fd).st_mode
            if not stat.S_ISREG(mode):
                raise SaveError(f"{path.name} is {file_kind(mode)}, not a fight file: give the path of a fight file")
            _lock(fd, path)
            held = os.fstat(fd)
            self.size = held.st_size  # the last good length
            self._mtime: int | None = held.st_mtime_ns  # the file's time as this writer left it (None: not known)
        except BaseException:
            os.close(fd)
            raise
        self.fd = fd

    def mark(self) -> None:
        """Take the file as it is now as this writer's own (its length and time): after it changed it itself
        (a repair cutting it back), and after each append."""
        fd = self.fd
        if fd is not None:
            held = os.fstat(fd)
            self.size = held.st_size
            self._mtime = held.st_mtime_ns

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
            why = self.lost()
            if why:
                raise FileLost(
                    f"{self.path.name} {why}: {what}; the fight as it is here is kept, to save in a new file"
                )
            if self._failed and os.fstat(fd).st_size > self.size:
                _truncate(fd, self.size)  # what a failed write of its own left: cut back first
            self._failed = False
            done = 0
            view = memoryview(data)
            while done < len(data):
                done += _write(fd, view[done:])
            _fsync(fd)
        except OSError as e:
            self._failed = True
            self._mtime = None  # its own write changed the time: not known until it is taken again
            with contextlib.suppress(OSError):
                _truncate(fd, self.size)
                _fsync(fd)
                self._failed = False
                self._mtime = os.fstat(fd).st_mtime_ns
            raise WriteFailed(f"could not save to {self.path}: {e.strerror or e}; {what}") from None
        self.size += len(data)
        try:
            self._mtime = os.fstat(fd).st_mtime_ns  # the time its own write left (see the class's ruling)
        except OSError:
            self._mtime = None

    def lost(self) -> str:
        """Why the path no longer names the file as this writer left it ("was deleted by another program"), or ""."""
        fd = self.fd
        if fd is None:
            return "is closed"
        held = os.fstat(fd)
        try:
            there = os.stat(self.path, follow_symlinks=False)
        except FileNotFoundError:
            return "was deleted or moved by another program"
        except OSError as e:
            return f"cannot be checked ({e.strerror or e})"
        if (there.st_dev, there.st_ino) != (held.st_dev, held.st_ino):
            if held.st_nlink == 0:
                return "was replaced by another program"
            return "was moved by another program (another file is at its path now)"
        if held.st_size < self.size:
            return "was cut short by another program"
        if held.st_size > self.size and not self._failed:
            return "was written to by another program"
        if self._mtime is not None and held.st_mtime_ns != self._mtime and not self._failed:
            return "was written to by another program (changed in place)"
        return ""

    def own_bytes(self) -> bytes:
        """What this writer has written, read back from the file it holds (deleted or replaced at the path, the
        file is still there for it); SaveError when it is no longer whole."""
        fd = self.fd
        if fd is None or os.fstat(fd).st_size < self.size:
            raise SaveError(f"{self.path.name} was cut short by another program: what was saved in it is gone")
        parts: list[bytes] = []
        at = 0
        while at < self.size:
            chunk = os.pread(fd, min(1 << 20, self.size - at), at)
            if not chunk:
                raise SaveError(f"{self.path.name} could not be read back")
            parts.append(chunk)
            at += len(chunk)
        return b"".join(parts)

    def close(self) -> None:
        """Release the lock and the file; never raises."""
        fd, self.fd = self.fd, None
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)

    def __del__(self) -> None:  # a writer dropped without close still lets the file go
        self.close()


# -- the fight being written -----------------------------------------------------------------------


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

    Ruling: a check that agrees keeps the events before the checkpoint it
    folded (``_older_entries``; the fold's states are let go), so the fight is
    whole in memory from then on, as a fight opened without a checkpoint is:
    a file another program empties or cuts short is rescued whole (:func:`rescue`
    writes it from memory when the file it holds no longer has that part).
    It was dropped because the check agreed, and such a file lost the fight
    whole (the dialog could only say "put the file back").  Kept only when the
    check's events after the checkpoint are the ones this fight opened with
    (the check read the file at the path, which may be another by now).
    Test: tests/reliability/test_rescue_round4.py::test_a_fight_opened_from_its_checkpoint_survives_its_file_emptied.
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
        self.rescued_to: Path | None = None  # saved on in another file once its own was lost (``rescue``)
        # opened from a checkpoint: the events before it, as the check that agreed with it folded them (None: not
        # checked yet, or the log is whole)
        self._older_entries: list[Entry] | None = None
        # why the fight exists only in memory: set by :meth:`close` when its file was lost and it could be saved
        # nowhere else ("" otherwise)
        self.unsaved = ""
        # the lost file this one was saved on from when no note saying so could be left for it (:func:`rescue`):
        # tried again at closing (the disk may have room by then)
        self.unnoted: Path | None = None

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
        checked = result.entries if result.good else None
        if result.entries is not None:
            result = attrs.evolve(result, entries=None)  # (kept once, below: not twice)
        why = self.writer.lost() if self.writer.fd is not None else ""
        if why:
            # the check read the file at the path, which is another now (a sync tool put an older copy there): what
            # it found is not this fight's, whose events only the file held here has (its fold, taken as the
            # fight, lost every action the copy had not); the next action finds the file lost and offers a rescue
            result = CheckResult(True, warnings=(f"{self.path.name} {why}: it could not be checked",))
        if checked is not None:
            self._keep_older(checked)
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

    def _keep_older(self, checked: Sequence[Entry]) -> None:
        """Keep the events before the checkpoint from the check's fold (see the class's ruling), if its events
        after the checkpoint are the very ones this fight opened with."""
        log = self.log
        base = log.base_entries
        if self.older is None or not log.partial or len(checked) != len(log):
            return
        if list(checked[base:]) != log.loaded:
            return
        self._older_entries = list(checked[:base])

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

    def _whole(self) -> None:
        """The older part of the log, read from the file: only while the path is still this fight's file (one put
        in its place by another program would have given another fight's actions)."""
        why = self.writer.lost() if self.writer.fd is not None else ""
        if why and self._older_entries is not None:  # kept when the check agreed: folded from memory
            whole = Fight(self.system)
            whole.load([*self._older_entries, *self.log.loaded])
            self.log, self.older, self._older_entries = whole.log, None, None
            return
        if why:
            raise FileLost(f"{self.path.name} {why}: the older part of the fight cannot be read from it")
        super()._whole()
        self._older_entries = None  # (the log is whole)

    def close(self, elsewhere: Sequence[Path] | None = None) -> Path | None:
        """Write a checkpoint if anything happened, close the file and release its lock (never raises).

        A file no longer the fight's own (another program deleted, moved or replaced it, and the fight was not
        saved on elsewhere since) is rescued first, to ``<name>-rescued.jsonl`` beside it, else in the folders
        ``elsewhere`` (default: the fights folder, :func:`default_dir`), whose path is returned: quitting let every
        action written into the replaced file go with it, unsaid.  If it can be saved nowhere, :attr:`unsaved`
        says why (the fight is lost with this app): a failed rescue was swallowed, and the app ended, exit 0,
        with nothing said (tests/reliability/test_rescue_round4.py::test_close_says_when_the_fight_is_saved_nowhere)."""
        rescued = None
        if self.writer.fd is not None and self.rescued_to is None:
            try:
                why = self.writer.lost()
            except Exception as e:  # (never raises)
                why = f"cannot be checked ({type(e).__name__}: {e})"
            if why:
                folders = (default_dir(),) if elsewhere is None else tuple(elsewhere)
                try:
                    refused = rescue_refused(self)
                    if refused:
                        raise SaveError(refused)
                    copy = rescue(self, elsewhere=folders)
                    copy.close()
                    rescued = copy.path
                except Exception as e:
                    detail = str(e).removeprefix(NOWHERE)
                    self.unsaved = f"{self.path.name} {why}, and the fight could not be saved anywhere ({detail})"
        # (saved on in another file: the old one gets nothing more, a checkpoint neither; it could be written again
        # by now, a disk freed, and took a line after the rescue was made)
        if self.writer.fd is not None and self._since and rescued is None and self.rescued_to is None:
            with contextlib.suppress(Exception):
                self.checkpoint()
        if self.unnoted is not None and leave_note(self.unnoted, self.path):
            self.unnoted = None
        self.writer.close()
        return rescued


# -- a new fight -----------------------------------------------------------------------------------


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
    _write_new(path, (header_line(header) + "\n").encode("utf-8") + body)
    return SaveWriter(path, codec)


def _write_new(path: Path, data: bytes) -> None:
    """Create ``path`` (private to the user; never over a file) holding ``data``, whole or not at all."""
    try:
        write_whole(path, data)
    except FileExistsError:
        raise SaveError(f"{path} already exists; a fight file is never overwritten") from None
    except OSError as e:
        raise SaveError(f"cannot create {path}: {e.strerror or e}") from None


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


# -- continuing a fight in its file (repaired first if a crash tore its end) -----------------------


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
        fast = from_checkpoint(p)
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
        offsets = action_offsets(loaded)
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
    what = "; ".join(w for w in loaded.warnings if NEWER_NOTE not in w) or "its last line was not whole"
    aside: Path | None = None
    try:
        if cut < size:
            aside = _set_aside(p, cut, size)
            _truncate(fd, cut)
            _fsync(fd)
        if newline:
            writer.mark()  # cut back by the repair itself: its length and time are the writer's own
            writer.append(b"\n", "the line end was not added")
        writer.mark()
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
    """Copy bytes ``start:end`` of ``p`` to a new private file next to it, written whole and synced; its path.

    The same bytes set aside already (a crash came after the copy, before the file was cut) are not copied again:
    that copy is the one named.  (A crash left an empty FILE.torn-<time>, or two alike.)"""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    fd_in, _st = open_regular(p)
    try:
        data = os.pread(fd_in, end - start, start)
    finally:
        os.close(fd_in)
    for earlier in sorted(p.parent.glob(f"{glob_escape(p.name)}.torn-*")):
        with contextlib.suppress(OSError, LoadError):
            if earlier.stat().st_size == len(data) and read_bytes(earlier, len(data)) == data:
                return earlier
    n = 1
    while True:
        target = p.with_name(f"{p.name}.torn-{stamp}{'' if n == 1 else f'-{n}'}")
        try:
            write_whole(target, data)  # (a disk full left an empty FILE.torn-<time> at each try)
            return target
        except FileExistsError:
            n += 1


def _whole_log(p: Path) -> ActionLog:
    loaded = load(p)
    if loaded.log is None:
        raise LoadError(f"{p.name} could not be read again")
    return loaded.log


def _lock_only(p: Path) -> SaveWriter:
    return SaveWriter(p, None)


# -- continuing in a new file ----------------------------------------------------------------------


def continue_from(path: str | Path, upto: int, new_path: str | Path | None = None) -> SavedFight:
    """Start a new fight file holding the first ``upto`` log entries of ``path``.

    The cut is moved forward to the end of the GM action it falls in, so no
    action is taken half.  The original file is not touched.

    Ruling: a fight a tracker holds open for writing (this app or another) is not branched: FightInUse says it is
    still being played there and to close it there first.  From its replay ("Replay it, read-only", offered
    because it is open elsewhere), ``c`` made a second writable copy at the live state while the first went on
    being played, two records of one fight (the README: one writer at a time).  A "what if" from an earlier point
    is as easy once it is closed, and nothing is lost by waiting; a copy that silently stops following the live
    fight is.  Test: tests/reliability/test_crash_round3.py::test_a_branch_of_a_fight_played_elsewhere_is_refused,
    tests/ui/test_replay_branch_lock.py.
    """
    busy = writer_elsewhere(path)
    if busy is not None:
        raise FightInUse(busy.path, busy.pid, branching=True)
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
        parent=str(loaded.path.absolute()),
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
    ``<name>-continued.jsonl`` and names the original as its parent.

    Made once: a continuation made already (by another window on the same damaged file, whose dialog was open at
    the same time) is opened instead (FightInUse while that window has it); each window made its own, and the
    record forked."""
    p = Path(path)
    if line < 2:
        raise LoadError(f"{p.name} is damaged at its header: there is no fight to go on from")
    made = continuation_of(p)
    if made is not None:
        return open_fight(made)
    lines = FileLines(p)
    try:
        header, _raw, old = read_header(lines[0])
        head_line = lines[0]
        kept = [lines[i] for i in range(1, min(line - 1, len(lines)))]
    finally:
        lines.close()
    target = _sibling(p, "continued")
    scratch = p.with_name(f".{target.name}.reading")
    with contextlib.suppress(OSError):  # one a kill or a power cut left in the last try: ours, never the GM's
        scratch.unlink()
    body = b"".join(x + b"\n" for x in kept if not x.startswith(b'{"checkpoint"'))  # a checkpoint's offsets move
    if old:  # its lines as they were, read (and upgraded) as any file of that format; then written in this one
        _write_new(scratch, head_line + b"\n" + body)  # (it said "replay it", and replay refused it too)
    else:
        _create(scratch, header, codec_for(load_system(header.system)), body).close()
    try:
        loaded = load(scratch)  # an action cut short by the damage is left out here
    finally:
        with contextlib.suppress(OSError):
            scratch.unlink()
    system = loaded.system
    codec = codec_for(system)
    new_header = attrs.evolve(
        loaded.header,
        parent=str(p.absolute()),
        created=datetime.now(UTC).isoformat(timespec="seconds"),
        format=FORMAT_VERSION,
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


def rescue_refused(fight: SavedFight) -> str:
    """Why :func:`rescue` cannot save ``fight`` whole ("" when it can): a fight opened from a checkpoint keeps
    only the actions since; what came before is read from the file it holds, and a file cut short by another
    program no longer has it."""
    if fight.older is None or fight._older_entries is not None:  # whole in memory: it can always be written
        return ""
    fd = fight.writer.fd
    if fd is None or os.fstat(fd).st_size < fight.writer.size:
        return (
            f"{fight.path.name} was cut short by another program: the start of the fight is gone from it, and this "
            "app opened it from its last checkpoint, so it holds only what came after"
        )
    try:
        _rescued_body(fight)
    except SaveError as e:
        return str(e)
    return ""


_SEQ = re.compile(rb'\{"seq":([0-9]{1,18}),')  # how an event line begins (saves.format writes it)


def _rescued_body(fight: SavedFight) -> bytes:
    """The events of a fight opened from a checkpoint, for its rescue: the older ones (never read into this app)
    as the file it holds has them, each line checked; the ones this app holds, as it holds them.

    Ruling: a line another program changed in place is not copied into the rescue.  Copied byte for byte, the
    rescue of a same-size change (an editor fixing a name) was itself damaged at that line, and opening it
    failed.  A changed line among the actions this app holds is written again from them; one among the older
    lines, which this app never read, cannot be put back from the file: the rescue is refused, saying which line,
    and the file is left for the GM to undo the change (every action confirmed here is in it), unless the check of
    the checkpoint kept those events in memory (see :class:`SavedFight`): :func:`rescue` then writes them from
    there.
    Test: tests/reliability/test_record_round3.py::test_a_rescue_leaves_out_a_line_changed_in_place.
    """
    own = fight.writer.own_bytes()
    _head, _, events = own.partition(b"\n")
    lines = events.split(b"\n")
    if lines and not lines[-1]:
        lines.pop()
    older = fight.log.base_entries
    kept: list[bytes] = []
    changed = False
    name = fight.path.name
    for number, line in enumerate(lines, start=2):
        if line.startswith(b'{"checkpoint"'):  # a cache, left out (its offsets are the old header's)
            continue
        try:  # its checksum and its seq (not parsed: a long fight's rescue reads it all, on the UI's thread)
            m = _SEQ.match(line)
            good = unseal(line) is not None and m is not None and int(m.group(1)) == len(kept) + 1
        except Damaged:
            good = False
        if not good:
            if len(kept) < older:
                raise SaveError(
                    f"{name} was changed in place by another program at line {number}, in the part of the fight "
                    "this app read only from its last checkpoint: that line as the fight wrote it is gone, so the "
                    f"fight cannot be saved whole from here (every action confirmed here is in {name}: undo the "
                    "change there)"
                )
            changed = True
            break
        kept.append(line)
    if len(kept) < older:
        raise SaveError(f"{name} lost lines of the fight's older part: it cannot be saved whole from here")
    if not changed and len(kept) == len(fight.log):
        return b"".join(line + b"\n" for line in kept)  # as it wrote them, byte for byte
    codec = codec_for(fight.system)
    return b"".join(line + b"\n" for line in kept[:older]) + _lines(codec, fight.log.loaded)


def rescue(fight: SavedFight, to: str | Path | None = None, *, elsewhere: Sequence[Path] = ()) -> SavedFight:
    """Save ``fight`` as this app has it to a new file and go on there (its file was deleted, moved, replaced or
    changed by another program, see :class:`FileLost`, or it takes no more writes, see :class:`WriteFailed`): to
    ``to`` if given (a path the GM typed, see :func:`_typed_target`: a file, ``.jsonl`` added if it lacks it; or a
    folder, ``<name>-rescued.jsonl`` in it), else ``<name>-rescued.jsonl`` beside the lost file, else the same name
    in each of the folders ``elsewhere``, the first that takes it.

    A whole log is written anew, naming the lost file as its parent; a log opened from a checkpoint, whose older
    part was never read, is copied from the file the writer still holds (what it wrote, byte for byte), which
    no other program could take from it, or, when that file no longer has it (emptied, cut short, changed in
    place), written from the events the check of the checkpoint kept (see :class:`SavedFight`).

    Ruling: a place that cannot take the file (a folder made read-only, a full disk) is not the end: the next is
    tried, and SaveError names each place and why, so the app can offer one the GM types.  Only the sibling was
    tried, and then nothing was offered (tests/reliability/test_rescue_round4.py::
    test_a_rescue_that_cannot_be_written_beside_goes_to_the_fights_folder).

    Ruling: a fight is rescued once.  A fight saved on already (``rescued_to``) is refused, naming where it goes on:
    two dialogs open at once (two quick keys on a lost file) each made a copy, the fight forked into ``-rescued``
    and ``-rescued2``, and the lost file pointed at the stale one.  Test:
    tests/reliability/test_rescue_round6.py::test_a_fight_is_rescued_once.

    Ruling: a rescue :func:`saves.listing.rescued_in` would not find by its name (a path the GM typed) leaves a note
    beside the lost file and in the fights folder (:func:`saves.listing.leave_note`).  If neither can be written
    (the disk the GM is fleeing is full), the copy's :attr:`SavedFight.unnoted` says so, for the app to say where
    the fight is; closing the copy tries the note again.  Test: tests/reliability/test_rescue_round6.py::
    test_a_rescue_to_a_typed_path_is_found_from_the_lost_file."""
    if fight.rescued_to is not None:
        raise SaveError(
            f"the fight was saved on in {fight.rescued_to} already: it goes on there, not in one more new file"
        )
    made = _rescue_content(fight)
    failures: list[str] = []
    places: list[str | Path | None] = [to] if to is not None else [None, *elsewhere]
    for place in places:
        try:
            if place is None:
                target = _sibling(fight.path, "rescued")
            elif to is not None:
                target = _typed_target(place, fight.path)
            else:
                place = Path(place)
                if place.absolute() == fight.path.parent.absolute():
                    continue  # (tried already: the sibling)
                make_private_dir(place)
                target = _sibling(place / fight.path.name, "rescued")
            copy = made(target)
        except SaveError as e:
            failures.append(str(e))
            continue
        except OSError as e:
            failures.append(f"cannot save in {place}: {e.strerror or e}")
            continue
        fight.rescued_to = target
        if not found_without_note(fight.path, target) and not leave_note(fight.path, target):
            copy.unnoted = fight.path
        return copy
    raise SaveError(NOWHERE + "; ".join(failures))


NOWHERE = "no new file could be made for the fight: "  # how rescue's error begins when no place took the file


def _typed_target(typed: str | Path, lost: Path) -> Path:
    """The file a path the GM typed names: in a folder, ``<name>-rescued.jsonl`` there; else the file itself,
    ending ``.jsonl`` (the start screen lists only those).

    Ruling: a typed path ending in the separator ("/", or the system's other one), or "~" alone, names a folder,
    made if it does not exist yet (private to the user, with any missing parents), and the fight is saved in it as
    ``<name>-rescued.jsonl``.  ``Path`` drops a trailing "/": "usb/new/" for a folder not made yet was saved as a
    file "new.jsonl" beside it, not where the GM asked.  Test:
    tests/reliability/test_rescue_round5.py::test_a_typed_path_ending_in_a_separator_is_a_folder_made_for_it."""
    raw = str(typed)
    seps = tuple(s for s in (os.sep, os.altsep) if s)
    to = Path(raw).expanduser()
    if raw.endswith(seps) or raw == "~":
        if not to.is_dir():
            if to.exists() or to.is_symlink():
                raise SaveError(f"{to} is not a folder")
            make_private_dir(to)
        return _sibling(to / lost.name, "rescued")
    if to.is_dir():
        return _sibling(to / lost.name, "rescued")
    return to if to.name.endswith(SUFFIX) else to.with_name(to.name + SUFFIX)


def _rescue_content(fight: SavedFight) -> Callable[[Path], SavedFight]:
    """What :func:`rescue` writes, made once (SaveError when the fight cannot be saved whole, wherever): a function
    that writes it to a path and returns the fight going on there."""
    codec = codec_for(fight.system)
    if fight.older is None:
        header = attrs.evolve(
            fight.header,
            parent=str(fight.path.absolute()),
            created=datetime.now(UTC).isoformat(timespec="seconds"),
            format=FORMAT_VERSION,
        )
        body = _lines(codec, fight.entries)

        def whole(target: Path) -> SavedFight:
            writer = _create(target, header, codec, body)
            return SavedFight(fight.system, writer, header, roller=fight.roller, log=fight.log)

        return whole
    # its header names the lost file as its parent (opened again, the lost file says where the fight goes on: the
    # copy kept its header byte for byte, and the stale file went on as if nothing had happened, a fork); the
    # checkpoints are left out, their offsets being the old header's (the next one is written at closing)
    header = attrs.evolve(
        fight.header, parent=str(fight.path.absolute()), created=datetime.now(UTC).isoformat(timespec="seconds")
    )
    try:
        body = _rescued_body(fight)
    except SaveError:
        older = fight._older_entries
        if older is None:
            raise
        header = attrs.evolve(header, format=FORMAT_VERSION)
        body = _lines(codec, [*older, *fight.log.loaded])  # from memory: the file no longer has it whole

    def copied(target: Path) -> SavedFight:
        _write_new(target, (header_line(header) + "\n").encode("utf-8") + body)
        return open_fight(target, roller=fight.roller)

    return copied


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
    # (each event was read back when it was first written, or came from a file: not again)
    return "".join(codec.encode(e, sizes[e.action], read_back=False) + "\n" for e in entries).encode("utf-8")
