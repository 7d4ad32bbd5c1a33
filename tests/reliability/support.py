"""Shared helpers of the reliability suite: its size, figures printed for a person, damaging files."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

from saves.format import seal

ROOT = Path(__file__).resolve().parents[2]
SCALE = max(1, int(os.environ.get("TRACKER_RELIABILITY", "1") or 1))  # TRACKER_RELIABILITY=20: a long run by hand


def figure(name: str, **values: Any) -> None:
    """A measured figure (shown with ``pytest -s -n 0 tests/reliability``)."""
    print(f"\n[reliability] {name}: " + ", ".join(f"{k}={v}" for k, v in values.items()))


def run_cli(*args: str, timeout: float = 30, memory: int = 1 << 30) -> subprocess.CompletedProcess[str]:
    """``tracker ARGS`` in a fresh process, with a time and an address-space bound."""

    def limit() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    return subprocess.run(
        [sys.executable, "-m", "screens", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        preexec_fn=limit,
    )


def records(path: Path) -> list[bytes]:
    return path.read_bytes().split(b"\n")


def reseal(record: dict[str, Any]) -> bytes:
    """A record edited on purpose, its checksum made anew (so only the strict decoding can catch it)."""
    body = {k: v for k, v in record.items() if k != "crc"}
    return seal(json.dumps(body, separators=(",", ":"), ensure_ascii=False)).encode()


def seal_raw(body: bytes) -> bytes:
    """Any bytes ending in ``}`` sealed with a good checksum (to reach the parser, not just the checksum)."""
    import zlib

    return body[:-1] + b',"crc":"%08x"}' % zlib.crc32(body)


def leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Paths to every scalar inside a JSON value."""
    out: list[tuple[Any, ...]] = []
    if isinstance(value, dict):
        for k, v in value.items():
            out += leaves(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += leaves(v, (*path, i))
    else:
        out.append(path)
    return out


def set_at(value: Any, path: tuple[Any, ...], new: Any) -> None:
    for k in path[:-1]:
        value = value[k]
    value[path[-1]] = new


def wrong_type(old: Any, rng: random.Random) -> Any:
    """A JSON value of another type than ``old`` (what a careless hand edit or a bad tool leaves)."""
    if isinstance(old, bool):
        return rng.choice(["true", 1, None])
    if isinstance(old, int):
        return rng.choice([str(old), float(old) + 0.5, None, [old], True])
    if isinstance(old, float):
        return rng.choice([str(old), None, True])
    if isinstance(old, str):
        return rng.choice([7, 1.5, None, [old], {"x": old}, False])
    return rng.choice([7, "7", True])
