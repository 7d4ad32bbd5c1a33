"""Names kept for code not yet moved to plain attrs (issue #43): every record, event and command of the core and
the built-in systems is an ordinary ``@attrs.frozen`` class, read with ``attrs.fields`` and copied with
``attrs.evolve``.

Kept for saves/ (until its cattrs converter lands), the toy system and tracker/plugin.py (until they declare
their classes with ``@attrs.frozen``); each is a thin wrapper over attrs and does nothing attrs does not.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import attrs

T = TypeVar("T", bound=type)


class Record:
    """An empty base, kept for the classes still declared with :func:`record`."""

    __slots__ = ()


if TYPE_CHECKING:
    from attrs import field
    from attrs import frozen as record
else:
    field = attrs.field

    def record(maybe_cls: T | None = None, /, **options: Any) -> T | Callable[[T], T]:
        """``@attrs.frozen(**options)``, attrs writing the repr and the equality (the ``repr=False, eq=False``
        of the old declarations is dropped: they meant "the shared ones", which were attrs's)."""
        options.pop("repr", None)
        options.pop("eq", None)
        return attrs.frozen(maybe_cls, **options)


def record_fields(cls: type) -> Any:
    """``attrs.fields(cls)``."""
    return attrs.fields(cls)


def resolved_fields(cls: type, *, module_only: bool = False) -> Any:
    """``attrs.fields(cls)`` with every type evaluated by ``attrs.resolve_types`` (in the class's module only
    with ``module_only``)."""
    if module_only:
        attrs.resolve_types(cls, localns={})
    else:
        attrs.resolve_types(cls)
    return attrs.fields(cls)


def is_record(cls: Any) -> bool:
    """``attrs.has(cls)`` for a class, False for anything else."""
    return isinstance(cls, type) and attrs.has(cls)
