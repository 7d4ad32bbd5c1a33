"""The toy's one roll procedure: a d20 against 10."""

from __future__ import annotations

from tracker.dice import Roll, Roller, roll

HITS_ON = 10


def attack_roll(name: str, dice: Roller) -> Roll:
    """The attacker's d20; it hits on ``HITS_ON`` or more (:func:`hits`)."""
    return roll("1d20", dice, f"{name} attacks")


def hits(attack: Roll) -> bool:
    return attack.total >= HITS_ON
