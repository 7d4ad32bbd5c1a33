"""Members of a group can be told apart in the fight table and in a form's choosers, however long their name.

A name too long for its column is cut in its middle, keeping a group member's number and its tags:
"Extraordinarily… 3", "Bartholomew Fe… (PC)" (screens/widgets/initiative.py:cut_middle).  Cut from the end, six
"Extraordinarily Long-Named Desperado N" all read "Extraordinarily Lo…" and a long PC name lost its "(PC)": the
GM could pick the wrong one for damage.  In a wide window the name column grows into room no status uses.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

import saves
from screens.app import TrackerApp
from screens.dialogs.form import FormDialog
from screens.fight import FightScreen
from screens.widgets.initiative import InitiativeList, Row, fit_name, measure
from tests.ui.drive import custom_sheet, press
from tests.ui.test_table_view import SIZES, drawn_rows
from tests.view.helpers import screen_text
from tracker import commands as C
from tracker import registry
from tracker.model import NPC, PC

GROUP = "Extraordinarily Long-Named Desperado"
PC_NAME = "Bartholomew Featherstonehaugh the Elder"


def crowd(system_id: str, path: Path) -> None:
    system = registry.load(system_id)
    fight = saves.new_fight(system, path, seed=5)
    fight.do(C.AddCombatant(name=GROUP, kind=NPC, sheet=custom_sheet(system, NPC), count=6))
    fight.do(C.AddCombatant(name=PC_NAME, kind=PC, sheet=custom_sheet(system, PC)))
    fight.do(C.RollInitiative())
    fight.do(C.StartFight())
    for c in (fight.state.combatants[-1], fight.state.combatants[2]):  # conditions to show: the room is needed
        for condition in ("pinned", "blinded", "on fire", "frightened", "poisoned"):
            fight.do(C.AddCondition(id=c.id, name=condition, rounds=3))
    fight.close()


def name_cells(app: TrackerApp) -> list[str]:
    """The Name column of every row drawn."""
    table = app.screen.query_one(InitiativeList)
    width = table.widths[2]
    return [line[3 : 3 + width].rstrip() for line in drawn_rows(app)[1:] if line.strip()]


@pytest.mark.parametrize("system_id", ["bnb", "twod6"])
def test_group_members_and_a_pc_keep_their_number_and_tag_in_the_table(system_id: str, data_dir: Path) -> None:
    asyncio.run(_table(system_id, data_dir / "crowd.jsonl"))


async def _table(system_id: str, path: Path) -> None:
    crowd(system_id, path)
    app = TrackerApp(open_path=path)
    async with app.run_test(size=SIZES[0]) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, FightScreen)
        for size in SIZES:
            await pilot.resize_terminal(*size)
            await pilot.pause()
            names = name_cells(app)
            members = [n for n in names if n.startswith("Extraordinar")]
            assert len(members) == 6, (size, names)
            numbers = sorted(int(m.group(1)) for n in members if (m := re.search(r" (\d)$", n)))
            assert numbers == [1, 2, 3, 4, 5, 6], (size, names)
            pc = [n for n in names if n.startswith("Bartholomew")]
            assert pc and pc[0].endswith("(PC)"), (size, names)
            if size == SIZES[0]:
                assert all("…" in n for n in members), (size, names)  # (cut: the conditions need the room)


def test_a_chooser_in_a_form_keeps_the_number(data_dir: Path) -> None:
    asyncio.run(_chooser(data_dir / "crowd.jsonl"))


async def _chooser(path: Path) -> None:
    crowd("bnb", path)
    app = TrackerApp(open_path=path)
    async with app.run_test(size=SIZES[0]) as pilot:
        await pilot.pause()
        for size in SIZES:
            await pilot.resize_terminal(*size)
            await press(pilot, "a")
            assert isinstance(app.screen, FormDialog)
            shown = [line for line in screen_text(app).splitlines() if "‹ Extraordinar" in line]
            assert shown, screen_text(app)
            for line in shown:
                assert re.search(r"… [1-6]( ·[a-z ]+)? ›", line), (size, line)
            await press(pilot, "escape")


def row(name: str, status: str = "", *, pc: bool = False, hidden: bool = False) -> Row:
    return Row(False, False, name, "9", "", False, status, "", hidden, pc)


def test_names_cut_in_the_middle() -> None:
    assert fit_name(row(GROUP + " 3"), 20).name == "Extraordinarily L… 3"
    assert fit_name(row(PC_NAME + " (PC)", pc=True), 20).name == "Bartholomew Fe… (PC)"
    assert fit_name(row("Sergeant Bartholomew (hidden)", hidden=True), 20).name == "Sergeant B… (hidden)"
    assert fit_name(row("Agent 47 (PC) (hidden)", pc=True, hidden=True), 30).name == "Agent 47 (PC) (hidden)"
    assert fit_name(row("Short 2"), 20).name == "Short 2"


def test_the_name_column_grows_into_room_no_status_uses() -> None:
    rows = [row(f"{GROUP} {n}", "HP 5/5") for n in range(1, 7)]
    assert measure(rows, 86).name == len(GROUP) + 2  # whole: the statuses leave the room
    assert measure(rows, 40).name == 19  # past its cap (10) by the room the rows leave: 40 - 31
    busy = [*rows, row("Jo", "HP 3/3 · DC 10 · luck 1 · derringer 2/2 · heavy pistol 5/5 · rifle 1/1")]
    assert measure(busy, 86).name == 21  # a status that needs the room keeps it
