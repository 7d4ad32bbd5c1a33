"""The players' view on a phone (#44 item 9): at a 390 px browser's width, the name and the state come first.

How wide is a 390 px phone?  The served page now tells the browser to lay it
out at the device's width (a viewport tag; without one a phone lays the page
out 980 px wide and shrinks it, 108 columns of unreadable type, measured).
textual-serve's terminal uses a 16 px monospace font: Roboto Mono (a phone
with the web font) is 9.6 px a cell, so 390 px gives 40 columns; headless
Chromium here, without the web font, measured 43 columns by 46 rows (the
terminal size the page sent).  The Pilot tests use 40 and 43 columns; the
Chromium test opens the served view as a 390 x 844 phone and checks the size
the page asked for and what it was sent.

Below 60 columns the table folds: the turn mark, the name and the state (its
word first) sharing the width, conditions wrapped under the state; nothing
scrolls sideways.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import aiohttp
import pytest
from textual.widgets import DataTable

import saves
from screens.table import TableApp
from tests.ui.test_table_view import DEAD
from tests.view.helpers import add_npc, add_pc, new, screen_text, sync
from tests.view.serving import free_port, tracker_serve
from tests.view.test_browser import CHROMIUM_FLAGS, DevTools, chromium, png_colours
from tracker import commands as C

SYSTEMS = ["bnb", "blackjack", "zludge", "twod6"]
PHONE = (390, 844)
COLUMNS = (40, 43)  # Roboto Mono at 16 px; the fallback font measured in headless Chromium


def phone_fight(system_id: str, path: Path) -> saves.SavedFight:
    """Two PCs (one dead, one under a long condition) and two NPCs (one dead)."""
    f = new(system_id, path)
    f.do(C.NameFight(name="Saloon brawl at the Golden Nugget"))
    dusty = add_pc(f, "Dusty Rhodes")
    kid = add_pc(f, "The Kid")
    bart = add_npc(f, "Black Bart", alias="Outlaw")
    add_npc(f, "Lefty", alias="Outlaw")
    f.do(C.RollInitiative())
    f.do(C.StartFight())
    f.do(C.AddCondition(id=dusty, name="Pinned down behind the bar", rounds=2))
    field, value = DEAD[system_id]
    f.do(C.Adjust(id=kid, field=field, value=value))
    f.do(C.Adjust(id=bart, field=field, value=value))
    for p in list(f.state.prompts):
        f.do(C.DismissPrompt(prompt_id=p.id))
    return f


async def caught_up(pilot, app: TableApp, f: saves.SavedFight) -> None:
    for _ in range(100):
        snap = app.follower.snapshot
        if snap.fight is not None and snap.fight.state == f.state:
            break
        await pilot.pause(0.05)
    await pilot.pause(0.1)
    assert app.shown is not None and app.follower.snapshot.fight is not None


def words(app: TableApp) -> dict[str, str]:
    """Each row's name and the first word of its state (the state word, or the status's first figure)."""
    assert app.shown is not None
    return {r.name: r.state.split(" · ")[0] for r in app.shown.rows}


@pytest.mark.parametrize("columns", COLUMNS)
@pytest.mark.parametrize("system_id", SYSTEMS)
@sync
async def test_a_phone_width_shows_name_and_state_first(system_id: str, columns: int, tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    f = phone_fight(system_id, path)
    app = TableApp(path)
    async with app.run_test(size=(columns, 46)) as pilot:
        await caught_up(pilot, app, f)
        text = screen_text(app)
        table = app.query_one("#order", DataTable)
        assert table.virtual_size.width <= table.size.width, "the table scrolls sideways"
        assert [c.label.plain for c in table.columns.values()] == [" ", "Name", "State"]
        lines = text.splitlines()
        for name, first in words(app).items():
            row = next((n for n, line in enumerate(lines) if name.split()[0] in line and first in line), None)
            assert row is not None, f"{name} and {first!r} are not on one line:\n{text}"
        assert "dead" in text  # the dead PC's word, whole
        assert "Pinned down" in text  # conditions wrap under the state, not off-screen
        await pilot.resize_terminal(100, 30)  # back to a wide view: every column
        await pilot.pause()
        assert [c.label.plain for c in table.columns.values()] == [" ", "#", "Name", "State", "Conditions"]
        assert "Pinned down behind the bar" in screen_text(app)
        await pilot.resize_terminal(columns, 46)
        await pilot.pause()
        assert len(table.columns) == 3


# -- a real browser as a 390 px phone ---------------------------------------------


async def open_as_phone(url: str, until: str) -> tuple[str, bytes, list[str], bool]:
    """Open ``url`` in headless Chromium emulating a 390 x 844 phone; what it was sent, a screenshot, what it sent."""
    profile = tempfile.mkdtemp(prefix="view-phone-")
    flags = [f for f in CHROMIUM_FLAGS if not f.startswith("--window-size")] + [f"--window-size={PHONE[0]},{PHONE[1]}"]
    proc = subprocess.Popen(
        [chromium(), *flags, f"--user-data-dir={profile}", "about:blank"],
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
                width, height = PHONE
                await cdp.call(
                    "Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=True
                )
                await cdp.call("Network.enable")
                await cdp.call("Page.enable")
                await cdp.call("Page.navigate", url=url)
                deadline = time.monotonic() + 60
                while until not in cdp.websocket_text():
                    assert time.monotonic() < deadline, f"the page never showed {until!r}"
                    await cdp.pump(0.5)
                await cdp.pump(2.0)  # let the canvas draw what arrived
                shot = await cdp.call("Page.captureScreenshot", format="png")
                meta = await cdp.call(
                    "Runtime.evaluate",
                    expression="!!document.querySelector('meta[name=viewport]')",
                    returnByValue=True,
                )
                sent = [
                    e["params"]["response"]["payloadData"]
                    for e in cdp.events
                    if e.get("method") == "Network.webSocketFrameSent"
                ]
                return cdp.websocket_text(), base64.b64decode(shot["data"]), sent, bool(meta["result"]["value"])
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)
        shutil.rmtree(profile, ignore_errors=True)


def test_chromium_as_a_390_px_phone_shows_the_state_words(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    phone_fight("bnb", path).close()
    port = free_port()
    with tracker_serve(path, port):
        text, png, sent, meta = asyncio.run(open_as_phone(f"http://127.0.0.1:{port}/", until="Dusty"))
    (tmp_path / "phone.png").write_bytes(png)
    assert meta, "the page has no viewport tag: a phone would lay it out 980 px wide"
    sizes = [json.loads(s)[1] for s in sent if s.startswith('["resize"')]
    assert sizes, sent
    assert 36 <= sizes[-1]["width"] <= 48, sizes  # a phone's columns, not a desktop's
    # the state words, as the page was sent them (the terminal is a canvas: no text in the DOM)
    assert "The Kid" in text and "dead ·" in text and "Black Bart" in text
    assert "Conditions" not in text  # folded: no column off-screen
    assert png_colours(png) > 8, "the screenshot is blank"
