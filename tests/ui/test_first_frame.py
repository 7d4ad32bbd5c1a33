"""The first picture of a continued fight, as the terminal gets it from the real ``tracker`` command (issue #13).

Textual mounts an app inside a batch update, and a frame painted inside one is
thrown away.  The app once pushed the fight screen from its mount, so the fight's
first whole frame was painted there and lost; the terminal got only the partial
frames after it, and the top bar (round, whose turn) came a layout later, about
a tenth of a second after the list.  Pilot runs headless and never writes a
frame, so this test runs the command in a pseudo-terminal and reads its bytes.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import pty
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path
from typing import Any

import pytest

from tests.ui.drive import build_fight

ROWS, COLS = 32, 100


def launch_output(path: Path, data_dir: Path, until: bytes, times: int, timeout: float = 60) -> bytes:
    """What ``tracker --save PATH`` writes to a 100x32 terminal until ``until`` is written ``times`` times."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
    env = {**os.environ, "TERM": "xterm-256color", "TRACKER_DATA_DIR": str(data_dir)}
    env.pop("TEXTUAL", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "screens", "--save", str(path)],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        start_new_session=True,
    )
    os.close(slave)
    seen = b""
    end = time.monotonic() + timeout
    try:
        while seen.count(until) < times and time.monotonic() < end:
            ready, _, _ = select.select([master], [], [], 0.5)
            if ready:
                try:
                    seen += os.read(master, 1 << 16)
                except OSError:
                    break  # the app ended
    finally:
        with contextlib.suppress(OSError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        os.close(master)
    return seen


@pytest.mark.parametrize("system_id", ["bnb", "blackjack", "zludge", "twod6"])
def test_the_first_frame_of_a_continued_fight_is_whole(system_id: str, tmp_path: Path, data_dir: Path) -> None:
    fight = build_fight(system_id, tmp_path / "fight.jsonl")
    state = fight.state
    name = state.name(state.current).encode()
    fight.close()
    out = launch_output(fight.path, data_dir, name, times=2)
    assert out.count(name) >= 2, f"the fight never showed {name!r}: {out[-300:]!r}"
    first = out.index(name)
    # the frame is written top to bottom: whole, its first mention of the current combatant is the top bar's
    assert out[first - len(b"turn: ") : first] == b"turn: ", (
        "the first frame showing the fight did not begin with its top bar (round, whose turn): "
        f"{out[max(first - 200, 0) : first + 40]!r}"
    )


def test_the_key_bar_is_built_once_as_a_fight_opens(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The screen changes its bindings several times as it opens (focus, its keys made ready); the key bar is
    rebuilt a frame after each, and the keys are the same each time: one build is all the GM needs to see."""
    from screens.app import TrackerApp
    from screens.fight import FightScreen
    from screens.widgets.footer import KeysFooter

    builds: list[int] = []
    compose = KeysFooter.compose

    def counted(self: KeysFooter) -> Any:
        made = list(compose(self))
        if made:
            builds.append(len(made))
        return iter(made)

    monkeypatch.setattr(KeysFooter, "compose", counted)
    fight = build_fight("bnb", tmp_path / "fight.jsonl")
    fight.close()

    async def run() -> None:
        app = TrackerApp(open_path=fight.path)
        async with app.run_test(size=(COLS, ROWS)) as pilot:
            for _ in range(10):
                await pilot.pause()
            assert isinstance(app.screen, FightScreen)
            assert len(builds) == 1, f"the key bar was built {len(builds)} times"
            await pilot.press("n")  # the next turn changes no key: not built again
            for _ in range(5):
                await pilot.pause()
            assert len(builds) == 1, f"the key bar was built {len(builds)} times"

    asyncio.run(run())
