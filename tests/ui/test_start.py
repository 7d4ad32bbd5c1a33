"""The start screen's saved fights: what ``saves.recent`` read, never a whole log; replay is one key."""

from __future__ import annotations

import asyncio
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import OptionList

import saves
from screens.app import TrackerApp
from screens.fight import FightScreen
from screens.replay import ReplayScreen
from screens.start import StartScreen
from tests.support import toy
from tests.ui.drive import post_keys
from tests.ui.test_replay import toy_fight
from tracker import AddCombatant, NameFight, SetInitiative, StartFight, registry
from tracker.dice import ScriptedRoller

SIZE = (100, 30)


def named_fight(folder: Path) -> Path:
    path = folder / "ford.jsonl"
    f = saves.new_fight(toy.system, path, seed=1, roller=ScriptedRoller([10]))
    f.do(NameFight(name="Ambush at the ford"))
    f.do(AddCombatant(name="Alice", kind="pc", sheet={"hp": 8}))
    f.do(AddCombatant(name="Goblin", preset="goblin", count=3))
    f.do(SetInitiative(values={"c1": 15, "c2": 12, "c3": 10, "c4": 9}))
    f.do(StartFight())
    f.close()
    return path


def labels(app: TrackerApp) -> list[str]:
    box = app.screen.query_one("#saves", OptionList)
    return [str(box.get_option_at_index(i).prompt) for i in range(box.option_count)]


async def settle(app: TrackerApp) -> None:
    await app.workers.wait_for_complete()
    for _ in range(3):
        await asyncio.sleep(0)


def test_the_list_shows_name_system_date_round_and_combatants_without_loading_a_fight(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fights = saves.default_dir()
    fights.mkdir(parents=True, exist_ok=True)
    named_fight(fights)
    (fights / "broken.jsonl").write_text("not a fight\n", "utf-8")

    def no_load(*args: object, **kwargs: object) -> None:
        raise AssertionError("the start screen read a whole fight")

    monkeypatch.setattr(saves, "load", no_load)
    asyncio.run(_listed(fights))


async def _listed(fights: Path) -> None:
    app = TrackerApp()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app)
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        shown = labels(app)
        (ford,) = [x for x in shown if "Ambush at the ford" in x]
        assert "Toy" in ford and "round 1" in ford and "4 combatants" in ford and "ford.jsonl" in ford
        info = next(i for i in app.screen.saved if i.path.name == "ford.jsonl")
        assert info.created[:10] in ford
        (broken,) = [x for x in shown if "broken.jsonl" in x]
        assert "damaged" in broken
        box = app.screen.query_one("#saves", OptionList)
        assert box.get_option_at_index(shown.index(broken)).disabled


def test_the_saves_are_read_in_a_worker_thread(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A slow folder never holds the screen: the list says it is reading until the worker is done."""
    import threading

    import screens.start as start

    fights = saves.default_dir()
    fights.mkdir(parents=True, exist_ok=True)
    named_fight(fights)
    release = threading.Event()
    threads: list[str] = []
    real = start.read_saves

    def slow(folder: Path) -> list[object]:
        threads.append(threading.current_thread().name)
        release.wait(10)
        return real(folder)

    monkeypatch.setattr(start, "read_saves", slow)
    asyncio.run(_slow(release, threads))


async def _slow(release: object, threads: list[str]) -> None:
    import threading

    assert isinstance(release, threading.Event)
    app = TrackerApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert labels(app) == ["Reading the saved fights…"]
        await pilot.press("c")  # the screen answers keys meanwhile
        assert app.screen.focused is not None and app.screen.focused.id == "saves"
        release.set()
        await settle(app)
        await pilot.pause()
        assert any("Ambush at the ford" in x for x in labels(app))
    assert threads and threads[0] != threading.main_thread().name


def test_replay_of_a_saved_fight_is_one_key(data_dir: Path) -> None:
    asyncio.run(_one_key())


async def _one_key() -> None:
    fights = saves.default_dir()
    fights.mkdir(parents=True, exist_ok=True)
    path = toy_fight(fights)
    app = TrackerApp()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app)
        await pilot.pause()
        await pilot.press("v")
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        assert app.screen.path == path


def drawn_text(widget: Widget) -> str:
    """What the widget draws, line by line, as the GM reads it."""
    size = widget.size
    return "\n".join(strip.text for strip in widget.render_lines(Region(0, 0, size.width, size.height)))


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
def test_a_system_that_fails_to_load_is_listed_and_refused_when_chosen(
    size: tuple[int, int], data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The list reads what each system says of itself (no plug-in is loaded to list it): one whose rules are
    broken is listed, and choosing it says why it cannot start, on the start screen, which goes on working."""
    eps = [
        EntryPoint(name="bnb", value="systems.bnb:system", group=registry.GROUP),
        EntryPoint(name="halfbroken", value="tests.support.half_broken:system", group=registry.GROUP),
    ]
    monkeypatch.setattr(registry, "_scan", lambda group: None)
    monkeypatch.setattr(registry, "entry_points", lambda group: eps)
    asyncio.run(_half_broken(size))


async def _half_broken(size: tuple[int, int]) -> None:
    app = TrackerApp()
    async with app.run_test(size=size, notifications=True) as pilot:
        await settle(app)
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        listed = drawn_text(app.screen.query_one("#systems", OptionList))
        assert "Blood & Bullets — Old West" in listed and "Half Broken — says what it is" in listed
        await pilot.press("down", "enter")
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        await pilot.pause()
        toasts = " ".join(drawn_text(t) for t in app.screen.query("Toast"))
        assert "Cannot start" in toasts and "'halfbroken' failed to load: ImportError" in toasts
        assert len(app.screen.query("Toast")) == 1  # said once (the list did not take the Enter too)
        await pilot.press("up", "enter")
        await pilot.pause()
        assert isinstance(app.screen, FightScreen) and app.screen.system.id == "bnb"


@pytest.mark.parametrize(
    "keys, which",
    [(("down", "enter"), 1), (("end", "enter"), -1), (("end", "up", "enter"), -2), (("down", "home", "enter"), 0)],
    ids=["down", "end", "end-up", "down-home"],
)
def test_keys_sent_at_once_open_the_system_they_move_to(keys: tuple[str, ...], which: int, data_dir: Path) -> None:
    """``↓⏎`` sent at once (typed while the app starts, a paste, SSH) opens the system the arrow moved to, as
    typed one by one.  It opened the system highlighted before the arrow: Enter, handled as it arrives so that
    the keys after it reach the fight, ran before the list had moved."""

    async def run() -> None:
        app = TrackerApp()
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            start = app.screen
            assert isinstance(start, StartScreen)
            wanted = start.systems[which].id
            post_keys(pilot, *keys)
            for _ in range(6):
                await pilot.pause()
            assert isinstance(app.screen, FightScreen), type(app.screen).__name__
            assert app.screen.system.id == wanted, (app.screen.system.id, wanted)

    asyncio.run(run())


def test_a_saved_fight_chosen_by_keys_sent_at_once_is_the_one_opened(data_dir: Path) -> None:
    """``c↓⏎`` sent at once continues the second saved fight listed, not the system highlighted (Enter before
    ``c`` had focused the saves) nor the first fight."""
    fights = saves.default_dir()
    fights.mkdir(parents=True, exist_ok=True)
    named_fight(fights)
    toy_fight(fights, "second")

    async def run() -> None:
        app = TrackerApp()
        async with app.run_test(size=SIZE) as pilot:
            await settle(app)
            start = app.screen
            assert isinstance(start, StartScreen) and len(start.saved) == 2
            wanted = start.saved[1].path
            post_keys(pilot, "c", "down", "enter")
            for _ in range(6):
                await pilot.pause()
            assert isinstance(app.screen, FightScreen), type(app.screen).__name__
            assert app.fight is not None and app.fight.path == wanted

    asyncio.run(run())
