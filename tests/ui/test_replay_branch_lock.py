"""The in-use guard holds through the replay: "Replay it, read-only" then ``c`` does not fork a fight still being
played in another tracker."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import saves
from screens.app import TrackerApp
from screens.dialogs.confirm import ConfirmDialog
from screens.dialogs.pick import PickDialog
from screens.fight import FightScreen
from screens.replay import ReplayScreen
from tests.ui.drive import build_fight, press

ROOT = Path(__file__).resolve().parents[2]
HOLD = "import saves, sys; f = saves.open_fight(sys.argv[1]); print('held', flush=True); sys.stdin.read(); f.close()"


def test_continue_here_is_refused_while_another_tracker_plays_the_fight(data_dir: Path) -> None:
    """Ruling (screens/replay.py ``action_continue_here``, saves/writing.py ``continue_from``): refused at once,
    saying the fight is still being played there and to close it there first; once closed, ``c`` branches."""
    path = data_dir / "fight.jsonl"
    build_fight("bnb", path).close()
    other = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(path)], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert other.stdout is not None and other.stdout.readline().strip() == "held"
        asyncio.run(_refused_then_allowed(path, other))
    finally:
        if other.poll() is None:
            other.kill()
        other.wait()


async def _refused_then_allowed(path: Path, other: subprocess.Popen[str]) -> None:
    before = path.read_bytes()
    app = TrackerApp(open_path=path)
    async with app.run_test(size=(100, 32)) as pilot:
        for _ in range(40):  # the in-use offer comes after the start screen
            if isinstance(app.screen, PickDialog):
                break
            await pilot.pause(0.05)
        assert isinstance(app.screen, PickDialog) and "open in another tracker" in app.screen.title_text
        await press(pilot, "enter")  # "Replay it, read-only"
        assert isinstance(app.screen, ReplayScreen)
        await press(pilot, "c")
        assert isinstance(app.screen, ReplayScreen), "no question asked: refused"
        said = [n.message for n in app._notifications]
        assert any(f"(process {other.pid})" in m and "close it there first" in m for m in said), said
        assert not list(path.parent.glob("*-branch*")) and path.read_bytes() == before

        assert other.stdin is not None
        other.stdin.close()  # the other tracker closes the fight
        other.wait(timeout=20)
        await press(pilot, "c")
        assert isinstance(app.screen, ConfirmDialog)
        await press(pilot, "y")
        assert isinstance(app.screen, FightScreen)
        assert app.screen.fight.path.name == "fight-branch.jsonl"
        assert saves.load(app.screen.fight.path).entries == saves.load(path).entries[: len(app.screen.fight.entries)]
