"""A line over the line cap (MAX_LINE) is refused at its line wherever it is, with or without its line end, and
whatever its length (ruling in saves/loading.py:_decode).  A whole last line just over the cap was dropped as a
damaged last line, one of 2 MB refused, by where the loader's reads fell (audit a14 fx6)."""

from __future__ import annotations

from pathlib import Path

import pytest

import saves
from saves.format import MAX_LINE
from tests.reliability.support import run_cli
from tests.view.test_follow_long_line import fight_file, long_line


@pytest.mark.parametrize("where", ["last", "middle", "unended"])
@pytest.mark.parametrize("size", [MAX_LINE + 50_000, MAX_LINE + 250_000, 2 * MAX_LINE, 5 * MAX_LINE])
def test_a_line_over_the_cap_is_refused_at_its_line(tmp_path: Path, where: str, size: int) -> None:
    path = tmp_path / "f.jsonl"
    lines = fight_file(path)
    body = path.read_bytes()
    line = long_line(path, size)
    if where == "middle":
        path.write_bytes(body + line + b"\n" + body.split(b"\n", 1)[1])
    else:
        path.write_bytes(body + line + (b"\n" if where == "last" else b""))
    with pytest.raises(saves.LoadError) as e:
        saves.loading.load(path)
    assert e.value.line == lines + 1
    assert str(e.value) == f"line {lines + 1}: the line is too long (over {MAX_LINE:,} bytes)"


def test_check_says_so(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    lines = fight_file(path)
    with path.open("ab") as out:
        out.write(long_line(path, MAX_LINE + 50_000) + b"\n")
    done = run_cli("check", str(path))
    assert done.returncode == 1 and f"line {lines + 1}: the line is too long" in done.stdout + done.stderr
