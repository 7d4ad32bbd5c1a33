"""From the fight screen, one key serves the players' view of the fight and shows its address; leaving the
fight stops it (no process left)."""

from __future__ import annotations

import asyncio
import os
import time
import urllib.request
from pathlib import Path

from screens.app import TrackerApp
from screens.dialogs.form import FormDialog
from screens.fight import FightScreen
from tests.ui.drive import build_fight, fill, submit_form
from tests.view.serving import free_port


def test_the_serve_key_shows_the_address_and_leaving_the_fight_stops_the_server(tmp_path: Path) -> None:
    path = build_fight("toy", tmp_path / "fights" / "saloon.jsonl").path
    asyncio.run(_serve(path, free_port()))


async def _serve(path: Path, port: int) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, FightScreen)
        told: list[str] = []
        notify = screen.notify
        screen.notify = lambda message, *a, **k: (told.append(str(message)), notify(message, *a, **k))[1]  # type: ignore[method-assign]
        await pilot.press("B")
        await pilot.pause()
        assert isinstance(app.screen, FormDialog)
        await fill(pilot, "f-port", str(port))
        await submit_form(pilot)
        deadline = time.monotonic() + 30
        while screen.serving is None and time.monotonic() < deadline:
            await pilot.pause(0.2)
        serving = screen.serving
        assert serving is not None and serving.url == f"http://127.0.0.1:{port}"
        assert any(serving.url in m for m in told), told
        page = urllib.request.urlopen(serving.url + "/", timeout=10).read().decode()
        assert f"ws://127.0.0.1:{port}/ws" in page and str(path.parent) not in page and path.name not in page
        pid = serving.process.pid
        await pilot.press("ctrl+w")  # back to the start screen: the fight screen that served it goes
        await pilot.pause()
        deadline = time.monotonic() + 10
        while _alive(pid) and time.monotonic() < deadline:
            await pilot.pause(0.2)
        assert not _alive(pid), "the server ends with the fight screen that started it"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split()[2] != "Z"
    except OSError:
        return False
