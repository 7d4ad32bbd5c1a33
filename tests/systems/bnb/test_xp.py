"""XP at the end (#46): the XP of the NPCs overcome (l.126), each PC's even share (l.146) with its bonus (l.19)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from saves import load
from saves import new_fight as new_saved_fight
from saves.export import recap
from systems.bnb import system
from systems.bnb.commands import Attack
from systems.bnb.presets import CHAPTER_8
from systems.bnb.xp import award, awards, bonus
from tests.systems.bnb.helpers import add_npc, add_pc, data, new_fight, start
from tracker import Adjust, Damage, EndFight, Fight, NextTurn, RemoveCombatant
from tracker.dice import ScriptedRoller


def xp_rules_reached() -> set[str]:
    """The rules an award applies, for the rules table's coverage (test_why)."""
    f, _ = _two_outlaws_down(Fight)
    return {r.rule_id for r in award(f.state).reasons}


def _two_outlaws_down(make, path: Path | None = None):
    """Dusty (Shootist, DEX 13) and Doc (Gambler, CHA 16) against three outlaws: one shot dead (minor), one
    knocked out by Doc's fists; the third still standing."""
    dice = ScriptedRoller((15, 6, 15, 3))
    f = make(system, roller=dice) if path is None else new_saved_fight(system, path, roller=dice)
    dusty = add_pc(f, "Dusty", dex=13, weapons="belt pistol")
    doc = add_pc(f, "Doc", cls="Gambler", cha=16, str=13)
    lefty, slim, hank = add_npc(f, "outlaw", count=3, hp=3)
    f.do(Adjust(id=lefty, field="minor", value=True))
    start(f)
    f.do(Attack(actor=dusty, target=lefty))
    f.do(NextTurn())
    f.do(Attack(actor=doc, target=slim, weapon="fists"))
    assert data(f, lefty).status == "dead" and data(f, slim).status == "knocked out" and data(f, hank).status == "ok"
    return f, (dusty, doc, lefty, slim, hank)


def test_the_presets_carry_the_books_xp():
    xp = {p.id: p.sheet.get("xp", 0) for p in CHAPTER_8}
    assert xp["outlaw"] == 15 and xp["grizzly"] == 400 and xp["rattler"] == 15 and xp["mountain_man"] == 30
    assert xp["donkey"] == 0 and "no XP listed" in next(p.summary for p in CHAPTER_8 if p.id == "donkey")
    f, _ = new_fight()
    (bear,) = add_npc(f, "black_bear")
    assert data(f, bear).xp == 150


def test_two_outlaws_down_give_their_xp_shared_evenly_with_each_bonus():
    f, (_dusty, _doc, *_rest) = _two_outlaws_down(Fight)
    a = award(f.state)
    assert [(o.name, o.how, o.xp) for o in a.overcome] == [("Outlaw 1", "dead", 15), ("Outlaw 2", "knocked out", 15)]
    assert a.total == 30
    # Dusty: DEX 13 (prime) +5%; Doc: CHA 16 as prime and as CHA, +10%
    assert [(s.name, s.base, s.bonus, s.xp) for s in a.shares] == [("Dusty", 15, 5, 15), ("Doc", 15, 10, 16)]
    lines = awards(f.state)
    assert lines[0] == "XP for the foes overcome (bnb l.126): 30 — Outlaw 1 (dead) 15, Outlaw 2 (knocked out) 15"
    assert lines[1].endswith("Dusty 15 (15 +5%), Doc 16 (15 +10%)")
    assert system.awards(f.state) == lines


def test_an_npc_that_leaves_the_running_fight_is_overcome_but_not_one_removed_after_it():
    f, _ = new_fight()
    add_pc(f, "Dusty")
    (late,) = add_npc(f, "wolf", name="Late")
    (scout,) = add_npc(f, "scout", name="Runner")
    (mule,) = add_npc(f, "mule", name="Mule")
    start(f)
    f.do(RemoveCombatant(id=scout, reason="flees"))
    f.do(Damage(targets=(mule,), amount="30"))
    f.do(EndFight())
    f.do(RemoveCombatant(id=late, reason="the GM tidies up"))
    a = award(f.state)
    assert [(o.name, o.how, o.xp) for o in a.overcome] == [("Runner", "left the fight", 20), ("Mule", "dying", 0)]
    assert "No XP listed for Mule (the GM may award some)" in awards(f.state)


def test_the_dead_pcs_take_no_share_and_a_penalty_lowers_it():
    f, _ = new_fight()
    add_pc(f, "Dusty", dex=6, wis=6)
    ghost = add_pc(f, "Ghost")
    (wolf,) = add_npc(f, "wolf")
    f.do(Adjust(id=ghost, field="status", value="dead"))
    f.do(Adjust(id=wolf, field="status", value="dead"))
    ((dusty_share),) = award(f.state).shares
    assert (dusty_share.base, dusty_share.bonus, dusty_share.xp) == (20, -10, 18)


def test_the_bonus_is_at_most_15_percent():
    f, _ = new_fight()
    rich = add_pc(f, "Rich", cls="Gambler", cha=18, wis=18)
    assert bonus(data(f, rich)) == 15


def test_no_one_overcome_no_xp_lines():
    f, _ = new_fight()
    add_pc(f, "Dusty")
    add_npc(f, "outlaw")
    assert awards(f.state) == () and award(f.state).total == 0


def test_the_recap_of_a_fight_with_two_outlaws_down_shows_their_xp(tmp_path):
    path = tmp_path / "xp.fight"
    f, _ = _two_outlaws_down(None, path)
    f.close()
    text = recap(load(path))
    assert "## Experience" in text
    assert "XP for the foes overcome (bnb l.126): 30 — Outlaw 1 (dead) 15, Outlaw 2 (knocked out) 15" in text
    assert "Dusty 15 (15 +5%), Doc 16 (15 +10%)" in text


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
def test_the_summary_screen_shows_the_xp_of_the_outlaws_down(tmp_path, monkeypatch, size):
    monkeypatch.setenv("TRACKER_DATA_DIR", str(tmp_path))  # the app's own files stay in the test's folder
    asyncio.run(_summary(tmp_path / "xp.fight", size))


async def _summary(path: Path, size: tuple[int, int]) -> None:
    from textual.widgets import Static

    from screens.app import TrackerApp
    from screens.summary import SummaryScreen

    f, _ = _two_outlaws_down(None, path)
    f.close()
    app = TrackerApp(replay_path=path)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press("end")  # the summary comes up at the end of the log
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        shown = app.screen.query_one("#awards", Static)
        shown.scroll_visible(animate=False)
        await pilot.pause()
        text = str(shown.render())
        assert "XP for the foes overcome (bnb l.126): 30" in text and "Doc 16 (15 +10%)" in text
        assert shown.region.width <= size[0] and shown.region.height >= 2
