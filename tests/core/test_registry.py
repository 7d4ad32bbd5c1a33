"""Plug-ins by entry point: the built-in four are registered, a broken one is reported, not fatal, and listing
them (the start screen) loads none that describes itself."""

from __future__ import annotations

import subprocess
import sys
import types
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from tests.support.toy import ToySystem
from tests.support.toy import system as toy_system
from tracker import registry
from tracker.errors import TrackerError
from tracker.plugin import About, System

ROOT = Path(__file__).resolve().parents[2]


def test_the_four_built_in_systems_are_registered_by_entry_point() -> None:
    ids = {e.id for e in registry.available()}
    assert {"bnb", "blackjack", "zludge", "twod6"} <= ids


def test_a_broken_plugin_is_reported_not_fatal(monkeypatch: pytest.MonkeyPatch) -> None:
    eps = [EntryPoint(name="broken", value="no_such_module_xyz:system", group=registry.GROUP)]
    monkeypatch.setattr(registry, "_scan", lambda group: None)  # as on a path the fast scan cannot read
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


# -- listing without loading (the start screen) --------------------------------------------------------------------

BUILT_IN = ("blackjack", "bnb", "twod6", "zludge")


def test_each_built_in_system_describes_itself_as_it_loads() -> None:
    abouts, problems = registry.described()
    assert problems == []
    by_id = {a.id: a for a in abouts}
    assert set(BUILT_IN) <= set(by_id)
    for system_id in BUILT_IN:
        system = registry.load(system_id)
        assert by_id[system_id] == About.of(system), system_id
        assert by_id[system_id].name and by_id[system_id].summary


def test_listing_the_systems_imports_none_of_their_rules() -> None:
    code = (
        "import sys\n"
        "from tracker import registry\n"
        "abouts, problems = registry.described()\n"
        "print(','.join(a.name for a in abouts))\n"
        "print(','.join(sorted(m for m in sys.modules if m.startswith('systems'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    names, modules = out.stdout.splitlines()
    assert "Blood & Bullets" in names.split(",") and "Zludge" in names.split(",")
    assert modules.split(",") == sorted(
        ["systems", *(f"systems.{s}{part}" for s in BUILT_IN for part in ("", ".about"))]
    )


def fake_entries(monkeypatch: pytest.MonkeyPatch, **targets: str) -> None:
    eps = [EntryPoint(name=name, value=value, group=registry.GROUP) for name, value in targets.items()]
    monkeypatch.setattr(registry, "_scan", lambda group: None)  # as on a path the fast scan cannot read
    monkeypatch.setattr(registry, "entry_points", lambda group: eps)


def test_a_system_without_about_is_loaded_to_be_listed(monkeypatch: pytest.MonkeyPatch) -> None:
    class Plain(ToySystem):
        id = "plain"
        name = "Plain"
        summary = "no ABOUT: loaded to be listed"
        event_types = ()  # the toy's events are tagged "toy."

    module = types.ModuleType("plain_plugin_xyz")
    module.system = Plain()  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "plain_plugin_xyz", module)
    monkeypatch.setattr(registry, "_cache", {})
    fake_entries(monkeypatch, plain="plain_plugin_xyz:system", bnb="systems.bnb:system")
    abouts, problems = registry.described()
    assert problems == []
    assert [a for a in abouts if a.id == "plain"] == [
        About(id="plain", name="Plain", version="1", summary=Plain.summary)
    ]
    assert "plain" in registry._cache and "bnb" not in registry._cache  # loaded to be listed; bnb was not


def test_a_broken_system_is_reported_in_the_listing_and_the_rest_listed(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_entries(monkeypatch, broken="no_such_module_xyz:system", bnb="systems.bnb:system")
    abouts, problems = registry.described()
    assert [a.id for a in abouts if a.id != "toy"] == ["bnb"]
    assert len(problems) == 1 and "'broken' failed to load: ModuleNotFoundError" in problems[0]


def test_a_system_that_describes_itself_but_fails_to_load_is_refused_when_loaded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake_entries(monkeypatch, halfbroken="tests.support.half_broken:system")
    abouts, problems = registry.described()
    assert problems == [] and "Half Broken" in [a.name for a in abouts]
    with pytest.raises(TrackerError, match="'halfbroken' failed to load: ImportError"):
        registry.load("halfbroken")


def test_a_registered_system_is_listed_as_it_loads_even_over_an_installed_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class Other(ToySystem):
        id = "bnb"
        name = "Not Blood & Bullets"
        event_types = ()  # the toy's events are tagged "toy."

    registry.register(Other())
    try:
        abouts, _ = registry.described()
        assert [a.name for a in abouts if a.id == "bnb"] == ["Not Blood & Bullets"]
    finally:
        registry.unregister("bnb")


def test_a_system_class_takes_what_it_says_of_itself_from_its_about() -> None:
    class Said(ToySystem):
        about = About(id="said", name="Said", version="2", summary="what the start screen lists")

    assert (Said.id, Said.name, Said.version, Said.summary) == ("said", "Said", "2", "what the start screen lists")
    assert About.of(Said()) == Said.about


def test_a_light_module_makes_its_system_on_first_use_and_nothing_else() -> None:
    from tracker.plugin import made_on_first_use

    lookup = made_on_first_use("tests.support.toy")
    assert lookup("system") is toy_system
    with pytest.raises(AttributeError, match="no attribute 'other'"):
        lookup("other")
