"""evolve: one pure function per event; never rolls, never decides."""

from __future__ import annotations

from systems.toy.events import HitRolled, HpChanged, Shrugged
from systems.toy.sheet import data
from tracker.kit import Evolver
from tracker.model import FightState

evolve = Evolver("toy.")


@evolve.on(HitRolled)
def hit_rolled(state: FightState, event: HitRolled) -> FightState:
    if event.hit and event.damage is not None:
        return state.update_data(event.target, hp=data(state.get(event.target)).hp - event.damage.total)
    return state


@evolve.on(Shrugged)
def shrugged(state: FightState, event: Shrugged) -> FightState:
    return state.update_data(event.actor, hp=1)


@evolve.on(HpChanged)
def hp_changed(state: FightState, event: HpChanged) -> FightState:
    return state.update_data(event.target, hp=data(state.get(event.target)).hp + event.change)
