"""A short fight in the toy system, played from the keyboard alone."""

from __future__ import annotations

import asyncio

from textual.widgets import Input, Static

from screens.app import TrackerApp
from screens.dialogs.faces import FacesDialog
from screens.dialogs.form import FormDialog
from screens.fight import FightScreen
from tests.ui.drive import error_text, fill, footer_keys, new_fight, saved_state_matches, submit_form, type_text
from tracker.model import PC


def test_play_a_short_fight_from_the_keyboard() -> None:
    asyncio.run(_play())


async def _play() -> None:
    app = TrackerApp(seed=7)
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await new_fight(pilot, "toy")
        fight = screen.fight

        # a preset, typed to filter; Enter in the filter goes to the name, Enter there adds
        await pilot.press("A")
        await type_text(pilot, "gob")
        await pilot.press("enter", "enter")
        await pilot.pause()
        assert [c.name for c in fight.state.present] == ["Goblin"]

        # a PC from the custom sheet
        await pilot.press("A")
        await pilot.pause()
        await fill(pilot, "a-name", "Alice")
        await pilot.press("tab", "space")
        await pilot.pause()
        await fill(pilot, "s-hp", "12")
        await submit_form(pilot)
        alice = fight.state.by_name("Alice")
        assert alice is not None and alice.kind == PC and alice.data.hp == 12

        # a group of three
        await pilot.press("A")
        await type_text(pilot, "gob")
        await pilot.press("enter")
        await fill(pilot, "a-count", "3")
        await pilot.press("enter")
        await pilot.pause()
        assert {c.group for c in fight.state.present if c.name.startswith("Goblin ")} == {"Goblin"}
        assert len(fight.state.present) == 5

        # bad input: an empty name, then text in a number field; nothing is logged
        logged = len(fight.entries)
        await pilot.press("A")
        await pilot.pause()
        await pilot.press("down")  # first option: custom sheet
        await submit_form(pilot)
        assert "needs a name" in error_text(app)
        await fill(pilot, "a-name", "Bob")
        await fill(pilot, "s-hp", "lots")
        await submit_form(pilot)
        assert "not a whole number" in error_text(app)
        await pilot.press("escape")
        await pilot.press("E")
        await pilot.pause()
        assert isinstance(app.screen, FormDialog)
        first = app.screen.query(Input).first()
        first.value = "abc"
        await submit_form(pilot)
        assert "not a whole number" in error_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert len(fight.entries) == logged
        # a key that does not apply now: next turn before the start is not offered, and does nothing
        assert "Next" not in footer_keys(app) and "Start" in footer_keys(app)
        await pilot.press("n")
        await pilot.pause()
        assert len(fight.entries) == logged

        # initiative and the start
        await pilot.press("I")
        await pilot.press("S")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert fight.state.started and fight.state.round == 1

        # an action from its key, with the current combatant as actor
        actor = fight.state.current
        await pilot.press("a")
        await pilot.pause()
        assert isinstance(app.screen, FormDialog)
        await submit_form(pilot)
        assert isinstance(app.screen, FightScreen)
        last = fight.entries[-1].event
        assert type(last).__name__ == "HitRolled" and last.actor == actor

        # undo shows what was undone and restores the state; redo brings it back
        before_undo = fight.state
        await pilot.press("u")
        await pilot.pause()
        assert fight.state != before_undo and fight.can_redo
        note = app.screen.query_one("#reminder", Static)
        assert note.display and note.render_line(0).text.strip().startswith("Undone: "), "said above the list, at once"
        await pilot.press("U")
        await pilot.pause()
        assert fight.state == before_undo
        assert note.render_line(0).text.strip().startswith("Redone: ")

        # typed-in dice: an impossible face is refused, then the faces are logged
        await pilot.press("T")
        await pilot.pause()
        assert not note.display, "the undo note goes with the next action"
        await pilot.press("x")
        await type_text(pilot, "hit")
        await pilot.press("enter")
        await pilot.pause()
        await submit_form(pilot)
        assert isinstance(app.screen, FacesDialog)
        await type_text(pilot, "25")
        await pilot.press("enter")
        await pilot.pause()
        assert "impossible" in error_text(app)
        await fill(pilot, "faces", "15")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, FacesDialog)  # damage
        await type_text(pilot, "6")
        await pilot.press("enter")
        await pilot.pause()
        hit = (
            fight.entries[-1].event
            if type(fight.entries[-1].event).__name__ == "HitRolled"
            else fight.entries[-2].event
        )
        assert hit.attack.faces == (15,) and hit.damage.faces == (6,)

        await pilot.press("n")
        await pilot.pause()
        assert saved_state_matches(app)
