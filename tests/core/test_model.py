"""``tracker.model.changed`` and ``setter``: the fold's copies of a frozen record, the same as ``attrs.evolve``."""

from __future__ import annotations

import attrs
import pytest

from tracker.events import TurnStarted
from tracker.model import Combatant, Condition, FightState, changed, setter, twin


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


def test_a_setter_copies_the_record_with_one_field_set() -> None:
    c = Combatant(id="c1", name="Alice", conditions=(Condition(name="Hex", value=2),), data=Inner(a=1))
    put = setter(Combatant, "data")
    assert setter(Combatant, "data") is put  # made once per class and field
    new = put(c, Inner(a=2))
    assert type(new) is Combatant and new == attrs.evolve(c, data=Inner(a=2))
    assert c.data == Inner(a=1)  # the original is untouched
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        new.data = None  # type: ignore[misc]
    s = FightState(system="toy", combatants=(c,), round=4)
    assert setter(FightState, "combatants")(s, (new,)) == attrs.evolve(s, combatants=(new,))
    with pytest.raises(TypeError, match="no field"):
        setter(Inner, "c")
    assert setter(Checked, "n")(Checked(n=1), 2) == Checked(n=2)  # a validated record: through attrs
    with pytest.raises(ValueError):
        setter(Checked, "n")(Checked(n=1), -1)


def test_a_setter_of_several_fields_sets_them_in_one_copy() -> None:
    s = FightState(system="toy", round=4, turn=1, interrupted="c2", title="x")
    put = setter(FightState, "turn", "interrupted")
    assert setter(FightState, "turn", "interrupted") is put
    assert setter(FightState, "interrupted", "turn") is not put  # the values come in the order of the names
    assert put(s, 3, None) == attrs.evolve(s, turn=3, interrupted=None)
    assert setter(FightState, "interrupted", "turn")(s, None, 3) == put(s, 3, None)
    assert s.turn == 1 and s.interrupted == "c2"
    with pytest.raises(TypeError, match="no field"):
        setter(FightState, "turn", "nope")
    with pytest.raises(TypeError, match="twice"):
        setter(FightState, "turn", "turn")
    with pytest.raises(TypeError):
        setter(FightState)
    assert setter(Checked, "n")(Checked(n=1), 2) == Checked(n=2)
    with pytest.raises(ValueError):
        setter(Checked, "n")(Checked(n=1), -1)


def test_the_states_combatant_changes_are_attrs_evolve() -> None:
    a = Combatant(id="c1", name="Alice", data=Inner(a=1))
    b = Combatant(id="c2", name="Bob", data=Inner(a=5, b=(1,)))
    s = FightState(system="toy", combatants=(a, b), round=2)
    want = attrs.evolve(s, combatants=(a, attrs.evolve(b, data=Inner(a=6, b=(1,)))))
    assert s.update_data("c2", a=6) == want
    assert s.put_data("c2", Inner(a=6, b=(1,))) == want
    assert s.set_data("c2", setter(Inner, "a"), 6) == want
    assert s.update("c1", held=True) == attrs.evolve(s, combatants=(attrs.evolve(a, held=True), b))
    assert s.replace(attrs.evolve(a, name="Al")).combatants[0].name == "Al"
    assert s.replace(Combatant(id="c9", name="Nobody")) is s
    for change in (
        lambda: s.update_data("c9", a=1),
        lambda: s.put_data("c9", None),
        lambda: s.set_data("c9", setter(Inner, "a"), 1),
        lambda: s.update("c9"),
    ):
        with pytest.raises(KeyError):
            change()
