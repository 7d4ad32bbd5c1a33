"""tracker serve: the page, what the server sends, no writing path, and no process left behind."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest

from screens.serve import ServeError, Serving, public_url_for, start_serving
from tests.view.serving import alive, browse, cpu_ticks, descendants, env, fight_file, free_port, tracker_serve

KEYS = ("q", "n", "u", "x", "+", "=", "\r", "\x10", "\x13", "\x11", "\x03", "\x1b", "t", "l", "\x7f")


def test_serve_page(tmp_path: Path) -> None:
    path, _ = fight_file(tmp_path)
    port = free_port()
    with tracker_serve(path, port) as proc:
        page = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10).read().decode()
        assert "Saloon brawl" in page  # the page's title is the fight's name
        assert str(tmp_path) not in page and "brawl.jsonl" not in page and "screens" not in page
        assert f"ws://127.0.0.1:{port}/ws" in page
        proc.send_signal(signal.SIGINT)  # Ctrl+C
        assert proc.wait(15) == 130
        assert proc.stdout is not None
        out = proc.banner + proc.stdout.read()
    assert f"Serving the players' view of Saloon brawl at http://127.0.0.1:{port}" in out and "warning" not in out


def test_what_the_server_sends_and_that_keys_change_nothing(tmp_path: Path) -> None:
    path, npc_status = fight_file(tmp_path)
    before = (path.read_bytes(), os.stat(path).st_mtime_ns)
    port = free_port()
    with tracker_serve(path, port):
        text = asyncio.run(browse(port, until="Dusty", keys=KEYS, hold=1.5))
        assert "Saloon brawl" in text and "Black Bart" in text
        assert "Assassin" not in text  # hidden
        assert npc_status not in text and "HP 18" not in text  # an NPC's numbers
        assert str(tmp_path) not in text
    assert (path.read_bytes(), os.stat(path).st_mtime_ns) == before  # byte for byte, not even touched


BROWSERS: list[threading.Thread] = []


@pytest.fixture(autouse=True)
def _browsers_end() -> Iterator[None]:
    """The background browsers end with the server they watch (none is left reading in this process)."""
    yield
    for thread in BROWSERS:
        thread.join(15)
    left = [t for t in BROWSERS if t.is_alive()]
    BROWSERS.clear()
    assert not left, "a browser kept reading after its server stopped"


def _sessions(port: int, n: int, hold: float) -> threading.Semaphore:
    """n browsers that stay on the page for ``hold`` seconds (or until the server stops), in the background;
    released as each shows the view."""
    shown = threading.Semaphore(0)

    async def all_of_them() -> None:
        # these browsers are cut off when the server stops: that is the point, not an error
        await asyncio.gather(
            *(browse(port, until="Dusty", hold=hold, shown=shown) for _ in range(n)), return_exceptions=True
        )

    thread = threading.Thread(target=lambda: asyncio.run(all_of_them()), daemon=True)
    BROWSERS.append(thread)
    thread.start()
    return shown


def _wait_for_copies(root: int, n: int) -> list[int]:
    deadline = time.monotonic() + 30
    while True:
        found = descendants(root)
        copies = [p for p in found if "table" in Path(f"/proc/{p}/cmdline").read_bytes().decode(errors="replace")]
        if len(copies) >= n:
            return found
        assert time.monotonic() < deadline, f"{len(copies)} of {n} browser copies started"
        time.sleep(0.2)


def _assert_all_gone(pids: list[int]) -> None:
    deadline = time.monotonic() + 10
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = [p for p in pids if alive(p)]
    if left:  # what they burn says why they stayed
        burnt = {p: cpu_ticks(p) for p in left}
        time.sleep(1.0)
        burnt = {p: cpu_ticks(p) - t for p, t in burnt.items()}
        raise AssertionError(f"processes left: {left}, CPU ticks burnt in 1 s: {burnt}")


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_stopping_tracker_serve_ends_every_process(tmp_path: Path, how: int) -> None:
    path, _ = fight_file(tmp_path)
    port = free_port()
    with tracker_serve(path, port) as proc:
        shown = _sessions(port, 2, hold=30)
        pids = _wait_for_copies(proc.pid, 2)
        for _ in range(2):
            assert shown.acquire(timeout=60), "a browser never showed the view"
        time.sleep(0.5)
        idle = {p: cpu_ticks(p) for p in pids}
        time.sleep(2.0)
        busy = {p: cpu_ticks(p) - t for p, t in idle.items()}
        assert max(busy.values()) < 50, f"an idle view burns CPU (ticks in 2 s): {busy}"  # 50 ticks: 25% of a core
        proc.send_signal(how)
        proc.wait(15)
        _assert_all_gone(pids)


def test_killing_tracker_serve_outright_still_ends_the_server(tmp_path: Path) -> None:
    """SIGKILL gives no chance to clean up: the server sees its parent gone and ends its whole group."""
    path, _ = fight_file(tmp_path)
    port = free_port()
    with tracker_serve(path, port) as proc:
        _sessions(port, 1, hold=30)
        pids = _wait_for_copies(proc.pid, 1)
        proc.kill()
        proc.wait(15)
        _assert_all_gone(pids)


def test_start_serving_api(tmp_path: Path) -> None:
    """What the fight screen calls: start_serving(...) -> Serving with .url and .stop()."""
    path, _ = fight_file(tmp_path)
    serving = start_serving(path, "127.0.0.1", 0)
    try:
        assert isinstance(serving, Serving) and serving.running
        assert serving.url.startswith("http://127.0.0.1:") and serving.name == "Saloon brawl"
        assert serving.warning == ""
        page = urllib.request.urlopen(serving.url + "/", timeout=10).read().decode()
        assert "Saloon brawl" in page
        _sessions(serving.port, 1, hold=30)
        pids = [serving.process.pid, *_wait_for_copies(serving.process.pid, 1)]
    finally:
        serving.stop()
    assert not serving.running
    _assert_all_gone(pids)
    serving.stop()  # twice is fine


def test_serve_refuses_clearly(tmp_path: Path) -> None:
    path, _ = fight_file(tmp_path)
    serving = start_serving(path, "127.0.0.1", 0)
    try:
        with pytest.raises(ServeError, match=r"cannot serve on 127\.0\.0\.1 port"):
            start_serving(path, "127.0.0.1", serving.port)
    finally:
        serving.stop()
    with pytest.raises(ServeError, match="http://"):
        public_url_for("0.0.0.0", 8000, "phone.local:8000")
    assert public_url_for("0.0.0.0", 8000, "http://192.0.2.7:8000/") == "http://192.0.2.7:8000"
    assert public_url_for("127.0.0.1", 8123) == "http://127.0.0.1:8123"
    assert public_url_for("::1", 8123) == "http://[::1]:8123"


def test_network_warning(tmp_path: Path) -> None:
    """On the network: a one-line warning, and the page points the browsers at the public URL."""
    path, _ = fight_file(tmp_path)
    port = free_port()
    with tracker_serve(path, port, "--host", "0.0.0.0", "--public-url", f"http://192.0.2.7:{port}") as proc:
        page = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10).read().decode()
        assert f"ws://192.0.2.7:{port}/ws" in page
        proc.send_signal(signal.SIGTERM)
        proc.wait(15)
        assert proc.stdout is not None
        out = proc.stdout.read()
    assert f"warning: anyone on this network can watch this fight at http://192.0.2.7:{port}" in out


def test_a_missing_file_is_waited_for(tmp_path: Path) -> None:
    port = free_port()
    with tracker_serve(tmp_path / "tonight.jsonl", port):
        text = asyncio.run(browse(port, until="Waiting for the fight file tonight.jsonl"))
        assert "Traceback" not in text and str(tmp_path) not in text


def test_too_many_viewers_are_refused(tmp_path: Path) -> None:
    """Each browser is a process: past the cap the websocket is refused (503); the ones in keep their view."""
    path, _ = fight_file(tmp_path)
    port = free_port()

    async def one_in_one_out() -> tuple[str, int]:
        shown = threading.Semaphore(0)
        first = asyncio.create_task(browse(port, until="Dusty", hold=3, shown=shown))
        while not shown.acquire(blocking=False):  # the first browser is in (it holds its view for 3 s)
            assert not first.done(), first.result()
            await asyncio.sleep(0.05)
        async with aiohttp.ClientSession() as session:
            try:
                async with session.ws_connect(f"http://127.0.0.1:{port}/ws"):
                    status = 101
            except aiohttp.WSServerHandshakeError as e:
                status = e.status
        return await first, status

    with tracker_serve(path, port, "--max-viewers", "1"):
        text, status = asyncio.run(one_in_one_out())
    assert status == 503 and "Dusty" in text


@pytest.mark.parametrize("ending", ["exit", "killed"])
def test_the_program_that_started_serving_ends(tmp_path: Path, ending: str) -> None:
    """The fight screen's process quits (atexit stops the server) or dies outright (the server sees it)."""
    path, _ = fight_file(tmp_path)
    script = (
        "import os, sys, time\n"
        "from screens.serve import start_serving\n"
        f"s = start_serving({str(path)!r}, '127.0.0.1', 0)\n"
        "print(s.port, s.process.pid, flush=True)\n"
        "sys.stdin.readline()\n"
        f"{'os._exit(9)' if ending == 'killed' else 'sys.exit(0)'}\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env()
    )
    assert proc.stdout is not None and proc.stdin is not None
    port, server = map(int, proc.stdout.readline().split())
    try:
        shown = _sessions(port, 1, hold=30)
        assert shown.acquire(timeout=60)
        pids = [server, *descendants(server)]
        assert len(pids) >= 2
        proc.stdin.write("\n")
        proc.stdin.flush()
        proc.wait(30)
        _assert_all_gone(pids)
    finally:
        proc.kill()
        proc.wait()
