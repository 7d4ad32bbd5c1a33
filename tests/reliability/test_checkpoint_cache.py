"""A checkpoint is a cache, the events are the truth: the loader, ``tracker check``, the players' view and the app
(``saves.open_fight``) agree about a checkpoint line that reads whole but is of a bad shape, and about a blank line.

- A sealed line (its checksum good) holding only a checkpoint of a bad shape (a seq that is text, missing, true or
  below 0; a checkpoint that is not a record) is left out with a warning, as a checkpoint whose checksum does not
  match is: check warns and says good, the view and the app show the fight of the events.  The whole file was
  refused ("line N: a damaged checkpoint").
- A checkpoint line with another field on it (it may be an event line) is still refused by all of them.
- A checkpoint whose state does not decode was already a cache left out (check's note); kept so.
- A blank line before the last is refused in the same words by all ("a blank line (not a fight line)"; the loader
  said "not valid JSON (input length is 0 at column 1)"); a blank last line is dropped, said as a blank line.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import saves
from bench.fights import make_fight
from saves.checker import check
from saves.follow import BAD, Follower
from tests.reliability.support import reseal, run_cli
from tracker.model import FightState

pytestmark = pytest.mark.reliability

CHECKPOINT = b'{"checkpoint"'
LEFT_OUT = "a checkpoint (a copy of the state, kept for speed) is damaged"
BLANK = "a blank line (not a fight line)"


@pytest.fixture(scope="module")
def fight_lines(tmp_path_factory: pytest.TempPathFactory) -> list[bytes]:
    """The lines (no line ends) of a bnb fight long enough for checkpoints; its last line is one."""
    path = tmp_path_factory.mktemp("long") / "f.jsonl"
    make_fight("bnb", 1300, path, seed=4)
    lines = path.read_bytes().split(b"\n")[:-1]
    assert sum(line.startswith(CHECKPOINT) for line in lines) >= 3 and lines[-1].startswith(CHECKPOINT)
    return lines


@pytest.fixture(scope="module")
def events_state(fight_lines: list[bytes], tmp_path_factory: pytest.TempPathFactory) -> FightState:
    """The fight its events give, every checkpoint line taken out."""
    path = tmp_path_factory.mktemp("events") / "f.jsonl"
    write(path, [line for line in fight_lines if not line.startswith(CHECKPOINT)])
    return saves.load(path).fight().state


def write(path: Path, lines: list[bytes], end: bytes = b"\n") -> None:
    path.write_bytes(b"\n".join(lines) + end)


def checkpoints(lines: list[bytes]) -> list[int]:
    return [i for i, line in enumerate(lines) if line.startswith(CHECKPOINT)]


def reshaped(line: bytes, change: Callable[[dict[str, Any]], None]) -> bytes:
    record = json.loads(line)
    change(record)
    return reseal(record)


def _set_seq(value: Any) -> Callable[[dict[str, Any]], None]:
    def change(record: dict[str, Any]) -> None:
        record["checkpoint"]["seq"] = value

    return change


def _no_seq(record: dict[str, Any]) -> None:
    del record["checkpoint"]["seq"]


def _not_a_record(record: dict[str, Any]) -> None:
    record["checkpoint"] = [1, 2]


BAD_SHAPES: dict[str, Callable[[dict[str, Any]], None]] = {
    "seq-as-text": lambda record: _set_seq(str(record["checkpoint"]["seq"]))(record),
    "no-seq": _no_seq,
    "seq-true": _set_seq(True),
    "seq-below-0": _set_seq(-5),
    "not-a-record": _not_a_record,
}


def placed(fight_lines: list[bytes], where: str, change: Callable[[bytes], bytes]) -> tuple[list[bytes], int, bytes]:
    """The fight's lines with one checkpoint changed (a middle one, or the last line), its index, the line end."""
    lines = list(fight_lines)
    k = checkpoints(lines)[1] if where == "middle" else len(lines) - 1
    lines[k] = change(lines[k])
    return lines, k, b"" if where == "last-no-line-end" else b"\n"


# -- what each reader makes of a file ---------------------------------------------------------------


def by_loader(path: Path) -> tuple[str, Any, tuple[str, ...]]:
    try:
        loaded = saves.load(path)
    except saves.LoadError as e:
        return "refused", str(e), ()
    return "shown", loaded.fight().state, loaded.warnings


def by_check(path: Path) -> tuple[str, Any, tuple[str, ...]]:
    """``tracker check``'s verdict, in process: good (no problem, no checkpoint that disagrees) or refused."""
    try:
        report = check(path)
    except saves.LoadError as e:
        return "refused", str(e), ()
    assert report.good, (report.problems, report.checkpoints)
    return "shown", report.final, report.loaded.warnings


def by_view(path: Path) -> tuple[str, Any]:
    f = Follower(path)
    for _ in range(5):
        f.poll()
    if f.snapshot.fight is None:
        assert f.snapshot.status == BAD, f.snapshot
        return "refused", f.snapshot.problem
    assert f.snapshot.status == "", f.snapshot
    return "shown", f.snapshot.fight.state


def by_app(path: Path) -> tuple[str, Any, tuple[str, ...]]:
    """The fight the app opens (its checkpoint check settled), and every warning it gives the GM."""
    try:
        fight = saves.open_fight(path)
    except saves.LoadError as e:
        return "refused", str(e), ()
    try:
        warnings = list(fight.warnings)
        if fight.needs_check:
            result = fight.settle_check()
            assert result is not None and result.good, result
            warnings.extend(result.warnings)
        return "shown", fight.state, tuple(warnings)
    finally:
        fight.close()


# -- a sealed checkpoint of a bad shape: a damaged cache, left out ------------------------------------


@pytest.mark.parametrize("shape", sorted(BAD_SHAPES))
@pytest.mark.parametrize("where", ["middle", "last", "last-no-line-end"])
def test_a_sealed_checkpoint_of_a_bad_shape_is_left_out_by_every_reader(
    shape: str, where: str, fight_lines: list[bytes], events_state: FightState, tmp_path: Path
) -> None:
    """Its checksum good, alone on its line, its shape not a checkpoint's: left out with a warning at its line, as
    one whose checksum does not match is (the last line without its line end: dropped as the end of a torn write,
    as such a one is there, and set aside by the app's repair); every reader shows the fight of the events.  Check,
    replay, the app and (since f8) the view refused the whole file ("line N: a damaged checkpoint")."""
    path = tmp_path / "f.jsonl"
    lines, k, end = placed(fight_lines, where, lambda line: reshaped(line, BAD_SHAPES[shape]))
    write(path, lines, end)
    if where == "last-no-line-end":
        warning = f"line {k + 1}, the last, was cut off (the last write did not finish"
    else:
        warning = f"line {k + 1}: {LEFT_OUT} ("

    how, state, warnings = by_loader(path)
    assert how == "shown", state
    assert state == events_state
    assert sum(w.startswith(warning) for w in warnings) == 1, warnings
    assert saves.load(path).torn == (where == "last-no-line-end")
    assert by_check(path) == ("shown", events_state, warnings)
    assert by_view(path) == ("shown", events_state)
    how, state, said = by_app(path)
    assert how == "shown" and state == events_state, state
    assert any(warning in w for w in said), said
    assert by_loader(path) == ("shown", events_state, tuple(w for w in warnings if where != "last-no-line-end"))


@pytest.mark.parametrize("where", ["middle", "last", "last-no-line-end"])
def test_a_bad_shape_is_handled_as_a_checksum_damaged_checkpoint_is(
    where: str, fight_lines: list[bytes], tmp_path: Path
) -> None:
    """Each reader gives the same fight, and the same warnings but for the reason, for a checkpoint of a bad shape
    as for the same checkpoint with its checksum off: the app opens both by folding the events, or both from the
    same good checkpoint, or repairs both alike; the file is left alike."""

    def checksum_off(line: bytes) -> bytes:
        return line[:-3] + (b"1" if line[-3:-2] != b"1" else b"2") + line[-2:]

    def same(words: tuple[str, ...], name: str) -> tuple[str, ...]:
        words = tuple(re.sub(r"The [0-9,]+ bytes", "The bytes", w.replace(" (it has no seq)", "")) for w in words)
        return tuple(re.sub(rf"{name}(\.torn-\S+)?", "FILE", w) for w in words)

    outcomes = []
    for change in (checksum_off, lambda line: reshaped(line, _no_seq)):
        folder = tmp_path / str(len(outcomes))
        folder.mkdir()
        path = folder / "f.jsonl"
        lines, _k, end = placed(fight_lines, where, change)
        write(path, lines, end)
        loader, checked, view, app = by_loader(path), by_check(path), by_view(path), by_app(path)
        said = [same(out[2], path.name) for out in (loader, checked, app)]
        left = [line for line in path.read_bytes().split(b"\n") if not line.startswith(CHECKPOINT)]
        outcomes.append((said, [out[:2] for out in (loader, checked, view, app)], left))
    assert outcomes[0] == outcomes[1]


def test_check_says_a_checkpoint_of_a_bad_shape_as_a_warning_and_good(fight_lines: list[bytes], tmp_path: Path) -> None:
    """``tracker check`` (a process of its own): a warning naming the line, "good", exit 0; replay and export work.
    It said "damaged at line N", exit 1, and replay and export refused the file."""
    path = tmp_path / "f.jsonl"
    lines, k, end = placed(fight_lines, "middle", lambda line: reshaped(line, BAD_SHAPES["seq-as-text"]))
    write(path, lines, end)
    done = run_cli("check", str(path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"warning: line {k + 1}: {LEFT_OUT} (its seq is not a whole number" in done.stdout, done.stdout
    assert f"{path}: good" in done.stdout, done.stdout
    for args in (("replay", "--text"), ("export",)):
        done = run_cli(*args, str(path))
        assert done.returncode == 0, done.stdout + done.stderr


# -- another field on a checkpoint's line: it may be an event, still refused ---------------------------


@pytest.mark.parametrize("where", ["middle", "last", "last-no-line-end"])
def test_a_checkpoint_line_with_another_field_is_still_refused_by_every_reader(
    where: str, fight_lines: list[bytes], tmp_path: Path
) -> None:
    """A line holding a checkpoint and something besides may be an event's: leaving it out could lose an event, so
    every reader refuses the file at its line, in the same words."""

    def another_field(record: dict[str, Any]) -> None:
        record["note"] = "hand-edited"

    path = tmp_path / "f.jsonl"
    lines, k, end = placed(fight_lines, where, lambda line: reshaped(line, another_field))
    write(path, lines, end)
    words = f"line {k + 1}: a damaged checkpoint"
    before = path.read_bytes()
    assert by_loader(path) == ("refused", words, ())
    assert by_check(path) == ("refused", words, ())
    assert by_view(path) == ("refused", words)
    assert by_app(path) == ("refused", words, ())
    assert path.read_bytes() == before


# -- a state that does not decode: a cache left out already (kept so) ---------------------------------


@pytest.mark.parametrize("where", ["middle", "last"])
@pytest.mark.parametrize("state", ["a-number", "unknown-field"])
def test_a_checkpoint_whose_state_does_not_decode_is_left_out_by_every_reader(
    state: str, where: str, fight_lines: list[bytes], events_state: FightState, tmp_path: Path
) -> None:
    """(Kept as it was.) Its seq good, its state not this version's: the loader takes the line (it does not decode
    states), check notes it as a cache of another shape (as the last; one a good checkpoint follows is not read
    again) and says good, the app folds the events, the view shows them."""

    def change(record: dict[str, Any]) -> None:
        if state == "a-number":
            record["checkpoint"]["state"] = 5
        else:
            record["checkpoint"]["state"]["bogus"] = 1

    path = tmp_path / "f.jsonl"
    lines, k, end = placed(fight_lines, where, lambda line: reshaped(line, change))
    write(path, lines, end)
    assert by_loader(path)[:2] == ("shown", events_state)
    report = check(path)
    assert report.good and report.final == events_state, (report.problems, report.checkpoints)
    if where == "last":
        assert any(s.startswith(f"line {k + 1}: the checkpoint") and "left out" in s for s in report.stale), report
    else:  # (a good checkpoint after it replaces it: it is not read again, and nothing is said)
        assert report.stale == (), report.stale
    assert by_view(path) == ("shown", events_state)
    assert by_app(path)[:2] == ("shown", events_state)


# -- a blank line ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("blank", [b"", b"  ", b"\t", b"\r"], ids=["empty", "spaces", "tab", "cr"])
def test_a_blank_line_is_said_in_the_same_words_by_every_reader(
    blank: bytes, fight_lines: list[bytes], tmp_path: Path
) -> None:
    """A blank line between two events: refused at its line by all, in the view's words; the loader (so check,
    replay, export and the app) said "not valid JSON (input length is 0 at column 1)"."""
    path = tmp_path / "f.jsonl"
    lines = list(fight_lines)
    k = 40
    assert not lines[k].startswith(CHECKPOINT) and not lines[k - 1].startswith(CHECKPOINT)
    lines.insert(k, blank)
    write(path, lines)
    words = f"line {k + 1}: {BLANK}"
    assert by_loader(path) == ("refused", words, ())
    assert by_check(path) == ("refused", words, ())
    assert by_view(path) == ("refused", words)
    assert by_app(path) == ("refused", words, ())


def test_check_says_a_blank_line_in_the_same_words(fight_lines: list[bytes], tmp_path: Path) -> None:
    """``tracker check`` (a process of its own) names the line and says it is blank; exit 1."""
    path = tmp_path / "f.jsonl"
    lines = list(fight_lines)
    lines.insert(40, b"")
    write(path, lines)
    done = run_cli("check", str(path))
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"line 41: {BLANK}" in done.stderr and "damaged at line 41" in done.stdout, done.stdout + done.stderr
    assert "not valid JSON" not in done.stdout + done.stderr


def test_a_blank_last_line_is_dropped_and_said_as_a_blank_line(
    fight_lines: list[bytes], events_state: FightState, tmp_path: Path
) -> None:
    """The file ends with an empty line (a line end too many): dropped as a damaged last line, as before, its reason
    said as a blank line (it said "it has no checksum"); the view and the app show the same fight."""
    path = tmp_path / "f.jsonl"
    write(path, [*fight_lines, b""])
    loaded = saves.load(path)
    assert loaded.torn
    last = f"line {len(fight_lines) + 1}, the last, is damaged (it is {BLANK})"
    assert any(w.startswith(last) for w in loaded.warnings), loaded.warnings
    state = loaded.fight().state
    assert state == events_state
    assert by_view(path) == ("shown", state)
    assert by_app(path)[:2] == ("shown", state)
