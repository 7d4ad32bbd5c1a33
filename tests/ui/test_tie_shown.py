"""A tie for initiative that was broken is shown on the GM's table, not only in the log.

twod6 and zludge reroll ties, bnb breaks them by DEX (then level): the table showed "8", "8", "8" in an order
nothing on it explained, while a tie still tied said "9=".  Now a broken tie's initiatives say each one's place
in it ("8·1", "8·2", "8·3"), the detail pane says which place ("init 8 (tie: 1st of 3)") and, where the
system rerolled, what was rolled ("Wounds 3/3 · tie reroll 11").  Asserted on the screen as drawn, at 80x24
and 120x36.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot

from screens.app import TrackerApp
from screens.fight import FightScreen
from screens.widgets.detail import DetailPane
from screens.widgets.initiative import InitiativeList
from tests.ui.drive import build_fight
from tests.view.helpers import screen_text
from tracker import commands as C

SIZES = [(80, 24), (120, 36)]


def table_rows(app: App[Any]) -> list[str]:
    """The initiative list's lines as they are on the screen (its header first)."""
    table = app.screen.query_one(InitiativeList)
    region = table.content_region
    lines = screen_text(app).splitlines()
    return [line[region.x : region.right] for line in lines[region.y : region.bottom]]


def row_words(app: App[Any], name: str) -> list[str]:
    """The words of the first row on the screen that names ``name``."""
    found = [r for r in table_rows(app)[1:] if f" {name} " in f" {r} "]
    assert found, (name, table_rows(app))
    return found[0].split()


def detail_said(app: App[Any]) -> str:
    """The detail pane's text as drawn (its wrapped lines joined, whitespace made single)."""
    pane = app.screen.query_one(DetailPane)
    region = pane.content_region
    lines = screen_text(app).splitlines()
    return " ".join(" ".join(line[region.x : region.right] for line in lines[region.y : region.bottom]).split())


Details = Mapping[str, tuple[str, ...]]


async def shows(pilot: Pilot, size: tuple[int, int], rows: dict[str, str], details: Details, untied: Details) -> None:
    """At ``size``: each named row's initiative reads as given, and with each named combatant selected the
    detail pane says every one of its texts (``details``) and none of the others (``untied``)."""
    app = pilot.app
    await pilot.resize_terminal(*size)
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, FightScreen)
    table = screen.query_one(InitiativeList)
    for name, init in rows.items():
        assert init in row_words(app, name), (size, name, init, table_rows(app))
    for name in {**details, **untied}:
        c = screen.fight.state.by_name(name)
        assert c is not None
        table.select(c.id)
        await pilot.pause()
        said = detail_said(app)
        for text in details.get(name, ()):
            assert text in said, (size, name, text, said)
        for text in untied.get(name, ()):
            assert text not in said, (size, name, text, said)


def check(path: Path, rows: dict[str, str], details: Details, untied: Details) -> None:
    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=SIZES[0]) as pilot:
            await pilot.pause()
            for size in SIZES:
                await shows(pilot, size, rows, details, untied)

    asyncio.run(run())


# system: (each row's initiative, what the detail says of each, what it does not say)
REROLLED: dict[str, tuple[dict[str, str], Details, Details]] = {
    "twod6": (  # all three at 8, rerolled 11, 7, 6
        {"Bandit 1": "8·1", "Bandit 2": "8·2", "Hero": "8·3"},
        {
            "Bandit 1": ("init 8 (tie: 1st of 3)", "Wounds 3/3 · tie reroll 11"),
            "Bandit 2": ("init 8 (tie: 2nd of 3)", "Wounds 3/3 · tie reroll 7"),
            "Hero": ("init 8 (tie: 3rd of 3)", "Wounds 3/3 · tie reroll 6"),
        },
        {},
    ),
    "zludge": (  # Hero and Thug 1 at -1, rolled again +0 and -1; Thug 2 alone at 1
        {"Thug 2": "1", "Hero": "-1·1", "Thug 1": "-1·2"},
        {
            "Hero": ("init -1 (tie: 1st of 2)", "Tie rolled again: +0 Fair"),
            "Thug 1": ("init -1 (tie: 2nd of 2)", "Tie rolled again: -1 Poor"),
            "Thug 2": ("init 1",),
        },
        {"Thug 2": ("tie",)},
    ),
}


@pytest.mark.parametrize("system_id", list(REROLLED))
def test_a_tie_rerolled_shows_each_place_and_the_reroll(system_id: str, tmp_path: Path) -> None:
    """build_fight's ties: the table says each one's place, the detail pane the place and the roll that broke
    the tie; one with an initiative of its own has no mark and no word of a tie."""
    path = tmp_path / "f.jsonl"
    build_fight(system_id, path).close()
    check(path, *REROLLED[system_id])


def test_a_tie_broken_by_dex_shows_its_place_beside_a_tie_still_tied(tmp_path: Path) -> None:
    """bnb: the two bears rolled 19 as a group and have the same DEX and HD, so they still tie ("19="); the Hero
    set to 19 by the GM is behind them by its tiebreak (DEX, then level): "19·3", third of three."""
    path = tmp_path / "b.jsonl"
    fight = build_fight("bnb", path, start=False)
    fight.do(C.RollInitiative())
    hero = fight.state.by_name("Hero")
    assert hero is not None
    fight.do(C.SetInitiative(values={hero.id: 19}))
    fight.do(C.StartFight())
    assert fight.state.ties == (("c1", "c2"),)  # (the bears, still tied)
    fight.close()
    rows = {"Hero": "19·3", "Bear, Black 1": "19=", "Bear, Black 2": "19="}
    details = {"Hero": ("init 19 (tie: 3rd of 3)",), "Bear, Black 1": ("init 19",)}
    check(path, rows, details, {"Bear, Black 1": ("(tie",)})
