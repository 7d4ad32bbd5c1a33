"""Thousands of random keys: the app never crashes, and the save replays to the live state."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from textual import events
from textual.pilot import Pilot

from screens.app import TrackerApp
from screens.fight import FightScreen
from screens.start import StartScreen
from tests.ui.drive import build_fight, saved_state_matches

# Everything but quitting, weighted toward the keys that do things.  Not ctrl+p:
# Textual's palette can fail when it is closed mid-search by machine-speed keys.
FIGHT_KEYS = (
    list("nnnxaaIESDWCROpPTuUeh0123456789 ")
    + ["plus", "minus", "enter", "enter", "enter", "escape", "escape", "tab", "shift+tab", "up", "down", "down"]
    + ["left", "right", "backspace", "delete", "space", "ctrl+s", "ctrl+s", "ctrl+s", "ctrl+z", "ctrl+y", "f1"]
    + ["question_mark", "left_square_bracket", "right_square_bracket", "equals_sign", "f5", "f6", "y"]
)
START_KEYS = ["n", "c", "up", "down", "tab", "f1", "question_mark", "escape", "ctrl+t"]
CHARS = {"space": " ", "plus": "+", "minus": "-", "question_mark": "?", "equals_sign": "="}
CHARS.update({"left_square_bracket": "[", "right_square_bracket": "]"})
PRESSES = 2000
BATCH = 50


def test_random_keys_never_crash_the_app(data_dir: Path) -> None:
    path = data_dir / "fights" / "hammered.jsonl"
    build_fight("toy", path).close()
    asyncio.run(_hammer(random.Random(20250501), path))


async def _keys(pilot: Pilot, rng: random.Random, keys: list[str], count: int) -> None:
    """Post keys at machine speed, letting the app catch up after each batch."""
    for _ in range(count // BATCH):
        for key in [rng.choice(keys) for _ in range(BATCH)]:
            pilot.app.post_message(events.Key(key, CHARS.get(key, key if len(key) == 1 else None)))
        await pilot.pause()


async def _back_to(pilot: Pilot, screen_type: type) -> None:
    for _ in range(10):
        if isinstance(pilot.app.screen, screen_type):
            return
        await pilot.press("escape")
    assert isinstance(pilot.app.screen, screen_type), pilot.app.screen


async def _hammer(rng: random.Random, path: Path) -> None:
    app = TrackerApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await _keys(pilot, rng, START_KEYS, 200)
        await _back_to(pilot, StartScreen)
        app.continue_fight(path)
        await pilot.pause()
        start = len(app.fight.entries)  # type: ignore[union-attr]
        await _keys(pilot, rng, FIGHT_KEYS, PRESSES)
        await _back_to(pilot, FightScreen)
        assert app.fight is not None and len(app.fight.entries) > start + 10
        assert saved_state_matches(app)
