"""Shared fixtures: the toy system is registered for every test; saves go to a temp folder."""

from __future__ import annotations

import pytest
from hypothesis import settings

from tests.support import toy
from tracker import registry

# shared, noisy machines: no per-example deadline (speed is measured in bench/)
settings.register_profile("tracker", deadline=None)
settings.load_profile("tracker")


@pytest.fixture(autouse=True, scope="session")
def _toy_system() -> None:
    registry.register(toy.system)


@pytest.fixture(autouse=True)
def _data_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Never write into the real user's fights folder."""
    monkeypatch.setenv("TRACKER_DATA_DIR", str(tmp_path_factory.mktemp("data")))
