"""decide: each command checked against the rules and the state, rolled, turned into events."""

from __future__ import annotations

from collections.abc import Sequence

from systems.toy.commands import Hit, Shrug
from systems.toy.events import HitRolled, HpChanged, Shrugged
from systems.toy.sheet import data
from tracker.commands import Damage, Heal
from tracker.dice import Roller, roll
from tracker.errors import Refused
from tracker.events import Event, PromptResolved
from tracker.kit import Draft, Rules, amount, need, open_prompt, prompt, resolve
from tracker.model import FightState

rules = Rules()


@rules.on(Hit)
def hit(d: Draft, cmd: Hit, dice: Roller) -> None:
    actor, target = need(d.state, cmd.actor, "attacker"), need(d.state, cmd.target, "target")
    if data(actor).hp <= 0:
        raise Refused(f"{actor.name} is down and cannot attack")
    attack = roll("1d20", dice, f"{actor.name} attacks")
    if attack.total < 10:
        d.add(HitRolled(actor=actor.id, target=target.id, attack=attack, hit=False))
        return
    damage = roll(cmd.damage, dice, "damage")
    d.add(HitRolled(actor=actor.id, target=target.id, attack=attack, hit=True, damage=damage))


@rules.on(Shrug)
def shrug(d: Draft, cmd: Shrug, dice: Roller) -> None:
    c = need(d.state, cmd.actor)
    d.add(Shrugged(actor=c.id), resolve(d.state, "down", c.id))


@rules.on(Damage, Heal)
def quick_harm(d: Draft, cmd: Damage | Heal, dice: Roller) -> None:
    """The GM's quick damage or healing: HP as a number, a sum or dice; never above the most."""
    heal = isinstance(cmd, Heal)
    for cid in cmd.targets:
        c = need(d.state, cid)
        r = amount(cmd.amount, dice, f"{c.name} {'heal' if heal else 'damage'}")
        change = min(r.total, data(c).max_hp - data(c).hp) if heal else -r.total
        d.add(HpChanged(target=c.id, change=change, roll=r))


def react(before: FightState, events: Sequence[Event], after: FightState) -> list[Event]:
    """Whoever drops to 0 HP, by a hit, quick damage or a GM adjust, is down: a prompt for the GM."""
    out: list[Event] = []
    was_by_id = {c.id: c for c in before.combatants}  # one lookup each, not a search per combatant
    for c in after.combatants:
        was = was_by_id.get(c.id)
        if c.removed or data(c).hp > 0 or was is None or data(was).hp <= 0:
            continue
        if open_prompt(after, "down", c.id) is None:
            out.append(
                prompt("down", f"{c.name} is down", c.id, command="shrug", params={"actor": c.id}, outcomes=DOWN)
            )
    for ev in events:  # the down prompt settled by ruling: "gets up" is a shrug
        if isinstance(ev, PromptResolved) and ev.outcome == GETS_UP and ev.prompt_id.startswith("down:"):
            out.append(Shrugged(actor=ev.prompt_id.removeprefix("down:")))
    return out


STAYS_DOWN, GETS_UP = "stays down", "gets up"
DOWN = (STAYS_DOWN, GETS_UP)  # what a ruling may settle the down prompt as
