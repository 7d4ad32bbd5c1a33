"""A combatant hidden from the players is marked hidden in the GM's pick lists, as on the table.

The start form's "Surprise round for", the condition's "On", bnb's Gun-play "Targets" and the attack's "Others
in the melee" offered a hidden "Outlaw" as plain "Outlaw" beside "Outlaw 1 · dead" and "Outlaw 2", while the
table said "Outlaw (hidden)".  Each list now says "Outlaw (hidden)" (the table's mark), and no other line says
hidden; a one-combatant field ("Who") says it too.  Asserted on the screen as drawn, at 80x24 and 120x36.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

import saves
from screens.app import TrackerApp
from screens.dialogs.form import FormDialog
from screens.fight import FightScreen
from tests.ui.drive import custom_sheet, press
from tests.view.helpers import screen_text
from tracker import commands as C
from tracker import registry
from tracker.model import NPC, PC

SIZES = [(80, 24), (120, 36)]
SYSTEMS = ["bnb", "blackjack", "zludge", "twod6"]
DEAD = {"bnb": ("status", "dead"), "blackjack": ("dead", True), "zludge": ("dead", True), "twod6": ("dead", True)}


def outlaws(system_id: str, path: Path, *, start: bool) -> Path:
    """Outlaw 1 (dead) and Outlaw 2, a hidden Outlaw and the Hero; rolled and started if ``start``."""
    system = registry.load(system_id)
    fight = saves.new_fight(system, path, seed=3)
    fight.do(C.AddCombatant(name="Outlaw", kind=NPC, sheet=custom_sheet(system, NPC), count=2))
    fight.do(C.AddCombatant(name="Outlaw", kind=NPC, sheet=custom_sheet(system, NPC), hidden=True))
    fight.do(C.AddCombatant(name="Hero", kind=PC, sheet=custom_sheet(system, PC)))
    field, value = DEAD[system_id]
    fight.do(C.Adjust(id="c1", field=field, value=value))
    assert [(c.name, c.hidden) for c in fight.state.combatants] == [
        ("Outlaw 1", False),
        ("Outlaw 2", False),
        ("Outlaw", True),
        ("Hero", False),
    ]
    if start:
        fight.do(C.RollInitiative())
        fight.do(C.StartFight())
    fight.close()
    return path


def list_lines(text: str) -> list[str]:
    """The lines of the open form's combatant lists as drawn: the text after each "[ ]", "[x]" or "[2]" box."""
    found = []
    for line in text.splitlines():
        for box in ("[ ] ", "[x] ", "[2] "):
            if box in line:
                found.append(line.split(box, 1)[1].split("█", 1)[0].strip())
    return found


def marks_the_hidden(text: str, what: str) -> None:
    """In the form's list: the hidden Outlaw marked hidden, the dead one dead, no one else hidden."""
    lines = list_lines(text)
    assert "Outlaw (hidden)" in lines, (what, lines, text)
    assert "Outlaw 1 · dead" in lines, (what, lines)
    assert "Outlaw 2" in lines and "Hero" in lines, (what, lines)
    assert [x for x in lines if "hidden" in x] == ["Outlaw (hidden)"], (what, lines)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("system_id", SYSTEMS)
def test_the_start_and_condition_lists_mark_the_hidden(system_id: str, size: tuple[int, int], data_dir: Path) -> None:
    """``S`` (Surprise round for) and ``C`` (On), in every system."""
    path = outlaws(system_id, data_dir / "f.jsonl", start=False)

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, FightScreen)
            for key, what in (("S", "Surprise round for"), ("C", "On")):
                await press(pilot, key)
                assert isinstance(app.screen, FormDialog), key
                text = screen_text(app)
                assert what in text, text
                marks_the_hidden(text, what)
                await press(pilot, "escape")
                assert app.screen is screen

    asyncio.run(run())


@pytest.mark.parametrize("size", SIZES)
def test_gun_play_and_the_melee_list_mark_the_hidden(size: tuple[int, int], data_dir: Path) -> None:
    """bnb: Gun-play's Targets (``g``) and the attack's Others in the melee (``a``); the hidden Outlaw, whose turn
    it is, is named hidden in the actor's field too."""
    path = outlaws("bnb", data_dir / "b.jsonl", start=True)

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, FightScreen)
            assert screen.fight.state.name(screen.fight.state.current) == "Outlaw"  # (the hidden one acts first)
            for key, what in (("g", "Targets"), ("a", "Others in the melee")):
                await press(pilot, key)
                assert isinstance(app.screen, FormDialog), key
                text = screen_text(app)
                assert what in text, text
                marks_the_hidden(text, what)
                assert "‹ Outlaw (hidden) ›" in text, text  # Who
                await press(pilot, "escape")
                assert app.screen is screen

    asyncio.run(run())
