"""GM adjust of an optional text (twod6 "Useless limbs", zludge "Aspects checked off today"): the field's help
says how to clear it, and never that empty clears it.

The adjust form refuses an emptied optional text ("type none to clear it": an emptied field and Enter pressed too
soon wiped a whole value) and puts "none: clear it" before the system's help; the helps went on "…; empty: none"
and "comma-separated; empty: none checked", the opposite (audit a11, fix #4).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from screens.app import TrackerApp
from screens.dialogs.form import FormDialog
from screens.fight import FightScreen
from screens.widgets.initiative import InitiativeList
from tests.ui.drive import build_fight, error_text, press, type_text
from tests.view.helpers import screen_text
from tracker import commands as C
from tracker.model import PC


@pytest.mark.parametrize(
    ("system_id", "label", "before", "value"),
    [
        ("twod6", "Useless limbs", None, "left leg -3"),
        ("zludge", "Aspects checked off today", ("aspects_text", "Brave, Quick"), "Brave"),
    ],
)
def test_an_optional_texts_help_says_none_clears_and_not_empty(
    system_id: str,
    label: str,
    before: tuple[str, str] | None,
    value: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TRACKER_DATA_DIR", str(tmp_path))
    path = tmp_path / "f.jsonl"
    fight = build_fight(system_id, path)
    hero = next(c for c in fight.state.combatants if c.kind == PC)
    if before is not None:
        fight.do(C.Adjust(id=hero.id, field=before[0], value=before[1]))
    fight.close()  # type: ignore[attr-defined]

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=(120, 36)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, FightScreen)
            screen.query_one(InitiativeList).select(hero.id)
            await press(pilot, "equals_sign")
            await type_text(pilot, label)
            await press(pilot, "enter")
            dialog = app.screen
            assert isinstance(dialog, FormDialog), screen_text(app)
            field = dialog.params[0]
            assert field.label == label
            assert field.help.startswith("none: clear it")
            assert "empty" not in field.help
            await type_text(pilot, value)
            await press(pilot, "enter")
            assert isinstance(app.screen, FightScreen), error_text(app)
            await press(pilot, "equals_sign")
            await type_text(pilot, label)
            await press(pilot, "enter")
            await press(pilot, "ctrl+u")
            shown = screen_text(app)
            assert "none: clear it" in shown and "empty: none" not in shown  # (the help, shown while it is empty)
            await press(pilot, "enter")
            assert "type none to clear it" in error_text(app)

    asyncio.run(run())
