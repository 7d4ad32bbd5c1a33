"""The replay shows the whole line of the event at its position: an attack's outcome is readable at 80 and 120.

Each log line is one row cut to the log's width, so "Bandit 1 attacks Hero with Melee (Light) for wound: 2d6 …"
lost its "— hit" / "— defended" at 80 and at 120 columns (and at 80 the detail pane is hidden: only Y told it).
The strip under the log (#now) shows the ▶ event's full text, wrapped.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

import saves
from screens.app import TrackerApp
from screens.replay import ReplayLog, ReplayScreen
from systems.twod6.commands import Attack
from tests.ui.drive import build_fight, press
from tests.view.helpers import screen_text
from tracker import DismissPrompt, NextTurn, Note


def attack_fight(folder: Path) -> Path:
    """A 2d6 fight in which Bandit 1 and then Bandit 2 attack the Hero (seed 3: the first hits, the second is defended; each line runs past 120 columns)."""
    path = folder / "attacks.jsonl"
    f = build_fight("twod6", path)
    ids = {c.name: c.id for c in f.state.combatants}
    f.do(Attack(actor=ids["Bandit 1"], targets=(ids["Hero"],), skill="Melee (Light)"))
    for prompt in f.state.prompts:
        f.do(DismissPrompt(prompt_id=prompt.id, note="passed"))
    f.do(NextTurn())
    f.do(Attack(actor=ids["Bandit 2"], targets=(ids["Hero"],), skill="Melee (Light)"))
    f.do(Note(text="the Hero stands"))  # (stepping onto the last event would open the summary over the replay)
    f.close()
    return path


def attack_lines(path: Path) -> list[tuple[int, str]]:
    """(index, text) of each attack's log line."""
    timeline = saves.load(path).timeline()
    return [(i, timeline.describe(i)) for i, e in enumerate(timeline.entries) if " attacks " in timeline.describe(i)]


def flat(text: str) -> str:
    """The screen's lines stripped and joined with one space: a wrapped line reads as one."""
    return " ".join(" ".join(line.split()) for line in text.splitlines() if line.strip())


@pytest.mark.parametrize("size", [(80, 24), (120, 36)], ids=["80x24", "120x36"])
def test_stepping_onto_an_attack_shows_its_outcome(data_dir: Path, size: tuple[int, int]) -> None:
    """→ onto each attack: its log row is cut before the outcome, but the whole line, outcome and all, is on
    screen."""
    path = attack_fight(data_dir)
    lines = attack_lines(path)
    assert len(lines) == 2, lines

    async def run() -> None:
        app = TrackerApp(replay_path=path)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            for index, text in lines:
                outcome = text.rsplit(" — ", 1)[1]
                assert outcome.split()[0] in {"hit", "defended", "miss", "missed"}, text
                screen.goto(index)
                await pilot.pause()
                await press(pilot, "right")
                assert screen.position == index + 1
                shown = screen_text(app)
                log = screen.query_one(ReplayLog).region
                log_rows = "\n".join(line[log.x : log.right] for line in shown.splitlines()[log.y : log.bottom])
                assert f"— {outcome}" not in log_rows, log_rows  # the log's own row is cut (it stays so)
                assert " ".join(text.split()) in flat(shown), (text, shown)
                assert f"— {outcome}" in flat(shown), shown

    asyncio.run(run())
