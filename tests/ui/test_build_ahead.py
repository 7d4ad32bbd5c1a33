"""The fight screen builds the dialogs a GM opens most while the keyboard is quiet (issue #12/#13).

Building a dialog's widgets is most of what its first opening costs; the
``tracker`` command's app builds quick damage, a condition, the system's own
keyed forms, healing, the actions list and the add dialog ahead, one at a time,
without drawing them.  A dialog built ahead must open exactly as one built when
the key is pressed, keys typed while one is being built must wait and then
arrive in order, and the GM must never see a dialog he did not open.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from screens import fight as fight_screen
from screens import logic
from screens.app import TrackerApp
from screens.dialogs.base import Dialog, build_ahead, forget_dialogs, is_kept
from screens.dialogs.form import FormDialog
from screens.fight import FightScreen
from screens.widgets.initiative import InitiativeList
from tests.ui.drive import build_fight, error_text, saved_state_matches
from tests.ui.test_table_jobs import SYSTEMS, fast, not_current, opened

CHAR_KEYS = {"-": "minus", "+": "plus"}


def dialog_keys(screen: FightScreen) -> list[str]:
    """Keys of dialogs built ahead: quick damage, a condition, the system's first keyed form, x, A."""
    own = [k for k, name in screen.system_keys.items() if (s := logic.find_spec(screen.system, name)) and s.params]
    return ["minus", "C", *own[:1], "x", "A"]


async def built(pilot: Pilot, screen: FightScreen, limit: int = 400) -> None:
    for _ in range(limit):
        if screen.ahead_left == 0:
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"{screen.ahead_left} dialogs still to build")


def picture(app: TrackerApp) -> str:
    """The whole terminal as the GM sees it (every character, colour and style)."""
    return app.export_screenshot()


async def _open_each(pilot: Pilot, screen: FightScreen) -> dict[str, Any]:
    app = pilot.app
    out: dict[str, Any] = {}
    for key in dialog_keys(screen):
        await fast(pilot, key)
        dialog = app.screen
        assert isinstance(dialog, Dialog), f"{key} opened {dialog}"
        for _ in range(3):
            await pilot.pause()
        out[key] = (type(dialog).__name__, picture(app), dialog.focused and dialog.focused.id)
        await fast(pilot, "escape")
        assert app.screen is screen
    return out


@pytest.mark.parametrize(
    ("system_id", "size"),
    [*((s, (80, 24)) for s in SYSTEMS), ("bnb", (120, 36)), ("twod6", (120, 36))],
)
def test_a_dialog_built_ahead_opens_as_one_built_on_the_key(
    system_id: str, size: tuple[int, int], data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each dialog built ahead looks, to the last character and colour, as the same dialog built when its key is
    pressed; the fight screen under them is as it was.  At 120x36 the theme changes after the building."""
    monkeypatch.setattr(fight_screen, "QUIET", 0.05)
    asyncio.run(_same(build_fight(system_id, data_dir / f"{system_id}.jsonl").path, size, flip=size[0] > 80))


async def _same(path: Path, size: tuple[int, int], flip: bool) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=size) as pilot:
        screen = await opened(pilot)
        screen.query_one(InitiativeList).select(not_current(screen))
        await fast(pilot)
        before = picture(app)
        screen.start_building_ahead()
        await built(pilot, screen)
        assert app.screen is screen and app.screen_stack[-1] is screen, "nothing left open"
        assert isinstance(app.focused, InitiativeList), "the focus stays on the list"
        assert all(is_kept(app, make()) for make in screen.likely_dialogs()), "every likely dialog was built"
        assert picture(app) == before, "the fight screen is as it was"
        if flip:
            await fast(pilot, "ctrl+t")
        ahead = await _open_each(pilot, screen)
        forget_dialogs(app)
        anew = await _open_each(pilot, screen)
        for key, shown in anew.items():
            assert ahead[key] == shown, f"{key}: built ahead, it looks other than built on the key"


def test_keys_typed_while_a_dialog_is_built_wait_and_arrive_in_order(data_dir: Path) -> None:
    asyncio.run(_typed_meanwhile(build_fight("bnb", data_dir / "bnb.jsonl").path))


async def _typed_meanwhile(path: Path) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened(pilot)
        target = not_current(screen)
        screen.query_one(InitiativeList).select(target)
        before = screen.fight.state.get(target)
        building = asyncio.ensure_future(build_ahead(app, screen.harm_dialog(heal=False)))
        await asyncio.sleep(0)  # the build has begun: the keys below come while it runs
        await fast(pilot, "minus", "1", "enter")
        assert await building, "built, and the fight screen on top again"
        for _ in range(6):
            await pilot.pause()
        assert app.screen is screen, error_text(app) if isinstance(app.screen, FormDialog) else app.screen
        assert screen.fight.state.get(target) != before, "the damage typed during the build landed"
        assert saved_state_matches(app)


def test_building_ahead_waits_for_a_quiet_keyboard(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fight_screen, "QUIET", 0.3)
    asyncio.run(_busy(build_fight("zludge", data_dir / "z.jsonl").path))


async def _busy(path: Path) -> None:
    app = TrackerApp(open_path=path, builds_ahead=True)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened(pilot)
        todo = screen.ahead_left
        assert todo >= 5
        for _ in range(12):  # a key every 0.1 s: never quiet for 0.3 s
            await pilot.press("down")
            await asyncio.sleep(0.1)
        assert screen.ahead_left == todo, "nothing built while the GM types"
        await built(pilot, screen)
        assert app.screen is screen


def test_the_tracker_command_builds_ahead(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the GM runs builds ahead (the tests' apps do not unless asked, to keep their timing their own)."""
    seen: list[bool] = []
    monkeypatch.setattr(TrackerApp, "run", lambda self, *a, **k: seen.append(self.builds_ahead))
    from screens import app as app_mod

    assert app_mod.run() == 0
    assert seen == [True]
