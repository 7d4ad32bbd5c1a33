"""The one converter of a fight log (saves.format): strict (no coercion, no unknown field), pairs and unions of
records read as cattrs reads them, events tagged by their stable ``TYPE``; a loader gives the event of a line
met before again when nothing in it can change."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from saves.format import codec_for, strict_converter, unchangeable
from tracker import registry


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
    chance: float = 0.0


def read(raw: Any, cls: type = Holder) -> Any:
    """The record, or None when the strict converter refuses it."""
    try:
        return strict_converter().structure(raw, cls)
    except Exception:
        return None


def test_pairs_are_read_from_lists_of_their_length_and_types() -> None:
    got = read({"skills": [["Melee", 2], ["Guns", 1]], "pair": ["x", {"a": [1]}]})
    assert got == Holder(skills=(("Melee", 2), ("Guns", 1)), pair=("x", {"a": [1]}))
    for bad in ([["Melee"]], [["Melee", 2, 3]], [["Melee", "2"]], [[2, 2]], [{"Melee": 2}], "ab", [["Melee", True]]):
        assert read({"skills": bad}) is None, bad
    assert read({"pair": "ab"}) is None, "a text is not a pair of letters"


def test_a_union_of_records_reads_as_the_one_it_fits() -> None:
    assert read({"last": {"target": "o1", "damage": 3}}).last == Hit(target="o1", damage=3)
    assert read({"last": {"skill": "Medic", "total": 2}}).last == Check(skill="Medic", total=2)
    assert read({"last": None}).last is None
    for bad in ({"target": "o1"}, {"target": "o1", "damage": 3, "total": 1}, {"skill": "x", "total": "2"}, [], 3):
        assert read({"last": bad}) is None, bad


@pytest.mark.parametrize(
    "raw",
    [
        {"target": "o1", "damage": "3"},  # a text for a whole number
        {"target": "o1", "damage": 3.0},  # a number for a whole number
        {"target": "o1", "damage": True},  # true == 1, but not a whole number
        {"target": 1, "damage": 3},
        {"target": None, "damage": 3},
        {"target": "o1", "damage": 3, "extra": 1},  # a field the record does not have
        {"target": "o1"},
        ["o1", 3],
    ],
)
def test_nothing_is_coerced(raw: Any) -> None:
    assert read(raw, Hit) is None
    assert read({"target": "o1", "damage": 3}, Hit) == Hit(target="o1", damage=3)


def test_a_number_is_a_finite_float_or_a_whole_number() -> None:
    assert read({"chance": 1}).chance == 1.0 and type(read({"chance": 1}).chance) is float
    for bad in ("1.5", True, None, float("nan"), float("inf")):
        assert read({"chance": bad}) is None, bad


@pytest.mark.parametrize("system_id", ["bnb", "blackjack", "zludge", "twod6", "toy"])
def test_every_event_is_tagged_by_its_own_stable_type(system_id: str) -> None:
    """The tags already written in files: each class's TYPE, core ones bare, a system's own prefixed by its id."""
    codec = codec_for(registry.load(system_id))
    for tag, cls in codec.types.items():
        assert tag == cls.TYPE
        assert "." not in tag or tag.startswith(f"{system_id}."), tag
    assert codec.types["turn_started"].__name__ == "TurnStarted"


@attrs.frozen(kw_only=True)
class Roll:
    expr: str
    faces: tuple[int, ...]
    kept: tuple[int, ...] = ()
    note: str | None = None
    critical: bool = False


@attrs.define(kw_only=True)
class Tally:  # not frozen: may be changed
    name: str
    count: int


@attrs.frozen(kw_only=True)
class Loose:
    value: Any


@attrs.frozen(kw_only=True)
class Bag:
    sheet: dict[str, Any] = attrs.field(factory=dict)


@attrs.frozen(kw_only=True)
class Nested:
    roll: Roll
    hits: tuple[Hit, ...] = ()
    last: Hit | Check | None = None


def test_what_can_never_change_is_told_by_the_field_types() -> None:
    assert unchangeable(Hit) and unchangeable(Roll) and unchangeable(Nested)
    assert not unchangeable(Tally), "not frozen"
    assert not unchangeable(Bag), "a dict may be changed, even an empty one"
    assert not unchangeable(Loose), "Any may be a list"
    assert not unchangeable(Holder), "a pair holding Any"


def test_a_saved_fight_reads_back_with_its_repeated_events_shared(tmp_path: Any) -> None:
    """Through the fight file: the turns of a long fight are a few records each, read many times over."""
    import saves
    from tracker import commands as C
    from tracker.events import TurnStarted

    fight = saves.new_fight(registry.load("toy"), tmp_path / "f.jsonl", seed=1)
    fight.do(C.AddCombatant(name="Hero", kind="pc", sheet={"hp": "5"}))
    fight.do(C.AddCombatant(name="Orc", kind="npc", sheet={"hp": "5"}))
    fight.do(C.RollInitiative())
    fight.do(C.StartFight())
    for _ in range(6):
        fight.do(C.NextTurn())
    fight.close()
    loaded = saves.load(tmp_path / "f.jsonl")
    turns = [e.event for e in loaded.entries if type(e.event) is TurnStarted]
    assert len(turns) == 7 and {t.id for t in turns} == {c.id for c in loaded.fight().state.combatants}
    assert len({id(t) for t in turns}) == len(set(turns)) == 2, "each combatant's turn start is one record"
    assert loaded.fight().state == fight.state


def test_a_long_fight_reads_each_event_once_per_different_line(tmp_path: Any) -> None:
    """Equal lines (but for seq, action, of and the checksum) give one event object if nothing in it can change;
    one that may hold a dict or a list (a prompt's parameters, a new combatant's sheet, an adjusted value) is
    read anew each time."""
    import saves
    from bench.fights import make_fight

    path = tmp_path / "f.jsonl"
    make_fight("bnb", 400, path, seed=3)
    loaded = saves.load(path)
    by_value: dict[Any, list[Any]] = {}
    for e in loaded.entries:
        by_value.setdefault((type(e.event), repr(e.event)), []).append(e.event)
    shared = fresh = 0
    for (cls, _), events in by_value.items():
        if len(events) < 2:
            continue
        if unchangeable(cls):
            assert len({id(ev) for ev in events}) == 1, f"{cls.__name__}: equal lines, one event"
            shared += 1
        else:
            assert len({id(ev) for ev in events}) == len(events), f"{cls.__name__} may change: never given twice"
            fresh += 1
    assert shared > 10 and fresh >= 1, (
        f"the seeded fight repeats {shared} unchangeable and {fresh} changeable events (want >10 and >=1):"
        " did the system's commands change? try another seed"
    )
    again = saves.load(path)
    assert again.entries == loaded.entries
    t1, t2 = loaded.timeline(), again.timeline()
    assert t1.state_at(len(t1)) == t2.state_at(len(t2))
