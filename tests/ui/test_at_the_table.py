"""Issue #44 (at the table, third pass): what the GM enters is what gets recorded.

Each test drives the real app with Pilot at 80×24 and 120×36 and asserts on
what the screen shows, in every system where the item applies.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.pilot import Pilot

from screens.app import TrackerApp
from screens.dialogs.form import FormDialog
from screens.fight import FightScreen
from tests.ui.drive import build_fight, error_text, press, saved_state_matches, type_text
from tests.view.helpers import screen_text
from tracker import commands as C

SIZES = [(80, 24), (120, 36)]


def log_said(screen: FightScreen, last: int = 8) -> str:
    """The log's last lines as drawn (wrapped at its width), joined into one text."""
    return " ".join(" ".join(s.text.split()) for s in screen.query_one("#log").lines[-last:])


async def opened(pilot: Pilot) -> FightScreen:
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, FightScreen)
    return screen


# -- item 2: settle by ruling records the outcome the GM picks ---------------------------------------------------

# system: (who is harmed, how much, the outcome to pick by its first letters, its word in the log, the state after)
RULINGS = {
    "bnb": ("Hero", "50", "d", "dies by the GM's ruling", lambda c: c.data.status == "dead"),
    "twod6": ("Hero", "3", "f", "against death by the GM's ruling: dies", lambda c: c.data.dead),
    "blackjack": (None, "fatal", "breaks: s", "breaks (surrendered)", None),
    "toy": ("Hero", "50", "g", "shrugs it off", lambda c: c.data.hp == 1),
}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("system_id", list(RULINGS))
def test_a_ruling_records_the_outcome_the_gm_picks(system_id: str, size: tuple[int, int], data_dir: Path) -> None:
    """`P`, pick the outcome, a note, Enter: the log says the ruling and its outcome, the state follows it; undo
    restores.  Enter with no outcome picked names what is missing and logs nothing."""
    fight = build_fight(system_id, data_dir / "r.jsonl")
    who, amount, keys, said, after = RULINGS[system_id]
    target = fight.state.by_name(who).id if who else next(c.id for c in fight.state.present if not c.is_pc)
    fight.do(C.Damage(targets=(target,), amount=amount))
    assert fight.state.prompts
    path = fight.path
    fight.close()
    asyncio.run(_ruling(path, system_id, size, target, keys, said, after))


async def _ruling(path, system_id, size, target, keys, said, after) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=size) as pilot:
        screen = await opened(pilot)
        log = screen.fight.log
        before = len(log)
        prompt = screen.fight.state.prompts[0]
        await press(pilot, "P")
        assert isinstance(app.screen, FormDialog)
        text = screen_text(app)
        assert "Outcome" in text and "choose: ← → or type" in text, text
        await type_text(pilot, "no save for mooks")  # the ruling typed at once is the note
        await press(pilot, "enter")  # no outcome picked: Enter names what is missing, logs nothing
        assert isinstance(app.screen, FormDialog) and len(log) == before
        assert "Outcome: a value is needed" in screen_text(app)
        assert app.focused is app.screen.query_one("#f-outcome")
        await type_text(pilot, keys)
        picked = app.screen.query_one("#f-outcome").value
        assert picked in prompt.outcomes and (picked != prompt.outcomes[0] or system_id == "blackjack")
        await press(pilot, "enter")
        assert isinstance(app.screen, FightScreen), error_text(app)
        await pilot.pause()
        text = log_said(screen)
        assert said in text and "no save for mooks" in text, text
        if after is not None:
            assert after(screen.fight.state.get(target))
        else:
            outs = [c.data.out for c in screen.fight.state.present if not c.is_pc and c.id != target]
            assert outs and set(outs) == {"surrendered"}  # the side's standing members, as ruled
        assert saved_state_matches(app)
        await press(pilot, "u")
        assert screen.fight.state.prompts[0] == prompt
