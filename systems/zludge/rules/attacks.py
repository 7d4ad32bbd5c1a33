"""Attacks: the attack roll against the defense roll (or a fixed defense), the damage level, the wound.

Rulings (rule ids of :mod:`systems.zludge.table`):

- *Partial armor* (``partial_armor``, ``location``): armor that does not cover every location ("If so, use Hit
  Locations below for every attack") makes every attack against its wearer roll
  a hit location on 1d6 (faces logged, rolled even when the attack misses, so a
  revision after the roll reads the same armor); a called shot names the
  location instead.  The armor counts only where it covers.  A GM-given armor
  level overrides the sheet's armor and its coverage.
- *Bulky armor* (``bulky``) takes its penalty on every Athletics and Acrobatics roll: the
  Acrobatics defense (and the choice of the best defense) here, skill rolls in
  ``actions``.
- *Unarmed* (``unarmed``): an Unarmed attack is 0-level damage ("0: unarmed combat") whatever
  weapon the attacker carries; a weapon level the GM types in still rules.
- *Auto defense* (``attack``): against Melee or Unarmed attacks the defender uses the best
  of Acrobatics (less a bulky-armor penalty), Unarmed, and Melee if armed with a
  melee weapon; against Ranged attacks, Acrobatics.
- *Helpless defenders* (``helpless``): a target that is prone (Incapacitated, Exhausted) or
  unconscious makes no defense roll: fixed defense -1, as a stationary
  flat-footed target, less the penalties of its wounds and fatigue (-3 Incapacitated, -4 Comatose), as
  the roll it cannot make would take them (fixed at -1 alone, an Incapacitated target was harder to hit
  than one rolling at -3); the log says "no defense roll" with the reason.
- *Fixed defense* (``flat_footed``, ``situational``) still takes the GM's ±1 defense modifiers (cover); aspects
  and plot points need a roll to spend on.
- *Clipped armor* (``no_damage``): a tie deals 0-level damage whatever the armor (armor reduces
  only hits); a damage level below 0 after armor does no damage, a critical's +1 counted before that test
  (weapon 1 + 1 critical − armor 2 = 0: a 0-level wound; ruling in ``harm``,
  test_round4_fixes.py::test_a_critical_counts_before_armors_below_0_test).
"""

from __future__ import annotations

from tracker.commands import Modifier
from tracker.dice import Roll, Roller, roll
from tracker.errors import Refused
from tracker.kit import Draft, need
from tracker.model import Combatant

from ..checks import (
    Boosts,
    SkillRoll,
    base_mods,
    check_able,
    check_boosts,
    check_situational,
    check_specialty,
    check_turn,
    skill_mod,
    skill_roll,
)
from ..commands import Attack
from ..events import AttackResolved
from ..model import ATTACK_SKILLS, LOCATIONS, data
from ..table import R, applies
from .harm import damage_of, location_of, wound_event


@applies(R.outcome, R.critical)
def outcome_of(margin: int) -> str:
    """Attack less than defense: miss; equal: clipped; more: hit; 4 or more over: critical."""
    return "miss" if margin < 0 else "clipped" if margin == 0 else "critical" if margin >= 4 else "hit"


@applies(R.outcome, R.critical, R.armor, R.no_damage)
def wound_source(attacker: Combatant, ev: AttackResolved) -> str:
    """What dealt the wound, for the log: the attacker's weapon, an unarmed attack, or an attack."""
    a = data(attacker)
    if ev.skill.startswith("Unarmed") and ev.weapon_level == 0:
        return f"{attacker.name}'s unarmed attack"
    if ev.weapon_level == a.weapon_level and ev.skill.startswith(a.weapon_skill):
        return f"{attacker.name}'s {a.weapon}"
    return f"{attacker.name}'s attack"


def _defense_skill(attacker_skill: str, target: Combatant, choice: str) -> str:
    d = data(target)
    close = attacker_skill in ("Melee", "Unarmed")
    if choice == "auto":
        options = ["Acrobatics"]
        if close:
            options.append("Unarmed")
            if d.weapon_skill == "Melee":
                options.append("Melee")
        return max(options, key=lambda s: sum(m.value for m in base_mods(target, s)))
    if choice not in ("Acrobatics", "Melee", "Unarmed"):
        raise Refused(f"defense is Acrobatics, Melee or Unarmed, not '{choice}'", rule=R.attack)
    if choice != "Acrobatics" and not close:
        raise Refused(f"against a {attacker_skill} attack the defense roll is Acrobatics", rule=R.attack)
    if choice == "Melee" and d.weapon_skill != "Melee":
        raise Refused(
            f"{target.name} needs a melee weapon to defend with Melee ({d.weapon} is {d.weapon_skill})", rule=R.attack
        )
    return choice


def _check(d: Draft, cmd: Attack) -> tuple[Combatant, Combatant, str, int, int]:
    """The attacker, the defender, the attack skill, the weapon level and the armor level, or Refused."""
    state = d.state
    if not state.started or state.ended:
        raise Refused("attacks happen in the fight: roll initiative and start it first")
    actor = need(state, cmd.actor, "attacker")
    target = need(state, cmd.target, "defender")
    if actor.id == target.id:
        raise Refused(f"{actor.name} cannot attack itself")
    check_able(actor, True, "attack", cmd.gm_allows)
    check_turn(state, actor)
    if data(target).dead:
        raise Refused(f"{target.name} is already dead", rule=R.death)
    a, t = data(actor), data(target)
    skill = a.weapon_skill if cmd.skill == "weapon" else cmd.skill
    if skill not in ATTACK_SKILLS:
        raise Refused(f"the attack roll is Melee, Ranged or Unarmed, not '{skill}'", rule=R.attack)
    if cmd.weapon_level is not None:
        weapon = cmd.weapon_level
    else:
        weapon = 0 if skill == "Unarmed" else a.weapon_level  # R.unarmed
    if not 0 <= weapon <= 4:
        raise Refused(f"weapon damage levels run 0 (unarmed) to 4 (explosives), not {weapon}", rule=R.weapons)
    armor = t.armor_level if cmd.armor_level is None else cmd.armor_level
    if not 0 <= armor <= 4:
        raise Refused(f"armor levels run 0 (leather jacket) to 4 (bomb suit), not {armor}", rule=R.armor)
    if cmd.called_shot != "none" and cmd.called_shot not in LOCATIONS:
        raise Refused(f"a called shot picks one of {', '.join(LOCATIONS)}, not '{cmd.called_shot}'", rule=R.called_shot)
    return actor, target, skill, weapon, armor


@applies(R.attack, R.flat_footed, R.helpless, R.situational, R.bulky)
def _defend(
    target: Combatant, skill: str, cmd: Attack, dice: Roller, helpless: bool, flat: bool
) -> tuple[SkillRoll | None, tuple[Modifier, ...], int, str | None]:
    """The defense: a roll, or the fixed defense of a flat-footed or helpless target."""
    t = data(target)
    def_mods = check_situational(cmd.defense_modifiers)
    if flat:
        fixed = 0 if cmd.target_moving and not helpless else -1
        label = "moving" if fixed == 0 else "stationary"
        penalties: tuple[Modifier, ...] = ()
        if helpless:  # it cannot defend, and its wounds and fatigue make it easier to hit, not harder
            label = "unconscious" if t.unconscious else "prone"
            penalties = t.penalties(physical=True)
        mods = (Modifier(label=label, value=fixed), *penalties, *def_mods)
        return None, mods, sum(m.value for m in mods), None
    dskill = _defense_skill(skill, target, cmd.defense)
    dspec = check_specialty(target, dskill, cmd.defense_specialty)
    daspect = check_boosts(
        target, Boosts(aspect=cmd.defense_aspect, use=cmd.defense_aspect_use, plot_points=cmd.defense_plot_points)
    )
    dfn = skill_roll(
        target,
        dice,
        f"{target.name} defends",
        aspect=daspect,
        use=cmd.defense_aspect_use,
        plot_point=cmd.defense_plot_points == 1,
        base=base_mods(target, dskill, dspec, *def_mods),
    )
    return dfn, dfn.mods, dfn.total, dskill


@applies(R.attack, R.weapons, R.unarmed, R.called_shot, R.partial_armor, R.location, R.wound_track)
def attack(d: Draft, cmd: Attack, dice: Roller) -> None:
    actor, target, skill, weapon, armor = _check(d, cmd)
    t = data(target)
    specialty = check_specialty(actor, skill, cmd.specialty)
    atk_mods = check_situational(cmd.modifiers)
    check_situational(cmd.defense_modifiers)
    aspect = check_boosts(actor, Boosts(aspect=cmd.aspect, use=cmd.aspect_use, plot_points=cmd.plot_points), "attack")
    # flat-footed (before its first action) or helpless (prone, unconscious): no defense roll
    helpless = t.prone or t.unconscious
    flat = not t.acted or helpless
    if flat and (cmd.defense_aspect.strip() or cmd.defense_plot_points):
        why = "flat-footed" if not t.acted else "unable to defend"
        rule = R.flat_footed if not t.acted else R.helpless
        raise Refused(
            f"{target.name} is {why} and makes no defense roll: no aspect or plot point to spend on it", rule=rule
        )
    if not flat:  # check the defender's choices before any die is rolled
        dskill = _defense_skill(skill, target, cmd.defense)
        check_specialty(target, dskill, cmd.defense_specialty)
        check_boosts(
            target, Boosts(aspect=cmd.defense_aspect, use=cmd.defense_aspect_use, plot_points=cmd.defense_plot_points)
        )
    called = [Modifier(label=f"called shot ({cmd.called_shot})", value=-2)] if cmd.called_shot != "none" else []
    atk = skill_roll(
        actor,
        dice,
        f"{actor.name} attacks",
        aspect=aspect,
        use=cmd.aspect_use,
        plot_point=cmd.plot_points == 1,
        base=[skill_mod(actor, skill, specialty), *called, *atk_mods],
    )
    dfn, dmods, dtotal, dskill_name = _defend(target, skill, cmd, dice, helpless, flat)
    outcome = outcome_of(atk.total - dtotal)
    location = "" if cmd.called_shot == "none" else cmd.called_shot
    loc_roll: Roll | None = None
    partial = bool(t.armor_covers) and set(LOCATIONS) - set(t.armor_covers) != set() and cmd.armor_level is None
    if not location and (partial or (cmd.roll_location and outcome != "miss")):
        loc_roll = roll("1d6", dice, "hit location")
        location = location_of(loc_roll.total)
    if location and partial and location not in t.armor_covers:
        armor = 0
    damage = damage_of(outcome, weapon, armor)
    ev = AttackResolved(
        actor=actor.id,
        target=target.id,
        skill=skill if not specialty else f"{skill} ({specialty})",
        attack=atk.roll,
        attack_rerolled=atk.rerolled,
        attack_better=atk.better,
        attack_mods=atk.mods,
        attack_total=atk.total,
        defense_skill=dskill_name,
        defense=dfn.roll if dfn else None,
        defense_rerolled=dfn.rerolled if dfn else None,
        defense_better=dfn.better if dfn else False,
        defense_mods=tuple(dmods),
        defense_total=dtotal,
        outcome=outcome,
        weapon_level=weapon,
        armor_level=armor,
        damage_level=damage,
        location=location,
        location_roll=loc_roll,
        aspect=aspect,
        defense_aspect=dfn.aspect if dfn else "",
        plot_point=cmd.plot_points == 1,
        defense_plot_point=bool(dfn) and cmd.defense_plot_points == 1,
    )
    d.add(ev)
    if damage is not None:
        d.add(wound_event(d.get(target.id), damage, wound_source(actor, ev)))
