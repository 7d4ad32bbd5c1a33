"""Why? (Y) on a held combatant explains "held", the word the table shows, by the hold.

Audit a14 finding 2: the table said "Dusty (PC) 15 held", the dialog "Dusty is fit to fight: the last event that
changed that / 4 Dusty joins the fight" (the dialog asked the system's word only; "held" is the core's).  Asserted
on the drawn dialog at 80×24 and 120×36: in the live fight, after undo and redo of the hold, in the replay's Y at
the hold's position and before it, and on the audit's bnb fight (a PC holding, the fight run again by undo).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Static

import saves
from screens.app import TrackerApp
from screens.fight import FightScreen
from screens.replay import ReplayScreen
from screens.why import WhyDialog
from screens.widgets.initiative import InitiativeList
from tests.ui.drive import press
from tests.ui.test_why import drawn_text, flat
from tests.view.helpers import sync
from tracker import commands as C
from tracker import events as E

SIZES = [(80, 24), (120, 36)]
HELD = "Held action — core"


def held_fight(path: Path) -> int:
    """A toy fight saved to ``path``: Ann (PC, 15) and Gob (5); Ann's turn first, she holds.  The hold's seq."""
    fight = saves.new_fight("toy", path, seed=1)
    fight.do(C.AddCombatant(name="Ann", kind="pc", sheet={"hp": 10}))
    fight.do(C.AddCombatant(name="Gob", kind="npc", sheet={"hp": 4}))
    fight.do(C.SetInitiative(values={"c1": 15, "c2": 5}))
    fight.do(C.StartFight())
    fight.do(C.Delay(id=None))
    assert fight.state.get("c1").held
    hold = max(e.seq for e in fight.entries if type(e.event) is E.TurnDelayed)
    fight.close()
    return hold


async def why_on(pilot, cid: str) -> str:  # type: ignore[no-untyped-def]
    """Select ``cid`` on the table, press Y: the dialog's text, flattened; the dialog closed again."""
    screen = pilot.app.screen
    table = screen.query_one(InitiativeList)
    table.focus()
    table.select(cid)
    await pilot.pause()
    await press(pilot, "Y")
    dialog = pilot.app.screen
    assert isinstance(dialog, WhyDialog)
    text = flat(drawn_text(dialog.query_one("#why-text", Static)))
    await press(pilot, "escape")
    assert pilot.app.screen is screen
    return text


def table_word(screen: FightScreen | ReplayScreen, cid: str) -> str:
    from screens.widgets.initiative import standing

    state = screen.fight.state if isinstance(screen, FightScreen) else screen.state
    system = screen.fight.system if isinstance(screen, FightScreen) else screen.timeline.system
    return standing(system, state, state.get(cid)).word


@pytest.mark.parametrize("size", SIZES)
@sync
async def test_why_on_a_held_pc_in_the_live_fight_and_after_undo_and_redo(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    path = tmp_path / "held.jsonl"
    hold = held_fight(path)
    app = TrackerApp(open_path=path)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, FightScreen)
        assert table_word(screen, "c1") == "held"
        text = await why_on(pilot, "c1")
        assert text.startswith(f"Why is Ann held? {hold} Ann holds the action"), text  # was: "Ann is fit to fight"
        assert HELD in text and "joins the fight" not in text
        await press(pilot, "u")  # the hold taken back: fit, as she joined
        assert table_word(screen, "c1") == ""
        text = await why_on(pilot, "c1")
        assert text.startswith("Ann is fit to fight: the last event that changed that 1 Ann joins the fight"), text
        await press(pilot, "U")  # done again: the hold, not the redo
        assert table_word(screen, "c1") == "held"
        text = await why_on(pilot, "c1")
        assert text.startswith(f"Why is Ann held? {hold} Ann holds the action"), text
        assert HELD in text


@pytest.mark.parametrize("size", SIZES)
@sync
async def test_why_on_a_held_pc_in_the_replay(tmp_path: Path, size: tuple[int, int]) -> None:
    path = tmp_path / "held.jsonl"
    hold = held_fight(path)
    app = TrackerApp(replay_path=path)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        screen.goto(hold)  # the hold's line applied
        await pilot.pause()
        assert table_word(screen, "c1") == "held"
        text = await why_on(pilot, "c1")
        assert text.startswith(f"Why is Ann held? {hold} Ann holds the action"), text
        assert HELD in text
        screen.goto(hold - 1)  # just before it: fit since she joined
        await pilot.pause()
        assert table_word(screen, "c1") == ""
        text = await why_on(pilot, "c1")
        assert text.startswith("Ann is fit to fight: the last event that changed that 1 Ann joins the fight"), text


@sync
async def test_the_audited_bnb_fight_dusty_held(tmp_path: Path) -> None:
    """The audit's case in bnb: Dusty (PC) holds on his turn, a note later; the table and Why? both say held."""
    path = tmp_path / "bnb.jsonl"
    fight = saves.new_fight("bnb", path, seed=3)
    fight.do(C.AddCombatant(name="Dusty", kind="pc", preset="gunfighter"))
    fight.do(C.AddCombatant(name="Outlaw", kind="npc", preset="outlaw"))
    dusty = fight.state.combatants[0].id
    outlaw = fight.state.combatants[1].id
    fight.do(C.SetInitiative(values={dusty: 15, outlaw: 5}))
    fight.do(C.StartFight())
    assert fight.state.current == dusty
    fight.do(C.Delay(id=None))
    hold = max(e.seq for e in fight.entries if type(e.event) is E.TurnDelayed)
    fight.do(C.Note(text="the outlaw sneers"))
    fight.close()
    app = TrackerApp(open_path=path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, FightScreen)
        assert table_word(screen, dusty) == "held"
        text = await why_on(pilot, dusty)
        assert text.startswith(f"Why is Dusty held? {hold} Dusty holds the action"), text
        assert HELD in text and "fit to fight" not in text
