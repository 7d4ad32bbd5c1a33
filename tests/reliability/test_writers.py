"""One writer per fight file, and SIGKILL at any moment loses no acknowledged action (issue #15, item 1)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import saves
from tests.reliability.support import ROOT, SCALE, figure
from tracker import Note

pytestmark = pytest.mark.reliability
SYSTEMS = ["bnb", "blackjack", "zludge", "twod6", "toy"]


def test_a_second_writer_in_the_same_process_is_refused_and_the_file_stays_intact(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    first = saves.new_fight("toy", path, seed=1)
    first.do(Note(text="from the first"))
    with pytest.raises(saves.FightInUse) as refused:
        saves.open_fight(path)
    assert refused.value.pid == os.getpid() and "in this app already" in str(refused.value)
    first.do(Note(text="still the only writer"))
    first.close()
    again = saves.open_fight(path)  # closed: it opens
    again.do(Note(text="and on"))
    again.close()
    loaded = saves.load(path)
    assert [e.event.text for e in loaded.entries] == ["from the first", "still the only writer", "and on"]


def test_a_writer_in_another_process_is_named_and_a_dead_one_leaves_no_lock(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    saves.new_fight("bnb", path, seed=1).close()
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, saves, time; f = saves.open_fight(sys.argv[1]); print('ok', flush=True); time.sleep(60)",
            str(path),
        ],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "ok"
        with pytest.raises(saves.FightInUse) as refused:
            saves.open_fight(path)
        assert refused.value.pid == holder.pid and f"process {holder.pid}" in str(refused.value)
        assert saves.load(path).entries == ()  # readers need no lock
    finally:
        holder.kill()
        holder.wait()
    saves.open_fight(path).close()  # the OS released the dead writer's lock


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_sigkill_during_writes_loses_nothing_acknowledged(system_id: str, tmp_path: Path) -> None:
    rng = random.Random(hash(system_id) % 1000)
    lost = 0
    kills = 2 * SCALE
    for attempt in range(kills):
        path = tmp_path / f"crash{attempt}.jsonl"
        proc = subprocess.Popen(
            [
                sys.executable,
                str(ROOT / "tests" / "reliability" / "writer_child.py"),
                system_id,
                str(path),
                str(attempt),
            ],
            stdout=subprocess.PIPE,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        assert proc.stdout is not None
        acknowledged = 0
        while acknowledged < 20:
            line = proc.stdout.readline()
            if not line:
                break
            acknowledged = int(line)
        deadline = time.monotonic() + rng.uniform(0.02, 0.8)
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            acknowledged = int(line)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        for line in proc.stdout.read().splitlines():
            acknowledged = int(line)
        loaded = saves.load(path)
        if not loaded.entries or loaded.entries[-1].seq < acknowledged:
            lost += 1
        fight = saves.open_fight(path)  # it goes on (in a -recovered file if the tail was torn)
        fight.do(Note(text="after the crash"))
        fight.close()
        assert saves.load(fight.path).fight().state == fight.state
    figure(f"SIGKILL while writing ({system_id})", kills=kills, acknowledged_lost=lost)
    assert lost == 0
