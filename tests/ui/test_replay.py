"""The replay screen through the real app: each system's saved fight, stepped both ways and continued."""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path

import pytest

import saves
from saves.export import recap
from saves.format import seal
from screens import logic
from screens.app import TrackerApp
from screens.dialogs.confirm import ConfirmDialog
from screens.fight import FightScreen
from screens.replay import ReplayLog, ReplayScreen
from screens.start import StartScreen
from screens.summary import SummaryScreen
from screens.widgets.initiative import InitiativeList, status_line
from tests.support import toy
from tests.ui.drive import press
from tests.view.helpers import screen_text
from tracker import AddCombatant, DismissPrompt, Fight, NextTurn, RollInitiative, SetInitiative, StartFight, registry
from tracker.dice import DiceRequest, ScriptedRoller
from tracker.errors import TrackerError
from tracker.replay import Timeline

SIZE = (100, 32)


class CycleRoller:
    """Scripted faces that never run out: a fixed walk through each die's faces."""

    def __init__(self) -> None:
        self.k = 0

    def faces(self, request: DiceRequest) -> tuple[int, ...]:
        span = request.hi - request.lo + 1
        out = []
        for _ in range(request.count):
            self.k += 1
            out.append(request.lo + (self.k * 7) % span)
        return tuple(out)


# a PC preset and an NPC preset (added as a group of two) per system
CASTS = {
    "bnb": ("shootist", "outlaw"),
    "blackjack": ("gunslinger", "outlaw"),
    "zludge": ("soldier", "thug"),
    "twod6": ("longsword", "bandit"),
    "toy": ("goblin", "goblin"),
}


def play(fight: Fight, actions: int = 40) -> None:
    """Attacks by whoever's turn it is, prompts answered, one undo and a redo-then-undo on the way."""
    system = fight.system
    attack = logic.find_spec(system, "attack") or logic.find_spec(system, "hit")
    assert attack is not None
    for i in range(actions):
        state = fight.state
        if state.ended:
            break
        try:
            if i == 9 and fight.can_undo:
                fight.undo()
            elif i == 15 and fight.can_undo:
                fight.undo()
                fight.redo()
                fight.undo()
            elif state.prompts:
                prompt = state.prompts[0]
                spec = logic.find_spec(system, prompt.command)
                try:
                    if spec is None:
                        raise TrackerError("no command")
                    fight.do(spec.make(logic.prompt_prefill(spec, state, prompt)))
                except TrackerError:
                    fight.do(DismissPrompt(prompt_id=prompt.id, note="ruled"))
            elif i % 2 == 0:
                fight.do(attack.make(logic.prefill(attack, state, None)))
            else:
                fight.do(NextTurn())
        except TrackerError:
            with contextlib.suppress(TrackerError):
                fight.do(NextTurn())


def saved_fight(system_id: str, folder: Path, name: str = "fight") -> Path:
    """A fight of ``system_id`` written through the saves API with scripted dice."""
    system = registry.load(system_id)
    path = folder / f"{name}.jsonl"
    fight = saves.new_fight(system, path, seed=1, roller=CycleRoller())
    pc, npc = CASTS[system_id]
    fight.do(AddCombatant(name="", preset=pc, kind="pc"))
    fight.do(AddCombatant(name="", preset=npc, kind="npc", count=2))
    fight.do(RollInitiative())
    fight.do(StartFight())
    play(fight)
    fight.close()
    return path


def toy_fight(folder: Path, name: str = "toy") -> Path:
    """The toy story: a hit, a miss undone, a second round."""
    path = folder / f"{name}.jsonl"
    f = saves.new_fight(toy.system, path, seed=1, roller=ScriptedRoller([15, 4, 12, 2, 3, 10, 1, 20, 6]))
    f.do(AddCombatant(name="Alice", kind="pc", sheet={"hp": 8}))
    f.do(AddCombatant(name="Goblin", preset="goblin", count=2))
    f.do(SetInitiative(values={"c1": 15, "c2": 12, "c3": 10}))
    f.do(StartFight())
    f.do(toy.Hit(actor="c1", target="c2"))
    f.do(DismissPrompt(prompt_id="down:c2", note="out cold"))
    f.do(toy.Hit(actor="c3", target="c1"))
    f.do(toy.Hit(actor="c3", target="c1"))  # a miss ...
    f.undo()  # ... taken back
    f.do(toy.Hit(actor="c1", target="c3"))
    while f.state.round < 2:
        f.do(NextTurn())
    f.do(toy.Hit(actor="c1", target="c3"))
    f.close()
    return path


def shown_matches(screen: ReplayScreen, timeline: Timeline, position: int) -> None:
    """The screen is at ``position`` and its list shows the timeline's state there."""
    assert screen.position == position
    state = timeline.state_at(position)
    assert screen.state == state
    table = screen.query_one(InitiativeList)
    present = state.present
    assert table.ids == tuple(c.id for c in present)
    for c in present:
        assert str(table.cells(c.id)[2]).startswith(c.name)
        assert str(table.cells(c.id)[5]) == status_line(timeline.system, state, c)


def messages(app: TrackerApp) -> list[str]:
    return [n.message for n in app._notifications]


@pytest.mark.parametrize("system_id", ["bnb", "blackjack", "zludge", "twod6", "toy"])
def test_replay_each_system_both_ways_and_continue(system_id: str, data_dir: Path) -> None:
    asyncio.run(_replay_both_ways(system_id, data_dir))


async def _replay_both_ways(system_id: str, folder: Path) -> None:
    path = saved_fight(system_id, folder)
    original = path.read_bytes()
    loaded = saves.load(path)
    timeline = Timeline(loaded.system, loaded.entries)
    n = len(timeline)
    assert n > 30 and timeline.ever_undone
    app = TrackerApp(replay_path=path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        shown_matches(screen, timeline, 0)

        # one event at a time, forward then back
        for k in range(1, 13):
            await press(pilot, "right")
            shown_matches(screen, timeline, k)
        for k in range(11, 4, -1):
            await press(pilot, "left")
            shown_matches(screen, timeline, k)

        # GM actions: the positions are action boundaries, where a plain replay of the log agrees
        p = screen.position
        for _ in range(6):
            await press(pilot, "right_square_bracket")
            p = timeline.next_action(p)
            shown_matches(screen, timeline, p)
        check = Fight(loaded.system)
        check.load(loaded.entries[:p])
        assert screen.state == check.state
        for _ in range(3):
            await press(pilot, "left_square_bracket")
            p = timeline.prev_action(p)
            shown_matches(screen, timeline, p)

        # rounds
        await press(pilot, "pagedown")
        p = timeline.next_round(p)
        shown_matches(screen, timeline, p)
        await press(pilot, "pagedown")
        p = timeline.next_round(p)
        shown_matches(screen, timeline, p)
        await press(pilot, "pageup")
        p = timeline.prev_round(p)
        shown_matches(screen, timeline, p)

        # the end shows the summary first; the end state is the loaded fight's
        await press(pilot, "end")
        assert isinstance(app.screen, SummaryScreen)
        await press(pilot, "escape")
        shown_matches(screen, timeline, n)
        assert screen.state == loaded.fight().state
        await press(pilot, "home")
        shown_matches(screen, timeline, 0)

        # a log line chosen with the cursor: the state after it
        screen.goto(20)
        screen.query_one(ReplayLog).focus()
        await press(pilot, "up", "up", "up", "enter")
        shown_matches(screen, timeline, 17)

        # undone lines are marked in the log
        log = screen.query_one(ReplayLog)
        undone = [i for i in range(n) if timeline.is_undone(i)]
        assert undone and all(log.line_text(i).startswith("(undone) ") for i in undone)  # first: never cut off
        log.move_cursor(undone[0], center=True)  # in view, as drawn at this width
        await pilot.pause()
        drawn = log.render_line(undone[0] - log.scroll_offset.y).text
        assert f"{timeline.entries[undone[0]].seq} (undone) " in drawn, drawn

        # continue from the middle into a new file
        middle = n // 2
        screen.goto(middle)
        await press(pilot, "c")
        assert isinstance(app.screen, ConfirmDialog)
        await press(pilot, "y")
        assert isinstance(app.screen, FightScreen)
        fight = app.screen.fight
        upto = timeline.end_of_action(middle)
        assert fight.path != path and fight.path.parent == path.parent
        assert fight.state == timeline.state_at(upto)
        assert saves.load(fight.path).entries == loaded.entries[:upto]
    assert path.read_bytes() == original


def test_stepping_into_and_over_an_undone_action(data_dir: Path) -> None:
    asyncio.run(_skip_undone(data_dir))


async def _skip_undone(folder: Path) -> None:
    path = toy_fight(folder)
    loaded = saves.load(path)
    timeline = Timeline(loaded.system, loaded.entries)
    (undone,) = [i for i in range(len(timeline)) if timeline.is_undone(i)]  # the miss
    undo_line = next(i for i in range(undone, len(timeline)) if type(timeline.entries[i].event).__name__ == "Undone")
    app = TrackerApp(replay_path=path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        screen.goto(undone)
        await pilot.press("right")  # into: the miss is shown as it happened
        shown_matches(screen, timeline, undone + 1)
        await pilot.press("right")  # and its undo
        shown_matches(screen, timeline, undo_line + 1)
        screen.goto(undone)
        await pilot.press("z", "right")  # over: the miss and its undo pass as one step, then one more event
        shown_matches(screen, timeline, undo_line + 2)
        await pilot.press("left")
        shown_matches(screen, timeline, undone)
        assert timeline.state_at(undone) == timeline.state_at(undo_line + 1)
        assert "skipping undone" in screen.bar_text()
        # forward stops where backward does: at the event just before the undone action (a step from the event
        # before it passed it over, to the undo's own line, which a step back never shows)
        screen.goto(undone - 1)
        await pilot.press("right")
        shown_matches(screen, timeline, undone)
        await pilot.press("right")
        shown_matches(screen, timeline, undo_line + 2)


def test_export_writes_the_recap_beside_the_save(data_dir: Path) -> None:
    asyncio.run(_export(data_dir))


async def _export(folder: Path) -> None:
    path = toy_fight(folder)
    app = TrackerApp(replay_path=path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("e")
        await pilot.pause()
        target = folder / "toy-recap.md"
        assert target.read_text("utf-8") == recap(saves.load(path))
        assert any(str(target) in m for m in messages(app))


def test_summary_on_a_key_counts_up_to_the_point(data_dir: Path) -> None:
    asyncio.run(_summary_key(data_dir))


async def _summary_key(folder: Path) -> None:
    path = toy_fight(folder)
    app = TrackerApp(replay_path=path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        screen.goto(11)  # just after Alice's first hit
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        assert app.screen.summary.position == 11
        assert app.screen.summary.fighter("Alice").hits == 1
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen


def test_a_torn_file_opens_with_a_notice(data_dir: Path) -> None:
    asyncio.run(_torn(data_dir))


async def _torn(folder: Path) -> None:
    path = toy_fight(folder)
    good = saves.load(path)
    with open(path, "a", encoding="utf-8") as f:
        f.write('{"seq": 99, "action": 40, "of": 1, "type": "no')
    app = TrackerApp(replay_path=path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert len(screen.timeline) == len(good.entries)
        notice = str(screen.query_one("#notice").render())
        assert "cut off" in notice and "dropped" in notice
        assert any("cut off" in m for m in messages(app))


def _bad_files(folder: Path) -> dict[str, tuple[Path, str]]:
    good = toy_fight(folder, "good")
    lines = good.read_text("utf-8").splitlines()
    damaged = folder / "damaged.jsonl"
    damaged.write_text("\n".join([*lines[:5], "{not json", *lines[5:]]) + "\n", "utf-8")
    head = json.loads(lines[0])
    newer = folder / "newer.jsonl"
    newer.write_text("\n".join([json.dumps({**head, "format": 99}), *lines[1:]]) + "\n", "utf-8")
    foreign = folder / "foreign.jsonl"
    head.pop("crc", None)  # the header edited by hand, then sealed with its checksum anew
    sealed = seal(json.dumps({**head, "system": "no_such_system"}, separators=(",", ":")))
    foreign.write_text("\n".join([sealed, *lines[1:]]) + "\n", "utf-8")
    return {"damaged": (damaged, "line 6"), "newer": (newer, "99"), "foreign": (foreign, "no_such_system")}


@pytest.mark.parametrize("kind", ["damaged", "newer", "foreign"])
def test_a_bad_file_gives_a_message_on_the_start_screen(kind: str, data_dir: Path) -> None:
    asyncio.run(_bad(kind, data_dir))


async def _bad(kind: str, folder: Path) -> None:
    path, words = _bad_files(folder)[kind]
    with pytest.raises(TrackerError):
        ReplayScreen(path)
    app = TrackerApp(replay_path=path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        assert any(words in m for m in messages(app)), messages(app)


def test_replay_from_the_start_screen(data_dir: Path) -> None:
    asyncio.run(_from_start(data_dir))


async def _from_start(folder: Path) -> None:
    fights = saves.default_dir()
    fights.mkdir(parents=True, exist_ok=True)
    path = toy_fight(fights)
    app = TrackerApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("c", "v")
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        assert app.screen.path == path
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)


@pytest.mark.parametrize("system_id", ["bnb", "twod6"])
def test_a_replay_at_80_columns_shows_the_names_and_the_lines_whole(system_id: str, data_dir: Path) -> None:
    """At 80×24 the replay's list, beside the detail pane and its keys, cut every name to 13 columns: three
    "Town Guard w…" rows, and the bar "turn: Town Guard" said not which; then the log beside the detail pane was
    46 columns wide and cut every line at 37 characters, before its outcome ("Hero 1 attacks Bison w2 2 with the
    he…"). Narrow, the list and the log go across, and the bar keeps the name of whose turn it is whole."""
    from bench.fights import make_fight

    path = data_dir / "long.jsonl"
    make_fight(system_id, 400, path, seed=4).close()

    async def run() -> None:
        app = TrackerApp(replay_path=path)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            for _ in range(6):
                await press(pilot, "pagedown")
            text = screen_text(app)
            state = screen.state
            assert state.current is not None and f"turn: {state.name(state.current)}" in text.splitlines()[0], text
            listed = [c.name for c in state.combatants if c.id in state.order]
            assert all(name in text for name in listed), (listed, text)
            log = screen.query_one(ReplayLog)
            assert log.size.width >= 76, log.size
            line = log.line_text(screen.position - 1)
            assert line[:60] in text, (line, text)

    asyncio.run(run())


def test_a_round_jump_stepping_over_undone_actions_lands_only_in_rounds_that_stand(tmp_path: Path) -> None:
    """With "skipping undone" on, PgDn landed in a round start that was taken back (a struck-through line), and
    then on the same round again."""
    from tests.ui.drive import build_fight
    from tracker import Note

    path = tmp_path / "rounds.jsonl"
    f = build_fight("bnb", path)
    for _ in range(3):
        f.do(NextTurn())  # the last one starts round 2
    f.undo()
    f.do(Note(text="oops"))
    for _ in range(4):
        f.do(NextTurn())
    f.close()
    timeline = saves.load(path).timeline()

    async def run() -> list[tuple[int, int]]:
        app = TrackerApp(replay_path=path)
        landed: list[tuple[int, int]] = []
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            await press(pilot, "z")
            for _ in range(3):
                await press(pilot, "pagedown")
                landed.append((screen.position, screen.state.round))
        return landed

    landed = asyncio.run(run())
    rounds = [r for _, r in landed]
    assert rounds == sorted(set(rounds)), landed  # each round once, in order
    for position, _ in landed:
        assert not timeline.is_undone(position - 1), landed
