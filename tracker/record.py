"""One ``__repr__``, ``__eq__`` and ``__hash__`` for the many small frozen attrs classes (events, commands).

attrs compiles a fresh repr, eq and hash for every class it builds, which is
most of the cost of defining one (about a millisecond each, and a plug-in and
the core define a hundred of them at import).  A class that inherits
:class:`Record` and is declared ``@attrs.frozen(kw_only=True, repr=False,
eq=False)`` gets these three from here instead, with the same results: the
repr attrs would write, equality of the same class on the same fields, and a
hash over the fields attrs would hash.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any

import attrs

_specs: dict[type, tuple[tuple[tuple[str, Any], ...], Any, Any]] = {}


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
        fields = attrs.fields(cls)
        shown = tuple((a.name, repr if a.repr is True else a.repr) for a in fields if a.repr is not False)
        eq = _values([a.name for a in fields if a.eq])
        hashed = _values([a.name for a in fields if (a.eq if a.hash is None else a.hash)])
        spec = _specs[cls] = (shown, eq, hashed)
    return spec


class Record:
    """Mixed into frozen attrs classes declared with ``repr=False, eq=False``."""

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
