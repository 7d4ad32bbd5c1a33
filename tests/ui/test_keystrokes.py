"""The keystrokes of the common jobs at the table (#44's closing note), each driven in the real app (bnb, 80×24)
with exactly the keys counted here, and its outcome asserted on the rendered screen.

| job                          | keys | count |
|------------------------------|------|-------|
| add 4 identical NPCs         | A o u t l Enter 4 Enter | 9 |
| 7 damage to the selected     | - 7 Enter | 3 |
| damage to 3 (marked)         | space ↓ space ↓ space - 7 Enter | 8 |
| a 2-round condition          | C p i n n e d Tab 2 Enter | 10 |
| a 2-round condition the book names (suggested) | C g → Tab 2 Enter | 6 |
| add a saved custom NPC (the GM's library)      | A g a n g Enter Enter | 7 |
| undo                         | u | 1 |
| next turn                    | n | 1 |
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest

from saves import library
from screens.app import TrackerApp
from screens.fight import FightScreen
from tests.ui.drive import build_fight, press
from tests.view.helpers import screen_text
from tracker.model import FightState

JOBS: dict[str, tuple[list[str], Callable[[FightState, FightState, str], bool]]] = {
    "add 4 identical NPCs": (
        ["A", "o", "u", "t", "l", "enter", "4", "enter"],
        lambda before, after, shown: all(f"Outlaw {n}" in shown for n in range(1, 5)),
    ),
    "7 damage to the selected": (
        ["minus", "7", "enter"],
        lambda before, after, shown: "loses 7 HP" in shown,
    ),
    "damage to 3": (
        ["space", "down", "space", "down", "space", "minus", "7", "enter"],
        lambda before, after, shown: shown.count("loses 7 HP") == 3,
    ),
    "a 2-round condition": (
        ["C", "p", "i", "n", "n", "e", "d", "tab", "2", "enter"],
        lambda before, after, shown: "pinned (2r)" in shown,
    ),
    "a 2-round book condition": (
        ["C", "g", "right", "tab", "2", "enter"],  # g suggests bnb's "Grappled"; → takes it
        lambda before, after, shown: "Grappled (2r)" in shown,
    ),
    "add a saved custom NPC": (
        ["A", "g", "a", "n", "g", "enter", "enter"],  # the GM's "Gang boss", saved before (see _job)
        lambda before, after, shown: "Gang boss" in shown and len(after.combatants) == len(before.combatants) + 1,
    ),
    "next turn": (
        ["n"],
        lambda before, after, shown: after.current != before.current and f"turn: {after.name(after.current)}" in shown,
    ),
}
COUNTS = {job: len(keys) for job, (keys, _) in JOBS.items()} | {"undo": 1}


@pytest.mark.parametrize("job", list(JOBS))
def test_a_common_job_takes_the_keys_counted(job: str, data_dir: Path) -> None:
    fight = build_fight("bnb", data_dir / "k.jsonl")
    boss = fight.state.combatants[0].id
    library.save_preset("bnb", fight, boss, "Gang boss")  # into the GM's library, as M does
    fight.close()
    asyncio.run(_job(data_dir / "k.jsonl", job))


async def _job(path: Path, job: str) -> None:
    keys, done = JOBS[job]
    app = TrackerApp(open_path=path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, FightScreen)
        before = screen.fight.state
        for key in keys:  # one at a time, each handled before the next (a person's pace: the suggester keeps up)
            await press(pilot, key)
        assert app.screen is screen
        shown = screen_text(app)
        assert done(before, screen.fight.state, shown), shown
        await press(pilot, "u")  # and undo, one key, takes it back
        assert screen.fight.state.combatants == before.combatants and screen.fight.state.current == before.current
