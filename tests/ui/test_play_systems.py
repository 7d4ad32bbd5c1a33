"""A short fight in each real system, from the keyboard, using only the plug-in protocol.

Presets, sheet fields and command declarations decide what is typed; the
state and the saved file are checked at the end.
"""

from __future__ import annotations

import asyncio

import pytest

from screens.app import TrackerApp
from screens.dialogs.add import AddDialog
from screens.dialogs.faces import FacesDialog
from screens.dialogs.form import FormDialog
from screens.fight import FightScreen
from tests.ui.drive import (
    answer_faces,
    error_text,
    fill,
    new_fight,
    sample_value,
    saved_state_matches,
    submit_form,
    type_text,
)
from tracker import registry
from tracker.model import NPC, PC

SYSTEMS = ["bnb", "blackjack", "zludge", "twod6"]


async def add_custom(pilot, screen: FightScreen, name: str, kind: str) -> None:
    await pilot.press("A")
    await pilot.pause()
    await type_text(pilot, name)
    await pilot.press("enter")  # no preset matches: a custom sheet with this name
    await pilot.pause()
    dialog = pilot.app.screen
    assert isinstance(dialog, AddDialog)
    if kind == PC:
        await pilot.press("tab", "space")
        await pilot.pause()
    for p in screen.system.sheet_fields(kind):
        if p.default is None and p.required:
            await fill(pilot, f"s-{p.name}", sample_value(p))
    await submit_form(pilot)
    assert not isinstance(pilot.app.screen, AddDialog), error_text(pilot.app)


async def add_preset_group(pilot, screen: FightScreen) -> bool:
    npcs = [p for p in screen.system.presets() if p.kind == NPC]
    if not npcs:
        return False
    await pilot.press("A")
    await type_text(pilot, npcs[0].name)
    await pilot.press("enter")
    await fill(pilot, "a-count", "2")
    await pilot.press("enter")
    await pilot.pause()
    if isinstance(pilot.app.screen, AddDialog):  # the preset needs more than the protocol tells
        await pilot.press("escape")
        await pilot.pause()
        return False
    return True


async def run_first_command(pilot, screen: FightScreen, typed: bool) -> tuple[int, int]:
    """Open the first system command from the actions menu with its prefilled values and submit."""
    spec = screen.system.commands()[0]
    before = len(screen.fight.entries)
    await pilot.press("x")
    await type_text(pilot, spec.title)
    await pilot.press("enter")
    await pilot.pause()
    asked = 0
    if isinstance(pilot.app.screen, FormDialog):
        await submit_form(pilot)
        asked = await answer_faces(pilot) if typed else 0
        if isinstance(pilot.app.screen, FormDialog):  # refused by the rules, in plain words
            assert error_text(pilot.app)
            await pilot.press("escape")
            await pilot.pause()
    return len(screen.fight.entries) - before, asked


async def next_turn(pilot, screen: FightScreen) -> None:
    for _ in range(3):
        turn = (screen.fight.state.round, screen.fight.state.turn)
        await pilot.press("n")
        await pilot.pause()
        if (screen.fight.state.round, screen.fight.state.turn) != turn:
            return
        if screen.fight.state.prompts:  # settle by ruling (its first outcome), then go on
            await pilot.press("P")
            await pilot.pause()
            await pilot.press("tab", "right")
            await submit_form(pilot)
    raise AssertionError("next turn did not move on")


async def play(system_id: str) -> None:
    app = TrackerApp(seed=11)
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await new_fight(pilot, system_id)
        fight = screen.fight
        if not await add_preset_group(pilot, screen):
            await add_custom(pilot, screen, "Outlaw", NPC)
        await add_custom(pilot, screen, "Hero", PC)
        assert len(fight.state.present) >= 2

        await pilot.press("I")
        await pilot.press("S")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert fight.state.started and fight.state.current is not None

        logged, _ = await run_first_command(pilot, screen, typed=False)
        await next_turn(pilot, screen)

        before = fight.state
        await pilot.press("O")
        await type_text(pilot, "the barn is on fire")
        await submit_form(pilot)
        assert fight.state.notes[-1] == "the barn is on fire"
        await pilot.press("u")
        await pilot.pause()
        assert fight.state == before

        await pilot.press("T")
        await pilot.pause()
        start = len(fight.entries)
        logged, asked = await run_first_command(pilot, screen, typed=True)
        assert not isinstance(app.screen, FacesDialog)
        assert asked or not logged or not any(e.event.all_rolls() for e in fight.entries[start:])
        if logged:
            rolls = [r for e in fight.entries[start:] for r in e.event.all_rolls()]
            assert all(f == (-1 if "dF" in r.expr else 1) for r in rolls for f in r.faces)
        assert isinstance(app.screen, FightScreen)
        assert saved_state_matches(app)


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_play_a_short_fight(system_id: str) -> None:
    registry.load(system_id)  # fails loudly when the plug-in is not importable
    asyncio.run(play(system_id))
