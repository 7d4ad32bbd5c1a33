"""Fixtures for the app tests: a data folder per test, a fixed one for snapshots, no cursor blink.

The toy system is registered for every test by tests/conftest.py.
"""

from __future__ import annotations

import fcntl
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.widgets import Input

FIXED_ROOT = Path("/tmp/tracker-ui-snapshots")


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    folder.mkdir()
    monkeypatch.setenv("TRACKER_DATA_DIR", str(folder))
    return folder


@pytest.fixture
def fixed_data_dir(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fixed-name folder, so paths on screen are the same on every run.

    A lock keeps two test runs on one machine from sharing it at the same time.
    """
    FIXED_ROOT.mkdir(parents=True, exist_ok=True)
    with open(FIXED_ROOT / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        name = request.node.name.replace("[", "-").replace("]", "").replace("/", "-")[:60]
        folder = FIXED_ROOT / name
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        monkeypatch.setenv("TRACKER_DATA_DIR", str(folder))
        try:
            yield folder
        finally:
            shutil.rmtree(folder, ignore_errors=True)
            fcntl.flock(lock, fcntl.LOCK_UN)


@pytest.fixture(autouse=True)
def no_blink(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Input, "cursor_blink", False, raising=False)
