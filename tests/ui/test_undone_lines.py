"""The live log strikes through the lines of an action taken back, as the replay does (a GM scrolling back could not
tell which results stood: only the "undone:" line, far below, said so); redone, they are drawn plain again, and a
fight opened again shows them struck through too."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from screens.actions.history import UNDONE_STYLE
from screens.app import TrackerApp
from screens.widgets.log import LogView
from tests.ui.drive import build_fight
from tracker import Damage


def styles(log: LogView, seqs: range) -> set[str]:
    """The styles the log draws the lines of these events in."""
    return {style for text, style in log.kept if (m := re.match(r" *(\d+) ", text)) and int(m.group(1)) in seqs}


@pytest.mark.parametrize("system_id", ["bnb", "blackjack", "zludge", "twod6"])
def test_undone_lines_are_struck_through_and_redone_ones_plain(system_id: str, tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    fight = build_fight(system_id, path)
    hero = fight.state.by_name("Hero")
    assert hero is not None
    amount = fight.system.harm_params(False)[0]
    fight.do(Damage(targets=(hero.id,), amount=amount.choices[1] if amount.choices else "1"))
    span = fight.log.action_seqs(fight.entries[-1].action)
    assert span is not None
    hit = range(span[0], span[1] + 1)
    fight.close()

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=(120, 36)) as pilot:
            await pilot.pause()
            log = app.screen.query_one(LogView)
            assert styles(log, hit) == {""}
            await pilot.press("u")
            await pilot.pause()
            assert styles(log, hit) == {UNDONE_STYLE}
            drawn = [s for s in log.lines if (m := re.match(r" *(\d+) ", s.text)) and int(m.group(1)) in hit]
            assert drawn and all(seg.style and seg.style.strike for s in drawn for seg in s if seg.text.strip())
            await pilot.press("U")
            await pilot.pause()
            assert styles(log, hit) == {""}
            await pilot.press("u")
            await pilot.pause()
            await pilot.press("q")

        again = TrackerApp(open_path=path)
        async with again.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert styles(again.screen.query_one(LogView), hit) == {UNDONE_STYLE}

    asyncio.run(run())
