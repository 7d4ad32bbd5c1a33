"""A form of one combatant opened with combatants marked starts on the first marked one (not on the selected
row, nor on the actor itself), and only the marks of whom it was for go: the GM does each marked one in turn.
Driven with the keys at 80×24 and 120×36, asserted on what the screen draws."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from screens.app import TrackerApp
from screens.dialogs.form import FormDialog
from screens.fight import FightScreen
from screens.widgets.initiative import InitiativeList
from tests.ui.drive import build_fight, press, saved_state_matches
from tests.view.helpers import screen_text
from tracker import commands as C

SIZES = [(80, 24), (120, 36)]


def marked_rows(app: TrackerApp) -> list[str]:
    """The names on the rows the list draws with the GM's mark, top to bottom."""
    assert isinstance(app.screen, FightScreen)
    names = sorted((c.name for c in app.screen.fight.state.present), key=len, reverse=True)
    rows = [line.split("●", 1)[1] for line in screen_text(app).splitlines() if "●" in line]
    return [next(n for n in names if row.lstrip().startswith(n)) for row in rows]


async def _open(path: Path, size: tuple[int, int], pilot_body) -> None:  # type: ignore[no-untyped-def]
    app = TrackerApp(open_path=path)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, FightScreen)
        await pilot_body(app, pilot, app.screen)


@pytest.mark.parametrize("size", SIZES)
def test_an_attack_with_a_foe_marked_aims_at_that_foe(size: tuple[int, int], data_dir: Path) -> None:
    """bnb, the Hero's turn, the Hero's row selected, the second bear marked: ``a`` opened "Attack: Hero →
    Hero" (refused on Enter as an attack on oneself).  It opens on the marked bear, and Enter attacks it."""
    fight = build_fight("bnb", data_dir / "a.jsonl")
    hero = fight.state.by_name("Hero").id
    while fight.state.current != hero:
        fight.do(C.NextTurn())
    bear2 = fight.state.by_name("Bear, Black 2").id
    fight.close()

    async def body(app: TrackerApp, pilot, screen: FightScreen) -> None:  # type: ignore[no-untyped-def]
        table = screen.query_one(InitiativeList)
        table.select(bear2)
        await press(pilot, "space")
        table.select(hero)
        await pilot.pause()
        assert marked_rows(app) == ["Bear, Black 2"]
        await press(pilot, "a")
        assert isinstance(app.screen, FormDialog)
        assert "Attack: Hero → Bear, Black 2" in screen_text(app), screen_text(app)
        await press(pilot, "enter")
        assert isinstance(app.screen, FightScreen), screen_text(app)
        event = screen.fight.entries[-1].event
        attacks = [e.event for e in screen.fight.entries if type(e.event).__name__ == "AttackRolled"]
        assert attacks and attacks[-1].target == bear2, event
        assert marked_rows(app) == [] and saved_state_matches(app)

    asyncio.run(_open(data_dir / "a.jsonl", size, body))


@pytest.mark.parametrize("size", SIZES)
def test_death_saves_for_the_marked_one_after_the_other(size: tuple[int, int], data_dir: Path) -> None:
    """bnb, both bears dying and marked, the Hero selected: ``d`` rolled the Hero's death save form (refused:
    not dying) and dropped both marks.  It opens on the first bear; once it is rolled the second stays marked,
    and ``d`` again rolls it."""
    fight = build_fight("bnb", data_dir / "d.jsonl")
    bears = [c.id for c in fight.state.present if not c.is_pc]
    fight.do(C.Damage(targets=tuple(bears), amount="18"))
    names = [fight.state.get(b).name for b in bears]
    hero = fight.state.by_name("Hero").id
    fight.close()

    async def body(app: TrackerApp, pilot, screen: FightScreen) -> None:  # type: ignore[no-untyped-def]
        table = screen.query_one(InitiativeList)
        for bear in bears:
            table.select(bear)
            await press(pilot, "space")
        table.select(hero)
        await pilot.pause()
        assert sorted(marked_rows(app)) == sorted(names)
        first, second = (n for n in marked_rows(app))
        for name, left in ((first, [second]), (second, [])):
            await press(pilot, "d")
            assert isinstance(app.screen, FormDialog)
            assert f"Death save: {name}" in screen_text(app), screen_text(app)
            await press(pilot, "enter")
            assert isinstance(app.screen, FightScreen), screen_text(app)
            assert f"{name} saves vs death" in " ".join(screen_text(app).split()), screen_text(app)
            assert marked_rows(app) == left, screen_text(app)
        assert saved_state_matches(app)

    asyncio.run(_open(data_dir / "d.jsonl", size, body))


@pytest.mark.parametrize("size", SIZES)
def test_a_forms_refusal_goes_once_another_choice_is_made(size: tuple[int, int], data_dir: Path) -> None:
    """A refusal stayed under the form after the GM chose another combatant: "Hero cannot attack themself"
    beside the bear now chosen.  It goes with the choice it was about."""
    from tests.ui.drive import error_text

    fight = build_fight("bnb", data_dir / "r.jsonl")
    hero = fight.state.by_name("Hero").id
    while fight.state.current != hero:
        fight.do(C.NextTurn())
    fight.close()

    async def body(app: TrackerApp, pilot, screen: FightScreen) -> None:  # type: ignore[no-untyped-def]
        await press(pilot, "a")
        assert isinstance(app.screen, FormDialog)
        form = app.screen
        target = form.query_one("#f-target")
        target.focus()
        while "Hero → Hero" not in screen_text(app):  # the Hero aims at itself
            await press(pilot, "right")
        await press(pilot, "enter")
        assert app.screen is form and "cannot attack" in error_text(app), error_text(app)
        await press(pilot, "right")  # another target
        assert app.screen is form and error_text(app) == "", error_text(app)
        assert "cannot attack" not in screen_text(app)

    asyncio.run(_open(data_dir / "r.jsonl", size, body))
