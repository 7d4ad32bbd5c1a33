"""Names, notes, conditions and fight names shown literally in the replay, its summary and the players' view
(issue #42, items 4 and 5), through the real app at 80x24 and 120x36 in every system.

``[/]`` used to crash the app when the replay reached its end (the summary's table read it as markup),
``Orc [boss]`` showed as ``Orc ``, and ``[@click=app.quit]x[/]`` became a link that quit.  A crafted file
whose names hold terminal escapes must show them as escapes, on every screen of the replay.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import DataTable

from screens.app import TrackerApp
from screens.replay import ReplayLog, ReplayScreen
from screens.summary import SummaryScreen
from screens.table import TableApp
from tests.support.hostile import MARKUP, SHOWN, SYSTEMS, forged_fight, played_fight, raw_controls
from tests.ui.drive import press
from tests.view.helpers import screen_text, sync

SIZES = [(80, 24), (120, 36)]
NAMES = (MARKUP["hero"], MARKUP["orc"], MARKUP["boss"])


def cell_texts(table: DataTable) -> list[str]:
    return [str(table.get_cell_at((r, 0))) for r in range(table.row_count)]


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x36"])
@pytest.mark.parametrize("system_id", SYSTEMS)
@sync
async def test_markup_names_are_shown_literally_through_the_replay_and_its_summary(
    system_id: str, size: tuple[int, int], tmp_path: Path
) -> None:
    path = played_fight(system_id, tmp_path / "f.jsonl", MARKUP)
    app = TrackerApp(replay_path=path)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        log = screen.query_one(ReplayLog)
        lines = [log.line_text(i) for i in range(len(screen.timeline))]
        assert f"{MARKUP['hero']} joins the fight" in lines[1]
        assert any(MARKUP["cond"] in line for line in lines) and any(MARKUP["note"] in line for line in lines)
        assert f"{MARKUP['hero']} joins the fight" in screen_text(app)  # the log drawn at the start

        await press(pilot, "end")  # the end: the summary opens by itself
        summary = app.screen
        assert isinstance(summary, SummaryScreen), "the replay's end did not show the summary"
        assert cell_texts(summary.query_one("#fighters", DataTable)) == [f"{NAMES[0]} (PC)", *NAMES[1:]]
        text = screen_text(app)
        assert MARKUP["title"] in text  # the fight's name, in the summary's title line
        assert MARKUP["orc"] in text and MARKUP["boss"] in text
        assert "[/]" in text.split(MARKUP["orc"])[0]  # the hero's row comes first
        await pilot.click(DataTable, offset=(2, 1))  # on the first name: text, not a link
        await press(pilot, "escape")
        assert app.is_running and app.screen is screen
        assert MARKUP["orc"] in screen_text(app)  # the initiative list
        await press(pilot, "s")
        assert isinstance(app.screen, SummaryScreen)
    assert app.return_code in (None, 0)


@pytest.mark.parametrize("system_id", SYSTEMS)
@sync
async def test_control_characters_are_escaped_on_every_screen_of_the_replay(system_id: str, tmp_path: Path) -> None:
    path = forged_fight(system_id, tmp_path / "f.jsonl")
    app = TrackerApp(replay_path=path)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        n = len(screen.timeline)
        log = screen.query_one(ReplayLog)
        assert all(not raw_controls(log.line_text(i)) for i in range(n))
        seen = ""
        for position in range(0, n, 3):  # the list, the detail pane, the bar, prompts, the log at each point
            screen.goto(position)
            await pilot.pause()
            text = screen_text(app)
            assert not raw_controls(text), f"raw control characters at event {position}: {raw_controls(text)}"
            seen += text
        assert SHOWN in seen
        await press(pilot, "end")
        assert isinstance(app.screen, SummaryScreen)
        text = screen_text(app)
        assert not raw_controls(text) and SHOWN in text
        assert all(not raw_controls(name) for name in cell_texts(app.screen.query_one("#fighters", DataTable)))
        await press(pilot, "escape", "question_mark")  # the help names the file and its warnings
        assert not raw_controls(screen_text(app))


@pytest.mark.parametrize("system_id", SYSTEMS)
@sync
async def test_the_players_view_shows_control_characters_escaped(system_id: str, tmp_path: Path) -> None:
    path = forged_fight(system_id, tmp_path / "f.jsonl")
    app = TableApp(path)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        assert app.shown is not None
        text = screen_text(app)
        assert not raw_controls(text), raw_controls(text)
        assert SHOWN in text
        shown = app.shown
        words = [shown.title, shown.up, shown.on_deck, *shown.log]
        words += [w for row in shown.rows for w in (row.name, row.state, row.conditions)]
        assert all(not raw_controls(w) for w in words)


@pytest.mark.parametrize("system_id", SYSTEMS)
@sync
async def test_the_players_view_shows_markup_names_literally(system_id: str, tmp_path: Path) -> None:
    path = played_fight(system_id, tmp_path / "f.jsonl", MARKUP)
    app = TableApp(path)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert MARKUP["title"] in text and f"{MARKUP['hero']} (PC)" in text
        assert app.is_running
