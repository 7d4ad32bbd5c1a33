"""Line format of a fight log, with cattrs and explicit, stable type tags.

Line 1, the header::

    {"format": 1, "system": "bnb", "system_version": "1.0", "created": "...", "seed": 42, "title": ""}

Every further line, one event::

    {"seq": 7, "action": 3, "of": 2, "type": "bnb.attack_rolled", "v": 1, "event": {...fields}}

``of`` counts the events of the GM action the line belongs to, so an action
cut short by a power failure is recognised as torn, not taken half.

Older formats are upgraded on load step by step (``MIGRATIONS``); events of an
older ``v`` are upcast by the owner's upcasters before cattrs structures them.
Nothing here evaluates or unpickles anything.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import attrs
import cattrs

from tracker.engine import Entry
from tracker.errors import TrackerError
from tracker.events import CORE_EVENTS, Event
from tracker.plugin import System

FORMAT_VERSION = 1


class SaveError(TrackerError):
    """Writing the fight log failed."""


class LoadError(TrackerError):
    """A fight log that cannot be read; the message names the line."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(f"line {line}: {message}" if line else message)
        self.line = line


@attrs.frozen(kw_only=True)
class Header:
    format: int = FORMAT_VERSION
    system: str
    system_version: str = ""
    created: str = ""
    seed: int | None = None
    title: str = ""
    parent: str | None = None  # the file this one continues, if any


# format migrations: raw header dict and raw record dicts of version N -> N+1
Migration = Callable[[dict[str, Any], list[dict[str, Any]]], tuple[dict[str, Any], list[dict[str, Any]]]]
MIGRATIONS: dict[int, Migration] = {
    # version 0 (early prototype) named the action "act" and had no "v"
    0: lambda header, records: (
        {**header, "format": 1},
        [
            {**{k: v for k, v in r.items() if k != "act"}, "action": r.get("act", r.get("action")), "v": 1}
            for r in records
        ],
    ),
}


def upgrade(header: dict[str, Any], records: list[dict[str, Any]]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    version = header.get("format")
    if not isinstance(version, int):
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


_codecs: dict[tuple[int, str, str], Codec] = {}


def codec_for(system: System) -> Codec:
    """The codec of a system, built once (building the cattrs hooks takes a while)."""
    key = (id(system), system.id, system.version)
    codec = _codecs.get(key)
    if codec is None or codec.system is not system:
        codec = _codecs[key] = Codec(system)
    return codec


class Codec:
    """Encodes and decodes events of the core and one system."""

    def __init__(self, system: System) -> None:
        self.system = system
        self.converter = cattrs.Converter(detailed_validation=False)
        _fast_tuples(self.converter)
        self.types: dict[str, type[Event]] = {}
        for cls in (*CORE_EVENTS, *system.event_types):
            if not cls.TYPE:
                raise TrackerError(f"event class {cls.__name__} has no TYPE tag")
            if cls.TYPE in self.types:
                raise TrackerError(f"two event classes share the tag {cls.TYPE!r}")
            self.types[cls.TYPE] = cls
        self._structure = {t: self.converter.get_structure_hook(c) for t, c in self.types.items()}
        self.versions = {t: c.VERSION for t, c in self.types.items()}
        self._unstructure = {c: self.converter.get_unstructure_hook(c) for c in self.types.values()}
        self.upcasters = dict(getattr(system, "upcasters", {}) or {})

    def encode(self, entry: Entry, of: int = 1) -> str:
        """One line; ``of`` is the number of events in the entry's action (a torn action shows)."""
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
        return json.dumps(record, separators=(",", ":"), ensure_ascii=False)

    def decode(self, record: Any, line: int) -> Entry:
        if not isinstance(record, dict):
            raise LoadError("not an event record", line)
        try:
            seq, action, tag, data = record["seq"], record["action"], record["type"], record["event"]
        except KeyError as e:
            raise LoadError(f"the record lacks {e.args[0]!r}", line) from None
        if not isinstance(seq, int) or not isinstance(action, int):
            raise LoadError("seq and action must be whole numbers", line)
        hook = self._structure.get(tag)
        if hook is None:
            raise LoadError(f"unknown event type {tag!r} (is the right system installed?)", line)
        cls = self.types[tag]
        version = record.get("v", 1)
        if not isinstance(version, int) or version > cls.VERSION:
            raise LoadError(f"event {tag!r} version {version} is newer than this tracker knows", line)
        while version < cls.VERSION:
            up = self.upcasters.get((tag, version))
            if up is None:
                raise LoadError(f"no upcaster for {tag!r} version {version}", line)
            data = up(data)
            version += 1
        try:
            event = hook(data, cls)
        except Exception as e:
            raise LoadError(f"event {tag!r} is damaged: {_explain(e)}", line) from None
        return Entry(seq, action, event)


def _fast_tuples(converter: cattrs.Converter) -> None:
    """Quicker hooks for the homogeneous tuples events are full of (faces, ids).

    They check the element types as strictly as cattrs' own hooks do for JSON
    input, so a damaged file is still refused.
    """

    def strict(kind: type) -> Callable[[Any, Any], tuple[Any, ...]]:
        def hook(value: Any, _type: Any) -> tuple[Any, ...]:
            if type(value) is not list:
                raise ValueError(f"expected a list, got {type(value).__name__}")
            for x in value:
                if type(x) is not kind:
                    raise ValueError(f"expected {kind.__name__} items, got {x!r}")
            return tuple(value)

        return hook

    hooks = {tuple[int, ...]: strict(int), tuple[str, ...]: strict(str)}
    converter.register_structure_hook_func(lambda t: t in hooks, lambda v, t: hooks[t](v, t))


def _explain(e: Exception) -> str:
    if isinstance(e, cattrs.BaseValidationError):
        parts = cattrs.transform_error(e)
        return "; ".join(parts[:3])
    return f"{type(e).__name__}: {e}"


def header_to_json(header: Header) -> str:
    return json.dumps(attrs.asdict(header), separators=(",", ":"), ensure_ascii=False)


def header_from(raw: dict[str, Any]) -> Header:
    fields = {f.name for f in attrs.fields(Header)}
    try:
        return Header(**{k: v for k, v in raw.items() if k in fields})
    except TypeError as e:
        raise LoadError(f"the header is incomplete: {e}", 1) from None
