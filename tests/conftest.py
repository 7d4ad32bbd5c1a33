"""Shared fixtures: the toy system is registered for every test; saves go to a temp folder."""

from __future__ import annotations

import gc

import pytest
from hypothesis import settings

from tests.support import toy
from tracker import registry

# shared, noisy machines: no per-example deadline (speed is measured in bench/)
settings.register_profile("tracker", deadline=None)
settings.load_profile("tracker")


def pytest_collection_finish(session: pytest.Session) -> None:
    """Less time in the garbage collector (a fifth of the UI tests' time with the defaults): what lives
    after collection (the modules, classes, hypothesis's tables) is frozen out of every later collection,
    and the youngest generation is collected every 20,000 allocations instead of 700 (the app's widgets
    make many short-lived cycles; each collection walked every survivor again).  Explicit ``gc.collect()``
    still collects everything made since."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 10, 10)


@pytest.fixture(autouse=True, scope="session")
def _toy_system() -> None:
    registry.register(toy.system)


@pytest.fixture(autouse=True)
def _data_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Never write into the real user's fights folder."""
    monkeypatch.setenv("TRACKER_DATA_DIR", str(tmp_path_factory.mktemp("data")))
