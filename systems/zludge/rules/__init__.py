"""Zludge decide: each command's decider, by family.

- ``initiative``: Reflexes rolls, ties, ambush;
- ``attacks``: attack against defense, hit location, damage level;
- ``harm``: wounds and fatigue on the tracks, boxes cleared, quick damage and healing;
- ``actions``: skill rolls, first aid, reopened wounds, aspects refreshed, other actions;
- ``invoke``: an aspect or plot point spent after the roll.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tracker.commands import Damage, Heal
from tracker.dice import Roller
from tracker.events import CombatantRemoved, Event, PromptResolved
from tracker.kit import Rules
from tracker.model import FightState
from tracker.plugin import System

from ..commands import (
    AmbushInitiative,
    Attack,
    ClearBox,
    FirstAid,
    InvokeAfter,
    MarkFatigue,
    MarkWound,
    RefreshAspects,
    ReopenWounds,
    RollSkill,
    TakeAction,
)
from ..contest import Contest
from ..events import WoundsReopened
from .actions import first_aid, refresh, reopen, roll_skill, take_action
from .attacks import attack
from .contests import contest
from .harm import clear_box, mark_fatigue, mark_wound, quick_damage, quick_heal
from .initiative import ambush, initiative_rolls
from .invoke import invoke_after
from .reopen import REOPEN, REOPENS

rules = Rules()
rules.on(Attack)(attack)
rules.on(InvokeAfter)(invoke_after)
rules.on(AmbushInitiative)(ambush)
rules.on(RollSkill)(roll_skill)
rules.on(FirstAid)(first_aid)
rules.on(ReopenWounds)(reopen)
rules.on(MarkWound)(mark_wound)
rules.on(MarkFatigue)(mark_fatigue)
rules.on(ClearBox)(clear_box)
rules.on(RefreshAspects)(refresh)
rules.on(TakeAction)(take_action)
rules.on(Contest)(contest)
rules.on(Damage)(quick_damage)
rules.on(Heal)(quick_heal)


def decide(system: System, state: FightState, command: Any, dice: Roller) -> list[Event]:
    """The events of a Zludge command (or the core's Damage and Heal), or Refused with the reason."""
    return rules.decide(system, state, command, dice)


def initiative(state: FightState, ids: Sequence[str], dice: Roller) -> list[Event]:
    return initiative_rolls(state, ids, dice)


def react(before: FightState, events: Sequence[Event], after: FightState) -> list[Event]:
    """Follow-ups of any decision: a prompt settled by ruling, as ruled (treated wounds that reopen); a
    combatant removed from the fight has its open prompt closed.

    Harm itself calls for nothing more in Zludge (no death save, no morale): an
    attack, quick damage and a GM adjust leave the same state, and a prompt of a
    combatant who dies stays for the GM to settle (it may be revised away).
    """
    out: list[Event] = []
    reopen = {p.id: p.combatant for p in before.prompts if p.kind == REOPEN and p.combatant}
    for ev in events:
        if isinstance(ev, PromptResolved) and ev.outcome == REOPENS and ev.prompt_id in reopen:
            out.append(WoundsReopened(target=reopen[ev.prompt_id], note=ev.note))
        if isinstance(ev, CombatantRemoved):
            for p in after.prompts:
                if p.combatant == ev.id:
                    out.append(PromptResolved(prompt_id=p.id, note=f"{after.name(ev.id)} left the fight"))
    return out
