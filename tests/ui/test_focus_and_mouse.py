"""Issue #44 item 6 (focus that cannot mislead) and #46 item 5 (the mouse), on the fight screen.

A focused log says so in its border and the footer names the way back; ↑/↓
there select a log line (its event's number is ``LogView.selected_seq``); an
action key still acts on the table's highlighted row and gives the focus back
to the table.  The mouse: a click selects a row (a double click opens its
actions: test_initiative_list.py), a click on a footer key presses it, a click
on a log line selects it, the wheel scrolls the table and the log.  Asserted on
the rendered screen at 80×24 and 120×36.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual import events
from textual.pilot import Pilot
from textual.widget import Widget

from screens.app import TrackerApp
from screens.fight import FightScreen
from screens.widgets.footer import KeysFooter
from screens.widgets.initiative import InitiativeList
from screens.widgets.log import LogView
from tests.ui.drive import build_fight, press
from tests.view.helpers import screen_text
from tracker import commands as C

SIZES = [(80, 24), (120, 36)]
# how each system's quick damage is submitted from its form (bnb, zludge, twod6: an amount; blackjack: a level)
SUBMIT = {"bnb": ["1", "enter"], "zludge": ["1", "enter"], "twod6": ["1", "enter"], "blackjack": ["enter"]}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("system_id", list(SUBMIT))
def test_a_key_pressed_in_the_log_acts_on_the_tables_row_and_returns_focus_to_it(
    system_id: str, size: tuple[int, int], data_dir: Path
) -> None:
    fight = build_fight(system_id, data_dir / "f.jsonl")
    for n in range(6):  # a log long enough to scroll
        fight.do(C.Note(id=fight.state.combatants[0].id, text=f"note {n}"))
    fight.close()
    asyncio.run(_focus(data_dir / "f.jsonl", system_id, size))


async def _focus(path: Path, system_id: str, size: tuple[int, int]) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, FightScreen)
        table, log = screen.query_one(InitiativeList), screen.query_one(LogView)
        await press(pilot, "end")  # the table's highlighted row: the last combatant
        target = screen.fight.state.get(table.ids[-1]).name
        assert "LOG" not in screen_text(app) and "Log (Tab)" in screen_text(app)
        await press(pilot, "tab", "down", "down", "down")
        shown = screen_text(app)
        assert screen.focused is log
        assert "LOG (focused)" in shown and "Tab/Esc table" in shown, shown  # its border says so, and the way back
        assert "Back to the table" in screen.query_one(KeysFooter).descriptions, "the footer names the way back"
        assert "Back to the table" in shown.splitlines()[-1]
        assert log.selected_seq is not None, "↓ in the log selects a line"
        await press(pilot, "minus")
        assert f"Damage: {target}" in screen_text(app), screen_text(app)  # the table's row, not the log's
        await press(pilot, *SUBMIT[system_id])
        await pilot.pause()
        shown = screen_text(app)
        assert app.screen is screen and screen.focused is table, "the focus is back on the table"
        assert "Log (Tab)" in shown and "LOG (focused)" not in shown
        assert any(target in line for line in log_lines(log)[-3:]), log_lines(log)[-3:]
        # Esc in the log goes back too (the screen's Esc, clearing marks, is not taken there)
        await press(pilot, "tab")
        assert screen.focused is log
        await press(pilot, "escape")
        assert screen.focused is table and "Log (Tab)" in screen_text(app)


async def wheel(pilot: Pilot[object], widget: Widget, up: bool) -> None:
    """A turn of the mouse wheel over ``widget``, sent to the app as the terminal sends it."""
    x, y = widget.region.x + 4, widget.region.y + 2
    kind = events.MouseScrollUp if up else events.MouseScrollDown
    pilot.app.post_message(kind(None, x, y, 0, -1 if up else 1, 0, False, False, False, screen_x=x, screen_y=y))
    await pilot.pause()


def log_lines(log: LogView) -> list[str]:
    return [" ".join(s.text.split()) for s in log.lines]


@pytest.mark.parametrize("size", SIZES)
def test_the_mouse_selects_a_log_line_presses_a_footer_key_and_scrolls_with_the_wheel(
    size: tuple[int, int], data_dir: Path
) -> None:
    fight = build_fight("bnb", data_dir / "m.jsonl", start=False)
    preset = next(p for p in fight.system.presets() if p.kind == "npc")
    fight.do(C.AddCombatant(name="Goon", preset=preset.id, count=30))
    fight.do(C.RollInitiative())
    fight.do(C.StartFight())
    fight.close()
    asyncio.run(_mouse(data_dir / "m.jsonl", size))


async def _mouse(path: Path, size: tuple[int, int]) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, FightScreen)
        table, log = screen.query_one(InitiativeList), screen.query_one(LogView)
        # a click on a log line selects it (and the log has the focus, saying so)
        await pilot.click(LogView, offset=(4, 2))
        await pilot.pause()
        seq, clicked = log.selected_seq, " ".join(log.render_line(1).text.split())  # (the border is row 0)
        assert seq is not None and log.cursor is not None
        selected = " ".join(log.kept[log.cursor][0].split())
        assert selected.startswith(f"{seq} ") and clicked in selected, (seq, clicked, selected)
        lit = log.get_component_rich_style("log-view--cursor").bgcolor
        assert any(s.style and s.style.bgcolor == lit for s in log.render_line(1)), "the clicked line is lit"
        assert screen.focused is log and "LOG (focused)" in screen_text(app)
        # the wheel scrolls the log (up: older lines) and the table (down: later rows)
        before = screen_text(app)
        top = log.scroll_y
        for _ in range(3):
            await wheel(pilot, log, up=True)
        await pilot.pause()
        assert log.scroll_y < top and screen_text(app) != before, "the wheel scrolls the log"
        rows_before = [table.render_line(y).text for y in range(1, 4)]
        for _ in range(3):
            await wheel(pilot, table, up=False)
        await pilot.pause()
        assert [table.render_line(y).text for y in range(1, 4)] != rows_before, "the wheel scrolls the table"
        # a click on a footer key presses it: Next passes the turn
        before_turn = screen.fight.state.current
        footer = screen.query_one(KeysFooter)
        key = next(k for k in footer.placed() if k.description == "Next")
        await pilot.click(KeysFooter, offset=(key.x + 1, 0))
        await pilot.pause()
        after = screen.fight.state.current
        assert after != before_turn
        assert f"turn: {screen.fight.state.get(after).name}" in screen_text(app)
