"""Benchmark of the core: load + replay, undo latency, memory.

Run:  python bench/bench_core.py [--events 100000]

Figures are reported as ratios to a baseline measured in the same run (the
bare ``json.loads`` of the same lines; undo after 100 events), since the
machines are shared and noisy; times are CPU time (``time.process_time``),
best of five, so other processes on the machine disturb them less.  Targets: load + replay within 3x the bare
parse; undo at 100,000 events within 2x undo at 100; peak memory under 200 MB.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import saves
from saves.format import Codec, Header, header_line
from tests.support import toy
from tracker import AddCombatant, Adjust, Fight, NextTurn, Note, RollInitiative, SeededRoller, StartFight, registry
from tracker.errors import Refused

registry.register(toy.system)


def build_fight(n_events: int, seed: int = 1) -> Fight:
    """A long fight with a realistic mix: attacks with rolls, turns, GM adjusts, notes, undo and redo."""
    f = Fight(toy.system, roller=SeededRoller(seed))
    f.do(AddCombatant(name="Alice", kind="pc", sheet={"hp": 999}))
    f.do(AddCombatant(name="Bob", kind="pc", sheet={"hp": 999}))
    f.do(AddCombatant(name="Outlaw", count=6, sheet={"hp": 999}))
    f.do(RollInitiative())
    f.do(StartFight())
    i = 0
    while len(f.entries) < n_events:
        i += 1
        cur = f.state.current or "c1"
        target = "c3" if cur in ("c1", "c2") else "c1"
        try:
            if i % 7 == 0:
                f.do(Adjust(id=target, field="hp", value=999 - i % 5))
            elif i % 11 == 0:
                f.do(Note(text=f"round {f.state.round}: dust everywhere"))
            elif i % 13 == 0:
                f.undo()
            elif i % 17 == 0 and f.can_redo:
                f.redo()
            elif i % 2 == 0:
                f.do(toy.Hit(actor=cur, target=target, damage="1d6"))
            else:
                f.do(NextTurn())
        except Refused:
            f.do(NextTurn())
    return f


def write(f: Fight, path: Path) -> None:
    codec = Codec(f.system)
    sizes: dict[int, int] = {}
    for e in f.entries:
        sizes[e.action] = sizes.get(e.action, 0) + 1
    header = Header(system=f.system.id, system_version=f.system.version, created="bench", seed=1)
    with open(path, "w", encoding="utf-8") as out:
        out.write(header_line(header) + "\n")
        for e in f.entries:
            out.write(codec.encode(e, sizes[e.action]) + "\n")


def best(fn, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        gc.collect()
        t0 = time.process_time()
        fn()
        times.append(time.process_time() - t0)
    return min(times)


def bare_parse(path: Path) -> None:
    with open(path, "rb") as f:
        for line in f.read().split(b"\n"):
            if line:
                json.loads(line)


def undo_latency(f: Fight, rounds: int = 200) -> float:
    """Median seconds for one undo (each followed by a redo, not timed)."""
    samples = []
    for _ in range(rounds):
        t0 = time.process_time()
        f.undo()
        samples.append(time.process_time() - t0)
        f.redo()
    return statistics.median(samples)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=100_000)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "big.jsonl"
        print(f"building a {args.events:,}-event fight ...", flush=True)
        big = build_fight(args.events)
        write(big, path)
        size_mb = os.path.getsize(path) / 1e6

        t_json = best(lambda: bare_parse(path))
        codec, sample = Codec(big.system), big.entries[:2000]
        t_line = best(lambda: [codec.encode(e, 1) for e in sample]) / len(sample)  # each written and read back
        t_load = best(lambda: saves.load(path).fight())

        small = build_fight(100)
        t_undo_small = undo_latency(small)
        t_undo_big = undo_latency(big)
        del big
        gc.collect()

        tracemalloc.start()
        saves.load(path).fight()
        _cur, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()

    rows = [
        ("events in the log", f"{args.events:,} ({size_mb:.1f} MB)", "", ""),
        ("bare json.loads of the lines", f"{t_json * 1000:.0f} ms", "1.00x", "baseline"),
        ("load + replay (saves.load)", f"{t_load * 1000:.0f} ms", f"{t_load / t_json:.2f}x", "target <= 3x"),
        ("undo after 100 events", f"{t_undo_small * 1e6:.1f} us", "1.00x", "baseline"),
        (
            f"undo after {args.events:,} events",
            f"{t_undo_big * 1e6:.1f} us",
            f"{t_undo_big / t_undo_small:.2f}x",
            "target <= 2x",
        ),
        ("write one event (read back to check it)", f"{t_line * 1e6:.0f} us", "", "target < 1 ms an action"),
        ("peak Python memory, load + replay", f"{peak / 1e6:.0f} MB", "", "target < 200 MB"),
    ]
    w = [max(len(r[i]) for r in rows) for i in range(4)]
    for r in rows:
        print("  ".join(c.ljust(w[i]) for i, c in enumerate(r)))


if __name__ == "__main__":
    main()
