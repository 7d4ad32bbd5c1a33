"""The fight table shows who has taken the round's (bnb) or the turn's (blackjack) action: "acted" in the row.

A GM running a fight of eight saw it only in the Detail pane.  Drives the app at 80x24 and 120x36 and reads the
rows as drawn (rulings: systems/bnb/plugin.py ``status``, systems/blackjack/show.py ``status``).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

import saves
from screens.app import TrackerApp
from screens.fight import FightScreen
from systems.blackjack.commands import IngestLead
from systems.bnb.commands import Attack
from tests.ui.test_table_view import SIZES, drawn_row, drawn_rows
from tracker import commands as C
from tracker import registry
from tracker.model import NPC, PC

PC_SHEETS = {
    "bnb": {"cls": "Shootist", "level": 1, "hp": 10, "weapons": "belt pistol:6, scattergun"},
    "blackjack": {"acc": 12, "body": 10, "ctrl": 14, "weapons": "Pistol, Revolver, Hatchet", "lead": 6},
}


def eight(system_id: str, path: Path) -> tuple[str, list[str]]:
    """Dusty (PC, first in the order, under two conditions) and seven outlaws; the fight started.
    Returns Dusty's id and the outlaws'."""
    system = registry.load(system_id)
    fight = saves.new_fight(system, path, seed=5)
    fight.do(C.AddCombatant(name="Outlaw", kind=NPC, preset="outlaw", count=7, sheet={"hp": 30}))
    fight.do(C.AddCombatant(name="Dusty", kind=PC, sheet=PC_SHEETS[system_id]))
    dusty = fight.state.combatants[-1].id
    outlaws = [c.id for c in fight.state.combatants[:-1]]
    if system_id == "bnb":
        fight.do(C.SetInitiative(values={dusty: 20, **{o: 10 - i for i, o in enumerate(outlaws)}}))
    fight.do(C.StartFight())
    assert fight.state.current == dusty
    for condition in ("pinned", "blinded"):  # the conditions' column takes its room too
        fight.do(C.AddCondition(id=dusty, name=condition, rounds=3))
    fight.close()
    return dusty, outlaws


def acted_rows(app: TrackerApp) -> list[str]:
    return [r for r in drawn_rows(app)[1:] if "acted" in r]


@pytest.mark.parametrize("system_id", ["bnb", "blackjack"])
def test_the_one_who_acted_is_marked_in_its_row(system_id: str, data_dir: Path) -> None:
    asyncio.run(_marked(system_id, data_dir / "eight.jsonl"))


async def _marked(system_id: str, path: Path) -> None:
    dusty, outlaws = eight(system_id, path)
    app = TrackerApp(open_path=path)
    async with app.run_test(size=SIZES[0]) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, FightScreen)
        for size in SIZES:
            await pilot.resize_terminal(*size)
            await pilot.pause()
            assert acted_rows(app) == [], (size, drawn_rows(app))  # no one has acted yet
        if system_id == "bnb":
            screen.perform(Attack(actor=dusty, target=outlaws[0], weapon="belt pistol", distance=20))
        else:
            screen.perform(IngestLead(actor=dusty, amount=1))
        await pilot.pause()
        assert screen.fight.state.get(dusty).data.acted
        for size in SIZES:
            await pilot.resize_terminal(*size)
            await pilot.pause()
            row = drawn_row(app, "Dusty")
            assert " acted" in row, (size, row)
            assert acted_rows(app) == [row], (size, drawn_rows(app))  # Dusty's alone
        screen.perform(C.NextTurn())  # an outlaw's turn
        await pilot.pause()
        for size in SIZES:
            await pilot.resize_terminal(*size)
            await pilot.pause()
            if system_id == "bnb":  # the round's action: Dusty has still acted this round
                assert " acted" in drawn_row(app, "Dusty"), (size, drawn_rows(app))
            else:  # the turn's action: Dusty's turn is over, and the mark with it
                assert acted_rows(app) == [], (size, drawn_rows(app))
