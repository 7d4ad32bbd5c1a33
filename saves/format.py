"""Line format of a fight log: orjson reads and writes its lines, one strict cattrs converter per system its
events (a union tagged by their stable ``TYPE``) and its checkpoints' state.

Line 1, the header::

    {"format": 2, "system": "bnb", "system_version": "1.0", "created": "...", "seed": 42, "title": "", "parent": null, "crc": "1c291ca3"}

Every further line, one event::

    {"seq": 7, "action": 3, "of": 2, "type": "bnb.attack_rolled", "v": 1, "event": {...fields}, "crc": "…"}

or a checkpoint (a cache of the folded state, see ``saves.checkpoint``)::

    {"checkpoint": {...}, "crc": "…"}

``of`` counts the events of the GM action the line belongs to, so an action
cut short by a power failure is recognised as torn, not taken half.  ``crc``
(format 2 on) is the CRC-32 of the line without it (``…}`` in place of
``,"crc":"…"}``), written and read as eight lowercase hex digits: silent
damage is caught before anything is decoded.  Decoding is strict: no type
coercion, no NaN or Infinity, no int past 64 bits, no unknown fields, and
every refusal names the line.

Older formats are upgraded on load step by step (``MIGRATIONS``); events of an
older ``v`` are upcast by the owner's upcasters before cattrs structures them.
Nothing here evaluates or unpickles anything.
"""

from __future__ import annotations

import re
import types
import typing
import zlib
from collections.abc import Callable
from typing import Any

import attrs
import cattrs
import orjson
from cattrs.gen import make_dict_structure_fn, override

from tracker.errors import TrackerError
from tracker.events import CORE_EVENTS, CORE_UPCASTERS, Event
from tracker.log import Entry
from tracker.model import Combatant, FightState
from tracker.plugin import System
from tracker.shapes import strict_converter, type_name

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


class NewerVersion(LoadError):
    """A line written whole (its checksum good) by a newer version of the tracker or of the fight's system: an
    event this one does not know, or a later version of one. Not damage: it was called "damaged", and the app
    offered to go on from before it in a new file, leaving out everything from there on."""


# -- the checksum ----------------------------------------------------------------


def seal(body: str) -> str:
    """A JSON object's text with its checksum added (the line as written, without the newline)."""
    crc = zlib.crc32(body.encode("utf-8"))
    return f'{body[:-1]},"crc":"{crc:08x}"}}'


class Damaged(Exception):
    """A line whose checksum does not match (or that has none where one is due)."""


def unseal(line: bytes) -> bytes | None:
    """The line without its checksum, checked; None when the line has no checksum.

    Raises :class:`Damaged` when the checksum is there and wrong.
    """
    if len(line) < _CRC_TAIL + 2 or line[-_CRC_TAIL:-10] != b',"crc":"' or line[-2:] != b'"}':
        return None
    body = line[:-_CRC_TAIL] + b"}"
    if line[-10:-2] != b"%08x" % zlib.crc32(body):  # as written: eight lowercase hex digits
        if line[-10:-2].strip(b"0123456789abcdefABCDEF"):
            raise Damaged("its checksum is not a number")
        raise Damaged("its checksum does not match its content (the line was changed or damaged)")
    return body


def parse(data: bytes) -> Any:
    """Strict JSON, by orjson (no NaN, no Infinity, no lone surrogate; an int past 64 bits reads as a float, which
    no whole-number field takes), nested at most DEEPEST deep; ValueError with the reason."""
    if too_deep(data):
        raise ValueError(f"nested more than {DEEPEST:,} deep")
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError as e:
        raise ValueError(_short(e)) from None


def _short(e: BaseException) -> str:
    if isinstance(e, orjson.JSONDecodeError):
        return f"{e.msg} at column {e.colno}"
    text = str(e) or type(e).__name__
    return text if len(text) < 120 else text[:120] + "…"


# -- the header ------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class Header:
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
    return orjson.dumps(attrs.asdict(header)).decode()


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


# -- events and states: one strict cattrs converter per system ------------------------------------------------

TAG = "type"  # the key that names an event's class, beside its fields ("event") in a line
RECORD_KEYS = frozenset({"seq", "action", "of", TAG, "v", "event"})


def system_converter(system: System, events: tuple[type[Event], ...]) -> cattrs.Converter:
    """The one converter of a system's fight log: its events as a union tagged by their ``TYPE`` (the tags
    already written in files, never changed), and its fight state with the system's data classes (the
    return types of its ``make_data`` and ``initial_data``) in the ``data`` fields, for checkpoints.  Made
    once the plug-in is loaded: the union is of the classes it declares."""
    converter = strict_converter()
    for owner, method in ((Combatant, "make_data"), (FightState, "initial_data")):
        data = _return_type(system, method)
        converter.register_structure_hook(
            owner, make_dict_structure_fn(owner, converter, data=override(struct_hook=_data_hook(converter, data)))
        )
    _tagged_union(converter, events)
    return converter


def _tagged_union(converter: cattrs.Converter, events: tuple[type[Event], ...]) -> None:
    """The events as one union tagged by their TYPE under TAG, as cattrs's ``configure_tagged_union`` makes it,
    but each class's hooks made when the class is first met, not all at once.

    Figure 2 of bench/bench_speed.py ("2. open a 100,000-event fight: launch to first frame", <= 1.5x the bare
    app, 1.28x before #43) misses with ``configure_tagged_union``: it makes the hooks of every event class of the
    system (40 to 60) as the fight opens, which meets a dozen of them in the tail after its checkpoint.  Opening
    bnb's fight from its checkpoint took 30 ms of CPU with it, 18 ms without (twod6: 30 and 19); the process to
    that point 156 ms and 138 ms, +68 ms and +40 ms over the launch before #43 (~231 ms, the bare app ~181 ms).
    """
    union: Any = typing.Union[events]  # noqa: UP007 -- a union of the classes in a tuple
    classes = {_tag(cls): cls for cls in events}

    def structure(value: dict[str, Any], _type: Any) -> Event:
        fields = dict(value)
        event: Event = converter.structure(fields, classes[fields.pop(TAG)])
        return event

    def unstructure(event: Event) -> dict[str, Any]:
        fields: dict[str, Any] = converter.unstructure(event)
        if TAG in fields:
            raise TrackerError(f"event class {type(event).__name__} has a field named {TAG!r}, the key of its tag")
        fields[TAG] = _tag(type(event))
        return fields

    converter.register_structure_hook(union, structure)
    converter.register_unstructure_hook(union, unstructure)


def _tag(cls: Any) -> str:
    """An event class's tag: its ``TYPE``, as written in files (never changed)."""
    tag: str = cls.TYPE
    return tag


def _data_hook(converter: cattrs.Converter, cls: type | None) -> Callable[[Any, Any], Any]:
    """A state's ``data`` field: None, or the system's record (only None when the system has no class)."""
    if cls is None:

        def none_only(value: Any, _type: Any) -> None:
            if value is not None:
                raise TypeError("expected no data")

        return none_only

    def record(value: Any, _type: Any) -> Any:
        return None if value is None else converter.structure(value, cls)

    return record


def _return_type(system: System, method: str) -> type | None:
    fn = getattr(type(system), method, None)
    if fn is None:
        return None
    try:
        hints = typing.get_type_hints(fn)
    except Exception:
        return None
    t = hints.get("return")
    return t if isinstance(t, type) and t is not type(None) and t is not object else None


_codecs: dict[tuple[int, str, str], Codec] = {}


def codec_for(system: System) -> Codec:
    """The codec of a system, made once (after its plug-in is loaded)."""
    key = (id(system), system.id, system.version)
    codec = _codecs.get(key)
    if codec is None or codec.system is not system:
        codec = _codecs[key] = Codec(system)
    return codec


class Codec:
    """Encodes and decodes the events of the core and one system, strictly (no coercion, no unknown fields)."""

    def __init__(self, system: System) -> None:
        self.system = system
        self.types: dict[str, type[Event]] = {}
        for cls in (*CORE_EVENTS, *system.event_types):
            if not cls.TYPE:
                raise TrackerError(f"event class {cls.__name__} has no TYPE tag")
            if cls.TYPE in self.types:
                raise TrackerError(f"two event classes share the tag {cls.TYPE!r}")
            self.types[cls.TYPE] = cls
        self.versions = {t: c.VERSION for t, c in self.types.items()}
        self.upcasters = {**CORE_UPCASTERS, **(getattr(system, "upcasters", {}) or {})}
        self.events: Any = typing.Union[tuple(self.types.values())]  # noqa: UP007
        self.converter = system_converter(system, tuple(self.types.values()))
        self._structure = self.converter.get_structure_hook(self.events)

    def body(self, entry: Entry, of: int = 1, *, read_back: bool = True) -> str:
        """The line's JSON without its checksum; ``read_back``: check it reads back (``_reads_back``)."""
        fields = self.converter.unstructure(entry.event, self.events)
        record = {
            "seq": entry.seq,
            "action": entry.action,
            "of": of,
            TAG: fields.pop(TAG),
            "v": type(entry.event).VERSION,
            "event": fields,
        }
        try:
            line = orjson.dumps(record)
        except orjson.JSONEncodeError as e:  # (a whole number past 64 bits: the file could not be read again)
            raise SaveError(
                f"{type(entry.event).__name__}: a value cannot be saved ({e}); the action was not taken"
            ) from None
        if read_back:
            self._reads_back(entry.event, line)
        return line.decode()

    def _reads_back(self, event: Event, line: bytes) -> None:
        """Raise SaveError unless the line written for ``event`` reads back to it (or to an event that writes the
        same line: a list where the class says tuple reads back as the tuple).

        An event field typed ``int | str`` (or ``object``) was written, shown as done, and the fight could not be
        opened again from that line on ("damaged at line N"): every action from there was lost.  The registry
        refuses such a type in a plug-in it checks whole (``tracker.plugin_check``); this is the last guard, for
        a value of a type its field does not say (a text in an ``int`` field).  It costs a decode of each event
        written: about 30 us for an attack (test_reading_each_line_back_costs_well_under_a_millisecond).

        Ruling: an event that reads back unequal but writes the same line again (a list in a field declared
        ``tuple[str, ...]`` reads back as the tuple) is written: the file keeps all it said, and refusing it
        would refuse an action the file holds whole
        (test_a_list_where_the_class_says_tuple_is_written_and_reads_back)."""
        fields = orjson.loads(line)["event"]
        try:
            back = self._structure({**fields, TAG: event.TYPE}, self.events)
        except Exception as e:
            why = explain(e)
        else:
            if back == event or orjson.dumps(self.converter.unstructure(back, self.events)) == orjson.dumps(
                {**fields, TAG: event.TYPE}
            ):
                return
            why = "it reads back as another value"
        raise SaveError(
            f"{type(event).__name__}: a value cannot be read back from a fight file ({why}); the action was not taken"
        )

    def encode(self, entry: Entry, of: int = 1, *, read_back: bool = True) -> str:
        """One line, sealed with its checksum; ``of`` is the number of events in the entry's action.
        ``read_back=False`` for events already read from a fight file or written to one (each was read back
        then): a continuation of 100,000 events saves about 2.7 s."""
        return seal(self.body(entry, of, read_back=read_back))

    def decode(self, record: Any, line: int, seen: dict[bytes, Event] | None = None, key: bytes = b"") -> Entry:
        """An entry from one parsed line (its checksum already checked), strictly; LoadError names the line.

        ``seen``: the events a loader has read, by ``key``, the bytes of their lines that say their type, version
        and fields (all but seq, action and of); a line of a key met before gives that event again (its type,
        version and fields were checked then), and an event that holds nothing that can change is kept there.
        """
        if type(record) is not dict:
            raise LoadError("not an event record", line)
        if "crc" in record:  # checked on the bytes by read_line; a parsed record cannot be
            record = {k: v for k, v in record.items() if k != "crc"}
        if not RECORD_KEYS.issuperset(record):
            raise LoadError(f"unknown field {sorted(record.keys() - RECORD_KEYS)[0]!r} in the record", line)
        try:
            seq, action, tag, data = record["seq"], record["action"], record[TAG], record["event"]
        except KeyError as e:
            raise LoadError(f"the record lacks {e.args[0]!r}", line) from None
        of = record.get("of", 1)
        if type(seq) is not int or type(action) is not int or type(of) is not int:
            raise LoadError("seq, action and of must be whole numbers", line)
        if seq < 1 or action < 1 or of < 1:
            raise LoadError("seq, action and of must be positive", line)
        event = seen.get(key) if seen is not None else None
        if event is None:
            event = self._event(tag, record.get("v", 1), data, line)
            if seen is not None and unchangeable(type(event)):
                seen[key] = event
        return Entry(seq, action, event)

    def _event(self, tag: Any, version: Any, data: Any, line: int) -> Event:
        """A line (sealed: its checksum good) whose only fault is a field its event does not have (it reads whole
        without it) was written by a newer version that added the field (docs/PLUGINS.md: a new field with a default): :class:`NewerVersion`,
        not damage.  An older format's line has no checksum: the loader calls it damage
        (tests/reliability/test_recovery.py::test_a_fight_a_newer_version_wrote_is_not_called_damaged)."""
        if type(tag) is not str:
            raise LoadError("the event type must be a text", line)
        cls = self.types.get(tag)
        if cls is None:
            raise NewerVersion(f"an event this version does not know, {tag[:80]!r}", line)
        if type(version) is int and version > cls.VERSION:
            raise NewerVersion(f"event {tag!r} of version {version}, where this version knows {cls.VERSION}", line)
        if type(version) is not int or version < 1:
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
                raise LoadError(f"event {tag!r} could not be upgraded: {explain(e)}", line) from None
            version += 1
        if TAG in data:
            raise LoadError(f"event {tag!r} is damaged: unknown field {TAG!r}", line)
        try:
            event: Event = self._structure({**data, TAG: tag}, self.events)
        except cattrs.ForbiddenExtraKeysError as e:
            known = {k: v for k, v in data.items() if k not in e.extra_fields}
            try:  # read whole without them: a newer version's field; not even then: damage
                self._structure({**known, TAG: tag}, self.events)
            except Exception:
                raise LoadError(f"event {tag!r} is damaged: {explain(e)}", line) from None
            fields = ", ".join(repr(k) for k in sorted(e.extra_fields)[:3])
            raise NewerVersion(f"event {tag!r} with a field this version does not know, {fields}", line) from None
        except Exception as e:
            raise LoadError(f"event {tag!r} is damaged: {explain(e)}", line) from None
        return event

    def decode_line(self, raw: bytes, line: int, *, sealed: bool = True) -> Entry | None:
        """One line as read from the file: checksum checked, parsed, decoded (None for a checkpoint line).

        For a reader that follows a live file line by line (LoadError names the line).
        """
        try:
            record = read_line(raw, sealed=sealed)
        except Damaged as e:
            raise LoadError(str(e), line) from None
        except ValueError as e:
            raise LoadError(f"not valid JSON ({e})", line) from None
        if type(record) is dict and "checkpoint" in record:
            return None
        return self.decode(record, line)


_UNCHANGEABLE = (int, str, bool, float, type(None))


_unchangeable: dict[type, bool] = {}


def unchangeable(cls: type) -> bool:
    """Whether a record of this class can never change: frozen, and every field of a type made of whole numbers,
    numbers, texts, flags, None, tuples of them and such records (never a dict, a list, a set or ``Any``)."""
    known = _unchangeable.get(cls)
    if known is None:
        known = _unchangeable[cls] = attrs.has(cls) and attrs.inspect(cls).is_frozen
        if known:
            known = _unchangeable[cls] = all(_unchangeable_type(f.type) for f in attrs.fields(attrs.resolve_types(cls)))
    return known


def _unchangeable_type(t: Any) -> bool:
    if t in _UNCHANGEABLE:
        return True
    origin = typing.get_origin(t)
    if origin is tuple or origin is typing.Union or origin is types.UnionType:
        return all(a is Ellipsis or _unchangeable_type(a) for a in typing.get_args(t))
    return isinstance(t, type) and unchangeable(t)


def read_line(raw: bytes, *, sealed: bool = True) -> Any:
    """A line of the log after the header, parsed (any JSON value), its checksum checked and taken out.

    Raises ValueError (too long, not JSON) or :class:`Damaged` (a checksum that does not match, or none where
    one is due), which the caller tells a torn last line by.
    """
    if len(raw) > MAX_LINE:
        raise ValueError(f"the line is too long (over {MAX_LINE:,} bytes)")
    record = parse(raw)
    if type(record) is dict and "crc" in record:
        if unseal(raw) is None:  # a "crc" field, not where and as the line's checksum is written
            raise Damaged("its checksum does not match its content (the line was changed or damaged)")
        del record["crc"]
    elif sealed:
        raise Damaged("the line has no checksum")
    return record


def explain(e: Exception) -> str:
    """A structuring error in the GM's words (cattrs's own, or a hook's)."""
    if isinstance(e, cattrs.ForbiddenExtraKeysError):
        return "unknown field " + ", ".join(repr(k) for k in sorted(e.extra_fields)[:3])
    if isinstance(e, cattrs.errors.StructureHandlerNotFoundError):  # (its "Register a structure hook" is not ours)
        return f"the tracker reads no value of the type {type_name(e.type_)}"
    if isinstance(e, KeyError):  # a required field not there
        return f"it lacks the field {e.args[0]!r}"
    if isinstance(e, cattrs.BaseValidationError):
        return "; ".join(p[:120] for p in cattrs.transform_error(e)[:3])
    return f"{type(e).__name__}: {_short(e)}"
