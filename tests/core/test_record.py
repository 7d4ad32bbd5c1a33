"""Records declared with ``@record`` are built by attrs on first use, and then are what ``@attrs.frozen`` makes.

Each declaration below is made twice, once with ``@record`` and once with
``@attrs.frozen(...)`` (built at once), and the two are compared: fields,
slots, ``__init__`` (defaults, factories, validators, converters, keyword-only
and its errors), frozenness, repr, equality, hash, evolve, cattrs.
"""

from __future__ import annotations

import copy
import inspect
import threading
import time
import typing
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import attrs
import cattrs
import pytest

from bench.fights import SYSTEMS, make_fight
from tests.support import in_new_interpreter
from tracker import record as R
from tracker import registry
from tracker.record import Record, record

if TYPE_CHECKING:
    from decimal import Decimal  # a name the type checker knows, and the module does not at run time

Decorator = Callable[[type], type]
LAZY: Decorator = record(kw_only=True, repr=False, eq=False)
EAGER: Decorator = attrs.frozen(kw_only=True, repr=False, eq=False)


def _positive(_inst: Any, attribute: Any, value: int) -> None:
    if value < 0:
        raise ValueError(f"{attribute.name} must be >= 0")


def declare(make: Decorator) -> dict[str, type]:
    """The same family of records, declared with ``make``."""

    @make
    class Base(Record):
        KIND: ClassVar[str] = "base"
        TAG = "untyped class attribute"
        name: str
        hp: int = attrs.field(default=0, validator=_positive)

        def describe(self) -> str:
            return f"{self.name} ({self.hp})"

    @make
    class Hurt(Base):
        KIND = "hurt"
        wounds: tuple[str, ...] = ()
        notes: list[str] = attrs.field(factory=list, hash=False)
        level: int = attrs.field(default="2", converter=int)
        seen: int = attrs.field(default=0)

        @seen.validator
        def _not_too_many(self, attribute: Any, value: int) -> None:
            if value > 9:
                raise ValueError("seen at most 9 times")

        def __attrs_post_init__(self) -> None:
            if "bad" in self.wounds:
                raise ValueError("a bad wound")

        def describe(self) -> str:
            return super().describe() + f" {len(self.wounds)} wounds"

        @property
        def cls_name(self) -> str:
            return __class__.__name__  # type: ignore[name-defined]  # the cell names the class as built

    return {"Base": Base, "Hurt": Hurt}


def _shape(cls: type) -> list[tuple[Any, ...]]:
    attrs.resolve_types(cls)  # (a record's types are evaluated as it is built; attrs.frozen's stay texts until now)
    return [
        (
            a.name,
            a.default if not isinstance(a.default, attrs.Factory) else ("factory", a.default.factory),  # type: ignore[arg-type]
            a.kw_only,
            a.type,
            a.init,
            a.eq,
            a.hash,
            a.repr,
            a.validator is not None,
            a.converter is not None,
            a.inherited,
        )
        for a in attrs.fields(cls)
    ]


def _slots(cls: type) -> list[str]:
    return sorted(s for c in cls.__mro__ for s in c.__dict__.get("__slots__", ()))


@pytest.mark.parametrize("name", ["Base", "Hurt"])
def test_a_record_built_on_first_use_is_what_attrs_frozen_makes(name: str) -> None:
    lazy, eager = declare(LAZY)[name], declare(EAGER)[name]
    assert lazy in R.waiting()
    assert _shape(lazy) == _shape(eager)  # attrs.fields builds it
    assert lazy not in R.waiting()
    assert _slots(lazy) == _slots(eager)
    assert lazy.__match_args__ == eager.__match_args__  # type: ignore[attr-defined]
    assert lazy.KIND == eager.KIND  # type: ignore[attr-defined]
    assert lazy.TAG == eager.TAG == "untyped class attribute"  # type: ignore[attr-defined]
    a, b = lazy(name="Ann", hp=3), eager(name="Ann", hp=3)
    assert repr(a).replace(lazy.__qualname__, "X") == repr(b).replace(eager.__qualname__, "X")
    assert a == lazy(name="Ann", hp=3) and a != lazy(name="Ann", hp=4)
    assert hash(a) == hash(lazy(name="Ann", hp=3))
    assert not hasattr(a, "__dict__") and not hasattr(b, "__dict__")
    assert weakref.ref(a)() is a
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        a.hp = 4  # type: ignore[misc]
    assert attrs.evolve(a, hp=5).hp == 5
    assert copy.copy(a) == a and copy.deepcopy(a) == a
    for bad in ({"hp": 1}, {"name": "Ann", "hp": -1}, {"name": "Ann", "speed": 2}):
        with pytest.raises((TypeError, ValueError)) as made_lazy:
            lazy(**bad)
        with pytest.raises((TypeError, ValueError)) as made_eager:
            eager(**bad)
        assert type(made_lazy.value) is type(made_eager.value)
        assert str(made_lazy.value).replace(lazy.__qualname__, "X") == str(made_eager.value).replace(
            eager.__qualname__, "X"
        )
    with pytest.raises(TypeError):
        lazy("Ann")  # keyword-only, as declared


def test_the_subclass_keeps_its_hooks_converters_and_super() -> None:
    made = declare(LAZY)
    hurt = made["Hurt"]
    h = hurt(name="Bo", wounds=("cut",), level="3")
    assert h.level == 3 and h.notes == [] and h.describe() == "Bo (0) 1 wounds"
    assert h.cls_name == "Hurt"
    assert made["Base"] not in R.waiting()  # built first, for its subclass
    with pytest.raises(ValueError, match="a bad wound"):
        hurt(name="Bo", wounds=("bad",))
    with pytest.raises(ValueError, match="seen at most 9"):
        hurt(name="Bo", seen=10)
    assert isinstance(h, made["Base"])


@pytest.mark.parametrize(
    "use",
    [
        lambda cls: cls(name="x"),
        lambda cls: attrs.fields(cls),
        lambda cls: attrs.has(cls),
        lambda cls: cattrs.Converter().structure({"name": "x", "hp": 2}, cls),
        lambda cls: cls.__match_args__,
        lambda cls: attrs.resolve_types(cls),
    ],
    ids=["instance", "fields", "has", "cattrs", "match_args", "resolve_types"],
)
def test_every_first_use_builds_the_class(use: Callable[[type], Any]) -> None:
    base = declare(LAZY)["Base"]
    assert base in R.waiting()
    use(base)
    assert base not in R.waiting()
    assert "__attrs_attrs__" in base.__dict__


def test_a_waiting_subclass_of_a_built_base_answers_for_itself() -> None:
    """Not with its base's attrs attributes (``attrs.fields``, ``attrs.has``, cattrs, ``__match_args__``)."""
    made = declare(LAZY)
    base, hurt = made["Base"], made["Hurt"]
    attrs.fields(base)
    assert hurt in R.waiting()
    assert hurt.__match_args__ == ()  # type: ignore[attr-defined]  # keyword-only, its own
    assert [a.name for a in attrs.fields(hurt)] == ["name", "hp", "wounds", "notes", "level", "seen"]
    eager = declare(EAGER)["Hurt"]
    raw = {"name": "c", "hp": 1, "wounds": ["cut"], "notes": [], "level": 4, "seen": 1}
    assert cattrs.Converter().structure(raw, hurt).describe() == cattrs.Converter().structure(raw, eager).describe()


def test_the_class_is_the_same_object_before_and_after() -> None:
    made = declare(LAZY)
    base = made["Base"]
    table = {base: "kept"}
    inst = base(name="a")
    assert type(inst) is base and table[type(inst)] == "kept"
    with pytest.raises(AttributeError):
        base.no_such_thing  # noqa: B018 -- a missing attribute still is one
    assert type(base) is type  # a plain class: isinstance and class attributes as fast as on any class


def test_a_misdeclared_record_says_so_at_each_use_and_stays_waiting() -> None:
    @record(repr=False, eq=False)
    class Bad(Record):
        a: int = 1
        b: int  # a mandatory field after a default, not keyword-only: attrs refuses it

    try:
        for _ in range(2):
            with pytest.raises(ValueError, match="No mandatory attributes allowed after an attribute with a default"):
                Bad(1, 2)  # type: ignore[call-arg]
            assert Bad in R.waiting()
    finally:
        R._pending.pop(Bad, None)  # not left for another test's build_pending


def test_record_is_for_records_with_the_shared_repr_and_eq() -> None:
    with pytest.raises(TypeError, match="subclasses of Record"):

        @record(kw_only=True, repr=False, eq=False)
        class Plain:
            a: int

    with pytest.raises(TypeError, match="repr=False and eq=False"):
        record(kw_only=True)  # type: ignore[call-overload]

    with pytest.raises(TypeError, match="without an annotation"):

        @record(kw_only=True, repr=False, eq=False)
        class Stray(Record):
            a = attrs.field(default=1)


def test_attrs_frozen_on_a_record_subclass_still_works() -> None:
    """A plug-in may declare its events with plain ``@attrs.frozen`` (docs/PLUGINS.md): built at once, on a base
    that is built first."""
    base = declare(LAZY)["Base"]

    @attrs.frozen(kw_only=True)
    class Theirs(base):  # type: ignore[valid-type,misc]
        extra: int = 1

    assert [a.name for a in attrs.fields(Theirs)] == ["name", "hp", "extra"]
    assert Theirs(name="t").describe() == "t (0)"


@pytest.mark.parametrize("sid", SYSTEMS)
def test_every_record_of_a_system_builds_as_declared(sid: str) -> None:
    """A class declared wrong would only say so when first used: build them all here."""
    registry.load(sid)
    records = [c for c in _subclasses(Record) if c.__module__.split(".")[0] in ("tracker", "saves", "systems")]
    assert len(records) > 60
    for cls in records:
        names = [a.name for a in attrs.fields(cls)]  # built here if it was waiting
        assert set(names) <= set(_slots(cls)), cls  # every field has its slot
        assert cls.__init__ is not R._first_init, cls  # type: ignore[comparison-overlap]
        assert not any("__dict__" in c.__dict__ for c in cls.__mro__[:-1]), cls
    assert not set(records) & set(R.waiting())


def test_build_pending_builds_what_waits() -> None:
    made = declare(LAZY)
    assert set(made.values()) <= set(R.waiting())
    left = R.build_pending(1)
    assert left == len(R.waiting())
    R.build_pending()
    assert not set(made.values()) & set(R.waiting())


def _subclasses(cls: type) -> list[type]:
    out, todo = [], [cls]
    while todo:
        for sub in todo.pop().__subclasses__():
            if "__attrs_attrs__" in sub.__dict__ or sub in R.waiting():
                out.append(sub)
            todo.append(sub)
    return out


@pytest.mark.parametrize("sid", SYSTEMS)
def test_opening_a_fight_builds_no_command_class(sid: str, tmp_path: Path) -> None:
    """Opening a fight (the app's launch) builds the state's and the log's records, not the system's commands
    (they wait for the first form or command: issue #13)."""
    path = tmp_path / "fight.jsonl"
    make_fight(sid, 300, path, seed=2)
    code = (
        "import sys; import saves; from tracker import record, registry; "
        "f = saves.open_fight(sys.argv[1]); system = registry.load(sys.argv[2]); "
        "mine = [s.build for s in system.commands() if isinstance(s.build, type)]; "
        "waiting = set(record.waiting()); "
        "print(len(mine), sum(c in waiting for c in mine), f.state.round > 0)"
    )
    declared, unbuilt, played = in_new_interpreter(code, str(path), sid)
    assert int(declared) > 3 and unbuilt == declared and played == "True"


def test_a_class_another_thread_is_building_is_waited_for(monkeypatch: pytest.MonkeyPatch) -> None:
    """One thread builds the class (slowly here); another that looks at it meanwhile waits and sees it built."""
    base = declare(LAZY)["Base"]
    frozen = attrs.frozen
    started = threading.Event()

    def slow(*args: Any, **kwargs: Any) -> Any:
        started.set()
        time.sleep(0.2)
        return frozen(*args, **kwargs)

    monkeypatch.setattr(attrs, "frozen", slow)
    seen: list[Any] = []
    builder = threading.Thread(target=lambda: seen.append(base(name="a")))
    builder.start()
    assert started.wait(5)
    names = [a.name for a in attrs.fields(base)]  # while the builder sleeps in attrs
    made = base(name="b")
    builder.join()
    assert names == ["name", "hp"] and made.name == "b" and seen[0].name == "a"


@record(kw_only=True, repr=False, eq=False)
class _Stats(Record):
    quick: int = 2
    names: tuple[str, ...] = ()
    later: Decimal | None = None


_Stats.int = property(lambda self: 1)  # type: ignore[attr-defined]  # as twod6 gives its data its stats, after


def test_a_records_field_types_are_read_in_its_module_not_in_its_class() -> None:
    """As a record is built, its fields' annotations are evaluated in its module, as
    ``attrs.resolve_types(cls, localns={})`` reads them (saves.checkpoint): an attribute of the class named like
    a type (twod6's ``int`` stat) does not stand for it; a name the module does not know at run time stays a
    text, which ``attrs.resolve_types`` refuses later as it always did; ``typing.get_type_hints`` agrees."""
    fields = attrs.fields(_Stats)
    assert fields.quick.type is int and fields.names.type == tuple[str, ...]
    assert fields.later.type == "Decimal | None"
    assert typing.get_type_hints(_Stats, localns={"Decimal": float})["quick"] is int
    with pytest.raises(NameError):
        attrs.resolve_types(_Stats)


# -- the fields of a waiting class, read from its declaration (issue #13: opening builds almost no class) ------

_COMPARED = ("name", "type", "default", "validator", "converter", "eq", "hash", "repr", "init", "kw_only", "alias")

_READ_THEN_BUILT = """
import inspect, json, sys, attrs
from tracker import record as R, registry
KEYS = sys.argv[1].split(",")
for sid in sys.argv[2:]:
    registry.load(sid)
import saves.store, screens.app, screens.fight
read = {cls: R._read_fields(cls, R._pending[cls]) for cls in R.waiting()}
inits = {cls: R._init_for(cls, light) for cls, light in read.items() if light is not None}
signatures = {cls: str(inspect.signature(init)) for cls, init in inits.items() if init is not None}
R.build_pending()
out = {"read": 0, "not_read": [], "differ": [], "no_init": [], "init_differs": []}
for cls, light in read.items():
    name = f"{cls.__module__}.{cls.__qualname__}"
    if light is None:
        out["not_read"].append(name)
        continue
    out["read"] += 1
    made = attrs.fields(cls)
    keys = KEYS
    mine = [[repr(getattr(f, k)) for k in keys] for f in light]
    theirs = [[repr(getattr(f, k)) for k in keys] for f in made]
    if mine != theirs:
        out["differ"].append([name, mine, theirs])
    if cls not in signatures:
        out["no_init"].append(name)
    elif signatures[cls] != str(inspect.signature(cls.__init__)):
        out["init_differs"].append([name, signatures[cls], str(inspect.signature(cls.__init__))])
print(json.dumps(out))
"""


def test_the_fields_read_from_a_declaration_are_the_fields_attrs_makes() -> None:
    """Every waiting record of the core, saves, the screens and every system: the fields told from its
    declaration (before it is built) are, attribute by attribute, those attrs gives it once built, and the
    ``__init__`` made from them has the signature of attrs's (parameters, kinds, defaults, annotations); and
    every one can be told so (one that cannot is built to answer: opening a fight would build it)."""
    import json

    out = json.loads(" ".join(in_new_interpreter(_READ_THEN_BUILT, ",".join(_COMPARED), *SYSTEMS)))
    assert out["differ"] == []
    assert out["init_differs"] == [] and out["no_init"] == []  # the __init__ made for it is attrs's, as a signature
    assert out["read"] > 150
    assert out["not_read"] == []


def _plain() -> type:
    """A new record class whose fields can be told from its declaration (plain defaults, record.field)."""

    @record(kw_only=True, repr=False, eq=False)
    class Plain(Record):
        name: str
        hp: int = 0
        notes: tuple[str, ...] = R.field(default=(), hash=False)
        seen: dict[str, Any] = R.field(factory=dict, eq=False, repr=False)

    return Plain


def test_fields_told_from_the_declaration_leave_the_class_waiting() -> None:
    plain = _plain()
    fields = R.record_fields(plain)
    assert plain in R.waiting()
    assert [(f.name, f.type, f.default, f.eq, f.hash, f.repr, f.kw_only) for f in fields] == [
        ("name", str, attrs.NOTHING, True, None, True, True),
        ("hp", int, 0, True, None, True, True),
        ("notes", tuple[str, ...], (), True, False, True, True),
        ("seen", dict[str, Any], attrs.Factory(dict), False, None, False, True),
    ]
    assert R.resolved_fields(plain) == fields and plain in R.waiting()
    assert R.is_record(plain) and plain in R.waiting() and not R.is_record(int)
    built = [(f.name, f.type, f.default, f.eq, f.hash, f.repr, f.kw_only) for f in attrs.fields(plain)]
    assert built == [(f.name, f.type, f.default, f.eq, f.hash, f.repr, f.kw_only) for f in fields]
    assert plain not in R.waiting() and R.record_fields(plain) == attrs.fields(plain)


def test_a_class_whose_fields_cannot_be_told_is_built_to_answer() -> None:
    @record(kw_only=True, repr=False, eq=False)
    class Aliased(Record):
        own: int = attrs.field(default=0, alias="theirs")

    @record(repr=False, eq=False)
    class Hooked(Record):
        hp: int = 0

        def __attrs_post_init__(self) -> None:
            pass

    @record(repr=False, eq=False)
    class Unordered(Record):  # a mandatory field after a default: attrs refuses it, and says so
        hp: int = 0
        name: str  # type: ignore[misc]

    for cls in (Aliased, Hooked, declare(LAZY)["Base"]):  # (Base: an attrs.field with a validator)
        assert R._read_fields(cls, R._pending[cls]) is None
        assert R.record_fields(cls) == attrs.fields(cls) and cls not in R.waiting()
    assert R._read_fields(Unordered, R._pending[Unordered]) is None
    with pytest.raises(ValueError, match="mandatory"):
        R.record_fields(Unordered)
    R._pending.pop(Unordered, None)  # not left for another test's build_pending


def test_a_first_instance_of_a_class_told_from_its_declaration_leaves_it_waiting() -> None:
    """Its __init__ is the one attrs writes: defaults, a new value from each factory, keyword-only arguments
    refused as attrs refuses them, frozen; attrs's own replaces it when the class is built, with equal records."""
    plain = _plain()
    a = plain(name="Ann")
    assert plain in R.waiting() and plain.__init__ is not R._first_init  # type: ignore[comparison-overlap]
    b = plain(name="Ann", hp=2, notes=("x",))
    assert (a.name, a.hp, a.notes, a.seen) == ("Ann", 0, (), {}) and (b.hp, b.notes) == (2, ("x",))
    assert a.seen is not plain(name="Bo").seen  # a new dict from the factory each time
    with pytest.raises(TypeError, match="required keyword-only argument: 'name'"):
        plain()
    with pytest.raises(TypeError, match="positional"):
        plain("Ann")
    with pytest.raises(TypeError, match="unexpected keyword argument 'speed'"):
        plain(name="Ann", speed=2)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        a.hp = 3
    before = inspect.signature(plain.__init__)
    R.build_pending()
    assert plain not in R.waiting() and inspect.signature(plain.__init__) == before
    assert plain(name="Ann") == a and plain(name="Ann", hp=2, notes=("x",)) == b
