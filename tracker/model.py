"""The fight's state: immutable records changed only by ``evolve``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from tracker.record import Record, field, record, record_fields

_changers: dict[type, Callable[[Any, dict[str, Any]], Any]] = {}
_twins: dict[type, type | None] = {}
_setters: dict[tuple[type, tuple[str, ...]], Callable[..., Any]] = {}


def changed(inst: Any, **changes: Any) -> Any:
    """A copy of a frozen attrs record with some fields changed (like ``attrs.evolve``).

    Folding a long log calls this for nearly every event, so it uses a small
    per-class function that copies the slots directly; it skips ``__init__``,
    which is safe for these records because none has validators or converters.
    """
    cls = type(inst)
    fn = _changers.get(cls)
    if fn is None:
        fn = _changer(cls)
    return fn(inst, changes)


def _changer(cls: type) -> Callable[[Any, dict[str, Any]], Any]:
    fn = _changers[cls] = _make_changer(cls)
    return fn


def setter(cls: type, *names: str) -> Callable[..., Any]:
    """A function ``(record, value, ...)`` -> a copy of the record with the fields ``names`` set to the values.

    ``changed`` with these fields, without its keyword dictionary and its loop over it: the fold's commonest
    copies (a combatant with new system data, a state with new combatants, a turn's start) go through these.
    """
    if not names:
        raise TypeError("a setter sets at least one field")
    fn = _setters.get((cls, names))
    if fn is None:
        fn = _setters[cls, names] = _make_setter(cls, names)
    return fn


def _make_setter(cls: type, names: tuple[str, ...]) -> Callable[..., Any]:
    fields = [f.name for f in record_fields(cls)]
    for name in names:
        if name not in fields:
            raise TypeError(f"{cls.__name__} has no field {name!r}")
    if len(set(names)) != len(names):
        raise TypeError(f"a field set twice: {names}")
    unfrozen = twin(cls)
    args = [f"v{n}" for n in range(len(names))]
    namespace: dict[str, Any] = {"cls": cls, "twin": unfrozen, "new_": object.__new__}
    # generated from the class's own field names (identifiers), never from data
    if unfrozen is None or not _plain(cls):  # validators, converters, no slots: as changed() does it
        namespace["change"] = _changer(cls)
        pairs = ", ".join(f"{name!r}: {a}" for name, a in zip(names, args, strict=True))
        lines = [f"def put(inst, {', '.join(args)}):", f"    return change(inst, {{{pairs}}})"]
    else:
        lines = [f"def put(inst, {', '.join(args)}):", "    new = new_(twin)"]
        lines += [f"    new.{n} = inst.{n}" for n in fields if n not in names]
        lines += [f"    new.{name} = {a}" for name, a in zip(names, args, strict=True)]
        lines += ["    new.__class__ = cls", "    return new"]
    exec("\n".join(lines), namespace)
    put: Callable[..., Any] = namespace["put"]
    return put


def twin(cls: type) -> type | None:
    """An unfrozen twin of a frozen slotted record class, to fill a new record by plain slot stores.

    The twin is a subclass that adds no slots and sets attributes the ordinary
    way (a frozen class's ``__setattr__`` refuses, and ``object.__setattr__``
    called per field costs several times a plain store).  It has the record's
    exact layout, so a filled twin becomes the record by ``__class__``
    assignment; no twin ever escapes as a value.  None when the class cannot
    have one (no slots).
    """
    try:
        return _twins[cls]
    except KeyError:
        pass
    made: type | None = None
    if "__slots__" in cls.__dict__ and not cls.__dictoffset__:
        made = type(
            f"_Unfrozen{cls.__name__}",
            (cls,),
            {"__slots__": (), "__setattr__": object.__setattr__, "__delattr__": object.__delattr__},
        )
        try:
            probe: Any = object.__new__(made)
            probe.__class__ = cls
        except TypeError:
            made = None
    _twins[cls] = made
    return made


def _plain(cls: type) -> bool:
    """A slotted record with no validators, converters or post-init: a copy may skip ``__init__``."""
    return not (
        any(f.validator or f.converter for f in record_fields(cls))
        or hasattr(cls, "__attrs_post_init__")
        or not getattr(cls, "__slots__", None)
    )


def _make_changer(cls: type) -> Callable[[Any, dict[str, Any]], Any]:
    fields = record_fields(cls)
    if not _plain(cls):
        return lambda inst, changes: attrs.evolve(inst, **changes)
    names = [f.name for f in fields]
    unfrozen = twin(cls)
    known = frozenset(names)

    def refuse(changes: dict[str, Any]) -> TypeError:
        return TypeError(f"{cls.__name__} has no field(s) {sorted(set(changes) - known)}")

    # generated from the class's own field names (identifiers), never from data
    namespace: dict[str, Any] = {"cls": cls, "twin": unfrozen, "known": known, "new_": object.__new__, "refuse": refuse}
    lines = ["def change(inst, changes):"]
    if unfrozen is not None:
        # filled as the unfrozen twin (plain slot stores), then made the frozen record; a name that is not a
        # field has no slot to store into (the twin has no __dict__): AttributeError, refused as attrs.evolve does
        lines.append("    new = new_(twin)")
        lines += [f"    new.{n} = inst.{n}" for n in names]
        lines += [
            "    try:",
            "        for k, v in changes.items():",
            "            setattr(new, k, v)",
            "    except AttributeError:",
            "        raise refuse(changes) from None",
            "    new.__class__ = cls",
        ]
    else:
        namespace["set_"] = object.__setattr__
        lines += ["    if not changes.keys() <= known:", "        raise refuse(changes)", "    new = new_(cls)"]
        lines += [f"    set_(new, {n!r}, inst.{n})" for n in names]
        lines += ["    for k, v in changes.items():", "        set_(new, k, v)"]
    lines.append("    return new")
    exec("\n".join(lines), namespace)
    change: Callable[[Any, dict[str, Any]], Any] = namespace["change"]
    return change


PC = "pc"
NPC = "npc"
KINDS = (PC, NPC)


@record(kw_only=True, repr=False, eq=False)
class Condition(Record):
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


@record(kw_only=True, repr=False, eq=False)
class Prompt(Record):
    """Something the GM must resolve before play goes on (a death save, a morale check)."""

    id: str
    kind: str
    text: str
    combatant: str | None = None
    command: str | None = None
    params: dict[str, Any] = field(factory=dict, hash=False)
    outcomes: tuple[str, ...] = ()  # what a GM's ruling may settle it as ("lives", "dies"); () in older files


@record(kw_only=True, repr=False, eq=False)
class Combatant(Record):
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


@record(kw_only=True, repr=False, eq=False)
class ViewOptions(Record):
    """What the players' view shows of this fight (the GM's choice, logged)."""

    npc_numbers: bool = False  # HP, Threat, DV, stats of NPCs
    npc_names: bool = True  # False: NPCs go by their alias ("Outlaw"), not their name
    dice: bool = True  # dice results in the public log lines


@record(kw_only=True, repr=False, eq=False)
class FightState(Record):
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
    view: ViewOptions = field(factory=ViewOptions)
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
                return with_combatants(self, (*cs[:i], combatant, *cs[i + 1 :]))
        return self

    def update(self, cid: str, **changes: Any) -> FightState:
        cs = self.combatants
        for i, c in enumerate(cs):
            if c.id == cid:
                return with_combatants(self, (*cs[:i], changed(c, **changes), *cs[i + 1 :]))
        raise KeyError(cid)

    def update_data(self, cid: str, **changes: Any) -> FightState:
        """The combatant's system data with some fields changed (one pass over the combatants: folding a
        long log calls this for most events, so the three copies call their classes' changers directly)."""
        cs = self.combatants
        for i, c in enumerate(cs):
            if c.id == cid:
                d = c.data
                new_d = (_changers.get(type(d)) or _changer(type(d)))(d, changes)
                return with_combatants(self, (*cs[:i], with_data(c, new_d), *cs[i + 1 :]))
        raise KeyError(cid)

    def set_data(self, cid: str, put: Callable[..., Any], *values: Any) -> FightState:
        """The combatant's system data copied by ``put`` (a :func:`setter` of its class) with ``values``, in one
        pass over the combatants (``update_data`` without its keyword dictionary, for the fold's hottest events)."""
        cs = self.combatants
        for i, c in enumerate(cs):
            if c.id == cid:
                return with_combatants(self, (*cs[:i], with_data(c, put(c.data, *values)), *cs[i + 1 :]))
        raise KeyError(cid)

    def put_data(self, cid: str, data: Any) -> FightState:
        """The combatant's system data replaced by ``data`` (a record the caller changed itself)."""
        cs = self.combatants
        for i, c in enumerate(cs):
            if c.id == cid:
                return with_combatants(self, (*cs[:i], with_data(c, data), *cs[i + 1 :]))
        raise KeyError(cid)


with_data: Callable[[Combatant, Any], Combatant] = setter(Combatant, "data")
"""The combatant with its system data replaced (the fold's commonest copy)."""
with_combatants: Callable[[FightState, tuple[Combatant, ...]], FightState] = setter(FightState, "combatants")
"""The state with its combatants replaced."""
