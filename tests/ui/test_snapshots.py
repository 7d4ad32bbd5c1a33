"""What the GM sees, per screen and per system (pytest-textual-snapshot).

Fights are built with a fixed seed in a fixed-name folder, and the one date on
screen (a save's creation time) is pinned, so every run draws the same thing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.pilot import Pilot

import saves
from saves.format import seal
from screens.app import TrackerApp
from tests.ui.drive import build_fight, type_text
from tracker import commands as C
from tracker import registry

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
        await pilot.press("A")
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


# the GM adjust that kills, and the one that takes a combatant down without killing it (if the system has one)
DEAD = {"bnb": ("status", "dead"), "blackjack": ("dead", True), "zludge": ("dead", True), "twod6": ("dead", True)}
DOWN = {"bnb": ("status", "unconscious"), "blackjack": ("out", "fled"), "twod6": ("unconscious", True)}


def state_fight(folder: Path, system_id: str) -> Path:
    """A PC and three NPCs: one dead, one down (or fled), one pinned for 3 rounds; the PC holds its action."""
    system = registry.load(system_id)
    path = folder / "fights" / f"{system_id}-states.jsonl"
    fight = saves.new_fight(system, path, seed=4)
    pcs = [p for p in system.presets() if p.kind == "pc"]
    npcs = [p for p in system.presets() if p.kind == "npc"]
    hero = pcs[0].id if pcs else npcs[0].id
    fight.do(C.AddCombatant(name="Hero", kind="pc", preset=hero))
    fight.do(C.AddCombatant(name="Grunt", preset=npcs[0].id, count=3))
    fight.do(C.RollInitiative())
    fight.do(
        C.StartFight(),
    )
    ids = {c.name: c.id for c in fight.state.combatants}
    field, value = DEAD[system_id]
    fight.do(C.Adjust(id=ids["Grunt 1"], field=field, value=value))
    if system_id in DOWN:
        field, value = DOWN[system_id]
        fight.do(C.Adjust(id=ids["Grunt 2"], field=field, value=value))
    fight.do(C.AddCondition(id=ids["Grunt 3"], name="Pinned", rounds=3))
    for _ in range(8):
        if fight.state.current == ids["Hero"]:
            fight.do(C.Delay())
            break
        for prompt in fight.state.prompts:
            fight.do(C.DismissPrompt(prompt_id=prompt.id, note="ruled"))
        fight.do(C.NextTurn())
    fight.close()
    return path


@pytest.mark.parametrize("size", [(80, 24), (120, 36)], ids=["80x24", "120x36"])
@pytest.mark.parametrize("system_id", SYSTEMS)
def test_dead_down_held_and_pinned(snap_compare, fixed_data_dir: Path, system_id: str, size: tuple[int, int]) -> None:
    path = state_fight(fixed_data_dir, system_id)
    assert snap_compare(TrackerApp(open_path=path), run_before=settle, terminal_size=size)


def test_quick_damage_on_marked(snap_compare, fixed_data_dir: Path) -> None:
    path = toy_fight(fixed_data_dir)

    async def run_before(pilot: Pilot) -> None:
        await settle(pilot)
        await pilot.press("space", "down", "space", "minus")
        await type_text(pilot, "2d6+1")
        await pilot.pause()

    assert snap_compare(TrackerApp(open_path=path), run_before=run_before, terminal_size=(80, 24))


def test_add_dialog_error_at_80x24(snap_compare, fixed_data_dir: Path) -> None:
    path = toy_fight(fixed_data_dir, start=False)

    async def run_before(pilot: Pilot) -> None:
        await settle(pilot)
        await pilot.press("A", "down", "enter")
        await pilot.press("ctrl+s")
        await pilot.pause()

    assert snap_compare(TrackerApp(open_path=path), run_before=run_before, terminal_size=(80, 24))
