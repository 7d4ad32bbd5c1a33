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


@attrs.frozen(kw_only=True)
class Roll:
    expr: str
    faces: tuple[int, ...]
    kept: tuple[int, ...] = ()
    note: str | None = None
    critical: bool = False


@attrs.define(kw_only=True)
class Tally:  # not frozen: may be changed, so never given twice
    name: str
    count: int


def test_equal_plain_records_are_one_record_and_as_strictly_read() -> None:
    """A long log holds tens of thousands of the same modifier or turn's start: once read, an equal one is the
    same object (less memory, less to free).  Reading one is as strict as ever, before and after it is kept."""
    hit, roll = structurer().fn(Hit), structurer().fn(Roll)
    first = hit({"target": "o1", "damage": 3})
    assert hit({"target": "o1", "damage": 3}) is first
    assert hit({"target": "o1", "damage": 4}) == Hit(target="o1", damage=4) != first
    a = roll({"expr": "2d6", "faces": [3, 4], "critical": False})
    assert roll({"expr": "2d6", "faces": [3, 4]}) is a, "a default given or left out: the same record"
    assert a == Roll(expr="2d6", faces=(3, 4))
    assert roll({"expr": "2d6", "faces": [3, 4], "note": "x"}) is not a
    for bad in (
        {"target": "o1", "damage": True},  # True == 1: a bool must not pass for a kept whole number
        {"target": "o1", "damage": 3.0},
        {"target": "o1", "damage": 3, "extra": 1},
        {"target": "o1"},
        {"target": b"o1", "damage": 3},
    ):
        with pytest.raises((TypeError, KeyError)):
            hit(bad)
    hit({"target": "o1", "damage": 1})
    with pytest.raises(TypeError):
        hit({"target": "o1", "damage": True})
    for bad_roll in ({"expr": "2d6", "faces": [3, True]}, {"expr": "2d6", "faces": "34"}, {"expr": "2d6"}):
        with pytest.raises((TypeError, KeyError)):
            roll(bad_roll)


def test_records_that_can_change_or_hold_other_values_are_never_shared() -> None:
    tally = structurer().fn(Tally)
    assert tally({"name": "a", "count": 1}) is not tally({"name": "a", "count": 1})
    holder = structurer().fn(Holder)
    assert holder({"skills": [["Melee", 2]]}) is not holder({"skills": [["Melee", 2]]})
    check = structurer().fn(Check)
    assert check({"skill": "Medic", "total": 2}) is check({"skill": "Medic", "total": 2})


def test_a_class_with_many_different_records_stops_keeping_them(monkeypatch: pytest.MonkeyPatch) -> None:
    """A round's start (its number) or a note is seldom met twice: past SHARED different ones, none is kept."""
    from saves import structure

    monkeypatch.setattr(structure, "SHARED", 3)
    hit = structurer().fn(Hit)
    first, second = hit({"target": "o1", "damage": 0}), hit({"target": "o1", "damage": 1})
    assert hit({"target": "o1", "damage": 0}) is first and hit({"target": "o1", "damage": 1}) is second
    third = hit({"target": "o1", "damage": 2})  # the third different one: no more are kept
    for n, made in enumerate((first, second, third)):
        again = hit({"target": "o1", "damage": n})
        assert again == made and again is not made, "past SHARED, each is made anew"


def test_a_saved_fight_reads_back_with_its_repeated_events_shared(tmp_path: Any) -> None:
    """Through the fight file: the turns of a long fight are a few records each, read many times over."""
    import saves
    from tracker import commands as C
    from tracker import registry
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


@attrs.frozen(kw_only=True)
class Loose:
    value: Any
    pairs: tuple[tuple[str, Any], ...] = ()


@attrs.frozen(kw_only=True)
class Bag:
    sheet: dict[str, Any] = attrs.field(factory=dict)


def test_what_can_never_change_is_told_by_the_types_or_the_values() -> None:
    from saves.structure import unchangeable_test

    assert unchangeable_test(Hit)(Hit(target="o1", damage=3))
    assert unchangeable_test(Roll)(Roll(expr="2d6", faces=(3, 4)))
    assert not unchangeable_test(Tally)(Tally(name="a", count=1)), "not frozen"
    assert not unchangeable_test(Bag)(Bag(sheet={})), "a dict may be changed, even an empty one"
    loose = unchangeable_test(Loose)
    assert loose(Loose(value=3, pairs=(("a", "b"), ("c", None))))
    assert loose(Loose(value=(1, ("x", 2.5))))
    assert not loose(Loose(value=[1]))
    assert not loose(Loose(value=3, pairs=(("a", {"b": 1}),)))
    assert not loose(Loose(value=Tally(name="a", count=1)))


def test_a_long_fight_reads_each_event_once_per_different_line(tmp_path: Any) -> None:
    """Loading reads an event met before by its bytes: equal lines (but for seq, action, of and the checksum)
    give one event object, if that event can never change; one holding a dict (a prompt's parameters, a new
    combatant's sheet) is read anew each time."""
    import saves
    from bench.fights import make_fight
    from tracker.events import CombatantAdded, PromptRaised

    path = tmp_path / "f.jsonl"
    make_fight("bnb", 400, path, seed=3)
    loaded = saves.load(path)
    by_value: dict[Any, list[Any]] = {}
    for e in loaded.entries:
        by_value.setdefault((type(e.event), repr(e.event)), []).append(e.event)
    shared = mutable = 0
    for (cls, _), events in by_value.items():
        if len(events) < 2:
            continue
        if cls in (PromptRaised, CombatantAdded):
            assert len({id(ev) for ev in events}) == len(events), "an event holding a dict is never given twice"
            mutable += 1
        else:
            assert len({id(ev) for ev in events}) == 1, f"{cls.__name__}: equal lines, one event"
            shared += 1
    assert shared > 10 and mutable >= 1
    again = saves.load(path)
    assert again.entries == loaded.entries
    t1, t2 = loaded.timeline(), again.timeline()
    assert t1.state_at(len(t1)) == t2.state_at(len(t2))


def test_an_object_read_by_its_pieces_is_the_object_read_whole() -> None:
    """``Structurer.splitter`` reads an event's fields value by value (each piece's bytes met before are the same
    value): whatever the bytes, it reads what the whole-object function reads, or says None (then the whole is
    read).  Checked on real attack lines of twod6 (nested records, tuples, texts), edited and flipped at random."""
    import json
    import random
    import re

    import orjson

    from bench.fights import make_fight
    from saves.format import codec_for
    from tracker import registry

    system = registry.load("twod6")
    codec = codec_for(system)
    fight = make_fight("twod6", 300, None, seed=4)
    texts = [
        json.dumps(codec.converter.unstructure(e.event), separators=(",", ":"), ensure_ascii=False).encode()
        for e in fight.entries
    ]
    cls = dict(codec.types)
    tags = [type(e.event).TYPE for e in fight.entries]
    rng = random.Random(8)
    counts = {"read": 0, "none": 0}
    structurer = Structurer(lambda: codec.converter)
    splitters = {tag: structurer.splitter(c) for tag, c in cls.items()}  # one each: pieces met in other lines
    for _ in range(3000):
        k = rng.randrange(len(texts))
        text = bytearray(texts[k])
        for _flip in range(rng.choice((0, 1, 1, 2))):
            near = [m.start() + rng.randrange(-1, 3) for m in re.finditer(rb',"|\]|\}', text)]  # near a cut
            i = min(
                max(rng.choice(near) if near and rng.random() < 0.5 else rng.randrange(len(text)), 0), len(text) - 1
            )
            text[i] = rng.choice(b'{}[]",:0123456789abcx\\ ') if rng.random() < 0.7 else text[i] ^ 1
        if rng.random() < 0.05:
            text += rng.choice((b" ", b"}", b"]", b',"x":1}'))
        edited = bytes(text)
        split = splitters[tags[k]]
        got = split(edited, orjson.loads)
        again = split(edited, orjson.loads)  # its pieces met before now
        whole_fn = structurer.fn(cls[tags[k]])
        try:
            whole = whole_fn(orjson.loads(edited))
        except Exception:
            whole = None
        if got is None:
            counts["none"] += 1
            assert again is None
            continue
        counts["read"] += 1
        assert whole is not None, edited
        assert got == whole == again, edited
    assert counts["read"] > 500 and counts["none"] > 500, counts


def _outcome(fn: Any, raw: Any) -> Any:
    """What reading ``raw`` gives: the record, or the error (its type and words)."""
    try:
        return ("read", fn(raw))
    except Exception as e:  # the error itself is what is compared
        return ("refused", type(e), str(e))


def _spoiled(raw: dict[str, Any]) -> list[Any]:
    """The object with one thing wrong each time: not an object, a field missing, one too many, a wrong value."""
    out: list[Any] = [[raw], dict(raw, unknown_field=1), dict(raw, u1=1, u2=2, u3=3, u4=4)]
    for name, value in raw.items():
        out.append({k: v for k, v in raw.items() if k != name})
        wrong = "text" if not isinstance(value, str) else 7
        out.append(dict(raw, **{name: wrong}))
        out.append(dict(raw, **{name: None}))
    return out


@pytest.mark.parametrize("system_id", ["bnb", "blackjack", "zludge", "twod6"])
def test_the_first_tier_reads_every_record_as_the_generated_functions_do(system_id: str, tmp_path: Any) -> None:
    """A class's first records are read field by field (no code compiled as a fight opens), later ones by its
    generated function (saves.structure.TIER): every event of a played fight, and each spoiled in every field,
    reads the same both ways -- the same record, or the same refusal in the same words."""
    import json

    from bench.fights import make_fight
    from saves.format import Codec
    from tracker import registry

    path = tmp_path / "f.jsonl"
    make_fight(system_id, events=300, path=path)
    types = Codec(registry.load(system_id)).types
    plain, made = Structurer(strict_converter), Structurer(strict_converter)
    compared = refused = 0
    for line in path.read_text("utf-8").splitlines()[1:]:
        record = json.loads(line)
        if "event" not in record:
            continue
        cls = types[record["type"]]
        for raw in (record["event"], *_spoiled(record["event"])):
            ours, theirs = _outcome(plain._plain(cls), raw), _outcome(made._made_fn(cls), raw)
            assert ours == theirs, (cls.__name__, raw)
            compared += 1
            refused += ours[0] == "refused"
    assert compared > 1000 and refused > 500, (compared, refused)


def test_a_class_read_often_is_read_by_its_generated_function_and_keeps_giving_the_same_records() -> None:
    """Past TIER records a class's function is the generated one; records kept by the first tier are given again
    by the second (a long log holds one of each)."""
    from saves import structure

    s = structurer()
    read = s.fn(Hit)
    first = [read({"target": "o1", "damage": n % 4}) for n in range(structure.TIER)]
    assert s.fn(Hit) is read and Hit not in s._made, "read field by field: nothing generated yet"
    later = [read({"target": "o1", "damage": n % 4}) for n in range(8)]
    assert Hit in s._made and s.fn(Hit) is s._made[Hit], "the generated function took over"
    assert all(a is b for a, b in zip(first[:4], later[:4], strict=True)), "the same records given again"


def test_a_class_whose_function_cannot_be_generated_is_still_read_past_the_first_tier(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Should generating fail, the field-by-field reading goes on (it never hands the class back to itself)."""
    from saves import structure

    s = structurer()

    def refuse(cls: type) -> Any:
        raise TypeError("cannot generate")

    monkeypatch.setattr(s, "_generate", refuse)
    read = s.fn(Hit)
    got = [read({"target": "o1", "damage": n}) for n in range(structure.TIER + 5)]
    assert got[-1] == Hit(target="o1", damage=structure.TIER + 4)
    with pytest.raises(KeyError, match="unknown field"):
        read({"target": "o1", "damage": 1, "extra": 2})
