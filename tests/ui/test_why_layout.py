"""The Why? dialog keeps its key hint on screen however long the explanation (at 80×24 a long one pushed the
hint line "↑↓ PgUp PgDn scroll · Escape closes" out of the box, which then scrolled too: two scrollbars), and
only its body scrolls."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.text import Text

from screens.app import TrackerApp
from screens.dialogs.base import ask
from screens.fight import FightScreen
from screens.why import WhyDialog
from tests.ui.drive import build_fight, press
from tests.view.helpers import screen_text, sync
from tracker.events import OrderSet

SIZES = [(80, 24), (120, 36)]
HINT = "↑↓ PgUp PgDn scroll · Escape closes · the rules: tracker rules bnb"


def check_layout(app: TrackerApp, size: tuple[int, int]) -> None:
    """The hint is drawn on the screen, inside the box, below the body; the box itself does not scroll."""
    dialog = app.screen
    assert isinstance(dialog, WhyDialog)
    box, body, hint = (dialog.query_one(s) for s in ("#why-box", "#why-body", "#why-hint"))
    assert HINT in screen_text(app), screen_text(app)
    inner = box.content_region
    assert inner.contains_region(hint.region) and inner.contains_region(body.region)
    assert body.region.bottom <= hint.region.y
    assert box.region.bottom <= size[1]
    assert box.max_scroll_y == 0 and not box.show_vertical_scrollbar  # one scrollbar: the body's


@pytest.mark.parametrize("size", SIZES)
@sync
async def test_the_hint_shows_under_a_long_why_on_the_order_line(size: tuple[int, int], tmp_path: Path) -> None:
    """bnb, Tab, Up to the order line (ties: three rules with their terms), Y: the whole dialog, hint and all."""
    path = tmp_path / "bnb.jsonl"
    fight = build_fight("bnb", path)
    order = next(e.seq for e in fight.entries if isinstance(e.event, OrderSet))
    fight.close()
    app = TrackerApp(open_path=path)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, FightScreen)
        await press(pilot, "tab")
        log = screen.query_one("#log")
        for _ in range(20):
            if getattr(log, "selected_seq", None) == order:
                break
            await press(pilot, "up")
        assert getattr(log, "selected_seq", None) == order
        await press(pilot, "Y")
        check_layout(app, size)
        body = app.screen.query_one("#why-body")
        if size == (80, 24):
            assert body.max_scroll_y > 0  # long enough to scroll here: the case that lost its hint
        await press(pilot, "end")
        await pilot.wait_for_scheduled_animations()
        assert body.scroll_y == body.max_scroll_y
        text = screen_text(app)
        assert "their blows land even if one of them drops" in text and HINT in text
        check_layout(app, size)


@pytest.mark.parametrize("size", SIZES)
@sync
async def test_the_hint_shows_under_any_long_why(size: tuple[int, int], tmp_path: Path) -> None:
    """Long lines that wrap, more of them than the screen holds."""
    path = tmp_path / "bnb.jsonl"
    build_fight("bnb", path).close()
    app = TrackerApp(open_path=path)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        words = " ".join(f"word{n}" for n in range(30))
        ask(app, WhyDialog(Text("\n".join(f"{n} {words}" for n in range(40))), rules_page="tracker rules bnb"))
        await pilot.pause()
        check_layout(app, size)
        assert app.screen.query_one("#why-body").max_scroll_y > 0
