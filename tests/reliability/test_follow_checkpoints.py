"""The players' view (saves.follow) and the loader agree about checkpoint lines (the follow-up of audit t4 finding 2).

A checkpoint is a cache: one whose checksum does not match, or cut short with its line end, is left out by the
loader and the events stand; one cut short at the end of the file is a torn write, dropped (the view waits for the
rest).  A sealed checkpoint (its checksum good) alone on its line but of a bad shape is left out by both (f10: the
loader refused the file at its line, "a damaged checkpoint", and f8 made the view refuse it too); one with another
field on its line is refused by both at its line.  A checkpoint joined to the next line (its line end lost) is
refused in the middle of the file in the loader's words ("not valid JSON …"); the view said other words.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import saves
from bench.fights import make_fight
from saves.follow import BAD, Follower
from tests.reliability.support import reseal

pytestmark = pytest.mark.reliability

CHECKPOINT = b'{"checkpoint"'


@pytest.fixture(scope="module")
def fight_lines(tmp_path_factory: pytest.TempPathFactory) -> list[bytes]:
    """The lines (no line ends) of a bnb fight long enough for checkpoints; its last line is one."""
    path = tmp_path_factory.mktemp("long") / "f.jsonl"
    make_fight("bnb", 1300, path, seed=4)
    lines = path.read_bytes().split(b"\n")[:-1]
    assert sum(line.startswith(CHECKPOINT) for line in lines) >= 3 and lines[-1].startswith(CHECKPOINT)
    return lines


def checkpoints(lines: list[bytes]) -> list[int]:
    return [i for i, line in enumerate(lines) if line.startswith(CHECKPOINT)]


def write(path: Path, lines: list[bytes], end: bytes = b"\n") -> None:
    path.write_bytes(b"\n".join(lines) + end)


def followed(path: Path, follower: Follower | None = None) -> Follower:
    f = follower or Follower(path)
    for _ in range(5):
        f.poll()
    return f


def loader_refuses(path: Path) -> saves.LoadError:
    with pytest.raises(saves.LoadError) as caught:
        saves.load(path)
    return caught.value


def outcome_loaded(path: Path) -> tuple[str, object]:
    try:
        loaded = saves.load(path)
    except saves.LoadError as e:
        return "refused", str(e)
    return "shown", loaded.fight().state


def outcome_followed(path: Path) -> tuple[str, object]:
    f = followed(path)
    if f.snapshot.fight is None:
        return "refused", f.snapshot.problem
    return "shown", f.snapshot.fight.state


def _seq_as_text(record: dict[str, Any]) -> None:
    record["checkpoint"]["seq"] = str(record["checkpoint"]["seq"])


def _no_seq(record: dict[str, Any]) -> None:
    del record["checkpoint"]["seq"]


def _not_a_dict(record: dict[str, Any]) -> None:
    record["checkpoint"] = [1, 2]


def _another_field(record: dict[str, Any]) -> None:
    record["note"] = "hand-edited"


BAD_SHAPES: dict[str, Callable[[dict[str, Any]], None]] = {
    "seq-as-text": _seq_as_text,
    "no-seq": _no_seq,
    "not-a-dict": _not_a_dict,
    "another-field": _another_field,
}


def reshaped(line: bytes, change: Callable[[dict[str, Any]], None]) -> bytes:
    record = json.loads(line)
    change(record)
    return reseal(record)


def checksum_off(line: bytes) -> bytes:
    digit = b"1" if line[-3:-2] != b"1" else b"2"
    return line[:-3] + digit + line[-2:]


@pytest.mark.parametrize("shape", sorted(set(BAD_SHAPES) - {"another-field"}))
@pytest.mark.parametrize("where", ["middle", "last", "last-no-line-end"])
def test_a_sealed_checkpoint_of_a_bad_shape_is_left_out_as_the_loader_leaves_it_out(
    shape: str, where: str, fight_lines: list[bytes], tmp_path: Path
) -> None:
    """(Changed by f10: it was refused by both, "a damaged checkpoint".) Its checksum good, alone on its line, its
    shape not a checkpoint's: a damaged cache, left out by the loader with a warning (the last line without its line
    end: dropped as a torn write), and the view shows the loader's fight."""
    path = tmp_path / "f.jsonl"
    lines = list(fight_lines)
    k = checkpoints(lines)[1] if where == "middle" else len(lines) - 1
    lines[k] = reshaped(lines[k], BAD_SHAPES[shape])
    write(path, lines, b"" if where == "last-no-line-end" else b"\n")
    loaded = saves.load(path)
    assert any(w.startswith(f"line {k + 1}") for w in loaded.warnings), loaded.warnings
    f = followed(path)
    assert f.snapshot.status == "" and f.snapshot.fight is not None, f.snapshot
    assert f.snapshot.fight.state == loaded.fight().state


@pytest.mark.parametrize("where", ["middle", "last", "last-no-line-end"])
def test_a_checkpoint_line_with_another_field_is_refused_as_the_loader_refuses_it(
    where: str, fight_lines: list[bytes], tmp_path: Path
) -> None:
    """Its checksum good, a field beside the checkpoint on its line (it may be an event line): check, replay and the
    app refuse the file at its line ("a damaged checkpoint"), and so does the view, in the same words."""
    path = tmp_path / "f.jsonl"
    lines = list(fight_lines)
    k = checkpoints(lines)[1] if where == "middle" else len(lines) - 1
    lines[k] = reshaped(lines[k], _another_field)
    write(path, lines, b"" if where == "last-no-line-end" else b"\n")
    e = loader_refuses(path)
    assert e.line == k + 1 and str(e) == f"line {k + 1}: a damaged checkpoint", str(e)
    f = followed(path)
    assert f.snapshot.status == BAD and f.snapshot.fight is None, f.snapshot
    assert f.snapshot.problem == str(e)


def test_a_sealed_checkpoint_of_a_bad_shape_appended_while_followed_is_left_out(
    fight_lines: list[bytes], tmp_path: Path
) -> None:
    """(Changed by f10: it was refused by both.) Appended while the view follows the file: the same fight shown."""
    path = tmp_path / "f.jsonl"
    write(path, fight_lines[:-1])
    f = followed(path)
    assert f.snapshot.status == "" and f.snapshot.fight is not None, f.snapshot
    with open(path, "ab") as out:
        out.write(reshaped(fight_lines[-1], _seq_as_text) + b"\n")
    followed(path, f)
    assert f.snapshot.status == "" and f.snapshot.fight is not None, f.snapshot
    assert f.snapshot.fight.state == saves.load(path).fight().state


def test_a_checkpoint_line_with_another_field_appended_while_followed_is_refused(
    fight_lines: list[bytes], tmp_path: Path
) -> None:
    path = tmp_path / "f.jsonl"
    write(path, fight_lines[:-1])
    f = followed(path)
    assert f.snapshot.status == "" and f.snapshot.fight is not None, f.snapshot
    with open(path, "ab") as out:
        out.write(reshaped(fight_lines[-1], _another_field) + b"\n")
    followed(path, f)
    assert f.snapshot.status == BAD and f.snapshot.fight is None, f.snapshot
    assert f.snapshot.problem == str(loader_refuses(path)) == f"line {len(fight_lines)}: a damaged checkpoint"


def test_a_checkpoint_joined_to_the_next_line_is_said_in_the_loaders_words(
    fight_lines: list[bytes], tmp_path: Path
) -> None:
    """Its line end lost, the next event joined to it, lines after: refused at its line, as check says it ("not valid
    JSON (unexpected content after document …)"); the view said "its checksum does not match its content"."""
    path = tmp_path / "f.jsonl"
    lines = list(fight_lines)
    k = checkpoints(lines)[1]
    lines[k : k + 2] = [lines[k] + lines[k + 1]]
    write(path, lines)
    e = loader_refuses(path)
    assert e.line == k + 1 and "not valid JSON" in str(e), str(e)
    f = followed(path)
    assert f.snapshot.status == BAD and f.snapshot.problem == str(e), f.snapshot


@pytest.mark.parametrize("damage", ["checksum-off", "cut-short"])
@pytest.mark.parametrize("where", ["middle", "last"])
def test_a_checkpoint_that_does_not_read_is_left_out_and_the_fight_shown_as_the_loader_shows_it(
    damage: str, where: str, fight_lines: list[bytes], tmp_path: Path
) -> None:
    """(Kept as it was.) Its checksum wrong or cut short, its line end there: a damaged cache, left out; the events
    stand, and the view shows the loader's fight."""
    path = tmp_path / "f.jsonl"
    lines = list(fight_lines)
    k = checkpoints(lines)[1] if where == "middle" else len(lines) - 1
    lines[k] = checksum_off(lines[k]) if damage == "checksum-off" else lines[k][: len(lines[k]) // 2]
    write(path, lines)
    loaded = saves.load(path)
    assert not loaded.torn and any(w.startswith(f"line {k + 1}: a checkpoint") for w in loaded.warnings)
    f = followed(path)
    assert f.snapshot.status == "" and f.snapshot.fight is not None, f.snapshot
    assert f.snapshot.fight.state == loaded.fight().state


@pytest.mark.parametrize("damage", ["cut-short", "checksum-off"])
def test_a_checkpoint_torn_at_the_end_of_the_file_is_waited_on(
    damage: str, fight_lines: list[bytes], tmp_path: Path
) -> None:
    """(Kept as it was.) The file ends inside a checkpoint, no line end: a torn write, the loader drops it; the view
    shows the same fight, and once the rest comes, the same fight again, with no word."""
    path = tmp_path / "f.jsonl"
    last = fight_lines[-1]
    torn = last[: len(last) // 2] if damage == "cut-short" else checksum_off(last)
    write(path, [*fight_lines[:-1], torn], b"")
    loaded = saves.load(path)
    assert loaded.torn
    f = followed(path)
    assert f.snapshot.status == "" and f.snapshot.fight is not None, f.snapshot
    assert f.snapshot.fight.state == loaded.fight().state
    write(path, fight_lines)
    followed(path, f)
    assert f.snapshot.status == "" and f.snapshot.fight is not None, f.snapshot
    assert f.snapshot.fight.state == saves.load(path).fight().state


@pytest.mark.parametrize("end", [b"\n", b""], ids=["line-end", "no-line-end"])
def test_a_checkpoint_of_a_newer_version_is_shown_as_the_loader_shows_it(
    end: bytes, fight_lines: list[bytes], tmp_path: Path
) -> None:
    """(Kept as it was.) A checkpoint written by another version of the rules is a cache not read (the events stand):
    the loader takes the file, and the view shows the same fight."""
    path = tmp_path / "f.jsonl"
    lines = list(fight_lines)
    for k in checkpoints(lines):
        lines[k] = reshaped(lines[k], lambda record: record["checkpoint"].update(version="99.0"))
    write(path, lines, end)
    loaded = saves.load(path)
    f = followed(path)
    assert f.snapshot.status == "" and f.snapshot.fight is not None, f.snapshot
    assert f.snapshot.fight.state == loaded.fight().state


def test_the_view_and_the_loader_agree_on_each_checkpoint_damaged(fight_lines: list[bytes], tmp_path: Path) -> None:
    """Every checkpoint line in turn given a bad shape (sealed), its checksum off, cut short, deleted, joined to the
    next line, or the file ended inside it: the view shows what the loader shows, and refuses in its words what it
    refuses."""
    path = tmp_path / "f.jsonl"
    tried = 0
    for k in checkpoints(fight_lines):
        line = fight_lines[k]
        before, after = fight_lines[:k], fight_lines[k + 1 :]
        cases = [
            ([*before, reshaped(line, _no_seq), *after], b"\n"),
            ([*before, reshaped(line, _another_field), *after], b"\n"),
            ([*before, checksum_off(line), *after], b"\n"),
            ([*before, line[:100], *after], b"\n"),
            ([*before, *after], b"\n"),
            ([*before, line[:-30]], b""),
            ([*before, line], b""),
        ]
        if after:
            cases.append(([*before, line + after[0], *after[1:]], b"\n"))
        for mutated, end in cases:
            write(path, mutated, end)
            assert outcome_followed(path) == outcome_loaded(path), (k, tried)
            tried += 1
    assert tried == 8 * len(checkpoints(fight_lines)) - 1
