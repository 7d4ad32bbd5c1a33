"""Records, events and commands are ordinary ``@attrs.frozen`` classes (issue #43).

Every attrs class of the core and of each built-in system is what attrs makes (frozen, its own fields, repr
and equality); a field added the plain attrs way (``aimed: bool = attrs.field(default=False)``) goes through
the save codec and the engine with nothing else to change.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType
from typing import ClassVar

import attrs
import cattrs
import pytest

from bench.fights import SYSTEMS
from saves.format import Codec
from systems.bnb.events import ShotsFired
from systems.bnb.plugin import BnbSystem
from tracker import Entry, evolve, registry
from tracker.engine import initial_state
from tracker.events import CombatantAdded, Event
from tracker.model import FightState, changed


def _modules(package: str) -> list[ModuleType]:
    root = importlib.import_module(package)
    found = [root]
    for info in pkgutil.walk_packages(root.__path__, prefix=f"{package}."):
        found.append(importlib.import_module(info.name))
    return found


def _records(*packages: str) -> list[type]:
    out: dict[type, None] = {}
    for package in packages:
        for module in _modules(package):
            for value in vars(module).values():
                if isinstance(value, type) and attrs.has(value) and value.__module__.startswith(packages):
                    out[value] = None
    return list(out)


@pytest.mark.parametrize("sid", SYSTEMS)
def test_every_record_of_the_core_and_a_system_is_a_frozen_attrs_class(sid: str) -> None:
    registry.load(sid)
    records = _records("tracker", "saves", f"systems.{sid}")
    assert len(records) > 60
    for cls in records:
        assert "__attrs_attrs__" in cls.__dict__, cls  # declared by attrs itself, not inherited
        blank = object.__new__(cls)
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            cls.__setattr__(blank, attrs.fields(cls)[0].name if attrs.fields(cls) else "x", 1)
        # attrs's own repr and equality (no shared base writes them)
        assert cls.__repr__ is not object.__repr__ and cls.__eq__ is not object.__eq__, cls
        assert all(base.__module__ != "tracker.record" for base in cls.__mro__), cls  # no project base


@attrs.frozen(kw_only=True)
class AimedShots(ShotsFired):
    """A maintainer's change, the plain attrs way: a bnb event with one more field, defaulted."""

    TYPE: ClassVar[str] = "bnb.aimed_shots"
    aimed: bool = attrs.field(default=False)


@attrs.frozen(kw_only=True)
class Aimed(Event):
    TYPE: ClassVar[str] = "bnb.aimed"
    id: str
    aimed: bool = attrs.field(default=False)
    note: str = attrs.field(default="", repr=False)


class AimingBnb(BnbSystem):
    event_types = (*BnbSystem.event_types, AimedShots, Aimed)

    def evolve(self, state: FightState, event: Event) -> FightState:
        if isinstance(event, Aimed):
            return changed(state, notes=(*state.notes, f"{event.id} aimed" if event.aimed else f"{event.id} waits"))
        if isinstance(event, AimedShots):
            return super().evolve(
                state, ShotsFired(**{f.name: getattr(event, f.name) for f in attrs.fields(ShotsFired)})
            )
        return super().evolve(state, event)


def test_a_field_added_the_plain_attrs_way_goes_through_the_save_codec_and_the_engine() -> None:
    system = AimingBnb()
    codec = Codec(system)
    events = [
        CombatantAdded(id="c1", name="Ann", kind="pc", sheet={"hp": 8, "guns": "Colt Army .44"}),
        Aimed(id="c1", aimed=True),
        Aimed(id="c1"),
    ]
    for n, ev in enumerate(events, start=1):
        line = codec.encode(Entry(n, n, ev)).encode()
        back = codec.decode_line(line, n)
        assert back is not None and back.event == ev and type(back.event) is type(ev)
    assert '"aimed":true' in codec.encode(Entry(2, 2, events[1]))
    # a line written before the field existed reads with its default
    old = codec.decode({"seq": 3, "action": 3, "type": "bnb.aimed", "event": {"id": "c1"}}, 3)
    assert old.event == Aimed(id="c1", aimed=False)
    state = initial_state(system)
    for ev in events:
        state = evolve(system, state, ev)
    assert state.notes[-2:] == ("c1 aimed", "c1 waits")
    assert repr(events[1]) == "Aimed(id='c1', aimed=True)"  # attrs's repr, repr=False honoured
    assert events[2] == Aimed(id="c1", aimed=False) != events[1] and hash(events[2]) == hash(Aimed(id="c1"))


def test_a_subclass_of_a_system_event_adds_its_field_and_round_trips() -> None:
    codec = Codec(AimingBnb())
    base = {f.name for f in attrs.fields(ShotsFired)}
    assert [f.name for f in attrs.fields(AimedShots)] == [*(f.name for f in attrs.fields(ShotsFired)), "aimed"]
    raw = codec.converter.unstructure(ShotsFired(actor="c1", gun="Colt Army .44", count=2))
    assert set(raw) == base
    ev = AimedShots(**raw, aimed=True)
    back = codec.decode_line(codec.encode(Entry(1, 1, ev)).encode(), 1)
    assert back is not None and back.event == ev


def test_a_stat_named_like_a_type_does_not_shadow_it() -> None:
    """twod6's data has ``int`` and ``str`` stat properties: its fields' types are still the types, for
    attrs and cattrs (the checkpoint's reading of them)."""
    from systems.twod6.record import Data

    assert attrs.fields(Data).quick.type is int and attrs.fields(Data).stats.type == tuple[int, ...]
    assert attrs.fields(Data).race.type is str
    d = cattrs.Converter().structure({"stats": [1, 2, 3, 4, 5, 6, 7, 8], "quick": 1}, Data)
    assert d.stats == (1, 2, 3, 4, 5, 6, 7, 8) and d.int == 5 and d.quick == 1
