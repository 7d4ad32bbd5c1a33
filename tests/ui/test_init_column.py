"""The initiative column shows once a row has a number, under the system's own word for it.

Blackjack has no initiative (the order is PCs, then NPCs, as added): its table kept an empty "Init" column, five
columns the statuses lacked at 80×24 ("Revolver 6/6, Ri…"), and it was headed "Init" though its key bar, header
and help say "Order".  Ruling (screens/widgets/initiative.py:measure): the column is left out while no row has a
number in it, as the conditions' column is while no one has a condition, in every system (before initiative is
rolled, too); once one has, it is headed by the plug-in's ``initiative_words`` ("Order" in blackjack).  Assertions
are on the lines drawn, at 80×24 and 120×36, in every system.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

import saves
from screens.app import TrackerApp
from screens.fight import FightScreen
from screens.widgets.detail import detail_text
from screens.widgets.initiative import Row, measure
from tests.ui.drive import build_fight
from tests.ui.test_table_view import SIZES, drawn_rows
from tracker import commands as C
from tracker import registry

SYSTEMS = ["bnb", "blackjack", "zludge", "twod6"]


def header(app: TrackerApp) -> list[str]:
    return drawn_rows(app)[0].split()


async def _open(path: Path, size: tuple[int, int]) -> tuple[list[str], list[str]]:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, FightScreen)
        return header(app), drawn_rows(app)[1:]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("system_id", SYSTEMS)
def test_no_column_of_blanks_before_anyone_has_a_number(system_id: str, size: tuple[int, int], data_dir: Path) -> None:
    path = data_dir / "f.jsonl"
    build_fight(system_id, path, start=False).close()
    head, _rows = asyncio.run(_open(path, size))
    assert head[:2] == ["Name", "State"], head
    assert "Init" not in head and "Order" not in head, head


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("system_id", SYSTEMS)
def test_the_numbers_set_show_under_the_systems_word(system_id: str, size: tuple[int, int], data_dir: Path) -> None:
    path = data_dir / "f.jsonl"
    fight = build_fight(system_id, path, start=False)
    hero = next(c for c in fight.state.combatants if c.name == "Hero")
    fight.do(C.SetInitiative(values={hero.id: 17}))
    fight.close()
    head, rows = asyncio.run(_open(path, size))
    word = "Order" if system_id == "blackjack" else "Init"
    assert head[:3] == ["Name", word, "State"], head
    hero_row = next(r for r in rows if "Hero" in r)
    assert hero_row.split()[2] == "17", hero_row  # ▶/mark, "Hero", "(PC)", then its number
    system = registry.load(system_id)
    again = saves.open_fight(path)
    head = detail_text(system, again.state, hero.id)
    again.close()
    assert f"PC · {word.lower()} 17" in head, head  # the detail pane's head says it in the same word


def test_the_column_takes_no_room_while_blank_and_its_headings_room_once_used() -> None:
    blank = Row(
        current=False, marked=False, name="Grunt", init="", word="", out=False, status="", conditions="", hidden=False
    )
    assert measure([blank], 80).init == 0
    assert measure([blank], 80).status == measure([blank._replace(init="7")], 80).status + len("Init") + 1
    assert measure([blank._replace(init="7")], 80, "Order").init == len("Order")
