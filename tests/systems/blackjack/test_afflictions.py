"""Blackjack: afflictions begin as moderate injuries (rule ``afflictions``, ruling on blackjack l.182).

Hunger, thirst, poison, snake venom and disease begin as moderate injuries: the injury form
starts "by cause", which gives moderate for those causes and lesser for any other; the GM may
still pick a level, and the level picked stands.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from screens.app import TrackerApp
from screens.dialogs.form import FormDialog
from screens.fight import FightScreen
from systems.blackjack import system
from systems.blackjack.commands import BY_CAUSE, Injure
from systems.blackjack.events import InjuryMarked
from tests.systems.blackjack.helpers import new_fight, of_type, pc
from tests.ui.drive import build_fight, fill, submit_form
from tests.view.helpers import screen_text


def _level(f, events) -> str:  # type: ignore[no-untyped-def]
    (e,) = of_type(events, InjuryMarked)
    return e.steps[-1]


@pytest.mark.parametrize(
    ("name", "tags"),
    [("hunger", ""), ("thirst", ""), ("poison", ""), ("bite", "snake venom"), ("disease", ""), ("the pox", "disease")],
)
def test_an_affliction_begins_moderate_by_its_cause(name: str, tags: str) -> None:
    """Book l.182: hunger, thirst, poison, snake venom, disease begin as moderate injuries."""
    f = new_fight()
    d = pc(f, "Dusty")
    assert _level(f, f.do(Injure(target=d, level=BY_CAUSE, name=name, tags=tags))) == "moderate"


def test_any_other_cause_begins_lesser_and_the_gms_pick_stands() -> None:
    """Book l.182 ruling: 'unless the GM picks otherwise' — a named level is used as picked."""
    f = new_fight()
    d = pc(f, "Dusty")
    assert _level(f, f.do(Injure(target=d, level=BY_CAUSE, name="bruise"))) == "lesser"
    assert _level(f, f.do(Injure(target=d, level="lesser", name="hunger"))) == "lesser"
    assert _level(f, f.do(Injure(target=d, level="severe", name="poison"))) == "severe"


def test_the_injury_form_starts_by_cause() -> None:
    """The form's level starts 'by cause' (l.182), so typing only the cause is enough."""
    spec = next(s for s in system.commands() if s.name == "injure")
    assert spec.make({"target": "c1", "name": "thirst"}).level == BY_CAUSE


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
def test_the_injury_form_marks_snake_venom_moderate_on_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    """Pilot: the injury form, left at 'by cause', logs snake venom as a moderate injury (l.182)."""
    monkeypatch.setenv("TRACKER_DATA_DIR", str(tmp_path))
    path = build_fight("blackjack", tmp_path / "v.jsonl").path
    asyncio.run(_venom(path, size))


async def _venom(path: Path, size: tuple[int, int]) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, FightScreen)
        hero = screen.fight.state.by_name("Hero")
        assert hero is not None
        screen.query_one("#order").select(hero.id)  # type: ignore[attr-defined]
        await pilot.press("j")  # Inflict injury
        await pilot.pause()
        assert isinstance(app.screen, FormDialog)
        await pilot.pause()
        assert "by cause" in screen_text(app), screen_text(app)
        await fill(pilot, "f-name", "snake venom")
        await submit_form(pilot)
        await pilot.pause()
        assert not isinstance(app.screen, FormDialog)
        shown = screen_text(app)
        assert "Hero injury (snake venom): moderate" in shown, shown
