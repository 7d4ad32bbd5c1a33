"""Benchmark of the replay screen on a 100,000-event fight.

Run:  python bench/bench_replay.py [--events 100000]

Reports the time of one-event steps (forward and back) at the start (event
100), middle and end of the log -- the screen's whole update: state lookup,
initiative list, detail pane, bar and log -- which must not grow with the
position (the start differs in what changes on screen, not in cost per
position; the bare state lookup is shown too); the
time to jump to the end; and opening the fight for replay (``saves.load`` +
``Timeline``, what ``ReplayScreen(path)`` does) against the bare ``json.loads``
of the same lines, measured in the same run (target within 3x).  Times are
CPU time (``time.process_time``), as in bench_core.py: the machines are shared.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_core import bare_parse, best, build_fight, write

import saves
from screens.app import TrackerApp
from screens.replay import ReplayScreen
from tracker.replay import Timeline

STEPS = 200


def step_time(screen: ReplayScreen, at: int) -> float:
    """Median seconds of one step, alternating forward and back around ``at``."""
    screen.goto(at)
    samples = []
    for k in range(STEPS):
        target = at + 1 if k % 2 == 0 else at
        t0 = time.process_time()
        screen.goto(target)
        samples.append(time.process_time() - t0)
    return statistics.median(samples)


async def measure_screen(path: Path) -> dict[str, float]:
    out: dict[str, float] = {}
    app = TrackerApp(replay_path=path)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        screen._summary_shown_at_end = True
        n = len(screen.timeline)
        t0 = time.process_time()
        screen.goto(n)  # the first jump folds the log
        out["first_jump"] = time.process_time() - t0
        timeline = screen.timeline
        for name, at in (("start", 100), ("middle", n // 2), ("end", n - 1)):
            lookups = []
            for k in range(STEPS):
                t1 = time.process_time()
                timeline.state_at(at + k % 2)
                lookups.append(time.process_time() - t1)
            out[f"lookup_{name}"] = statistics.median(lookups)
        screen.goto(0)
        points = (("start", 100), ("middle", n // 2), ("end", n - 1))
        for name, at in (*points, *reversed(points)):  # both orders, the better median: drift on a shared machine
            t = step_time(screen, at)
            out[name] = min(out.get(name, t), t)
            await pilot.pause()
        jumps = []
        for _ in range(20):
            screen.goto(0)
            t0 = time.process_time()
            screen.goto(n)
            jumps.append(time.process_time() - t0)
        out["jump"] = statistics.median(jumps)
        # a real key press at the end of the log, round trip through the app (render included)
        presses = []
        for k in range(40):
            t0 = time.process_time()
            await pilot.press("left" if k % 2 == 0 else "right")
            presses.append(time.process_time() - t0)
        out["press"] = statistics.median(presses)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=100_000)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "big.jsonl"
        print(f"building a {args.events:,}-event fight ...", flush=True)
        write(build_fight(args.events), path)
        gc.collect()
        t_json = best(lambda: bare_parse(path))
        t_load = best(lambda: saves.load(path))
        t_open = best(lambda: ReplayScreen(path))
        loaded = saves.load(path)
        t_timeline = best(lambda: Timeline(loaded.system, loaded.entries))
        gc.collect()
        steps = asyncio.run(measure_screen(path))

    def us(x: float) -> str:
        return f"{x * 1e6:.0f} us"

    base = steps["start"]
    rows = [
        ("events in the log", f"{args.events:,}", "", ""),
        ("bare json.loads of the lines", f"{t_json * 1000:.0f} ms", "1.00x", "baseline"),
        ("open for replay: ReplayScreen(path)", f"{t_open * 1000:.0f} ms", f"{t_open / t_json:.2f}x", "target <= 3x"),
        ("  saves.load alone", f"{t_load * 1000:.0f} ms", f"{t_load / t_json:.2f}x", "(the core's own load)"),
        ("  Timeline scan (no fold)", f"{t_timeline * 1000:.0f} ms", f"{t_timeline / t_json:.2f}x", ""),
        (
            "state lookup at start / middle / end",
            " / ".join(f"{steps['lookup_' + k] * 1e9:.0f} ns" for k in ("start", "middle", "end")),
            "",
            "Timeline.state_at",
        ),
        ("one-event step at the start", us(steps["start"]), "1.00x", "baseline"),
        ("one-event step in the middle", us(steps["middle"]), f"{steps['middle'] / base:.2f}x", "must not grow"),
        ("one-event step at the end", us(steps["end"]), f"{steps['end'] / base:.2f}x", "must not grow"),
        (
            "first jump to the end (folds the log)",
            f"{steps['first_jump'] * 1000:.0f} ms",
            f"{steps['first_jump'] / t_json:.2f}x",
            "vs bare parse",
        ),
        ("later jumps from the start to the end", us(steps["jump"]), f"{steps['jump'] / base:.2f}x", ""),
        ("key press at the end (with render)", f"{steps['press'] * 1000:.1f} ms", "", "Pilot round trip"),
    ]
    w = [max(len(r[i]) for r in rows) for i in range(4)]
    for r in rows:
        print("  ".join(c.ljust(w[i]) for i, c in enumerate(r)))


if __name__ == "__main__":
    main()
