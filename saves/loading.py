"""Loading a fight file: every line checked, decoded and folded, or a LoadError naming the line.

Readers (load, check, export, replay, the players' view) never take the
file's lock and never write.  The file is streamed (:class:`FileLines`), so
refusing a bad file costs a small multiple of one line's cap whatever its
size.  :func:`from_checkpoint` reads only the last checkpoint and the tail
after it (what opening a fight to continue it and the start screen's list
need); :func:`check_against_events` folds the whole file to check such a
checkpoint.
"""

from __future__ import annotations

import gc
import os
import re
from array import array
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

import attrs

from saves import checkpoint
from saves.files import open_regular, read_bytes, read_head
from saves.format import (
    FORMAT_VERSION,
    MAX_FILE,
    MAX_LINE,
    Codec,
    Damaged,
    Header,
    LoadError,
    NewerVersion,
    codec_for,
    header_from,
    parse,
    read_line,
    unseal,
    upgrade,
)
from tracker import registry
from tracker.dice import Roller
from tracker.errors import TrackerError
from tracker.events import Event
from tracker.fight import Fight
from tracker.log import ActionLog, Entry, LogError
from tracker.model import FightState
from tracker.plugin import System
from tracker.replay import Timeline

# -- the file's lines, streamed --------------------------------------------------------------------


class Lines(Protocol):
    """What the loader reads lines from: a list of them, or a file's, streamed (:class:`FileLines`)."""

    def __len__(self) -> int: ...
    def __getitem__(self, index: int, /) -> bytes: ...
    def __setitem__(self, index: int, value: bytes, /) -> None: ...


CHUNK = 1 << 18  # bytes read at a time by the loader: with the line being read, what reading costs in memory
CHECKPOINT_LINE = b'{"checkpoint":'  # how a checkpoint line begins (saves.checkpoint writes it)


def only_a_checkpoint(line: bytes) -> bool:
    """Whether a damaged line is a checkpoint alone, a cache the events do not need: it begins as one and holds no
    second line's checksum. A lost line end joins the GM's next action to it; taken for a damaged checkpoint, that
    action vanished with no word ("the events before and after it stand", and check said good)."""
    return line.startswith(CHECKPOINT_LINE) and line.count(b',"crc":"') <= 1


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
        self._long = False  # the carry is a line over the cap, cut there: its rest is skipped to its line end

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
            if self._long:  # the rest of a line over the cap: skipped to its line end
                end = chunk.find(b"\n")
                if end < 0:
                    continue
                lines: list[bytes | None] = [self._carry, *chunk[end + 1 :].split(b"\n")]
                self._long = False
            else:
                lines = (self._carry + chunk).split(b"\n")  # type: ignore[assignment]
            carry = lines.pop()
            assert carry is not None
            if len(carry) > MAX_LINE:
                # kept cut just past the cap, whatever its length: the loader refuses it at its line, as one over
                # the cap that ended inside a chunk (see _decode)
                carry, self._long = carry[: MAX_LINE + 1], True
            self._carry = carry
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


# -- what loading gives ----------------------------------------------------------------------------


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


def _unfinished(loaded: Loaded) -> bool:
    """An action was dropped: appending after it would leave its lines in the middle of the log."""
    return any("was dropped" in w for w in loaded.warnings)


def load_system(system_id: str) -> System:
    """The installed system of this id (SystemNotInstalled names the ones there are)."""
    return registry.load(system_id)


# -- loading: every line checked, decoded, folded --------------------------------------------------


def load(path: str | Path) -> Loaded:
    """Read and check a fight log by folding it.

    An unfinished last action (a torn line, or fewer events than its ``of``)
    is dropped with a warning; any other damage raises LoadError naming the
    line.  The file is not changed.  Any error while reading, decoding,
    upgrading or folding is a LoadError.
    """
    # Loading makes many small objects and no reference cycles: the cyclic
    # garbage collector would only scan the growing heap again and again.
    # A speed trick kept by #43's rule: bench figure 3 ("load + full replay of 100,000 events",
    # bench/bench_speed.py), best CPU of 5 alternated, with it / without it: zludge 1216 / 1943 ms,
    # bnb 1023 / 1481 ms (2026-12-05); without it the figure misses its 2.5x target by far more.
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
    if first.endswith(b"\r") and unseal(first[:-1]) is not None:  # (said before: "the header has no checksum")
        raise LoadError(
            "its lines end with CR LF (Windows line ends, from an editor or git's autocrlf): the tracker writes "
            "LF only; convert them back (dos2unix FILE) and open it again",
            1,
        )
    if first.startswith(b"\xef\xbb\xbf"):  # (said before: "its checksum does not match")
        raise LoadError("it starts with a byte order mark (an editor saved it as 'UTF-8 with BOM'): remove it", 1)
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


NEWER_NOTE = "a newer version than the"  # in the note on a fight saved by a newer plug-in (not damage: see below)


def _version_key(version: str) -> tuple[int, ...] | None:
    """A plug-in version's leading numbers ("1.10b2" -> (1, 10)), compared as numbers; None if it has none."""
    m = re.match(r"\s*(\d+(?:\.\d+)*)", version)
    return tuple(int(x) for x in m.group(1).split(".")) if m else None


def newer_system_note(header: Header, system: System) -> str | None:
    """The note on a fight saved by a newer version of its system's plug-in than the one installed, or None.

    Ruling: a file whose header names a newer plug-in version (bnb 9.0 read by bnb 1.0) is not refused: its events
    are versioned one by one, and one this version does not know is refused naming its line, so a file that loads
    was read whole.  But the newer version's rules may fold the same events otherwise, and going on with the older
    one appends decisions of the older rules: the GM is told, as a warning that is no damage (check says it and
    still says "good"; the app says it on opening; continuing is allowed).  It said nothing, and check called the
    file good.  Test: tests/reliability/test_record_round3.py::test_a_newer_plugin_version_is_noted.
    """
    saved, installed = _version_key(header.system_version), _version_key(system.version)
    if saved is None or installed is None or saved <= installed:
        return None
    return (
        f"saved by {system.name} {header.system_version}, {NEWER_NOTE} {system.version} installed here (not damage: "
        "every event reads with this one, and one it did not know would be refused naming its line); where the "
        f"newer rules differ the fight may too: upgrade {system.id} before going on with it"
    )


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
    entries, lines, ofs, checkpoints, torn = _decode(
        codec, raw_lines, old, head_raw, warnings, raw_lines.ends_with_newline
    )
    no_line_end = not raw_lines.ends_with_newline
    if torn:  # the last line was dropped: said in the GM's words (a torn write, or a whole line damaged)
        said = [i for i, w in enumerate(warnings) if w.startswith(f"line {last} ")]
        words = _dropped_last(raw_lines, last, offsets.get(last))
        if said:
            warnings[said[-1]] = words
        else:
            warnings.append(words)
    said_at = len(warnings)
    kept_last = bool(lines) and lines[-1] == last  # an event line (a checkpoint line is no entry)
    _check_groups(entries, lines, ofs, warnings)
    if no_line_end and not torn and not (kept_last and (not lines or lines[-1] != last)):
        # Ruling: a last line without its line end is "nothing is lost" only if it is kept; one of an action cut
        # short is dropped with its action, said once ("action N was cut short … and was dropped"): both were
        # said, one saying the line is kept and the end added, the other that it is dropped (the repair sets it
        # aside).  Test: tests/reliability/test_crash_round3.py::test_an_unended_line_of_a_dropped_action_is_said_once.
        warnings.insert(
            said_at,
            f"line {last}, the last, has no line end (a crash just as it was written); the line itself is whole: "
            "continuing the fight adds the line end first, nothing is lost",
        )
    log = ActionLog(system)
    try:
        log.extend(entries)
    except LogError as e:
        at = stopped_at(entries, len(log), log.new_seq, e.seq)
        raise LoadError(f"the log does not replay: {e}{repeated_note(entries, lines, at)}", lines[at]) from None
    try:
        log.fold()
    except LogError as e:  # every entry was taken: their seqs run on one by one, each names one line
        line = next((ln for en, ln in zip(entries, lines, strict=True) if en.seq == e.seq), None)
        raise LoadError(f"the log does not replay: {e}", line) from None
    newer = newer_system_note(header, system)
    if newer is not None:
        warnings.append(newer)
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


def stopped_at(entries: Sequence[Entry], taken: int, expected: int, seq: int | None) -> int:
    """The index of the entry the log refused: where taking them stopped (``taken`` entries in, the next expected
    to have seq ``expected``), the first of that action's entries out of sequence, or else the one of ``seq``.

    Ruling: a replay error is named at the line where the log stopped making sense, never at an earlier good line
    that shares its seq.  The first entry of a seq was taken: when a sync tool or a bad merge appended the last lines
    a second time, the good originals were called damaged, and continuing "from the last good action" before them
    left good actions out.  Test: tests/reliability/test_record_round3.py::test_a_repeated_tail_is_named_at_its_line.
    """
    n = len(entries)
    start = min(taken, n - 1)
    for k in range(start, n):
        if k > start and entries[k].action != entries[start].action:
            break
        if entries[k].seq != expected + (k - start):  # the first entry out of sequence from where it stopped
            if seq is None or entries[k].seq == seq:
                return k
            break
    return next((k for k in range(start, n) if entries[k].seq == seq), start)


def repeated_note(entries: Sequence[Entry], lines: Sequence[int], at: int) -> str:
    """A word when the refused entry's seq is an earlier line's: lines written twice (a sync tool, a merge)."""
    seq = entries[at].seq
    first = next((k for k in range(at) if entries[k].seq == seq), None)
    if first is None:
        return ""
    return f" (event {seq} is at line {lines[first]} already: lines written a second time, by a sync tool or a merge?)"


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
        return f"it is {BLANK_LINE}" if not line.strip() else "it has no checksum"
    try:
        parse(body)
    except ValueError as e:
        return f"it is not valid JSON: {e}"
    return "its content does not read as a fight line"


BLANK_LINE = "a blank line (not a fight line)"  # a line holding nothing, or only spaces (the view's words too)


def checkpoint_left_out(number: int, why: str = "") -> str:
    """The warning for a checkpoint line left out (a damaged cache: the events stand), ``why`` if it read whole."""
    return (
        f"line {number}: a checkpoint (a copy of the state, kept for speed) is damaged{f' ({why})' if why else ''}; "
        "it is left out, and the events before and after it stand"
    )


def checkpoint_seq(record: dict[str, Any], number: int) -> int | None:
    """The seq of the checkpoint a line holds (``record``: the line read whole, its checksum good and taken out, a
    ``"checkpoint"`` field in it); None when it is a checkpoint alone on its line, of a bad shape (no whole-number
    ``seq`` of 0 or more, or not a checkpoint record at all): a damaged cache, left out with a warning
    (:func:`checkpoint_left_out`).  LoadError "a damaged checkpoint" at its line when the line holds anything
    besides.  The players' view reads checkpoint lines by this too
    (:func:`saves.follow.checkpoint_shape`).

    Ruling: a checkpoint is a cache, the events are the truth (DESIGN): a sealed line holding only a checkpoint of
    a bad shape (a seq that is text, missing or below 0; a checkpoint that is not a record) is left out with a
    warning, as one whose checksum does not match is, and the events before and after it stand: check says it as
    a warning (exit 0 if nothing else), replay and export show the fight, the app opens it folding the events
    (:func:`from_checkpoint` cannot open from it, as from a checksum-damaged one), the players' view shows the
    fight.  The whole file was refused ("line N: a damaged checkpoint").  As the last line without its line end it
    is dropped as the end of a torn write, as a checkpoint that does not read is there ("line N, the last, was cut
    off … and was dropped"; continuing sets it aside in FILE.torn-<time>).  A line with another field beside the
    checkpoint is still refused at its line: it may be an event line, and leaving it out would lose an event.  A
    checkpoint whose seq reads but whose state does not decode was already a cache left out (check's note "of
    another version's shape", :func:`saves.checkpoint.verify`; the app folds the events): the loader does not
    decode states (the cost of loading), and that stays as it is.  Tests:
    tests/reliability/test_checkpoint_cache.py::test_a_sealed_checkpoint_of_a_bad_shape_is_left_out_by_every_reader,
    test_a_checkpoint_line_with_another_field_is_still_refused_by_every_reader,
    test_a_checkpoint_whose_state_does_not_decode_is_left_out_by_every_reader.
    """
    cp = record["checkpoint"]
    seq = cp.get("seq") if type(cp) is dict else None
    if len(record) != 1:
        raise LoadError("a damaged checkpoint", number)
    return seq if type(seq) is int and seq >= 0 else None


def bad_shape(record: dict[str, Any]) -> str:
    """Why a checkpoint :func:`checkpoint_seq` leaves out is of a bad shape, in the GM's words."""
    cp = record["checkpoint"]
    if type(cp) is not dict:
        return "it is not a checkpoint record"
    if "seq" not in cp:
        return "it has no seq"
    return "its seq is not a whole number of 0 or more"


EVENT_HEAD = re.compile(rb'\{"seq":[0-9]+,"action":[0-9]+,"of":[0-9]+,')  # a line's start as written


def _decode(
    codec: Codec,
    raw_lines: Lines,
    old: bool,
    head_raw: dict[str, Any],
    warnings: list[str],
    line_end: bool = True,
) -> tuple[list[Entry], list[int], list[int], list[Checkpoint], bool]:
    """Check, parse and decode every line after the header (``line_end``: the last one ends with one).

    Returns the entries, their line numbers, each entry's ``of``, the
    checkpoints, and whether a torn last line was dropped.  A checkpoint line
    is read by :func:`checkpoint_seq` (one that does not read, or of a bad
    shape, is left out with a warning).

    Ruling: a blank line (nothing, or only spaces) before the last is refused at its line in the players' view's
    words, ``BLANK_LINE`` ("line N: a blank line (not a fight line)"), wherever it is shown (check, replay, export,
    the app); the loader said "not valid JSON (input length is 0 at column 1)".  A blank last line is still dropped
    as a damaged last line, its reason said the same way ("it is a blank line (not a fight line)", not "it has no
    checksum").  Tests: tests/reliability/test_checkpoint_cache.py::test_a_blank_line_is_said_in_the_same_words_by_every_reader,
    test_a_blank_last_line_is_dropped_and_said_as_a_blank_line.
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
            if len(line) > MAX_LINE:
                # Ruling: a line over the cap is refused at its line wherever it is, whole or not: the app writes
                # none (no torn write of its own is that long), so it is no crash to drop; it was refused or
                # dropped by where the reads fell (tests/reliability/test_long_lines.py)
                raise LoadError(str(e), number) from None
            if only_a_checkpoint(line) and (number < last or line_end):
                # a checkpoint is a cache of the state, the events are the record: a damaged one is left out, and
                # the fight goes on from its events (it made check, replay and continuing refuse the whole file)
                warnings.append(checkpoint_left_out(number))
                continue
            if number == last:
                warnings.append(f"line {number} was cut off or damaged (the last write did not finish) and was dropped")
                torn = True
                break
            if isinstance(e, Damaged):
                raise LoadError(str(e), number) from None
            if not line.strip():
                raise LoadError(BLANK_LINE, number) from None
            raise LoadError(f"not valid JSON ({e})", number) from None
        if type(record) is not dict:
            raise LoadError("not an event record", number)
        if "checkpoint" in record:
            seq = checkpoint_seq(record, number)
            if seq is None:  # sealed, alone on its line, of a bad shape: a damaged cache, left out
                if number == last and not line_end:  # (as one that does not read: the end of a torn write)
                    warnings.append(
                        f"line {number} was cut off or damaged (the last write did not finish) and was dropped"
                    )
                    torn = True
                    break
                warnings.append(checkpoint_left_out(number, bad_shape(record)))
                continue
            cp = record["checkpoint"]
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
            try:
                entries.append(codec.decode(record, number))
            except NewerVersion as e:  # an older format's line has no checksum: it may be damage as well
                raise LoadError(str(e).removeprefix(f"line {number}: "), number) from None
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
                # a crash leaves the first lines of an action: its seqs follow on from the action before; a line
                # missing between whole ones is damage (read as a crash, continuing cut the lines after it off)
                for k in range(max(i, 1), n):
                    if entries[k].seq != entries[k - 1].seq + 1:
                        raise LoadError(f"a line is missing before it (event {entries[k - 1].seq + 1})", lines[k])
                warnings.append(f"action {action} was cut short ({have} of its {of} events) and was dropped")
                del entries[i:], lines[i:], ofs[i:]
                return
            # too many: named at the first line past its number (lines written a second time, by a sync tool or a
            # merge, follow the good ones: continuing before it keeps the whole action; test:
            # tests/reliability/test_record_round3.py::test_a_repeated_action_is_named_at_its_first_extra_line)
            raise LoadError(f"action {action} has {have} of its {of} events", lines[i + of] if have > of else lines[i])
        i = j


# -- opening from the last checkpoint: only the tail is read ---------------------------------------


def action_offsets(loaded: Loaded) -> dict[int, int]:
    """The byte offset of the first line of each of the last actions loaded (where a checkpoint may point)."""
    offsets: dict[int, int] = {}
    for entry, line in zip(loaded.entries, loaded.lines, strict=True):
        at = loaded.offsets.get(line)
        if at is not None and entry.action not in offsets:
            offsets[entry.action] = at
    return offsets


def from_checkpoint(p: Path) -> tuple[Header, System, ActionLog, dict[int, int], int] | None:
    """The fight opened from its last checkpoint and the tail after it; None if anything is amiss.

    Anything unusual (no checkpoint, a torn tail, a damaged line, a tail that
    does not follow the checkpoint) sends the caller to the full load, which
    says what is wrong with the line number.
    """
    try:
        header, _raw, old = read_header(read_head(p))
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
        if not checkpoint.of_this_version(system, header, cp):
            return None  # another version's fold: the full load folds the events
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


# -- checking that checkpoint against the events ---------------------------------------------------


@attrs.frozen
class CheckResult:
    """What checking a fight's checkpoint against its events found (``message`` in the GM's words)."""

    good: bool
    message: str = ""
    damaged: bool = False  # the events themselves do not read: nothing more may be written to the file
    line: int | None = None  # the damaged line, when the events do not read
    log: ActionLog | None = attrs.field(default=None, eq=False, repr=False)  # the fold, when the checkpoint lied
    offsets: dict[int, int] = attrs.field(factory=dict, eq=False, repr=False)
    # every event the check folded, when the checkpoint agreed: the fight opened from it keeps the part it never
    # read, so that a rescue can write the whole fight from memory (see saves.writing.SavedFight.settle_check)
    entries: Sequence[Entry] | None = attrs.field(default=None, eq=False, repr=False)
    warnings: tuple[str, ...] = ()  # what the whole file's reading found besides (a damaged checkpoint left out)
    newer: bool = False  # a line a newer version wrote stops the reading (no damage: nothing to go on from)


def check_against_events(path: Path, shown: FightState) -> CheckResult:
    """Fold the events of ``path`` from the start and compare them with its last checkpoint and with ``shown``
    (the state the fight was opened with from that checkpoint).  Only reads; safe in a thread.

    The fold is not thrown away when they agree: ``entries`` holds its events, so the fight opened from the
    checkpoint can be saved whole from memory if its file is lost (it was set only on a disagreement, and a file
    emptied under the app lost the fight whole; see ``saves.writing.SavedFight``)."""
    try:
        loaded = _load_quietly(path)
    except LoadError as e:  # (a newer version's line is no damage to go on from: no line to continue before)
        newer = isinstance(e, NewerVersion)
        return CheckResult(False, damaged_words(path, e), True, line=None if newer else e.line, newer=newer)
    log = loaded.log
    assert log is not None
    why: str | None = None
    if loaded.checkpoints and checkpoint.of_this_version(loaded.system, loaded.header, loaded.checkpoints[-1].data):
        cp = loaded.checkpoints[-1]
        why = checkpoint.disagreement(loaded.system, Timeline.of(log, copy=False), cp.seq, cp.data)
    if why is None and log.state != shown:
        why = "the fight it gives differs from the events'"
    if why is None:
        return CheckResult(True, warnings=loaded.warnings, entries=log.loaded)
    return CheckResult(
        False,
        f"{path.name}: its last checkpoint disagrees with its events ({why}); the events win: the fight is shown "
        "as they have it, and a checkpoint from them replaces the bad one",
        log=log,
        offsets=action_offsets(loaded),
    )


def damaged_words(path: Path, e: LoadError) -> str:
    """A fight file whose events do not read, in the GM's words: where, why, and what the GM can do."""
    where = f"line {e.line}" if e.line else "a line"
    why = str(e).removeprefix(f"line {e.line}: ") if e.line else str(e)
    if isinstance(e, NewerVersion):
        return (
            f"{path.name} was saved by a newer version of the tracker or of its game system ({where}: {why}): "
            f"upgrade them to open it ({path.name} is left as it is, and nothing is written to it here)"
        )
    return (
        f"{path.name} is damaged at {where}: it cannot go on in this file (replay, export and check refuse it). "
        f"Continue from the last good action in a new file ({path.name} is left as it is). What is wrong: {why}"
    )
