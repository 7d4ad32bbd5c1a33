"""Kill a process writing a fight at random moments: every acknowledged action is in the file and it loads."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import saves

ROOT = Path(__file__).resolve().parents[2]


def test_sigkill_at_random_moments_loses_nothing_acknowledged(tmp_path: Path) -> None:
    rng = random.Random(2026)
    for attempt in range(6):
        path = tmp_path / f"crash{attempt}.jsonl"
        proc = subprocess.Popen(
            [sys.executable, str(ROOT / "tests" / "core" / "crash_writer.py"), str(path)],
            stdout=subprocess.PIPE,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        assert proc.stdout is not None
        acknowledged = 0
        while acknowledged < 12:  # started and writing (the machine may be slow to start it)
            line = proc.stdout.readline()
            if not line:
                break
            acknowledged = int(line)
        deadline = time.monotonic() + rng.uniform(0.05, 1.0)
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            acknowledged = int(line)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        # whatever the pipe still held was acknowledged too
        for line in proc.stdout.read().splitlines():
            acknowledged = int(line)
        assert acknowledged > 10, "the writer should have made progress"
        loaded = saves.load(path)
        assert loaded.entries[-1].seq >= acknowledged, f"attempt {attempt}: acknowledged {acknowledged} lost"
        loaded.fight()
