"""Blackjack's deciders, one module per family, registered on one :class:`~tracker.kit.Rules`.

- :mod:`.attacks`: attacks (shots, volleys, blasts, blows, throws, specials) and reloading;
- :mod:`.saves`: saves the GM asks for, and Arguin';
- :mod:`.magic`: lead-working;
- :mod:`.harm`: the injury path, quick damage and healing, treatment, rest, papers;
- :mod:`.morale`: the morale triggers (decided in :func:`react`) and the 2d6 check.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tracker.dice import Roller
from tracker.events import Event
from tracker.model import FightState
from tracker.plugin import System

from . import attacks, harm, magic, morale, saves
from .common import rules
from .morale import due_prompts, legacy_prompts

__all__ = ["attacks", "decide", "harm", "legacy_prompts", "magic", "morale", "react", "rules", "saves"]


def decide(system: System, state: FightState, command: Any, dice: Roller) -> list[Event]:
    return rules.decide(system, state, command, dice)


def react(before: FightState, events: Sequence[Event], after: FightState) -> list[Event]:
    """After any action: the morale prompts its outcome calls for (a casualty, half out, a lone NPC)."""
    return list(due_prompts(after))
