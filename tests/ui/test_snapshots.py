"""What the GM sees, per screen and per system (pytest-textual-snapshot).

Fights are built with a fixed seed in a fixed-name folder, and the one date on
screen (a save's creation time) is pinned, so every run draws the same thing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.pilot import Pilot

from saves.format import seal
from screens.app import TrackerApp
from tests.ui.drive import build_fight, type_text
from tracker import commands as C

SIZE = (100, 32)
SYSTEMS = ["bnb", "blackjack", "zludge", "twod6"]


def pin_created(path: Path) -> None:
    """Pin the header's creation time (the only clock on screen)."""
    lines = path.read_text("utf-8").splitlines(keepends=True)
    header = json.loads(lines[0])
    header.pop("crc", None)
    header["created"] = "2025-05-01T20:00:00+00:00"
    lines[0] = seal(json.dumps(header, separators=(",", ":"))) + "\n"  # sealed anew with its checksum
    path.write_text("".join(lines), "utf-8")


def toy_fight(folder: Path, *, start: bool = True) -> Path:
    path = folder / "fights" / "toy-fight.jsonl"
    fight = build_fight("toy", path, start=start)
    if start:
        fight.do(C.AddCondition(id="c3", name="Blessed", rounds=2))
        actor = fight.state.current
        target = next(c.id for c in fight.state.present if c.id != actor)
        fight.do(fight.system.commands()[0].make({"actor": actor, "target": target}))
    fight.close()
    return path


async def settle(pilot: Pilot) -> None:
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def test_start_screen(snap_compare, fixed_data_dir: Path) -> None:
    path = toy_fight(fixed_data_dir)
    pin_created(path)
    assert snap_compare(TrackerApp(), run_before=settle, terminal_size=SIZE)


def test_setup_screen(snap_compare, fixed_data_dir: Path) -> None:
    path = toy_fight(fixed_data_dir, start=False)
    assert snap_compare(TrackerApp(open_path=path), run_before=settle, terminal_size=SIZE)


def test_fight_screen_toy(snap_compare, fixed_data_dir: Path) -> None:
    path = toy_fight(fixed_data_dir)
    assert snap_compare(TrackerApp(open_path=path), run_before=settle, terminal_size=SIZE)


def test_fight_screen_at_80x24(snap_compare, fixed_data_dir: Path) -> None:
    path = toy_fight(fixed_data_dir)
    assert snap_compare(TrackerApp(open_path=path), run_before=settle, terminal_size=(80, 24))


def test_light_theme(snap_compare, fixed_data_dir: Path) -> None:
    path = toy_fight(fixed_data_dir)

    async def run_before(pilot: Pilot) -> None:
        await settle(pilot)
        await pilot.press("ctrl+t")
        await pilot.pause()

    assert snap_compare(TrackerApp(open_path=path), run_before=run_before, terminal_size=SIZE)


def test_add_dialog(snap_compare, fixed_data_dir: Path) -> None:
    path = toy_fight(fixed_data_dir, start=False)

    async def run_before(pilot: Pilot) -> None:
        await settle(pilot)
        await pilot.press("plus")
        await type_text(pilot, "gob")
        await pilot.pause()

    assert snap_compare(TrackerApp(open_path=path), run_before=run_before, terminal_size=SIZE)


def test_action_form_with_a_refusal(snap_compare, fixed_data_dir: Path) -> None:
    path = toy_fight(fixed_data_dir)

    async def run_before(pilot: Pilot) -> None:
        await settle(pilot)
        await pilot.press("x")
        await type_text(pilot, "hit")
        await pilot.press("enter")
        await pilot.pause()
        pilot.app.screen.query_one("#f-damage").value = "2q6"  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        await pilot.pause()

    assert snap_compare(TrackerApp(open_path=path), run_before=run_before, terminal_size=SIZE)


def test_faces_dialog(snap_compare, fixed_data_dir: Path) -> None:
    path = toy_fight(fixed_data_dir)

    async def run_before(pilot: Pilot) -> None:
        await settle(pilot)
        await pilot.press("T", "a")
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        await type_text(pilot, "21")
        await pilot.press("enter")
        await pilot.pause()

    assert snap_compare(TrackerApp(open_path=path), run_before=run_before, terminal_size=SIZE)


def test_help(snap_compare, fixed_data_dir: Path) -> None:
    path = toy_fight(fixed_data_dir)

    async def run_before(pilot: Pilot) -> None:
        await settle(pilot)
        await pilot.press("f1")
        await pilot.pause()

    assert snap_compare(TrackerApp(open_path=path), run_before=run_before, terminal_size=SIZE)


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_fight_screen_per_system(snap_compare, fixed_data_dir: Path, system_id: str) -> None:
    path = fixed_data_dir / "fights" / f"{system_id}-fight.jsonl"
    build_fight(system_id, path).close()
    assert snap_compare(TrackerApp(open_path=path), run_before=settle, terminal_size=SIZE)
