"""The cinematic form offers the failed checks to reroll as a picker (#45), driven with Pilot at 80×24 and 120×36.

RULINGS third pass, twod6 (on the book's "reroll a failed check", @56400): the GM chooses which of the
combatant's failed checks since its last turn is rerolled — a lost defense among them.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

import saves
from screens.app import TrackerApp
from screens.dialogs.form import FormDialog
from screens.fight import FightScreen
from screens.widgets.initiative import InitiativeList
from systems.twod6 import system
from systems.twod6.commands import Attack, SkillCheck
from tests.systems.twod6.helpers import FIGHTER, sheet
from tests.ui.drive import press, submit_form
from tests.view.helpers import screen_text
from tracker.commands import AddCombatant, SetInitiative, StartFight
from tracker.dice import ScriptedRoller

HERO = sheet(tou=2, per=1, skills="Notice 1", cinematics=1)  # 5 wounds: one lost is no threshold


def _fight(path: Path) -> None:
    roller = ScriptedRoller()
    fight = saves.new_fight(system, path, seed=5, roller=roller)
    fight.do(AddCombatant(name="Ann", kind="npc", sheet=FIGHTER))
    fight.do(AddCombatant(name="Hero", kind="pc", sheet=HERO))
    fight.do(SetInitiative(values={"c1": 20, "c2": 10}))
    fight.do(StartFight())
    roller.add(1, 2)
    fight.do(SkillCheck(actor="c2", skill="Notice", dc=9))  # failed, off its turn: no action
    roller.add(3, 3, 3, 3)
    fight.do(Attack(actor="c1", targets=("c2",)))  # 10 vs 6: Hero's defense lost, one wound
    assert fight.state.get("c2").data.wounds == 4 and not fight.state.prompts
    fight.close()


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
def test_the_cinematic_form_picks_the_lost_defense_and_the_log_says_it_was_rerolled(
    size: tuple[int, int], tmp_path: Path
) -> None:
    path = tmp_path / "reroll.jsonl"
    _fight(path)
    asyncio.run(_pick(path, size))


async def _pick(path: Path, size: tuple[int, int]) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, FightScreen)
        screen.query_one(InitiativeList).select("c2")
        await pilot.pause()
        await press(pilot, "c")
        assert isinstance(app.screen, FormDialog), screen_text(app)
        shown = " ".join(screen_text(app).split())
        assert "Spend a cinematic" in shown
        assert "reroll" in shown
        assert "‹ reroll ›" in shown  # the form starts on a reroll when there is a failed check
        assert "Reroll (opt.) ‹ defense against Ann's" in shown, shown  # the newest failed check first, of two
        await submit_form(pilot)
        await pilot.pause()
        assert isinstance(app.screen, FightScreen), screen_text(app)
        log = " ".join(screen_text(app).replace("│", " ").split())  # wrapped log lines read as one
        assert "the outcome is taken back" in log and "(wounds 4 → 5/5)" in log, log
        assert "(cinematic reroll)" in log and "vs Athletics 2d6 [6,3] = 9 — hit" in log
        assert "Hero takes 1 wound: 4/5 left" in log  # from where the outcome was taken back to
        hero = screen.fight.state.get("c2").data
        assert hero.cinematics == 0 and hero.wounds == 4  # 10 vs 9: the attack's dice stood, and still hit
        assert [f.kind for f in hero.failed] == ["check", "defense"]  # a new lost defense; the Notice still there


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
def test_the_reroll_picker_follows_who_spends_the_cinematic(size: tuple[int, int], tmp_path: Path) -> None:
    """Opened on Ann (no failed check), the form's Reroll offered only "—"; changing Who to the Hero left it so,
    and ← → offered nothing.  It now offers the Hero's failed checks, and the one picked is rerolled."""
    path = tmp_path / "who.jsonl"
    _fight(path)
    asyncio.run(_switch(path, size))


async def _switch(path: Path, size: tuple[int, int]) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, FightScreen)
        screen.query_one(InitiativeList).select("c1")
        await pilot.pause()
        await press(pilot, "c")
        assert isinstance(app.screen, FormDialog), screen_text(app)
        assert "Reroll (opt.) ‹ — ›" in " ".join(screen_text(app).split())
        await press(pilot, "shift+tab", "right")  # Who: Hero
        shown = " ".join(screen_text(app).split())
        assert "Spend a cinematic: Hero" in shown and "Reroll (opt.) ‹ defense against Ann's" in shown, shown
        await press(pilot, "tab", "r", "tab", "right")  # For: reroll; Reroll: the other failed check
        shown = " ".join(screen_text(app).split())
        assert "‹ reroll ›" in shown and "Reroll (opt.) ‹ Notice" in shown, shown
        await submit_form(pilot)
        assert isinstance(app.screen, FightScreen), screen_text(app)
        log = " ".join(" ".join(line.text.split()) for line in screen.query_one("#log").lines)  # as drawn
        assert "Hero spends a cinematic (0 left): reroll the failed Notice" in log, log
        assert "Hero Notice check DC 9 (cinematic reroll)" in log, log
