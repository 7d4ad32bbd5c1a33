"""The replay's key bar at every width from 80 columns (audit a12/g2, finding F4).

At 88 to 109 columns the replay's own keys fit ("→ Step ← Back ] Action PgDn Round c Continue here s Summary
e Export ? Help"), so the tight bar of 80 columns (screens/replay.py TIGHT_KEYS) was not drawn, and the hint line
beside the detail pane ("… PgDn PgUp round · Home End …") is shown only from WIDE (110): nothing on screen said
how to go back a round or to the end.  Below WIDE the bar is now the tight one (with Summary and Export from
96 columns, Home from 101); from WIDE, the screen's keys and the hint line, as before.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from textual.widgets import Static

from screens.app import TrackerApp
from screens.fight import WIDE
from screens.replay import ReplayScreen
from screens.widgets.footer import KeysFooter
from tests.ui.drive import build_fight

FULL = "→ Step ← Back ] Action PgDn Round c Continue here s Summary e Export ? Help "


async def _settle(pilot: object, times: int = 4) -> None:
    for _ in range(times):
        await pilot.pause()  # type: ignore[attr-defined]


def test_every_width_from_80_names_a_round_back_the_end_and_help(data_dir: Path) -> None:
    path = data_dir / "fight.jsonl"
    build_fight("bnb", path).close()

    async def run() -> None:
        app = TrackerApp(replay_path=path)
        async with app.run_test(size=(100, 30)) as pilot:
            await _settle(pilot)
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            bar = screen.query_one(KeysFooter)
            hint = screen.query_one("#keys", Static)
            for width in (*range(80, 122), 100):  # (every width, and back)
                await pilot.resize_terminal(width, 30)
                await _settle(pilot)
                line = bar.render_line(0).text
                assert len(line) == width and line.endswith("▏^p palette "), (width, line)
                placed = bar.placed()
                rule = placed[-1].x - 1
                assert all(k.x + k.width <= rule for k in placed[:-1]), (width, placed)
                if width < WIDE:
                    assert not hint.region.width, width  # (the hint line is left out with the detail pane)
                    assert "PgUp Back" in line and " End " in line and "? Help" in line, (width, line)
                    # (the roomier sets: 87 and 92 columns, and the palette's key 13)
                    assert ("s Summary e Export ? Help" in line) is (width >= 96), line
                    assert ("Round PgUp Back Home End c" in line) is (width >= 101), line
                else:
                    assert hint.region.width and "PgDn PgUp round · Home End" in str(hint.render())
                    assert line.startswith(FULL), (width, line)

    asyncio.run(run())
