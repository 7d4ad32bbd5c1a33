"""The Blood & Bullets saving throw: d20 + the attribute modifier (Table 3) + class bonus ≥ the Saving Throw number.

Every save goes through here: a death save, a scattergun's save for half
damage, any other save the GM calls for, and a Gambler's Lucky Streak re-roll
of any of them (same modifiers, a new d20).
"""

from __future__ import annotations

import attrs

from systems.bnb.sheet import data
from systems.bnb.tables import CLASS_SAVE_BONUS, SAVES
from tracker.commands import Modifier
from tracker.dice import Roll, Roller, roll
from tracker.model import Combatant

SCATTERGUN_SAVE = "scattergun (half damage)"  # what a scattergun's save beyond 30 ft is "against" in the log
HP_BELOW_0 = "HP below 0"  # the death save's penalty, as the log names it


@attrs.frozen
class Save:
    roll: Roll
    parts: tuple[Modifier, ...]
    total: int
    st: int

    @property
    def success(self) -> bool:
        return self.total >= self.st


def save_parts(c: Combatant, against: str, attribute: str = "auto", extra: tuple[Modifier, ...] = ()) -> list[Modifier]:
    """The modifiers of a save: Table 3's attribute ("auto"), another or none, the class bonus, the GM's."""
    d = data(c)
    attr = SAVES.get(against, "") if attribute == "auto" else ("" if attribute == "none" else attribute)
    parts: list[Modifier] = []
    if attr:
        parts.append(Modifier(label=attr, value=d.mod(attr)))
    if against in CLASS_SAVE_BONUS.get(d.cls, ()):
        parts.append(Modifier(label=f"{d.cls} vs {against}", value=2))
    parts.extend(extra)
    return parts


def roll_save(c: Combatant, parts: tuple[Modifier, ...], dice: Roller, label: str, st: int | None = None) -> Save:
    """Roll d20 + ``parts`` against the combatant's Saving Throw number (or ``st``)."""
    r = roll("1d20", dice, label)
    target = data(c).st if st is None else st
    return Save(roll=r, parts=parts, total=r.total + sum(p.value for p in parts), st=target)


def half_damage(amount: int) -> int:
    """A save for half damage: half, rounded down, at least 1 (a hit deals at least 1)."""
    return max(1, amount // 2)
