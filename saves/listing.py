"""The list of saved fights the start screen shows, read cheaply and never failing on a bad file."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import stat
from collections.abc import Sequence
from pathlib import Path

import attrs

from saves.checkpoint import BACK_READ
from saves.files import SUFFIX, default_dir, file_kind, make_private_dir, read_head, read_small
from saves.format import Header, LoadError
from saves.loading import from_checkpoint, load, read_header
from tracker.model import FightState


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


NOT_A_FIGHT = "not a fight file"  # a SaveInfo's problem when the name is no regular file: no damage


def _info(p: Path, st: os.stat_result, mtime: float) -> SaveInfo:
    if not stat.S_ISREG(st.st_mode):  # (a link to a good fight was listed as damaged)
        kind = "a link (the app opens a fight file, not a link to one)" if stat.S_ISLNK(st.st_mode) else ""
        return SaveInfo(p, None, mtime, f"{NOT_A_FIGHT}: {kind or file_kind(st.st_mode)}")
    try:
        head = read_head(p)
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


def peek_tail(path: Path, header: Header) -> tuple[str, int | None, str, int | None]:
    """The fight's name, round, phase and combatants, read cheaply: the last checkpoint and the tail after it.

    A file without a checkpoint is folded whole only if it is small; otherwise
    what is known is left empty.
    """
    state: FightState | None = None
    with contextlib.suppress(Exception):
        fast = from_checkpoint(path)
        if fast is not None:
            state = fast[2].state
        elif path.stat().st_size <= BACK_READ:
            loaded = load(path)
            if loaded.log is not None:
                state = loaded.log.state
    if state is None:
        return "", None, "", None
    return state.title, state.round, _phase_of(state.started, state.ended, state.round), len(state.present)


def _phase_of(started: bool, ended: bool, rnd: int | None) -> str:
    if ended:
        return "over"
    if not started:
        return "setup"
    return f"round {rnd}" if rnd is not None else ""


def _names(parent: Path, path: Path) -> bool:
    """Whether a continuation's ``parent`` names ``path``: an absolute one by where it is; a relative one (files
    written before parents were made absolute held the path as typed, resolved then against another folder: the
    fight was continued twice) by its name, a continuation being made beside its parent."""
    if parent.is_absolute():
        return parent.resolve() == path.resolve()
    return parent.name == path.name


def rescued_in(path: Path, folders: Sequence[Path] | None = None) -> Path | None:
    """The file the fight at ``path`` goes on in since this one was lost under the app or could not be written
    (``saves.rescue`` made it, naming this file its parent), or None: opened again, the lost file went on as if
    nothing had happened, and the record forked.

    Ruling: every place a rescue can go is searched: ``<name>-rescued*.jsonl`` beside the file and in the fights
    folders ``folders`` (default: :func:`default_dir`, where the app saves one that cannot be written beside it),
    and the notes a rescue to a path the GM typed leaves (:func:`leave_note`, beside the file and in the fights
    folder).  Only beside it was looked at: a rescue in the fights folder was never found again, and the old file,
    once its disk had room, was opened and written to as if nothing had happened.  Of several rescues of one file
    (two dialogs, or the file lost twice), the newest is the one the fight goes on in (its header's ``created``,
    then its time written): the shortest name, the oldest, was taken.  A rescue that was itself rescued is
    followed to the last.  Tests: tests/reliability/test_rescue_round6.py."""
    p = Path(path)
    seen = {_key(p)}
    found = _went_on(p, "rescued", _searched(folders))
    if found is None or _key(found) in seen:
        return None
    chain = [p, found]
    while len(seen) < _CHAIN:
        seen.add(_key(found))
        further = _went_on(found, "rescued", _searched(folders))
        if further is not None and _key(further) in seen:
            # a loop: rescued back into a file of the chain (the GM typed its name): the one written last is live
            live = max(chain, key=_written)
            return None if _key(live) == _key(p) else live
        if further is None:
            break
        found = further
        chain.append(found)
    return found


def _written(p: Path) -> int:
    try:
        return p.stat().st_mtime_ns
    except OSError:
        return -1


_CHAIN = 64  # rescues of rescues followed at most (a loop of notes is never followed for ever)


def continuation_of(path: Path) -> Path | None:
    """The file a damaged fight already goes on in (``continue_before`` made it: ``<name>-continued*.jsonl``
    beside it, its header naming this file its parent), or None.  Recovery happens once: opening the damaged
    file again made another continuation from the same action each time, and the record forked."""
    return _went_on(Path(path), "continued")


def _searched(folders: Sequence[Path] | None) -> tuple[Path, ...]:
    if folders is not None:
        return tuple(folders)
    with contextlib.suppress(Exception):  # (no data folder to be had: beside the file only)
        return (default_dir(),)
    return ()


def _key(p: Path) -> Path:
    try:
        return p.resolve()
    except (OSError, RuntimeError):
        return p.absolute()


def _went_on(p: Path, word: str, folders: Sequence[Path] = ()) -> Path | None:
    """The newest file named ``<stem>-<word>*.jsonl`` beside ``p`` (or, with an absolute parent, in ``folders``), or
    named by a note of ``p`` (rescues only), whose header names ``p`` its parent."""
    here = _key(p.parent)
    places = [p.parent, *(f for f in folders if _key(f) != here)]
    candidates: dict[Path, tuple[Path, bool]] = {}  # where it is -> (the file, whether it is beside ``p``)
    prefix = f"{p.stem}-{word}"
    for n, folder in enumerate(places):
        with contextlib.suppress(OSError), os.scandir(folder) as entries:  # (a glob's pattern costs 8x in a big folder)
            for entry in entries:
                if entry.name.startswith(prefix) and entry.name.endswith(SUFFIX):
                    other = folder / entry.name
                    candidates.setdefault(_key(other), (other, n == 0))
    if word == "rescued":
        for other in _noted(p, places):
            candidates.setdefault(_key(other), (other, False))
    found: list[tuple[str, int, Path]] = []
    for other, beside in candidates.values():
        with contextlib.suppress(OSError, LoadError):
            header, _raw, _old = read_header(read_head(other))
            if header.parent is None:
                continue
            parent = Path(header.parent)
            # (a relative parent, from files written before parents were made absolute, names only a file beside)
            if (parent.is_absolute() or beside) and _names(parent, p):
                found.append((header.created, other.stat().st_mtime_ns, other))
    if not found:
        return None
    return max(found, key=lambda t: (t[0], t[1], -len(t[2].name), t[2].name))[2]


# -- notes: where a rescue to a typed path went ------------------------------------------------------------------

NOTE = "-rescued-where.txt"  # ``<stem>-rescued-where.txt``: one line per rescue, {"lost": ..., "saved_in": ...}
_NOTE_MAX = 256 * 1024  # a note read at most this far (it holds a line per rescue)


def note_path(folder: Path, lost: Path) -> Path:
    """The note in ``folder`` that says where the fight of ``lost`` was saved on."""
    return folder / f"{lost.stem}{NOTE}"


def found_without_note(lost: Path, target: Path, folders: Sequence[Path] | None = None) -> bool:
    """Whether :func:`rescued_in` finds a rescue at ``target`` by its name alone (``<stem>-rescued*.jsonl`` beside
    ``lost`` or in a fights folder)."""
    if not (target.name.startswith(f"{lost.stem}-rescued") and target.name.endswith(SUFFIX)):
        return False
    where = _key(target.parent)
    return any(_key(f) == where for f in (lost.parent, *_searched(folders)))


def _append(path: Path, data: bytes) -> None:
    """Add ``data`` to the end of ``path`` (made private to the user if new), synced; raises OSError."""
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW | os.O_NONBLOCK  # (a FIFO: no wait)
    fd = os.open(path, flags, 0o600)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
        if os.write(fd, data) != len(data):
            raise OSError(errno.ENOSPC, "the note was cut short")
        os.fsync(fd)
    finally:
        os.close(fd)


def leave_note(lost: Path, target: Path, folders: Sequence[Path] | None = None) -> list[Path]:
    """Say where the fight of ``lost`` was saved on (``target``, a path the GM typed) in a note beside ``lost`` and
    in each fights folder (default: :func:`default_dir`), for :func:`rescued_in`; the notes written (none: the fight
    cannot be found from ``lost``, which the caller says).  Never raises."""
    line = (json.dumps({"lost": str(lost.absolute()), "saved_in": str(target.absolute())}) + "\n").encode("utf-8")
    written: list[Path] = []
    here = _key(lost.parent)
    for folder in (lost.parent, *(f for f in _searched(folders) if _key(f) != here)):
        note = note_path(folder, lost)
        try:
            if folder != lost.parent:
                make_private_dir(folder)
            _append(note, line)
        except Exception:  # a folder read-only, a full disk: the next place, and the caller says it
            continue
        written.append(note)
    return written


def _noted(p: Path, folders: Sequence[Path]) -> list[Path]:
    """The files the notes in ``folders`` name as where the fight of ``p`` was saved on."""
    out: list[Path] = []
    for folder in folders:
        note = note_path(folder, p)
        try:
            data = read_small(note, _NOTE_MAX)  # (never blocks: a FIFO named like a note hung check and the app)
        except OSError:
            continue
        for raw in data.splitlines():
            with contextlib.suppress(ValueError, TypeError, AttributeError, OSError, RuntimeError):
                entry = json.loads(raw)
                lost, saved_in = entry.get("lost"), entry.get("saved_in")
                if not (isinstance(lost, str) and isinstance(saved_in, str)):
                    continue
                if Path(lost).is_absolute() and Path(saved_in).is_absolute() and _names(Path(lost), p):
                    out.append(Path(saved_in))
    return out
