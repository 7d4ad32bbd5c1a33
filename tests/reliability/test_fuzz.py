"""Loader fuzz: truncations, byte flips, wrong types; and "check good" means replay, export and continue work."""

from __future__ import annotations

import contextlib
import io
import json
import random
import time
import tracemalloc
from pathlib import Path

import pytest

import saves
from bench.fights import make_fight
from saves.checker import check
from saves.export import recap
from saves.format import Codec, unseal
from screens.cli import _print_replay
from tests.reliability.support import SCALE, figure, leaves, records, reseal, set_at, wrong_type
from tracker import NextTurn
from tracker.errors import TrackerError

pytestmark = pytest.mark.reliability


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, tuple]:
    path = tmp_path_factory.mktemp("fuzz") / "base.jsonl"
    make_fight("toy", 40, path, seed=11)
    return path.read_bytes(), saves.load(path).entries


def outcome(data: bytes, entries: tuple, path: Path) -> str:
    """refused / warned (a prefix of the fight, with a warning) / same; anything else fails the test."""
    path.write_bytes(data)
    t0 = time.monotonic()
    try:
        loaded = saves.load(path)
    except saves.LoadError as e:
        assert str(e)
        return "refused"
    finally:
        assert time.monotonic() - t0 < 2
    n = len(loaded.entries)
    assert loaded.entries == entries[:n], "a damaged file loaded as a different fight"
    if loaded.warnings:
        return "warned"
    if n < len(entries):  # only a cut at a line end between two actions is a (shorter) valid fight
        assert data.endswith(b"\n") and (n == 0 or entries[n].action != entries[n - 1].action)
        return "clean cut between actions"
    return "same"


def test_truncation_at_every_byte(base, tmp_path: Path) -> None:
    data, entries = base
    step = 1 if SCALE > 1 else 5
    counts: dict[str, int] = {}
    tracemalloc.start()
    for cut in range(0, len(data) + 1, step):
        kind = outcome(data[:cut], entries, tmp_path / "t.jsonl")
        counts[kind] = counts.get(kind, 0) + 1
    _cur, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    figure("truncation", bytes=len(data), step=step, peak_mb=round(peak / 1e6, 1), **counts)
    assert peak < 50e6


def test_random_byte_flips(base, tmp_path: Path) -> None:
    data, entries = base
    rng = random.Random(15)
    counts: dict[str, int] = {}
    n = 300 * SCALE
    for _ in range(n):
        i = rng.randrange(len(data))
        flipped = data[:i] + bytes([data[i] ^ (1 << rng.randrange(8))]) + data[i + 1 :]
        kind = outcome(flipped, entries, tmp_path / "f.jsonl")
        if kind == "same":  # only a checksum's hex digit changing case keeps the same content (and value)
            assert data[i : i + 1].lower() == flipped[i : i + 1].lower() and data[i : i + 1] in b"abcdef", i
            kind = "same (a checksum digit's case)"
        counts[kind] = counts.get(kind, 0) + 1
    figure("random bit flips", flips=n, **counts)


def test_wrong_types_edited_by_hand(base, tmp_path: Path) -> None:
    """Each edit changes one value's JSON type and reseals the line; what loads must be exactly what the file says."""
    data, _entries = base
    lines = data.split(b"\n")
    rng = random.Random(16)
    codec = Codec(saves.load_system("toy"))
    counts = {"refused": 0, "loaded as written": 0}
    n = 300 * SCALE
    path = tmp_path / "w.jsonl"
    for _ in range(n):
        k = rng.randrange(1, len(lines) - 1)
        if not lines[k] or lines[k].startswith(b'{"checkpoint"'):
            continue
        record = json.loads(lines[k])
        spot = rng.choice(leaves({key: v for key, v in record.items() if key != "crc"}))
        old = record
        for key in spot:
            old = old[key]
        set_at(record, spot, wrong_type(old, rng))
        edited = list(lines)
        edited[k] = reseal(record)
        path.write_bytes(b"\n".join(edited))
        try:
            loaded = saves.load(path)
        except saves.LoadError:
            counts["refused"] += 1
            continue
        # accepted: the schema allows that type there (an optional field, a free-form value); no coercion happened
        body = unseal(edited[k])
        assert body is not None
        written = json.loads(body)
        entry = next(e for e in loaded.entries if e.seq == written["seq"])
        assert json.loads(codec.body(entry, written["of"])) == written
        counts["loaded as written"] += 1
    figure("wrong-type edits (resealed)", edits=n, **counts)


@pytest.mark.parametrize("system_id", ["bnb", "blackjack", "zludge", "twod6"])
def test_check_good_means_replay_export_and_continue_work(system_id: str, tmp_path: Path) -> None:
    src = tmp_path / "src.jsonl"
    make_fight(system_id, 250, src, seed=21)
    lines = records(src)
    rng = random.Random(system_id)
    tally = {"bad": 0, "good": 0, "good but broken": 0}
    path = tmp_path / "e.jsonl"
    for attempt in range(12 * SCALE):
        edited = list(lines)
        for _ in range(3):
            k = rng.randrange(1, len(lines) - 1)
            if not edited[k] or edited[k].startswith(b'{"checkpoint"'):
                continue
            record = json.loads(edited[k])
            spots = leaves(record.get("event", {}))
            if not spots:
                continue
            spot = rng.choice(spots)
            old = record["event"]
            for key in spot:
                old = old[key]
            new = (
                not old
                if isinstance(old, bool)
                else rng.choice([-7, -1, 0, 3, 99, 10**9])
                if isinstance(old, int)
                else rng.choice(["", "c99", "x" * 50])
                if isinstance(old, str)
                else old
            )
            set_at(record["event"], spot, new)
            edited[k] = reseal(record)
        path.write_bytes(b"\n".join(edited))
        try:
            report = check(path)
        except saves.LoadError:
            tally["bad"] += 1
            continue
        if not report.good:
            tally["bad"] += 1
            continue
        tally["good"] += 1
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                _print_replay(saves.load(path))
            recap(saves.load(path))
            copy = tmp_path / f"c{attempt}.jsonl"
            copy.write_bytes(path.read_bytes())
            fight = saves.open_fight(copy)
            with contextlib.suppress(TrackerError):
                fight.do(NextTurn())
            fight.close()
        except Exception:
            tally["good but broken"] += 1
    figure(f"check good => replay, export, continue ({system_id})", **tally)
    assert tally["good but broken"] == 0
