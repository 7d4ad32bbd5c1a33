"""Benchmark of the app: launch to the first interactive frame, and the "next turn" key.

Run:  python bench/bench_app.py [--events 2500] [--combatants 100] [--repeat 5]

Both figures are taken headless (Textual's ``run_test``) in one process:

* launch: from creating the app to the fight screen mounted, drawn and idle
  when continuing a saved fight of ``--events`` events, beside a bare Textual
  app (a label and a footer) launched the same way in the same run; the ratio
  is the figure to read (target: within 1.5x);
* next turn: from pressing "n" to the updated screen in a ``--combatants``
  fight (target: under 50 ms median); a key bound to nothing is timed the same
  way through Pilot, so the test harness's own cost is visible beside it.

Times are wall-clock medians of ``--repeat`` runs; the machines are shared, so
read ratios rather than absolute times.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from textual import events
from textual.app import App, ComposeResult
from textual.widgets import Footer, Label

import saves
from screens.app import TrackerApp
from screens.fight import FightScreen
from tests.support import toy
from tracker import commands as C
from tracker import registry

registry.register(toy.system)


class BareApp(App[None]):
    def compose(self) -> ComposeResult:
        yield Label("bare")
        yield Footer()


def long_fight(path: Path, events: int, combatants: int = 8) -> int:
    """A toy fight with attacks, downs settled by their prompt, and turns, until ``events`` log entries."""
    fight = saves.new_fight(toy.system, path, seed=1)
    fight.do(C.AddCombatant(name="Hero", kind="pc", sheet={"hp": 30}))
    fight.do(C.AddCombatant(name="Goblin", preset="goblin", count=combatants - 1))
    fight.do(C.RollInitiative())
    fight.do(C.StartFight())
    hit = next(s for s in toy.system.commands() if s.name == "hit")
    shrug = next(s for s in toy.system.commands() if s.name == "shrug")
    while len(fight.entries) < events:
        state = fight.state
        actor = state.current
        target = next(c.id for c in state.present if c.id != actor)
        with contextlib.suppress(C.Refused):
            fight.do(hit.make({"actor": actor, "target": target}))
        for prompt in fight.state.prompts:
            fight.do(shrug.make({"actor": prompt.combatant}))
        fight.do(C.NextTurn())
    fight.close()
    return len(fight.entries)


def big_fight(path: Path, combatants: int) -> None:
    fight = saves.new_fight(toy.system, path, seed=2)
    left = combatants
    n = 0
    while left:
        take = min(left, 50)
        n += 1
        fight.do(C.AddCombatant(name=f"Bandit band {n}", preset="goblin", count=take))
        left -= take
    fight.do(C.RollInitiative())
    fight.do(C.StartFight())
    fight.close()


async def launch_time(make_app, ready) -> float:
    start = time.perf_counter()
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        while not ready(app):
            await pilot.pause()
        await pilot.pause()
        took = time.perf_counter() - start
    return took


async def key_times(path: Path, repeat: int) -> tuple[list[float], list[float]]:
    """From posting the key to the first screen refresh after the screen took it in.

    The fight screen's ``refresh_view`` (run by every action) is wrapped to ask
    for a callback after the next refresh, i.e. once the updated screen is drawn.
    Pilot's own per-key wait (``pilot.press``) is timed beside it for reference.
    """
    app = TrackerApp(open_path=path)
    nexts: list[float] = []
    harness: list[float] = []
    async with app.run_test(size=(100, 32)) as pilot:
        while not isinstance(app.screen, FightScreen):
            await pilot.pause()
        await pilot.pause()
        screen = app.screen
        drawn = asyncio.Event()
        original = screen.refresh_view

        def refresh_view() -> None:
            original()
            screen.call_after_refresh(drawn.set)

        screen.refresh_view = refresh_view  # type: ignore[method-assign]
        for _ in range(repeat):
            before = screen.fight.state.turn, screen.fight.state.round
            drawn.clear()
            t0 = time.perf_counter()
            app.post_message(events.Key("n", "n"))
            await drawn.wait()
            nexts.append(time.perf_counter() - t0)
            assert (screen.fight.state.turn, screen.fight.state.round) != before
            await pilot.pause()
            t0 = time.perf_counter()
            await pilot.press("f12")
            harness.append(time.perf_counter() - t0)
    return nexts, harness


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=2500)
    parser.add_argument("--combatants", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="bench-app-"))
    os.environ["TRACKER_DATA_DIR"] = str(folder)
    long_path = folder / "long.jsonl"
    events = long_fight(long_path, args.events)
    big_path = folder / "big.jsonl"
    big_fight(big_path, args.combatants)

    async def run() -> tuple[list[float], list[float], list[float], list[float]]:
        bare: list[float] = []
        cont: list[float] = []
        await launch_time(BareApp, lambda app: True)  # warm the imports and caches for both
        await launch_time(lambda: TrackerApp(open_path=long_path), lambda app: isinstance(app.screen, FightScreen))
        for _ in range(args.repeat):
            bare.append(await launch_time(BareApp, lambda app: True))
            cont.append(
                await launch_time(
                    lambda: TrackerApp(open_path=long_path), lambda app: isinstance(app.screen, FightScreen)
                )
            )
        nexts, idle = await key_times(big_path, max(args.repeat * 4, 20))
        return bare, cont, nexts, idle

    bare, cont, nexts, idle = asyncio.run(run())
    ms = lambda xs: statistics.median(xs) * 1000  # noqa: E731
    rows = [
        ("bare Textual app: launch to first frame", f"{ms(bare):.0f} ms", ""),
        (f"continue a {events}-event fight: launch to first frame", f"{ms(cont):.0f} ms", ""),
        ("  ratio (target <= 1.5x)", f"{ms(cont) / ms(bare):.2f}x", "ok" if ms(cont) / ms(bare) <= 1.5 else "OVER"),
        (
            f"'n' next turn to updated screen, {args.combatants} combatants (median)",
            f"{ms(nexts):.1f} ms",
            "ok" if ms(nexts) < 50 else "OVER",
        ),
        ("  for reference: Pilot's wait for one unbound key (median)", f"{ms(idle):.1f} ms", ""),
    ]
    width = max(len(r[0]) for r in rows)
    print(f"{'measure':<{width}}  {'value':>10}  target")
    print("-" * (width + 20))
    for name, value, verdict in rows:
        print(f"{name:<{width}}  {value:>10}  {verdict}")


if __name__ == "__main__":
    main()
