"""What a value in a fight is, strictly: the one converter that reads a record back from its JSON shape and refuses
what JSON did not say.  The save files read their events and checkpoints through it (``saves.format`` builds each
system's converter on it), and the core checks with it that a GM adjustment read from a file left the combatant's
record as its fields declare (:func:`check_record`)."""

from __future__ import annotations

import collections.abc
import functools
import json
import math
import re
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any

import attrs
import cattrs


def strict_converter() -> cattrs.Converter:
    """A cattrs converter that refuses what JSON did not say: "7" is not 7, 1.5 is not 1, true is not 1, a text is
    not a list of letters, a key a class does not have is refused."""
    converter = cattrs.Converter(detailed_validation=False, forbid_extra_keys=True)

    def exact(kind: type, word: str) -> Callable[[Any, Any], Any]:
        def hook(value: Any, _type: Any) -> Any:
            if type(value) is not kind:
                raise TypeError(f"expected {word}, got {_kind(value)}")
            return value

        return hook

    def number(value: Any, _type: Any) -> float:
        if type(value) is int:
            return float(value)
        if type(value) is not float or not math.isfinite(value):
            raise TypeError(f"expected a number, got {_kind(value)}")
        return value

    converter.register_structure_hook(int, exact(int, "a whole number"))
    converter.register_structure_hook(str, exact(str, "a text"))
    converter.register_structure_hook(bool, exact(bool, "true or false"))
    converter.register_structure_hook(float, number)
    converter.register_unstructure_hook(float, finite)  # orjson would write NaN and Infinity as null
    converter.register_structure_hook_factory(lambda t: typing.get_origin(t) is tuple, _tuple_hook(converter))
    return converter


def finite(value: float) -> float:
    """A number JSON can hold, to be written (ValueError for NaN and the infinities)."""
    if not math.isfinite(value):
        raise ValueError(f"{value} is not a number a fight file can hold")
    return value


def _tuple_hook(converter: cattrs.Converter) -> Callable[[Any], Callable[[Any, Any], tuple[Any, ...]]]:
    """``tuple[X, ...]`` and ``tuple[X, Y]`` from a JSON list only (cattrs takes any iterable, a text too)."""

    def factory(t: Any) -> Callable[[Any, Any], tuple[Any, ...]]:
        args = typing.get_args(t)
        if len(args) == 2 and args[1] is Ellipsis:
            item, hook = args[0], converter.get_structure_hook(args[0])

            def many(value: Any, _type: Any) -> tuple[Any, ...]:
                if type(value) is not list:
                    raise TypeError(f"expected a list, got {_kind(value)}")
                return tuple([hook(x, item) for x in value])

            return many
        items = [(a, converter.get_structure_hook(a)) for a in args]

        def fixed(value: Any, _type: Any) -> tuple[Any, ...]:
            if type(value) is not list:
                raise TypeError(f"expected a list, got {_kind(value)}")
            if len(value) != len(items):
                raise ValueError(f"expected {len(items)} values, got {len(value)}")
            return tuple([hook(x, a) for (a, hook), x in zip(items, value, strict=True)])

        return fixed

    return factory


def _kind(value: Any) -> str:
    text = repr(value)
    return f"{type(value).__name__} {text if len(text) < 40 else text[:40] + '…'}"


@functools.cache
def checker() -> cattrs.Converter:
    """The strict converter (:func:`strict_converter`) the core and the plug-ins check values with, made at its
    first use (not at launch)."""
    return strict_converter()


def check_record(record: Any) -> None:
    """Raise ValueError unless ``record`` (an attrs record, a system's data) reads back from its JSON shape as it
    is: each field of the kind its annotation says ("lots" is no damage, a list no name), as a checkpoint of it
    would be read.  A hand-edited file can put any JSON in an ``adjusted`` line's value; the plug-in's ``adjust``
    sets it as given."""
    try:
        shape = json.loads(json.dumps(checker().unstructure(record), allow_nan=False))
        back = checker().structure(shape, type(record))
    except (TypeError, ValueError, KeyError, AttributeError, cattrs.BaseValidationError) as error:
        raise ValueError(f"it leaves {type(record).__name__} with a value of the wrong kind ({error})") from None
    if back != record:
        raise ValueError(f"it leaves {type(record).__name__} with a value that does not read back as it is")


_NEEDED: Any = object()  # (sheet_value: no default, the field must be there)


def sheet_value(sheet: Mapping[str, Any], name: str, kind: Any, default: Any = _NEEDED, *, null: bool = False) -> Any:
    """The value ``name`` of a sheet read from a fight file, of its JSON type exactly, nothing coerced (7.5, "7" or
    true is no whole number, 1 no flag): ``default`` when absent (KeyError without one), and when null if ``null``
    (a field the add form leaves empty); ValueError naming it when of another type.

    A plug-in's ``make_data`` reads its sheet with it: it reads every ``combatant_added`` line of a fight file,
    and a value edited by hand is refused at its line, not read as another (a DC of 13.7 was read as 13 and
    ``tracker check`` called the file good: tests/reliability/test_sheet_strict.py).  The GM's own sheets (the add
    form, a preset, a party) are parsed by the plug-in's ``check_sheet`` before they reach ``make_data``."""
    if name not in sheet or (null and sheet[name] is None):
        if default is _NEEDED:
            raise KeyError(name)
        return default
    try:
        return checker().structure(sheet[name], kind)
    except (TypeError, ValueError, KeyError, AttributeError, cattrs.BaseValidationError) as e:
        raise ValueError(f"the sheet's {name} is of the wrong kind ({e})") from None


_PLAIN = (int, str, bool, float, type(None))


def type_name(t: Any) -> str:
    """A field's type as its annotation says it (``int | str``, ``tuple[Roll, ...]``), without module paths."""
    if isinstance(t, type) and not typing.get_args(t):
        return t.__name__
    return re.sub(r"\b(?:[A-Za-z_]\w*\.)+(\w+)", r"\1", repr(t).replace("<class '", "").replace("'>", ""))


def unreadable(t: Any) -> str:
    """Why a value of type ``t`` written in a fight file cannot be read back by the strict converter (empty when
    it can): a union of more than one kind but None (``int | str``: the line does not say which), ``object``, a
    set, a dict whose keys are not texts, or a record with such a field.  What a fight file reads back: whole
    numbers, numbers, texts, flags, None, ``X | None``, tuples and lists of them, dicts with text keys, enums,
    literals, attrs records of them (and unions of attrs records), ``Any`` (a JSON value, as JSON gives it)."""
    return _unreadable(t, checker(), set())


def _unreadable(t: Any, converter: cattrs.Converter, seen: set[type]) -> str:
    if t in _PLAIN or t is Any:
        return ""
    origin, args = typing.get_origin(t), typing.get_args(t)
    if origin is typing.Union or origin is types.UnionType:
        kinds = [a for a in args if a is not type(None)]
        if len(kinds) == 1:
            return _unreadable(kinds[0], converter, seen)
        if not all(isinstance(a, type) and attrs.has(a) for a in kinds):
            return "a line says its value, not which of the types it is: use one type, or one type | None"
        for a in kinds:  # a union of records: each must read back, and cattrs must tell them apart (below)
            why = _unreadable(a, converter, seen)
            if why:
                return why
    elif origin in (tuple, list):
        for a in args:
            why = "" if a is Ellipsis else _unreadable(a, converter, seen)
            if why:
                return why
        return ""
    elif origin in (dict, collections.abc.Mapping) or t in (dict, collections.abc.Mapping):
        if args and args[0] is not str:
            return f"a fight file's keys are texts, not {type_name(args[0])}: key it by str"
        return _unreadable(args[1], converter, seen) if args else ""
    elif origin in (set, frozenset) or t in (set, frozenset):
        return "a fight file holds no sets: use a tuple"
    elif isinstance(t, type) and attrs.has(t):
        if t in seen:
            return ""
        seen.add(t)
        try:
            fields = attrs.fields(attrs.resolve_types(t))
        except Exception as e:  # a name in an annotation that the class's module does not define
            return f"the types of {t.__name__}'s fields cannot be resolved ({type(e).__name__}: {e})"
        for f in fields:
            why = _unreadable(f.type, converter, seen)
            if why:
                return f"{t.__name__}'s field {f.name} ({type_name(f.type)}): {why}"
        return ""
    try:
        converter.get_structure_hook(t)
    except Exception as e:  # object, a class of no known shape, records cattrs cannot tell apart
        said = str(e).split(". Register", 1)[0]
        return f"the fight file's reader has none for it ({said if len(said) < 100 else said[:100] + '…'})"
    return ""
