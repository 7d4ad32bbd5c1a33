"""Writing, loading, recovering and continuing fight logs."""

from __future__ import annotations

import gc
import json
import os
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import attrs
import platformdirs

from saves.format import (
    FORMAT_VERSION,
    Codec,
    Header,
    LoadError,
    SaveError,
    codec_for,
    header_from,
    header_to_json,
    upgrade,
)
from tracker import registry
from tracker.dice import Roller, SeededRoller
from tracker.engine import Entry, Fight, LogError
from tracker.errors import Refused, TrackerError
from tracker.plugin import System

APP_NAME = "gm-combat-tracker"
SUFFIX = ".jsonl"


def default_dir() -> Path:
    """Where fights are saved by default: ``fights/`` in $TRACKER_DATA_DIR or the user data dir (platformdirs)."""
    env = os.environ.get("TRACKER_DATA_DIR")
    base = Path(env) if env else Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))
    return base / "fights"


class SaveWriter:
    """Appends each action's lines, flushes and fsyncs before returning."""

    def __init__(self, path: Path, codec: Codec) -> None:
        self.path = path
        self.codec = codec
        try:
            self._file = open(path, "a", encoding="utf-8", newline="\n")  # noqa: SIM115
        except OSError as e:
            raise SaveError(f"cannot write the fight to {path}: {e.strerror or e}") from None

    def __call__(self, entries: Sequence[Entry]) -> None:
        text = "".join(self.codec.encode(e, len(entries)) + "\n" for e in entries)
        try:
            self._file.write(text)
            self._file.flush()
            os.fsync(self._file.fileno())
        except OSError as e:
            raise SaveError(f"could not save to {self.path}: {e.strerror or e}; the action was not taken") from None

    def close(self) -> None:
        self._file.close()


class SavedFight(Fight):
    """A fight bound to its file."""

    path: Path
    header: Header
    warnings: tuple[str, ...] = ()

    def close(self) -> None:
        if isinstance(self.sink, SaveWriter):
            self.sink.close()


@attrs.frozen
class Loaded:
    """A fight log read from disk and checked by replaying it."""

    path: Path
    header: Header
    system: System
    entries: tuple[Entry, ...]
    lines: tuple[int, ...]  # the file line of each entry
    warnings: tuple[str, ...] = ()
    torn: bool = False
    replayed: Fight | None = attrs.field(default=None, eq=False, repr=False)

    def fight(self, roller: Roller | None = None) -> Fight:
        """The fight replayed from the log (replayed once, while loading)."""
        if self.replayed is not None and not isinstance(self.replayed, SavedFight):
            f = self.replayed
            object.__setattr__(self, "replayed", None)
            if roller is not None:
                f.roller = roller
            return f
        f = Fight(self.system, roller=roller)
        f.load(self.entries)
        return f


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


def _create(path: Path, header: Header) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "x", encoding="utf-8", newline="\n") as f:
            f.write(header_to_json(header) + "\n")
            f.flush()
            os.fsync(f.fileno())
    except FileExistsError:
        raise SaveError(f"{path} already exists; a fight file is never overwritten") from None
    except OSError as e:
        raise SaveError(f"cannot create {path}: {e.strerror or e}") from None


def _bind(fight: Fight, path: Path, header: Header, codec: Codec, warnings: Sequence[str] = ()) -> SavedFight:
    fight.__class__ = SavedFight
    saved: SavedFight = fight  # type: ignore[assignment]
    saved.path = path
    saved.header = header
    saved.warnings = tuple(warnings)
    saved.sink = SaveWriter(path, codec)
    return saved


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
    _create(target, header)
    codec = codec_for(sys_)
    fight = Fight(sys_, roller=roller if roller is not None else seeded)
    return _bind(fight, target, header, codec)


def load(path: str | Path) -> Loaded:
    """Read and check a fight log by replaying it.

    A torn last line (or a last action cut short) is dropped with a warning;
    any other damage raises LoadError naming the line.  The file is not changed.
    """
    # Loading makes many small objects and no reference cycles: the cyclic
    # garbage collector would only scan the growing heap again and again.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _load(Path(path))
    finally:
        if was_enabled:
            gc.enable()


def _load(p: Path) -> Loaded:
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        raise LoadError(f"there is no fight file at {p}") from None
    except OSError as e:
        raise LoadError(f"cannot read {p}: {e.strerror or e}") from None
    if not data.strip():
        raise LoadError(f"{p} is empty: not a fight file")
    raw_lines = data.split(b"\n")
    del data
    torn_tail = raw_lines[-1] != b""
    if not torn_tail:
        raw_lines.pop()
    last = len(raw_lines)
    try:
        head_raw = json.loads(raw_lines[0])
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise LoadError(f"{p.name} is not a fight file (its header is not JSON)", 1) from None
    if not isinstance(head_raw, dict):
        raise LoadError("the header is not a JSON object", 1)
    warnings: list[str] = []
    torn = False
    records: list[dict] | None = None
    if head_raw.get("format") != FORMAT_VERSION:
        records, torn = _parse_records(raw_lines, warnings)
        head_raw, records = upgrade(head_raw, records)
    header = header_from(head_raw)
    try:
        system = registry.load(header.system)
    except TrackerError as e:
        raise LoadError(f"this fight is played with '{header.system}': {e}") from None
    codec = codec_for(system)
    if records is not None:
        entries = [codec.decode(r, n) for n, r in enumerate(records, start=2)]
        group_of = records[_group_start(entries)].get("of", 0) if entries else 0
    else:
        entries, group_of, torn = _decode_lines(codec, raw_lines, warnings)
    del raw_lines
    if torn_tail and not torn:
        warnings.append(f"line {last} had no line end (the last write did not finish); it was kept")
    # an action cut short by a crash: all its lines carry "of", fewer are present
    if entries:
        first = _group_start(entries)
        have = len(entries) - first
        if have < group_of:
            last_action = entries[-1].action
            if not torn:
                raise LoadError(f"action {last_action} has {have} of its {group_of} events", len(entries) + 1)
            warnings.append(f"action {last_action} was cut short by the crash and was dropped")
            del entries[first:]
    fight = Fight(system)
    try:
        fight.load(entries)
    except LogError as e:
        line = next((i + 2 for i, en in enumerate(entries) if en.seq == e.seq), None)
        raise LoadError(f"the log does not replay: {e}", line) from None
    lines = tuple(range(2, len(entries) + 2))  # each entry's line in the file
    return Loaded(p, header, system, tuple(entries), lines, tuple(warnings), torn, fight)


def _group_start(entries: list[Entry]) -> int:
    """Index of the first entry of the last action."""
    last_action = entries[-1].action
    first = len(entries) - 1
    while first > 0 and entries[first - 1].action == last_action:
        first -= 1
    return first


def _torn(number: int, last: int, e: Exception, warnings: list[str]) -> bool:
    """A bad line: the last one is torn (dropped with a warning); any other is damage."""
    if number == last:
        warnings.append(f"line {number} was cut off (the last write did not finish) and was dropped")
        return True
    raise LoadError(f"not valid JSON ({_short(e)})", number) from None


def _parse_records(raw_lines: list[bytes], warnings: list[str]) -> tuple[list[dict], bool]:
    """Every event line as a JSON object (for an older format that must be upgraded first)."""
    records: list[dict] = []
    last = len(raw_lines)
    for number in range(2, last + 1):
        try:
            record = json.loads(raw_lines[number - 1])
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            _torn(number, last, e, warnings)
            return records, True
        if type(record) is not dict:
            raise LoadError("not an event record", number)
        records.append(record)
    return records, False


def _decode_lines(codec: Codec, raw_lines: list[bytes], warnings: list[str]) -> tuple[list[Entry], int, bool]:
    """Parse and decode the event lines in one pass (the hot path of loading).

    The common case is inlined; anything unusual goes through ``codec.decode``,
    which raises the LoadError that names the line.  Returns the entries, the
    "of" count of the last action's first line, and whether the tail was torn.
    """
    loads = json.loads
    structure, types, versions = codec._structure, codec.types, codec.versions
    decode = codec.decode
    entries: list[Entry] = []
    append = entries.append
    last = len(raw_lines)
    group_action = None
    group_of = 0
    for number in range(2, last + 1):
        try:
            record = loads(raw_lines[number - 1])
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            _torn(number, last, e, warnings)
            return entries, group_of, True
        try:
            tag = record["type"]
            if record["v"] != versions[tag]:
                raise LookupError
            seq, action = record["seq"], record["action"]
            if type(seq) is not int or type(action) is not int:
                raise LookupError
            entry = Entry(seq, action, structure[tag](record["event"], types[tag]))
        except Exception:
            entry = decode(record, number)  # the careful path: upcasts, or says what is wrong
        if entry.action != group_action:
            group_action = entry.action
            group_of = record.get("of", 0) if type(record) is dict else 0
        append(entry)
    return entries, group_of, False


def _short(e: Exception) -> str:
    if isinstance(e, json.JSONDecodeError):
        return f"{e.msg} at column {e.colno}"
    return str(e)


def open_fight(path: str | Path, *, roller: Roller | None = None) -> SavedFight:
    """Load a fight and continue it in the same file.

    A file with a torn tail is never rewritten: its good part is copied to a
    new ``…-recovered.jsonl`` file, and the fight continues there.
    """
    loaded = load(path)
    fight = loaded.fight(roller or SeededRoller(((loaded.header.seed or 0) * 1_000_003 + len(loaded.entries)) % 2**31))
    codec = codec_for(loaded.system)
    warnings = list(loaded.warnings)
    target = loaded.path
    header = loaded.header
    if loaded.torn:
        target = _sibling(loaded.path, "recovered")
        header = attrs.evolve(header, parent=str(loaded.path))
        _write_copy(target, header, codec, loaded.entries)
        warnings.append(f"the fight goes on in {target.name}; the damaged file was left as it was")
    return _bind(fight, target, header, codec, warnings)


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
        loaded.header, parent=str(loaded.path), created=datetime.now(UTC).isoformat(timespec="seconds")
    )
    _write_copy(target, header, codec, kept)
    fight = Fight(loaded.system, roller=SeededRoller(((header.seed or 0) * 1_000_003 + upto) % 2**31))
    fight.load(kept)
    return _bind(fight, target, header, codec)


def _sibling(path: Path, word: str) -> Path:
    n = 1
    while True:
        candidate = path.with_name(f"{path.stem}-{word}{'' if n == 1 else n}{SUFFIX}")
        if not candidate.exists():
            return candidate
        n += 1


def _write_copy(target: Path, header: Header, codec: Codec, entries: Sequence[Entry]) -> None:
    _create(target, header)
    sizes: dict[int, int] = {}
    for e in entries:
        sizes[e.action] = sizes.get(e.action, 0) + 1
    with open(target, "a", encoding="utf-8", newline="\n") as f:
        f.write("".join(codec.encode(e, sizes[e.action]) + "\n" for e in entries))
        f.flush()
        os.fsync(f.fileno())


@attrs.frozen
class SaveInfo:
    path: Path
    header: Header | None
    modified: float
    problem: str = ""


def recent(directory: Path | None = None, limit: int = 30) -> list[SaveInfo]:
    """Saved fights in a folder, newest first, reading only their headers."""
    folder = directory or default_dir()
    if not folder.is_dir():
        return []
    out: list[SaveInfo] = []
    for p in folder.glob(f"*{SUFFIX}"):
        try:
            with open(p, encoding="utf-8") as f:
                first = f.readline()
            header = header_from(json.loads(first))
            out.append(SaveInfo(p, header, p.stat().st_mtime))
        except (OSError, ValueError, LoadError, TypeError) as e:
            out.append(SaveInfo(p, None, p.stat().st_mtime if p.exists() else 0.0, f"unreadable: {e}"))
    out.sort(key=lambda s: s.modified, reverse=True)
    return out[:limit]
