"""The garbage collector runs while the GM is idle, not inside a key's frame (issue #13, target 4).

See :mod:`screens.collector`: after its first frame the app raises Python's
young threshold and collects itself once the keyboard has been quiet.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from screens import collector
from screens.app import TrackerApp
from screens.collector import IdleCollector
from tests.ui.drive import build_fight


class Clock:
    """A clock that moves by ``step`` at each reading (a collection then takes one step)."""

    def __init__(self, step: float = 0.0) -> None:
        self.now = 100.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


@pytest.fixture
def thresholds() -> Iterator[tuple[int, int, int]]:
    saved = gc.get_threshold()
    yield saved
    gc.set_threshold(*saved)


def young(n: int = 3 * collector.SMALL) -> list[dict[int, int]]:
    """``n`` new container objects that stay alive: the young generation holds at least that many."""
    return [{i: i} for i in range(n)]


def test_start_raises_the_young_threshold_and_stop_puts_it_back(thresholds: tuple[int, int, int]) -> None:
    gc.set_threshold(700, 10, 10)
    c = IdleCollector(lambda: 0.0)
    c.start()
    assert gc.get_threshold() == (collector.YOUNG, 10, collector.OLD)
    c.start()  # twice: still the thresholds from before the first
    c.stop()
    assert gc.get_threshold() == (700, 10, 10)
    c.stop()
    assert gc.get_threshold() == (700, 10, 10)


def test_nothing_is_collected_while_keys_come_or_before_the_start(thresholds: tuple[int, int, int]) -> None:
    clock = Clock()
    last = [clock.now]
    c = IdleCollector(lambda: last[0], clock)
    keep = young()
    assert c.tick() is None  # not started
    c.start()
    last[0] = clock.now - collector.QUIET / 2  # a key a moment ago
    assert c.tick() is None
    last[0] = clock.now - collector.QUIET * 2
    gc.disable()
    try:
        assert c.tick() is None  # the collector is off (the app's start holds it off)
    finally:
        gc.enable()
    assert c.collected == []
    del keep


def test_a_quiet_keyboard_gets_a_middle_collection_and_every_tenth_is_full(thresholds: tuple[int, int, int]) -> None:
    clock = Clock()
    c = IdleCollector(lambda: 0.0, clock)  # the last key long ago
    c.start()
    gc.collect()  # the counts start at zero
    got = []
    for _ in range(2 * collector.FULL_EVERY):
        keep = young()
        got.append(c.tick())
        del keep
    assert got == ([1] * (collector.FULL_EVERY - 1) + [2]) * 2
    assert c.collected == got
    assert gc.get_count()[0] < collector.SMALL


def test_little_to_collect_waits_for_the_next_quiet_moment(thresholds: tuple[int, int, int]) -> None:
    c = IdleCollector(lambda: 0.0, Clock())
    c.start()
    gc.collect()
    assert c.tick() is None
    keep = young()
    assert c.tick() == 1
    assert c.tick() is None  # collected: nothing new since
    del keep


def test_full_collections_take_at_most_their_share_of_the_time(thresholds: tuple[int, int, int]) -> None:
    """A full collection that took 10 ms (one step of the clock) waits 1 s (10 ms / 1 %) before the next."""
    clock = Clock(step=0.01)
    c = IdleCollector(lambda: 0.0, clock)
    c.start()
    gc.collect()
    got = []
    for _ in range(2 * collector.FULL_EVERY + 2):
        keep = young()
        got.append(c.tick())
        del keep
    assert got[: collector.FULL_EVERY] == [1] * (collector.FULL_EVERY - 1) + [2]
    assert got[collector.FULL_EVERY :] == [1] * (collector.FULL_EVERY + 2)  # due again, but too soon after the last
    assert clock.now < got.count(2) + 100.0  # (less than a second since the full one)
    clock.now += 1.0
    keep = young()
    assert c.tick() == 2
    del keep


def test_the_app_collects_while_idle_and_gives_the_thresholds_back(
    tmp_path: Path, thresholds: tuple[int, int, int]
) -> None:
    gc.set_threshold(700, 10, 10)
    path = tmp_path / "fight.jsonl"
    build_fight("bnb", path).close()
    asyncio.run(_idle_app(path))
    assert gc.get_threshold() == (700, 10, 10)


async def _idle_app(path: Path) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(100):
            await asyncio.sleep(0.02)
            if app.collector.started:
                break
        assert gc.get_threshold() == (collector.YOUNG, 10, collector.OLD)
        keep = young()
        await pilot.press("n")  # a key: the collector waits for the keyboard to be quiet
        for _ in range(100):
            await asyncio.sleep(0.02)
            if app.collector.collected:
                break
        assert app.collector.collected, "no collection while the keyboard was quiet"
        assert app.last_key <= app.collector.clock() - collector.QUIET
        del keep
