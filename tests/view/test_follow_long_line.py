"""saves.follow: a line over the line cap (MAX_LINE), judged as the loader judges it (rulings in saves/follow.py:
``Follower._over_the_cap`` for a whole line, ``TOO_LONG`` for one still without its line end).

The players' view dropped a whole last line over the cap as a torn write and showed the fight as live and good,
while ``tracker check`` refused the file at that line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import saves
from saves.follow import BAD, READ_CHUNK, TOO_LONG, Follower
from saves.format import MAX_LINE
from tests.reliability.support import run_cli
from tests.view.helpers import add_pc, new
from tests.view.test_follow_damaged import load_error, sealed


def fight_file(path: Path) -> int:
    """A small fight (an installed system's: ``tracker check`` reads it in a process of its own); its lines."""
    fight = new("bnb", path)
    add_pc(fight, "Dusty")
    add_pc(fight, "Zed")
    fight.close()
    return path.read_bytes().count(b"\n")


def long_line(path: Path, size: int) -> bytes:
    """A sealed event line of about ``size`` bytes (the fight's last event, with a long field added), no line end."""
    last = json.loads(path.read_bytes().rstrip(b"\n").rsplit(b"\n", 1)[-1])
    last.pop("crc")
    last["pad"] = "x" * size
    return sealed(last)


def followed(path: Path) -> Follower:
    f = Follower(path)
    for _ in range(3):
        f.poll()
    return f


def test_a_whole_last_line_over_the_cap_is_damage_said_at_its_line(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    lines = fight_file(path)
    with path.open("ab") as out:
        out.write(long_line(path, 2 * MAX_LINE) + b"\n")
    f = followed(path)
    assert f.snapshot.status == BAD and f.snapshot.fight is None, f.snapshot
    error = load_error(path)
    assert error.line == lines + 1
    assert f.snapshot.problem == str(error)
    assert f.snapshot.problem.startswith(f"line {lines + 1}: the line is too long")
    done = run_cli("check", str(path))  # the words check prints
    assert done.returncode == 1 and f"tracker: {f.snapshot.problem}" in done.stderr, done.stderr


@pytest.mark.parametrize("where", ["last", "middle", "unended"])
@pytest.mark.parametrize("size", [MAX_LINE + 50_000, MAX_LINE + 250_000, 2 * MAX_LINE, 5 * MAX_LINE])
def test_a_line_over_the_cap_is_judged_as_the_loader_judges_it(tmp_path: Path, where: str, size: int) -> None:
    """Whatever the loader does with the line (refuses the file at it, or drops it as a damaged last line, as
    it does with some just over the cap), the view does the same, in the same words (the start of them for a
    line longer than one read of the view: see ``TOO_LONG``)."""
    path = tmp_path / "f.jsonl"
    fight_file(path)
    body = path.read_bytes()
    line = long_line(path, size)
    if where == "middle":  # the fight's lines again after it (damage in the middle, whatever they are)
        path.write_bytes(body + line + b"\n" + body.split(b"\n", 1)[1])
    else:
        path.write_bytes(body + line + (b"\n" if where == "last" else b""))
    f = followed(path)
    try:
        loaded = saves.loading.load(path)
    except saves.LoadError as e:
        assert f.snapshot.status == BAD and f.snapshot.fight is None, (str(e), f.snapshot)
        if where == "unended" or len(line) >= READ_CHUNK:
            assert f.snapshot.problem == f"line {e.line}: {TOO_LONG}"
            assert str(e).startswith(f.snapshot.problem)
        else:
            assert f.snapshot.problem == str(e)
    else:
        assert where == "last"  # (the loader drops only a whole last line: check it did)
        assert loaded.torn and "is damaged (it is too long)" in " ".join(loaded.warnings)
        assert f.snapshot.status == "" and f.snapshot.fight is not None, f.snapshot
        assert len(f.snapshot.fight.log) == len(loaded.entries)


def test_a_line_over_the_cap_appended_while_followed_is_damage_said_at_its_line(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    lines = fight_file(path)
    f = followed(path)
    assert f.snapshot.status == "" and f.snapshot.fight is not None
    with path.open("ab") as out:
        out.write(long_line(path, 2 * MAX_LINE) + b"\n")
    for _ in range(3):
        f.poll()
    assert f.snapshot.status == BAD and f.snapshot.fight is None, f.snapshot
    assert f.snapshot.problem == str(load_error(path))
    assert f.snapshot.problem.startswith(f"line {lines + 1}: the line is too long")


def test_a_line_over_the_cap_still_without_its_end_is_refused_not_waited_for(tmp_path: Path) -> None:
    """A line over the cap is no torn write of the app (none is that long): refused at its line as the loader
    refuses it, and its line end coming later changes nothing: judged as the loader judges the file then."""
    path = tmp_path / "f.jsonl"
    lines = fight_file(path)
    f = followed(path)
    assert f.snapshot.fight is not None
    line = long_line(path, 2 * MAX_LINE)
    with path.open("ab") as out:
        out.write(line)
    for _ in range(3):
        f.poll()
    assert f.snapshot.status == BAD and f.snapshot.problem == f"line {lines + 1}: {TOO_LONG}", f.snapshot
    assert load_error(path).line == lines + 1
    with path.open("ab") as out:
        out.write(b"\n")
    for _ in range(3):
        f.poll()
    assert f.snapshot.status == BAD and f.snapshot.problem == str(load_error(path)), f.snapshot
