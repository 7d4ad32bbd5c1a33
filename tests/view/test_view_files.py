"""The players' view reads only what the loader would (issue #42, items 6, 7 and 8).

A FIFO, a device or a folder is refused at once, with a message that names it and says what to do
(``tracker table FIFO`` used to show a blank screen that ignored q and Ctrl+C; ``tracker serve FIFO`` never
served; ``/dev/zero`` said "Waiting for the fight file zero").  A file over the loader's cap is refused
before it is read, and a file is read a chunk at a time, line by line, so memory while refusing a bad file
stays within a small multiple of one read.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import saves
from bench.fights import make_fight
from saves import follow
from saves.follow import BAD, WAITING, Follower
from saves.format import MAX_FILE, MAX_LINE
from screens.table import TableApp
from tests.reliability.support import ROOT, figure, run_cli
from tests.view.helpers import screen_text
from tests.view.serving import free_port
from tracker import commands as C


def within(seconds: float, fn: Callable[[], Any]) -> Any:
    """``fn()`` in a thread of its own; fails if it has not returned after ``seconds`` (a read that blocks)."""
    out: list[Any] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            out.append(fn())
        except BaseException as e:
            errors.append(e)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still blocked after {seconds} s"
    if errors:
        raise errors[0]
    return out[0]


@pytest.fixture
def fifo(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "fight.jsonl"
    os.mkfifo(path)
    yield path
    with open(os.open(path, os.O_RDWR | os.O_NONBLOCK), "rb"):  # unblock any reader the test left behind
        pass


def not_files(fifo: Path) -> list[tuple[Path, str]]:
    return [(fifo, "named pipe"), (Path("/dev/zero"), "device"), (fifo.parent, "folder")]


def test_the_follower_refuses_what_is_not_a_regular_file_at_once(fifo: Path) -> None:
    for path, kind in not_files(fifo):
        f = Follower(path)
        snap = within(2, f.poll)
        assert snap is not None and snap.status == BAD and snap.fight is None
        assert f"{path.name} is a {kind}" in snap.problem and "not a fight file" in snap.problem
        assert ".jsonl" in snap.problem  # what to give instead
        assert "Waiting" not in snap.problem
        assert str(path.parent) not in snap.problem or path.parent == Path("/")  # no local path for viewers
        assert within(2, f.poll) is None  # said once, not at every poll


def test_a_file_replaced_by_a_fifo_is_refused_not_waited_on(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    fight = saves.new_fight("toy", path, seed=5)
    fight.do(C.AddCombatant(name="Dusty", kind="pc", sheet={"hp": 12}))
    fight.close()
    f = Follower(path)
    assert within(2, f.poll) is not None and f.snapshot.fight is not None
    path.unlink()
    os.mkfifo(path)
    try:
        snap = within(2, f.poll)
        assert snap is not None and snap.status == BAD and "named pipe" in snap.problem
    finally:
        with open(os.open(path, os.O_RDWR | os.O_NONBLOCK), "rb"):
            pass


@pytest.mark.parametrize("command", ["table", "serve", "replay", "export"])
def test_the_readers_refuse_a_fifo_a_device_and_a_folder_at_once(command: str, fifo: Path) -> None:
    for path, kind in not_files(fifo):
        extra = ["--port", str(free_port())] if command == "serve" else []
        start = time.monotonic()
        done = run_cli(command, str(path), *extra, timeout=20)
        took = time.monotonic() - start
        figure(f"tracker {command} on a {kind}", seconds=round(took, 2))
        assert done.returncode == 1, done.stdout + done.stderr
        assert path.name in done.stderr and "not a fight file" in done.stderr
        if command in ("table", "serve"):  # the players' view says what the path is
            assert f"{path} is a {kind}" in done.stderr
        assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1
        assert took < 10  # the interpreter's start on a busy machine; the refusal itself is one stat


def test_the_players_view_shows_the_problem_and_quits_on_q(fifo: Path) -> None:
    async def run() -> tuple[str, bool]:
        app = TableApp(fifo)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            text = screen_text(app)
            await pilot.press("q")
            await pilot.pause()
            return text, app.is_running

    text, running = within(30, lambda: asyncio.run(run()))
    assert "fight.jsonl is a named pipe (FIFO), not a fight file" in " ".join(text.split())
    assert not running


# -- size: the loader's cap, and memory bounded while refusing ------------------------------------------------


def _header(tmp_path: Path) -> bytes:
    path = tmp_path / "h.jsonl"
    saves.new_fight("bnb", path, seed=1).close()
    return path.read_bytes().split(b"\n")[0] + b"\n"


def peak_memory(path: Path) -> tuple[str, int]:
    """The problem a fresh process's follower reports for ``path``, and the growth of its peak memory (bytes)."""
    code = (
        "import resource, sys\n"
        "from saves.follow import Follower\n"
        "f = Follower(sys.argv[1])\n"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "f.poll()\n"
        "after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "print((after - before) * 1024)\n"
        "print(f.snapshot.status, f.snapshot.problem)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr
    grew, problem = done.stdout.split("\n", 1)
    return problem.strip(), int(grew)


def test_a_file_over_the_loaders_cap_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "huge.jsonl"
    with open(path, "wb") as f:
        f.write(_header(tmp_path))
        f.truncate(MAX_FILE + (1 << 29))  # 1.5 GiB, sparse: nothing to read but zeros
    problem, grew = peak_memory(path)
    figure("players' view on a 1.5 GiB file", peak_growth_mb=round(grew / 2**20, 1))
    assert problem.startswith("bad huge.jsonl is too big for a fight file")
    assert grew < 16 << 20
    start = time.monotonic()
    done = run_cli("table", str(path), timeout=20)
    assert done.returncode == 1 and f"{path} is too big for a fight file" in done.stderr
    assert time.monotonic() - start < 10


def test_a_100_mb_file_of_short_lines_is_refused_with_bounded_memory(tmp_path: Path) -> None:
    path = tmp_path / "short.jsonl"
    with open(path, "wb") as f:
        f.write(_header(tmp_path))
        f.write(b"ab\n" * (100 * 2**20 // 3))
    problem, grew = peak_memory(path)
    figure("players' view on 100 MB of 3-byte lines", peak_growth_mb=round(grew / 2**20, 1))
    assert problem.startswith("bad line 2:")
    assert grew < 4 * follow.READ_CHUNK + (16 << 20)  # a small multiple of one read, never the file


def test_a_line_over_the_line_cap_is_refused_with_bounded_memory(tmp_path: Path) -> None:
    path = tmp_path / "long.jsonl"
    with open(path, "wb") as f:
        f.write(_header(tmp_path))
        f.write(b"x" * (60 * 2**20))  # no line end: a line far past MAX_LINE
    problem, grew = peak_memory(path)
    figure("players' view on a 60 MB line", peak_growth_mb=round(grew / 2**20, 1))
    assert problem == "bad line 2: the line is too long"
    assert grew < 4 * follow.READ_CHUNK + (16 << 20)


def test_a_big_fight_is_read_over_several_polls_and_shown_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "big.jsonl"
    fight = make_fight("bnb", 1500, path, seed=2, close=False)
    longest = max(len(line) for line in path.read_bytes().split(b"\n"))
    assert longest < MAX_LINE
    monkeypatch.setattr(follow, "READ_CHUNK", 2 * longest)  # many reads, lines cut across them
    monkeypatch.setattr(follow, "POLL_READ", 6 * longest)  # many polls
    f = Follower(path)
    reading = 0
    for _ in range(10_000):
        snap = f.poll()
        if snap is not None and snap.status == "":
            break
        if snap is not None:
            assert snap.status == WAITING and snap.fight is None and "Reading big.jsonl" in snap.problem
            reading += 1
    assert reading > 2
    assert f.snapshot.fight is not None and f.snapshot.fight.state == fight.state
    fight.do(C.Note(text="one more"))  # followed on from there
    snap = f.poll()
    assert snap is not None and snap.fight is not None and snap.fight.state == fight.state
    fight.close()
    assert f.snapshot.fight.state == saves.load(path).fight().state
