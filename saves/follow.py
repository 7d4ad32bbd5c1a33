"""Following a fight file as it is written: read-only, incremental, never an error for a torn tail.

The players' view calls :meth:`Follower.poll` a few times a second.  It keeps
the byte offset of the last complete line it took, reads only what was added
since, decodes the new lines and folds them into a :class:`~tracker.fight.Fight`
(undo included: an ``Undone`` line folds like any other).  A line still being
written (no line end yet, or its checksum not there), or an action whose lines
are not all there yet, is waited for; a whole, sealed line that does not decode,
or a line missing inside the action being written, is damage at its line, as
the loader has it.  If the file shrinks or is replaced, it is read again from the
start; if it is not there (yet), the follower waits for it.  The file is opened
for reading only and no lock is taken: the writer's lock is the writer's.

A fight the GM's app saved on in another file (``FILE-rescued.jsonl`` after the
file was lost under it, ``FILE-continued.jsonl`` after damage) is looked for
about once a second; while that file was written after this one, the view says
where the fight goes on (status ``MOVED``) instead of a frozen fight.

Only a regular file is read, and never one the loader would refuse: a FIFO, a
device or a folder is refused at once (opened without blocking, then checked),
and so is a file over the loader's size cap (``MAX_FILE``).  Lines are taken
one at a time from reads of at most ``READ_CHUNK`` bytes, and one poll takes at
most ``POLL_READ`` bytes (a big file is read over several polls, the view
answering keys in between), so memory while refusing a bad file stays within a
small multiple of one read.

Everything that knows the line format is in :func:`read_chunk`,
:func:`lines_of` and :func:`decode_lines`; a change of format (checksums,
checkpoint lines) is adapted there.
"""

from __future__ import annotations

import errno
import os
import stat
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import attrs

from saves import loading
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
    parse,
    read_line,
    unseal,
)
from saves.listing import continuation_of, rescued_in
from tracker import registry
from tracker.errors import TrackerError
from tracker.fight import Fight
from tracker.log import Entry, LogError
from tracker.plugin import System

# what a follower says when it has no fight to show
WAITING = "waiting"  # no file there (yet)
BAD = "bad"  # a file that is not a fight this tracker can read; the message says why
MOVED = "moved"  # the fight goes on in another file (rescued or continued); the message names it
WENT_ON_EVERY = 1.0  # seconds between looks for such a file (a glob of the folder and a header read)


READ_CHUNK = 1 << 22  # bytes read at once: more than a line's cap (MAX_LINE), so a whole line always fits
POLL_READ = 1 << 25  # bytes taken in one poll at most

_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
    (stat.S_ISSOCK, "a socket"),
)


def not_a_file(shown: str, mode: int) -> str:
    """What to tell the GM when the path names something other than a regular file."""
    kind = next((what for test, what in _KINDS if test(mode)), "not a regular file")
    return (
        f"{shown} is {kind}, not a fight file: give the players' view a fight's .jsonl file "
        "(`tracker where` shows the folder of fights)"
    )


def too_big(shown: str, size: int) -> str:
    return (
        f"{shown} is too big for a fight file ({size:,} bytes; at most {MAX_FILE:,}): "
        "it is not a fight this tracker wrote"
    )


def refusal(path: Path) -> str | None:
    """Why ``path`` can never be followed (not a regular file, over the size cap), named as given; None if it
    can be, or is not there yet (the view waits for it).  Checked without opening it: nothing blocks."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as e:
        return cannot_read(str(path), e)
    if not stat.S_ISREG(st.st_mode):
        return not_a_file(str(path), st.st_mode)
    if st.st_size > MAX_FILE:
        return too_big(str(path), st.st_size)
    return None


_WHY = {
    errno.ELOOP: "it is a symbolic link that leads round in a loop; give the fight file itself",
    errno.EACCES: "you have no permission to read it",
    errno.ENXIO: "it is not a file (a socket or a device with nothing behind it); give a fight's .jsonl file",
    errno.ENOTDIR: "a folder in its path is a file",
}


def cannot_read(shown: str, e: OSError) -> str:
    return f"Cannot read {shown}: {_WHY.get(e.errno or 0, e.strerror or str(e))}"


TAIL = 32  # bytes of the last line taken kept to be checked: its checksum is among them

TOO_LONG = "the line is too long"
"""What the view says of a line still without its line end that is already over the line cap (``MAX_LINE``).

Ruling: such a line is refused at its line, not waited for as a line still being written.  The loader drops a
torn last line (no line end) as the end of a write a crash cut short, but only one within the cap: no write of the
app is longer, so one over it is no torn fight line, and the loader refuses the file at it ("line N: the line is
too long (N bytes or more): not a fight file", whatever its end).  Waiting for its end would show the fight as live
and good while check refuses the file.  The view's words are the start of the loader's (it has not read the whole
line, and reads of a bounded size keep its memory small).  Tests: tests/view/test_follow_long_line.py::
test_a_line_over_the_cap_is_judged_as_the_loader_judges_it (the unended cases),
test_a_line_over_the_cap_still_without_its_end_is_refused_not_waited_for."""


def read_chunk(path: Path, offset: int, limit: int | None = None) -> tuple[bytes, int]:
    """Up to ``limit`` bytes (``READ_CHUNK``) of ``path`` from byte ``offset`` on, and the file's size.

    Opened without blocking and checked before anything is read: a FIFO, a
    device or a folder raises LoadError at once, and so does a file over the
    loader's cap.  Relies on: the file only grows by appending (checked by the
    caller, which reloads when the size drops below ``offset`` or the file is
    replaced).
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise LoadError(not_a_file(path.name, st.st_mode))
        if st.st_size > MAX_FILE:
            raise LoadError(too_big(path.name, st.st_size))
        if st.st_size <= offset:
            return b"", st.st_size
        os.lseek(fd, offset, os.SEEK_SET)
        return os.read(fd, min(limit or READ_CHUNK, st.st_size - offset)), st.st_size
    finally:
        os.close(fd)


def lines_of(data: bytes) -> Iterator[bytes]:
    """Each line of ``data`` (which ends with a line end), one at a time: never a list of them all."""
    start = 0
    while True:
        end = data.find(b"\n", start)
        if end < 0:
            return
        yield data[start:end]
        start = end + 1


def over_the_cap(data: bytes, start: int = 0) -> int | None:
    """Where the first line of ``data`` (whole lines, each with its line end) from byte ``start`` on that is longer
    than the line cap (``MAX_LINE``) starts; None if none is.  A few searches per ``MAX_LINE`` of ``data``: each
    looks for the last line end within a line's cap, and a line with none there is over it."""
    while len(data) - start > MAX_LINE:
        end = data.rfind(b"\n", start, start + MAX_LINE + 1)
        if end < 0:
            return start
        start = end + 1
    return None


def _record(raw: bytes, line: int) -> Any:
    """One line's JSON value, its checksum checked and taken out, as the loader reads it
    (:func:`saves.format.read_line`, then :func:`saves.loading._decode`'s words; LoadError names the line).

    Ruling: a line that does not read is said in the loader's words: it is parsed first, then its checksum
    checked (a checkpoint whose line end was lost, the GM's next line joined to it: "not valid JSON (unexpected
    content after document …)", as check says; the view said "its checksum does not match"). Test:
    tests/reliability/test_follow_checkpoints.py::test_a_checkpoint_joined_to_the_next_line_is_said_in_the_loaders_words.
    """
    try:
        return read_line(raw)
    except Damaged as e:
        raise LoadError(str(e), line) from None
    except ValueError as e:
        raise LoadError(f"not valid JSON ({e})", line) from None


def checkpoint_shape(record: Any, line: int) -> bool:
    """Whether ``record`` (a line read whole, its checksum taken out) is a checkpoint line, to be skipped (a good
    one, and one the loader leaves out); LoadError "a damaged checkpoint" at its line if the loader refuses it
    (:func:`saves.loading.checkpoint_seq`: anything besides the checkpoint on the line).

    Ruling: a sealed checkpoint line (its checksum good) of a bad shape (a seq that is text, missing or below 0; a
    checkpoint that is not a record) is a damaged cache: the loader leaves it out with a warning and the events
    stand, and the view shows the fight, as for a checkpoint whose checksum does not match (it was refused at its
    line, as the loader refused the file).  One with another field on its line (it may be an event line) is still
    refused, in the loader's words ("line N: a damaged checkpoint"); one cut short at the end of the file is still
    waited on.  Tests: tests/reliability/test_checkpoint_cache.py::test_a_sealed_checkpoint_of_a_bad_shape_is_left_out_by_every_reader,
    test_a_checkpoint_line_with_another_field_is_still_refused_by_every_reader,
    tests/reliability/test_follow_checkpoints.py::test_a_sealed_checkpoint_of_a_bad_shape_is_left_out_as_the_loader_leaves_it_out,
    test_a_checkpoint_line_with_another_field_is_refused_as_the_loader_refuses_it,
    test_a_sealed_checkpoint_of_a_bad_shape_appended_while_followed_is_left_out,
    test_a_checkpoint_line_with_another_field_appended_while_followed_is_refused.
    """
    if type(record) is not dict or "checkpoint" not in record:
        return False
    loading.checkpoint_seq(record, line)  # (raises where the loader refuses the line; None: left out)
    return True


def decode_lines(codec: Codec, lines: Iterable[bytes], first_line: int) -> list[tuple[Entry, int, int]]:
    """Each event line as an entry, the size ("of") of the GM action it belongs to, and its line number.

    As the loader reads them (:mod:`saves.loading`): one sealed JSON object per line (format 2: a checksum on
    each), decoded alone by :meth:`Codec.decode` (raising LoadError that names the line); ``of`` on each line
    counts the events of its action; a blank line is damage (in the words the loader uses, ``BLANK_LINE``);
    checkpoint lines (a cache of the folded state) are skipped, one that does not read too (its checksum off, cut
    short), and a sealed one of a bad shape, but one with another field on its line is damage
    (:func:`checkpoint_shape`).
    """
    out: list[tuple[Entry, int, int]] = []
    for n, raw in enumerate(lines, start=first_line):
        if not raw.strip():
            raise LoadError(loading.BLANK_LINE, n)
        try:
            record = _record(raw, n)
        except LoadError:
            if loading.only_a_checkpoint(raw):
                continue  # a damaged cache: the events stand (as the loader has it)
            raise
        if checkpoint_shape(record, n):  # (one of a bad shape, sealed: refused, as the loader refuses it)
            continue
        entry = codec.decode(record, n)
        of = record.get("of", 1)
        out.append((entry, of if type(of) is int and of > 0 else 1, n))
    return out


def check_actions(pending: list[tuple[Entry, int, int]], last_seq: int | None = None) -> int:
    """How many of ``pending`` make whole actions (the last may still be being written); LoadError, naming the
    line, where the loader would refuse: an action's events disagree on their number, an action before the
    last has other than its number (a players' view showed half an action), or a line is missing inside the last,
    unfinished one (``last_seq``: the seq of the event taken before ``pending``, None if none was).

    Ruling: the lines of an action still being written follow on, seq by seq, from the event before them (a crash
    leaves an action's first lines, never one with a hole); a line missing inside the last, unfinished action is
    damage at the line after the hole, in the loader's words ("a line is missing before it (event N)",
    :func:`saves.loading._check_groups`), as check and the app refuse the file.  The view waited for the missing
    line for ever and showed the fight an action behind with no word.  Tests:
    tests/reliability/test_follow_round4.py::test_a_line_missing_inside_the_last_unfinished_action_is_damage_said_at_its_line,
    test_a_line_missing_from_an_action_being_written_is_said_once_the_next_line_comes,
    test_an_action_written_line_by_line_is_waited_for_and_then_shown.
    """
    ready = 0
    i, n = 0, len(pending)
    while i < n:
        action, of = pending[i][0].action, pending[i][1]
        j = i + 1
        while j < n and pending[j][0].action == action:
            if pending[j][1] != of:
                raise LoadError(f"action {action}: its events disagree on how many it has", pending[j][2])
            j += 1
        if j - i > of or (j < n and j - i != of):  # (too many: at the first line past its number, as the loader)
            raise LoadError(f"action {action} has {j - i} of its {of} events", pending[i + of if j - i > of else i][2])
        if j - i == of:
            ready = j
        else:  # the last action, still being written: its lines follow on from the event before it
            for k in range(i, n):
                before = pending[k - 1][0].seq if k else last_seq
                if before is not None and pending[k][0].seq != before + 1:
                    raise LoadError(f"a line is missing before it (event {before + 1})", pending[k][2])
        i = j
    return ready


@attrs.frozen
class Snapshot:
    """What the follower knows now: a fight to show, or why there is none."""

    fight: Fight | None = None
    header: Header | None = None
    problem: str = ""  # a message for the viewer (no fight, or the file went bad after it)
    status: str = ""  # WAITING, BAD, MOVED or "" (following)
    version: int = 0  # grows by one whenever anything shown may have changed


class Follower:
    """Follows one fight file; ``poll()`` returns a new :class:`Snapshot` when something changed, else None."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._version = 0
        self._reset()
        self.snapshot = Snapshot(status=WAITING, problem=self._waiting_text())
        self._base = self.snapshot  # what the file itself shows (self.snapshot says MOVED over it)
        self._looked = -WENT_ON_EVERY  # when the other file was last looked for (time.monotonic)
        self._went_on: Path | None = None

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
        self._pending: list[tuple[Entry, int, int]] = []  # an action not yet complete
        self._last_seq: int | None = None  # the seq of the last event folded (the next line's must follow on)
        self._stuck = False  # a bad file: wait until it changes
        self._legacy = False  # an older format: read whole (upgraded) at each change
        self._unshown = False  # lines taken (over several polls) and not shown yet
        self._held = False  # the last read held back the file's last line: whole, but it does not read
        self._unended = False  # the last line taken had no line end (the offset is at the file's end, before it)
        self._tail = b""  # the last bytes taken, ending at the offset (checked at each change: see _tail_holds)

    def _waiting_text(self) -> str:
        return f"Waiting for the fight file {self.path.name} …"

    def _emit(self, status: str = "", problem: str = "") -> Snapshot:
        self._version += 1
        fight = None if status else self._fight
        self.snapshot = self._base = Snapshot(
            fight=fight, header=self._header, problem=problem, status=status, version=self._version
        )
        return self.snapshot

    def poll(self) -> Snapshot | None:
        """Read what was added since the last poll (``POLL_READ`` bytes at most); a new snapshot if anything
        changed.

        Ruling: a fight the GM's app saved on in another file is said, not followed: while
        ``FILE-rescued.jsonl`` (``saves.listing.rescued_in``) or ``FILE-continued.jsonl`` (``continuation_of``)
        was written after this file, the view shows "The fight goes on in …" with the command that shows it
        (status MOVED) in place of the fight, which it showed frozen as if live with no word.  Not followed on
        its own: the app offers "Stay in this file" on the lost one, and a view that had moved would then show
        the players a fight no longer played; said by the files' times, the word goes when this file is written
        again.  Tests: tests/view/test_follow_moved.py.
        """
        shown = self._poll_file()
        went_on = self._where_it_went_on()
        if went_on is not None:
            problem = self._moved_text(went_on)
            if self.snapshot.status == MOVED and self.snapshot.problem == problem:
                return None
            self._version += 1
            self.snapshot = Snapshot(header=self._header, problem=problem, status=MOVED, version=self._version)
            return self.snapshot
        if self.snapshot.status == MOVED:  # this file goes on again: shown as it is
            self._version += 1
            self.snapshot = self._base = attrs.evolve(self._base, version=self._version)
            return self.snapshot
        return shown

    def _where_it_went_on(self) -> Path | None:
        """The file the fight goes on in, if it was written after this one (looked for every ``WENT_ON_EVERY``)."""
        now = time.monotonic()
        if now - self._looked < WENT_ON_EVERY:
            return self._went_on
        self._looked = now
        self._went_on = None
        for find in (rescued_in, continuation_of):
            try:
                other = find(self.path)
                if other is None:
                    continue
                theirs = os.stat(other).st_mtime_ns
            except OSError:
                continue
            try:
                ours = os.stat(self.path).st_mtime_ns
            except FileNotFoundError:
                ours = -1
            except OSError:
                continue
            if theirs >= ours:
                self._went_on = other
                break
        return self._went_on

    def _moved_text(self, other: Path) -> str:
        name = self.path.name
        if other.name.startswith(f"{self.path.stem}-continued"):
            why = f"{name} is damaged"
        else:
            why = f"{name} was lost under the GM's app or could not be written"
        if other.parent.absolute() == self.path.parent.absolute():
            shown, where = other.name, f" (beside {name})"
        else:  # (the fights folder, or a path the GM typed: its name alone would not find it)
            shown, where = str(other.absolute()), ""
        return (
            f"The fight goes on in {shown}: {why} and is no longer played. To show it, run the players' view "
            f"on that file{where}: tracker table {shown}"
        )

    def _poll_file(self) -> Snapshot | None:
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            if self._base.status == WAITING and self._fight is None:
                return None
            self._reset()
            return self._emit(status=WAITING, problem=self._waiting_text())
        except OSError as e:
            return self._refuse(cannot_read(self.path.name, e))
        if not stat.S_ISREG(st.st_mode):  # never opened: a FIFO would block, a device never ends
            return self._refuse(not_a_file(self.path.name, st.st_mode))
        if st.st_size > MAX_FILE:
            return self._refuse(too_big(self.path.name, st.st_size))
        identity = (st.st_dev, st.st_ino)
        if self._identity is not None and (identity != self._identity or st.st_size < self._offset):
            self._reset()  # replaced or shrunk: read it again from the start
        if identity == self._identity and st.st_size == self._size and st.st_mtime_ns == self._mtime:
            return None
        if self._tail and not self._tail_holds():
            self._reset()  # cut back and grown again past the offset between two polls (a repair, then play)
        self._identity = identity
        if self._stuck:
            self._reset()
            self._identity = identity
        try:
            return self._read(st.st_size, st.st_mtime_ns)
        except FileNotFoundError:
            self._reset()
            return self._emit(status=WAITING, problem=self._waiting_text())
        except OSError as e:
            return self._fail(cannot_read(self.path.name, e))
        except NewerVersion as e:  # no damage: in the words the app and check use
            return self._fail(loading.damaged_words(self.path, e))
        except TrackerError as e:
            return self._fail(str(e))

    def _fail(self, message: str) -> Snapshot:
        self._stuck = True
        self._fight = None  # never a half-folded state
        return self._emit(status=BAD, problem=message)

    def _refuse(self, message: str) -> Snapshot | None:
        """A path that cannot be read as it is: said once (not at every poll), then waited on until it changes."""
        if self._stuck and self._base.status == BAD and self._base.problem == message:
            return None
        self._reset()
        return self._fail(message)

    def _read(self, size: int, mtime: int) -> Snapshot | None:
        self._size, self._mtime = size, mtime  # a file that fails is read again only once it changes
        taken = 0
        while True:
            data, size = read_chunk(self.path, self._offset)
            if self._unended and data:  # the line end the last line lacked, added before the GM went on
                if not data.startswith(b"\n"):
                    raise LoadError("a line was written onto the end of the last one", self._line)
                self._unended = False
                self._offset += 1
                data = data[1:]
            end = data.rfind(b"\n")
            if end < 0:
                if len(data) > MAX_LINE:  # never waited for (see TOO_LONG)
                    raise LoadError(TOO_LONG, self._line + 1)
                if data and self._offset + len(data) >= size and self._whole(data):
                    # the file's last line lost only its line end (the power went between the two): whole, its
                    # checksum good, the loader keeps it (check, replay and continuing show it), and so does the
                    # view, which waited for the line end for ever and showed the fight without that action
                    self._take(data + b"\n", size)
                    self._offset -= 1
                    self._unended = True
                    self._tail = (self._tail + data)[-TAIL:]
                    taken += len(data)
                break  # nothing new, or a line still being written
            self._take(data if end + 1 == len(data) else data[: end + 1], size)
            self._tail = (self._tail + data[: end + 1])[-TAIL:]
            taken += end + 1
            if self._offset >= size or taken >= POLL_READ or self._held:
                break
        self._size = size
        if self._offset < size and taken >= POLL_READ:  # the view answers keys between polls; the fight is
            self._size = -1  # shown once it is all read: the next poll reads on
            if self._base.fight is not None:
                return None
            return self._emit(status=WAITING, problem=f"Reading {self.path.name} … {100 * self._offset // size}%")
        if not taken and not self._unshown:
            if self._header is None and size > 0 and self._base.status != WAITING:
                return self._emit(status=WAITING, problem=self._waiting_text())
            return None
        self._unshown = False
        return self._emit()

    def _take(self, data: bytes, size: int) -> None:
        """Fold the complete lines in ``data`` (read at the follower's offset)."""
        self._unshown = True
        self._held = False
        lines = lines_of(data)
        first = self._line + 1
        if self._header is None and not self._legacy:
            self._open_header(next(lines))
            first += 1
        if self._legacy:
            loaded = loading.load(self.path)  # upgrades the format (a torn tail is dropped): read whole, once
            self._header, self._system, self._fight = loaded.header, loaded.system, loaded.fight()
            self._offset = size
            return
        after_header = data.find(b"\n") + 1 if first == self._line + 2 else 0  # (a header read here: not looked at)
        if self._codec and len(data) > MAX_LINE and over_the_cap(data, after_header) is not None:
            self._over_the_cap()
        if self._codec and self._offset + len(data) >= size and self._damaged_last(data, first):
            # the file's last line is whole but does not read: the loader drops it (check, replay and continuing
            # show the fight without it), and so does the view, which showed only the error; lines written after
            # it make it damage in the middle, refused at its line
            data = data[: data.rfind(b"\n", 0, len(data) - 1) + 1]
            self._held = True
            lines = lines_of(data)
            if first == self._line + 2:  # (the header was in this read)
                next(lines)
        new = decode_lines(self._codec, lines, first) if self._codec else []
        self._offset += len(data)
        self._line += data.count(b"\n")
        if self._fight is None:
            assert self._system is not None
            self._fight = Fight(self._system)
        self._fold(new)

    def _over_the_cap(self) -> None:
        """A whole line over the line cap (``MAX_LINE``) in what was read: the loader's verdict on the file, in its
        words (its LoadError, at its line), or, if the loader keeps the file, nothing (the view then does with the
        line what the loader does: it drops such a last line as damaged, and leaves out such a checkpoint).

        Ruling: a whole line over the cap (its line end there) is judged by the loader itself, so that the view and
        check always agree on it: damage said at its line, in check's words ("line N: the line is too long (…)"),
        wherever the loader refuses it, the last line included.  The view dropped a whole last line over the cap
        as a torn write and showed the fight as live and good, while check refused the file at that line (a line
        of 2 MB); one in the middle was said in other words.  (The loader's own verdict on a whole last line just
        over the cap depends on how its reads fall: one of about 1.0-1.3 MB it drops as a damaged last line, with
        a warning; the view does the same there, and follows the loader if that is changed.)  Such a line is never
        a write of the app (no line it writes is over the cap): the file is read whole once more only for damage,
        never in play.  Tests: tests/view/test_follow_long_line.py::
        test_a_whole_last_line_over_the_cap_is_damage_said_at_its_line,
        test_a_line_over_the_cap_is_judged_as_the_loader_judges_it,
        test_a_line_over_the_cap_appended_while_followed_is_damage_said_at_its_line.
        """
        loading.load(self.path)  # (raises the loader's LoadError, naming its line, if it refuses the file)

    def _tail_holds(self) -> bool:
        """Whether the file still holds, just before the offset, the bytes last taken (the end of the last line).

        Only a file cut shorter than the offset was known to be read again: cut back by the GM's app (a torn
        action set aside on opening) and grown past it again by the next actions before the view polled, it was
        read on from the middle of a line, showing the old fight, or a good file as damaged."""
        start = self._offset - len(self._tail)
        try:
            found, _size = read_chunk(self.path, start, len(self._tail))
        except (OSError, LoadError):
            return False
        return found == self._tail

    def _whole(self, line: bytes) -> bool:
        """Whether ``line`` (no line end) reads whole as the next fight line: its checksum there and good, as the
        loader tells a torn last line (:func:`saves.format.read_line`).  A line still being written does not (its
        checksum is not there yet); a whole one whose content does not decode, or is a newer version's, is taken
        and refused at its line (see :meth:`_damaged_last`)."""
        if self._codec is None or self._header is None:
            return False
        try:
            _record(line, self._line + 1)  # (a checkpoint too: decode_lines leaves out a damaged one, a half one)
        except LoadError:
            return False
        return True

    def _damaged_last(self, data: bytes, first: int) -> bool:
        """Whether the last line of ``data`` (the end of the file) is a torn write the loader drops: too long, no
        checksum or one that does not match, not JSON (what :func:`saves.format.read_line` raises).

        Ruling: a whole last line of a newer version (its checksum good, an event or an event version this one
        does not know) is no damage to leave out: NewerVersion is raised and the view says it in the app's words
        (:func:`saves.loading.damaged_words`, "saved by a newer version"), as check and the app refuse the file;
        it was dropped as a torn line and the view showed the fight an action behind with no word.  A line still
        being written (no checksum yet) is waited for as before.  Tests: tests/view/test_follow_damaged.py::
        test_a_newer_versions_last_line_is_said_not_dropped, test_a_newer_versions_line_appended_while_followed_is_said,
        test_a_newer_versions_last_line_without_its_line_end_is_said, test_a_torn_last_line_is_still_waited_for.

        Ruling: so is any whole, sealed last line whose content does not decode (an event version 0, a field of the
        wrong kind): the loader drops only a line that does not read (:func:`saves.loading._decode`) and refuses
        one that does not decode, at its line; the view says the same words (``line N: …``, the LoadError the
        loader raises) and no fight.  It dropped it as a torn write and showed the fight an action behind with no
        word, while check said "damaged at line N".  Tests: tests/reliability/test_follow_round4.py::
        test_a_sealed_last_line_that_does_not_decode_is_damage_said_at_its_line,
        test_a_torn_last_write_is_still_waited_on_as_the_loader_drops_it.
        """
        start = data.rfind(b"\n", 0, len(data) - 1) + 1
        if self._codec is None or (start == 0 and first == self._line + 2):
            return False  # the header alone
        line = data[start:-1]
        if loading.only_a_checkpoint(line):
            return False  # decode_lines leaves out a damaged one (the loader too, its line end there)
        try:
            _record(line, self._line + 1 + data.count(b"\n", 0, start))
        except LoadError:
            return True  # torn (or damaged whole): dropped, as the loader drops it
        return False  # it reads: decoded with the others, refused at its line if it does not decode

    def _open_header(self, raw: bytes) -> None:
        """Read the header (line 1): the fight's system and codec, or an older format read whole (``_legacy``).

        Ruling: only a whole number greater than ``FORMAT_VERSION`` is a newer tracker's header; any other
        ``format`` (a text "2", 1.5, null, true) is a damaged header, said as the loader says it (its
        :func:`saves.loading.read_header`: "the header has no format version"), never "saved by a newer tracker".
        Test: tests/view/test_follow_damaged.py::test_a_header_format_that_is_no_version_is_damage_said_as_the_loader_says_it.
        """
        name = self.path.name
        try:
            head = parse(unseal(raw) or raw)
        except (Damaged, ValueError):
            raise LoadError(f"{name} is not a fight file (its first line is not a fight header)") from None
        if not isinstance(head, dict) or "system" not in head or "format" not in head:
            raise LoadError(f"{name} is not a fight file (its first line is not a fight header)")
        version = head.get("format")
        if type(version) is int and version > FORMAT_VERSION:
            raise LoadError(f"{name} was saved by a newer tracker (format {version}): upgrade the tracker to show it")
        # anything else as the loader reads it, in its words: sealed, LF line ends, a format that is a version
        # (a text "2", 1.5 or null was called "saved by a newer tracker (format 2)"; check: no format version)
        header, _, old = loading.read_header(raw)
        if old:
            self._legacy = True
            return
        try:
            system = registry.load(header.system)
        except TrackerError as e:
            raise LoadError(f"this fight is played with '{header.system}': {e}") from None
        self._header, self._system, self._codec = header, system, codec_for(system)

    def _fold(self, new: list[tuple[Entry, int, int]]) -> None:
        """Fold the complete actions; keep an action whose lines are not all there yet.

        Ruling: a log that does not replay is named at the line the loader names, in its words: where taking the
        entries stopped (:func:`saves.loading.stopped_at`: the first event out of sequence there, lines written
        a second time by a sync tool or a merge said as such), or, every entry taken, the line of the event
        whose folding failed.  The view named the last line holding the seq in the error, the line after the one
        out of sequence when a seq was edited, while check said "damaged at" the one before (tests:
        tests/reliability/test_follow_round4.py::test_an_event_out_of_sequence_is_named_at_the_line_the_loader_names,
        tests/view/test_follow.py::test_a_repeated_tail_is_named_at_its_line).
        """
        pending = self._pending + new
        ready = check_actions(pending, self._last_seq)
        self._pending = pending[ready:]
        if not ready:
            return
        self._last_seq = pending[ready - 1][0].seq
        assert self._fight is not None
        log = self._fight.log
        had = len(log)
        entries = [e for e, _, _ in pending[:ready]]
        try:
            self._fight.load(entries)
        except LogError as e:  # named at its line, as the loader names it (the view said no line)
            lines = [n for _, _, n in pending[:ready]]
            taken = len(log) - had
            if taken < len(entries):  # taking them stopped there
                at = loading.stopped_at(entries, taken, log.new_seq, e.seq)
                why = f"{e}{loading.repeated_note(entries, lines, at)}"
            else:  # all taken, one did not fold: its seq names one line
                at = next((k for k, entry in enumerate(entries) if entry.seq == e.seq), len(entries) - 1)
                why = str(e)
            raise LoadError(f"the log does not replay: {why}", lines[at]) from None
