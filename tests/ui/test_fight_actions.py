"""Prompts, GM adjust, party files and the command palette, from the keyboard (toy system)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import saves.parties as parties
from bench.fights import make_fight
from screens.app import TrackerApp
from screens.dialogs.form import FormDialog
from screens.dialogs.pick import PickDialog
from screens.fight import FightScreen
from tests.ui.drive import build_fight, error_text, fill, press, saved_state_matches, submit_form, type_text
from tracker import commands as C

SIZE = (100, 32)


def messages(app: TrackerApp) -> list[str]:
    return [n.message for n in app._notifications]


async def _ready(pilot) -> FightScreen:
    await pilot.pause()
    assert isinstance(pilot.app.screen, FightScreen)
    return pilot.app.screen


def test_a_prompt_holds_play_until_resolved(data_dir: Path) -> None:
    asyncio.run(_prompt(build_fight("toy", data_dir / "p.jsonl").path))


async def _prompt(path: Path) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _ready(pilot)
        fight = screen.fight
        actor = fight.state.current
        target = next(c for c in fight.state.present if c.id != actor and c.data.hp == 4)
        screen.query_one("#order").select(target.id)  # type: ignore[attr-defined]
        await pilot.press("T", "a")
        await pilot.pause()
        await submit_form(pilot)
        await type_text(pilot, "18")
        await pilot.press("enter")
        await type_text(pilot, "6")
        await pilot.press("enter")
        await pilot.pause()
        assert [p.combatant for p in fight.state.prompts] == [target.id]
        assert screen.query_one("#prompts").display

        logged = len(fight.entries)
        await pilot.press("n")
        await pilot.pause()
        assert len(fight.entries) == logged and any("resolve first" in m for m in messages(app))

        await pilot.press("T", "p")  # back to rolled dice; resolve with the prompt's own command
        await pilot.pause()
        assert isinstance(app.screen, FormDialog)
        await submit_form(pilot)
        assert not fight.state.prompts and fight.state.get(target.id).data.hp == 1
        assert not screen.query_one("#prompts").display
        await pilot.press("n")
        await pilot.pause()
        assert len(fight.entries) > logged + 2
        assert saved_state_matches(app)


def test_gm_adjust_with_a_bad_value_first(data_dir: Path) -> None:
    asyncio.run(_adjust(build_fight("toy", data_dir / "a.jsonl").path))


async def _adjust(path: Path) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _ready(pilot)
        fight = screen.fight
        hero = fight.state.by_name("Hero")
        assert hero is not None
        screen.query_one("#order").select(hero.id)  # type: ignore[attr-defined]
        await pilot.press("equals_sign")
        await pilot.pause()
        assert isinstance(app.screen, PickDialog)
        await type_text(pilot, "hp")
        await pilot.press("enter")
        await pilot.pause()
        await fill(pilot, "f-hp", "lots")
        await submit_form(pilot)
        assert "not a whole number" in error_text(app)
        await fill(pilot, "f-hp", "0")
        await fill(pilot, "f-gm_note", "falls off the roof")
        await submit_form(pilot)
        assert fight.state.get(hero.id).data.hp == 0
        adjusted = [e.event for e in fight.entries if e.event.TYPE == "adjusted"]
        assert adjusted[-1].note == "falls off the roof"
        assert [p.kind for p in fight.state.prompts] == ["down"], "HP 0 by a GM adjust raises the rules' prompt"

        # settle it by ruling (an outcome picked: the first); then nothing is left to settle: a clear message
        await pilot.press("P")
        await pilot.pause()
        await pilot.press("tab", "right")
        await submit_form(pilot)
        assert not fight.state.prompts
        logged = len(fight.entries)
        await pilot.press("P")
        await pilot.pause()
        assert "no open prompt" in " ".join(messages(app)) and len(fight.entries) == logged
        assert saved_state_matches(app)


def test_party_file_saved_and_loaded(data_dir: Path) -> None:
    asyncio.run(_party(data_dir))


async def _party(folder: Path) -> None:
    first = build_fight("toy", folder / "fights" / "one.jsonl", start=False).path
    app = TrackerApp(open_path=first)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _ready(pilot)
        hero = screen.fight.state.by_name("Hero")
        assert hero is not None
        screen.perform(C.Adjust(id=hero.id, field="hp", value=6))  # hurt in this fight
        await pilot.press("f5")
        await pilot.pause()
        await type_text(pilot, "Posse")
        await submit_form(pilot)  # "as they are now" is the default
        # the same name again: refused on the form, saved over only with Replace ticked (it replaced the party
        # without a word)
        await pilot.press("f5")
        await pilot.pause()
        await type_text(pilot, "posse")
        await submit_form(pilot)
        assert isinstance(app.screen, FormDialog)
        assert "already a party called 'Posse': tick Replace" in error_text(app), error_text(app)
        await press(pilot, "tab", "tab", "space", "enter")  # Replace: yes
        assert not isinstance(app.screen, FormDialog), error_text(app)
        assert "1 PC saved as the party 'Posse'" in " ".join(messages(app)), messages(app)
    saved = parties.parties_dir() / "Posse.json"
    data = json.loads(saved.read_text("utf-8"))
    assert data["system"] == "toy" and [m["name"] for m in data["members"]] == ["Hero"]
    assert data["members"][0]["now"] == {"hp": 6}

    app = TrackerApp(seed=2)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        ids = [s.id for s in app.screen.systems]  # type: ignore[attr-defined]
        await pilot.press(*["down"] * ids.index("toy"), "enter")
        screen = await _ready(pilot)
        steps = len(screen.fight.steps)
        await pilot.press("f6")
        await pilot.pause()
        assert isinstance(app.screen, PickDialog)
        await pilot.press("enter")  # the first choice: as they were saved
        await pilot.pause()
        hero = screen.fight.state.by_name("Hero")
        assert hero is not None and hero.kind == "pc" and hero.data.hp == 6
        assert len(screen.fight.steps) == steps + 1, "the party comes in one GM action"
        await pilot.press("u")
        await pilot.pause()
        assert screen.fight.state.by_name("Hero") is None
        await pilot.press("f6")
        await pilot.pause()
        await type_text(pilot, "fresh")
        await pilot.press("enter")
        await pilot.pause()
        hero = screen.fight.state.by_name("Hero")
        assert hero is not None and hero.data.hp == 10
        assert saved_state_matches(app)


def test_command_palette_lists_the_systems_actions(data_dir: Path) -> None:
    asyncio.run(_palette(build_fight("toy", data_dir / "c.jsonl").path))


async def _palette(path: Path) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _ready(pilot)
        titles = [t for t, _h, _c in screen.palette_entries()]
        assert {"Hit", "Shrug", "Next turn", "Undo", "Add condition", "Remove condition", "Quick damage"} <= set(titles)
        assert len(titles) == len(set(titles)), "every action once"
        assert "Clear condition" not in titles
        await pilot.press("ctrl+p")
        await pilot.pause()
        await type_text(pilot, "Hit")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, FormDialog) and app.screen.title_text == "Hit"


def test_quick_damage_in_a_fight_opened_from_its_checkpoint(data_dir: Path) -> None:
    """Opened from a checkpoint, only the log's latest entries are loaded: a form starting on the last targets
    reads no further back than those (it raised NeedOlder: the app closed on the GM's first '-')."""
    path = data_dir / "long.jsonl"
    make_fight("bnb", 3000, path, seed=5).close()
    asyncio.run(_harm_from_checkpoint(path))


async def _harm_from_checkpoint(path: Path) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _ready(pilot)
        assert screen.fight.log.partial
        await pilot.press("minus")
        await pilot.pause()
        assert isinstance(app.screen, FormDialog)
        assert str(app.screen.title_line()).startswith("Damage: ")
