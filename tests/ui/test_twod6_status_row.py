"""2d6 Gamma's status in the fight table, as drawn at 80x24 and 120x36: a grappled combatant's row says
"grappled" right after its wounds, whatever its holder's name, and the holder's name is in the detail pane.

The status was "Wounds 2/3 · 2 quick, 2 half · prone · grappled by Sheriff's Deputy Bartholomew Quincy · left
leg -3 · distracted −1 half · cin 2": at 80x24 the row read "… · prone · grapp…" (the name cut anyway, every
flag after it lost), at 120x36 "… · grappled b…" (the cinematics lost).  Ruling in
systems/twod6/plugin.py (TwoD6System.status).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

import saves
from screens.app import TrackerApp
from screens.fight import FightScreen
from screens.widgets.detail import DetailPane
from screens.widgets.initiative import InitiativeList
from tests.ui.test_table_view import SIZES, drawn_row
from tests.view.helpers import screen_text
from tracker import commands as C
from tracker import registry
from tracker.model import NPC, PC

DEPUTY = "Sheriff's Deputy Bartholomew Quincy"


def held_fight(path: Path, *, crowded: bool) -> None:
    """Marla (PC, up first): 2 wounds of 3, grappled by the Deputy, prone, distracted, a useless leg, 2
    cinematics.  ``crowded``: also a condition on the Goblin (the list shows its Conditions column) and an
    unconscious Bandit (its State column is widest): the status has the least room."""
    fight = saves.new_fight(registry.load("twod6"), path, seed=3)
    fight.do(C.AddCombatant(name="Marla", preset="knife", kind=PC))
    fight.do(C.AddCombatant(name=DEPUTY, preset="guard", kind=NPC))
    fight.do(C.AddCombatant(name="Goblin", preset="goblin", kind=NPC))
    if crowded:
        fight.do(C.AddCombatant(name="Bandit", preset="bandit", kind=NPC))
    fight.do(C.SetInitiative(values={"c1": 20, "c2": 15, "c3": 10, **({"c4": 5} if crowded else {})}))
    fight.do(C.StartFight())
    for field, value in (
        ("cinematics", 2),
        ("prone", True),
        ("useless_limbs", "left leg -3"),
        ("grappled_by", "c2"),
        ("distracted", 1),
        ("wounds", 2),
    ):
        fight.do(C.Adjust(id="c1", field=field, value=value))
    for p in list(fight.state.prompts):
        fight.do(C.DismissPrompt(prompt_id=p.id, note="setup"))
    fight.do(C.Adjust(id="c3", field="cinematics", value=1))
    fight.do(C.Adjust(id="c3", field="disarmed", value=True))
    if crowded:
        fight.do(C.AddCondition(id="c3", name="Blessed", rounds=3))
        fight.do(C.Adjust(id="c4", field="unconscious", value=True))
    fight.close()


def detail_shown(app: TrackerApp) -> str:
    """The detail pane's text as drawn, its lines joined (it wraps a long line)."""
    pane = app.screen.query_one(DetailPane)
    r = pane.region
    lines = screen_text(app).split("\n")[r.y + 1 : r.y + r.height - 1]
    return " ".join(line[r.x + 1 : r.x + r.width - 1].strip(" │") for line in lines)


def status_cell(app: TrackerApp, name: str) -> str:
    """The Status column of ``name``'s row as drawn (with the Conditions column's room when it has none)."""
    table = app.screen.query_one(InitiativeList)
    sizes = table.widths
    row = drawn_row(app, name)
    start = sum(sizes[:5])
    return row[start : start + sizes[5] + sizes[6]].strip()


@pytest.mark.parametrize("crowded", [False, True], ids=["roomy", "crowded"])
def test_a_grappled_row_says_grappled_and_the_detail_names_the_holder(crowded: bool, data_dir: Path) -> None:
    asyncio.run(_grappled(data_dir / "held.jsonl", crowded))


async def _grappled(path: Path, crowded: bool) -> None:
    held_fight(path, crowded=crowded)
    app = TrackerApp(open_path=path)
    async with app.run_test(size=SIZES[0]) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, FightScreen)
        for size in SIZES:
            await pilot.resize_terminal(*size)
            await pilot.pause()
            marla = status_cell(app, "Marla")
            assert marla.startswith("Wounds 2/3 · grappled · 2 quick"), (size, marla)
            assert "Sheriff" not in drawn_row(app, "Marla"), (size, drawn_row(app, "Marla"))
            if size == (120, 36) and not crowded:  # the cinematics after the actions: in view at 120 columns (with
                # a Conditions column and the State's "unconscious" the status has 43: "… 2 half · c…")
                assert "2 quick, 2 half · cin 2" in marla, (size, marla)
            goblin = status_cell(app, "Goblin")  # (its condition's column left it 25 columns at 80x24)
            assert goblin.startswith("Wounds 2/2 · cin 1 · disa"), (size, goblin)
            deputy = status_cell(app, "Sheriff")
            assert deputy == "Wounds 4/4 · grappling", (size, deputy)
            detail = detail_shown(app)  # Marla is selected: her turn
            assert "Now: grappled by Sheriff's Deputy Bartholomew Quincy, prone" in detail, (size, detail)
