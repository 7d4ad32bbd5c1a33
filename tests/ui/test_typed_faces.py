"""Typed-in dice: the faces the GM types, run together or spaced, are the faces recorded (see
``tracker.dice.parse_faces``), on the real app at 80×24 and 120×36."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from screens.app import TrackerApp
from screens.dialogs.faces import FacesDialog
from screens.fight import FightScreen
from tests.ui.drive import answer_faces, build_fight, error_text, press, type_text

SIZES = [(80, 24), (120, 36)]

# system: (the action's key, the faces typed run together, the faces the log shows for them)
RUN_TOGETHER = {
    "zludge": ("a", "0000", "[0,0,0,0]"),
    "twod6": ("a", "34", "[3,4]"),
}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("system_id", list(RUN_TOGETHER))
def test_faces_typed_run_together_are_the_faces_recorded(system_id: str, size: tuple[int, int], data_dir: Path) -> None:
    """Four blank Fudge dice typed ``0000`` (refused before: "4dF needs 4 face(s), got 1") and a 3 and a 4 typed
    ``34`` on 2d6 (a 3 and a 4) are taken as those faces: the dialog shows no error, the log draws the faces."""
    path = data_dir / "f.jsonl"
    build_fight(system_id, path).close()
    key, typed, shown = RUN_TOGETHER[system_id]

    async def run() -> None:
        app = TrackerApp(open_path=path, fights_dir=data_dir)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await press(pilot, "T", key, "ctrl+s")
            assert isinstance(app.screen, FacesDialog), app.screen
            await type_text(pilot, typed)
            await press(pilot, "enter")
            assert not isinstance(app.screen, FacesDialog) or not error_text(app), error_text(app)
            await answer_faces(pilot)
            await pilot.pause()
            assert isinstance(app.screen, FightScreen), app.screen
            logged = "".join("".join(line.text.split()) for line in app.screen.query_one("#log").lines)
            assert shown in logged, logged  # the log's lines as drawn at this size

    asyncio.run(run())
