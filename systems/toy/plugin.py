"""Toy: the system class and ``system``, the entry point's object (see ``__init__.py``, what listing imports)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from systems.toy import book, rules, why
from systems.toy.about import ABOUT
from systems.toy.commands import SPECS
from systems.toy.events import EVENT_TYPES, HitRolled, HpChanged
from systems.toy.evolve import evolve
from systems.toy.presets import PRESETS
from systems.toy.sheet import SHEET_FIELDS, ToyData, data, make_data
from tracker.commands import INT, CommandSpec, Param
from tracker.dice import Roller, roll
from tracker.events import Event
from tracker.model import Combatant, FightState
from tracker.plugin import BaseSystem, Preset, Standing, Tally, initiative_events
from tracker.reasons import Reason, Rule


class ToySystem(BaseSystem[ToyData]):
    about = ABOUT  # the id, name, version and summary listed before the plug-in is loaded
    event_types = EVENT_TYPES

    # -- the required core -------------------------------------------------------
    def sheet_fields(self, kind: str) -> tuple[Param, ...]:
        return SHEET_FIELDS

    def make_data(self, kind: str, sheet: Mapping[str, Any]) -> ToyData:
        return make_data(sheet)

    def commands(self) -> tuple[CommandSpec, ...]:
        return SPECS

    def decide(self, state: FightState, command: Any, dice: Roller) -> list[Event]:
        return rules.decide(self, state, command, dice)

    def evolve(self, state: FightState, event: Event) -> FightState:
        return evolve(state, event)

    def status(self, state: FightState, combatant: Combatant) -> str:
        d = data(combatant)
        return f"HP {d.hp}/{d.max_hp}"

    # -- optional hooks ----------------------------------------------------------
    def presets(self) -> tuple[Preset, ...]:
        return PRESETS

    def roll_initiative(self, state: FightState, ids: tuple[str, ...], dice: Roller) -> list[Event]:
        rolled = {}
        for i in ids:
            c = state.get(i)
            bonus = data(c).init_bonus
            r = roll(f"1d20{bonus:+d}" if bonus else "1d20", dice, f"{c.name} initiative")
            rolled[i] = (r.total, r, "")
        return initiative_events(state, rolled)

    def react(self, before: FightState, events: Sequence[Event], after: FightState) -> list[Event]:
        return rules.react(before, events, after)

    def harm_params(self, heal: bool) -> tuple[Param, ...]:
        return (Param(name="amount", label="HP healed" if heal else "HP lost", help="7, 3+4 or 2d6+1"),)

    def takes_turns(self, state: FightState, combatant: Combatant) -> bool:
        return data(combatant).hp > 0 or any(p.combatant == combatant.id for p in state.prompts)

    def standing(self, state: FightState, combatant: Combatant) -> Standing:
        if data(combatant).hp <= 0:
            return Standing(word="down", out=not self.takes_turns(state, combatant))
        return super().standing(state, combatant)

    def public(self, state: FightState, combatant: Combatant) -> str:
        d = data(combatant)
        if d.hp <= 0:
            return "down"
        return "unhurt" if d.hp >= d.max_hp else ("hurt" if 2 * d.hp >= d.max_hp else "badly hurt")

    def adjustable(self, state: FightState, combatant: Combatant) -> tuple[Param, ...]:
        return (Param(name="hp", kind=INT, label="HP", min=-99, max=999),)

    def rules(self) -> tuple[Rule, ...]:
        return book.RULES

    def explain(self, before: FightState, event: Event, after: FightState) -> tuple[Reason, ...]:
        return why.explain(before, event, after)

    def tally(self, state: FightState, event: Event) -> Tally | None:
        """``state`` is the state *before* the event: a fall is HP above 0 then and at or below 0 after."""
        if isinstance(event, HitRolled):
            harm = event.damage.total if event.damage else 0
            t = state.find(event.target)
            fell = bool(harm) and t is not None and data(t).hp > 0 and data(t).hp - harm <= 0
            return Tally(actor=event.actor, target=event.target, hit=event.hit, harm=harm, fell=fell)
        if isinstance(event, HpChanged) and event.change < 0:
            t = state.find(event.target)
            fell = t is not None and data(t).hp > 0 and data(t).hp + event.change <= 0
            return Tally(target=event.target, harm=-event.change, fell=fell)
        return None


system = ToySystem()

__all__ = ["ToySystem", "system"]
