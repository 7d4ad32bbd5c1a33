"""GM adjust (``=``): every value a system lets the GM set opens its form, whatever the value's name, and the
value set is the value recorded and shown."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

import saves
from screens import forms
from screens.actions.base import context
from screens.app import TrackerApp
from screens.dialogs.form import FormDialog
from screens.fight import FightScreen
from screens.widgets.initiative import InitiativeList
from tests.support import toy
from tests.ui.drive import build_fight, error_text, press, saved_state_matches, type_text
from tests.view.helpers import screen_text
from tracker import commands as C
from tracker import registry
from tracker.errors import Refused

SIZES = [(80, 24), (120, 36)]


@pytest.mark.parametrize("size", SIZES)
def test_a_bnb_guns_shots_are_set_with_adjust_and_undone(size: tuple[int, int], data_dir: Path) -> None:
    """``=``, ``heavy``, Enter, 2, Enter: the heavy pistol holds 2 shots.  Its adjust field is named
    ``shots:heavy pistol``; the form made a widget id of that name, which Textual refuses: the app crashed
    ("BadIdentifier") every time, for every gun."""
    fight = build_fight("bnb", data_dir / "s.jsonl")
    fight.do(C.AddCombatant(name="Kid", kind="pc", preset="shootist"))
    kid = fight.state.combatants[-1].id
    full = fight.state.get(kid).data.carried("heavy pistol").shots
    fight.close()

    async def run() -> None:
        app = TrackerApp(open_path=data_dir / "s.jsonl")
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, FightScreen)
            screen.query_one(InitiativeList).select(kid)
            await press(pilot, "equals_sign")
            await type_text(pilot, "heavy")
            await press(pilot, "enter")
            assert isinstance(app.screen, FormDialog), screen_text(app)
            assert "heavy pistol shots" in screen_text(app)
            await press(pilot, "2", "enter")
            assert isinstance(app.screen, FightScreen), error_text(app)
            assert screen.fight.state.get(kid).data.carried("heavy pistol").shots == 2
            assert f"heavy pistol 2/{full}" in screen_text(app), screen_text(app)
            assert saved_state_matches(app)
            await press(pilot, "u")
            assert f"heavy pistol {full}/{full}" in screen_text(app)

    asyncio.run(run())


def _everyone(system_id: str, path: Path) -> saves.SavedFight:
    """A fight with a combatant of every preset that makes one (and the custom ones of ``build_fight``)."""
    fight = build_fight(system_id, path, start=False)
    for preset in registry.load(system_id).presets():
        try:
            fight.do(C.AddCombatant(name="", preset=preset.id))
        except Refused:  # a preset that is no combatant (bnb's weapons)
            continue
    return fight


@pytest.mark.parametrize("system_id", ["bnb", "blackjack", "zludge", "twod6", toy.system.id])
def test_every_adjust_form_opens(system_id: str, data_dir: Path) -> None:
    """Each value a system lets the GM adjust, on any combatant its presets make (one of each name): its form
    opens on that value's field.  A field whose name is no identifier (bnb's ``shots:<gun>``) crashed the app."""
    fight = _everyone(system_id, data_dir / "e.jsonl")
    fight.close()

    async def run() -> None:
        app = TrackerApp(open_path=data_dir / "e.jsonl")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, FightScreen)
            seen: set[str] = set()
            for c in screen.fight.state.combatants:
                for _label, field in forms.adjust_fields(context(screen), c.id):
                    if field.name in seen:
                        continue
                    seen.add(field.name)
                    await app.push_screen(forms.adjust_form(context(screen), c.id, field))  # mounted
                    assert isinstance(app.screen, FormDialog), (field.name, app.screen)
                    assert app.screen.query_one("#fields").children, field.name
                    await app.pop_screen()
                    assert app.screen is screen, field.name
            assert len(seen) > 4

    asyncio.run(run())


TRACKS = {"zludge": ("Wound boxes", "1"), "blackjack": ("Injuries", "lesser")}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("system_id", sorted(TRACKS))
def test_an_emptied_track_is_refused_and_none_clears_it(system_id: str, size: tuple[int, int], data_dir: Path) -> None:
    """Clearing the field to type it again and pressing Enter too soon wiped every wound (zludge) or injury
    (blackjack), logged as the GM's adjust.  Now empty is refused, saying how to clear: ``none``."""
    label, harm = TRACKS[system_id]
    fight = build_fight(system_id, data_dir / "t.jsonl")
    hero = next(c for c in fight.state.combatants if c.is_pc)
    fight.do(C.Damage(targets=(hero.id,), amount=harm))
    hurt = fight.state.get(hero.id).data
    logged = len(fight.entries)
    fight.close()

    async def run() -> None:
        app = TrackerApp(open_path=data_dir / "t.jsonl")
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, FightScreen)
            screen.query_one(InitiativeList).select(hero.id)
            await press(pilot, "equals_sign")
            await type_text(pilot, label)
            await press(pilot, "enter")
            assert isinstance(app.screen, FormDialog), screen_text(app)
            await press(pilot, "ctrl+u")
            assert "none: clear it" in screen_text(app)  # (the field's help, shown while it is empty)
            await press(pilot, "enter")
            assert isinstance(app.screen, FormDialog), "an empty track was taken"
            assert "type none to clear it" in error_text(app)
            assert len(screen.fight.entries) == logged and screen.fight.state.get(hero.id).data == hurt
            await type_text(pilot, "none")
            await press(pilot, "enter")
            assert isinstance(app.screen, FightScreen), error_text(app)
            assert len(screen.fight.entries) == logged + 1
            assert screen.fight.state.get(hero.id).data != hurt
            assert saved_state_matches(app)
            await press(pilot, "u")
            assert screen.fight.state.get(hero.id).data == hurt

    asyncio.run(run())
