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
from tracker.events import Event, PromptResolved
from tracker.kit import Draft
from tracker.model import FightState
from tracker.plugin import System

from . import attacks, harm, magic, morale, saves
from .common import rules
from .morale import due_prompts, legacy_prompts

__all__ = ["attacks", "decide", "harm", "legacy_prompts", "magic", "morale", "react", "rules", "saves"]


def decide(system: System, state: FightState, command: Any, dice: Roller) -> list[Event]:
    return rules.decide(system, state, command, dice)


def react(before: FightState, events: Sequence[Event], after: FightState, system: System | None = None) -> list[Event]:
    """After any action: a prompt settled by ruling, as ruled (a side that breaks, a caster's sixes); then the
    morale prompts its outcome calls for (a casualty, half out, a lone NPC)."""
    out = morale.ruled(before, events)
    if system is not None:
        d = Draft(system, after)
        d.add(*out)
        sixes = {p.id: p.combatant for p in before.prompts if p.kind == "powderburn" and p.combatant}
        for ev in events:
            if isinstance(ev, PromptResolved) and ev.outcome and ev.prompt_id in sixes:
                magic.ruled_sixes(d, sixes[ev.prompt_id], ev.outcome, ev.note)
        out, after = d.events, d.state
    return out + list(due_prompts(after))
