"""The list of saved fights the start screen shows, read cheaply and never failing on a bad file."""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

import attrs

from saves.checkpoint import BACK_READ
from saves.files import SUFFIX, default_dir, file_kind, glob_escape, read_head
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


def rescued_in(path: Path) -> Path | None:
    """The file the fight at ``path`` was saved on in when this one was lost under the app (``saves.rescue`` made
    it: ``<name>-rescued*.jsonl`` beside it, naming it its parent), or None: opened again, the lost file went on
    as if nothing had happened, and the record forked."""
    return _went_on(Path(path), "rescued")


def continuation_of(path: Path) -> Path | None:
    """The file a damaged fight already goes on in (``continue_before`` made it: ``<name>-continued*.jsonl``
    beside it, its header naming this file its parent), or None.  Recovery happens once: opening the damaged
    file again made another continuation from the same action each time, and the record forked."""
    return _went_on(Path(path), "continued")


def _went_on(p: Path, word: str) -> Path | None:
    found = []
    for sibling in p.parent.glob(f"{glob_escape(p.stem)}-{word}*{SUFFIX}"):
        with contextlib.suppress(OSError, LoadError):
            header, _raw, _old = read_header(read_head(sibling))
            if header.parent is not None and _names(Path(header.parent), p):
                found.append(sibling)
    return min(found, key=lambda s: (len(s.name), s.name)) if found else None
