"""Helpers for the serve tests: a served fight, processes under a root, the text a browser is sent."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import aiohttp

import saves
from tests.view.helpers import add_npc, add_pc
from tracker import commands as C

ROOT = Path(__file__).resolve().parents[2]
ANSI = re.compile(rb"\x1b(\[[0-9;?$<>=]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[@-Z\\-_])")


def env() -> dict[str, str]:
    e = dict(os.environ)
    e["PYTHONPATH"] = str(ROOT) + os.pathsep + e.get("PYTHONPATH", "")
    return e


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def fight_file(folder: Path) -> tuple[Path, str]:
    """A bnb fight with a PC, a visible NPC and a hidden one; also the visible NPC's status (its numbers)."""
    path = folder / "brawl.jsonl"
    fight = saves.new_fight("bnb", path, seed=4)
    fight.do(C.NameFight(name="Saloon brawl"))
    add_pc(fight, "Dusty")
    npc = add_npc(fight, "Black Bart", alias="Outlaw")
    add_npc(fight, "Assassin", hidden=True)
    fight.do(C.RollInitiative())
    fight.do(C.StartFight())
    status = fight.system.status(fight.state, fight.state.get(npc))
    fight.close()
    return path, status


@contextlib.contextmanager
def tracker_serve(path: Path, port: int, *extra: str) -> Iterator[subprocess.Popen[str]]:
    """``tracker serve FILE --port N`` in its own session (so a failed test can still clean up).

    It starts as from a terminal, Ctrl+C (SIGINT) stopping it: a suite started where SIGINT is ignored (a
    background job of a script) would pass that on to it, and it would ignore the Ctrl+C the tests send.
    The test process ignores SIGINT again once the child is started, as it did: left on, the SIGINT that
    execnet sends a worker still busy 5 s after the run's end raised KeyboardInterrupt in it (a warning
    printed after the last test)."""
    ignored = signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    if ignored:
        signal.signal(signal.SIGINT, signal.default_int_handler)  # the child starts with SIGINT's default
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "screens", "serve", str(path), "--port", str(port), *extra],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env(),
            start_new_session=True,
        )
    finally:
        if ignored:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        deadline = time.monotonic() + 30
        while not answers(port):
            assert proc.poll() is None, proc.stdout.read() if proc.stdout else ""
            assert time.monotonic() < deadline, "tracker serve did not start"
            time.sleep(0.1)
        assert proc.stdout is not None
        banner = proc.stdout.readline()  # printed once the server answers: the test goes on after it
        assert banner.startswith("Serving"), banner + proc.stdout.read()
        proc.banner = banner  # type: ignore[attr-defined]
        yield proc
    finally:
        for pid in descendants(proc.pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)
        if proc.stdout:
            proc.stdout.close()


def answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


def _stat(pid: int) -> list[str] | None:
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return raw[raw.rindex(")") + 2 :].split()  # after "pid (comm) "


def alive(pid: int) -> bool:
    """Running (a zombie is not: it has ended and only waits to be reaped)."""
    fields = _stat(pid)
    return fields is not None and fields[0] != "Z"


def cpu_ticks(pid: int) -> int:
    fields = _stat(pid)
    return int(fields[11]) + int(fields[12]) if fields else 0  # utime + stime


def descendants(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = _stat(int(entry.name))
            if fields:
                children.setdefault(int(fields[1]), []).append(int(entry.name))
    out: list[int] = []
    todo = [root]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def screen_text(data: bytes) -> str:
    """What a terminal stream says, without its escape sequences."""
    return ANSI.sub(b"", data).decode("utf-8", "replace")


async def browse(
    port: int, until: str, keys: tuple[str, ...] = (), hold: float = 0.0, shown: threading.Semaphore | None = None
) -> str:
    """Open the view's websocket like a browser; read until ``until`` shows, send ``keys``; all text received.

    ``shown`` is released once ``until`` has shown.
    """
    data = b""
    ended = (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSING, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR)
    async with (
        aiohttp.ClientSession() as session,
        session.ws_connect(f"http://127.0.0.1:{port}/ws?width=100&height=30") as ws,
    ):
        await ws.send_str(json.dumps(["resize", {"width": 100, "height": 30}]))
        deadline = time.monotonic() + 30
        while until not in screen_text(data):
            assert time.monotonic() < deadline, f"{until!r} never came: {screen_text(data)[-500:]!r}"
            with contextlib.suppress(asyncio.TimeoutError):
                msg = await ws.receive(timeout=0.5)
                if msg.type == aiohttp.WSMsgType.BINARY:
                    data += msg.data
                elif msg.type in ended:
                    break
        if shown is not None and until in screen_text(data):
            shown.release()
        for key in keys:
            await ws.send_str(json.dumps(["stdin", key]))
        end = time.monotonic() + hold
        while time.monotonic() < end:
            # a closed socket answers at once: stop there (looping on it burns a core, and slows
            # every later test in this worker that waits for the process to go idle)
            with contextlib.suppress(asyncio.TimeoutError):
                msg = await ws.receive(timeout=0.2)
                if msg.type == aiohttp.WSMsgType.BINARY:
                    data += msg.data
                elif msg.type in ended:
                    break
    return screen_text(data)
