"""The players' view (saves.follow) and the loader agree about the end of a file (audit t4, finding 2).

A whole, sealed last line whose content does not decode is refused by the loader at its line; the view dropped it as
a torn write and showed the fight an action behind with no word.  A line missing inside the last, unfinished action
is refused by the loader ("a line is missing before it"); the view waited for it for ever, an action behind.  A torn
last write (a line half written, a checksum that does not match) is still waited on.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import saves
from bench.fights import make_fight
from saves.follow import BAD, Follower
from tests.reliability.support import reseal, run_cli

pytestmark = pytest.mark.reliability


def ends_with_a_long_action(path: Path) -> list[bytes]:
    """A bnb fight cut after an action of three events or more (no checkpoint lines); its lines, no line ends."""
    make_fight("bnb", 60, path, seed=4)
    lines = [line for line in path.read_bytes().split(b"\n")[:-1] if not line.startswith(b'{"checkpoint"')]
    last = max(i for i in range(1, len(lines)) if json.loads(lines[i]).get("of", 1) >= 3 and i + 3 <= len(lines))
    first = next(i for i in range(1, last + 1) if json.loads(lines[i])["action"] == json.loads(lines[last])["action"])
    lines = lines[: first + json.loads(lines[first])["of"]]
    path.write_bytes(b"\n".join(lines) + b"\n")
    return lines


def first_of_last_action(lines: list[bytes]) -> int:
    action = json.loads(lines[-1])["action"]
    return next(i for i in range(1, len(lines)) if json.loads(lines[i])["action"] == action)


def write(path: Path, lines: list[bytes], end: bytes = b"\n") -> None:
    path.write_bytes(b"\n".join(lines) + end)


def loader_refuses(path: Path) -> saves.LoadError:
    with pytest.raises(saves.LoadError) as caught:
        saves.load(path)
    return caught.value


def followed(path: Path, follower: Follower | None = None) -> Follower:
    f = follower or Follower(path)
    for _ in range(5):
        f.poll()
    return f


def edited(line: bytes, **changes: object) -> bytes:
    record = json.loads(line)
    record.update(changes)
    return reseal(record)


@pytest.mark.parametrize(
    "change", [{"v": 0}, {"type": 7}, {"event": {"nonsense": 1}}], ids=["version-0", "type-not-text", "bad-event"]
)
@pytest.mark.parametrize("end", [b"\n", b""], ids=["line-end", "no-line-end"])
def test_a_sealed_last_line_that_does_not_decode_is_damage_said_at_its_line(
    change: dict[str, object], end: bytes, tmp_path: Path
) -> None:
    """Whole, its checksum good, its content refused: the loader (and check) say "damaged at line N"; the view
    showed the fight without that action, as if it were a torn write."""
    path = tmp_path / "f.jsonl"
    lines = ends_with_a_long_action(path)
    lines[-1] = edited(lines[-1], **change)
    write(path, lines, end)
    e = loader_refuses(path)
    assert e.line == len(lines)
    done = run_cli("check", str(path))
    assert done.returncode == 1 and f"damaged at line {len(lines)}" in done.stdout, done.stdout + done.stderr
    f = followed(path)
    assert f.snapshot.status == BAD and f.snapshot.fight is None, f.snapshot
    assert f.snapshot.problem == str(e)
    assert f.snapshot.problem.startswith(f"line {len(lines)}: ")


def test_a_sealed_line_that_does_not_decode_appended_while_followed_is_said(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    lines = ends_with_a_long_action(path)
    write(path, lines[:-1])
    f = followed(path)
    assert f.snapshot.status == "" and f.snapshot.fight is not None
    with open(path, "ab") as out:
        out.write(edited(lines[-1], v=0) + b"\n")
    followed(path, f)
    assert f.snapshot.status == BAD and f.snapshot.problem == str(loader_refuses(path)), f.snapshot


@pytest.mark.parametrize("which", [0, 1], ids=["first-of-the-action", "inside-the-action"])
def test_a_line_missing_inside_the_last_unfinished_action_is_damage_said_at_its_line(
    which: int, tmp_path: Path
) -> None:
    """The loader refuses the seq gap ("a line is missing before it"); the view waited for ever, an action behind."""
    path = tmp_path / "f.jsonl"
    lines = ends_with_a_long_action(path)
    first = first_of_last_action(lines)
    del lines[first + which]
    write(path, lines)
    e = loader_refuses(path)
    assert "a line is missing before it" in str(e) and e.line == first + which + 1
    f = followed(path)
    assert f.snapshot.status == BAD and f.snapshot.fight is None, f.snapshot
    assert f.snapshot.problem == str(e)


def test_a_line_missing_from_an_action_being_written_is_said_once_the_next_line_comes(tmp_path: Path) -> None:
    """Followed as the GM's app writes it: the first line of an action is waited on; a line after a gap is damage."""
    path = tmp_path / "f.jsonl"
    lines = ends_with_a_long_action(path)
    first = first_of_last_action(lines)
    write(path, lines[: first + 1])
    f = followed(path)
    assert f.snapshot.status == "" and f.snapshot.fight is not None
    with open(path, "ab") as out:
        out.write(lines[first + 2] + b"\n")  # its second line never came
    followed(path, f)
    assert f.snapshot.status == BAD and f.snapshot.problem == str(loader_refuses(path)), f.snapshot
    assert f"line {first + 2}: a line is missing before it" in f.snapshot.problem


def test_an_action_written_line_by_line_is_waited_for_and_then_shown(tmp_path: Path) -> None:
    """No false alarm: the lines of an action coming one at a time, each written whole or in two halves."""
    path = tmp_path / "f.jsonl"
    lines = ends_with_a_long_action(path)
    first = first_of_last_action(lines)
    write(path, lines[:first])
    f = followed(path)
    assert f.snapshot.fight is not None
    before = len(f.snapshot.fight.log)
    for line in lines[first:]:
        with open(path, "ab") as out:
            out.write(line[: len(line) // 2])
        followed(path, f)
        assert f.snapshot.status == "" and len(f.snapshot.fight.log) == before, f.snapshot
        with open(path, "ab") as out:
            out.write(line[len(line) // 2 :] + b"\n")
        followed(path, f)
        assert f.snapshot.status == "", f.snapshot
    assert f.snapshot.fight is not None and len(f.snapshot.fight.log) == len(saves.load(path).entries)
    assert len(f.snapshot.fight.log) == before + len(lines) - first


@pytest.mark.parametrize("torn", ["half-a-line", "checksum-off", "not-json"])
def test_a_torn_last_write_is_still_waited_on_as_the_loader_drops_it(torn: str, tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    lines = ends_with_a_long_action(path)
    last = lines[-1]
    if torn == "half-a-line":
        write(path, [*lines[:-1], last[:-20]], b"")
    elif torn == "checksum-off":
        digit = b"1" if last[-3:-2] == b"0" else b"0"
        write(path, [*lines[:-1], last[:-3] + digit + last[-2:]])
    else:
        write(path, [*lines[:-1], b'{"seq":' + last[7:40]])
    loaded = saves.load(path)
    assert loaded.torn
    f = followed(path)
    assert f.snapshot.status == "" and f.snapshot.fight is not None, f.snapshot
    assert len(f.snapshot.fight.log) == len(loaded.entries)
    assert f.snapshot.fight.state == loaded.fight().state


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


def test_the_view_and_the_loader_agree_on_each_line_deleted_or_resealed_undecodable(tmp_path: Path) -> None:
    """Every line of a short fight in turn deleted, or given a version no tracker wrote (its checksum made anew):
    the view shows what the loader shows, and refuses in the loader's words what it refuses."""
    path = tmp_path / "f.jsonl"
    lines = ends_with_a_long_action(tmp_path / "base.jsonl")
    tried = 0
    for k in range(1, len(lines)):
        for mutated in ([*lines[:k], *lines[k + 1 :]], [*lines[:k], edited(lines[k], v=0), *lines[k + 1 :]]):
            write(path, mutated)
            assert outcome_followed(path) == outcome_loaded(path), k
            tried += 1
    assert tried == 2 * (len(lines) - 1)


@pytest.mark.parametrize("where", ["last-action", "an-earlier-action"])
def test_an_event_out_of_sequence_is_named_at_the_line_the_loader_names(where: str, tmp_path: Path) -> None:
    """An event's seq raised by one inside a whole action (its checksum made anew): the loader (and check) name that
    line, "out of sequence"; the view named the next line, which holds the seq it was given."""
    path = tmp_path / "f.jsonl"
    lines = ends_with_a_long_action(path)
    first = first_of_last_action(lines)
    if where == "an-earlier-action":
        first = next(i for i in range(1, first) if json.loads(lines[i]).get("of", 1) >= 2)
    k = first + 1
    lines[k] = edited(lines[k], seq=json.loads(lines[k])["seq"] + 1)
    write(path, lines)
    e = loader_refuses(path)
    assert e.line == k + 1 and "out of sequence" in str(e), str(e)
    f = followed(path)
    assert f.snapshot.status == BAD and f.snapshot.fight is None, f.snapshot
    assert f.snapshot.problem == str(e)
