"""Zludge checks without a roll (rules ``take_0`` and ``combat_rolls``).

- "Take 0" (l.18): a skill check may take a result of 0 instead of rolling when the GM allows;
  combat skills (Melee, Ranged, Unarmed) always roll (l.21; test_take_0.py).
"""

from __future__ import annotations

from collections.abc import Sequence

from tracker.commands import Modifier
from tracker.dice import Roll
from tracker.errors import Refused
from tracker.model import Combatant

from ..checks import SkillRoll
from ..commands import RollSkill
from ..model import ATTACK_SKILLS, data
from ..table import R


def take_zero(c: Combatant, skill: str, aspect: str, cmd: RollSkill, base: Sequence[Modifier]) -> SkillRoll:
    """A skill check taking 0 (l.18): the dice count as 0; the modifiers and penalties still apply."""
    if skill.split("(")[0].strip() in ATTACK_SKILLS:
        raise Refused(
            f"{skill} is a combat skill: combat rolls are always rolled, never taken as 0", rule=R.combat_rolls
        )
    if aspect and cmd.aspect_use == "reroll":
        raise Refused("taking 0 rolls no dice: there is nothing for the aspect to reroll", rule=R.take_0)
    mods = [*base, *data(c).penalties(cmd.physical)]
    if aspect:
        mods.append(Modifier(label=f"aspect '{aspect}'", value=1))
    if cmd.plot_points == 1:
        mods.append(Modifier(label="plot point", value=1))
    zero = Roll(expr="0", label=f"{c.name} {skill} (take 0)", faces=(), kept=(), total=0)
    total = sum(m.value for m in mods)
    return SkillRoll(
        roll=zero, rerolled=None, mods=tuple(mods), total=total, aspect=aspect, plot_point=cmd.plot_points == 1
    )
