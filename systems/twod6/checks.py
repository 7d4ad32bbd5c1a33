"""Checks: 2d6 + bonuses, with snake eyes and rolling criticals.

Ruling (rule ``critical`` of ``table.R``): dice showing 11 or 12 count as 11, then 2d6 more are rolled and
added with no bonuses; an 11 or 12 on those dice counts as 11 and rolls again
(test_critical_chain_12_then_11_then_5).
Rulings (ours), each with its test:
- Only the first two dice can be snake eyes; a 2 on the extra dice of a critical just adds 2
  (test_a_two_on_the_extra_dice_of_a_critical_just_adds_two).
- An automatic critical (a cinematic) rolls no first dice: they count as 11 and the extra dice are
  rolled (test_an_automatic_critical_is_declared_before_the_roll).
- When both sides roll snake eyes the defender wins, as in a tie (test_both_snake_eyes_go_to_the_defender).
"""

from __future__ import annotations

import attrs

from tracker.commands import Modifier
from tracker.dice import DiceRequest, Roll, Roller

MAX_CHAIN = 50


@attrs.frozen(kw_only=True)
class CheckRoll:
    """One check: its dice (every die logged), its labelled bonuses and its total."""

    label: str
    dice: Roll | None  # the first 2d6; None for an automatic critical
    chain: tuple[Roll, ...] = ()  # the extra 2d6 of a critical, in order
    parts: tuple[Modifier, ...] = ()
    total: int = 0
    fumble: bool = False
    critical: bool = False
    automatic: bool = False

    @property
    def bonus(self) -> int:
        return sum(p.value for p in self.parts)

    def describe(self) -> str:
        if self.automatic:
            s = "automatic critical (cinematic) = 11"
        else:
            assert self.dice is not None
            s = f"2d6 [{','.join(map(str, self.dice.faces))}]"
            if self.fumble:
                return f"{s} snake eyes: fails"
            if self.critical:
                s += " critical, counts 11"
        for r in self.chain:
            s += f" + 2d6 [{','.join(map(str, r.faces))}]"
            if sum(r.faces) >= 11:
                s += " again, counts 11"
        if self.parts:
            s += " " + " ".join(f"{p.value:+d} {p.label}" for p in self.parts)
        return f"{s} = {self.total}"


def two_d6(dice: Roller, label: str) -> Roll:
    faces = dice.faces(DiceRequest(2, 1, 6, label))
    return Roll("2d6", label, faces, faces, (), 0, sum(faces))


def roll_check(
    dice: Roller, label: str, parts: tuple[Modifier, ...] = (), *, automatic: bool = False, crits: bool = True
) -> CheckRoll:
    """Roll a check; ``crits=False`` for initiative (no criticals, no snake eyes)."""
    parts = tuple(p for p in parts if p.value)
    bonus = sum(p.value for p in parts)
    first: Roll | None = None
    if automatic:
        value, critical = 11, True
    else:
        first = two_d6(dice, label)
        value = first.total
        if crits and value == 2:
            return CheckRoll(label=label, dice=first, parts=parts, total=2 + bonus, fumble=True)
        critical = crits and value >= 11
        if critical:
            value = 11
    chain: list[Roll] = []
    while critical and len(chain) < MAX_CHAIN:
        extra = two_d6(dice, f"{label} critical")
        chain.append(extra)
        if extra.total >= 11:
            value += 11
        else:
            value += extra.total
            break
    return CheckRoll(
        label=label,
        dice=first,
        chain=tuple(chain),
        parts=parts,
        total=value + bonus,
        critical=critical,
        automatic=automatic,
    )


def beats(attack: CheckRoll, defense: CheckRoll) -> bool:
    """Does the attack (or active check) win?  Ties go to the defender; snake eyes lose (both: the defender wins)."""
    if attack.fumble:
        return False
    if defense.fumble:
        return True
    return attack.total > defense.total


def ratio(attack: CheckRoll, defense: CheckRoll) -> int:
    """1, 2 or 3: how many times the attack total is the defense total (a defense below 1 counts as 1)."""
    d = max(defense.total, 1)
    if attack.total >= 3 * d:
        return 3
    if attack.total >= 2 * d:
        return 2
    return 1
