"""A form shows the focused field's whole help, and keeps its error line and buttons on screen at 80x24.

- The hint line under the fields says the focused field's help, whole (wrapping), whatever its kind, and follows
  the focus.  A help only showed as a text field's placeholder: cut to the field's width ("…at 0 HP or below: a
  deat"), gone once the field held a value, and never shown for a choice, a yes/no or a combatant.
- The title and help are docked at the top, the hint, the error and the buttons at the bottom, and the fields
  scroll between: zludge's contest (a help of seven lines) pushed its refusal and OK/Cancel off an 80x24 screen,
  so Enter on a bad modifier seemed to do nothing.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from screens.app import TrackerApp
from screens.dialogs.form import FormDialog
from screens.fight import FightScreen
from screens.widgets.fields import field_id
from tests.ui.drive import build_fight, error_text, press, type_text
from tests.ui.test_table_view import SIZES
from tests.view.helpers import screen_text

QUICK_DAMAGE = "7, 3+4 or 2d6+1; at 0 HP or below: a death save"


def dialog_text(app: TrackerApp) -> str:
    """The open dialog's text as one line: its rows inside the border, joined (a wrapped help reads whole)."""
    rows = []
    for line in screen_text(app).splitlines():
        if line.count("█") >= 2:
            rows.append(line[line.index("█") + 1 : line.rindex("█")].strip())
    return " ".join(" ".join(rows).split())


async def focus_field(pilot: Pilot[Any], title: str) -> str:
    """Tab to the field titled ``title``; its help."""
    dialog = pilot.app.screen
    assert isinstance(dialog, FormDialog)
    param = next(p for p in dialog.params if p.title == title)
    for _ in range(len(dialog.params) + 1):
        if pilot.app.focused is not None and pilot.app.focused.id == field_id("f", param.name):
            return param.help
        await press(pilot, "tab")
    raise AssertionError(f"{title} never had the focus")


@pytest.mark.parametrize("size", SIZES)
def test_quick_damage_shows_its_whole_help(size: tuple[int, int], data_dir: Path) -> None:
    asyncio.run(_quick_damage(build_fight("bnb", data_dir / "q.jsonl").path, size))


async def _quick_damage(path: Path, size: tuple[int, int]) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, FightScreen)
        await press(pilot, "minus")
        assert isinstance(app.screen, FormDialog)
        assert QUICK_DAMAGE in dialog_text(app), screen_text(app)
        await type_text(pilot, "7")  # a value in the field: the help is still said
        await pilot.pause()
        assert QUICK_DAMAGE in dialog_text(app), screen_text(app)


@pytest.mark.parametrize("size", SIZES)
def test_a_choice_field_shows_its_help_and_the_hint_follows_the_focus(size: tuple[int, int], data_dir: Path) -> None:
    asyncio.run(_choice(build_fight("twod6", data_dir / "c.jsonl").path, size))


async def _choice(path: Path, size: tuple[int, int]) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await press(pilot, "k")
        assert isinstance(app.screen, FormDialog)
        takes = await focus_field(pilot, "Takes")
        assert takes.startswith("auto: on its own turn")
        assert " ".join(takes.split()) in dialog_text(app), screen_text(app)
        aim = await focus_field(pilot, "Use aim")  # a yes/no field
        assert aim and " ".join(aim.split()) in dialog_text(app), screen_text(app)
        assert takes[:40] not in dialog_text(app)  # the hint is the focused field's


@pytest.mark.parametrize("size", SIZES)
def test_the_zludge_contest_shows_its_refusal_and_buttons(size: tuple[int, int], data_dir: Path) -> None:
    asyncio.run(_contest(build_fight("zludge", data_dir / "z.jsonl").path, size))


async def _contest(path: Path, size: tuple[int, int]) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await press(pilot, "k")
        assert isinstance(app.screen, FormDialog)
        await focus_field(pilot, "First's situational modifiers")
        await type_text(pilot, "high ground +7")
        await press(pilot, "enter")
        assert isinstance(app.screen, FormDialog)
        said = error_text(app)  # type: ignore[arg-type]
        assert "high ground +7" in said
        shown = dialog_text(app)
        assert " ".join(said.split()) in shown, screen_text(app)
        assert "OK Cancel" in shown, screen_text(app)
