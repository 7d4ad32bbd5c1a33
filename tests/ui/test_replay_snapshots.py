"""What the GM sees in the replay and summary screens (fixed data, fixed paths)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot

import saves
from screens.app import TrackerApp
from screens.replay import ReplayScreen
from screens.summary import SummaryScreen
from tests.support import toy
from tests.ui.test_replay import toy_fight
from tracker import AddCombatant, Damage, DismissPrompt, NameFight, NextTurn, SetInitiative, StartFight
from tracker.dice import ScriptedRoller

SIZE = (100, 32)


def test_replay_mid_fight_with_an_undone_action(snap_compare, data_dir: Path) -> None:
    path = toy_fight(data_dir)

    async def run_before(pilot: Pilot) -> None:
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, ReplayScreen)
        screen.goto(17)  # just after the miss was undone
        await pilot.pause()

    assert snap_compare(TrackerApp(replay_path=path), run_before=run_before, terminal_size=SIZE)


def named_fight(folder: Path) -> Path:
    """A named toy fight over three rounds: hits both ways, quick damage, two falls."""
    path = folder / "ford.jsonl"
    rolls = [15, 4, 12, 2, 10, 1, 20, 6, 14, 3, 11, 5]
    f = saves.new_fight(toy.system, path, seed=1, roller=ScriptedRoller(rolls))
    f.do(NameFight(name="Ambush at the ford"))
    f.do(AddCombatant(name="Alice", kind="pc", sheet={"hp": 12}))
    f.do(AddCombatant(name="Goblin", preset="goblin", count=2))
    f.do(SetInitiative(values={"c1": 15, "c2": 12, "c3": 10}))
    f.do(StartFight())
    f.do(toy.Hit(actor="c1", target="c2"))  # 15, 4: Goblin 1 falls
    f.do(DismissPrompt(prompt_id="down:c2", note="out cold"))
    f.do(toy.Hit(actor="c3", target="c1"))  # 12, 2
    f.do(toy.Hit(actor="c1", target="c3"))  # 10, 1
    while f.state.round < 2:
        f.do(NextTurn())
    f.do(Damage(targets=("c1",), amount="3"))  # a rockfall
    f.do(toy.Hit(actor="c3", target="c1"))  # 20, 6
    while f.state.round < 3:
        f.do(NextTurn())
    f.do(toy.Hit(actor="c1", target="c3"))  # 14, 3: Goblin 2 falls
    f.close()
    return path


@pytest.mark.parametrize("size", [(80, 24), (120, 36)], ids=["80x24", "120x36"])
def test_summary_at_the_end(snap_compare, data_dir: Path, size: tuple[int, int]) -> None:
    """The figures, the harm chart with its falls, at the smallest and a common terminal size."""
    path = named_fight(data_dir)

    async def run_before(pilot: Pilot) -> None:
        await pilot.pause()
        await pilot.press("end")  # the end of the log opens the summary
        await pilot.pause()
        assert isinstance(pilot.app.screen, SummaryScreen)

    assert snap_compare(TrackerApp(replay_path=path), run_before=run_before, terminal_size=size)
