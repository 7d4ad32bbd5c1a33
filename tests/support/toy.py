"""A minimal rules system that exercises the plug-in protocol in tests.

Combatants have hit points; ``Hit`` rolls a d20 against 10 and, on a hit, a
damage expression; quick damage and healing take HP (a number, a sum or dice);
whenever a combatant drops to 0 HP, whatever did it, ``react`` raises a
``down`` prompt that ``Shrug`` resolves.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from tracker.commands import DICE, INT, CommandSpec, Damage, Heal, Param
from tracker.dice import Roll, Roller, roll
from tracker.errors import Refused
from tracker.events import Event
from tracker.kit import Draft, Evolver, Rules, amount, need, open_prompt, prompt, resolve, spec
from tracker.model import Combatant, FightState
from tracker.plugin import BaseSystem, Preset, Standing, Tally, initiative_events


@attrs.frozen(kw_only=True)
class ToyData:
    hp: int
    max_hp: int
    init_bonus: int = 0


# -- commands ----------------------------------------------------------------


@attrs.frozen(kw_only=True)
class Hit:
    actor: str
    target: str
    damage: str = "1d6"


@attrs.frozen(kw_only=True)
class Shrug:
    actor: str


# -- events ------------------------------------------------------------------


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


@attrs.frozen(kw_only=True)
class HpChanged(Event):
    """Quick damage (negative) or healing (positive) from the GM."""

    TYPE = "toy.hp_changed"
    target: str
    change: int
    roll: Roll

    def describe(self, state: FightState) -> str:
        what = "heals" if self.change > 0 else "takes"
        return f"{state.name(self.target)} {what} {abs(self.change)} ({self.roll.describe()})"


# -- rules -------------------------------------------------------------------

rules = Rules()
evolve = Evolver("toy.")


@rules.on(Hit)
def _hit(d: Draft, cmd: Hit, dice: Roller) -> None:
    actor, target = need(d.state, cmd.actor, "attacker"), need(d.state, cmd.target, "target")
    if actor.data.hp <= 0:
        raise Refused(f"{actor.name} is down and cannot attack")
    atk = roll("1d20", dice, f"{actor.name} attacks")
    if atk.total < 10:
        d.add(HitRolled(actor=actor.id, target=target.id, attack=atk, hit=False))
        return
    dmg = roll(cmd.damage, dice, "damage")
    d.add(HitRolled(actor=actor.id, target=target.id, attack=atk, hit=True, damage=dmg))


@rules.on(Shrug)
def _shrug(d: Draft, cmd: Shrug, dice: Roller) -> None:
    c = need(d.state, cmd.actor)
    d.add(Shrugged(actor=c.id), resolve(d.state, "down", c.id))


@rules.on(Damage, Heal)
def _quick(d: Draft, cmd: Damage | Heal, dice: Roller) -> None:
    sign = 1 if isinstance(cmd, Heal) else -1
    for cid in cmd.targets:
        c = need(d.state, cid)
        r = amount(cmd.amount, dice, f"{c.name} {'heal' if sign > 0 else 'damage'}")
        change = sign * r.total
        if sign > 0:
            change = min(change, c.data.max_hp - c.data.hp)
        d.add(HpChanged(target=c.id, change=change, roll=r))


@evolve.on(HitRolled)
def _hit_rolled(state: FightState, event: HitRolled) -> FightState:
    if event.hit and event.damage is not None:
        t = state.get(event.target)
        return state.update_data(t.id, hp=t.data.hp - event.damage.total)
    return state


@evolve.on(Shrugged)
def _shrugged(state: FightState, event: Shrugged) -> FightState:
    return state.update_data(event.actor, hp=1)


@evolve.on(HpChanged)
def _hp_changed(state: FightState, event: HpChanged) -> FightState:
    return state.update_data(event.target, hp=state.get(event.target).data.hp + event.change)


class ToySystem(BaseSystem):
    id = "toy"
    name = "Toy"
    version = "1"
    summary = "A test system: d20 vs 10, dice damage, HP"
    event_types = (HitRolled, Shrugged, HpChanged)

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
            spec(
                Hit,
                name="hit",
                title="Hit",
                key="a",
                labels={"actor": "Attacker", "target": "Target"},
                fields={"damage": Param(name="damage", kind=DICE, label="Damage", default="1d6")},
                help="d20 vs 10, then damage",
            ),
            spec(Shrug, name="shrug", title="Shrug"),
        )

    def decide(self, state: FightState, command: Any, dice: Roller) -> list[Event]:
        return rules.decide(self, state, command, dice)

    def evolve(self, state: FightState, event: Event) -> FightState:
        return evolve(state, event)

    def react(self, before: FightState, events: Sequence[Event], after: FightState) -> list[Event]:
        """A combatant who drops to 0 HP, by a hit, quick damage or a GM adjust, is down: the GM decides."""
        out: list[Event] = []
        for c in after.combatants:
            was = before.find(c.id)
            if c.removed or c.data.hp > 0 or was is None or was.data.hp <= 0:
                continue
            if open_prompt(after, "down", c.id) is None:
                out.append(prompt("down", f"{c.name} is down", c.id, command="shrug", params={"actor": c.id}))
        return out

    def harm_params(self, heal: bool) -> tuple[Param, ...]:
        return (Param(name="amount", label="HP healed" if heal else "HP lost", help="7, 3+4 or 2d6+1"),)

    def takes_turns(self, state: FightState, combatant: Combatant) -> bool:
        return combatant.data.hp > 0 or any(p.combatant == combatant.id for p in state.prompts)

    def standing(self, state: FightState, combatant: Combatant) -> Standing:
        if combatant.data.hp <= 0:
            return Standing(word="down", out=not self.takes_turns(state, combatant))
        return super().standing(state, combatant)

    def status(self, state: FightState, combatant: Combatant) -> str:
        return f"HP {combatant.data.hp}/{combatant.data.max_hp}"

    def public(self, state: FightState, combatant: Combatant) -> str:
        d = combatant.data
        if d.hp <= 0:
            return "down"
        return "unhurt" if d.hp >= d.max_hp else ("hurt" if 2 * d.hp >= d.max_hp else "badly hurt")

    def adjustable(self, state: FightState, combatant: Combatant) -> tuple[Param, ...]:
        return (Param(name="hp", kind=INT, label="HP", min=-99, max=999),)

    def tally(self, state: FightState, event: Event) -> Tally | None:
        if isinstance(event, HitRolled):
            harm = event.damage.total if event.damage else 0
            t = state.find(event.target)
            fell = bool(harm) and t is not None and t.data.hp > 0 and t.data.hp - harm <= 0
            return Tally(actor=event.actor, target=event.target, hit=event.hit, harm=harm, fell=fell)
        if isinstance(event, HpChanged) and event.change < 0:
            t = state.find(event.target)
            fell = t is not None and t.data.hp > 0 and t.data.hp + event.change <= 0
            return Tally(target=event.target, harm=-event.change, fell=fell)
        return None


system = ToySystem()
