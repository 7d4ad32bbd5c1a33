"""The summary chart's marks as drawn (screens/summary.py, rulings at ``SIDE_MARKS`` and ``_fall_mark``).

Under the rounds the axis read "1 ✝2   2 ✝3   3   4": the rounds 1, 2, 2, 3, 3, 4 to a GM, since the legend said
only "✝ someone fell that round".  And the legend "■ PCs   ■ NPCs" was one key twice but for its colour.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.geometry import Region

import saves
from screens.app import TrackerApp
from screens.summary import HarmChart, SummaryScreen
from tests.support import toy
from tests.ui.drive import press
from tests.view.helpers import screen_text
from tracker import AddCombatant, Adjust, DismissPrompt, NextTurn, SetInitiative, StartFight
from tracker.dice import ScriptedRoller

SIZES = [(80, 24), (120, 36)]


def falls_fight(folder: Path) -> Path:
    """Alice and Bob (PCs) against five goblins: two fall in round 1, three in round 2; a rockfall the GM sets."""
    path = folder / "falls.jsonl"
    # each hit: the d20, then the damage (a goblin has 4 HP)
    rolls = [15, 4, 16, 4, 12, 2, 15, 4, 14, 4, 13, 3, 17, 4]
    f = saves.new_fight(toy.system, path, seed=1, roller=ScriptedRoller(rolls))
    f.do(AddCombatant(name="Alice", kind="pc", sheet={"hp": 30}))
    f.do(AddCombatant(name="Bob", kind="pc", sheet={"hp": 30}))
    f.do(AddCombatant(name="Goblin", preset="goblin", count=5))
    f.do(SetInitiative(values={"c1": 20, "c2": 18, "c3": 10, "c4": 9, "c5": 8, "c6": 7, "c7": 6}))
    f.do(StartFight())

    def felled(actor: str, target: str) -> None:
        f.do(toy.Hit(actor=actor, target=target))
        f.do(DismissPrompt(prompt_id=f"down:{target}", note="out"))

    felled("c1", "c3")
    felled("c2", "c4")
    f.do(toy.Hit(actor="c5", target="c1"))  # 12, 2
    while f.state.round < 2:
        f.do(NextTurn())
    felled("c1", "c5")
    felled("c2", "c6")
    f.do(toy.Hit(actor="c7", target="c2"))  # 13, 3
    felled("c1", "c7")
    f.do(Adjust(id="c1", field="hp", value=25))  # a rockfall, as the GM sets it: harm without an actor
    f.close()
    return path


def _chart_lines(screen: SummaryScreen) -> list[str]:
    """The legend's line, then the chart's lines as drawn (its frame, bars, round labels and axis title)."""
    lines = []
    for widget in (screen.query_one("#legend"), screen.query_one(HarmChart)):
        size = widget.outer_size
        lines += [strip.text for strip in widget.render_lines(Region(0, 0, size.width, size.height))]
    assert lines[-1].strip() in ("round", "rounds"), lines
    return lines


def _sides_drawn_apart(lines: list[str], sides: tuple[str, ...], width: int) -> None:
    """Each side's key in the legend is a glyph of its own (read without colour), its bars are drawn with it, and
    the whole legend fits the width."""
    legend = lines[0]
    keys = [legend.split(f" {side}   ")[0].split()[-1] for side in sides]
    assert len(set(keys)) == len(sides), legend
    bars = "".join(lines[1:-2])
    for key in keys:
        assert key[0] in bars, (key, lines)
    assert legend.rstrip().endswith("N falls") and len(legend.rstrip()) <= width - 2, legend


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x36"])
def test_the_fall_count_reads_as_a_count_and_the_sides_differ_by_more_than_colour(
    data_dir: Path, size: tuple[int, int]
) -> None:
    path = falls_fight(data_dir)

    async def run() -> None:
        app = TrackerApp(replay_path=path)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await press(pilot, "end")  # the end of the log opens the summary
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, SummaryScreen), screen
            lines = _chart_lines(screen)
            legend, axis = lines[0], lines[-2]
            # the count of falls says it is one: "✝×2", and the legend says what ✝×N is
            assert "1 ✝×2" in axis and "2 ✝×3" in axis, axis
            assert "✝2" not in axis and "✝3" not in axis, axis
            assert "✝×N: N falls" in legend, legend
            _sides_drawn_apart(lines, ("PCs", "NPCs"), size[0])

    asyncio.run(run())


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x36"])
def test_three_sides_have_three_fills_and_the_legend_fits(size: tuple[int, int]) -> None:
    """PCs, NPCs and the GM's own harm (an HP adjustment): three keys, three fills, one line at 80 columns."""
    from tracker import Damage, EndFight, Fight, registry
    from tracker.replay import Timeline
    from tracker.summary import summarize

    f = Fight(registry.load("bnb"))
    f.do(AddCombatant(name="Jake", kind="pc", preset="shootist"))
    f.do(AddCombatant(name="", preset="outlaw", count=2))
    f.do(StartFight())
    f.do(Damage(targets=("c2",), amount="4"))  # the PCs' side (no actor: the other side of the one harmed)
    f.do(Damage(targets=("c1",), amount="2"))  # the NPCs'
    f.do(
        Adjust(id="c3", field="hp", value=0)
    )  # the GM's (an outlaw has 1 HP or more: always a change; 1 was refused when it rolled 1)
    f.do(EndFight())
    summary = summarize(Timeline(f.system, list(f.entries)))
    assert summary.sides == ("pc", "npc", "other")

    async def run() -> None:
        app = TrackerApp()
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            app.push_screen(SummaryScreen(summary, "Blood & Bullets", "t"))
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, SummaryScreen)
            _sides_drawn_apart(_chart_lines(screen), ("PCs", "NPCs", "GM / other"), size[0])

    asyncio.run(run())


def test_the_help_says_what_the_marks_are(data_dir: Path) -> None:
    path = falls_fight(data_dir)

    async def run() -> None:
        app = TrackerApp(replay_path=path)
        async with app.run_test(size=(120, 36)) as pilot:
            await pilot.pause()
            await press(pilot, "end")
            await pilot.pause()
            assert isinstance(app.screen, SummaryScreen)
            await press(pilot, "question_mark")
            await pilot.pause()
            shown = screen_text(app)
            assert "✝×N: N falls" in shown and "▒ NPCs" in shown, shown

    asyncio.run(run())
