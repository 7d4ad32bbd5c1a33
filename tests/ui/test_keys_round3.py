"""Key words, round 3 (audit g1): what the I key says in a book without initiative; the replay's key bar at 80x24.

- Blackjack's setup header said "A add, I roll initiative, S start" and its key bar "I Init", though the book
  rolls no initiative (I sets the order: PCs, then NPCs, as added).  A system says what its I does with its
  ``initiative_words`` (docs/PLUGINS.md; the help, the palette and E: tests/ui/test_no_initiative_words.py); the
  screens name no system.  The other systems keep their words.
- The replay's key bar at 80 columns ended "… s Summary e Export▏^p palette": the palette's key hid "? Help", and
  nothing on screen said how to go back a round or to the end.  Where the screen's keys do not fit, the bar draws
  the replay's tight keys (screens/replay.py TIGHT_KEYS), Help last, as the fight screen's keys fit at 80.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace

import pytest
from textual.widgets import Static

from screens import keys
from screens.actions import guide
from screens.app import TrackerApp
from screens.dialogs.help import HelpDialog
from screens.fight import FightScreen
from screens.replay import ReplayScreen
from screens.widgets.footer import KeysFooter
from tests.ui.drive import build_fight, press
from tracker import registry

OTHERS = ["bnb", "zludge", "twod6"]


def _bar(app: TrackerApp) -> str:
    return str(app.screen.query_one("#bar", Static).render())


async def _settle(pilot: object, times: int = 4) -> None:
    for _ in range(times):
        await pilot.pause()  # type: ignore[attr-defined]


# -- I in a book without initiative ----------------------------------------------


def test_initiative_words_are_the_systems_or_the_cores() -> None:
    """The system's two words when it gives them (checked when it registers: tests/core/test_plugin_check2.py);
    the core's when it gives none."""
    assert keys.initiative_words(registry.load("blackjack")) == ("set the order", "Order")
    for system_id in OTHERS:
        assert keys.initiative_words(registry.load(system_id)) == ("roll initiative", "Init")
    assert keys.initiative_words(SimpleNamespace()) == keys.INITIATIVE_WORDS  # type: ignore[arg-type]


@pytest.mark.parametrize("system_id", ["blackjack", *OTHERS])
def test_the_setup_header_and_key_bar_say_what_i_does(system_id: str, data_dir: Path) -> None:
    """Setup of a fight: the header and the key bar's word for I, and its tooltip; I still does what it did (the
    order set, in blackjack's words; the key bar keeps its place and its other keys)."""
    path = data_dir / "fight.jsonl"
    build_fight(system_id, path, start=False).close()
    order = system_id == "blackjack"

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=(120, 36)) as pilot:
            await _settle(pilot)
            screen = app.screen
            assert isinstance(screen, FightScreen)
            said = "I set the order" if order else "I roll initiative"
            assert f"setup: A add, {said}, S start" in _bar(app), _bar(app)
            bar = screen.query_one(KeysFooter)
            words = [k.description for k in bar.keys]
            i = words.index("Add") + 1
            assert words[i - 4 : i + 3] == [
                "Act",
                "Cond",
                "Adjust",
                "Add",
                "Order" if order else "Init",
                "Start",
                "Undo",
            ]
            assert words[-2:] == ["Help", "Why?"] and ("Init" in words) is not order, words  # (Why? where it fits)
            key = next(k for k in bar.keys if k.display == "I")
            assert key.tooltip == ("Set the order (setup)" if order else "Roll initiative (setup)")
            helped = guide.help_text(screen)  # the help (?) and the palette say it in the same words
            assert ("Order — Set the order (setup)" in helped) is order, helped
            assert ("Init — Roll initiative (setup)" in helped) is not order, helped
            titles = [title for title, _key, _do in guide.palette_entries(screen)]
            assert ("Set the order" in titles) is order and ("Roll initiative" in titles) is not order, titles
            await press(pilot, "I")
            await _settle(pilot)
            assert screen.fight.state.order, "I set the order"
            await press(pilot, "S")
            await press(pilot, "enter")
            await _settle(pilot)
            assert screen.fight.state.started
            assert "setup" not in _bar(app)

    asyncio.run(run())


# -- the replay's key bar at 80 columns --------------------------------------------


def test_the_replay_key_bar_at_80_columns_shows_help_and_the_ways_back(data_dir: Path) -> None:
    """80x24: Help, a round back and the end on the bar, every key whole before the palette's rule; each works.
    Wider (120): the screen's keys as they were."""
    path = data_dir / "fight.jsonl"
    build_fight("bnb", path).close()

    async def run() -> None:
        app = TrackerApp(replay_path=path)
        async with app.run_test(size=(80, 24)) as pilot:
            await _settle(pilot)
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            bar = screen.query_one(KeysFooter)
            line = bar.render_line(0).text
            assert line.startswith("→ Step ← Back ] Action PgDn Round PgUp Back End c Continue ? Help "), line
            assert line.endswith("▏^p palette "), line
            placed = bar.placed()
            rule = placed[-1].x - 1
            assert all(k.x + k.width <= rule for k in placed[:-1]), placed
            end = next(k for k in bar.keys if k.display == "End")
            assert end.description == "" and end.tooltip == "End"  # (under the mouse: its whole word)
            await press(pilot, "end")
            await _settle(pilot)
            if not isinstance(app.screen, ReplayScreen):
                await press(pilot, "escape")  # (the summary, shown on arriving at the end)
                await _settle(pilot)
            assert screen.position == len(screen.timeline)
            await press(pilot, "pageup")
            await _settle(pilot)
            assert screen.position < len(screen.timeline)
            help_key = next(k for k in bar.placed() if k.description == "Help")
            await pilot.click(KeysFooter, offset=(help_key.x, 0))
            await _settle(pilot)
            assert isinstance(app.screen, HelpDialog), app.screen

    asyncio.run(run())

    async def wide() -> None:
        app = TrackerApp(replay_path=path)
        async with app.run_test(size=(120, 36)) as pilot:
            await _settle(pilot)
            bar = app.screen.query_one(KeysFooter)
            line = bar.render_line(0).text
            full = "→ Step ← Back ] Action PgDn Round c Continue here s Summary e Export ? Help "
            assert line.startswith(full) and line.endswith("▏^p palette "), line
            await pilot.resize_terminal(80, 24)
            await _settle(pilot)
            assert "PgUp Back End c Continue ? Help" in bar.render_line(0).text
            await pilot.resize_terminal(120, 36)
            await _settle(pilot)
            assert bar.render_line(0).text.startswith(full)

    asyncio.run(wide())
