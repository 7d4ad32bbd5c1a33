"""A choice field shows the words a GM reads ("Willpower"), and gives the command the choice itself ("wil")."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from screens.app import TrackerApp
from screens.dialogs.form import FormDialog
from screens.widgets.fields import Cycle
from tests.ui.drive import build_fight, press
from tests.ui.test_start import drawn_text
from tracker import commands as C


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
def test_twod6_resolve_form_names_the_stat(tmp_path: Path, size: tuple[int, int]) -> None:
    path = tmp_path / "f.jsonl"
    build_fight("twod6", path).close()

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await press(pilot, "r")
            assert isinstance(app.screen, FormDialog)
            stat = app.screen.query_one("#f-stat", Cycle)
            drawn = drawn_text(stat)
            assert "Willpower" in drawn and "wil" not in drawn.replace("Willpower", ""), drawn
            stat.focus()
            await press(pilot, "right")  # the next choice: Toughness
            assert "Toughness" in drawn_text(stat)
            assert stat.value == "tou"  # what the command gets is the choice, not its label

    asyncio.run(run())


def test_choice_labels_one_for_each_choice() -> None:
    p = C.Param(name="stat", kind=C.CHOICE, choices=("wil", "tou"), choice_labels=("Willpower", "Toughness"))
    assert p.choice_label("tou") == "Toughness"
    assert C.Param(name="x", kind=C.CHOICE, choices=("a",)).choice_label("a") == "a"
