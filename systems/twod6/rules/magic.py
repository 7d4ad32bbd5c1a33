"""Magic outside an attack: Negate (Blast, Entangle, Repel Attack and Spell Turning go with the attacks).

Negate is a full-round action (half-round with Fast Caster), an opposed Cast; on success the target
casts nothing until the end of its next turn (test_negate_shuts_off_a_caster_until_its_next_turn_ends).
"""

from __future__ import annotations

from systems.twod6.checks import beats, roll_check
from systems.twod6.commands import Negate
from systems.twod6.events import OpposedRolled
from systems.twod6.record import data
from systems.twod6.rules.common import (
    acting,
    afford,
    cast_cost,
    in_grapple,
    opposing_parts,
    skill_parts,
    spend_cinematic,
)
from systems.twod6.sheet import CAST, NEGATE
from systems.twod6.table import R, applies
from tracker.dice import Roller
from tracker.errors import Refused
from tracker.kit import Draft, need


@applies(R.NEGATE, R.FAST_CASTER, R.CRITICAL, R.SNAKE_EYES, R.AUTO_CRITICAL)
def decide_negate(d: Draft, cmd: Negate, dice: Roller) -> None:
    c = need(d.state, cmd.actor, "caster")
    acting(d.state, c)
    in_grapple(d.state, c, "casting")
    t = need(d.state, cmd.target, "target")
    if not data(c).has(NEGATE):
        raise Refused(f"Negate is a spell talent {c.name} does not have", rule=R.NEGATE)
    if data(c).negated:
        raise Refused(f"{c.name}'s powers are negated until the end of its next turn", rule=R.NEGATE)
    if t.id == c.id:
        raise Refused("Negate shuts off another caster's powers", rule=R.NEGATE)
    cost = cast_cost(c)
    afford(c, cost)
    if cmd.auto_critical:
        spend_cinematic(d, c, "automatic critical", (t.id,))
    parts = tuple(skill_parts(c, CAST, cmd.stat) + list(cmd.modifiers))
    check = roll_check(dice, f"{c.name} Cast", parts, automatic=cmd.auto_critical)
    opposing = roll_check(dice, f"{t.name} Cast", tuple(opposing_parts(t, CAST, cmd.target_stat)))
    d.add(
        OpposedRolled(
            actor=c.id,
            target=t.id,
            purpose="negates",
            check=check,
            opposing=opposing,
            success=beats(check, opposing),
            cost=cost,
        )
    )
