"""Toy deciders: which command each rule family decides.

The families: ``attacks`` (hit) and ``harm`` (shrug, quick damage and healing,
and ``react``).
"""

from __future__ import annotations

from typing import Any

from systems.toy.commands import Hit, Shrug
from systems.toy.rules import attacks, harm
from tracker.commands import Damage, Heal
from tracker.dice import Roller
from tracker.events import Event
from tracker.kit import Rules
from tracker.model import FightState
from tracker.plugin import System

rules = Rules()
rules.on(Hit)(attacks.hit)
rules.on(Shrug)(harm.shrug)
rules.on(Damage, Heal)(harm.quick_harm)

react = harm.react


def decide(system: System, state: FightState, command: Any, dice: Roller) -> list[Event]:
    """The events of a toy command or core Damage/Heal, or Refused with the reason."""
    return rules.decide(system, state, command, dice)


__all__ = ["decide", "react", "rules"]
