"""Harm: quick damage and healing, getting up (shrug), and ``react``: whoever drops to 0 HP is down."""

from __future__ import annotations

from collections.abc import Sequence

from systems.toy.commands import Shrug
from systems.toy.events import HpChanged, Shrugged
from systems.toy.sheet import data
from tracker.commands import Damage, Heal
from tracker.dice import Roller
from tracker.events import Event
from tracker.kit import Draft, amount, need, open_prompt, prompt, resolve
from tracker.model import FightState


def shrug(d: Draft, cmd: Shrug, dice: Roller) -> None:
    c = need(d.state, cmd.actor)
    d.add(Shrugged(actor=c.id), resolve(d.state, "down", c.id))


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
            out.append(prompt("down", f"{c.name} is down", c.id, command="shrug", params={"actor": c.id}))
    return out
