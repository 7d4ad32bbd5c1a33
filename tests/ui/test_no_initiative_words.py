"""A book with no initiative (blackjack): what the help, the palette and E say (audit a12/g2, finding F3).

The setup's I already read "I set the order" (tests/ui/test_keys_round3.py); still, the help (?) and the palette
listed "I  Initiative in the running fight (newcomers; or the whole order next round)", which always refused
("this book has no initiative"), and E opened "Enter initiative — Totals rolled on real dice".  A system says its
book has no initiative with ``rolls_initiative = False`` (docs/PLUGINS.md, checked when it registers): the running
fight's I is then not offered (pressed, it still says why), and E sets the order by numbers.  The screens name no
system; the other systems keep their words.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace

import pytest

from screens import forms, keys
from screens.actions import guide
from screens.actions.base import context
from screens.app import TrackerApp
from screens.dialogs.form import FormDialog
from screens.fight import FightScreen
from tests.ui.drive import build_fight, press
from tracker import registry

OTHERS = ["bnb", "zludge", "twod6"]
RUNNING = "Initiative in the running fight (newcomers; or the whole order next round)"


def test_rolls_initiative_is_the_systems_or_true() -> None:
    assert keys.rolls_initiative(registry.load("blackjack")) is False
    for system_id in OTHERS:
        assert keys.rolls_initiative(registry.load(system_id)) is True
    assert keys.rolls_initiative(SimpleNamespace()) is True  # type: ignore[arg-type]


async def _settle(pilot: object, times: int = 4) -> None:
    for _ in range(times):
        await pilot.pause()  # type: ignore[attr-defined]


@pytest.mark.parametrize("system_id", ["blackjack", *OTHERS])
def test_help_palette_and_e_say_what_they_do(system_id: str, data_dir: Path) -> None:
    path = data_dir / "fight.jsonl"
    build_fight(system_id, path).close()
    none = system_id == "blackjack"

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=(120, 36)) as pilot:
            await _settle(pilot)
            screen = app.screen
            assert isinstance(screen, FightScreen) and screen.fight.state.started
            helped = guide.help_text(screen)
            titles = [title for title, _key, _do in guide.palette_entries(screen)]
            # the running fight's I: offered only where the book has initiative
            assert (RUNNING in helped) is not none, helped
            assert (RUNNING in titles) is not none, titles
            # E: the order by numbers, or initiative
            if none:
                assert "  E      Set the order by numbers (higher first)" in helped, helped
                assert "Set the order by numbers (higher first)" in titles and "Enter initiative" not in titles
                assert "Enter initiative" not in helped
            else:
                assert "  E      Enter initiative" in helped and "Enter initiative" in titles
            form = forms.initiative_form(context(screen))
            if none:
                assert form.title_text == "Set the order by numbers"
                assert form.help_text == "A number for each, higher goes first; [ and ] move one; empty: unchanged."
            else:
                assert form.title_text == "Enter initiative"
                assert form.help_text == "Totals rolled on real dice; empty: unchanged."
            # pressed in the running fight, I still says what it does there
            said: list[str] = []
            screen.refuse = said.append  # type: ignore[method-assign]
            await press(pilot, "I")
            await _settle(pilot)
            if none:
                assert said and said[-1].startswith("this book has no initiative: the order is the GM's"), said
            else:
                assert not said or "no initiative" not in said[-1], said
            while not isinstance(app.screen, FightScreen):  # (a question asked: no)
                await press(pilot, "escape")
                await _settle(pilot)
            # E opens the form in those words, and sets the value typed
            await press(pilot, "E")
            await _settle(pilot)
            dialog = app.screen
            assert isinstance(dialog, FormDialog)
            assert dialog.title_text == ("Set the order by numbers" if none else "Enter initiative")

    asyncio.run(run())
