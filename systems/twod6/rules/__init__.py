"""decide: 2d6 Gamma commands checked against the rules, rolled, turned into events; react: what follows.

One decider per command, by family: ``attacks`` (attack, the doubled result, Vicious Parry and
Spell Turning) with ``defense`` (the defender's roll), ``harm`` (wounds, resolve checks, quick damage
and healing, and ``react``), ``actions`` (aim, move and the like, Stealth, skill checks, breaking a
grapple), ``contest`` (opposed checks between two combatants), ``magic`` (Negate), ``cinematics``;
``common`` holds what they share.  ``turn_flags`` (what counts in turns, over when the fight ends or time
passes) and ``rest`` answer the core's commands.  Each module's docstring keeps its rulings, each with its test.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from systems.twod6.commands import (
    Act,
    Aim,
    Attack,
    BreakGrapple,
    ChooseDouble,
    Contest,
    Negate,
    Resolve,
    Riposte,
    SkillCheck,
    Sneak,
    SpendCinematic,
)
from systems.twod6.rules.actions import decide_act, decide_aim, decide_break, decide_check, decide_sneak
from systems.twod6.rules.attacks import decide_attack, decide_double, decide_riposte
from systems.twod6.rules.cinematics import decide_cinematic
from systems.twod6.rules.contest import decide_contest
from systems.twod6.rules.harm import decide_damage, decide_heal, decide_resolve
from systems.twod6.rules.harm import react as react_to_harm
from systems.twod6.rules.magic import decide_negate
from systems.twod6.rules.turn_flags import react as react_to_the_end
from tracker.commands import Damage, Heal
from tracker.dice import Roller
from tracker.events import Event
from tracker.kit import Rules
from tracker.model import FightState
from tracker.plugin import System

rules = Rules()
rules.on(Attack)(decide_attack)
rules.on(ChooseDouble)(decide_double)
rules.on(Riposte)(decide_riposte)
rules.on(Aim)(decide_aim)
rules.on(Act)(decide_act)
rules.on(Sneak)(decide_sneak)
rules.on(SkillCheck)(decide_check)
rules.on(BreakGrapple)(decide_break)
rules.on(Contest)(decide_contest)
rules.on(Negate)(decide_negate)
rules.on(Resolve)(decide_resolve)
rules.on(SpendCinematic)(decide_cinematic)
rules.on(Damage)(decide_damage)
rules.on(Heal)(decide_heal)


def decide(system: System, state: FightState, command: Any, dice: Roller) -> list[Event]:
    """The events of ``command`` (Refused with the reason when the rules do not allow it)."""
    return rules.decide(system, state, command, dice)


def react(system: System, before: FightState, events: Sequence[Event], after: FightState) -> list[Event]:
    """Follow-ups of any action, core ones included (a GM adjust of the wounds, a removal, the fight's end)."""
    return react_to_harm(system, before, events, after) + react_to_the_end(events, after)
