"""The players' view following a fight as it is played, in each system (Pilot)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot

import saves
from screens.table import TableApp
from tests.view.helpers import add_npc, add_pc, new, screen_text, sync
from tracker import commands as C
from tracker.errors import Refused

SYSTEMS = ["toy", "bnb", "blackjack", "zludge", "twod6"]
DEADLINE = 3.0  # generous on a shared machine; the latency itself is measured in test_latency


async def until(pilot: Pilot, ok: Callable[[], bool], what: str = "") -> float:
    """Wait until the view shows what ``ok`` checks; the seconds it took."""
    start = time.monotonic()
    while not ok():
        if time.monotonic() - start > DEADLINE:
            raise AssertionError(f"the view did not show {what or 'the change'} in {DEADLINE} s")
        await pilot.pause(0.02)
    took = time.monotonic() - start
    await pilot.pause(0.05)  # and let the screen draw it
    return took


def rows(app: TableApp) -> dict[str, str]:
    """Public name -> state text of each row shown."""
    assert app.shown is not None
    return {r.name: r.state for r in app.shown.rows}


def harm(fight: saves.SavedFight, cid: str) -> None:
    """Quick damage where the system takes it, else a GM adjust that takes the combatant out."""
    try:
        fight.do(C.Damage(targets=(cid,), amount="3"))
        return
    except Refused:
        pass
    c = fight.state.get(cid)
    fields = {p.name for p in fight.system.adjustable(fight.state, c)}
    for field, value in (("hp", 0), ("dead", True), ("wounds", 0)):
        if field in fields:
            fight.do(C.Adjust(id=cid, field=field, value=value))
            return
    raise AssertionError(f"no way to harm in {fight.system.id}")


@pytest.mark.parametrize("system_id", SYSTEMS)
@sync
async def test_view_follows_the_fight(system_id: str, tmp_path: Path) -> None:
    path = tmp_path / "fight.jsonl"
    fight = new(system_id, path)
    fight.do(C.NameFight(name="Saloon brawl"))
    pc = add_pc(fight, "Dusty")
    npc = add_npc(fight, "Black Bart", alias="Outlaw")
    spy = add_npc(fight, "Assassin", hidden=True)
    system = fight.system
    app = TableApp(path)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: app.shown is not None and len(app.shown.rows) == 2, "the two visible combatants")
        assert set(rows(app)) == {"Dusty", "Black Bart"}
        assert app.shown is not None and app.shown.title == "Saloon brawl"

        fight.do(C.RollInitiative())
        fight.do(C.StartFight())
        first = fight.state.current
        await until(pilot, lambda: app.shown is not None and app.shown.round == "Round 1", "round 1")
        seen = {pc: "Dusty", npc: "Black Bart"}
        order = fight.state.order
        # the hidden spy first: the first seen to act is up (no one up told the players of the spy's turn)
        after = [i for i in order[order.index(first) :] + order if i in seen] if first else []
        expected_up = seen.get(first or "", seen[after[0]] if after else "")
        await until(pilot, lambda: app.shown is not None and app.shown.up == expected_up, "whose turn it is")
        before = fight.state

        fight.do(C.NextTurn())
        now = fight.state.current
        await until(
            pilot,
            # (a hidden one's turn: the last seen turn stays up)
            lambda: (
                app.shown is not None and app.shown.up == {pc: "Dusty", npc: "Black Bart"}.get(now or "", expected_up)
            ),
            "the next turn",
        )

        harm(fight, npc)
        out = fight.state
        descriptor = system.public(out, out.get(npc))
        await until(pilot, lambda: app.follower.snapshot.fight is not None and app.follower.snapshot.fight.state == out)
        await pilot.pause()
        assert rows(app)["Black Bart"] == descriptor
        text = screen_text(app)
        npc_status = system.status(out, out.get(npc))
        assert npc_status not in text  # the NPC's numbers stay with the GM
        assert system.status(out, out.get(pc)).split(" · ")[0] in text  # the PC's status is shown
        assert "Assassin" not in text

        fight.undo()  # the harm
        fight.undo()  # the next turn
        await until(
            pilot, lambda: app.follower.snapshot.fight is not None and app.follower.snapshot.fight.state == before
        )
        await pilot.pause()
        assert rows(app)["Black Bart"] == system.public(before, before.get(npc))

        fight.do(C.SetView(npc_names=False))
        await until(pilot, lambda: "Outlaw" in rows(app), "the alias")
        assert "Black Bart" not in screen_text(app)

        fight.do(C.Reveal(ids=(spy,)))
        await until(pilot, lambda: len(rows(app)) == 3, "the revealed combatant")
        fight.do(C.Hide(ids=(spy,)))
        await until(pilot, lambda: len(rows(app)) == 2, "the hidden combatant gone")
        fight.undo()  # the hide: revealed again
        await until(pilot, lambda: len(rows(app)) == 3, "the undone hide")
        fight.close()
        written = path.read_bytes()
        await pilot.press("t", "l", "q", "ctrl+p", "ctrl+s", "n", "u", "x", "plus", "enter", "delete")
        await pilot.pause(0.3)
    assert path.read_bytes() == written  # the view wrote nothing


@sync
async def test_hidden_combatant_on_its_turn(tmp_path: Path) -> None:
    """While a hidden combatant acts, the last seen turn stays up (no marker told the players someone unseen
    acts, and where in the order); on deck skips it."""
    path = tmp_path / "f.jsonl"
    fight = new("toy", path)
    fight.do(C.AddCombatant(name="Dusty", kind="pc", sheet={"hp": 9}))
    fight.do(C.AddCombatant(name="Assassin", kind="npc", sheet={"hp": 9}, hidden=True))
    fight.do(C.AddCombatant(name="Zed", kind="pc", sheet={"hp": 9}))
    fight.do(C.SetInitiative(values={"c1": 20, "c2": 15, "c3": 10}))
    fight.do(C.StartFight())
    app = TableApp(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.shown is not None and app.shown.up == "Dusty")
        assert app.shown is not None and app.shown.on_deck == "Zed"
        fight.do(C.NextTurn())  # the assassin's turn
        await until(
            pilot, lambda: app.follower.snapshot.fight is not None and app.follower.snapshot.fight.state == fight.state
        )
        await pilot.pause()
        assert app.shown is not None and app.shown.up == "Dusty" and app.shown.round == "Round 1"
        assert app.shown is not None and app.shown.on_deck == "Zed"
        assert [r.place for r in app.shown.rows] == ["1", "2"]  # numbered without the hidden one
        assert "Assassin" not in screen_text(app)
    fight.close()


@sync
async def test_on_deck_in_a_surprise_round_is_who_acts_next(tmp_path: Path) -> None:
    """In a surprise round only the surprising side acts: "On deck" named Bob, who takes no turn in it (Zed, the
    other surprising PC, acts next); after the last surprising turn, the first of round 1 is on deck."""
    path = tmp_path / "f.jsonl"
    fight = new("toy", path)
    for name, kind in (("Dusty", "pc"), ("Bob", "npc"), ("Zed", "pc")):
        fight.do(C.AddCombatant(name=name, kind=kind, sheet={"hp": 9}))
    fight.do(C.SetInitiative(values={"c1": 20, "c2": 15, "c3": 10}))
    fight.do(C.StartFight(surprise=("c1", "c3")))
    app = TableApp(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.shown is not None and app.shown.up == "Dusty")
        assert app.shown is not None and app.shown.on_deck == "Zed"
        assert "On deck: Zed" in screen_text(app)
        fight.do(C.NextTurn())  # Zed's surprise turn: Dusty opens round 1
        await until(pilot, lambda: app.shown is not None and app.shown.up == "Zed")
        assert app.shown is not None and app.shown.on_deck == "Dusty"
    fight.close()


@sync
async def test_a_name_hidden_again_gives_its_column_width_back(tmp_path: Path) -> None:
    """A long name once shown kept the name column wide after the GM hid it again (a gap on the players' table
    that a fresh view does not have): the columns are as wide as what is shown now."""
    path = tmp_path / "f.jsonl"
    fight = new("toy", path)
    fight.do(C.AddCombatant(name="Dusty", kind="pc", sheet={"hp": 9}))
    fight.do(C.AddCombatant(name="Sir Reginald of the Long Name", kind="npc", sheet={"hp": 9}, hidden=True))
    fight.do(C.SetInitiative(values={"c1": 20, "c2": 15}))
    fight.do(C.StartFight())

    def header() -> str:
        return next(line for line in screen_text(app).splitlines() if "State" in line and "Name" in line)

    app = TableApp(path)
    async with app.run_test(size=(120, 36)) as pilot:
        await until(pilot, lambda: app.shown is not None and app.shown.up == "Dusty")
        fresh = header()
        fight.do(C.Reveal(ids=("c2",)))
        await until(pilot, lambda: "Sir Reginald" in rows_text(app))
        assert header().index("State") > fresh.index("State")
        fight.do(C.Hide(ids=("c2",)))
        await until(pilot, lambda: "Sir Reginald" not in rows_text(app))
        assert header() == fresh
    fight.close()


def rows_text(app: TableApp) -> str:
    return " ".join(rows(app))


@sync
async def test_latency(tmp_path: Path) -> None:
    """Each GM action shows within half a second (median; measured with the real poll)."""
    path = tmp_path / "f.jsonl"
    fight = new("toy", path)
    fight.do(C.AddCombatant(name="Dusty", kind="pc", sheet={"hp": 50}))
    fight.do(C.AddCombatant(name="Zed", kind="pc", sheet={"hp": 50}))
    fight.do(C.RollInitiative())
    fight.do(C.StartFight())
    app = TableApp(path)
    took = []
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.shown is not None and app.shown.up != "")
        for _ in range(10):
            fight.do(C.NextTurn())
            state = fight.state
            took.append(
                await until(
                    pilot,
                    lambda s=state: app.follower.snapshot.fight is not None and app.follower.snapshot.fight.state == s,
                )
            )
    fight.close()
    print("latency", sorted(round(t, 3) for t in took))
    assert statistics.median(took) < 0.5, took


@sync
async def test_missing_then_damaged_file(tmp_path: Path) -> None:
    path = tmp_path / "later.jsonl"
    app = TableApp(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert "Waiting for the fight file later.jsonl" in text
        assert str(tmp_path) not in text
        fight = new("toy", path)
        fight.do(C.AddCombatant(name="Dusty", kind="pc", sheet={"hp": 9}))
        fight.close()
        await until(pilot, lambda: app.shown is not None and len(app.shown.rows) == 1)
        with open(path, "a", encoding="utf-8") as f:
            f.write('{"seq": 99, "garbage": true}\n')
        for _ in range(5):
            await pilot.pause(0.1)
        # a whole last line that does not read is left out, as the loader leaves it out: the fight still shows
        assert app.shown is not None and len(app.shown.rows) == 1, screen_text(app)
        with open(path, "a", encoding="utf-8") as f:
            f.write('{"seq": 100, "garbage": true}\n')  # a line after it: damage in the middle, at its line
        await until(pilot, lambda: app.shown is None, "the problem")
        text = screen_text(app)
        assert "line 3" in text and "Traceback" not in text
    foreign = tmp_path / "notes.txt"
    foreign.write_text("not a fight\n")
    app = TableApp(foreign)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "notes.txt is not a fight file" in screen_text(app)


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
@sync
async def test_the_conditions_show_however_long_a_status(size: tuple[int, int], tmp_path: Path) -> None:
    """A PC with two guns: its status ("HP 5/5 · DC 10 · belt pistol 6/6, repeating rifle 12/12") pushed the
    Conditions column, the last, off the players' table at 80 columns ("Prone" and its header gone).  The
    status is cut instead, and the conditions show."""
    path = tmp_path / "f.jsonl"
    fight = new("bnb", path)
    fight.do(
        C.AddCombatant(name="Kid", kind="pc", sheet={"cls": "Shootist", "weapons": "belt pistol, repeating rifle"})
    )
    fight.do(C.AddCombatant(name="Lou", kind="pc", sheet={"cls": "Shootist"}))
    fight.do(C.AddCondition(id="c1", name="Prone"))
    fight.do(C.StartFight())
    app = TableApp(path)
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: app.shown is not None and bool(app.shown.rows))
        shown = screen_text(app)
        kid = next(line for line in shown.splitlines() if "Kid (PC)" in line)
        assert "Conditions" in shown and "Prone" in kid, shown
        assert "belt pistol" in kid  # the status, as much of it as the room holds
    fight.close()


@sync
async def test_a_long_name_is_cut_only_when_the_state_needs_the_room(tmp_path: Path) -> None:
    """At 80×24 "Bartholomew Quicksilver-Jones" showed as "Bartholomew Quick" while the State column, given all
    the rest, had ten columns to spare: the name takes what the state leaves it (a third of the room kept for
    the state), and only then is cut."""
    path = tmp_path / "f.jsonl"
    fight = new("bnb", path)
    fight.do(
        C.AddCombatant(name="Kid", kind="pc", sheet={"cls": "Shootist", "weapons": "belt pistol, repeating rifle"})
    )
    fight.do(C.AddCombatant(name="Bartholomew Quicksilver-Jones", kind="npc", preset="outlaw"))
    fight.do(C.AddCondition(id="c1", name="Prone"))
    fight.do(C.StartFight())
    app = TableApp(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.shown is not None and bool(app.shown.rows))
        shown = screen_text(app)
        kid = next(line for line in shown.splitlines() if "Kid (PC)" in line)
        row = next(line for line in shown.splitlines() if "unhurt" in line)
        assert "Bartholomew Quicksilver-Jones" in row, shown
        assert "Prone" in kid and "HP 2/2 · DC 10 · belt" in kid, shown
    fight.close()


@sync
async def test_a_secret_action_draws_nothing_on_the_players_screen(tmp_path: Path) -> None:
    """Each GM action on the hidden only rebuilt the players' table (a screen update sent to every browser, the
    picture the same): anyone watching the network could count the secret actions. Nothing changed, nothing is
    drawn."""
    path = tmp_path / "f.jsonl"
    fight = new("toy", path)
    fight.do(C.AddCombatant(name="Dusty", kind="pc", sheet={"hp": 9}))
    fight.do(C.AddCombatant(name="Assassin", kind="npc", sheet={"hp": 9}, hidden=True))
    fight.do(C.StartFight())
    app = TableApp(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.shown is not None and app.shown.up == "Dusty")
        drawn: list[object] = []
        fill = app._fill
        app._fill = lambda view: (drawn.append(view), fill(view))  # type: ignore[method-assign]
        for n in range(3):
            fight.do(C.AddCondition(id="c2", name=f"Plotting {n}"))
        await until(
            pilot,
            lambda: (
                app.follower.snapshot.fight is not None
                and len(app.follower.snapshot.fight.entries) == len(fight.entries)
            ),
        )
        await pilot.pause(0.3)
        assert drawn == []
        fight.do(C.AddCondition(id="c1", name="Watchful"))
        await until(pilot, lambda: bool(drawn), "the seen condition")
    fight.close()


@sync
async def test_a_long_pc_name_cut_at_80_columns_keeps_its_pc_and_says_it_is_cut(tmp_path: Path) -> None:
    """At 80x24 a long PC name was cut unsaid and lost its "(PC)"; conditions were cut unsaid too."""
    path = tmp_path / "f.jsonl"
    fight = new("bnb", path)
    fight.do(
        C.AddCombatant(
            name="Bartholomew Quicksilver-Jones the Third",
            kind="pc",
            sheet={"cls": "Shootist", "weapons": "belt pistol, repeating rifle"},
        )
    )
    fight.do(C.AddCondition(id="c1", name="Pinned down behind the water trough", rounds=2))
    fight.do(C.StartFight())
    app = TableApp(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.shown is not None and bool(app.shown.rows))
        row = next(line for line in screen_text(app).splitlines() if "Bartholomew" in line and "Up:" not in line)
        assert "Bartholomew Quicksilver-Jones the Third" not in row, row  # (too long for the room: cut)
        assert "… (PC)" in row and "…" in row.split("(PC)", 1)[1], row
    fight.close()
