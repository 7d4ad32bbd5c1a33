"""A minimal rules system that exercises the plug-in protocol in tests.

Combatants have hit points; ``Hit`` rolls a d20 against 10 and, on a hit, a
damage expression; at 0 HP a ``toy.down`` prompt is raised.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from tracker.commands import COMBATANT, DICE, INT, CommandSpec, Param
from tracker.dice import Roll, Roller, roll
from tracker.errors import Refused, UnknownEvent
from tracker.events import Event, PromptRaised, PromptResolved
from tracker.model import Combatant, FightState, Prompt
from tracker.plugin import BaseSystem, Preset, Tally, initiative_events


@attrs.frozen(kw_only=True)
class ToyData:
    hp: int
    max_hp: int
    init_bonus: int = 0


@attrs.frozen(kw_only=True)
class Hit:
    actor: str
    target: str
    damage: str = "1d6"


@attrs.frozen(kw_only=True)
class Shrug:
    actor: str


@attrs.frozen(kw_only=True)
class HitRolled(Event):
    TYPE = "toy.hit_rolled"
    actor: str
    target: str
    attack: Roll
    hit: bool
    damage: Roll | None = None

    def describe(self, state: FightState) -> str:
        a, t = state.name(self.actor), state.name(self.target)
        if not self.hit:
            return f"{a} misses {t} ({self.attack.describe()})"
        assert self.damage is not None
        return f"{a} hits {t} ({self.attack.describe()}) for {self.damage.total} ({self.damage.describe()})"


@attrs.frozen(kw_only=True)
class Shrugged(Event):
    TYPE = "toy.shrugged"
    actor: str

    def describe(self, state: FightState) -> str:
        return f"{state.name(self.actor)} shrugs it off"


class ToySystem(BaseSystem):
    id = "toy"
    name = "Toy"
    version = "1"
    summary = "A test system: d20 vs 10, dice damage, HP"
    event_types = (HitRolled, Shrugged)

    def sheet_fields(self, kind: str) -> tuple[Param, ...]:
        return (
            Param(name="hp", kind=INT, label="HP", min=1, max=999, default=10),
            Param(name="init_bonus", kind=INT, label="Initiative bonus", default=0),
        )

    def presets(self) -> tuple[Preset, ...]:
        return (Preset(id="goblin", name="Goblin", sheet={"hp": 4}, summary="weak"),)

    def make_data(self, kind: str, sheet: Mapping[str, Any]) -> ToyData:
        return ToyData(hp=sheet["hp"], max_hp=sheet["hp"], init_bonus=sheet.get("init_bonus", 0))

    def roll_initiative(self, state: FightState, ids: tuple[str, ...], dice: Roller) -> list[Event]:
        rolled = {}
        for i in ids:
            c = state.get(i)
            r = roll(f"1d20{c.data.init_bonus:+d}" if c.data.init_bonus else "1d20", dice, f"{c.name} initiative")
            rolled[i] = (r.total, r, "")
        return initiative_events(state, rolled)

    def commands(self) -> tuple[CommandSpec, ...]:
        return (
            CommandSpec(
                name="hit",
                title="Hit",
                key="a",
                build=lambda actor, target, damage="1d6": Hit(actor=actor, target=target, damage=damage),
                params=(
                    Param(name="actor", kind=COMBATANT, label="Attacker"),
                    Param(name="target", kind=COMBATANT, label="Target"),
                    Param(name="damage", kind=DICE, label="Damage", default="1d6"),
                ),
                help="d20 vs 10, then damage",
            ),
            CommandSpec(
                name="shrug",
                title="Shrug",
                build=lambda actor: Shrug(actor=actor),
                params=(Param(name="actor", kind=COMBATANT),),
            ),
        )

    def decide(self, state: FightState, command: Any, dice: Roller) -> list[Event]:
        if isinstance(command, Hit):
            actor, target = state.find(command.actor), state.find(command.target)
            if actor is None or target is None or actor.removed or target.removed:
                raise Refused("unknown combatant")
            if actor.data.hp <= 0:
                raise Refused(f"{actor.name} is down and cannot attack")
            atk = roll("1d20", dice, f"{actor.name} attacks")
            if atk.total < 10:
                return [HitRolled(actor=actor.id, target=target.id, attack=atk, hit=False)]
            dmg = roll(command.damage, dice, "damage")
            events: list[Event] = [HitRolled(actor=actor.id, target=target.id, attack=atk, hit=True, damage=dmg)]
            if target.data.hp - dmg.total <= 0:
                events.append(
                    PromptRaised(
                        prompt=Prompt(
                            id=f"down:{target.id}",
                            kind="down",
                            text=f"{target.name} is down",
                            combatant=target.id,
                            command="shrug",
                        )
                    )
                )
            return events
        if isinstance(command, Shrug):
            c = state.find(command.actor)
            if c is None or c.removed:
                raise Refused("unknown combatant")
            return [Shrugged(actor=c.id), PromptResolved(prompt_id=f"down:{c.id}")]
        return super().decide(state, command, dice)

    def evolve(self, state: FightState, event: Event) -> FightState:
        if isinstance(event, HitRolled):
            if event.hit and event.damage is not None:
                t = state.get(event.target)
                return state.update_data(t.id, hp=t.data.hp - event.damage.total)
            return state
        if isinstance(event, Shrugged):
            return state.update_data(event.actor, hp=1)
        if type(event) in self.event_types:
            raise UnknownEvent(event.TYPE)
        return state

    def takes_turns(self, state: FightState, combatant: Combatant) -> bool:
        return combatant.data.hp > 0 or any(p.combatant == combatant.id for p in state.prompts)

    def status(self, state: FightState, combatant: Combatant) -> str:
        return f"HP {combatant.data.hp}/{combatant.data.max_hp}"

    def adjustable(self, state: FightState, combatant: Combatant) -> tuple[Param, ...]:
        return (Param(name="hp", kind=INT, label="HP", min=-99, max=999),)

    def tally(self, state: FightState, event: Event) -> Tally | None:
        if isinstance(event, HitRolled):
            harm = event.damage.total if event.damage else 0
            t = state.find(event.target)
            fell = bool(harm) and t is not None and t.data.hp > 0 and t.data.hp - harm <= 0
            return Tally(actor=event.actor, target=event.target, hit=event.hit, harm=harm, fell=fell)
        return None


system = ToySystem()
