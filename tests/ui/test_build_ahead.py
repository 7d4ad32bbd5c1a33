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
import gc
import random
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.pilot import Pilot
from textual.widgets import Input

from screens import fight as fight_screen
from screens import logic
from screens.app import TrackerApp
from screens.dialogs import base as dialogs_base
from screens.dialogs.base import Dialog, build_ahead, forget_dialogs, is_kept
from screens.dialogs.form import FormDialog
from screens.fight import FightScreen
from screens.widgets.initiative import InitiativeList
from tests.ui import test_robust as robust
from tests.ui.drive import build_fight, error_text, saved_state_matches
from tests.ui.test_table_jobs import SYSTEMS, fast, not_current, opened

opened_as: list[bool] = []  # each dialog opening: as one opened again (kept), or built anew
sized_at_open: list[list[tuple[str | None, Any]]] = []  # the scrolling parts' sizes as each dialog opened


def scrolled_sizes(dialog: Dialog[Any]) -> list[tuple[str | None, Any]]:
    """The size, inner size and scrollbar of each part of the dialog that scrolls (its fields, its list)."""
    parts = dialog.query("#fields, #choices")
    return [(w.id, (w.size, w.virtual_size, w.show_vertical_scrollbar and w.vertical_scrollbar.region)) for w in parts]


def dialog_keys(screen: FightScreen) -> list[str]:
    """Keys of dialogs built ahead: quick damage, a condition, the system's first keyed form, x, A."""
    own = [k for k, name in screen.system_keys.items() if (s := logic.find_spec(screen.system, name)) and s.params]
    return ["minus", "C", *own[:1], "x", "A"]


async def built(pilot: Pilot, screen: FightScreen, limit: int = 2000) -> None:
    for _ in range(limit):
        if screen.ahead_left == 0:
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"{screen.ahead_left} dialogs still to build")


def picture(app: TrackerApp) -> str:
    """The whole terminal as the GM sees it (every character, colour and style)."""
    return app.export_screenshot()


async def _open_each(pilot: Pilot, screen: FightScreen, built: bool) -> dict[str, Any]:
    """Open each dialog, take its picture, close it; ``built``: each must open as one built before (kept)."""
    app = pilot.app
    out: dict[str, Any] = {}
    for key in dialog_keys(screen):
        opened_as.clear()
        sized_at_open.clear()
        await fast(pilot, key)
        dialog = app.screen
        assert isinstance(dialog, Dialog), f"{key} opened {dialog}"
        assert opened_as == [built], f"{key}: {'built ahead' if built else 'built on the key'} expected"
        fields = dialog.query("#fields")
        at = [f.scroll_y for f in fields]
        for _ in range(3):
            await pilot.pause()
        assert [f.scroll_y for f in fields] == at, f"{key}: the fields still scroll after the dialog opened"
        assert dialog.focused is not None and dialog.can_view_entire(dialog.focused), f"{key}: the focus in view"

        if built:  # laid out ahead: its first showing lays nothing out anew (no scrollbar comes, no field narrows)
            assert sized_at_open == [scrolled_sizes(dialog)], f"{key}: laid out again when it showed"
        out[key] = (type(dialog).__name__, picture(app), dialog.focused and dialog.focused.id)
        await fast(pilot, "escape")
        assert app.screen is screen
    return out


@pytest.mark.parametrize(
    ("system_id", "size"),
    [*((s, (80, 24)) for s in SYSTEMS if s != "toy"), ("twod6", (120, 36))],  # twod6: the longest forms
)
def test_a_dialog_built_ahead_opens_as_one_built_on_the_key(
    system_id: str, size: tuple[int, int], data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each dialog built ahead looks, to the last character and colour, as the same dialog built when its key is
    pressed; the fight screen under them is as it was.  At 120x36 the theme changes after the building."""
    monkeypatch.setattr(fight_screen, "QUIET", 0.05)
    opened_at = Dialog._opened

    def noted(self: Dialog[Any], again: bool = False) -> None:
        if not self.building:
            opened_as.append(again)
            sized_at_open.append(scrolled_sizes(self))
        opened_at(self, again)

    monkeypatch.setattr(Dialog, "_opened", noted)
    path = build_fight(system_id, data_dir / f"{system_id}.jsonl").path
    asyncio.run(_same(path, size, flip=size[0] > 80, whole=system_id == "bnb"))


async def _same(path: Path, size: tuple[int, int], flip: bool, whole: bool) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=size) as pilot:
        screen = await opened(pilot)
        screen.query_one(InitiativeList).select(not_current(screen))
        await fast(pilot)
        before = picture(app)
        likely = screen.likely_dialogs()
        if not whole:  # the dialogs compared below (every one of them in bnb, the system with the most)
            keyed = [
                m for m in likely if isinstance(m, partial) and m.func == screen._asking_dialog and m.args[0].params
            ]
            likely = [likely[0], screen.condition_dialog, *keyed[:1], screen.actions_dialog, screen.add_dialog]
            screen.likely_dialogs = lambda: likely  # type: ignore[method-assign]
        screen.start_building_ahead()
        await built(pilot, screen)
        assert app.screen is screen and app.screen_stack[-1] is screen, "nothing left open"
        assert isinstance(app.focused, InitiativeList), "the focus stays on the list"
        made = [make() for make in likely]
        assert all(is_kept(app, d) for d in made if d is not None), "every likely dialog was built"
        assert picture(app) == before, "the fight screen is as it was"
        if flip:
            await fast(pilot, "ctrl+t")
        ahead = await _open_each(pilot, screen, built=True)
        forget_dialogs(app)
        anew = await _open_each(pilot, screen, built=False)
        for key, shown in anew.items():
            assert ahead[key] == shown, f"{key}: built ahead, it looks other than built on the key"


@pytest.mark.parametrize("hold_gone", [False, True], ids=["held", "hold-timed-out"])
def test_keys_typed_while_a_dialog_is_built_wait_and_arrive_in_order(data_dir: Path, hold_gone: bool) -> None:
    """Keys typed during a build wait for it, then reach the screen the GM sees, in order.  ``hold_gone``: on a
    very slow machine the hold on the keys gives up after HOLD_LIMIT while the dialog being built is still on
    top, unseen; the keys must still not reach it."""
    asyncio.run(_typed_meanwhile(build_fight("bnb", data_dir / "bnb.jsonl").path, hold_gone))


async def _typed_meanwhile(path: Path, hold_gone: bool) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened(pilot)
        target = not_current(screen)
        screen.query_one(InitiativeList).select(target)
        before = screen.fight.state.get(target)
        dialog = screen.harm_dialog(heal=False)
        building = asyncio.ensure_future(build_ahead(app, dialog))
        for _ in range(20):  # the build has begun: the keys below come while it runs
            if app.screen is dialog:
                break
            await asyncio.sleep(0)
        assert app.screen is dialog and dialog.building, "the dialog is on top, being built"
        if hold_gone:
            for _ in range(5):
                app.release_keys()  # as the hold's time limit does: nothing holds the keys any more
        for key, char in (("minus", "-"), ("1", "1"), ("enter", None)):
            app.post_message(events.Key(key, char))
        assert await building, "built, and the fight screen on top again"
        for _ in range(8):
            await pilot.pause()
        assert app.screen is screen, error_text(app) if isinstance(app.screen, FormDialog) else app.screen
        assert screen.fight.state.get(target) != before, "the damage typed during the build landed"
        amount = dialog.query_one("#f-amount", Input)
        assert amount.value == "1", "opened by the '-' (built ahead by then), then the 1 typed into it"
        assert saved_state_matches(app)


def test_building_ahead_waits_for_a_quiet_keyboard(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fight_screen, "QUIET", 1.0)  # twenty times the gap between the keys below
    asyncio.run(_busy(build_fight("zludge", data_dir / "z.jsonl").path))


async def _busy(path: Path) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened(pilot)
        typing = True

        async def type_on() -> None:
            while typing:
                app.post_message(events.Key("down", None))
                await asyncio.sleep(0.05)

        typist = asyncio.ensure_future(type_on())
        await asyncio.sleep(0.1)  # typing already
        screen.start_building_ahead()
        todo = screen.ahead_left
        assert todo >= 5
        await asyncio.sleep(2.5)  # a key every 0.05 s: never quiet for a second
        typing = False
        await typist
        assert screen.ahead_left == todo, "nothing built while the GM types"
        for _ in range(300):  # quiet now: the building starts
            if screen.ahead_left < todo:
                break
            await asyncio.sleep(0.02)
        assert screen.ahead_left < todo


def test_the_tracker_command_builds_ahead(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the GM runs builds ahead (the tests' apps do not unless asked, to keep their timing their own)."""
    seen: list[bool] = []
    monkeypatch.setattr(TrackerApp, "run", lambda self, *a, **k: seen.append(self.builds_ahead))
    from screens import app as app_mod

    assert app_mod.run() == 0
    assert seen == [True]


def test_random_keys_while_dialogs_are_built(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Keys at machine speed, with quiet moments between bursts where dialogs get built: no crash, nothing
    left open, and what was done is saved (tests/ui/test_robust.py does the same without building ahead)."""
    monkeypatch.setattr(fight_screen, "QUIET", 0.01)
    built_now: list[bool] = []

    async def counted(app: TrackerApp, dialog: Dialog[Any]) -> bool:
        built_now.append(await build_ahead(app, dialog))
        return built_now[-1]

    monkeypatch.setattr(dialogs_base, "build_ahead", counted)  # (the fight screen imports it from there when needed)
    path = build_fight("bnb", data_dir / "r.jsonl").path
    asyncio.run(_random(path, random.Random(31)))
    assert sum(built_now) >= 2, "dialogs were built between the bursts"


async def _random(path: Path, rng: random.Random) -> None:
    app = robust.StayingApp(open_path=path, builds_ahead=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = next(s for s in app.screen_stack if isinstance(s, FightScreen))  # (a dialog may be building)
        app.staying = True
        start = len(screen.fight.entries)
        for _ in range(12):  # 600 keys
            await robust._keys(pilot, rng, list(robust.FIGHT_KEYS), robust.BATCH)
            if rng.random() < 0.5:
                await asyncio.sleep(0.1)  # quiet: the next dialog is built
        await robust._back_to(pilot, FightScreen)
        assert app.return_code is None and app.screen is screen
        assert len(screen.fight.entries) > start, "the random keys did things"
        assert saved_state_matches(app)


def test_what_is_built_ahead_is_frozen_out_of_the_collector(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The ``tracker`` app freezes what lives at its first frame out of the garbage collector; once its dialogs are
    built ahead it collects and freezes again, while the GM is idle, so that no later full collection walks their
    widgets during a key.  An app that froze nothing (the tests' apps) leaves the collector as it is."""
    monkeypatch.setattr(fight_screen, "QUIET", 0.05)
    path = build_fight("zludge", data_dir / "z.jsonl").path
    try:
        for froze in (False, True):
            before, after = asyncio.run(_frozen_after_building(path, froze))
            assert (after > before) is froze, (
                f"froze at the first frame: {froze}; frozen before {before}, after {after}"
            )
    finally:  # what this test froze goes; what lives is frozen again, as tests/conftest.py left it
        gc.unfreeze()
        gc.collect()
        gc.freeze()


async def _frozen_after_building(path: Path, froze: bool) -> tuple[int, int]:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened(pilot)
        app._frozen = froze  # as the tracker command's first frame leaves it (see TrackerApp._settle)
        before = gc.get_freeze_count()
        screen.start_building_ahead()
        await built(pilot, screen)
        for _ in range(3):
            await pilot.pause()
        return before, gc.get_freeze_count()


@pytest.mark.parametrize("size", [(80, 24), (120, 36), (70, 20)], ids=["same", "larger", "smaller"])
def test_a_dialog_built_ahead_at_another_size_opens_with_its_field_in_view(
    size: tuple[int, int], data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The terminal resized between the building and the first opening: the long attack form (its focused
    field far down) opens laid out for the new size, with the focused field in view, and stays still."""
    monkeypatch.setattr(fight_screen, "QUIET", 0.05)
    path = build_fight("twod6", data_dir / "t.jsonl").path
    asyncio.run(_resized_between(path, size))


async def _resized_between(path: Path, size: tuple[int, int]) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened(pilot)
        screen.start_building_ahead()
        await built(pilot, screen)
        await pilot.resize_terminal(*size)
        await fast(pilot)
        await fast(pilot, "a")
        dialog = app.screen
        assert isinstance(dialog, FormDialog) and dialog.focused is not None
        fields = dialog.query_one("#fields")
        at = fields.scroll_y
        for _ in range(3):
            await pilot.pause()
        assert fields.scroll_y == at, "the fields still scroll after the dialog opened"
        assert dialog.can_view_entire(dialog.focused), f"the focused field {dialog.focused.id} is out of view"


@pytest.mark.parametrize("crashes", [False, True])
def test_the_tracker_command_hands_frames_to_the_terminal_at_once(
    monkeypatch: pytest.MonkeyPatch, crashes: bool
) -> None:
    """While the GM's app runs, a thread waiting for the interpreter (Textual's writer, with a frame) gets it within
    half a millisecond, not Python's 5 (the fight's first frame reached the terminal 9 ms late in half the launches);
    the interval is Python's own again once the app ends, however it ends."""
    import sys

    from screens import app as app_mod

    seen: list[float] = []

    def run(self: TrackerApp, *args: Any, **kwargs: Any) -> None:
        seen.append(sys.getswitchinterval())
        if crashes:
            raise RuntimeError("a crash")

    before = sys.getswitchinterval()
    monkeypatch.setattr(TrackerApp, "run", run)
    if crashes:
        with pytest.raises(RuntimeError):
            app_mod.run()
    else:
        assert app_mod.run() == 0
    assert seen == [app_mod.SWITCH_INTERVAL] and app_mod.SWITCH_INTERVAL <= 0.0005
    assert sys.getswitchinterval() == before
