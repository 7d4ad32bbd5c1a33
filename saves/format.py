"""Line format of a fight log, with cattrs and explicit, stable type tags.

Line 1, the header::

    {"format": 2, "system": "bnb", "system_version": "1.0", "created": "...", "seed": 42, "title": "", "parent": null, "crc": "1c291ca3"}

Every further line, one event::

    {"seq": 7, "action": 3, "of": 2, "type": "bnb.attack_rolled", "v": 1, "event": {...fields}, "crc": "…"}

or a checkpoint (a cache of the folded state, see ``saves.checkpoint``)::

    {"checkpoint": {...}, "crc": "…"}

``of`` counts the events of the GM action the line belongs to, so an action
cut short by a power failure is recognised as torn, not taken half.  ``crc``
(format 2 on) is the CRC-32 of the line without it (``…}`` in place of
``,"crc":"…"}``), in eight lowercase hex digits: silent damage is caught
before anything is decoded.  Decoding is strict: no type coercion, no NaN or
Infinity, no unknown fields, and every refusal names the line.

Older formats are upgraded on load step by step (``MIGRATIONS``); events of an
older ``v`` are upcast by the owner's upcasters before cattrs structures them.
Nothing here evaluates or unpickles anything.
"""

from __future__ import annotations

import functools
import json
import math
import re
import sys
import zlib
from collections.abc import Callable
from functools import cached_property
from typing import TYPE_CHECKING, Any

import attrs

from tracker.engine import Entry
from tracker.errors import TrackerError
from tracker.events import CORE_EVENTS, Event
from tracker.plugin import System
from tracker.record import Record, record

if TYPE_CHECKING:
    import cattrs

DEEPEST = 10_000  # brackets one inside another in a line: deeper is refused before any parser sees it
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)  # a JSON text's string (brackets inside do not nest)
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


def too_deep(data: bytes) -> bool:
    """More than DEEPEST brackets one inside another, outside strings.  A line of fewer bytes or brackets than
    that cannot be (the common case costs a length check); orjson 3.8 crashes the whole process (a segmentation
    fault, no exception) on some 200,000 levels, which a crafted line of under 1 MB reaches."""
    if len(data) <= DEEPEST or data.count(b"[") + data.count(b"{") <= DEEPEST:
        return False
    depth = deepest = 0
    for b in _STRING.sub(b'""', data).translate(None, _NOT_BRACKETS):
        if b == 91 or b == 123:  # [ {
            depth += 1
            if depth > deepest:
                deepest = depth
        else:
            depth -= 1
    return deepest > DEEPEST


# Two parsers with one verdict.  orjson reads a whole log (fast, and strict: no NaN, no Infinity, no lone
# surrogate), but importing it costs the app's launch about 3 ms (it brings zoneinfo and sysconfig; datetime and
# uuid Textual imports anyway), while opening a fight reads only its header, its last checkpoint and its tail.  So ``parse`` reads a line with the
# standard library's json first, under hooks that refuse everything orjson reads differently or refuses (an int
# outside 64 bits, which orjson makes a float; a number too large for a float; NaN and Infinity; a \uD8.. escape,
# the only way to a lone surrogate; bytes that are not UTF-8), and hands anything refused to orjson, whose value
# or error it then gives.  A line json takes is one orjson reads to the same value (a property test checks it).
_ParseErrors: tuple[type[BaseException], ...] = (ValueError, TypeError, RecursionError)  # orjson's is a ValueError
_INT_MIN, _INT_MAX = -(1 << 63), (1 << 64) - 1  # what orjson reads as an int


class _Unsure(Exception):
    """Raised by the json hooks: orjson gives the verdict on this line."""


def _int_as_orjson(text: str) -> int:
    value = int(text)
    if not _INT_MIN <= value <= _INT_MAX:
        raise _Unsure
    return value


def _float_as_orjson(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Unsure
    return value


def _unsure(_text: str) -> Any:
    raise _Unsure


_decode_json = json.JSONDecoder(parse_int=_int_as_orjson, parse_float=_float_as_orjson, parse_constant=_unsure).decode


@functools.cache
def bulk_loads() -> Callable[[bytes], Any]:
    """orjson's ``loads`` behind the nesting check (orjson imported on the first call): for reading many lines."""
    import orjson

    orjson_loads = orjson.loads

    def loads(data: bytes) -> Any:
        if too_deep(data):
            raise ValueError(f"nested more than {DEEPEST:,} deep")
        return orjson_loads(data)

    return loads


def quick_loads(data: bytes) -> Any:
    """The value ``bulk_loads()`` gives (or its error) for one line, without importing orjson when json suffices."""
    if b"\\ud" not in data and b"\\uD" not in data:
        try:
            return _decode_json(data.decode())
        except (_Unsure, ValueError, RecursionError):
            pass
    return bulk_loads()(data)


FORMAT_VERSION = 2
MAX_LINE = 1 << 20  # bytes in one line (a header, an event or a checkpoint)
MAX_FILE = 1 << 30  # bytes in one fight file
SEED_MAX = 1 << 63
_CRC_TAIL = len(b',"crc":"00000000"}')


class SaveError(TrackerError):
    """Writing the fight log failed."""


class LoadError(TrackerError):
    """A fight log that cannot be read; the message names the line."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(f"line {line}: {message}" if line else message)
        self.line = line


# -- the checksum ----------------------------------------------------------------


def seal(body: str) -> str:
    """A JSON object's text with its checksum added (the line as written, without the newline)."""
    crc = zlib.crc32(body.encode("utf-8"))
    return f'{body[:-1]},"crc":"{crc:08x}"}}'


# An event line exactly as ``Codec.encode`` writes it, ``json.dumps`` without spaces, the keys in this order:
#   {"seq":7,"action":3,"of":2,"type":"bnb.attack_rolled","v":1,"event":{...},"crc":"0123abcd"}
# EVENT_HEAD reads its start (seq, action and of as written: no sign, no leading zero; their digits, at most
# HEAD_END - 32 together, in the range of any JSON parser here); EVENT_REST what follows up to the checksum
# (type, v, the event's fields: the same bytes say the same event).  Such a line is valid JSON exactly when
# its event's fields are a valid JSON object on their own, nested less deeply than the parser's limit: the
# load loop reads an event met before by these bytes alone (see ``saves.store._decode``).
EVENT_HEAD = re.compile(rb'\{"seq":([1-9][0-9]*),"action":([1-9][0-9]*),"of":([1-9][0-9]*),"type":"')
HEAD_END = 32 + 18
EVENT_REST = re.compile(rb'"type":"([a-z0-9_.]{1,80})","v":([1-9][0-9]{0,8}),"event":(?=\{)', re.DOTALL)
CRC_AT = b',"crc":"'  # where a line's checksum starts, 18 bytes before its end
NESTING = 512  # brackets in an event's fields read alone: deeper ones are read in their line (a parser may
# refuse deep nesting, the stdlib's at Python's recursion limit, and the line is one level deeper)


class Damaged(Exception):
    """A line whose checksum does not match (or that has none where one is due)."""


def unseal(line: bytes) -> bytes | None:
    """The line without its checksum, checked; None when the line has no checksum.

    Raises :class:`Damaged` when the checksum is there and wrong.
    """
    if len(line) < _CRC_TAIL + 2 or line[-_CRC_TAIL:-10] != b',"crc":"' or line[-2:] != b'"}':
        return None
    body = line[:-_CRC_TAIL] + b"}"
    try:
        want = int(line[-10:-2], 16)
    except ValueError:
        raise Damaged("its checksum is not a number") from None
    if line[-10:-2] != f"{want:08x}".encode() or zlib.crc32(body) != want:
        raise Damaged("its checksum does not match its content (the line was changed or damaged)")
    return body


def parse(data: bytes) -> Any:
    """Strict JSON (no NaN, no Infinity, bounded nesting); ValueError with the reason."""
    try:
        return quick_loads(data)
    except _ParseErrors as e:
        raise ValueError(_short(e)) from None


def _short(e: BaseException) -> str:
    if isinstance(e, json.JSONDecodeError):
        return f"{e.msg} at column {e.colno}"
    text = str(e) or type(e).__name__
    return text if len(text) < 120 else text[:120] + "…"


# -- the header ------------------------------------------------------------------


@record(kw_only=True, repr=False, eq=False)
class Header(Record):
    format: int = FORMAT_VERSION
    system: str
    system_version: str = ""
    created: str = ""
    seed: int | None = None
    title: str = ""
    parent: str | None = None  # the file this one continues, if any


_HEADER_TYPES: dict[str, tuple[type, ...]] = {
    "format": (int,),
    "system": (str,),
    "system_version": (str,),
    "created": (str,),
    "seed": (int, type(None)),
    "title": (str,),
    "parent": (str, type(None)),
}
_HEADER_MAX = {"system": 64, "system_version": 64, "created": 64, "title": 400, "parent": 4096}


def header_to_json(header: Header) -> str:
    return json.dumps(attrs.asdict(header), separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def header_line(header: Header) -> str:
    return seal(header_to_json(header))


def header_from(raw: Any) -> Header:
    """A header from its JSON object, strictly: known fields of the right types and sane sizes."""
    if type(raw) is not dict:
        raise LoadError("the header is not a JSON object", 1)
    for key, value in raw.items():
        kinds = _HEADER_TYPES.get(key)
        if kinds is None:
            raise LoadError(f"the header has an unknown field {key!r}", 1)
        if type(value) not in kinds:
            raise LoadError(f"the header's {key!r} has the wrong type ({type(value).__name__})", 1)
        if isinstance(value, str) and len(value) > _HEADER_MAX[key]:
            raise LoadError(f"the header's {key!r} is too long", 1)
    seed = raw.get("seed")
    if isinstance(seed, int) and not -SEED_MAX < seed < SEED_MAX:
        raise LoadError("the header's seed is out of range", 1)
    if "system" not in raw:
        raise LoadError("the header is incomplete: it names no system", 1)
    return Header(**raw)


# -- format migrations: raw header dict and raw record dicts of version N -> N+1 ---------------

Migration = Callable[[dict[str, Any], list[dict[str, Any]]], tuple[dict[str, Any], list[dict[str, Any]]]]
MIGRATIONS: dict[int, Migration] = {
    # version 0 (early prototype) named the action "act" and had no "v"
    0: lambda header, records: (
        {**header, "format": 1},
        [
            {**{k: v for k, v in r.items() if k != "act"}, "action": r.get("act", r.get("action")), "v": r.get("v", 1)}
            for r in records
        ],
    ),
    # version 1 had no checksums (lines are read as they are) and no checkpoints
    1: lambda header, records: ({**header, "format": 2}, records),
}


def upgrade(header: dict[str, Any], records: list[dict[str, Any]]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    version = header.get("format")
    if type(version) is not int:
        raise LoadError("the header has no format version", 1)
    if version > FORMAT_VERSION:
        raise LoadError(
            f"this fight was saved by a newer tracker (format {version}; this one reads up to {FORMAT_VERSION}): "
            "upgrade the tracker to open it",
            1,
        )
    while version < FORMAT_VERSION:
        step = MIGRATIONS.get(version)
        if step is None:
            raise LoadError(f"format {version} is too old to upgrade", 1)
        header, records = step(header, records)
        version = header["format"]
    return header, records


# -- events ----------------------------------------------------------------------------

_codecs: dict[tuple[int, str, str], Codec] = {}


def codec_for(system: System) -> Codec:
    """The codec of a system, built once, when first needed (building the cattrs hooks takes a while)."""
    key = (id(system), system.id, system.version)
    codec = _codecs.get(key)
    if codec is None or codec.system is not system:
        codec = _codecs[key] = Codec(system)
    return codec


RECORD_KEYS = frozenset({"seq", "action", "of", "type", "v", "event"})


class Codec:
    """Encodes and decodes events of the core and one system (strictly: no coercion, no unknown fields)."""

    def __init__(self, system: System) -> None:
        self.system = system
        self.types: dict[str, type[Event]] = {}
        for cls in (*CORE_EVENTS, *system.event_types):
            if not cls.TYPE:
                raise TrackerError(f"event class {cls.__name__} has no TYPE tag")
            if cls.TYPE in self.types:
                raise TrackerError(f"two event classes share the tag {cls.TYPE!r}")
            self.types[cls.TYPE] = cls
        from saves.structure import Structurer, unchangeable_test

        # hooks are made when a type is first met (opening from a checkpoint meets few)
        fast = Structurer(lambda: self.converter)
        types = self.types
        self._structure = _Lazy(lambda tag: fast.hook(types[tag]))
        self.structure_fns = _Lazy(lambda tag: fast.fn(types[tag]))  # tag -> structure(fields) (the load loop)
        self.split_fns = _Lazy(lambda tag: fast.splitter(types[tag]))  # tag -> read(fields' bytes, loads) or None
        # tag -> whether an event as read can never change (then one read may stand for the same bytes again)
        self.unchangeable = _Lazy(lambda tag: unchangeable_test(types[tag]))
        self.versions = {t: c.VERSION for t, c in self.types.items()}
        self._unstructure = _Lazy(lambda cls: self.converter.get_unstructure_hook(cls))
        self.upcasters = dict(getattr(system, "upcasters", {}) or {})

    @cached_property
    def converter(self) -> cattrs.Converter:
        """The strict converter, made when first needed: writing, or a type the generated functions leave to it
        (opening a fight from its checkpoint needs none, nor cattrs)."""
        return strict_converter()

    def body(self, entry: Entry, of: int = 1) -> str:
        ev = entry.event
        cls = type(ev)
        record = {
            "seq": entry.seq,
            "action": entry.action,
            "of": of,
            "type": cls.TYPE,
            "v": cls.VERSION,
            "event": self._unstructure[cls](ev),
        }
        return json.dumps(record, separators=(",", ":"), ensure_ascii=False, allow_nan=False)

    def encode(self, entry: Entry, of: int = 1) -> str:
        """One line, sealed with its checksum; ``of`` is the number of events in the entry's action."""
        return seal(self.body(entry, of))

    def decode(self, record: Any, line: int) -> Entry:
        """An entry from one parsed line (its checksum already checked), strictly; LoadError names the line."""
        if type(record) is not dict:
            raise LoadError("not an event record", line)
        if "crc" in record:  # checked on the bytes by decode_line; a parsed record cannot be
            record = {k: v for k, v in record.items() if k != "crc"}
        extra = record.keys() - RECORD_KEYS
        if extra:
            raise LoadError(f"unknown field {sorted(extra)[0]!r} in the record", line)
        try:
            seq, action, tag, data = record["seq"], record["action"], record["type"], record["event"]
        except KeyError as e:
            raise LoadError(f"the record lacks {e.args[0]!r}", line) from None
        of = record.get("of", 1)
        if type(seq) is not int or type(action) is not int or type(of) is not int:
            raise LoadError("seq, action and of must be whole numbers", line)
        if seq < 1 or action < 1 or of < 1:
            raise LoadError("seq, action and of must be positive", line)
        if type(tag) is not str:
            raise LoadError("the event type must be a text", line)
        if tag not in self.types:
            raise LoadError(f"unknown event type {tag[:80]!r} (is the right system installed?)", line)
        hook = self._structure[tag]
        cls = self.types[tag]
        version = record.get("v", 1)
        if type(version) is not int or version > cls.VERSION or version < 1:
            raise LoadError(f"event {tag!r} version {version!r} is not one this tracker knows", line)
        if type(data) is not dict:
            raise LoadError(f"event {tag!r} is damaged: its fields are not a JSON object", line)
        while version < cls.VERSION:
            up = self.upcasters.get((tag, version))
            if up is None:
                raise LoadError(f"no upcaster for {tag!r} version {version}", line)
            try:
                data = up(data)
            except Exception as e:
                raise LoadError(f"event {tag!r} could not be upgraded: {_explain(e)}", line) from None
            version += 1
        try:
            event = hook(data, cls)
        except Exception as e:
            raise LoadError(f"event {tag!r} is damaged: {_explain(e)}", line) from None
        return Entry(seq, action, event)

    def decode_line(self, raw: bytes, line: int, *, sealed: bool = True) -> Entry | None:
        """One line as read from the file: checksum checked, parsed, decoded (None for a checkpoint line).

        For a reader that follows a live file line by line (LoadError names the line).
        """
        if len(raw) > MAX_LINE:
            raise LoadError("the line is too long", line)
        try:
            body = unseal(raw)
        except Damaged as e:
            raise LoadError(str(e), line) from None
        if body is None:
            if sealed:
                raise LoadError("the line has no checksum", line)
            body = raw
        try:
            record = parse(body)
        except ValueError as e:
            raise LoadError(f"not valid JSON ({e})", line) from None
        if type(record) is dict and "checkpoint" in record:
            return None
        return self.decode(record, line)


class _Lazy(dict):
    """A dict that makes a missing value with ``make(key)`` (and keeps it)."""

    def __init__(self, make: Callable[[Any], Any]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, key: Any) -> Any:
        value = self[key] = self.make(key)
        return value


def strict_converter() -> cattrs.Converter:
    """A cattrs converter that refuses what JSON did not say: "7" is not 7, 1.5 is not 1, NaN is nothing."""
    import cattrs

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
    _fast_tuples(converter)
    return converter


def _kind(value: Any) -> str:
    text = repr(value)
    return f"{type(value).__name__} {text if len(text) < 40 else text[:40] + '…'}"


def _fast_tuples(converter: cattrs.Converter) -> None:
    """Quicker hooks for the homogeneous tuples events are full of (faces, ids), as strict as the rest."""

    def strict(kind: type) -> Callable[[Any, Any], tuple[Any, ...]]:
        def hook(value: Any, _type: Any) -> tuple[Any, ...]:
            if type(value) is not list:
                raise ValueError(f"expected a list, got {type(value).__name__}")
            for x in value:
                if type(x) is not kind:
                    raise ValueError(f"expected {kind.__name__} items, got {_kind(x)}")
            return tuple(value)

        return hook

    hooks = {tuple[int, ...]: strict(int), tuple[str, ...]: strict(str)}
    converter.register_structure_hook_func(lambda t: t in hooks, lambda v, t: hooks[t](v, t))


def _explain(e: Exception) -> str:
    ca = sys.modules.get("cattrs")  # not imported yet: the error is none of its
    if ca is not None and isinstance(e, ca.BaseValidationError):
        try:
            parts = ca.transform_error(e)
        except Exception:
            parts = [str(e)]
        return "; ".join(p[:120] for p in parts[:3])
    return f"{type(e).__name__}: {_short(e)}"
