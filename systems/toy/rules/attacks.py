"""Attacks: a d20 against 10, then the damage dice."""

from __future__ import annotations

from systems.toy.book import rule
from systems.toy.checks import attack_roll, hits
from systems.toy.commands import Hit
from systems.toy.events import HitRolled
from systems.toy.sheet import data
from tracker.dice import Roller, roll
from tracker.errors import Refused
from tracker.kit import Draft, need


def hit(d: Draft, cmd: Hit, dice: Roller) -> None:
    actor, target = need(d.state, cmd.actor, "attacker"), need(d.state, cmd.target, "target")
    if data(actor).hp <= 0:
        raise Refused(f"{actor.name} is down and cannot attack", rule=rule("no-attack-down"))
    attack = attack_roll(actor.name, dice)
    if not hits(attack):
        d.add(HitRolled(actor=actor.id, target=target.id, attack=attack, hit=False))
        return
    damage = roll(cmd.damage, dice, "damage")
    d.add(HitRolled(actor=actor.id, target=target.id, attack=attack, hit=True, damage=damage))
