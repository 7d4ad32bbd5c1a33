"""What the GM can ask for in the toy system, and the forms the app builds for it."""

from __future__ import annotations

import attrs

from tracker.commands import DICE, CommandSpec, Param
from tracker.kit import spec


@attrs.frozen(kw_only=True)
class Hit:
    """The actor attacks the target: d20 ≥ 10 hits, then ``damage`` dice."""

    actor: str
    target: str
    damage: str = "1d6"


@attrs.frozen(kw_only=True)
class Shrug:
    """A downed combatant gets up at 1 HP (the answer to a ``down`` prompt)."""

    actor: str


SPECS: tuple[CommandSpec, ...] = (
    spec(
        Hit,
        name="hit",
        title="Hit",
        key="a",
        labels={"actor": "Attacker", "target": "Target"},
        fields={"damage": Param(name="damage", kind=DICE, label="Damage", default="1d6")},
        help="d20 vs 10, then damage",
        subject="target",
    ),
    spec(Shrug, name="shrug", title="Shrug", actor=None, subject="actor", help="A downed combatant gets up at 1 HP"),
)
