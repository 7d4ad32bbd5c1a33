"""``tracker.model.changed``: the fold's copy of a frozen record, the same as ``attrs.evolve``."""

from __future__ import annotations

import attrs
import pytest

from tracker.events import TurnStarted
from tracker.model import Combatant, Condition, FightState, changed, twin


@attrs.frozen(kw_only=True)
class Checked:
    n: int = attrs.field(default=0, validator=attrs.validators.ge(0))


@attrs.frozen(kw_only=True)
class Inner:
    a: int = 0
    b: tuple[int, ...] = ()


def test_a_change_is_attrs_evolve_and_stays_frozen() -> None:
    c = Combatant(id="c1", name="Alice", conditions=(Condition(name="Hex", value=2),), data=Inner(a=1))
    new = changed(c, name="Bob", held=True)
    assert type(new) is Combatant
    assert new == attrs.evolve(c, name="Bob", held=True)
    assert hash(new) == hash(attrs.evolve(c, name="Bob", held=True))
    assert c.name == "Alice" and not c.held  # the original is untouched
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        new.name = "Carol"  # type: ignore[misc]
    s = FightState(system="toy", combatants=(c,))
    assert changed(s, round=3) == attrs.evolve(s, round=3)
    assert changed(s) == s and changed(s) is not s


def test_subclasses_and_weakref_slots_have_twins() -> None:
    ev = TurnStarted(id="c1", index=2)  # an event: a subclass of Event, with a weak-reference slot
    assert twin(TurnStarted) is not None
    new = changed(ev, resumed=True)
    assert type(new) is TurnStarted and new == TurnStarted(id="c1", index=2, resumed=True)
    import weakref

    assert weakref.ref(new)() is new


def test_an_unknown_field_is_refused() -> None:
    with pytest.raises(TypeError, match="no field"):
        changed(Inner(), c=1)


def test_a_validated_record_goes_through_attrs() -> None:
    assert changed(Checked(n=1), n=2) == Checked(n=2)
    with pytest.raises(ValueError):
        changed(Checked(n=1), n=-1)
