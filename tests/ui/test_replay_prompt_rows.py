"""The replay's prompt line and the list under it: stepping onto an event that raises a prompt keeps every row.

At 80 columns the replay sized the list from the prompt line's height read before the screen had laid that line
out (0), so the step that raised "Hero must make a DC 7 resolve check" hid the Hero's row (and a two-line prompt
two rows) until ← →; End did the same (the summary it opens came over the screen before any layout).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

import saves
from screens.app import TrackerApp
from screens.replay import ReplayScreen
from screens.summary import SummaryScreen
from screens.widgets.initiative import InitiativeList
from tests.ui.drive import build_fight, press
from tests.view.helpers import screen_text
from tracker import Damage, DismissPrompt, Note
from tracker.events import PromptRaised


def prompt_fight(folder: Path) -> Path:
    """A 2d6 fight (two bandits, the Hero): a wound raises the Hero's resolve prompt ("… or fall unconscious (2
    wounds left)": one line at 80 columns); ruled, two more raise another ("… or die (reduced to 0 wounds;
    unconscious: −3)": two lines at 80, one at 120); then a note."""
    path = folder / "prompts.jsonl"
    f = build_fight("twod6", path)
    hero = next(c.id for c in f.state.combatants if c.name == "Hero")
    f.do(Damage(targets=(hero,), amount="1"))
    f.do(DismissPrompt(prompt_id=f.state.prompts[0].id, note="passed"))
    f.do(Damage(targets=(hero,), amount="2"))
    f.do(Note(text="the Hero holds on"))
    f.close()
    return path


def raised_at(path: Path) -> list[int]:
    """The positions just after each prompt is raised."""
    timeline = saves.load(path).timeline()
    return [i + 1 for i, entry in enumerate(timeline.entries) if isinstance(entry.event, PromptRaised)]


def listed_rows(screen: ReplayScreen, text: str) -> list[str]:
    """The list's rendered rows: the screen's text inside the list's region, under its header line."""
    region = screen.query_one(InitiativeList).region
    lines = text.splitlines()[region.y : region.bottom]
    assert lines[0].split()[:1] == ["Name"], lines
    return [line[region.x : region.right] for line in lines[1:]]


def assert_every_row_shown(screen: ReplayScreen, text: str, prompt: str) -> None:
    state = screen.state
    assert [p.text for p in state.prompts if prompt in p.text], state.prompts
    assert "resolve check" in text, text  # the prompt line is on screen
    rows = listed_rows(screen, text)
    for c in state.present:
        assert any(c.name[:12] in row for row in rows), (c.name, text)
    assert len([row for row in rows if row.strip()]) == len(state.present), text


async def settled(pilot: Any, app: TrackerApp, screen: ReplayScreen, prompt: str) -> str:
    """The screen's text once every row is drawn under the prompt, or after 20 pauses (a loaded machine can take
    more than one pause to lay out the prompt's line and the list: the suite of a fresh clone read a frame of the
    header, the prompt and the key bar only); the caller asserts on it."""
    text = screen_text(app)
    for _ in range(20):
        try:
            assert_every_row_shown(screen, text, prompt)
            return text
        except AssertionError:
            await pilot.pause()
            text = screen_text(app)
    return text


@pytest.mark.parametrize("size", [(80, 24), (120, 36)], ids=["80x24", "120x36"])
def test_stepping_onto_a_prompt_keeps_every_row_of_the_list(data_dir: Path, size: tuple[int, int]) -> None:
    """→ onto the event that raises a prompt (one line at 80 columns), then onto the one that raises the next
    (two lines at 80): every combatant's row is on screen each time."""
    path = prompt_fight(data_dir)
    first, second = raised_at(path)

    async def run() -> None:
        app = TrackerApp(replay_path=path)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            screen.goto(first - 1)
            await pilot.pause()
            await press(pilot, "right")
            assert screen.position == first
            assert_every_row_shown(screen, await settled(pilot, app, screen, "fall unconscious"), "fall unconscious")
            screen.goto(second - 1)
            await pilot.pause()
            await press(pilot, "right")
            assert screen.position == second
            assert_every_row_shown(screen, await settled(pilot, app, screen, "or die"), "or die")

    asyncio.run(run())


@pytest.mark.parametrize("size", [(80, 24), (120, 36)], ids=["80x24", "120x36"])
def test_end_with_prompts_open_keeps_every_row_once_the_summary_is_closed(
    data_dir: Path, size: tuple[int, int]
) -> None:
    """End from the start: the summary opens over the replay; closed, the list shows every row under the prompt."""
    path = prompt_fight(data_dir)

    async def run() -> None:
        app = TrackerApp(replay_path=path)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            await press(pilot, "end")
            assert isinstance(app.screen, SummaryScreen)
            await press(pilot, "escape")
            assert app.screen is screen
            await pilot.pause()
            assert_every_row_shown(screen, await settled(pilot, app, screen, "or die"), "or die")

    asyncio.run(run())
