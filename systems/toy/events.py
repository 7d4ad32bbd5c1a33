"""Toy events: past-tense facts, each with a stable ``toy.`` tag and every roll's faces."""

from __future__ import annotations

import attrs

from tracker.dice import Roll
from tracker.events import Event
from tracker.model import FightState


@attrs.frozen(kw_only=True)
class HitRolled(Event):
    """An attack: the d20, and on a hit the damage roll."""

    TYPE = "toy.hit_rolled"
    actor: str
    target: str
    attack: Roll
    hit: bool
    damage: Roll | None = None

    def describe(self, state: FightState) -> str:
        a, t = state.name(self.actor), state.name(self.target)
        if not self.hit or self.damage is None:
            return f"{a} misses {t} ({self.attack.describe()})"
        return f"{a} hits {t} ({self.attack.describe()}) for {self.damage.total} ({self.damage.describe()})"


@attrs.frozen(kw_only=True)
class Shrugged(Event):
    """A downed combatant gets back up at 1 HP (resolves its ``down`` prompt)."""

    TYPE = "toy.shrugged"
    actor: str

    def describe(self, state: FightState) -> str:
        return f"{state.name(self.actor)} shrugs it off"


@attrs.frozen(kw_only=True)
class HpChanged(Event):
    """Quick damage (negative) or healing (positive) from the GM."""

    TYPE = "toy.hp_changed"
    target: str
    change: int
    roll: Roll

    def describe(self, state: FightState) -> str:
        what = "heals" if self.change > 0 else "takes"
        return f"{state.name(self.target)} {what} {abs(self.change)} ({self.roll.describe()})"


EVENT_TYPES: tuple[type[Event], ...] = (HitRolled, Shrugged, HpChanged)
