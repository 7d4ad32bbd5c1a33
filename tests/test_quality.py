"""The code's shape is checked with the tests: lint, format and the layer contracts (import-linter)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

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


def test_mypy_is_clean() -> None:
    r = run(sys.executable, "-m", "mypy")
    assert r.returncode == 0, r.stdout + r.stderr
