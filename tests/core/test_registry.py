"""Plug-ins by entry point: the built-in four are registered, a broken one is reported, not fatal."""

from __future__ import annotations

from importlib.metadata import EntryPoint

import pytest

from tests.support.toy import ToySystem
from tracker import registry
from tracker.errors import TrackerError
from tracker.plugin import System


def test_the_four_built_in_systems_are_registered_by_entry_point() -> None:
    ids = {e.id for e in registry.available()}
    assert {"bnb", "blackjack", "zludge", "twod6"} <= ids


def test_a_broken_plugin_is_reported_not_fatal(monkeypatch: pytest.MonkeyPatch) -> None:
    eps = [EntryPoint(name="broken", value="no_such_module_xyz:system", group=registry.GROUP)]
    monkeypatch.setattr(registry, "entry_points", lambda group: eps)
    with pytest.raises(TrackerError, match="'broken' failed to load: ModuleNotFoundError"):
        registry.load("broken")
    systems, problems = registry.load_all()
    assert any("broken" in p for p in problems)
    assert "toy" in {s.id for s in systems}


def test_an_unknown_system_is_named() -> None:
    with pytest.raises(registry.SystemNotInstalled, match="'gurps' is not installed"):
        registry.load("gurps")


def test_a_plugin_object_must_follow_the_protocol(monkeypatch: pytest.MonkeyPatch) -> None:
    eps = [EntryPoint(name="odd", value="builtins:object", group=registry.GROUP)]
    monkeypatch.setattr(registry, "entry_points", lambda group: eps)
    with pytest.raises(TrackerError, match="does not provide"):
        registry.load("odd")


def test_the_toy_system_follows_the_protocol() -> None:
    assert isinstance(ToySystem(), System)
