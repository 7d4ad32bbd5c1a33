"""saves.follow: a damaged header, and a newer version's last line, said as the loader and the app say them."""

from __future__ import annotations

import json
import zlib
from pathlib import Path

import pytest

import saves
from saves.follow import BAD, Follower
from saves.format import FORMAT_VERSION, NewerVersion
from saves.loading import damaged_words
from tracker import commands as C


def toy(path: Path) -> None:
    fight = saves.new_fight("toy", path, seed=5)
    fight.do(C.AddCombatant(name="Dusty", kind="pc", sheet={"hp": 12}))
    fight.do(C.AddCombatant(name="Zed", kind="pc", sheet={"hp": 8}))
    fight.close()


def sealed(record: dict[str, object]) -> bytes:
    """A line as the tracker seals it: its checksum good."""
    body = json.dumps(record, separators=(",", ":"), ensure_ascii=False).encode()
    return body[:-1] + b',"crc":"%08x"}' % zlib.crc32(body)


def resealed(line: bytes, **changes: object) -> bytes:
    record = json.loads(line)
    record.pop("crc")
    record.update(changes)
    return sealed(record)


def load_error(path: Path) -> saves.LoadError:
    with pytest.raises(saves.LoadError) as caught:
        saves.loading.load(path)
    return caught.value


@pytest.mark.parametrize("version", ["2", 1.5, None, True, -1, "newer"])
def test_a_header_format_that_is_no_version_is_damage_said_as_the_loader_says_it(
    tmp_path: Path, version: object
) -> None:
    """A ``format`` that is not a whole number is a damaged header (as check says: "the header has no format
    version"), never "saved by a newer tracker (format 2)"."""
    path = tmp_path / "f.jsonl"
    toy(path)
    lines = path.read_bytes().split(b"\n")
    lines[0] = resealed(lines[0], format=version)
    path.write_bytes(b"\n".join(lines))
    f = Follower(path)
    f.poll()
    assert f.snapshot.status == BAD and f.snapshot.fight is None
    assert "newer" not in f.snapshot.problem
    assert f.snapshot.problem == str(load_error(path))


def test_a_header_of_a_newer_format_is_still_newer(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    toy(path)
    lines = path.read_bytes().split(b"\n")
    lines[0] = resealed(lines[0], format=FORMAT_VERSION + 1)
    path.write_bytes(b"\n".join(lines))
    f = Follower(path)
    f.poll()
    assert f.snapshot.status == BAD
    assert (
        f.snapshot.problem
        == f"f.jsonl was saved by a newer tracker (format {FORMAT_VERSION + 1}): upgrade the tracker to show it"
    )


def newer_last(path: Path) -> bytes:
    """The file with its last line made an event this version does not know (whole, sealed); the line."""
    toy(path)
    lines = path.read_bytes().split(b"\n")[:-1]
    lines[-1] = resealed(lines[-1], type="nosuch.thing")
    path.write_bytes(b"\n".join(lines) + b"\n")
    return lines[-1]


def test_a_newer_versions_last_line_is_said_not_dropped(tmp_path: Path) -> None:
    """Check and the app refuse the file as saved by a newer version; the view said nothing and showed the fight
    one action behind (the line taken for a torn one)."""
    path = tmp_path / "f.jsonl"
    newer_last(path)
    e = load_error(path)
    assert isinstance(e, NewerVersion)
    f = Follower(path)
    f.poll()
    assert f.snapshot.status == BAD and f.snapshot.fight is None
    assert f.snapshot.problem == damaged_words(path, e)
    assert "saved by a newer version" in f.snapshot.problem and "nosuch.thing" in f.snapshot.problem


def test_a_newer_versions_line_appended_while_followed_is_said(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    toy(path)
    f = Follower(path)
    f.poll()
    assert f.snapshot.fight is not None and [c.name for c in f.snapshot.fight.state.combatants] == ["Dusty", "Zed"]
    last = path.read_bytes().split(b"\n")[-2]
    record = json.loads(last)
    with open(path, "ab") as out:
        out.write(resealed(last, type="nosuch.thing", seq=record["seq"] + 1, action=record["action"] + 1) + b"\n")
    f.poll()
    assert f.snapshot.status == BAD and "saved by a newer version" in f.snapshot.problem
    assert f.snapshot.problem == damaged_words(path, load_error(path))


def test_a_newer_versions_last_line_without_its_line_end_is_said(tmp_path: Path) -> None:
    """Whole (its checksum good) though its line end is not there: no line being written, a newer one."""
    path = tmp_path / "f.jsonl"
    newer_last(path)
    path.write_bytes(path.read_bytes()[:-1])
    f = Follower(path)
    f.poll()
    assert f.snapshot.status == BAD and "saved by a newer version" in f.snapshot.problem


def test_a_torn_last_line_is_still_waited_for(tmp_path: Path) -> None:
    """A line half written (no line end, its checksum not there yet) is waited for as before, even one of an
    event this version does not know: the fight is shown without it."""
    path = tmp_path / "f.jsonl"
    line = newer_last(path)
    data = path.read_bytes()
    path.write_bytes(data[: -len(line) - 1] + line[:-20])
    f = Follower(path)
    f.poll()
    assert f.snapshot.status == "" and f.snapshot.fight is not None
    assert [c.name for c in f.snapshot.fight.state.combatants] == ["Dusty"]


def test_a_damaged_whole_last_line_is_still_dropped(tmp_path: Path) -> None:
    """A whole last line whose checksum does not match is dropped as the loader drops it (as before)."""
    path = tmp_path / "f.jsonl"
    toy(path)
    data = path.read_bytes()
    digit = b"1" if data[-5:-4] == b"0" else b"0"
    path.write_bytes(data[:-5] + digit + data[-4:])  # a checksum digit changed
    f = Follower(path)
    f.poll()
    assert f.snapshot.status == "" and f.snapshot.fight is not None
    assert [c.name for c in f.snapshot.fight.state.combatants] == ["Dusty"]
