"""Blood & Bullets deciders: which command each rule family decides.

The families: ``attacks`` (attack, critter attacks, Gun-play, blast, reload),
``saves`` (death save, saving throw, Lucky Streak, loyalty), ``harm`` (quick
damage and healing, binding wounds, rest, and ``react``); ``common`` holds the
checks they share.  Each module's docstring keeps its rulings with their tests.
"""

from __future__ import annotations

from typing import Any

from systems.bnb.commands import (
    Attack,
    BindWounds,
    Blast,
    CritterAttacks,
    DeathSave,
    GunPlay,
    LoyaltyCheck,
    LuckyStreak,
    Recover,
    Reload,
    SavingThrow,
)
from systems.bnb.rules import attacks, harm, saves
from tracker.commands import Damage, Heal
from tracker.dice import Roller
from tracker.events import Event
from tracker.kit import Rules
from tracker.model import FightState
from tracker.plugin import System

rules = Rules()
rules.on(Attack)(attacks.attack)
rules.on(CritterAttacks)(attacks.critter_attacks)
rules.on(GunPlay)(attacks.gunplay)
rules.on(Blast)(attacks.blast)
rules.on(Reload)(attacks.reload)
rules.on(DeathSave)(saves.death_save)
rules.on(SavingThrow)(saves.saving_throw)
rules.on(LuckyStreak)(saves.lucky_streak)
rules.on(LoyaltyCheck)(saves.loyalty)
rules.on(BindWounds)(harm.bind_wounds)
rules.on(Recover)(harm.recover)
rules.on(Damage)(harm.quick_damage)
rules.on(Heal)(harm.quick_heal)

react = harm.react


def decide(system: System, state: FightState, command: Any, dice: Roller) -> list[Event]:
    """The events of a Blood & Bullets command or core Damage/Heal, or Refused with the reason."""
    return rules.decide(system, state, command, dice)


__all__ = ["decide", "react", "rules"]
