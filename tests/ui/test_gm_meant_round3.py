"""What the GM meant, round 3 (a GM's evening, four systems): Enter initiative logs only the values changed, the
dialogs' scrolling field containers are no Tab stop (and still bring a focused field into view), and a picker's
"no option" is read whole at 80 columns.  In the real app, with the keys a GM presses."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from textual.containers import VerticalScroll
from textual.widget import Widget

import saves
from saves.export import recap
from screens.app import TrackerApp
from screens.dialogs.add import AddDialog
from screens.dialogs.form import FormDialog
from screens.fight import FightScreen
from screens.widgets.fields import Cycle, TextField
from screens.widgets.initiative import InitiativeList
from tests.ui.drive import answer_faces, build_fight, custom_sheet, error_text, press, type_text
from tracker import commands as C
from tracker import events as E
from tracker.model import NPC

# -- 1. Enter initiative: only what the GM changed -------------------------------------------------------------


def _bnb_in_setup(path: Path) -> Path:
    """bnb in setup: a preset group of two, a custom PC, and a hidden foe; no initiative yet."""
    fight = build_fight("bnb", path, start=False)
    fight.do(C.AddCombatant(name="Lurker", kind=NPC, sheet=custom_sheet(fight.system, NPC), hidden=True))
    fight.close()
    return path


def _initiative_events(path: Path) -> list[E.InitiativeSet]:
    return [x.event for x in saves.load(path).log.loaded if isinstance(x.event, E.InitiativeSet)]


def _set_by_gm(path: Path) -> list[str]:
    return [line for line in recap(saves.load(path)).splitlines() if "set by GM" in line]


def test_enter_initiative_logs_only_the_value_changed(data_dir: Path) -> None:
    """Ruling (forms.initiative_form): E shows every value; only the one the GM changed is set ("set by GM") and
    logged.  Initiative rolled on typed-in dice, then E on one combatant and a new value: one "(set by GM)"
    line, for that one; the others (the hidden foe too) keep their rolled lines in the log and the recap."""
    asyncio.run(_enter_one(_bnb_in_setup(data_dir / "e.jsonl")))


async def _rolled_by_hand(pilot: Any, app: TrackerApp, faces: str) -> FightScreen:
    """The fight screen once initiative is rolled on dice typed in (T, then I, then ``faces``)."""
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, FightScreen)
    await press(pilot, "T", "I")
    assert await answer_faces(pilot, faces) > 0
    return screen


async def _enter_one(path: Path) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _rolled_by_hand(pilot, app, "hi")
        state = screen.fight.state
        rolled = {c.id: c.initiative for c in state.present}
        assert all(v is not None for v in rolled.values()), rolled
        before = _initiative_events(path)
        assert len(before) == len(rolled) and not any("set by GM" in e.note for e in before)
        table = screen.query_one(InitiativeList)
        target = next(c for c in state.present if c.kind != NPC)
        table.select(target.id)
        await press(pilot, "E")
        assert isinstance(app.screen, FormDialog)
        assert app.focused is not None and app.focused.id == f"f-{target.id}"
        new = (rolled[target.id] or 0) + 3
        await type_text(pilot, str(new))
        await press(pilot, "enter")
        assert not isinstance(app.screen, FormDialog), error_text(app)
        assert screen.fight.state.get(target.id).initiative == new
    after = _initiative_events(path)
    added = after[len(before) :]
    assert after[: len(before)] == before
    assert [(e.id, e.value, e.note) for e in added] == [(target.id, new, "set by GM")], added
    lines = _set_by_gm(path)
    assert len(lines) == 1 and target.name in lines[0], lines


def test_enter_initiative_with_nothing_changed_is_refused_and_logs_nothing(data_dir: Path) -> None:
    """Ruling (forms.initiative_form): E sent with every value as shown is refused, as an adjust to the same
    value is: the form says so and stays open, nothing is logged."""
    asyncio.run(_enter_none(_bnb_in_setup(data_dir / "n.jsonl")))


async def _enter_none(path: Path) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _rolled_by_hand(pilot, app, "lo")
        count = len(screen.fight.log)
        await press(pilot, "E", "enter")
        assert isinstance(app.screen, FormDialog)
        assert "no initiative changed" in error_text(app)
        assert len(screen.fight.log) == count
    assert not _set_by_gm(path)


# -- 2. the scrolling field containers take no focus ------------------------------------------------------------


def test_add_dialog_one_tab_from_the_list_reaches_count(data_dir: Path) -> None:
    """``A out Tab Tab 3``: the list, then Count (the scrolling fields were an unseen Tab stop, the 3 was lost
    and ctrl+s added one Outlaw)."""
    path = _bnb_in_setup(data_dir / "a.jsonl")
    asyncio.run(_add_tabs(path))


async def _add_tabs(path: Path) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, FightScreen)
        before = len(screen.fight.state.present)
        await press(pilot, "A")
        assert isinstance(app.screen, AddDialog)
        await type_text(pilot, "out")
        await press(pilot, "tab", "tab")
        assert app.focused is not None and app.focused.id == "a-count", app.focused
        await type_text(pilot, "3")
        await press(pilot, "ctrl+s")
        assert not isinstance(app.screen, AddDialog), error_text(app)
        assert len(screen.fight.state.present) == before + 3


def _crowd(path: Path, count: int = 30) -> Path:
    fight = build_fight("toy", path, start=False)
    fight.do(C.AddCombatant(name="Goblin", kind=NPC, sheet={"hp": 5}, count=count))
    fight.do(C.RollInitiative())
    fight.close()
    return path


def _in_view(widget: Widget) -> bool:
    scroller = next(a for a in widget.ancestors if isinstance(a, VerticalScroll))
    return scroller.region.contains_region(widget.region) and widget.screen.region.contains_region(widget.region)


@pytest.mark.parametrize("back", [False, True])
def test_tab_in_a_form_taller_than_the_screen_stops_only_on_fields_each_in_view(back: bool, data_dir: Path) -> None:
    """E on 33 combatants at 80x24 (a form taller than the screen): Tab (and shift+Tab) go round every field and
    nothing else (the scrolling container was a stop between the last field and the first), each scrolled
    into view as it takes the focus."""
    asyncio.run(_form_tabs(_crowd(data_dir / "c.jsonl"), back))


async def _form_tabs(path: Path, back: bool) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await press(pilot, "E")
        dialog = app.screen
        assert isinstance(dialog, FormDialog)
        fields = dialog.query_one("#fields", VerticalScroll)
        assert fields.max_scroll_y > 0, "the form is taller than the room it has"
        ids = [f"f-{p.name}" for p in dialog.params]
        seen: list[str] = []
        for _ in range(len(ids) + 1):
            await press(pilot, "shift+tab" if back else "tab")
            await pilot.wait_for_scheduled_animations()  # (Textual glides a focused field into view)
            focused = app.focused
            assert isinstance(focused, TextField), focused
            assert _in_view(focused), (focused.id, fields.scroll_y)
            seen.append(str(focused.id))
        assert sorted(set(seen)) == sorted(ids) and len(seen) == len(ids) + 1


# -- 6. a picker's "no option" whole at 80 columns ---------------------------------------------------------------


def test_a_letter_that_names_no_option_is_said_whole_at_80_columns(data_dir: Path) -> None:
    """Zludge at 80x24: ``a`` on the one whose turn it is, ``y`` on Attack skill: "no option 'y'" and how to
    choose are read whole (the line was cut after "· ← → or")."""
    asyncio.run(_missed(build_fight("zludge", data_dir / "z.jsonl").path))


async def _missed(path: Path) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await press(pilot, "a")
        dialog = app.screen
        assert isinstance(dialog, FormDialog)
        pickers = [w for w in dialog.query(Cycle) if w.display]
        assert pickers
        for picker in pickers:
            picker.focus()
            await press(pilot, "y")
            if not picker.missed:
                continue
            line = picker.render_line(0).text.rstrip()
            assert "no option 'y' · ← → or type" in line, (picker.id, line)
            await press(pilot, "backspace")
