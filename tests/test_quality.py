"""The code's shape is checked with the tests: lint, format and the layer contracts (import-linter)."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
from pathlib import Path

import platformdirs

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_ruff_finds_nothing() -> None:
    r = run(sys.executable, "-m", "ruff", "check", ".")
    assert r.returncode == 0, r.stdout + r.stderr


def test_ruff_format_is_kept() -> None:
    r = run(sys.executable, "-m", "ruff", "format", "--check", ".")
    assert r.returncode == 0, r.stdout + r.stderr


def test_layer_contracts_hold() -> None:
    exe = shutil.which("lint-imports") or str(Path(sys.executable).with_name("lint-imports"))
    r = run(exe)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "broken" in r.stdout and "0 broken" in r.stdout


def mypy_cache() -> Path:
    """mypy's incremental cache, outside the checkout: a fresh clone on this machine checks only what
    differs from the last run (mypy compares each file's hash, so a cache of another checkout is safe;
    cold, mypy takes some 15 s).  ``MYPY_CACHE_DIR`` chooses another folder."""
    folder = os.environ.get("MYPY_CACHE_DIR") or platformdirs.user_cache_dir("gm-combat-tracker") + "/mypy"
    path = Path(folder)
    path.mkdir(parents=True, exist_ok=True)
    return path


def test_mypy_is_clean() -> None:
    cache = mypy_cache()
    with open(cache / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # two suites on one machine take turns with the cache
        r = run(sys.executable, "-m", "mypy", "--cache-dir", str(cache))
    assert r.returncode == 0, r.stdout + r.stderr
