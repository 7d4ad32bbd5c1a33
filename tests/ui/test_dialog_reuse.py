"""A dialog opened again is the one kept from last time, showing only what the new one would (issue #12/#13).

Building a dialog's widgets is most of the time it takes to open, so a form of
the same shape (quick damage, a condition, an attack, the actions list) is kept
and given the new contents.  Nothing of last time may show through: not the
typed text, not an error, not the last targets, not the last title.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.widgets import Checkbox, Input, Label, Static
from textual.widgets.input import Selection

from screens.app import TrackerApp
from screens.dialogs.add import AddDialog
from screens.dialogs.form import FormDialog
from screens.dialogs.pick import PickDialog
from screens.fight import FightScreen
from screens.start import StartScreen
from screens.widgets.fields import TargetList
from screens.widgets.initiative import InitiativeList
from tests.ui.drive import build_fight, error_text, saved_state_matches
from tests.ui.test_table_jobs import SYSTEMS, fast, opened
from tracker import commands as C


def _title(app: TrackerApp) -> str:
    return str(app.screen.query_one("#title", Label).content)


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_a_form_opened_again_shows_nothing_of_last_time(system_id: str, data_dir: Path) -> None:
    path = build_fight(system_id, data_dir / f"{system_id}.jsonl").path
    for size in ((80, 24), (120, 36)):
        asyncio.run(_again(path, size))


async def _again(path: Path, size: tuple[int, int]) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=size) as pilot:
        screen = await opened(pilot)
        table = screen.query_one(InitiativeList)
        first, second = (c for c in screen.fight.state.present[:2])
        table.select(first.id)
        await fast(pilot, "minus")
        dialog = app.screen
        assert isinstance(dialog, FormDialog) and first.name in _title(app)
        amount = dialog.query(Input)
        if amount:  # a number the GM types (bnb, twod6, toy): a wrong one leaves an error under the form
            await fast(pilot, *"zz", "enter")
            assert error_text(app) and amount.first().value == "zz"
        await fast(pilot, "escape")
        assert isinstance(app.screen, FightScreen)

        table.select(second.id)
        await fast(pilot, "minus")
        assert app.screen is dialog, "the same form, opened again"
        assert second.name in _title(app) and first.name not in _title(app)
        assert not error_text(app), "last time's error is gone"
        assert all(not w.value for w in dialog.query(Input).results(Input)), "last time's text is gone"
        assert dialog.query_one(TargetList).value == (second.id,), "the new target, only"
        assert dialog.focused is not None and dialog.focused.id == f"f-{dialog.focus_name}"
        first_before, second_before = screen.fight.state.get(first.id), screen.fight.state.get(second.id)
        if amount:
            await fast(pilot, "1", "enter")
        else:  # a level (blackjack, zludge): its default is chosen
            await fast(pilot, "enter")
        assert isinstance(app.screen, FightScreen), error_text(app) if isinstance(app.screen, FormDialog) else ""
        assert screen.fight.state.get(first.id) == first_before, "the first target is untouched"
        assert screen.fight.state.get(second.id) != second_before, "the damage landed on the second"
        assert saved_state_matches(app)


@pytest.mark.parametrize("system_id", ["bnb", "zludge"])
def test_the_actions_list_opened_again_is_whole(system_id: str, data_dir: Path) -> None:
    asyncio.run(_actions(build_fight(system_id, data_dir / f"{system_id}.jsonl").path))


async def _actions(path: Path) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=(80, 24)) as pilot:
        await opened(pilot)
        await fast(pilot, "x")
        dialog = app.screen
        assert isinstance(dialog, PickDialog)
        count = len(dialog.shown_options)
        await fast(pilot, *"zzzz")
        assert dialog.shown_options == [] and "nothing matches" in str(dialog.query_one("#error", Static).content)
        await fast(pilot, "escape", "x")
        assert app.screen is dialog
        assert dialog.query_one("#filter", Input).value == ""
        assert len(dialog.shown_options) == count and not str(dialog.query_one("#error", Static).content)
        assert dialog.focused is dialog.query_one("#filter")


def test_a_new_fight_builds_its_dialogs_anew(data_dir: Path) -> None:
    """The kept dialogs hold the fight they were opened on: leaving the fight lets them go."""
    asyncio.run(_leave(build_fight("toy", data_dir / "t.jsonl").path))


async def _leave(path: Path) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=(80, 24)) as pilot:
        await opened(pilot)
        await fast(pilot, "minus")
        kept = app.screen
        assert isinstance(kept, FormDialog)
        await pilot.press("escape", "ctrl+w")  # (Textual's pace: the dialog is closed before the next key)
        for _ in range(10):
            await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        assert not app.is_screen_installed(kept) and not kept.is_attached, "let go with the fight"


def test_a_prefilled_field_opened_again_has_its_text_selected(data_dir: Path) -> None:
    """As when a form is new: the focused field's text is selected, so what the GM types replaces it."""
    asyncio.run(_prefilled(build_fight("toy", data_dir / "p.jsonl").path))


async def _prefilled(path: Path) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=(80, 24)) as pilot:
        await opened(pilot)
        await fast(pilot, "equals_sign", "enter")  # what to adjust: the first thing offered
        dialog = app.screen
        assert isinstance(dialog, FormDialog), dialog
        field = dialog.focused
        assert isinstance(field, Input) and field.value, "the adjust form starts on a prefilled number"
        fresh = field.value
        assert field.selection == Selection(0, len(fresh))
        await fast(pilot, "end", *"99")
        assert field.value == fresh + "99"
        await pilot.press("escape", "equals_sign", "enter")  # (Textual's pace: each dialog open before the next key)
        assert app.screen is dialog and dialog.focused is field
        assert field.value == fresh and field.selection == Selection(0, len(fresh))
        await fast(pilot, "7")
        assert field.value == "7", "typing replaces the selected text"
        await fast(pilot, "escape")


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_the_add_dialog_opened_again_is_empty(system_id: str, data_dir: Path) -> None:
    asyncio.run(_add_again(build_fight(system_id, data_dir / f"{system_id}.jsonl", start=False).path))


async def _add_again(path: Path) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened(pilot)
        await fast(pilot, "A")
        dialog = app.screen
        assert isinstance(dialog, AddDialog)
        everything = len(dialog.shown_presets)
        await fast(pilot, *"qqqq", "enter")  # nothing matches: the custom sheet, named as typed
        assert dialog.query_one("#a-name", Input).value == "qqqq"
        await fast(pilot, "tab", "space")  # a player character: the PC's sheet
        await fast(pilot, "ctrl+s")
        count = len(screen.fight.state.present)
        await fast(pilot, "escape", "A")
        assert app.screen is dialog, "the same dialog, opened again"
        assert dialog.query_one("#filter", Input).value == "" and dialog.focused is dialog.query_one("#filter")
        assert len(dialog.shown_presets) == everything, "every preset listed again"
        assert dialog.preset is None and not dialog.query_one("#a-kind", Checkbox).value, "an NPC, as asked"
        assert [w.value for w in dialog.query("#fields Input").results(Input)] == [
            "" if w.id != "a-count" else "1" for w in dialog.query("#fields Input").results(Input)
        ], "no text left in any field"
        assert not error_text(app)
        names = [p.title for p in dialog._fields()]
        shown = [str(lb.content) for lb in dialog.query("#sheet .label").results(Label)]
        assert shown == names, "the NPC's sheet fields"
        await fast(pilot, "down", "enter", *"Zed", "tab", "space", "enter")  # a custom PC named Zed, as new
        zed = screen.fight.state.by_name("Zed")
        assert zed is not None and zed.is_pc and len(screen.fight.state.present) == count + 1
        assert saved_state_matches(app)


def test_resizing_the_terminal_under_an_open_dialog_lays_out_every_screen(data_dir: Path) -> None:
    """A dialog skips the layout Textual asks for when it opens at the size it has (see Dialog.on_resize);
    a real resize still lays out the dialog and the fight screen under it."""
    asyncio.run(_resize(build_fight("bnb", data_dir / "r.jsonl").path))


async def _resize(path: Path) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened(pilot)
        await fast(pilot, "minus")
        dialog = app.screen
        assert isinstance(dialog, FormDialog)
        for size in ((120, 36), (80, 24), (120, 36)):
            await pilot.resize_terminal(*size)
            for _ in range(4):
                await pilot.pause()
            assert tuple(dialog.outer_size) == size and tuple(screen.outer_size) == size
            table = screen.query_one(InitiativeList)
            assert table.outer_size.width == (size[0] if size[0] < 100 else size[0] * 3 // 5), table.outer_size
        await fast(pilot, "escape")
        assert app.screen is screen
        bar = screen.query_one("#bar", Static)
        assert bar.outer_size.width == 120 and "round" in bar.render_line(0).text


def test_the_undo_note_goes_when_the_gm_goes_on(data_dir: Path) -> None:
    """Undo says what it took back above the list; opening a form (the next thing the GM does) takes the note
    away, behind the form, so the form's result shows in one frame."""
    asyncio.run(_undo_note(build_fight("bnb", data_dir / "n.jsonl").path))


async def _undo_note(path: Path) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened(pilot)
        await fast(pilot, "n", "u")
        note = screen.query_one("#reminder", Static)
        assert note.display and note.render_line(0).text.startswith("Undone: ")
        await fast(pilot, "minus")
        assert isinstance(app.screen, FormDialog) and not note.display
        await fast(pilot, "escape")
        assert app.screen is screen and not note.display


def test_a_short_target_list_shows_every_line_of_a_long_name(data_dir: Path) -> None:
    """The target list's height is set from its combatants (at most six lines): a long name that wraps in the
    form's field still shows whole, with nothing to scroll."""
    asyncio.run(_long_name(build_fight("bnb", data_dir / "l.jsonl").path))  # bnb: long labels, a narrow field


async def _long_name(path: Path) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened(pilot)
        long = "Bartholomew Quickdraw of the Dusty Gulch"[:40]
        screen.perform(C.AddCombatant(name=long, kind="pc", sheet={}))
        await pilot.pause()
        assert len(screen.fight.state.present) <= 5
        screen.query_one(InitiativeList).select(screen.fight.state.by_name(long).id)  # type: ignore[union-attr]
        await fast(pilot, "minus")
        targets = app.screen.query_one(TargetList)
        assert targets.max_scroll_y == 0, "every line in view"
        shown = " ".join(targets.render_line(y).text for y in range(targets.size.height))
        assert "Quickdraw" in shown and "Gulch" in shown, shown  # the name wraps onto a second line
        await fast(pilot, "escape")


@pytest.mark.parametrize("system_id", ["bnb", "twod6"])
def test_the_add_dialog_opened_again_keeps_its_sheet_fields(system_id: str, data_dir: Path) -> None:
    """Opened again on the same sheet, the add dialog shows its values in the fields it built last time: building
    them again was most of its opening (a text field's class told apart from Textual's Input built them anew)."""

    async def run() -> None:
        app = TrackerApp(open_path=build_fight(system_id, data_dir / "f.jsonl", start=False).path)
        async with app.run_test(size=(80, 24)) as pilot:
            await opened(pilot)
            await fast(pilot, "A")
            dialog = app.screen
            assert isinstance(dialog, AddDialog)
            built = list(dialog.query("#sheet *").results())
            assert any(isinstance(w, Input) for w in built), "a text field on the sheet"
            await fast(pilot, "escape", "A")
            assert app.screen is dialog
            assert list(dialog.query("#sheet *").results()) == built

    asyncio.run(run())
