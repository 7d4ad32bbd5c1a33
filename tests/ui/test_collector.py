"""The apps turn the garbage collector on at their first frame (screens.collector: held from the command's start,
a speed trick kept for the launch figures)."""

from __future__ import annotations

import asyncio
import gc
from pathlib import Path

import pytest

import saves
from screens import collector
from screens.app import TrackerApp
from screens.table import TableApp
from tests.support.toy import system as toy
from tracker import AddCombatant, ScriptedRoller, SetInitiative, StartFight


@pytest.mark.parametrize("app", ["fight", "table"])
def test_the_app_turns_the_collector_on_at_its_first_frame(app: str, tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    f = saves.new_fight(toy, path, seed=1, roller=ScriptedRoller([15, 5]))
    f.do(AddCombatant(name="Alice", kind="pc", sheet={"hp": 8}))
    f.do(SetInitiative(values={"c1": 12}))
    f.do(StartFight())
    f.close()

    async def first_frame() -> tuple[bool, bool]:
        shown = TrackerApp(open_path=path) if app == "fight" else TableApp(path)
        collector.hold()
        held = not gc.isenabled()
        async with shown.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            return held, gc.isenabled()

    try:
        held, on = asyncio.run(first_frame())
    finally:
        gc.enable()
    assert held and on, "held until the first frame is shown, then on"
