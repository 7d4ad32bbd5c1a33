"""A pick list's hint says "type to filter" wherever the focus is: once the GM has moved into the list with ↓,
a letter goes back to the filter (it was dropped, and Enter then picked the row the ↓s had reached: GM adjust of
blackjack's Outlaw 1 opened the Group form, not the Injuries typed), Backspace edits the filter."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.pilot import Pilot
from textual.widgets import Input, OptionList, Static

from screens.app import TrackerApp
from screens.dialogs.form import FormDialog
from screens.dialogs.pick import PickDialog
from screens.fight import FightScreen
from tests.ui.drive import build_fight, post_keys, press, type_text


def _filter(app: TrackerApp) -> Input:
    return app.screen.query_one("#filter", Input)


async def _adjust_pick(pilot: Pilot[Any], path: Path, who: str) -> PickDialog:
    """The fight open, ``who`` selected, = pressed: the "which value" list, ↓ ×12 into it."""
    app = pilot.app
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, FightScreen)
    c = screen.fight.state.by_name(who)
    assert c is not None
    screen.query_one("#order").select(c.id)  # type: ignore[attr-defined]
    await press(pilot, "equals_sign")
    dialog = app.screen
    assert isinstance(dialog, PickDialog)
    await press(pilot, *["down"] * 12)
    assert dialog.focused is dialog.query_one(OptionList)
    return dialog


@pytest.mark.parametrize("quick", [False, True], ids=["key_by_key", "sent_at_once"])
def test_typing_in_the_list_filters_and_enter_opens_the_typed_field(quick: bool, data_dir: Path) -> None:
    path = build_fight("blackjack", data_dir / "k1.jsonl").path

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=(80, 24)) as pilot:
            dialog = await _adjust_pick(pilot, path, "Outlaw 1")
            typed = ["I", "n", "j", "u", "r", "i", "e", "s"]
            if quick:  # a paste, SSH: the letters and Enter in the queue at once
                post_keys(pilot, *typed, "enter")
                await pilot.pause()
            else:
                await type_text(pilot, "Injuries")
                assert dialog.focused is _filter(app), "a letter goes back to the filter"
                assert _filter(app).value == "Injuries"
                assert [label for label, _v in dialog.shown_options] and all(
                    "injuries" in label.lower() for label, _v in dialog.shown_options
                ), dialog.shown_options
                await press(pilot, "enter")
            form = app.screen
            assert isinstance(form, FormDialog), form
            assert form.params[0].name == "injury_list", [p.name for p in form.params]

    asyncio.run(run())


def test_backspace_in_the_list_edits_the_filter(data_dir: Path) -> None:
    path = build_fight("blackjack", data_dir / "k2.jsonl").path

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=(80, 24)) as pilot:
            dialog = await _adjust_pick(pilot, path, "Outlaw 1")
            await type_text(pilot, "Injuriesx")
            assert str(dialog.query_one("#error", Static).content) == "nothing matches"
            await press(pilot, "down")  # back into the list (nothing in it)
            await press(pilot, "backspace")
            assert dialog.focused is _filter(app)
            assert _filter(app).value == "Injuries"
            assert dialog.shown_options and all("injuries" in label.lower() for label, _v in dialog.shown_options)
            await press(pilot, "down", "backspace", "backspace")  # in the list again: the filter loses two letters
            assert _filter(app).value == "Injuri"
            await press(pilot, "enter")
            form = app.screen
            assert isinstance(form, FormDialog) and form.params[0].name == "injury_list"

    asyncio.run(run())


def test_letters_then_down_in_the_list_and_enter_pick_that_row_of_the_filtered_list(data_dir: Path) -> None:
    path = build_fight("blackjack", data_dir / "k3.jsonl").path

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=(80, 24)) as pilot:
            dialog = await _adjust_pick(pilot, path, "Outlaw 1")
            ol = dialog.query_one(OptionList)
            await type_text(pilot, "i")  # back to the filter, then into the list again: ↓ ↓ is its second row
            assert _filter(app).value == "i" and dialog.focused is _filter(app)
            await press(pilot, "down", "down")
            assert dialog.focused is ol and ol.highlighted == 1
            want = dialog.shown_options[1][1]
            await press(pilot, "enter")
            form = app.screen
            assert isinstance(form, FormDialog) and form.params[0].name == want.name

    asyncio.run(run())


def test_enter_read_by_the_list_after_letters_it_passed_on_takes_the_filtered_row(data_dir: Path) -> None:
    """Letters and Enter that all reached the list before the dialog moved the focus (a paste, SSH): the list
    handles Enter after the letters came up from it, and its row is no longer what the GM meant."""
    path = build_fight("blackjack", data_dir / "k4.jsonl").path

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=(80, 24)) as pilot:
            dialog = await _adjust_pick(pilot, path, "Outlaw 1")
            ol = dialog.query_one(OptionList)
            for ch in "Injuries":
                ol.post_message(events.Key(ch, ch))
            ol.call_later(ol.action_select)  # the list's Enter, in its queue behind the letters
            await pilot.pause()
            form = app.screen
            assert isinstance(form, FormDialog), form
            assert form.params[0].name == "injury_list", [p.name for p in form.params]

    asyncio.run(run())


@pytest.mark.parametrize("quick", [False, True], ids=["key_by_key", "sent_at_once"])
def test_typing_in_the_add_dialog_s_presets_list_filters_it(quick: bool, data_dir: Path) -> None:
    """Regression check: the add dialog keeps its own presets list, which the pick list's fix did not reach:
    ``A ↓↓↓ wolf ⏎`` dropped "wolf" and took the preset the ↓s had reached. The letters go to its filter, and Enter
    takes the filter's first match."""
    from screens.dialogs.add import AddDialog

    path = build_fight("bnb", data_dir / "a1.jsonl").path

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, FightScreen)
            await press(pilot, "A")
            dialog = app.screen
            assert isinstance(dialog, AddDialog)
            await press(pilot, "down", "down", "down")
            assert dialog.focused is dialog.query_one(OptionList)
            if quick:
                post_keys(pilot, "w", "o", "l", "f", "enter")
                await pilot.pause()
            else:
                await type_text(pilot, "wolf")
                assert dialog.focused is _filter(app) and _filter(app).value == "wolf"
                await press(pilot, "enter")
            await pilot.pause()
            preset = " ".join(str(dialog.query_one("#preset", Static).render()).split())
            assert "Preset: Wolf" in preset, preset

    asyncio.run(run())
