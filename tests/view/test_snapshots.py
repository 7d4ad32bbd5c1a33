"""What the players see (pytest-textual-snapshot), at 80x24 and 160x45, dark and light, large type."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot

import saves
from screens.table import TableApp
from tests.support.toy import Hit
from tests.view.helpers import new
from tracker import commands as C
from tracker.dice import ScriptedRoller


def toy_fight(folder: Path) -> Path:
    path = folder / "saloon.jsonl"
    fight = new("toy", path)
    fight.roller = ScriptedRoller([15, 12, 9, 4, 17, 8, 18, 5])
    fight.do(C.NameFight(name="Saloon brawl"))
    fight.do(C.AddCombatant(name="Dusty", kind="pc", sheet={"hp": 14}))
    fight.do(C.AddCombatant(name="Mae", kind="pc", sheet={"hp": 9}))
    fight.do(C.AddCombatant(name="Black Bart", kind="npc", sheet={"hp": 12}, alias="Outlaw"))
    fight.do(C.AddCombatant(name="", preset="goblin", count=2))
    fight.do(C.AddCombatant(name="Assassin", kind="npc", sheet={"hp": 30}, hidden=True))
    fight.do(C.RollInitiative())
    fight.do(C.StartFight())
    fight.do(C.AddCondition(id="c1", name="Blessed", rounds=2))
    actor = fight.state.current
    assert actor is not None
    fight.do(Hit(actor=actor, target="c3", damage="1d6"))
    fight.do(C.Damage(targets=("c2",), amount="4"))
    fight.do(C.NextTurn())
    fight.close()
    return path


async def settle(pilot: Pilot) -> None:
    await pilot.pause()


@pytest.mark.parametrize("size", [(80, 24), (160, 45)])
def test_view(snap_compare, tmp_path: Path, size: tuple[int, int]) -> None:
    assert snap_compare(TableApp(toy_fight(tmp_path)), run_before=settle, terminal_size=size)


def test_view_names_hidden_light(snap_compare, tmp_path: Path) -> None:
    path = toy_fight(tmp_path)
    fight = saves.open_fight(path)
    fight.do(C.SetView(npc_names=False))
    fight.close()
    assert snap_compare(TableApp(path, light=True), run_before=settle, terminal_size=(80, 24))


def test_view_large(snap_compare, tmp_path: Path) -> None:
    assert snap_compare(TableApp(toy_fight(tmp_path), large=True), run_before=settle, terminal_size=(160, 45))


async def _waiting(pilot: Pilot) -> None:
    await pilot.pause()


def test_waiting(snap_compare, tmp_path: Path) -> None:
    assert snap_compare(TableApp(tmp_path / "tonight.jsonl"), run_before=_waiting, terminal_size=(80, 24))
