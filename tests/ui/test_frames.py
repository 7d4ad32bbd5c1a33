"""What the terminal gets, frame by frame, from the real ``tracker`` command (issue #13).

Pilot runs the app headless and never writes a frame, so these tests run the
command in a pseudo-terminal and read its frames (see tests/ui/terminal.py).

- Textual mounts an app inside a batch update, and a frame painted inside one is
  thrown away.  The app once pushed the fight screen from its mount: the fight's
  first whole frame was painted there and lost, the terminal got only the partial
  frames after it, and the top bar (round, whose turn) came a layout later.
- A line above the list that appears or grows (a prompt, the undo note) moves
  the list down: the screen is laid out in the same frame, not 30-40 ms later.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import saves
from screens import logic
from tests.ui.drive import build_fight
from tests.ui.terminal import Terminal
from tracker.model import FightState
from tracker.text import visible

ROWS, COLS = 32, 100


@contextlib.contextmanager
def fight_in_terminal(
    system_id: str, tmp_path: Path, data_dir: Path, settle: bool = True
) -> Iterator[tuple[Terminal, FightState]]:
    """The real command on a small started fight, once its top bar shows; ``settle``: and once it has been
    quiet for a second (a test of the frames a key makes waits for the launch's own)."""
    fight = build_fight(system_id, tmp_path / "fight.jsonl")
    state = fight.state
    fight.close()
    term = Terminal(["--save", str(fight.path)], data_dir, COLS, ROWS)
    try:
        term.wait_for(f"turn: {state.name(state.current)}")
        if settle:
            term.quiet(1.0)
        yield term, state
    finally:
        term.close()


@pytest.mark.parametrize("system_id", ["bnb", "blackjack", "zludge", "twod6"])
def test_the_first_frame_of_a_continued_fight_is_whole(system_id: str, tmp_path: Path, data_dir: Path) -> None:
    with fight_in_terminal(system_id, tmp_path, data_dir, settle=False) as (term, state):
        name = state.name(state.current)
        first = term.wait_for(name)
        frame = term.frames[first]
        assert f"turn: {name}".encode() in frame, f"the first frame showing the fight has no top bar: {frame[:300]!r}"
        assert all(c.name.encode() in frame for c in state.present), "the first frame showing the fight lacks rows"
        # its keys and the log's newest line too: the key bar was built a frame or more later, and the log
        # (a RichLog) first drew nothing, then its oldest lines, then its newest
        assert b" Help" in frame and b" Next" in frame, "the first frame showing the fight has no keys"
        newest = visible(logic.entry_lines(saves.load(tmp_path / "fight.jsonl").fight(), limit=1)[-1])
        assert newest[:30].encode() in frame, f"the first frame's log lacks its newest line {newest[:30]!r}"


def test_a_prompt_raised_by_damage_shows_in_the_frame_that_shows_the_damage(tmp_path: Path, data_dir: Path) -> None:
    """The prompt line above the list grows the screen's top: it must not come a layout (30-40 ms) later."""
    with fight_in_terminal("twod6", tmp_path, data_dir) as (term, _):
        term.press("minus", "1", "enter", gap=0.3)  # as a person types: each key is taken and shown first
        damage = term.wait_for("takes 1 wound")
        shown = term.frames[damage]
        assert "⚠ ".encode() in shown, "the resolve-check prompt came in a later frame than the damage"


def rows_written(frame: bytes) -> set[int]:
    """The terminal rows a frame writes to (Textual moves the cursor to each line it draws)."""
    return {int(row) for row in re.findall(rb"\x1b\[(\d+);\d+H", frame)}


def test_a_turn_repaints_what_it_changes_not_the_whole_screen(tmp_path: Path, data_dir: Path) -> None:
    """Laying the screen out with an action's changes must not also ask for the whole screen to be drawn
    again: a second, full frame came after each turn (10 KB at 100x32, ~8 ms of drawing)."""
    with fight_in_terminal("bnb", tmp_path, data_dir) as (term, _):
        before = len(term.frames)
        term.press("n")
        term.quiet(0.5)
        after = term.frames[before:]
        assert after, "the turn drew nothing"
        whole = [len(rows_written(f)) for f in after]
        assert max(whole) < ROWS, f"a frame drew every row of the screen again: rows per frame {whole}"


def test_the_key_bar_is_one_widget_drawn_again_only_when_its_keys_change(tmp_path: Path) -> None:
    """Textual's footer mounted a widget per key, again after each change of the screen's bindings (as a fight
    opens, as each dialog opens and closes).  The key bar is one widget with nothing in it: a turn that changes
    no key leaves it as it was drawn; a change of the keys (the fight ending) draws it again."""
    from screens.app import TrackerApp
    from screens.fight import FightScreen
    from screens.widgets.footer import KeysFooter

    fight = build_fight("bnb", tmp_path / "fight.jsonl")
    fight.close()

    async def run() -> None:
        app = TrackerApp(open_path=fight.path)
        async with app.run_test(size=(COLS, ROWS)) as pilot:
            for _ in range(10):
                await pilot.pause()
            assert isinstance(app.screen, FightScreen)
            bar = app.screen.query_one(KeysFooter)
            assert not bar.children and "Next" in bar.descriptions
            keys = bar.keys
            await pilot.press("n")  # the next turn changes no key
            for _ in range(5):
                await pilot.pause()
            assert bar.keys is keys, "the key bar was worked out again for the same keys"
            await pilot.press("x")  # a dialog opens over the screen and closes: the same keys
            await pilot.press("escape")
            for _ in range(5):
                await pilot.pause()
            assert bar.keys is keys and app.screen.query_one(KeysFooter) is bar

    asyncio.run(run())


@pytest.mark.parametrize("size", [(80, 24), (120, 36)], ids=["80x24", "120x36"])
def test_the_prompt_and_the_reminder_stack_over_the_list_and_the_grid_keeps_its_size(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """Both lines sit at the top of the panes' grid, not above it: when one appears the grid keeps its place
    and size (drawing it anew at a new size was 4 ms of twod6's quick damage); the panes under the lines move
    down.  Each line shows whole, one under the other, above the list: neither covers the other."""
    from screens.app import TrackerApp
    from screens.fight import FightScreen
    from tracker import commands as C

    fight = build_fight("twod6", tmp_path / "fight.jsonl")
    current = fight.state.current
    assert current is not None
    fight.do(C.AddCondition(id=current, name="Pinned", rounds=3))  # the reminder line, at its turn
    fight.close()

    async def run() -> None:
        app = TrackerApp(open_path=fight.path)
        async with app.run_test(size=size) as pilot:
            for _ in range(5):
                await pilot.pause()
            screen = app.screen
            assert isinstance(screen, FightScreen)
            grid, order = screen.query_one("#main"), screen.query_one("#order")
            prompts, reminder = screen.query_one("#prompts"), screen.query_one("#reminder")
            assert reminder.display and not prompts.display
            grid_before, list_before = grid.region, order.region
            await pilot.press("minus", "1", "enter")  # a wound on the current combatant: a resolve prompt
            for _ in range(5):
                await pilot.pause()
            assert screen.fight.state.prompts and prompts.display and reminder.display
            assert grid.region == grid_before, "the grid moved or changed size as the prompt appeared"
            top, under, panes = prompts.region, reminder.region, order.region
            assert top.height >= len(screen.fight.state.prompts) and under.height >= 1
            assert top.y == grid.region.y and top.bottom <= under.y and under.bottom <= panes.y, (top, under, panes)
            assert panes.y > list_before.y, (panes, list_before)
            assert "⚠" in str(prompts.render()) and "Pinned" in str(reminder.render())

    asyncio.run(run())


def test_the_first_frame_of_the_start_screen_has_its_keys(data_dir: Path) -> None:
    """``tracker`` with no fight: the start screen's first frame shows its keys (Textual's footer drew them about
    125 ms after the screen)."""
    term = Terminal([], data_dir, COLS, ROWS)
    try:
        first = term.wait_for("New fight")
        frame = term.frames[first]
        assert b" Quit" in frame and b"^p" in frame and b" palette" in frame, (
            "the start screen's first frame has no keys"
        )
    finally:
        term.close()
