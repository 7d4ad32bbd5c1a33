"""Where fights are kept, and how their files are opened: regular files only, read with a bound, private to the user.

A fight file is only ever a regular file: a FIFO, a device, a folder or a
symbolic link is refused in the GM's words before anything is read or written.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from pathlib import Path

import platformdirs

from saves.format import MAX_FILE, LoadError, SaveError

APP_NAME = "gm-combat-tracker"
SUFFIX = ".jsonl"
FILE_MODE = 0o600
DIR_MODE = 0o700


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


# -- writing a new file whole -------------------------------------------------------------------------

_write = os.write  # the tests inject write failures (disk full) here
PART = ".part"  # a file being written: ".NAME.PID.part" beside it, never matched by a fight's or a preset's name
_LINK_REFUSED = {errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EXDEV, errno.EMLINK, errno.ENOSYS}


def write_whole(path: Path, data: bytes, *, replace: bool = False) -> None:
    """Put ``data`` at ``path`` whole or not at all: written under a hidden name beside it (``.NAME.PID.part``),
    synced, then given its name (linked, so never over a file: FileExistsError; with ``replace``, renamed over
    the old one), and the folder synced.

    A crash or a power cut while it is written leaves what was there before, and at most the hidden part, which
    the next write of that name removes (its process gone).  Written in place, a continuation cut after its first
    line was taken for the whole one: the damaged fight pointed to it, and it opened empty.  Raises OSError.
    """
    make_private_dir(path.parent)
    _clear_parts(path)
    part = path.with_name(f".{path.name}.{os.getpid()}{PART}")
    with contextlib.suppress(FileNotFoundError):
        part.unlink()
    fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, FILE_MODE)
    try:
        try:
            done = 0
            while done < len(data):
                done += _write(fd, data[done:])
            os.fsync(fd)
        finally:
            os.close(fd)
        if replace:
            os.replace(part, path)
        else:
            _link(part, path)
    finally:
        with contextlib.suppress(OSError):
            part.unlink()
    sync_folder(path.parent)


def _link(part: Path, path: Path) -> None:
    """Give ``part`` the name ``path`` unless a file has it.  Where the file system has no links, the name is
    claimed first (an empty file, O_EXCL), then the part renamed over it."""
    try:
        os.link(part, path, follow_symlinks=False)
    except OSError as e:
        if isinstance(e, FileExistsError) or e.errno not in _LINK_REFUSED:
            raise
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, FILE_MODE))
        os.replace(part, path)


def _clear_parts(path: Path) -> None:
    """Remove the hidden parts of ``path`` left by writers that are gone (a crash while it was written)."""
    for part in path.parent.glob(f".{glob_escape(path.name)}.*{PART}"):
        pid = part.name[len(path.name) + 2 : -len(PART)]
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            with contextlib.suppress(OSError):
                part.unlink()
        except OSError:
            pass  # another user's process: alive


def glob_escape(name: str) -> str:
    """``name`` matched literally by ``Path.glob`` (its ``*``, ``?`` and ``[`` escaped)."""
    return "".join(f"[{ch}]" if ch in "*?[" else ch for ch in name)


def sync_folder(folder: Path) -> None:
    """Make the names in ``folder`` durable (a new or renamed file); where that cannot be done, nothing."""
    with contextlib.suppress(OSError):
        dfd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)


# -- reading: regular files only, bounded ----------------------------------------------------------


def file_kind(mode: int) -> str:
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
        raise LoadError(
            f"{path.name} is {file_kind(st.st_mode)}, not a fight file: give the path of a fight file (.jsonl)"
        )
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
        f"{path} is {file_kind(st.st_mode)}, not a fight file: give the path of a fight file (.jsonl) or of a folder "
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


def read_small(path: Path, limit: int) -> bytes:
    """At most ``limit`` bytes from the start of a small file of the GM's (a party, the presets, the conditions
    typed); OSError when it is no regular file. Never blocks: a FIFO named like one froze the whole app, and a link
    to /dev/zero ran it out of memory."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise IsADirectoryError(f"{path.name} is not a regular file")
        chunks: list[bytes] = []
        total = 0
        while total < limit:
            chunk = os.read(fd, limit - total)
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


# -- the first line alone (the header) -------------------------------------------------------------


HEAD_READ = 1 << 16


def read_head(p: Path) -> bytes:
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
