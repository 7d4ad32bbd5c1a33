"""``tracker.model.changed``: the fold's copies of a frozen record, the same as ``attrs.evolve``."""

from __future__ import annotations

import functools
import weakref

import attrs
import pytest

from tracker.events import TurnStarted
from tracker.model import Combatant, Condition, FightState, _copied_by_dict, changed


@attrs.frozen(kw_only=True)
class Checked:
    n: int = attrs.field(default=0, validator=attrs.validators.ge(0))


@attrs.frozen(kw_only=True)
class Inner:
    a: int = 0
    b: tuple[int, ...] = ()


@attrs.frozen(kw_only=True, slots=False)
class Loose:
    a: int = 0
    b: tuple[int, ...] = ()


@attrs.frozen(kw_only=True, slots=False)
class LooseChecked:
    n: int = attrs.field(default=0, validator=attrs.validators.ge(0))


@attrs.frozen(kw_only=True, slots=False)
class LooseCached:
    n: int = 0

    @functools.cached_property
    def twice(self) -> int:
        return self.n * 2


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
    assert vars(changed(s, round=3)) == vars(attrs.evolve(s, round=3))  # the same fields, nothing else


@pytest.mark.parametrize("record", [Inner(a=1), Loose(a=1)], ids=["slotted", "dictionary"])
def test_an_unknown_field_is_refused_as_attrs_refuses_it(record: object) -> None:
    with pytest.raises(TypeError, match="unexpected keyword argument 'c'"):
        changed(record, c=1)


def test_slotted_records_and_events_copy_through_attrs() -> None:
    ev = TurnStarted(id="c1", index=2)  # an event: a slotted subclass of Event
    new = changed(ev, resumed=True)
    assert type(new) is TurnStarted and new == TurnStarted(id="c1", index=2, resumed=True)
    assert weakref.ref(new)() is new
    assert changed(Inner(a=1), b=(2,)) == Inner(a=1, b=(2,))


@pytest.mark.parametrize("cls", [Checked, LooseChecked])
def test_a_validated_record_goes_through_attrs(cls: type) -> None:
    assert changed(cls(n=1), n=2) == cls(n=2)
    with pytest.raises(ValueError):
        changed(cls(n=1), n=-1)


def test_only_a_plain_dictionary_record_is_copied_by_its_dictionary() -> None:
    """What decides it (see tracker.model.changed): a class whose __init__ only stores its fields."""
    assert _copied_by_dict(Loose) == {"a", "b"}
    assert _copied_by_dict(FightState) is not None and _copied_by_dict(Combatant) is not None
    for cls in (Inner, Checked, LooseChecked, LooseCached, TurnStarted, int):
        assert _copied_by_dict(cls) is None, cls
    cached = LooseCached(n=2)
    assert cached.twice == 4
    assert changed(cached, n=5).twice == 10  # (a copied dictionary would have kept the cached 4)


def test_the_states_combatant_changes_are_attrs_evolve() -> None:
    a = Combatant(id="c1", name="Alice", data=Inner(a=1))
    b = Combatant(id="c2", name="Bob", data=Inner(a=5, b=(1,)))
    s = FightState(system="toy", combatants=(a, b), round=2)
    want = attrs.evolve(s, combatants=(a, attrs.evolve(b, data=Inner(a=6, b=(1,)))))
    assert s.update_data("c2", a=6) == want
    assert s.put_data("c2", Inner(a=6, b=(1,))) == want
    assert s.set_data("c2", lambda d, n: attrs.evolve(d, a=n), 6) == want
    assert s.update("c1", held=True) == attrs.evolve(s, combatants=(attrs.evolve(a, held=True), b))
    assert s.replace(attrs.evolve(a, name="Al")).combatants[0].name == "Al"
    assert s.replace(Combatant(id="c9", name="Nobody")) is s
    for change in (
        lambda: s.update_data("c9", a=1),
        lambda: s.put_data("c9", None),
        lambda: s.set_data("c9", lambda d: d),
        lambda: s.update("c9"),
    ):
        with pytest.raises(KeyError):
            change()
