"""A fight closed in a long session is freed (issue #15's "no lost state" has a twin: no kept state).

The ``tracker`` command turns the garbage collector off while it starts and,
after the first frame, collects once and freezes what lives then: a fight opened
from the command line (its screen, its states) is in that.  Frozen objects are
never collected, so a fight closed later would stay in memory for the rest of
the session; going back to the start screen lets it go.
"""

from __future__ import annotations

import asyncio
import gc
import weakref
from pathlib import Path

from screens.app import TrackerApp
from screens.fight import FightScreen
from screens.start import StartScreen
from tests.ui.drive import build_fight
from tests.ui.test_table_jobs import fast


def test_a_fight_closed_after_the_first_frame_is_freed(data_dir: Path) -> None:
    path = build_fight("bnb", data_dir / "m.jsonl").path
    enabled = gc.isenabled()
    gc.disable()  # as the tracker command starts the app (screens.cli)
    try:
        asyncio.run(_closed(path))
    finally:
        gc.enable() if enabled else gc.disable()
        gc.freeze()  # as the suite leaves it after collection (tests/conftest.py)


async def _closed(path: Path) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(500):  # the first frame, then the app's settling: the collector on, what lives frozen
            if gc.isenabled():
                break
            await asyncio.sleep(0.02)
        assert gc.isenabled() and gc.get_freeze_count() > 0
        screen = app.screen
        assert isinstance(screen, FightScreen)
        gone = weakref.ref(screen)
        fight = weakref.ref(screen.fight)
        del screen
        await fast(pilot, "ctrl+w")
        for _ in range(6):
            await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        assert gc.get_freeze_count() == 0, "thawed on the start screen"
        gc.collect()
        assert gone() is None and fight() is None, "the closed fight's screen and states are freed"
