"""Fast, strict structuring of event records: one generated function per attrs class, once it is read often.

cattrs calls a hook per field; loading a long fight structures hundreds of
thousands of records, so the common field types (int, str, bool, float,
None-or-X, tuples of those, nested attrs classes, ``Any``, ``dict[str, Any]``)
are checked inline in a function generated from the class's own fields
(identifiers only, never data); pairs (``tuple[str, int]``) and unions of
records have functions of their own.  Anything else (other dicts, other
unions) goes through the strict cattrs converter, made (and cattrs imported)
only when such a type is first met.  The checks are as strict: no coercion, no
unknown keys (a pair must be a list, where cattrs also takes a text of two
letters: what ours refuses, the careful path reads).
Short texts (ids, dice expressions, tags) are interned, so a long log holds
one copy of each; so are small frozen records of plain values (a modifier, a
turn's start, a roll of the dice): once checked, an equal one read before is
given again (see ``Structurer._shareable``).
A class's first ``TIER`` records are read field by field, by the same checks
without compiling anything (opening a fight meets a few records of many
classes); then its generated function takes over (see ``Structurer._fn``).
"""

from __future__ import annotations

import math
import sys
import types
import typing
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import attrs

from tracker.model import twin
from tracker.record import is_record, resolved_fields

if TYPE_CHECKING:
    import cattrs

Hook = Callable[[Any, Any], Any]
_INTERN = 24
SHARED = 1024  # different records kept per class, to be given again when met again (Structurer._shareable)
SHARED_VALUES = 4096  # different values kept per field of an event read by its pieces (Structurer.splitter)
TIER = 32  # records of a class read field by field before its function is generated (see Structurer._fn)


def _s(v: Any) -> str:
    if type(v) is not str:
        raise TypeError(f"expected a text, got {type(v).__name__}")
    return sys.intern(v) if len(v) <= _INTERN else v


def _i(v: Any) -> int:
    if type(v) is not int:
        raise TypeError(f"expected a whole number, got {type(v).__name__}")
    return v


def _b(v: Any) -> bool:
    if type(v) is not bool:
        raise TypeError(f"expected true or false, got {type(v).__name__}")
    return v


def _f(v: Any) -> float:
    if type(v) is int:
        return float(v)
    if type(v) is not float or not math.isfinite(v):
        raise TypeError(f"expected a number, got {type(v).__name__}")
    return v


def _same(v: Any) -> Any:
    return v


def _key(k: Any) -> str:
    if type(k) is not str:
        text = repr(k)
        raise TypeError(f"expected a text, got {type(k).__name__} {text if len(text) < 40 else text[:40] + '…'}")
    return k


def _str_dict(v: Any) -> dict[str, Any]:
    """``dict[str, Any]`` as the strict converter structures it: a new dict, text keys, the values as they are."""
    return {_key(k): x for k, x in v.items()}


def _tuple_of(item: Callable[[Any], Any]) -> Callable[[Any], tuple[Any, ...]]:
    def hook(v: Any) -> tuple[Any, ...]:
        if type(v) is not list:
            raise TypeError(f"expected a list, got {type(v).__name__}")
        return tuple([item(x) for x in v])

    return hook


def _fixed_tuple(items: list[Callable[[Any], Any]]) -> Callable[[Any], tuple[Any, ...]]:
    """``tuple[str, int]``: a list of exactly that many values, each read as its type (cattrs also takes
    other sequences, such as a text for a pair of letters; a checkpoint writes lists, so only lists)."""
    n = len(items)

    def hook(v: Any) -> tuple[Any, ...]:
        if type(v) is not list:
            raise TypeError(f"expected a list, got {type(v).__name__}")
        if len(v) != n:
            raise ValueError(f"expected {n} values, got {len(v)}")
        return tuple([item(x) for item, x in zip(items, v, strict=True)])

    return hook


_PLAIN = frozenset({str, int, float, bool, type(None)})
_ALWAYS, _CHECK, _NEVER = 2, 1, 0
_kinds: dict[type, int] = {}


def _frozen_class(cls: type) -> bool:
    """A frozen attrs class (its records refuse to be changed)."""
    if not is_record(cls):
        return False
    fields = resolved_fields(cls)
    probe: Any = object.__new__(cls)
    try:
        setattr(probe, fields[0].name if fields else "_probe", None)
    except attrs.exceptions.FrozenInstanceError:
        return True
    except Exception:
        return False
    return False


def _kind_of_type(t: Any) -> int:
    """What a value of type ``t`` read from JSON can be: never changed (_ALWAYS), maybe a list or a dict
    (``Any``: _CHECK, look at the value), or changeable (_NEVER: a dict, a list, an unfrozen record)."""
    if t in _PLAIN or t is Any:
        return _ALWAYS if t is not Any else _CHECK
    origin = typing.get_origin(t)
    args = typing.get_args(t)
    if origin in (typing.Union, types.UnionType) or origin is tuple:
        return min((_kind_of_type(a) for a in args if a is not Ellipsis), default=_ALWAYS)
    if origin is typing.Literal:
        return _ALWAYS if all(type(a) in _PLAIN for a in args) else _NEVER
    if is_record(t):
        return _kind_of_class(t)
    return _NEVER


def _kind_of_class(cls: type) -> int:
    kind = _kinds.get(cls)
    if kind is None:
        _kinds[cls] = _CHECK  # a class that holds itself: its values are looked at
        try:
            fields = resolved_fields(cls)
            kind = min((_kind_of_type(f.type) for f in fields), default=_ALWAYS) if _frozen_class(cls) else _NEVER
        except Exception:
            kind = _NEVER
        _kinds[cls] = kind
    return kind


def unchangeable(value: Any) -> bool:
    """The value (as read from JSON and structured) can never change: plain values, tuples of them, frozen
    records of them; a list, a dict or a record that can be changed anywhere in it says no."""
    t = type(value)
    if t in _PLAIN:
        return True
    if t is tuple:
        return all(unchangeable(x) for x in value)
    if is_record(t):
        kind = _kind_of_class(t)
        if kind == _CHECK:
            return all(unchangeable(getattr(value, f.name)) for f in resolved_fields(t))
        return kind == _ALWAYS
    return False


def unchangeable_test(cls: type) -> Callable[[Any], bool]:
    """A test of whether a record of ``cls`` as read can never change (see :func:`unchangeable`): settled by
    the class's field types where they settle it, by looking at the values where a field is ``Any``."""
    kind = _kind_of_class(cls)
    if kind == _ALWAYS:
        return lambda _v: True
    if kind == _NEVER:
        return lambda _v: False
    return unchangeable


def _ints(v: Any) -> tuple[int, ...]:
    if type(v) is not list:
        raise TypeError(f"expected a list, got {type(v).__name__}")
    for x in v:
        if type(x) is not int:
            raise TypeError(f"expected whole numbers, got {type(x).__name__}")
    return tuple(v)


class Structurer:
    """Generated structure hooks for attrs classes, falling back to a strict cattrs converter.

    ``converter`` gives that converter (called when a type first needs it);
    ``overrides`` maps (class, field name) to the structure function of that field.
    """

    def __init__(
        self,
        converter: Callable[[], cattrs.Converter],
        overrides: Mapping[tuple[type, str], Callable[[Any], Any]] | None = None,
    ) -> None:
        self._converter = converter
        self._overrides = dict(overrides or {})
        self._hooks: dict[type, Callable[[Any], Any]] = {}  # what fn(cls) gives: read field by field, then generated
        self._made: dict[type, Callable[[Any], Any]] = {}  # the generated functions
        self._memos: dict[type, list[dict[Any, Any] | None]] = {}  # the records given again, per shared class

    @property
    def converter(self) -> cattrs.Converter:
        return self._converter()

    def hook(self, cls: type) -> Hook:
        fn = self._fn(cls)
        return lambda value, _type: fn(value)

    def fn(self, cls: type) -> Callable[[Any], Any]:
        """The structure function of ``cls``: its JSON object in, the record out (TypeError, KeyError...)."""
        return self._fn(cls)

    def _fn(self, cls: type) -> Callable[[Any], Any]:
        """Tiered: the first TIER records of a class are read field by field, by a function made of the fields'
        own (no code compiled: opening a fight reads one checkpoint and its last few events, and compiling the
        generated functions of the classes they hold was ~10 ms of the launch); then by the generated one,
        which a long load spends its time in.  Both are the same reading: the same checks in the same order,
        the same errors, the same records given again."""
        fn = self._hooks.get(cls)
        if fn is None:
            try:
                fn = self._tiered(cls)
            except Exception:  # an unusual class: cattrs does it (as strictly, more slowly)
                conv = self.converter
                fn = lambda v, _c=cls: conv.structure(v, _c)  # noqa: E731
            self._hooks[cls] = fn
        return fn

    def _made_fn(self, cls: type) -> Callable[[Any], Any]:
        """The generated function of ``cls``, made now if it is not yet; where none can be generated, the
        field-by-field reading, or cattrs' for an unusual class (never the tiered function: it would call
        itself)."""
        fn = self._made.get(cls)
        if fn is None:
            try:
                fn = self._generate(cls)
            except Exception:
                try:
                    fn = self._plain(cls)
                except Exception:
                    conv = self.converter
                    fn = lambda v, _c=cls: conv.structure(v, _c)  # noqa: E731
            self._made[cls] = fn
        return fn

    def _tiered(self, cls: type) -> Callable[[Any], Any]:
        plain = self._plain(cls)
        made = self._made
        calls = 0
        now: Callable[[Any], Any] | None = None

        def structure(d: Any) -> Any:
            nonlocal calls, now
            if now is not None:
                return now(d)
            fn = made.get(cls)  # generated already, as the field of a class generated before it
            if fn is None:
                calls += 1
                if calls <= TIER:
                    return plain(d)
                fn = self._made_fn(cls)
            now = self._hooks[cls] = fn
            return fn(d)

        return structure

    def _plain(self, cls: type) -> Callable[[Any], Any]:
        """``cls`` read field by field, exactly as its generated function reads it (see :meth:`_generate`)."""
        fields = self._plain_record(cls)
        unfrozen: Any = twin(cls)
        new: Any = object.__new__
        known = frozenset(f.name for f in fields)
        required = sum(1 for f in fields if f.default is attrs.NOTHING)
        nothing = attrs.NOTHING
        steps: list[tuple[str, Callable[[Any], Any], bool, Callable[[], Any] | None, Any]] = []
        for f in fields:
            check = self._overrides.get((cls, f.name)) or self._field(f.type)
            factory = f.default.factory if isinstance(f.default, attrs.Factory) else None  # type: ignore[arg-type]
            steps.append((f.name, check, f.default is nothing, factory, f.default))
        box = self._memos.setdefault(cls, [{}]) if self._shareable(cls, fields) else None

        def structure(d: Any) -> Any:
            if type(d) is not dict:
                raise TypeError(f"expected an object, got {type(d).__name__}")
            k = required
            values = []
            for name, check, needed, factory, default in steps:
                if needed:
                    v = check(d[name])
                else:
                    v = d.get(name, nothing)
                    if v is nothing:
                        v = factory() if factory is not None else default
                    else:
                        k += 1
                        v = check(v)
                values.append(v)
            if len(d) != k:
                raise KeyError(f"unknown field(s) {sorted(set(d) - known)[:3]}")
            memo = box[0] if box is not None else None
            if memo is not None:
                key = tuple(values)
                o = memo.get(key)
                if o is not None:
                    return o
            o = new(unfrozen)
            for (name, *_), v in zip(steps, values, strict=True):
                setattr(o, name, v)
            o.__class__ = cls
            if memo is not None:
                memo[key] = o
                if len(memo) >= SHARED:
                    box[0] = None  # type: ignore[index]
            return o

        return structure

    def _plain_record(self, cls: type) -> Any:
        """The fields of a class whose records are read field by field (by both tiers); TypeError if it is not
        one (validators, converters, a post-init, no slots, no unfrozen twin: cattrs reads it)."""
        fields = resolved_fields(cls)
        if any(f.validator or f.converter for f in fields) or hasattr(cls, "__attrs_post_init__"):
            raise TypeError("not a plain record")
        if not getattr(cls, "__slots__", None):
            raise TypeError("no slots")
        if twin(cls) is None:
            raise TypeError("no unfrozen twin")
        return fields

    def _field(self, t: Any, made: bool = False) -> Callable[[Any], Any]:
        """The structure function of a field of type ``t``; ``made``: records in it by their generated
        functions (for a generated function: the fields of a class read in bulk are read in bulk)."""
        if t is int:
            return _i
        if t is str:
            return _s
        if t is bool:
            return _b
        if t is float:
            return _f
        if t is Any:
            return _same
        origin = typing.get_origin(t)
        args = typing.get_args(t)
        if origin is dict and args == (str, Any):
            return _str_dict
        if origin in (typing.Union, types.UnionType) and len(args) == 2 and type(None) in args:
            inner = self._field(args[0] if args[1] is type(None) else args[1], made)
            return lambda v: None if v is None else inner(v)
        if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
            if args[0] is int:
                return _ints
            return _tuple_of(self._field(args[0], made))
        if origin is tuple and args and Ellipsis not in args:
            return _fixed_tuple([self._field(a, made) for a in args])
        if origin in (typing.Union, types.UnionType):
            records = tuple(a for a in args if a is not type(None))
            if all(is_record(a) for a in records):
                one = self._one_of(t, records, made)
                return one if len(records) == len(args) else (lambda v: None if v is None else one(v))
        if is_record(t):
            return self._made_fn(t) if made else self._fn(t)
        conv = self.converter
        return lambda v: conv.structure(v, t)

    def _one_of(self, t: Any, members: tuple[type, ...], made: bool = False) -> Callable[[Any], Any]:
        """A union of records (``AttackResolved | SkillRolled``): the one record the object reads as.

        cattrs picks the class by a required field only that class has, then reads the object as it.  When
        each class has such a field, an object that reads as one of them (every field it needs, no other)
        has that class's own field and none of the others': cattrs picks the same class.  One that reads
        as none is refused.  A union cattrs tells apart otherwise (a class without a field of its own) is
        left to cattrs."""
        for m in members:  # cattrs tells them apart by a field only one has, required: else it decides alone
            others = {f.name for o in members if o is not m for f in resolved_fields(o)}
            if not {f.name for f in resolved_fields(m) if f.default is attrs.NOTHING} - others:
                return lambda v: self.converter.structure(v, t)
        fns = [self._made_fn(m) if made else self._fn(m) for m in members]
        names = " or ".join(m.__name__ for m in members)

        def one_of(v: Any) -> Any:
            found = []
            for fn in fns:
                try:
                    found.append(fn(v))
                except Exception:
                    continue
            if len(found) == 1:
                return found[0]
            if not found:
                raise TypeError(f"expected a {names}")
            return self.converter.structure(v, t)

        return one_of

    def _generate(self, cls: type) -> Callable[[Any], Any]:
        fields = self._plain_record(cls)
        unfrozen = twin(cls)
        shared = self._shareable(cls, fields)
        ns: dict[str, Any] = {
            "cls": cls,
            "twin": unfrozen,
            "new": object.__new__,
            "known": frozenset(f.name for f in fields),
            "NOTHING": attrs.NOTHING,
            "intern": sys.intern,
            "_s": _s,
            "_i": _i,
            "_b": _b,
            "memo": self._memos.setdefault(cls, [{}])[0] if shared else None,  # the records the first tier gave
            "SHARED": SHARED,
        }
        # the record is filled as its unfrozen twin (plain slot stores) and made the record at the end;
        # the commonest checks are written out inline (no call per field), exactly as strict as the hooks
        required = sum(1 for f in fields if f.default is attrs.NOTHING)
        lines = [
            "def structure(d):",
            "    if type(d) is not dict:",
            "        raise TypeError(f'expected an object, got {type(d).__name__}')",
        ]
        if not shared:
            lines.append("    o = new(twin)")
        lines.append(f"    k = {required}")  # the fields found: any other key is one the record does not have
        for n, f in enumerate(fields):
            given = self._overrides.get((cls, f.name))
            if given is not None:
                ns[f"h{n}"] = given
                check = [f"v = h{n}(v)"]
            else:
                check = self._inline(f.type, n, ns)
            if f.default is attrs.NOTHING:
                lines.append(f"    v = d[{f.name!r}]")
                lines += [f"    {c}" for c in check]
            else:
                if isinstance(f.default, attrs.Factory):  # type: ignore[arg-type]
                    ns[f"f{n}"] = f.default.factory
                    missing = f"f{n}()"
                else:
                    ns[f"v{n}"] = f.default
                    missing = f"v{n}"
                lines.append(f"    v = d.get({f.name!r}, NOTHING)")
                lines.append("    if v is NOTHING:")
                lines.append(f"        v = {missing}")
                lines.append("    else:")
                lines.append("        k += 1")
                lines += [f"        {c}" for c in check]
            lines.append(f"    a{n} = v" if shared else f"    o.{f.name} = v")
        lines += [
            "    if len(d) != k:",
            "        raise KeyError(f'unknown field(s) {sorted(set(d) - known)[:3]}')",
        ]
        if shared:  # checked as strictly as any record; then the one record already made of these values
            names = [f.name for f in fields]
            # a class with more different records than SHARED (a round's start, a note) stops looking them up
            lines[1:1] = ["    global memo", "    m = memo"]
            lines += [
                "    if m is not None:",
                f"        key = ({''.join(f'a{n}, ' for n in range(len(names)))})",
                "        o = m.get(key)",
                "        if o is not None:",
                "            return o",
                "    o = new(twin)",
                *(f"    o.{name} = a{n}" for n, name in enumerate(names)),
                "    o.__class__ = cls",
                "    if m is not None:",
                "        m[key] = o",
                "        if len(m) >= SHARED:",
                "            memo = None",
                "    return o",
            ]
        else:
            lines += ["    o.__class__ = cls", "    return o"]
        exec("\n".join(lines), ns)  # generated from the class's own field names (identifiers), never from data
        fn: Callable[[Any], Any] = ns["structure"]
        return fn

    def splitter(self, cls: type) -> Callable[[bytes, Callable[[bytes], Any]], Any]:
        """A reader of ``cls`` from the bytes of its JSON object as written (every field, in the class's order,
        no spaces), value by value: ``read(text, loads)`` gives the record, or None when the text is not so.

        Each value's bytes are read (``loads``, then the field's structure function) once; the same bytes in
        the same field are the same value again (kept if it can never change).  Sound because the object is
        cut at the next field's ``,"name":``: a cut inside a value (a text, a nested record with a field of
        that name) leaves that piece unbalanced, never a JSON value of its own, and the caller reads the whole
        object when any piece does not read.  Every piece a JSON value, put back together they are the text:
        the object is valid JSON, with exactly these fields, each the value its piece reads as."""
        try:
            fields = resolved_fields(cls)
            if not fields or twin(cls) is None or any(f.validator or f.converter for f in fields):
                raise TypeError("not a plain record")
            if hasattr(cls, "__attrs_post_init__"):
                raise TypeError("not a plain record")
            fns = [self._overrides.get((cls, f.name)) or self._field(f.type) for f in fields]
        except Exception:
            return lambda _text, _loads: None
        names = [f.name for f in fields]
        unfrozen: Any = twin(cls)
        new: Any = object.__new__

        def make(*values: Any) -> Any:  # the first TIER records (see _fn); then the generated make, below
            o = new(unfrozen)
            for name, v in zip(names, values, strict=True):
                setattr(o, name, v)
            o.__class__ = cls
            return o

        def made() -> Callable[..., Any]:
            """The generated make, and the fields' generated functions: the class is read in bulk."""
            ns: dict[str, Any] = {"cls": cls, "twin": unfrozen, "new": new}
            lines = [f"def make({', '.join(f'v{n}' for n in range(len(names)))}):", "    o = new(twin)"]
            lines += [f"    o.{name} = v{n}" for n, name in enumerate(names)]
            lines += ["    o.__class__ = cls", "    return o"]
            exec("\n".join(lines), ns)  # generated from the class's own field names (identifiers), never from data
            fns[:] = [self._overrides.get((cls, f.name)) or self._field(f.type, made=True) for f in fields]
            return ns["make"]

        reads = 0
        first = b'{"' + names[0].encode() + b'":'
        cuts = [b',"' + name.encode() + b'":' for name in names[1:]]
        kept: list[dict[bytes, Any]] = [{} for _ in names]
        last = len(names) - 1
        missing = object()

        def read(text: bytes, loads: Callable[[bytes], Any]) -> Any:
            nonlocal reads, make
            if not text.startswith(first) or text[-1:] != b"}":
                return None
            if reads <= TIER:
                reads += 1
                if reads > TIER:
                    make = made()
            pos = len(first)
            values = []
            for n, fn in enumerate(fns):
                if n < last:
                    cut = cuts[n]
                    end = text.find(cut, pos)
                    if end < 0:
                        return None
                    piece = text[pos:end]
                    pos = end + len(cut)
                else:
                    piece = text[pos:-1]
                memo = kept[n]
                v = memo.get(piece, missing)
                if v is missing:
                    try:
                        v = fn(loads(piece))
                    except Exception:
                        return None
                    if len(memo) < SHARED_VALUES and unchangeable(v):
                        memo[piece] = v
                values.append(v)
            return make(*values)

        return read

    def _shareable(self, cls: type, fields: Any) -> bool:
        """A frozen record of texts, whole numbers, flags (each maybe None) and tuples of whole numbers, none read
        by an override: equal ones may be one object (a long log holds tens of thousands of the same modifier, the
        same turn's start, the same roll of the dice)."""
        if not fields or any(self._overrides.get((cls, f.name)) for f in fields):
            return False
        for f in fields:
            t = f.type
            if typing.get_origin(t) in (typing.Union, types.UnionType):
                args = typing.get_args(t)
                if len(args) != 2 or type(None) not in args:
                    return False
                t = args[0] if args[1] is type(None) else args[1]
            if isinstance(f.default, attrs.Factory):  # type: ignore[arg-type]
                return False
            if t not in (int, str, bool) and not (typing.get_origin(t) is tuple and typing.get_args(t) == (int, ...)):
                return False
        probe: Any = object.__new__(cls)
        try:
            setattr(probe, fields[0].name, None)
        except attrs.exceptions.FrozenInstanceError:
            return True
        except Exception:  # a class of its own making: not shared
            return False
        return False  # not frozen: a record someone may change is never given twice

    def _inline(self, t: Any, n: int, ns: dict[str, Any]) -> list[str]:
        """Statements that check (and, for a text, intern) ``v`` as a field of type ``t``."""
        if t is int:
            return ["if type(v) is not int: _i(v)"]
        if t is bool:
            return ["if type(v) is not bool: _b(v)"]
        if t is str:
            return ["if type(v) is not str: _s(v)", f"if len(v) <= {_INTERN}: v = intern(v)"]
        origin = typing.get_origin(t)
        args = typing.get_args(t)
        if origin in (typing.Union, types.UnionType) and len(args) == 2 and type(None) in args:
            inner = args[0] if args[1] is type(None) else args[1]
            if inner in (int, bool, str):
                return ["if v is not None:", *(f"    {c}" for c in self._inline(inner, n, ns))]
        ns[f"h{n}"] = self._field(t, made=True)
        return [f"v = h{n}(v)"]
