"""A GM action taken after an undo drops the undone actions from the redo stack (the core's rule); the screen says
so with the action: "N undone action(s) can no longer be redone: …" under its log lines and in a toast.  It was
said nowhere, and the GM found out on pressing U (an attack undone with typed-in faces, gone).  Nothing is said
when there was nothing to redo, and nothing of it reaches the fight's file (the players' view reads the file)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

import saves
from screens.app import TrackerApp
from screens.fight import FightScreen
from screens.table import project
from screens.widgets.log import LogView
from tests.ui.drive import build_fight, press
from tracker import Damage

NOTE = "can no longer be redone"


def toasts(app: TrackerApp) -> list[str]:
    return [n.message for n in app._notifications]


def log_text(app: TrackerApp) -> list[str]:
    return [text for text, _style in app.screen.query_one(LogView).kept]


def hurt_twice(system_id: str, path: Path) -> tuple[str, str]:
    """A fight with two harms to Hero after the start; their descriptions as undo shows them (first, second)."""
    fight = build_fight(system_id, path)
    hero = fight.state.by_name("Hero")
    assert hero is not None
    amount = fight.system.harm_params(False)[0]
    said = []
    for n in (1, 2):  # told apart by their amounts
        fight.do(Damage(targets=(hero.id,), amount=amount.choices[n] if amount.choices else str(n)))
        said.append(fight.describe_action(fight.entries[-1].action))
    fight.close()
    return said[0], said[1]


@pytest.mark.parametrize("system_id", ["bnb", "blackjack", "zludge"])
def test_an_action_after_undo_says_what_can_no_longer_be_redone(system_id: str, data_dir: Path) -> None:
    path = data_dir / "f.jsonl"
    first, second = hurt_twice(system_id, path)

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=(120, 36)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, FightScreen)
            await press(pilot, "u", "u")
            assert screen.fight.can_redo
            saved = len(saves.load(path).entries)
            await press(pilot, "n")  # the next turn: a new GM action
            assert not screen.fight.can_redo
            new = len(screen.fight.entries) - saved
            assert new >= 1

            want = f"2 undone actions {NOTE}: "
            said = [t for t in toasts(app) if NOTE in t]
            assert len(said) == 1 and said[0].startswith(want), toasts(app)
            assert first[:40] in said[0] and second[:40] in said[0], said
            assert said[0].index(first[:40]) < said[0].index(second[:40]), "the next to redo first"
            lines = log_text(app)
            noted = [n for n, t in enumerate(lines) if NOTE in t]
            assert len(noted) == 1 and want in lines[noted[0]], lines[-6:]
            assert noted[0] == len(lines) - 1, "under the action's lines"
            assert screen.query_one(LogView).selected_seq is None

            # the file holds the action and nothing more: the players' view reads it
            again = saves.load(path)
            assert len(again.entries) == saved + new
            assert NOTE not in path.read_text("utf-8")
            public = project(again.system, again.fight())
            assert not any(NOTE in line for line in public.log)

            # nothing more to redo: the next action says nothing
            await press(pilot, "n")
            assert len([t for t in toasts(app) if NOTE in t]) == 1
            assert len([t for t in log_text(app) if NOTE in t]) == 1

    asyncio.run(run())


@pytest.mark.parametrize("system_id", ["bnb", "twod6"])
def test_one_undone_action_and_nothing_said_after_a_redo(system_id: str, data_dir: Path) -> None:
    path = data_dir / "g.jsonl"
    _first, second = hurt_twice(system_id, path)

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, FightScreen)
            await press(pilot, "u", "U", "n")  # undone, redone: nothing left to redo when the turn passes
            assert not any(NOTE in t for t in toasts(app) + log_text(app))
            await press(pilot, "u", "u", "n")  # the next turn undone, and the second harm: both dropped
            assert any(t.startswith(f"2 undone actions {NOTE}") for t in toasts(app)), toasts(app)
            await press(pilot, "u", "n")  # that turn undone, passed again: one dropped
            said = [t for t in toasts(app) if t.startswith(f"1 undone action {NOTE}: ")]
            assert len(said) == 1, toasts(app)
            assert second[:20] not in said[0]

    asyncio.run(run())
