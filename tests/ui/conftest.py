"""Fixtures for the app tests: the toy system, a fixed data folder, no cursor blink."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.widgets import Input

from tests.support import toy
from tracker import registry

FIXED_ROOT = Path("/tmp/tracker-ui-tests")


@pytest.fixture(autouse=True)
def toy_system() -> Iterator[None]:
    registry.register(toy.system)
    yield
    registry.unregister(toy.system.id)


@pytest.fixture(autouse=True)
def data_dir(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fixed-name folder per test, so paths on screen are the same on every run."""
    name = request.node.name.replace("[", "-").replace("]", "").replace("/", "-")[:60]
    folder = FIXED_ROOT / name
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    monkeypatch.setenv("TRACKER_DATA_DIR", str(folder))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(autouse=True)
def no_blink(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Input, "cursor_blink", False, raising=False)
