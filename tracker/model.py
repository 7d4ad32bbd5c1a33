"""The fight's state: immutable records changed only by ``evolve``."""

from __future__ import annotations

from typing import Any

import attrs

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

    def describe(self) -> str:
        s = self.name
        if self.value:
            s += f" {self.value:+d}"
        if self.expires_round is not None:
            s += f" (to r{self.expires_round})"
        return s


@attrs.frozen(kw_only=True)
class Prompt:
    """Something the GM must resolve before play goes on (a death save, a morale check)."""

    id: str
    kind: str
    text: str
    combatant: str | None = None
    command: str | None = None
    params: dict[str, Any] = attrs.field(factory=dict, hash=False)


@attrs.frozen(kw_only=True)
class Combatant:
    id: str
    name: str
    kind: str = NPC
    group: str | None = None
    initiative: int | None = None
    conditions: tuple[Condition, ...] = ()
    held: bool = False
    removed: bool = False
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
    notes: tuple[str, ...] = ()
    next_id: int = 1
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
        placed = [self.get(i) for i in self.order]
        rest = [c for c in self.combatants if not c.removed and c.id not in self.order]
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
        return attrs.evolve(self, combatants=tuple(combatant if c.id == cid else c for c in self.combatants))

    def update(self, cid: str, **changes: Any) -> FightState:
        return self.replace(attrs.evolve(self.get(cid), **changes))

    def update_data(self, cid: str, **changes: Any) -> FightState:
        c = self.get(cid)
        return self.replace(attrs.evolve(c, data=attrs.evolve(c.data, **changes)))
