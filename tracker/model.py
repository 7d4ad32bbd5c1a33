"""The fight's state: immutable records changed only by ``evolve``."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar, cast

import attrs

_T = TypeVar("_T")


def changed(inst: _T, /, **changes: Any) -> _T:
    """``attrs.evolve(inst, **changes)``: the same copy, the same errors.

    Speed (bench/bench_speed.py figure 3, load + full replay of 100,000 events, <= 2.5x the ``json.loads``
    floor): folding a long log copies a state, a combatant and its system data for nearly every event, and
    ``attrs.evolve`` (a keyword argument per field, through the frozen ``__init__``) took that figure to 3.6x
    (zludge; 2.9x to 3.9x across the systems).  So the classes the fold copies most (``FightState``,
    ``Combatant``, each built-in system's combatant data) are declared ``slots=False``, and a copy of one whose
    ``__init__`` only stores its fields (see :func:`_copied_by_dict`) is its instance dictionary copied with the
    changes: 2.0x to 2.4x.  Any other class, and a change naming no field, goes through ``attrs.evolve``.
    """
    cls = type(inst)
    try:
        known = _by_dict[cls]
    except KeyError:
        known = _by_dict[cls] = _copied_by_dict(cls)
    if known is None or not known.issuperset(changes):
        copy: _T = attrs.evolve(cast(Any, inst), **changes)
        return copy
    new = object.__new__(cls)
    fields = new.__dict__  # what attrs's __init__ would store, field by field
    fields.update(inst.__dict__)
    fields.update(changes)
    return new


_by_dict: dict[type, frozenset[str] | None] = {}


def _copied_by_dict(cls: type) -> frozenset[str] | None:
    """The field names of an attrs class whose records :func:`changed` copies by their dictionary: no slots
    (``slots=False``), and an ``__init__`` that only stores each field under its name (no validator,
    converter, alias, ``init=False``, init hook or cached property); None for any other class."""
    if not attrs.has(cls) or not cls.__dictoffset__:
        return None
    fields = attrs.fields(cls)
    if (
        any(set(c.__dict__.get("__slots__", ())) - {"__weakref__", "__dict__"} for c in cls.__mro__)
        or any(hasattr(cls, hook) for hook in ("__attrs_pre_init__", "__attrs_post_init__"))
        or any(isinstance(v, functools.cached_property) for c in cls.__mro__ for v in vars(c).values())
        or any(not f.init or f.validator or f.converter or f.alias != f.name for f in fields)
    ):
        return None
    return frozenset(f.name for f in fields)


PC = "pc"
NPC = "npc"
KINDS = (PC, NPC)


@attrs.frozen(kw_only=True)
class Condition:
    """A named condition on a combatant, optionally ending by itself.

    With ``rounds`` set it ends at the ``ends_at`` ("start" or "end") of
    ``ends_on``'s turn in round ``expires_round`` (the round it was added in
    plus ``rounds``).  ``value`` is a number a system may read (a Hex's +2 DV).
    """

    name: str
    rounds: int | None = None
    ends_on: str | None = None
    ends_at: str = "end"
    expires_round: int | None = None
    value: int = 0
    note: str = ""

    def describe(self, state: FightState | None = None) -> str:
        """``name +value (2r)``: with a state, the rounds left; without, the round it ends in."""
        s = self.name
        if self.value:
            s += f" {self.value:+d}"
        if self.expires_round is not None:
            if state is None:
                s += f" (to r{self.expires_round})"
            else:
                left = self.expires_round - max(state.round, 0)
                s += f" ({left}r)" if left > 0 else " (ends this round)"
        return s

    def rounds_left(self, state: FightState) -> int | None:
        if self.expires_round is None:
            return None
        return max(self.expires_round - max(state.round, 0), 0)


@attrs.frozen(kw_only=True)
class Prompt:
    """Something the GM must resolve before play goes on (a death save, a morale check)."""

    id: str
    kind: str
    text: str
    combatant: str | None = None
    command: str | None = None
    params: dict[str, Any] = attrs.field(factory=dict, hash=False)
    outcomes: tuple[str, ...] = ()  # what a GM's ruling may settle it as ("lives", "dies"); () in older files


@attrs.frozen(kw_only=True, slots=False)  # copied by its dictionary: see tracker.model.changed (bench figure 3)
class Combatant:
    id: str
    name: str
    kind: str = NPC
    group: str | None = None
    initiative: int | None = None
    conditions: tuple[Condition, ...] = ()
    held: bool = False
    removed: bool = False
    hidden: bool = False  # kept from the players' view until revealed
    alias: str = ""  # what the players' view calls it when NPC names are hidden ("Outlaw")
    data: Any = None  # the system's own record for this combatant

    @property
    def is_pc(self) -> bool:
        return self.kind == PC

    def condition(self, name: str) -> Condition | None:
        for c in self.conditions:
            if c.name == name:
                return c
        return None


@attrs.frozen(kw_only=True)
class ViewOptions:
    """What the players' view shows of this fight (the GM's choice, logged)."""

    npc_numbers: bool = False  # HP, Threat, DV, stats of NPCs
    npc_names: bool = True  # False: NPCs go by their alias ("Outlaw"), not their name
    dice: bool = True  # dice results in the public log lines


@attrs.frozen(kw_only=True, slots=False)  # copied by its dictionary: see tracker.model.changed (bench figure 3)
class FightState:
    """Everything the tracker knows about one fight at one moment."""

    system: str
    combatants: tuple[Combatant, ...] = ()
    order: tuple[str, ...] = ()
    ties: tuple[tuple[str, ...], ...] = ()
    surprise: tuple[str, ...] = ()
    round: int = 0
    turn: int = 0
    interrupted: str | None = None  # the combatant a held action stepped in before
    started: bool = False
    ended: bool = False
    prompts: tuple[Prompt, ...] = ()
    notes: tuple[str, ...] = ()  # the latest notes (all of them are in the log)
    next_id: int = 1
    title: str = ""  # the fight's name (asked at start, renamable)
    typed_dice: bool = False  # the GM rolls physical dice and types the faces in
    reroll_next_round: bool = False  # the GM chose to roll the whole order again when the next round starts
    view: ViewOptions = attrs.field(factory=ViewOptions)
    data: Any = None  # the system's fight-level record

    # -- lookups ---------------------------------------------------------
    def get(self, cid: str) -> Combatant:
        for c in self.combatants:
            if c.id == cid:
                return c
        raise KeyError(cid)

    def find(self, cid: str) -> Combatant | None:
        for c in self.combatants:
            if c.id == cid:
                return c
        return None

    def name(self, cid: str | None) -> str:
        if cid is None:
            return "-"
        c = self.find(cid)
        return c.name if c else cid

    @property
    def present(self) -> tuple[Combatant, ...]:
        """Combatants not removed, in initiative order first, then the rest."""
        by_id = {c.id: c for c in self.combatants}
        placed = [by_id[i] for i in self.order]  # a KeyError names an id in the order with no combatant, as get does
        ordered = set(self.order)
        rest = [c for c in self.combatants if not c.removed and c.id not in ordered]
        return tuple(placed + rest)

    @property
    def current(self) -> str | None:
        if self.started and not self.ended and 0 <= self.turn < len(self.order):
            return self.order[self.turn]
        return None

    def by_name(self, name: str) -> Combatant | None:
        key = name.strip().lower()
        for c in self.combatants:
            if not c.removed and c.name.lower() == key:
                return c
        return None

    def tied_with(self, cid: str) -> tuple[str, ...]:
        for group in self.ties:
            if cid in group:
                return group
        return ()

    # -- changes (used by evolve functions) ------------------------------
    def replace(self, combatant: Combatant) -> FightState:
        cid = combatant.id
        cs = self.combatants
        for i, c in enumerate(cs):
            if c.id == cid:
                return changed(self, combatants=(*cs[:i], combatant, *cs[i + 1 :]))
        return self

    def update(self, cid: str, **changes: Any) -> FightState:
        cs = self.combatants
        for i, c in enumerate(cs):
            if c.id == cid:
                return changed(self, combatants=(*cs[:i], changed(c, **changes), *cs[i + 1 :]))
        raise KeyError(cid)

    def update_data(self, cid: str, **changes: Any) -> FightState:
        """The combatant's system data with some fields changed (one pass over the combatants)."""
        cs = self.combatants
        for i, c in enumerate(cs):
            if c.id == cid:
                return changed(self, combatants=(*cs[:i], changed(c, data=changed(c.data, **changes)), *cs[i + 1 :]))
        raise KeyError(cid)

    def set_data(self, cid: str, put: Callable[..., Any], *values: Any) -> FightState:
        """The combatant's system data made anew by ``put(data, *values)``, in one pass over the combatants."""
        cs = self.combatants
        for i, c in enumerate(cs):
            if c.id == cid:
                return changed(self, combatants=(*cs[:i], changed(c, data=put(c.data, *values)), *cs[i + 1 :]))
        raise KeyError(cid)

    def put_data(self, cid: str, data: Any) -> FightState:
        """The combatant's system data replaced by ``data`` (a record the caller changed itself)."""
        cs = self.combatants
        for i, c in enumerate(cs):
            if c.id == cid:
                return changed(self, combatants=(*cs[:i], changed(c, data=data), *cs[i + 1 :]))
        raise KeyError(cid)
