"""Issue #44 item 5: the fight stays in view at 80×24 (and uses the room at 120×36).

A long fight (15 combatants, the PCs last in the order, a long fight name,
conditions piled on one combatant, three open prompts in bnb) opened at 80×24
and 120×36 in every system: whoever's turn it is and every PC are on screen;
the prompts take one line (how many, the first, ``!`` lists them all); the bar
keeps "turn: NAME" whole; the system's keys line shows whole keys only; the
conditions never push out a status's main numbers; at 120×36 the detail pane
gives its columns to the list first.  Asserted on the rendered screen.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from saves import new_fight
from screens.app import TrackerApp
from screens.dialogs.help import HelpDialog
from screens.fight import DETAIL, FightScreen
from screens.widgets.initiative import InitiativeList
from tests.ui.drive import build_fight, press
from tests.view.helpers import screen_text
from tracker import commands as C
from tracker import registry

SIZES = [(80, 24), (120, 36)]
SYSTEMS = ["bnb", "blackjack", "zludge", "twod6"]
NAME = "The long and winding shoot-out at the Old Quarry Saloon"
# each system's main number on a status line, as it begins
DEAD = {"bnb": ("status", "dead"), "blackjack": ("dead", True), "zludge": ("dead", True), "twod6": ("dead", True)}
MAIN = {"bnb": "HP ", "blackjack": "□", "zludge": ".", "twod6": "Wounds "}


def long_fight(system_id: str, path: Path, fallen: tuple[int, ...] = ()) -> None:
    system = registry.load(system_id)
    fight = new_fight(system, path, seed=4)
    pcs = [p for p in system.presets() if p.kind == "pc"]
    npcs = [p for p in system.presets() if p.kind == "npc" and not p.id.startswith(("weapon", "armor"))]
    for n in range(3):
        fight.do(C.AddCombatant(name=f"Hero{n}", kind="pc", preset=(pcs or npcs)[0].id))
    fight.do(C.AddCombatant(name="Outlaw", preset=npcs[0].id, count=12))
    state = fight.state
    order = {c.id: (40 - n if not c.is_pc else 3 - n) for n, c in enumerate(state.combatants)}
    if system_id != "blackjack":  # (no initiative in that book: PCs, then NPCs, as added)
        fight.do(C.SetInitiative(values=order))
    fight.do(C.NameFight(name=NAME))
    fight.do(C.StartFight())
    ids = {c.name: c.id for c in fight.state.combatants}
    for name in ("pinned down by fire", "blessed", "deafened", "on fire"):
        fight.do(C.AddCondition(id=ids["Outlaw 3"], name=name, rounds=3))
    if system_id == "bnb":  # three death saves open
        for n in range(3):
            fight.do(C.Damage(targets=(ids[f"Hero{n}"],), amount="40"))
        assert len(fight.state.prompts) == 3
    field, value = DEAD[system_id]
    for n in fallen:
        fight.do(C.Adjust(id=ids[f"Outlaw {n}"], field=field, value=value))
    fight.close()


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("system_id", SYSTEMS)
def test_a_long_fight_keeps_the_current_combatant_and_every_pc_in_view(
    system_id: str, size: tuple[int, int], data_dir: Path
) -> None:
    long_fight(system_id, data_dir / "long.jsonl")
    asyncio.run(_long(data_dir / "long.jsonl", system_id, size))


async def _long(path: Path, system_id: str, size: tuple[int, int]) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, FightScreen)
        state = screen.fight.state
        shown = screen_text(app)
        rows = shown.splitlines()
        current = state.get(state.current).name
        # the bar: "turn: NAME" whole, the fight's name is what is cut
        assert f"turn: {current} " in rows[0], rows[0]
        assert NAME not in rows[0] or size[0] > 110
        # the current combatant and every PC, whatever the scroll
        for name in [current, "Hero0", "Hero1", "Hero2"]:
            assert any(f" {name} " in r for r in rows[1:-3]), f"{name} not in view\n{shown}"
        await press(pilot, "down", "down", "down")  # the GM looks down the list: the PCs stay
        rows = screen_text(app).splitlines()
        for name in [current, "Hero0", "Hero1", "Hero2"]:
            assert any(f" {name} " in r for r in rows[1:-3]), f"{name} not in view after ↓"
        # conditions never push out the status's main numbers
        outlaw = next(r for r in rows if " Outlaw 3 " in r)
        assert MAIN[system_id] in outlaw, outlaw
        # the system's keys: whole keys only, and x lists them all
        keys = rows[-2].strip()
        titles = [f"{k} {screen._title(n)}" for k, n in screen.system_keys.items()]
        assert keys.startswith("space mark · ^p palette · x all actions"), keys
        for item in keys.split(" · ")[3:]:
            assert item in titles, f"{item!r} is cut"
        if system_id == "bnb":
            await _prompts(pilot, screen)
        if size[0] >= 110:  # the detail pane gave its columns to the list first: a status is cut only once the
            # pane is down to its narrowest
            table, detail = screen.query_one(InitiativeList), screen.query_one("#detail")
            assert table.size.width >= 70 and detail.outer_size.width <= DETAIL[1]
            hero = next(r for r in screen_text(app).splitlines() if " Hero1 " in r)
            assert "…" not in hero or detail.outer_size.width == DETAIL[0], hero


async def _prompts(pilot, screen: FightScreen) -> None:
    app = pilot.app
    rows = screen_text(app).splitlines()
    assert len([r for r in rows if "⚠" in r]) == 1, rows
    bar = screen.query_one("#prompts")  # one line, or two when the first prompt is long
    said = " ".join(" ".join(s.text.split()) for s in bar.render_lines(bar.region.reset_offset))
    assert "3 prompts" in said and "! all" in said and "≥ 16)" in said, said
    await press(pilot, "exclamation_mark")
    assert isinstance(app.screen, HelpDialog)
    text = screen_text(app)
    for n in range(3):
        assert f"Hero{n} is at" in text, text
    await press(pilot, "escape")
    assert app.screen is screen


@pytest.mark.parametrize("size", SIZES)
def test_the_gun_play_forms_repeat_hint_is_on_screen(size: tuple[int, int], data_dir: Path) -> None:
    fight = build_fight("bnb", data_dir / "g.jsonl")
    fight.close()
    asyncio.run(_gun(data_dir / "g.jsonl", size))


async def _gun(path: Path, size: tuple[int, int]) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await press(pilot, "g")
        shown = screen_text(app)
        assert "Gun-play" in shown and "repeats allowed" in shown, shown


@pytest.mark.parametrize("system_id", ["bnb", "twod6"])
def test_the_replay_table_at_80x24_leads_with_the_state_word_and_main_numbers(system_id: str, data_dir: Path) -> None:
    fight = build_fight(system_id, data_dir / "r.jsonl")
    hero = fight.state.by_name("Hero").id
    fight.do(C.AddCondition(id=hero, name="pinned down by fire", rounds=3))
    fight.do(C.AddCondition(id=hero, name="blessed", rounds=2))
    fight.do(C.Damage(targets=(hero,), amount="40" if system_id == "bnb" else "9"))
    fight.close()
    asyncio.run(_replay(data_dir / "r.jsonl", system_id))


async def _replay(path: Path, system_id: str) -> None:
    app = TrackerApp(replay_path=path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await press(pilot, "end")
        if app.screen.__class__.__name__ != "ReplayScreen":  # (the summary shows at the end)
            await press(pilot, "escape")
        row = next(r for r in screen_text(app).splitlines() if " Hero (PC) " in r)
        word = "dying" if system_id == "bnb" else "dead"
        main = MAIN[system_id]
        assert word in row and main in row, row
        numbers = row[row.index(main) :].split("·")[0].strip()
        assert "…" not in numbers and any(ch.isdigit() for ch in numbers), row  # the main numbers whole


# -- the fallen fold to one line (F) ---------------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("system_id", SYSTEMS)
def test_the_fallen_fold_to_one_line_and_back(system_id: str, size: tuple[int, int], data_dir: Path) -> None:
    long_fight(system_id, data_dir / "fold.jsonl", fallen=(5, 6, 7, 8))
    asyncio.run(_fold(data_dir / "fold.jsonl", size))


async def _fold(path: Path, size: tuple[int, int]) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, FightScreen)
        fallen = [f"Outlaw {n}" for n in (5, 6, 7, 8)]
        rows = screen_text(app).splitlines()
        assert not any("✝" in r for r in rows)
        await press(pilot, "F")
        rows = screen_text(app).splitlines()
        line = [r for r in rows if "4 fallen" in r]
        assert len(line) == 1 and "F unfolds" in line[0], rows
        table = screen.query_one(InitiativeList)
        shown = [screen.fight.state.get(cid).name for cid in table.ids]
        assert not set(fallen) & set(shown) and len(shown) == 11, shown
        await press(pilot, "F")
        rows = screen_text(app).splitlines()
        assert not any("✝" in r for r in rows)
        assert len(table.ids) == 15


@pytest.mark.parametrize("size", SIZES)
def test_a_long_prompt_shows_whole_on_two_lines(size: tuple[int, int], data_dir: Path) -> None:
    """bnb at 80×24: "⚠ Hero is at -2 HP: save vs death (d20 + CON +0 − 2 … ≥ 16)" was cut to one line, and the
    number to roll against with it.  A prompt that does not fit its line takes two, and says it whole."""
    fight = build_fight("bnb", data_dir / "p.jsonl")
    hero = fight.state.by_name("Hero").id
    hp = fight.state.get(hero).data.hp
    fight.do(C.Damage(targets=(hero,), amount=str(hp + 2)))
    (prompt,) = fight.state.prompts
    fight.close()

    async def run() -> None:
        app = TrackerApp(open_path=data_dir / "p.jsonl")
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, FightScreen)
            bar = screen.query_one("#prompts")
            said = " ".join(" ".join(s.text.split()) for s in bar.render_lines(bar.region.reset_offset))
            assert " ".join(prompt.text.split()) in said and "(p resolve · P ruling)" in said, said
            assert bar.size.height == (1 if len(prompt.text) + 30 < size[0] else 2)
            assert "Hero (PC)" in screen_text(app)  # the list still shows

    asyncio.run(run())


@pytest.mark.parametrize("size", SIZES)
def test_a_blackjack_pcs_lead_shows_on_its_row(size: tuple[int, int], data_dir: Path) -> None:
    """A PC with a revolver and a shotgun: its row ended "… Revolver 4/6, Shotg…" at 80 columns, the lead
    count (what reloading and workings spend) cut off.  The lead comes first of the gear."""
    fight = build_fight("blackjack", data_dir / "l.jsonl")
    fight.do(C.AddCombatant(name="Doc", kind="pc", sheet={"lead": 6, "weapons": "Revolver, Shotgun, Hunting knife"}))
    fight.close()

    async def run() -> None:
        app = TrackerApp(open_path=data_dir / "l.jsonl")
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            row = next(r for r in screen_text(app).splitlines() if "Doc (PC)" in r)
            assert "lead 6" in row, row

    asyncio.run(run())


def test_the_bar_cuts_the_systems_name_before_the_fights() -> None:
    """At 80 columns "Canyon" went to "Can…", then went, while "Blackjack (weird-west Core Rules)" stayed whole."""
    from screens.space import bar_line

    line = bar_line("Canyon", "Blackjack (weird-west Core Rules)", "round 2 · turn: Sheriff Crane", "dice rolled", 78)
    assert line.startswith("Canyon · Blackjack") and "round 2 · turn: Sheriff Crane" in line, line
    assert len(line) <= 78
