"""Zludge contests between two combatants (book l.19–20; rules contest_simple and contest_regular).

Simple: the two ability scores compared with no roll, the higher wins, equal scores become a
regular contest. Regular: both roll their skill with their own penalties; a tie rolls again,
both sides, as many times as needed; every roll is logged.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from screens.app import TrackerApp
from screens.dialogs.form import FormDialog
from screens.fight import FightScreen
from systems.zludge import system
from systems.zludge.commands import MarkWound
from systems.zludge.contest import Contest, ContestRolled
from tests.systems.zludge.helpers import F, add, new_fight, script
from tests.ui.drive import build_fight, submit_form
from tests.view.helpers import screen_text
from tracker.errors import Refused

STRONG = {"skills": "Athletics 3"}  # Athletics +2
WEAK = {"skills": "Athletics 1"}  # Athletics +0


def test_simple_contest_compares_scores_without_a_roll() -> None:
    """l.19: compare the two ability scores, the higher one wins; no roll is involved."""
    f = new_fight()  # no faces: any roll would run out of dice
    a, b = add(f, "Ann", **STRONG), add(f, "Bo", kind="npc", **WEAK)
    (ev,) = f.do(Contest(actor=a, target=b, skill="Athletics", kind="simple"))
    assert isinstance(ev, ContestRolled) and ev.winner == a
    assert ev.first.roll is None and ev.second.roll is None
    assert ev.describe(f.state).endswith("Ann wins") and "no roll" in ev.describe(f.state)


def test_equal_scores_become_a_regular_contest() -> None:
    """l.19: if the scores are the same, treat it as a regular contest."""
    f = new_fight()
    a, b = add(f, "Ann", **WEAK), add(f, "Bo", kind="npc", **WEAK)
    script(f, F(1), F(-1))
    events = f.do(Contest(actor=a, target=b, skill="Athletics", kind="simple"))
    assert [(e.kind, e.winner) for e in events] == [("simple", ""), ("regular", a)]
    assert "equal scores" in events[0].describe(f.state)


def test_a_tie_rolls_again_both_sides_until_settled_every_roll_logged() -> None:
    """l.20: each makes the skill roll; if there is a tie, roll again (as many times as needed)."""
    f = new_fight()
    a, b = add(f, "Ann", **STRONG), add(f, "Bo", kind="npc", **STRONG)
    script(f, F(0), F(0), F(2), F(2), F(-1), F(1))
    events = f.do(Contest(actor=a, target=b, skill="Athletics"))
    assert [(e.round, e.first.total, e.second.total, e.winner) for e in events] == [
        (1, 2, 2, ""),
        (2, 4, 4, ""),
        (3, 1, 3, b),
    ]
    assert f.roller.exhausted
    assert "tie: both roll again" in events[0].describe(f.state)
    last = f.entries[-3:]
    assert [e.event for e in last] == events and len({e.action for e in last}) == 1  # one logged action


def test_each_side_rolls_with_its_own_penalties() -> None:
    """Rule contest_regular (l.20): both sides roll their skill with their own penalties (a wound here)."""
    f = new_fight()
    a, b = add(f, "Ann", **STRONG), add(f, "Bo", kind="npc", **STRONG)
    f.do(MarkWound(target=a, level=2))  # Hurt: a penalty on Ann's rolls
    pen = sum(m.value for m in f.state.get(a).data.penalties(True))
    assert pen < 0
    script(f, F(0), F(0))
    (ev,) = f.do(Contest(actor=a, target=b, skill="Athletics"))
    assert ev.first.total == 2 + pen and ev.second.total == 2 and ev.winner == b


def test_a_contest_needs_two_combatants() -> None:
    f = new_fight()
    a = add(f, "Ann", **STRONG)
    with pytest.raises(Refused, match="two different"):
        f.do(Contest(actor=a, target=a))


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
def test_the_contest_form_on_screen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]) -> None:
    """Pilot: the contest form (k) asks for both sides and the kind; a simple contest is logged on screen."""
    monkeypatch.setenv("TRACKER_DATA_DIR", str(tmp_path))
    asyncio.run(_form(build_fight("zludge", tmp_path / "c.jsonl").path, size))


async def _form(path: Path, size: tuple[int, int]) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, FightScreen)
        await pilot.press("k")
        await pilot.pause()
        assert isinstance(app.screen, FormDialog)
        text = screen_text(app)
        assert "Contest" in text and "Against" in text and "regular" in text, text
        app.screen.query_one("#f-kind").focus()
        await pilot.press("right")  # regular → simple
        await submit_form(pilot)
        await pilot.pause()
        assert not isinstance(app.screen, FormDialog), screen_text(app)
        shown = screen_text(app)  # equal scores (both Athletics -1): a regular contest follows
        assert "a regular contest" in shown and "contest, roll 1" in shown and " wins" in shown, shown
        assert system.id == "zludge"
