"""The many small frozen attrs classes (events, commands, records): built by attrs on first use, one shared
``__repr__``, ``__eq__`` and ``__hash__``.

A class that inherits :class:`Record` is declared ``@record(kw_only=True,
repr=False, eq=False)`` (or without ``kw_only``).  To a type checker that *is*
``attrs.frozen`` (mypy's attrs plugin reads the fields and ``__init__``); at
run time the decorator only makes the class slotted, with the same slots attrs
would give it, and attrs builds the rest (``__init__``, ``__attrs_attrs__``,
the frozen ``__setattr__``) the first time the class is used: its first
instance, or the first look at its attrs attributes (``__attrs_attrs__`` and
``__match_args__``: ``attrs.fields``, ``attrs.has``, cattrs; a waiting class
holds stand-ins for them, so it never answers with those of a base already
built).  Building a class costs attrs about a quarter of a
millisecond (a compiled ``__init__`` and its attributes); the core and a
plug-in declare a hundred or more, and opening a fight uses a few dozen of them
(issue #13: the launch).  Most of them need not be built even then: a class
whose fields can be told from its declaration (plain defaults or
:func:`field`; no validator, converter, alias, private name, init hook or base
with fields) answers :func:`record_fields` from it, and its first instance gets
the ``__init__`` attrs would write (:func:`_init_for`); its records are frozen
from the start.  saves and the model read fields through
:func:`record_fields`, so reading a fight's checkpoint and tail builds almost
no class.  :func:`build_pending` builds the rest when there is
time (the app does, while the GM looks at the first frame), and a test builds
every class of every system so that a misdeclared one is found there.

The class is the same object before and after: attrs builds a twin from the
same fields and the class takes the twin's generated members, so references
taken at import (``isinstance``, dispatch tables, ``TYPE`` maps) stay good.
It is a plain class (no metaclass: one with ``__getattr__`` made every
``isinstance`` and class attribute slower, and the replay of 100,000 events
5% slower).  As with attrs' own slotted classes, a base's ``__init_subclass__``
also sees the classes made along the way (the slotted class, the twin).
Records get these three from here instead of attrs' own, with the same
results: the repr attrs would write, equality of the same class on the same
fields, and a hash over the fields attrs would hash.
"""

from __future__ import annotations

import sys
import threading
import types
from collections.abc import Callable
from operator import attrgetter
from typing import TYPE_CHECKING, Any, TypeVar

import attrs

_specs: dict[type, tuple[tuple[tuple[str, Any], ...], Any, Any]] = {}

T = TypeVar("T", bound=type)


def _values(names: list[str]) -> Any:
    """A function giving the tuple of these attributes' values."""
    if not names:
        return lambda obj: ()
    if len(names) == 1:
        get = attrgetter(names[0])
        return lambda obj: (get(obj),)
    return attrgetter(*names)


def _spec(cls: type) -> tuple[tuple[tuple[str, Any], ...], Any, Any]:
    spec = _specs.get(cls)
    if spec is None:
        fields = record_fields(cls)
        shown = tuple((a.name, repr if a.repr is True else a.repr) for a in fields if a.repr is not False)
        eq = _values([a.name for a in fields if a.eq])
        hashed = _values([a.name for a in fields if (a.eq if a.hash is None else a.hash)])
        spec = _specs[cls] = (shown, eq, hashed)
    return spec


# -- built on first use ---------------------------------------------------------------------------------------

_COUNTING = type(attrs.field())  # what attrs.field() gives in a class body
_CLASS_VARS = ("typing.ClassVar", "t.ClassVar", "ClassVar", "typing_extensions.ClassVar")
_NOT_TAKEN = ("__slots__", "__dict__", "__weakref__", "__doc__")  # of the twin's members
_SLOT_KINDS = (types.MemberDescriptorType, types.GetSetDescriptorType)
_OPTIONS = frozenset({"kw_only", "repr", "eq"})
# what attrs gives a class that its built bases have too: a waiting class must not answer with its base's
_OWN = ("__attrs_attrs__", "__attrs_props__", "__match_args__")
# what attrs gives a slotted class that an instance of a waiting class may be asked for (copy, pickle)
_STATE = ("__getstate__", "__setstate__")
_DEFAULT = "tracker.record.default"  # a field()'s default in its metadata, read without building the class


class _Plan:
    """What attrs needs to build a class declared with :func:`record`: its fields in order (each an attrs.field(),
    a plain default, or attrs.NOTHING), their annotations and the decorator's options."""

    __slots__ = ("annotations", "fields", "options")

    def __init__(self, fields: dict[str, Any], annotations: dict[str, Any], options: dict[str, Any]) -> None:
        self.fields = fields
        self.annotations = annotations
        self.options = options


_pending: dict[type, _Plan] = {}
_lock = threading.RLock()


def _is_class_var(annotation: Any) -> bool:
    """attrs' own test (annotations are strings here: ``from __future__ import annotations``)."""
    text = str(annotation)
    if text[:1] in ("'", '"') and text[-1:] == text[:1]:
        text = text[1:-1]
    return text.startswith(_CLASS_VARS)


class _BuiltOnRead:
    """Stands in a waiting class for an attribute attrs will give it (``__attrs_attrs__``...): read, it builds
    the class and gives what attrs made, never the same attribute of a base already built."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, instance: Any, owner: type) -> Any:
        _build_with_bases(owner)
        if isinstance(owner.__dict__.get(self.name), _BuiltOnRead):
            raise AttributeError(self.name)  # attrs gave it nothing of that name (and it is removed)
        return getattr(owner if instance is None else instance, self.name)


def _build_with_bases(cls: type) -> bool:
    """Build ``cls`` and every base of it still waiting, bases first (the MRO from its root); whether any was.
    (Under the lock: a class another thread is building is no longer waiting, but not built yet.)"""
    with _lock:
        waiting = [c for c in reversed(cls.__mro__) if c in _pending]
        for c in waiting:
            _build(c)
        return bool(waiting)


def _build(cls: type) -> None:
    """Build one waiting class whose bases are built (called by :func:`_build_with_bases`, under the lock)."""
    plan = _pending.pop(cls)
    try:
        # the twin: the same bases, fields and hooks, built by attrs as @attrs.frozen builds a class
        body: dict[str, Any] = {
            "__annotations__": _evaluated(cls, plan.annotations),
            "__module__": cls.__module__,
            "__qualname__": cls.__qualname__,
        }
        for hook in ("__attrs_pre_init__", "__attrs_post_init__"):
            if hook in cls.__dict__:
                body[hook] = cls.__dict__[hook]
        twin = types.new_class(cls.__name__, cls.__bases__, exec_body=lambda ns: ns.update(body))
        these = {n: v if type(v) is _COUNTING else attrs.field(default=v) for n, v in plan.fields.items()}
        made = attrs.frozen(twin, these=these, **plan.options)
        for name, value in made.__dict__.items():
            if name in body or name in _NOT_TAKEN or isinstance(value, _SLOT_KINDS):
                continue
            type.__setattr__(cls, name, value)
        for name in (*_OWN, *_STATE):
            if isinstance(cls.__dict__.get(name), _BuiltOnRead):
                type.__delattr__(cls, name)
        _light.pop(cls, None)
    except BaseException:
        _pending[cls] = plan  # as it was: the next use says the same
        raise


_compiled: dict[str, types.CodeType] = {}  # each annotation's text, compiled once


def _evaluated(cls: type, annotations: dict[str, Any]) -> dict[str, Any]:
    """The fields' annotations, each evaluated now where it can be, in the module that declares the class.

    In the module only, as ``attrs.resolve_types(cls, localns={})`` reads them (saves.checkpoint does): not in the
    class, where an attribute named like a type (twod6's ``int`` stat) would stand for it.  One that cannot be
    evaluated now (a name imported only for type checking, a name in quotes) stays the text it is, for
    ``attrs.resolve_types`` to read later as it always did.  The class's own ``__annotations__`` get the same
    values, so ``typing.get_type_hints`` (``attrs.resolve_types``, cattrs) has no text left to compile: it
    compiled each annotation of each class anew, and a text is compiled here once (twod6's opening: 0.75 ms,
    issue #13)."""
    module = sys.modules.get(cls.__module__)
    namespace = vars(module) if module is not None else {}
    own = cls.__dict__.get("__annotations__")  # noqa: RUF063  (the class's own dict, changed in place)
    out: dict[str, Any] = {}
    for name, text in annotations.items():
        value = text
        if type(text) is str and "'" not in text and '"' not in text:
            try:
                code = _compiled.get(text)
                if code is None:
                    code = _compiled[text] = compile(text, "<annotation>", "eval")
                value = eval(code, namespace, {})
            except Exception:
                value = text
            else:
                if value is None:
                    value = type(None)
                if own is not None and own.get(name) is text:
                    own[name] = value
        out[name] = value
    return out


def _first_init(self: Any, *args: Any, **kwargs: Any) -> None:
    """A waiting class's ``__init__``: the ``__init__`` attrs would write for it (see :func:`_init_for`), and the
    class stays waiting; or, where its fields cannot be told from its declaration, the class is built.  Then it
    initialises as attrs does."""
    cls = type(self)
    with _lock:
        if cls.__dict__.get("__init__") is _first_init:
            fields = _told(cls)
            init = _init_for(cls, fields) if fields is not None else None
            if init is not None:
                type.__setattr__(cls, "__init__", init)
            else:
                _build_with_bases(cls)
        else:
            _build_with_bases(cls)
    cls.__init__(self, *args, **kwargs)


_NOT_FIELD_NAMES = frozenset({"self", "NOTHING", "_setattr", "_setattr_get"})


def _init_for(cls: type, fields: tuple[_Field, ...]) -> Callable[..., None] | None:
    """The ``__init__`` attrs writes for a frozen slotted class with these fields (none with a validator, a
    converter or a factory that takes self; no init hooks): the same parameters, defaults and annotations, the
    same stores past the frozen ``__setattr__``.  A few dozen microseconds to compile, where attrs building the
    whole class takes a quarter of a millisecond; attrs's own replaces it when the class is built.  None for a
    field name it would not write so."""
    namespace: dict[str, Any] = {"NOTHING": attrs.NOTHING, "_setattr_get": object.__setattr__.__get__}
    positional: list[str] = []
    keywords: list[str] = []
    lines = ["_setattr = _setattr_get(self)"]
    for n, f in enumerate(fields):
        if f.name in _NOT_FIELD_NAMES or not f.name.isidentifier():
            return None
        default = f.default
        if default is attrs.NOTHING:
            param = f.name
            lines.append(f"_setattr({f.name!r}, {f.name})")
        elif isinstance(default, attrs.Factory):  # type: ignore[arg-type]
            if default.takes_self:
                return None
            namespace[f"_factory{n}"] = default.factory
            param = f"{f.name}=NOTHING"
            lines += [
                f"if {f.name} is not NOTHING:",
                f"    _setattr({f.name!r}, {f.name})",
                "else:",
                f"    _setattr({f.name!r}, _factory{n}())",
            ]
        else:
            namespace[f"_default{n}"] = default
            param = f"{f.name}=_default{n}"
            lines.append(f"_setattr({f.name!r}, {f.name})")
        (keywords if f.kw_only else positional).append(param)
    params = ["self", *positional, *(("*", *keywords) if keywords else ())]
    if not fields:
        lines = ["pass"]
    source = f"def __init__({', '.join(params)}):\n" + "".join(f"    {line}\n" for line in lines)
    # generated from the class's own field names (identifiers), never from data
    exec(compile(source, f"<record __init__ {cls.__module__}.{cls.__qualname__}>", "exec"), namespace)
    init: Callable[..., None] = namespace["__init__"]
    init.__annotations__ = {**{f.name: f.type for f in fields}, "return": None}
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    return init


def _frozen_setattr(self: Any, name: str, value: Any) -> None:
    """A waiting class's ``__setattr__``: refused, as attrs refuses it once the class is built."""
    raise attrs.exceptions.FrozenInstanceError


def _frozen_delattr(self: Any, name: str) -> None:
    raise attrs.exceptions.FrozenInstanceError


# -- the fields of a waiting class, read from its declaration -------------------------------------------------


class _Field:
    """A field of a waiting class as attrs will make it: the attributes of ``attrs.Attribute`` that the model
    and saves read (no validator, no converter, always in ``__init__``, named as its argument)."""

    __slots__ = ("alias", "converter", "default", "eq", "hash", "init", "kw_only", "name", "repr", "type", "validator")

    def __init__(
        self, name: str, type: Any, default: Any, eq: bool, hash: bool | None, repr: Any, kw_only: bool
    ) -> None:
        self.name = self.alias = name
        self.type = type
        self.default = default
        self.eq = eq
        self.hash = hash
        self.repr = repr
        self.kw_only = kw_only
        self.init = True
        self.validator = self.converter = None

    def __repr__(self) -> str:
        return f"_Field(name={self.name!r}, type={self.type!r}, default={self.default!r})"


_light: dict[type, tuple[_Field, ...]] = {}  # the fields of waiting classes, read so far


def _read_fields(cls: type, plan: _Plan) -> tuple[_Field, ...] | None:
    """The fields attrs will give ``cls``, told from its declaration; None where that is not sure (a base with
    fields, an ``attrs.field()`` not made by :func:`field`, a private name, an init hook): attrs then says."""
    for base in cls.__mro__[1:-1]:
        base_plan = _pending.get(base)
        if base_plan.fields if base_plan is not None else base.__dict__.get("__attrs_attrs__"):
            return None
    if any(hasattr(cls, hook) for hook in ("__attrs_pre_init__", "__attrs_post_init__", "__attrs_init__")):
        return None
    kw_only = bool(plan.options.get("kw_only", False))
    plan.annotations = types_ = _evaluated(cls, plan.annotations)
    out: list[_Field] = []
    defaulted = False
    for name, value in plan.fields.items():
        if name.startswith("_"):
            return None
        if type(value) is _COUNTING:
            made = value.metadata
            if _DEFAULT not in made or not value.init or value.converter is not None or value.on_setattr is not None:
                return None
            if value.alias not in (None, name):
                return None
            f = _Field(
                name, types_[name], made[_DEFAULT], value.eq, value.hash, value.repr, kw_only or bool(value.kw_only)
            )
        else:
            f = _Field(name, types_[name], value, True, None, True, kw_only)
        if not f.kw_only:
            if f.default is attrs.NOTHING and defaulted:
                return None  # attrs refuses a mandatory field after a default: let it say so
            defaulted = defaulted or f.default is not attrs.NOTHING
        out.append(f)
    return tuple(out)


def record_fields(cls: type) -> tuple[Any, ...]:
    """``attrs.fields(cls)``; for a class still waiting, read from its declaration where that can be, and the
    class stays waiting (reading a fight's checkpoint and tail, saves.structure makes its records field by field
    and builds none of their classes: issue #13).  Each field has the ``attrs.Attribute`` attributes the model
    and saves read: ``name``, ``type`` (evaluated in the class's module, or the text when it cannot be yet),
    ``default`` (``attrs.NOTHING``, the value, or an ``attrs.Factory``), ``eq``, ``hash``, ``repr``, ``init``,
    ``kw_only``, ``alias``, ``validator`` and ``converter``.  Otherwise the class is built and attrs answers."""
    got = _light.get(cls)
    if got is not None:
        return got
    with _lock:
        got = _told(cls)
    return got if got is not None else attrs.fields(cls)


def _told(cls: type) -> tuple[_Field, ...] | None:
    """The fields of a waiting class told from its declaration (kept), or None (under the lock)."""
    got = _light.get(cls)
    if got is None:
        plan = _pending.get(cls)
        if plan is not None:
            got = _read_fields(cls, plan)
            if got is not None:
                _light[cls] = got
    return got


def resolved_fields(cls: type, *, module_only: bool = False) -> tuple[Any, ...]:
    """:func:`record_fields` with every type evaluated: where one is still a text, ``attrs.resolve_types`` reads
    it (in the class's module only with ``module_only``, as a checkpoint reads a state's types)."""
    got = record_fields(cls)
    if any(type(f.type) is str for f in got):
        if module_only:
            attrs.resolve_types(cls, localns={})
        else:
            attrs.resolve_types(cls)
        got = attrs.fields(cls)
    return got


def is_record(cls: Any) -> bool:
    """``attrs.has(cls)``, without building a waiting class."""
    return isinstance(cls, type) and (cls in _pending or attrs.has(cls))


if TYPE_CHECKING:
    from attrs import field
else:

    def field(
        *, default: Any = attrs.NOTHING, factory: Any = None, eq: bool = True, repr: bool = True, hash: Any = None
    ) -> Any:
        """``attrs.field`` for a record, whose default a waiting class tells without being built (see
        :func:`record_fields`; a field made so takes no validator)."""
        value = attrs.Factory(factory) if factory is not None else default
        return attrs.field(default=value, eq=eq, repr=repr, hash=hash, metadata={_DEFAULT: value})


def _declare(cls: type, options: dict[str, Any]) -> type:
    if not issubclass(cls, Record):
        raise TypeError(f"@record is for subclasses of Record, not {cls.__qualname__}")
    body = dict(cls.__dict__)
    annotations = body.get("__annotations__", {})
    fields: dict[str, Any] = {}
    for name, annotation in annotations.items():
        if _is_class_var(annotation):
            continue
        fields[name] = body.pop(name, attrs.NOTHING)  # attrs.field(), a default or none: made a field when built
    stray = [name for name, value in body.items() if type(value) is _COUNTING]
    if stray:
        raise TypeError(f"{cls.__qualname__}: attrs.field() without an annotation: {', '.join(stray)}")
    taken: set[str] = set()
    weakref = False
    for base in cls.__mro__[1:-1]:
        slots = base.__dict__.get("__slots__", ())
        taken.update((slots,) if isinstance(slots, str) else slots)
        weakref = weakref or "__weakref__" in base.__dict__
    body.pop("__dict__", None)
    body.pop("__weakref__", None)
    body["__slots__"] = (*(n for n in fields if n not in taken), *(() if weakref else ("__weakref__",)))
    body["__init__"] = _first_init
    body.update((name, _BuiltOnRead(name)) for name in _OWN)
    # a waiting class's records (made field by field: saves.structure) are frozen too, and copy as attrs's do
    body.update((name, _BuiltOnRead(name)) for name in _STATE if name not in body)
    body.setdefault("__setattr__", _frozen_setattr)
    body.setdefault("__delattr__", _frozen_delattr)
    body["__qualname__"] = cls.__qualname__
    slotted = type(cls.__name__, cls.__bases__, body)
    _repoint_cells(body, cls, slotted)
    _pending[slotted] = _Plan(fields, {n: annotations[n] for n in fields}, options)
    return slotted


def _repoint_cells(body: dict[str, Any], old: type, new: type) -> None:
    """Methods that name their class (``super()``, ``__class__``) name the slotted one, as attrs does."""
    for value in body.values():
        if isinstance(value, classmethod | staticmethod):
            value = value.__func__
        elif isinstance(value, property):
            value = value.fget
        code = getattr(value, "__code__", None)
        if code is None or "__class__" not in code.co_freevars:
            continue
        for cell in value.__closure__ or ():
            try:
                if cell.cell_contents is old:
                    cell.cell_contents = new
            except ValueError:  # an empty cell
                continue


if TYPE_CHECKING:
    from attrs import frozen as record
else:

    def record(maybe_cls: T | None = None, /, **options: Any) -> T | Callable[[T], T]:
        """``@attrs.frozen(kw_only=..., repr=False, eq=False)`` for a :class:`Record`, built on first use."""
        if not options.keys() <= _OPTIONS or options.get("repr", True) or options.get("eq", True):
            raise TypeError(f"@record takes kw_only, repr=False and eq=False, not {sorted(options)}")

        def declare(cls: T) -> T:
            return _declare(cls, options)

        return declare if maybe_cls is None else declare(maybe_cls)


def build_pending(limit: int | None = None) -> int:
    """Build up to ``limit`` (all if None) of the classes still waiting; how many wait after."""
    with _lock:
        for cls in list(_pending)[:limit]:
            _build_with_bases(cls)
        return len(_pending)


def waiting() -> tuple[type, ...]:
    """The record classes not built yet."""
    return tuple(_pending)


class Record:
    """Mixed into frozen record classes declared with :func:`record` (``repr=False, eq=False``)."""

    __slots__ = ()

    def __repr__(self) -> str:
        cls = self.__class__
        shown = _spec(cls)[0]
        inner = ", ".join(f"{name}={show(getattr(self, name, attrs.NOTHING))}" for name, show in shown)
        return f"{cls.__qualname__.rsplit('>.', 1)[-1]}({inner})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        eq = _spec(self.__class__)[1]
        return bool(eq(self) == eq(other))

    def __hash__(self) -> int:
        cls = self.__class__
        return hash((cls, *_spec(cls)[2](self)))
