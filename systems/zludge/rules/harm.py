"""Harm: wounds and fatigue checked on the tracks, boxes cleared, the GM's quick damage and healing.

Every wound, whatever its source (an attack, the GM's mark wound, quick
damage), goes through :func:`wound_event`: a box at its level, or the next
free one up; none left above Comatose means death.

Rulings:

- *A critical before armor's below-0 test* (``critical``, ``no_damage``): l.106 takes the armor off ("minus any
  reduction due to the target's armor") and gives a critical "+1 to damage-level dealt" without saying which
  comes first; the rulings' "a damage level below 0 after armor does no damage" is read on the whole level,
  critical included: weapon − armor + 1, then the below-0 test.  Weapon 1 against armor 2 on a critical is
  1 + 1 − 2 = 0, a 0-level wound (a Scratched box, clipped), not −1 and nothing; weapon 0 against armor 2 on a
  critical is −1, no damage.  The log's hit line names the margin (a critical is one of 4 or more) and Why? shows
  the order ("weapon 1 + 1 critical − armor 2 = 0").
  Test: tests/systems/zludge/test_round4_fixes.py::test_a_critical_counts_before_armors_below_0_test.
- *Quick damage* (the core Damage command) takes a damage level 0-4 and marks
  one wound per target exactly as an attack's damage does, one WoundMarked
  event each; "temporary" marks physical fatigue (P) at that level instead,
  fatigue being the book's "nonlethal physical damage".
- *Quick damage, armor counts* (l.106 "apply the weapon's damage to the target (minus any reduction due to the
  target's armor)"; the rulings' zludge "damage level = weapon level − armor level"): an amount "weapon N, armor counts"
  (or "weapon N") is a weapon level, and each target's armor is taken off as an attack's damage is: below 0 does
  no damage, armor that does not cover every location counts where a 1d6 hit location falls on it (rule
  ``partial_armor``); each target's wound says "weapon 4 − armor 2" (WoundMarked's ``weapon_level``,
  ``armor_level``, new fields whose defaults read older wounds as they were), and a target whose armor stops it all
  gets a note "weapon 1 − armor 2 → below 0: no damage".  A plain level (what a GM typed before) is still the damage each target takes, armor not counted; quick
  damage once never took armor off though its help listed weapon levels.  Fatigue ("temporary") is marked at the
  level given: armor reduces a weapon's damage, so "armor counts" with fatigue is refused.
  Test: tests/systems/zludge/test_quick_harm_armor.py.
- *Quick healing* (the core Heal command) is refused while the fight runs:
  Zludge wounds heal by the week ("1 level/week"; a Scratch heals away with its
  week, by the ruling on l.135), never within a fight (nor first aid, minutes of work: after the fight).  Before
  the fight starts or once it is over, Heal clears one wound box of the level
  chosen on each target, as the GM's clear_box does (the time has passed).
- Zludge raises no prompt when harm lands (no death save, no morale check):
  crossing Incapacitated, Comatose or death changes what the combatant may do
  (prone, unconscious, skipped), nothing more.  ``react`` therefore adds no
  event after quick damage or a GM adjust; their state is the attack's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import attrs

from tracker.commands import Damage, Heal
from tracker.dice import Roller, roll
from tracker.errors import Refused
from tracker.events import NoteAdded
from tracker.kit import Draft, need
from tracker.model import Combatant

from ..commands import ARMOR_CHOICES, LEVEL_CHOICES, ClearBox, MarkFatigue, MarkWound
from ..events import BoxCleared, FatigueMarked, WoundMarked, where
from ..model import FATIGUE_STATES, LOCATIONS, WOUND_STATES, data, place
from ..table import R, applies


@applies(R.wound_track, R.boxes, R.death, R.clipped)
def damage_of(outcome: str, weapon: int, armor: int) -> int | None:
    """Clipped: 0-level; a hit: weapon - armor (+1 critical); below 0 (or a miss): no damage.

    Ruling: a critical's +1 counts before the below-0 test (weapon 1, armor 2, critical: 0, a 0-level wound);
    module docstring, test_round4_fixes.py::test_a_critical_counts_before_armors_below_0_test."""
    if outcome == "clipped":
        return 0
    if outcome in ("hit", "critical"):
        damage = weapon - armor + (1 if outcome == "critical" else 0)
        return damage if damage >= 0 else None
    return None


@applies(R.location)
def location_of(face: int) -> str:
    """Ruling: 1 head, 2-3 torso, 4 right arm, 5 left arm, 6 legs."""
    return {1: "head", 2: "torso", 3: "torso", 4: "right arm", 5: "left arm", 6: "legs"}[face]


def wound_event(target: Combatant, level: int, source: str) -> WoundMarked:
    """The wound a ``level`` damage checks on the target's track (overflow up; none left: death)."""
    d = data(target)
    box, full = place(d.wounds, d.wound_capacity, level)
    return WoundMarked(target=target.id, wound=level, box=box, full=full, source=source)


@applies(R.fatigue_track, R.fatigue_full)
def fatigue_event(target: Combatant, level: int, physical: bool, source: str) -> FatigueMarked:
    d = data(target)
    box, full = place(d.fatigue, d.fatigue_capacity, level)
    return FatigueMarked(target=target.id, level=level, box=box, full=full, physical=physical, source=source)


def _check_level(level: int, what: str = "damage") -> None:
    if not 0 <= level <= 4:
        raise Refused(
            f"{what} levels run 0 to 4, not {level}", rule=R.fatigue_track if what == "fatigue" else R.weapons
        )


def mark_wound(d: Draft, cmd: MarkWound, dice: Roller) -> None:
    c = need(d.state, cmd.target)
    _check_level(cmd.level)
    if data(c).dead:
        raise Refused(f"{c.name} is already dead", rule=R.death)
    d.add(wound_event(c, cmd.level, cmd.note or "GM"))


def mark_fatigue(d: Draft, cmd: MarkFatigue, dice: Roller) -> None:
    c = need(d.state, cmd.target)
    _check_level(cmd.level, "fatigue")
    d.add(fatigue_event(c, cmd.level, cmd.physical, cmd.note))


def _cleared(c: Combatant, track: str, level: int, note: str) -> BoxCleared:
    if track not in ("wounds", "fatigue"):
        raise Refused("the tracks are 'wounds' and 'fatigue'")
    d = data(c)
    boxes = d.wounds if track == "wounds" else d.fatigue
    names = WOUND_STATES if track == "wounds" else FATIGUE_STATES
    if not 0 <= level <= 4 or not any(b.level == level for b in boxes):
        what = names[level] if 0 <= level <= 4 else f"level {level}"
        raise Refused(f"{c.name} has no checked {what} box to clear")
    return BoxCleared(target=c.id, track=track, level=level, note=note)


@applies(R.clear_box)
def clear_box(d: Draft, cmd: ClearBox, dice: Roller) -> None:
    d.add(_cleared(need(d.state, cmd.target), cmd.track, cmd.level, cmd.note))


def level_of(text: str) -> int:
    """A quick damage or heal amount: ``2``, ``2 Very Hurt`` or ``very hurt``."""
    t = " ".join(str(text).split()).lower()
    for n, choice in enumerate(LEVEL_CHOICES):
        if t in (str(n), choice.lower(), WOUND_STATES[n].lower()):
            return n
    raise Refused(
        f"'{text}' is not a damage level: give 0 to 4 ({', '.join(LEVEL_CHOICES)}); "
        "Zludge harm is one box at a level, not points"
    )


_WEAPON = re.compile(r"^weapon\s*(?P<level>-?\d+)\b")


def harm_of(text: str) -> tuple[int, bool]:
    """A quick damage amount: the level and whether armor counts (``weapon 4, armor counts`` or ``weapon 4``: a
    weapon level; else a damage level as :func:`level_of` reads it)."""
    t = " ".join(str(text).split()).lower()
    m = _WEAPON.match(t)
    if m is None:
        return level_of(text), False
    level = int(m["level"])
    if not 0 <= level <= 4:
        raise Refused(
            f"weapon levels run 0 to 4, not {level}: {', '.join(ARMOR_CHOICES)}", rule=R.weapons
        )  # fmt: skip
    return level, True


@applies(R.armor, R.no_damage, R.partial_armor, R.location)
def armor_counted(d: Draft, c: Combatant, weapon: int, source: str, dice: Roller) -> None:
    """The weapon level less the target's armor, as an attack's hit: the wound that leaves, recording the weapon and
    the armor; below 0, no damage and a note says so (partial armor: a hit location rolled, the armor counting only
    where it covers)."""

    t = data(c)
    armor = t.armor_level
    location, loc_roll = "", None
    if t.armor_covers and set(LOCATIONS) - set(t.armor_covers):
        loc_roll = roll("1d6", dice, f"{c.name} hit location")
        location = location_of(loc_roll.total)
        if location not in t.armor_covers:
            armor = 0
    damage = damage_of("hit", weapon, armor)
    if damage is None:
        why = f" ({source})" if source else ""
        d.add(
            NoteAdded(
                text=f"{c.name}{where(location, loc_roll)}: weapon {weapon} − armor {armor} → below 0: no damage{why}",
                id=c.id,
            )
        )
        return
    wound = wound_event(c, damage, source)
    d.add(attrs.evolve(wound, weapon_level=weapon, armor_level=armor, location=location, location_roll=loc_roll))


def _targets(d: Draft, ids: Sequence[str]) -> list[Combatant]:
    return [need(d.state, i, "target") for i in ids]


def quick_damage(d: Draft, cmd: Damage, dice: Roller) -> None:
    """One wound (or fatigue) of the level on each target, through the track as an attack's damage; a weapon
    level with armor counting is first taken down by each target's armor (module docstring)."""
    level, armor_counts = harm_of(cmd.amount)
    if armor_counts and cmd.temporary:
        raise Refused(
            "armor takes levels off a weapon's damage (a wound): fatigue is marked at the level given; "
            "choose a plain level for fatigue",
            rule=R.armor,
        )
    source = cmd.note or "GM"
    for c in _targets(d, cmd.targets):
        if data(c).dead:
            raise Refused(f"{c.name} is already dead", rule=R.death)
        c = d.get(c.id)
        if cmd.temporary:
            d.add(fatigue_event(c, level, True, source))
        elif armor_counts:
            armor_counted(d, c, level, source, dice)
        else:
            d.add(wound_event(c, level, source))


def quick_heal(d: Draft, cmd: Heal, dice: Roller) -> None:
    """Outside a running fight: one wound box of the level cleared on each target."""
    if d.state.started and not d.state.ended:
        raise Refused(
            "Zludge wounds heal over days and weeks (a level a week), not during a fight: "
            "once the fight is over, first aid (f) eases a wound's penalty and healing clears its box",
            rule=R.healing,
        )
    level = level_of(cmd.amount)
    for c in _targets(d, cmd.targets):
        if data(c).dead:
            raise Refused(
                f"{c.name} is dead: no rest heals that (a GM adjust of 'dead' can rule otherwise)", rule=R.death
            )
        d.add(_cleared(d.get(c.id), "wounds", level, cmd.note or "healed"))
