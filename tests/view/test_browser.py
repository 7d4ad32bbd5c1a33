"""A real browser: headless Chromium (Debian's package) opens the served view, driven by its DevTools protocol.

The terminal is drawn on a canvas, so the page's DOM has no text: the test
checks the names in what the server sends over the websocket (as Chromium
received it) and that the screenshot is not blank.

Without Chromium the test is skipped, saying why, so the README's test command
passes on a fresh machine; under CI (``CI=true``, as ``.ci/run`` sets it after
installing Chromium) a missing Chromium fails it instead.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import os
import shutil
import signal
import struct
import subprocess
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.view.serving import fight_file, free_port, screen_text, tracker_serve

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",  # as root
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--window-size=1200,800",
    "--remote-debugging-port=0",
]


CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")
MISSING = "Chromium is not installed (the players' view browser test needs it; .ci/run installs Debian's package)"


def chromium() -> str:
    """The Chromium to run; skipped without one, except under CI (``CI=true``), where a missing one fails."""
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(MISSING + ", and CI must run it")
    pytest.skip(MISSING)


class DevTools:
    """A minimal Chrome DevTools protocol client over one page's websocket."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.ids = itertools.count(1)
        self.events: list[dict[str, Any]] = []

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        n = next(self.ids)
        await self.ws.send_str(json.dumps({"id": n, "method": method, "params": params}))
        while True:
            msg = json.loads((await self.ws.receive(timeout=30)).data)
            if msg.get("id") == n:
                assert "error" not in msg, msg
                return dict(msg.get("result", {}))
            self.events.append(msg)

    async def pump(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            with contextlib.suppress(asyncio.TimeoutError):
                msg = await self.ws.receive(timeout=0.1)
                if msg.type == aiohttp.WSMsgType.TEXT:
                    self.events.append(json.loads(msg.data))

    def websocket_text(self) -> str:
        data = b""
        for ev in self.events:
            if ev.get("method") == "Network.webSocketFrameReceived":
                frame = ev["params"]["response"]
                payload = frame["payloadData"]
                data += base64.b64decode(payload) if frame.get("opcode") == 2 else payload.encode()
        return screen_text(data)


def png_colours(png: bytes) -> int:
    """How many different pixel values a PNG screenshot has (a blank page has one)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width, height, channels = 8, b"", 0, 0, 4
    while pos < len(png):
        size, kind = struct.unpack(">I4s", png[pos : pos + 8])
        body = png[pos + 8 : pos + 8 + size]
        if kind == b"IHDR":
            width, height, _depth, colour = struct.unpack(">IIBB", body[:10])
            channels = {2: 3, 6: 4, 0: 1, 4: 2}.get(colour, 4)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + size
    raw = zlib.decompress(idat)
    stride = width * channels + 1
    seen: set[bytes] = set()
    for y in range(0, height, 7):  # every 7th row, filter byte skipped: enough to tell blank from drawn
        row = raw[y * stride + 1 : (y + 1) * stride]
        seen.update(row[x : x + channels] for x in range(0, len(row), channels * 5))
    return len(seen)


async def open_in_chromium(url: str, until: str) -> tuple[str, bytes, str]:
    """Open ``url`` in headless Chromium; wait until ``until`` was sent to it and drawn; its text and a screenshot."""
    profile = tempfile.mkdtemp(prefix="view-chromium-")
    proc = subprocess.Popen(
        [chromium(), *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "about:blank"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        port_file = Path(profile) / "DevToolsActivePort"
        deadline = time.monotonic() + 60
        while not (port_file.exists() and port_file.read_text().strip()):
            assert proc.poll() is None, "Chromium did not start"
            assert time.monotonic() < deadline, "Chromium opened no DevTools port"
            await asyncio.sleep(0.1)
        devtools_port = int(port_file.read_text().split()[0])
        async with aiohttp.ClientSession() as session:
            async with session.get(f"http://127.0.0.1:{devtools_port}/json/list") as r:
                pages = [t for t in await r.json() if t["type"] == "page"]
            async with session.ws_connect(pages[0]["webSocketDebuggerUrl"], max_msg_size=0) as ws:
                cdp = DevTools(ws)
                await cdp.call("Network.enable")
                await cdp.call("Page.enable")
                await cdp.call("Page.navigate", url=url)
                deadline = time.monotonic() + 60
                while until not in cdp.websocket_text():
                    assert time.monotonic() < deadline, f"the page never showed {until!r}"
                    await cdp.pump(0.5)
                await cdp.pump(2.0)  # let the canvas draw what arrived
                shot = await cdp.call("Page.captureScreenshot", format="png")
                body = await cdp.call("Runtime.evaluate", expression="document.body.innerText", returnByValue=True)
                return cdp.websocket_text(), base64.b64decode(shot["data"]), str(body["result"].get("value", ""))
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)
        shutil.rmtree(profile, ignore_errors=True)


def test_chromium_shows_the_view(tmp_path: Path) -> None:
    chromium()  # skipped (or failed under CI) before the server starts when there is none
    path, npc_status = fight_file(tmp_path)
    port = free_port()
    with tracker_serve(path, port):
        text, png, dom = asyncio.run(open_in_chromium(f"http://127.0.0.1:{port}/", until="Dusty"))
    (tmp_path / "view.png").write_bytes(png)
    assert "Dusty" in text and "Black Bart" in text and "Round 1" in text
    assert "Assassin" not in text and npc_status not in text and "Assassin" not in dom
    assert png_colours(png) > 8, "the screenshot is blank"


def no_chromium(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)


def test_without_chromium_the_browser_test_is_skipped_saying_why(monkeypatch: pytest.MonkeyPatch) -> None:
    no_chromium(monkeypatch)
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="Chromium is not installed"):
        chromium()


def test_under_ci_a_missing_chromium_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    no_chromium(monkeypatch)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match=r"Chromium is not installed.*CI must run it"):
        chromium()


def test_an_installed_chromium_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    monkeypatch.setattr(shutil, "which", lambda name: f"/opt/bin/{name}" if name == "chromium-browser" else None)
    assert chromium() == "/opt/bin/chromium-browser"
