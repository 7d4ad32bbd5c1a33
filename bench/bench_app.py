"""Benchmark of the app: launch to the first interactive frame, and the "next turn" key.

Run:  python bench/bench_app.py [--events 2500] [--combatants 100] [--repeat 5]

Both figures are taken headless (Textual's ``run_test``) in one process:

* launch: from creating the app to the fight screen mounted, drawn and idle
  when continuing a saved fight of ``--events`` events, beside a bare Textual
  app (a label and a footer) launched the same way in the same run; the ratio
  is the figure to read (target: within 1.5x);
* keys: next turn, undo, redo and quick damage, from the key to the updated
  screen in a ``--combatants`` fight (target: within 16 ms of the harness's own
  wait, a key bound to nothing timed the same way through Pilot);
* dialogs: from the key to the dialog mounted, focused and drawn (target:
  50 ms median).

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
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, Label

import saves
from screens.app import TrackerApp
from screens.fight import FightScreen
from tests.support import toy
from tracker import commands as C
from tracker import registry

registry.register(toy.system)


class BareApp(App[None]):
    BINDINGS = [("x", "open", "Open")]

    def compose(self) -> ComposeResult:
        yield Label("bare")
        yield Footer()

    def action_open(self) -> None:
        self.push_screen(BareDialog())


class BareDialog(ModalScreen[None]):
    """A bare Textual modal with a title and two inputs: the floor for opening a dialog here."""

    BINDINGS = [("escape", "dismiss", "Close")]

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("title")
            yield Input(id="a")
            yield Input(id="b")

    def on_mount(self) -> None:
        self.set_focus(self.query_one("#a"))


async def bare_dialog_times(repeat: int) -> list[float]:
    app = BareApp()
    out: list[float] = []
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        for _ in range(repeat):
            shown = asyncio.Event()
            t0 = time.perf_counter()
            app.post_message(events.Key("x", "x"))
            while not (isinstance(app.screen, BareDialog) and app.screen.is_mounted and app.focused is not None):
                await asyncio.sleep(0)
            app.screen.call_after_refresh(shown.set)
            await shown.wait()
            out.append(time.perf_counter() - t0)
            await pilot.press("escape")
            await pilot.pause()
    return out


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


async def key_times(path: Path, repeat: int) -> dict[str, list[float]]:
    """From posting a key to the first screen refresh after the screen took it in.

    The fight screen's ``refresh_view`` (run by every action) is wrapped to ask
    for a callback after the next refresh, i.e. once the updated screen is drawn.
    Quick damage is timed from its Enter (the dialog already open) to the drawn
    list.  Pilot's own per-key wait (``pilot.press``) is timed beside it.
    """
    app = TrackerApp(open_path=path)
    times: dict[str, list[float]] = {"next": [], "undo": [], "redo": [], "damage": [], "harness": []}
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

        async def timed(name: str, key: str, char: str | None = None) -> None:
            drawn.clear()
            t0 = time.perf_counter()
            app.post_message(events.Key(key, char))
            await drawn.wait()
            times[name].append(time.perf_counter() - t0)
            await pilot.pause()

        for _ in range(repeat):
            before = screen.fight.state.turn, screen.fight.state.round
            await timed("next", "n", "n")
            assert (screen.fight.state.turn, screen.fight.state.round) != before
            await timed("undo", "u", "u")
            await timed("redo", "U", "U")
            await pilot.press("minus", "1")
            await pilot.pause()
            await timed("damage", "enter")
            t0 = time.perf_counter()
            await pilot.press("f12")
            times["harness"].append(time.perf_counter() - t0)
    return times


DIALOG_KEYS = {"add (A)": "A", "quick damage (-)": "minus", "condition (C)": "C", "actions (x)": "x", "attack (a)": "a"}


async def dialog_times(path: Path, repeat: int) -> dict[str, list[float]]:
    """From posting the key to the dialog mounted, focused and drawn (then Escape closes it)."""
    from screens.dialogs.base import Dialog

    app = TrackerApp(open_path=path)
    times: dict[str, list[float]] = {name: [] for name in DIALOG_KEYS}
    async with app.run_test(size=(100, 32)) as pilot:
        while not isinstance(app.screen, FightScreen):
            await pilot.pause()
        await pilot.pause()
        for _ in range(repeat):
            for name, key in DIALOG_KEYS.items():
                shown = asyncio.Event()
                t0 = time.perf_counter()
                app.post_message(events.Key(key, {"minus": "-"}.get(key, key)))
                while not (isinstance(app.screen, Dialog) and app.screen.is_mounted and app.focused is not None):
                    await asyncio.sleep(0)
                app.screen.call_after_refresh(shown.set)
                await shown.wait()
                times[name].append(time.perf_counter() - t0)
                await pilot.press("escape")
                await pilot.pause()
    return times


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

    async def run() -> tuple[list[float], list[float], dict[str, list[float]], dict[str, list[float]]]:
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
        keys = await key_times(big_path, max(args.repeat * 4, 20))
        dialogs = await dialog_times(big_path, max(args.repeat * 2, 10))
        dialogs["bare Textual modal (for reference)"] = await bare_dialog_times(max(args.repeat * 2, 10))
        return bare, cont, keys, dialogs

    bare, cont, keys, dialogs = asyncio.run(run())
    ms = lambda xs: statistics.median(xs) * 1000  # noqa: E731
    harness = ms(keys["harness"])
    rows = [
        ("bare Textual app: launch to first frame", f"{ms(bare):.0f} ms", ""),
        (f"continue a {events}-event fight: launch to first frame", f"{ms(cont):.0f} ms", ""),
        ("  ratio (target <= 1.5x)", f"{ms(cont) / ms(bare):.2f}x", "ok" if ms(cont) / ms(bare) <= 1.5 else "OVER"),
        ("for reference: Pilot's wait for one unbound key (median)", f"{harness:.1f} ms", ""),
    ]
    for name, label in (
        ("next", "'n' next turn"),
        ("undo", "'u' undo"),
        ("redo", "'U' redo"),
        ("damage", "quick damage Enter"),
    ):
        value = ms(keys[name])
        rows.append(
            (
                f"{label} to updated screen, {args.combatants} combatants (median)",
                f"{value:.1f} ms",
                "ok" if value - harness <= 16 else f"{value - harness:.0f} ms over the harness",
            )
        )
    for name, values in dialogs.items():
        rows.append(
            (
                f"dialog open: {name}, key to drawn (median)",
                f"{ms(values):.1f} ms",
                "ok" if ms(values) <= 50 else "OVER",
            )
        )
    width = max(len(r[0]) for r in rows)
    print(f"{'measure':<{width}}  {'value':>10}  target")
    print("-" * (width + 20))
    for name, value, verdict in rows:
        print(f"{name:<{width}}  {value:>10}  {verdict}")


if __name__ == "__main__":
    main()
