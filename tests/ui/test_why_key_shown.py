"""Why? (Y), the app's headline key, on the key bars (audit a13/w4, finding 3: it was on none of them).

The fight screen draws "Y Why?" at the end of its bar (the table or the log focused), the replay at the end of its
own bar; both only where every key fits with it: at 120 columns in every system and phase; at 80 the table's bar
and the replay's are full (a more important key would go), and the fight's short bar with the log focused has it.  Drawn text asserted at 80×24 and 120×36 (the bars differ by system in setup:
blackjack's "I Order"), and the key on the bar works (a click opens Why?).  Ruling: screens/keys.py SPARE.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Static

from screens.app import TrackerApp
from screens.fight import FightScreen
from screens.replay import ReplayScreen
from screens.why import WhyDialog
from screens.widgets.footer import KeysFooter
from screens.widgets.log import LogView
from tests.ui.drive import build_fight
from tests.view.helpers import sync

SYSTEMS = ("toy", "bnb", "blackjack", "zludge", "twod6")
SIZES = [(80, 24), (120, 36)]
PLAY = "n Next - Dmg + Heal x Act C Cond = Adjust A Add u Undo U Redo T Dice ? Help"
BACK = "Tab/Esc Back to the table"
REPLAY_WIDE = "→ Step ← Back ] Action PgDn Round c Continue here s Summary e Export ? Help"
REPLAY_80 = "→ Step ← Back ] Action PgDn Round PgUp Back End c Continue ? Help"


def setup_keys(system_id: str) -> str:
    init = "I Order" if system_id == "blackjack" else "I Init"
    return f"x Act C Cond = Adjust A Add {init} S Start u Undo U Redo T Dice L Rest ? Help"


async def settle(pilot: object, times: int = 4) -> None:
    for _ in range(times):
        await pilot.pause()  # type: ignore[attr-defined]


def bar_line(bar: KeysFooter) -> str:
    line = bar.render_line(0).text
    assert len(line) == bar.size.width
    return line


def whole(bar: KeysFooter) -> None:
    """Every key drawn whole within the width (the palette's before its rule)."""
    placed = bar.placed()
    own = [k for k, at in zip(placed, bar.keys, strict=True) if at.x >= 0]
    right = next((k.x - 1 for k, at in zip(placed, bar.keys, strict=True) if at.x < 0), bar.size.width)
    assert all(k.x + k.width <= right for k in own), placed


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("system_id", SYSTEMS)
@sync
async def test_the_fight_bar_shows_why_where_it_fits(system_id: str, size: tuple[int, int], data_dir: Path) -> None:
    wide = size[0] >= 120
    for started, keys in ((True, PLAY), (False, setup_keys(system_id))):
        path = data_dir / f"{system_id}-{started}.jsonl"
        build_fight(system_id, path, start=started).close()
        app = TrackerApp(open_path=path)
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            screen = app.screen
            assert isinstance(screen, FightScreen)
            bar = screen.query_one(KeysFooter)
            table_bar = f"{keys} Y Why?" if wide else keys  # (at 80 the detail pane says "more: Y")
            assert bar_line(bar) == table_bar.ljust(size[0])
            screen.query_one(LogView).focus()
            await settle(pilot)
            line = bar_line(bar)
            if wide:
                assert line == f"{BACK} {keys} Y Why?".ljust(size[0]), line
                whole(bar)
                why = next(k for k in bar.placed() if k.description == "Why?")
                assert why.display == "Y" and why.tooltip.startswith("Why? The rules behind the log line")
            else:
                # the screen's keys do not fit with the log's: the short bar, Why? in it (tests/ui/test_key_bar.py)
                assert line.startswith("Tab/Esc Back to the table ") and line.rstrip().endswith("Y Why? ? Help"), line
            screen.query_one("#order").focus()
            await settle(pilot)
            assert bar_line(bar) == table_bar.ljust(size[0])  # (back to the table: as it was)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("system_id", SYSTEMS)
@sync
async def test_the_replay_bar_shows_why_where_it_fits(system_id: str, size: tuple[int, int], data_dir: Path) -> None:
    path = data_dir / f"{system_id}.jsonl"
    build_fight(system_id, path).close()
    app = TrackerApp(replay_path=path)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        bar = screen.query_one(KeysFooter)
        line = bar_line(bar)
        assert line.endswith("▏^p palette "), line
        whole(bar)
        if size[0] >= 120:
            assert line.startswith(f"{REPLAY_WIDE} Y Why? "), line
        else:
            assert line.startswith(f"{REPLAY_80} ") and "Why" not in line, line


@sync
async def test_a_click_on_why_in_the_bar_explains_the_log_line(data_dir: Path) -> None:
    """The key on the bar works as the key does: the fight's log line, the replay's cursor line."""
    path = data_dir / "bnb.jsonl"
    build_fight("bnb", path).close()
    app = TrackerApp(open_path=path)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, FightScreen)
        screen.query_one(LogView).focus()
        await settle(pilot)
        bar = screen.query_one(KeysFooter)
        why = next(k for k in bar.placed() if k.description == "Why?")
        await pilot.click(KeysFooter, offset=(why.x, 0))
        await settle(pilot)
        assert isinstance(app.screen, WhyDialog)
        last = screen.fight.entries[-1].seq
        text = str(app.screen.query_one("#why-text", Static).render())
        assert text.startswith(f"{last:>5}  "), text
    app = TrackerApp(replay_path=path)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        bar = screen.query_one(KeysFooter)
        why = next(k for k in bar.placed() if k.description == "Why?")
        await pilot.click(KeysFooter, offset=(why.x + 2, 0))
        await settle(pilot)
        assert isinstance(app.screen, WhyDialog)
