"""The generated structure functions (saves/structure.py) read pairs and unions of records as the strict
cattrs converter does, without cattrs: a checkpoint of any system opens without importing it."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from saves.format import strict_converter
from saves.structure import Structurer


@attrs.frozen(kw_only=True)
class Hit:
    target: str
    damage: int


@attrs.frozen(kw_only=True)
class Check:
    skill: str
    total: int
    note: str = ""


@attrs.frozen(kw_only=True)
class Holder:
    skills: tuple[tuple[str, int], ...] = ()
    pair: tuple[str, Any] | None = None
    last: Hit | Check | None = None


def structurer() -> Structurer:
    return Structurer(lambda: pytest.fail("cattrs was asked"))  # type: ignore[no-any-return]


def same_as_cattrs(raw: Any) -> Any:
    """Ours, checked against the strict cattrs converter: equal when ours reads it, refused by both otherwise."""
    try:
        ours = structurer().fn(Holder)(raw)
    except Exception:
        with pytest.raises(Exception):  # noqa: B017 -- cattrs refuses it too, in its own words
            strict_converter().structure(raw, Holder)
        return None
    assert ours == strict_converter().structure(raw, Holder)
    return ours


def test_pairs_read_as_cattrs_reads_them() -> None:
    got = same_as_cattrs({"skills": [["Melee", 2], ["Guns", 1]], "pair": ["x", {"a": [1]}]})
    assert got == Holder(skills=(("Melee", 2), ("Guns", 1)), pair=("x", {"a": [1]}))
    for bad in ([["Melee"]], [["Melee", 2, 3]], [["Melee", "2"]], [[2, 2]], [{"Melee": 2}], "ab"):
        assert same_as_cattrs({"skills": bad}) is None, bad


def test_a_union_of_records_reads_as_the_one_it_fits() -> None:
    assert same_as_cattrs({"last": {"target": "o1", "damage": 3}}).last == Hit(target="o1", damage=3)
    assert same_as_cattrs({"last": {"skill": "Medic", "total": 2}}).last == Check(skill="Medic", total=2)
    assert same_as_cattrs({"last": None}).last is None
    for bad in ({"target": "o1"}, {"target": "o1", "damage": 3, "total": 1}, {"skill": "x", "total": "2"}, [], 3):
        assert same_as_cattrs({"last": bad}) is None, bad


def test_a_union_cattrs_tells_apart_otherwise_is_left_to_it() -> None:
    @attrs.frozen(kw_only=True)
    class A:
        x: int

    @attrs.frozen(kw_only=True)
    class B:
        x: int
        y: int = 0

    asked: list[bool] = []

    def converter() -> Any:
        asked.append(True)
        return strict_converter()

    fn = Structurer(converter).fn(attrs.make_class("C", {"v": attrs.field(type=A | B)}, kw_only=True, frozen=True))
    with pytest.raises(Exception):  # noqa: B017 -- cattrs cannot tell A from B: neither has a required field of its own
        fn({"v": {"x": 1, "y": 2}})  # (only B reads it, but cattrs refuses it)
    assert asked, "a union cattrs cannot tell apart was read without it"
