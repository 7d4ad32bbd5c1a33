"""The time-passing form (L) in every system at 80×24: before the fight, refused during it, and what each recovered."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from screens.app import TrackerApp
from screens.dialogs.form import FormDialog
from screens.fight import FightScreen
from tests.ui.drive import build_fight, fill, footer_keys, saved_state_matches, submit_form
from tests.view.helpers import screen_text
from tracker import commands as C

SYSTEMS = ["bnb", "blackjack", "zludge", "twod6"]
# how each system's Hero is hurt, and what its log says a week of rest did
HURT = {
    "bnb": (lambda hero, d: C.Damage(targets=(hero,), amount="1"), "Hero heals 1 HP"),
    "blackjack": (lambda hero, d: C.Damage(targets=(hero,), amount="lesser"), "clears lesser"),
    "zludge": (
        lambda hero, d: C.Adjust(
            id=hero,
            field="wound_track",
            value="|".join(("1" + "." * (n - 1)) if lvl == 1 else "." * n for lvl, n in enumerate(d.wound_capacity)),
        ),
        "a Hurt becomes a Scratch",
    ),
    "twod6": (lambda hero, d: C.Damage(targets=(hero,), amount="1"), "Hero regains 1 wound"),
}


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
@pytest.mark.parametrize("system_id", SYSTEMS)
def test_the_rest_form_lets_a_week_pass_and_the_log_says_what_each_recovered(
    system_id: str, size: tuple[int, int], data_dir: Path
) -> None:
    fight = build_fight(system_id, data_dir / f"{system_id}.jsonl", start=False)
    hero = fight.state.by_name("Hero")
    assert hero is not None
    make, said = HURT[system_id]
    fight.do(make(hero.id, hero.data))
    fight.close()  # the app opens it (a fight is open in one tracker at a time)
    asyncio.run(_rest(fight.path, said, size))


async def _rest(path: Path, said: str, size: tuple[int, int]) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, FightScreen)
        assert "Rest" in footer_keys(app)
        before = screen.fight.state
        await pilot.press("L")
        await pilot.pause()
        assert isinstance(app.screen, FormDialog)
        assert "Let time pass: everyone" in screen_text(app)  # none marked: everyone rests (it said "no one
        # chosen yet", and Enter rested everyone)
        await fill(pilot, "f-days", "7")
        await submit_form(pilot)
        await pilot.pause()
        assert isinstance(app.screen, FightScreen), screen_text(app)
        assert screen.fight.state != before
        shown = " ".join(screen_text(app).split())
        assert said in shown, shown
        assert saved_state_matches(app)
        # during the fight the key is not offered and does nothing
        screen.fight.do(C.RollInitiative())
        screen.fight.do(C.StartFight())
        screen.refresh_bindings()
        await pilot.pause()
        assert "Rest" not in footer_keys(app)
        await pilot.press("L")
        await pilot.pause()
        assert isinstance(app.screen, FightScreen)


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
def test_a_word_for_the_days_is_refused_in_the_forms_words(size: tuple[int, int], data_dir: Path) -> None:
    """ "abc" in Days showed "ValueError: invalid literal for int() with base 10: 'abc'": the form says what every
    form says of a bad number, and nothing passes."""
    fight = build_fight("blackjack", data_dir / "f.jsonl", start=False)
    fight.close()

    async def go() -> None:
        app = TrackerApp(open_path=fight.path)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, FightScreen)
            logged = len(screen.fight.entries)
            await pilot.press("L")
            await pilot.pause()
            await fill(pilot, "f-days", "abc")
            await submit_form(pilot)
            await pilot.pause()
            shown = " ".join(screen_text(app).split())
            assert isinstance(app.screen, FormDialog)
            assert "'abc' is not a whole number" in shown and "ValueError" not in shown, shown
            assert len(screen.fight.entries) == logged

    asyncio.run(go())
