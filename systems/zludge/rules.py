"""Zludge decide and evolve: initiative, attacks, wounds, fatigue, first aid."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from tracker import events as E
from tracker.commands import Modifier
from tracker.dice import DiceError, Roll, Roller, roll
from tracker.errors import Refused, UnknownEvent
from tracker.model import Combatant, FightState, Prompt

from . import commands as C
from . import events as Z
from .sheet import (
    COMATOSE,
    EXHAUSTED,
    FATIGUE_STATES,
    INCAPACITATED,
    LOCATIONS,
    WOUND_STATES,
    Box,
    ZludgeData,
    ladder,
    place,
)

MAX_TIE_REROLLS = 20


@attrs.frozen(kw_only=True)
class LastRoll:
    """The roll just made, still open to an aspect or plot point spent after it."""

    event: Any  # AttackResolved or SkillRolled, as it now stands
    before: tuple[Combatant, ...]  # the combatants it touched, as they were before it
    tail: int = 0  # events of its action still to come (its wound, treatment, prompt)


@attrs.frozen(kw_only=True)
class ZludgeFight:
    ambushers: tuple[str, ...] = ()
    last_roll: LastRoll | None = None


# ---------------------------------------------------------------------------
# dice


def fudge(dice: Roller, label: str) -> Roll:
    """4dF; faces other than -1/0/+1 are refused."""
    try:
        r = roll("4dF", dice, label)
    except DiceError as e:
        prefix = "4dF faces are -1, 0 or +1: " if "impossible" in str(e) else ""
        raise Refused(f"{prefix}{e}") from None
    if any(f not in (-1, 0, 1) for f in r.faces):
        raise Refused(f"4dF faces are -1, 0 or +1, not {list(r.faces)}")
    return r


@attrs.frozen(kw_only=True)
class SkillRoll:
    roll: Roll
    rerolled: Roll | None
    mods: tuple[Modifier, ...]
    total: int
    aspect: str
    plot_point: bool


@attrs.frozen(kw_only=True)
class Boosts:
    """What a combatant spends on one roll: an aspect invocation and a plot point."""

    aspect: str = ""
    use: str = "+1"
    plot_points: int = 0


def check_boosts(c: Combatant, b: Boosts, what: str = "roll") -> str:
    """Check an aspect invocation and plot points; return the aspect's name as written on the sheet."""
    data: ZludgeData = c.data
    if b.plot_points < 0:
        raise Refused("plot points spent cannot be negative")
    if b.plot_points > 1:
        raise Refused(f"only one plot point can be spent per check, not {b.plot_points}")
    if b.plot_points and data.plot_points < 1:
        raise Refused(f"{c.name} has no plot points left")
    if b.use not in C.ASPECT_USES:
        raise Refused(f"an invoked aspect gives +1 or a reroll, not '{b.use}'")
    name = b.aspect.strip()
    if not name:
        return ""
    for a in data.aspects:
        if a.lower() == name.lower():
            if a in data.aspects_used:
                raise Refused(
                    f"{c.name}'s aspect '{a}' is already checked off today: aspects refresh once per game day"
                )
            return a
    have = ", ".join(data.aspects) or "none"
    raise Refused(f"{c.name} has no aspect '{name}' to invoke on the {what} (aspects: {have})")


def check_situational(mods: Sequence[Modifier]) -> tuple[Modifier, ...]:
    for m in mods:
        if m.value not in (-1, 1):
            raise Refused(f"situational modifiers are +1 or -1 each (Ruling), not '{m.describe()}': list each one")
    return tuple(mods)


def check_specialty(c: Combatant, skill: str, specialty: str) -> str:
    if not specialty.strip():
        return ""
    s = c.data.skill(skill)
    for sp in s.specs if s else ():
        if sp.lower() == specialty.strip().lower():
            return sp
    raise Refused(f"{c.name} has no specialization '{specialty}' in {skill}")


def skill_roll(
    c: Combatant,
    skill: str,
    dice: Roller,
    label: str,
    *,
    aspect: str,
    use: str,
    plot_point: bool,
    base: Sequence[Modifier] = (),
    physical: bool = True,
) -> SkillRoll:
    """4dF + skill modifier + penalties + situational + aspect/plot point (all checked beforehand)."""
    first = fudge(dice, label)
    again = None
    if aspect and use == "reroll":
        again, first = first, fudge(dice, f"{label} (reroll: {aspect})")
    mods = list(base)
    mods.extend(c.data.penalties(physical))
    if aspect and use == "+1":
        mods.append(Modifier(label=f"aspect '{aspect}'", value=1))
    if plot_point:
        mods.append(Modifier(label="plot point", value=1))
    total = first.total + sum(m.value for m in mods)
    return SkillRoll(roll=first, rerolled=again, mods=tuple(mods), total=total, aspect=aspect, plot_point=plot_point)


def skill_mod(c: Combatant, skill: str, specialty: str = "") -> Modifier:
    value = c.data.skill_mod(skill, specialty)
    label = f"{skill} ({specialty})" if specialty else skill
    return Modifier(label=label, value=value)


# ---------------------------------------------------------------------------
# who may act


def need(state: FightState, cid: str | None, what: str = "combatant") -> Combatant:
    if not cid:
        raise Refused(f"choose a {what}")
    c = state.find(cid) or state.by_name(cid)
    if c is None or c.removed:
        raise Refused(f"there is no {what} '{cid}' in this fight")
    return c


def check_able(c: Combatant, physical: bool, what: str) -> None:
    d: ZludgeData = c.data
    if d.dead:
        raise Refused(f"{c.name} is dead")
    if d.unconscious:
        state = "Comatose" if d.wound_effect >= COMATOSE else "Unconscious"
        raise Refused(f"{c.name} is {state}: unconscious, no actions are possible")
    if physical and d.prone:
        state = WOUND_STATES[INCAPACITATED] if d.wound_effect >= INCAPACITATED else FATIGUE_STATES[EXHAUSTED]
        raise Refused(f"{c.name} is {state}: knocked prone, most actions are not possible (cannot {what})")


def check_turn(state: FightState, c: Combatant) -> None:
    """One action per turn, on one's own turn, while the fight runs."""
    if not state.started or state.ended:
        return
    if state.current != c.id:
        raise Refused(f"it is {state.name(state.current)}'s turn: {c.name} acts on its own turn (one action per turn)")
    if c.data.spent:
        raise Refused(f"{c.name} has already taken its action this turn (one action per turn)")


# ---------------------------------------------------------------------------
# initiative


def _ceil_half(n: int) -> int:
    return -(-n // 2)


def initiative(
    state: FightState, ids: Sequence[str], dice: Roller, ambushers: Sequence[str] | None = None
) -> list[E.Event]:
    """Reflexes rolls (or the ambush rolls); ties roll again among the tied, every roll logged."""
    mods: dict[str, tuple[int, str]] = {}
    for i in ids:
        c = state.get(i)
        d: ZludgeData = c.data
        if d.unconscious:
            continue
        pen = sum(m.value for m in d.penalties(True))
        if ambushers is None:
            mods[i] = (d.skill_mod("Reflexes") + pen, "Reflexes")
        elif i in ambushers:
            mods[i] = (d.skill_mod("Stealth") + pen, "ambusher: Stealth")
        else:
            avg = _ceil_half(d.skill_mod("Reflexes") + d.skill_mod("Alertness"))
            mods[i] = (avg + pen, "ambushed: average of Reflexes and Alertness, rounded up")
    events: list[E.Event] = []
    keys: dict[str, tuple[int, ...]] = {}
    for c in state.combatants:
        if not c.removed and c.initiative is not None and c.id not in mods:
            keys[c.id] = (c.initiative, *c.data.init_tiebreak)
    for i, (mod, note) in mods.items():
        r = fudge(dice, f"{state.name(i)} initiative")
        value = r.total + mod
        events.append(E.InitiativeSet(id=i, value=value, roll=r, note=f"{note} {mod:+d} → {ladder(value)}"))
        keys[i] = (value,)
    for _ in range(MAX_TIE_REROLLS):
        groups = _tied(keys)
        if not groups:
            break
        for group in groups:
            rolls, gmods = [], []
            for i in group:
                mod = mods[i][0] if i in mods else state.get(i).data.skill_mod("Reflexes")
                rolls.append(fudge(dice, f"{state.name(i)} initiative tie"))
                gmods.append(mod)
            ev = Z.TieRerolled(ids=group, rolls=tuple(rolls), modifiers=tuple(gmods))
            for i, t in zip(group, ev.totals(), strict=True):
                keys[i] = (*keys[i], t)
            events.append(ev)
    order = tuple(sorted(keys, key=lambda i: keys[i], reverse=True))
    rest = tuple(c.id for c in state.combatants if not c.removed and c.id not in keys)
    note = "by Reflexes" if ambushers is None else "ambush"
    events.append(E.OrderSet(order=order + rest, ties=_tied(keys), note=note))
    return events


def _tied(keys: Mapping[str, tuple[int, ...]]) -> tuple[tuple[str, ...], ...]:
    seen: dict[tuple[int, ...], list[str]] = {}
    for i, k in keys.items():
        seen.setdefault(k, []).append(i)
    return tuple(tuple(g) for g in seen.values() if len(g) > 1)


def ambush(state: FightState, cmd: C.AmbushInitiative, dice: Roller) -> list[E.Event]:
    if state.started:
        raise Refused("an ambush is rolled before the fight starts")
    ambushers = tuple(dict.fromkeys(need(state, i, "ambusher").id for i in cmd.ambushers))
    if not ambushers:
        raise Refused("name the ambushers (they roll Stealth)")
    ids = tuple(c.id for c in state.present)
    if all(i in ambushers for i in ids):
        raise Refused("an ambush needs victims: not everyone can be an ambusher")
    return [Z.AmbushDeclared(ambushers=ambushers), *initiative(state, ids, dice, ambushers)]


# ---------------------------------------------------------------------------
# attacks


def wound_events(target: Combatant, level: int, source: str) -> list[E.Event]:
    d: ZludgeData = target.data
    box, full = place(d.wounds, d.wound_capacity, level)
    return [Z.WoundMarked(target=target.id, wound=level, box=box, full=full, source=source)]


def _defense_skill(attacker_skill: str, target: Combatant, choice: str, specialty: str) -> str:
    d: ZludgeData = target.data
    close = attacker_skill in ("Melee", "Unarmed")
    if choice == "auto":
        options = ["Acrobatics"]
        if close:
            options.append("Unarmed")
            if d.weapon_skill == "Melee":
                options.append("Melee")
        return max(options, key=lambda s: _defense_value(target, s, ""))
    if choice not in ("Acrobatics", "Melee", "Unarmed"):
        raise Refused(f"defense is Acrobatics, Melee or Unarmed, not '{choice}'")
    if choice != "Acrobatics" and not close:
        raise Refused(f"against a {attacker_skill} attack the defense roll is Acrobatics")
    if choice == "Melee" and d.weapon_skill != "Melee":
        raise Refused(f"{target.name} needs a melee weapon to defend with Melee ({d.weapon} is {d.weapon_skill})")
    return choice


def _defense_value(target: Combatant, skill: str, specialty: str) -> int:
    value = target.data.skill_mod(skill, specialty)
    if skill == "Acrobatics":
        value -= target.data.armor_penalty
    return value


def attack(state: FightState, cmd: C.Attack, dice: Roller) -> list[E.Event]:
    if not state.started or state.ended:
        raise Refused("attacks happen in the fight: roll initiative and start it first")
    actor = need(state, cmd.actor, "attacker")
    target = need(state, cmd.target, "defender")
    if actor.id == target.id:
        raise Refused(f"{actor.name} cannot attack itself")
    check_able(actor, True, "attack")
    check_turn(state, actor)
    if target.data.dead:
        raise Refused(f"{target.name} is already dead")
    a: ZludgeData = actor.data
    t: ZludgeData = target.data
    skill = a.weapon_skill if cmd.skill == "weapon" else cmd.skill
    if skill not in ("Melee", "Ranged", "Unarmed"):
        raise Refused(f"the attack roll is Melee, Ranged or Unarmed, not '{skill}'")
    weapon = a.weapon_level if cmd.weapon_level is None else cmd.weapon_level
    if not 0 <= weapon <= 4:
        raise Refused(f"weapon damage levels run 0 (unarmed) to 4 (explosives), not {weapon}")
    armor = t.armor_level if cmd.armor_level is None else cmd.armor_level
    if not 0 <= armor <= 4:
        raise Refused(f"armor levels run 0 (leather jacket) to 4 (bomb suit), not {armor}")
    if cmd.called_shot != "none" and cmd.called_shot not in LOCATIONS:
        raise Refused(f"a called shot picks one of {', '.join(LOCATIONS)}, not '{cmd.called_shot}'")
    specialty = check_specialty(actor, skill, cmd.specialty)
    atk_mods = check_situational(cmd.modifiers)
    def_mods = check_situational(cmd.defense_modifiers)
    aspect = check_boosts(actor, Boosts(aspect=cmd.aspect, use=cmd.aspect_use, plot_points=cmd.plot_points), "attack")
    # flat-footed (before its first action) or helpless (prone, unconscious): no defense roll
    helpless = t.prone or t.unconscious
    flat = not t.acted or helpless
    if flat and (cmd.defense_aspect.strip() or cmd.defense_plot_points):
        why = "flat-footed" if not t.acted else "unable to defend"
        raise Refused(f"{target.name} is {why} and makes no defense roll: no aspect or plot point to spend on it")
    if not flat:
        dskill = _defense_skill(skill, target, cmd.defense, cmd.defense_specialty)
        dspec = check_specialty(target, dskill, cmd.defense_specialty)
        daspect = check_boosts(
            target, Boosts(aspect=cmd.defense_aspect, use=cmd.defense_aspect_use, plot_points=cmd.defense_plot_points)
        )
    base = [skill_mod(actor, skill, specialty)]
    if cmd.called_shot != "none":
        base.append(Modifier(label=f"called shot ({cmd.called_shot})", value=-2))
    base.extend(atk_mods)
    atk = skill_roll(
        actor,
        skill,
        dice,
        f"{actor.name} attacks",
        aspect=aspect,
        use=cmd.aspect_use,
        plot_point=cmd.plot_points == 1,
        base=base,
    )
    if flat:
        fixed = 0 if cmd.target_moving and not helpless else -1
        label = "moving" if fixed == 0 else "stationary"
        if helpless:
            label = "unconscious" if t.unconscious else "prone"
        dmods = (Modifier(label=label, value=fixed), *def_mods)
        dfn = None
        dtotal = sum(m.value for m in dmods)
        dskill_name = None
        daspect = ""
    else:
        dbase = [skill_mod(target, dskill, dspec)]
        if dskill == "Acrobatics" and t.armor_penalty:
            dbase.append(Modifier(label=f"bulky {t.armor}", value=-t.armor_penalty))
        dbase.extend(def_mods)
        dfn = skill_roll(
            target,
            dskill,
            dice,
            f"{target.name} defends",
            aspect=daspect,
            use=cmd.defense_aspect_use,
            plot_point=cmd.defense_plot_points == 1,
            base=dbase,
        )
        dmods = dfn.mods
        dtotal = dfn.total
        dskill_name = dskill
    margin = atk.total - dtotal
    outcome = "miss" if margin < 0 else "clipped" if margin == 0 else "critical" if margin >= 4 else "hit"
    location = "" if cmd.called_shot == "none" else cmd.called_shot
    loc_roll = None
    if outcome != "miss" and not location and cmd.roll_location:
        loc_roll = roll("1d6", dice, "hit location")
        location = _location(loc_roll.total)
    if location and t.armor_covers and location not in t.armor_covers and cmd.armor_level is None:
        armor = 0
    damage: int | None = None
    if outcome == "clipped":
        damage = 0
    elif outcome in ("hit", "critical"):
        damage = weapon - armor + (1 if outcome == "critical" else 0)
        if damage < 0:
            damage = None
    ev = Z.AttackResolved(
        actor=actor.id,
        target=target.id,
        skill=skill if not specialty else f"{skill} ({specialty})",
        attack=atk.roll,
        attack_rerolled=atk.rerolled,
        attack_mods=atk.mods,
        attack_total=atk.total,
        defense_skill=dskill_name,
        defense=dfn.roll if dfn else None,
        defense_rerolled=dfn.rerolled if dfn else None,
        defense_mods=tuple(dmods),
        defense_total=dtotal,
        outcome=outcome,
        weapon_level=weapon,
        armor_level=armor,
        damage_level=damage,
        location=location,
        location_roll=loc_roll,
        aspect=aspect,
        defense_aspect=daspect if dfn else "",
        plot_point=cmd.plot_points == 1,
        defense_plot_point=bool(dfn) and cmd.defense_plot_points == 1,
    )
    events: list[E.Event] = [ev]
    if damage is not None:
        events.extend(
            wound_events(target, damage, f"{actor.name}'s {a.weapon if cmd.weapon_level is None else 'attack'}")
        )
    return events


def _location(face: int) -> str:
    """Ruling: 1 head, 2-3 torso, 4 right arm, 5 left arm, 6 legs."""
    return {1: "head", 2: "torso", 3: "torso", 4: "right arm", 5: "left arm", 6: "legs"}[face]


# ---------------------------------------------------------------------------
# other actions


def roll_skill_cmd(state: FightState, cmd: C.RollSkill, dice: Roller) -> list[E.Event]:
    actor = need(state, cmd.actor)
    skill = cmd.skill.strip().title()
    if not skill:
        raise Refused("name the skill to roll")
    check_able(actor, cmd.physical, f"roll {skill}")
    if cmd.as_action:
        check_turn(state, actor)
    if not -4 <= cmd.difficulty <= 2:
        raise Refused(f"difficulty runs -4 (Improbable) to +2 (Negligible), not {cmd.difficulty:+d}")
    spec = check_specialty(actor, skill, cmd.specialty)
    mods = check_situational(cmd.modifiers)
    aspect = check_boosts(actor, Boosts(aspect=cmd.aspect, use=cmd.aspect_use, plot_points=cmd.plot_points))
    base = [skill_mod(actor, skill, spec)]
    if cmd.difficulty:
        base.append(Modifier(label="difficulty", value=cmd.difficulty))
    base.extend(mods)
    r = skill_roll(
        actor, skill, dice, f"{actor.name} {skill}", aspect=aspect, use=cmd.aspect_use,
        plot_point=cmd.plot_points == 1, base=base, physical=cmd.physical,
    )  # fmt: skip
    ev = Z.SkillRolled(
        actor=actor.id,
        skill=skill if not spec else f"{skill} ({spec})",
        roll=r.roll,
        rerolled=r.rerolled,
        mods=r.mods,
        total=r.total,
        physical=cmd.physical,
        aspect=aspect,
        plot_point=r.plot_point,
        counts_as_action=cmd.as_action,
    )
    events: list[E.Event] = [ev]
    if reopen_due(actor.data, ev):
        events.append(reopen_prompt(actor))
    return events


def reopen_due(d: ZludgeData, ev: Z.SkillRolled) -> bool:
    """A failed physical check by someone with treated wounds: the GM says whether they reopen."""
    return ev.physical and not ev.success and any(b.treated for b in d.wounds)


def reopen_prompt(actor: Combatant) -> E.PromptRaised:
    return E.PromptRaised(
        prompt=Prompt(
            id=f"reopen:{actor.id}",
            kind="reopen",
            text=f"{actor.name} failed a physical check: do the treated wounds reopen?",
            combatant=actor.id,
            command="reopen_wounds",
            params={"target": actor.id},
        )
    )


def untreated(d: ZludgeData) -> int:
    return sum(1 for b in d.wounds if b.level > 0 and not b.treated)


def first_aid(state: FightState, cmd: C.FirstAid, dice: Roller) -> list[E.Event]:
    medic = need(state, cmd.actor, "medic")
    patient = need(state, cmd.target, "patient")
    check_able(medic, False, "give first aid")
    check_turn(state, medic)
    if patient.data.dead:
        raise Refused(f"{patient.name} is dead: first aid cannot help")
    n_untreated = untreated(patient.data)
    if not n_untreated:
        raise Refused(f"{patient.name} has no untreated wound above Scratched for first aid to ease")
    if not -4 <= cmd.difficulty <= 2:
        raise Refused(f"difficulty runs -4 (Improbable) to +2 (Negligible), not {cmd.difficulty:+d}")
    mods = check_situational(cmd.modifiers)
    aspect = check_boosts(medic, Boosts(aspect=cmd.aspect, use=cmd.aspect_use, plot_points=cmd.plot_points))
    skill = medic.data.skill("Medical")
    spec = next((sp for sp in (skill.specs if skill else ()) if sp.lower() == "first aid"), "")
    base = [skill_mod(medic, "Medical", spec)]
    if cmd.difficulty:
        base.append(Modifier(label="difficulty", value=cmd.difficulty))
    base.extend(mods)
    r = skill_roll(
        medic, "Medical", dice, f"{medic.name} first aid", aspect=aspect, use=cmd.aspect_use,
        plot_point=cmd.plot_points == 1, base=base, physical=False,
    )  # fmt: skip
    ev = Z.SkillRolled(
        actor=medic.id,
        skill=f"Medical ({spec})" if spec else "Medical",
        roll=r.roll,
        rerolled=r.rerolled,
        mods=r.mods,
        total=r.total,
        physical=False,
        purpose="first aid",
        target=patient.id,
        aspect=aspect,
        plot_point=r.plot_point,
    )
    events: list[E.Event] = [ev]
    if ev.success:
        events.append(Z.WoundsTreated(target=patient.id, boxes=n_untreated))
    return events


def reopen(state: FightState, cmd: C.ReopenWounds) -> list[E.Event]:
    c = need(state, cmd.target)
    if not any(b.treated for b in c.data.wounds):
        raise Refused(f"{c.name} has no treated wounds to reopen")
    events: list[E.Event] = [Z.WoundsReopened(target=c.id, note=cmd.note)]
    if any(p.id == f"reopen:{c.id}" for p in state.prompts):
        events.append(E.PromptResolved(prompt_id=f"reopen:{c.id}", note="the wounds reopen"))
    return events


def mark_wound(state: FightState, cmd: C.MarkWound) -> list[E.Event]:
    c = need(state, cmd.target)
    if not 0 <= cmd.level <= 4:
        raise Refused(f"damage levels run 0 to 4, not {cmd.level}")
    if c.data.dead:
        raise Refused(f"{c.name} is already dead")
    return wound_events(c, cmd.level, cmd.note or "GM")


def mark_fatigue(state: FightState, cmd: C.MarkFatigue) -> list[E.Event]:
    c = need(state, cmd.target)
    if not 0 <= cmd.level <= 4:
        raise Refused(f"fatigue levels run 0 to 4, not {cmd.level}")
    d: ZludgeData = c.data
    box, full = place(d.fatigue, d.fatigue_capacity, cmd.level)
    return [Z.FatigueMarked(target=c.id, level=cmd.level, box=box, full=full, physical=cmd.physical, source=cmd.note)]


def clear_box(state: FightState, cmd: C.ClearBox) -> list[E.Event]:
    c = need(state, cmd.target)
    if cmd.track not in ("wounds", "fatigue"):
        raise Refused("the tracks are 'wounds' and 'fatigue'")
    boxes = c.data.wounds if cmd.track == "wounds" else c.data.fatigue
    names = WOUND_STATES if cmd.track == "wounds" else FATIGUE_STATES
    if not 0 <= cmd.level <= 4 or not any(b.level == cmd.level for b in boxes):
        what = names[cmd.level] if 0 <= cmd.level <= 4 else f"level {cmd.level}"
        raise Refused(f"{c.name} has no checked {what} box to clear")
    return [Z.BoxCleared(target=c.id, track=cmd.track, level=cmd.level, note=cmd.note)]


def refresh(state: FightState, cmd: C.RefreshAspects) -> list[E.Event]:
    pool = [need(state, i) for i in cmd.ids] if cmd.ids else list(state.present)
    ids = tuple(c.id for c in pool if c.data.aspects_used)
    if not ids:
        raise Refused("no aspect is checked off: nothing to refresh")
    return [Z.AspectsRefreshed(ids=ids)]


def take_action(state: FightState, cmd: C.TakeAction) -> list[E.Event]:
    c = need(state, cmd.actor)
    if not cmd.text.strip():
        raise Refused("say what the action is")
    check_able(c, cmd.physical, "act")
    check_turn(state, c)
    return [Z.ActionTaken(actor=c.id, text=cmd.text.strip(), physical=cmd.physical)]


# ---------------------------------------------------------------------------
# aspects and plot points after the roll


def _outcome(margin: int) -> str:
    return "miss" if margin < 0 else "clipped" if margin == 0 else "critical" if margin >= 4 else "hit"


def _damage(outcome: str, weapon: int, armor: int) -> int | None:
    """Clipped: 0-level; a hit: weapon - armor (+1 critical); below 0 (or a miss): no damage."""
    if outcome == "clipped":
        return 0
    if outcome in ("hit", "critical"):
        damage = weapon - armor + (1 if outcome == "critical" else 0)
        return damage if damage >= 0 else None
    return None


def invoke_after(state: FightState, cmd: C.InvokeAfter, dice: Roller) -> list[E.Event]:
    """Ruling: an aspect or plot point spent after seeing the roll just made (nothing else in between)."""
    who = need(state, cmd.actor)
    last: LastRoll | None = state.data.last_roll if state.data else None
    if last is None or last.tail:
        raise Refused(
            "an aspect or plot point spent after the roll goes on the roll just made, before anything else "
            "happens: there is no such roll now"
        )
    ev = last.event
    if isinstance(ev, Z.AttackResolved):
        if who.id == ev.actor:
            side, roll_, mods, total, against = "attack", ev.attack, ev.attack_mods, ev.attack_total, ev.defense_total
            used_aspect, used_pp = ev.aspect, ev.plot_point
        elif who.id == ev.target:
            if ev.defense is None:
                raise Refused(
                    f"{who.name} made no defense roll (fixed defense): nothing to spend an aspect or plot point on"
                )
            side, roll_, mods, total, against = (
                "defense",
                ev.defense,
                ev.defense_mods,
                ev.defense_total,
                ev.attack_total,
            )
            used_aspect, used_pp = ev.defense_aspect, ev.defense_plot_point
        else:
            raise Refused(
                f"{who.name} made no roll in the last attack: only the attacker and the defender may spend on it"
            )
    else:
        if who.id != ev.actor:
            raise Refused(f"{who.name} did not make the last roll ({state.name(ev.actor)}'s {ev.skill})")
        side, roll_, mods, total, against = "skill", ev.roll, ev.mods, ev.total, None
        used_aspect, used_pp = ev.aspect, ev.plot_point
    if not cmd.aspect.strip() and not cmd.plot_points:
        raise Refused("name an aspect to invoke or spend a plot point")
    aspect = check_boosts(who, Boosts(aspect=cmd.aspect, use=cmd.aspect_use, plot_points=cmd.plot_points))
    if aspect and used_aspect:
        raise Refused(f"one aspect invocation per roll (Ruling): {who.name} already invoked '{used_aspect}' on it")
    if cmd.plot_points and used_pp:
        raise Refused(f"only one plot point can be spent per check: {who.name} already spent one on this roll")
    new_roll = None
    if aspect and cmd.aspect_use == "reroll":
        new_roll = fudge(dice, f"{who.name} rerolls ({aspect})")
    new_mods = list(mods)
    if aspect and cmd.aspect_use == "+1":
        new_mods.append(Modifier(label=f"aspect '{aspect}'", value=1))
    if cmd.plot_points:
        new_mods.append(Modifier(label="plot point", value=1))
    new_total = (new_roll or roll_).total + sum(m.value for m in new_mods)
    before = {c.id: c for c in last.before}
    follow: list[E.Event] = []
    outcome, damage, opponent = "", None, None
    if isinstance(ev, Z.AttackResolved):
        atk, dfn = (new_total, against) if side == "attack" else (against, new_total)
        outcome = _outcome(atk - dfn)
        damage = _damage(outcome, ev.weapon_level, ev.armor_level)
        opponent = ev.target if side == "attack" else ev.actor
        if damage is not None:
            attacker = before[ev.actor]
            source = attacker.data.weapon if ev.weapon_level == attacker.data.weapon_level else "attack"
            follow = wound_events(before[ev.target], damage, f"{attacker.name}'s {source}")
    else:
        revised = attrs.evolve(ev, total=new_total)
        if ev.purpose == "first aid" and revised.success and ev.target is not None:
            follow = [Z.WoundsTreated(target=ev.target, boxes=untreated(before[ev.target].data))]
        open_ = any(p.id == f"reopen:{who.id}" for p in state.prompts)
        due, was_due = reopen_due(before[who.id].data, revised), reopen_due(before[who.id].data, ev)
        if due and not open_:
            follow = [reopen_prompt(who)]
        elif was_due and not due and open_:
            follow = [E.PromptResolved(prompt_id=f"reopen:{who.id}", note="the check succeeds after all")]
    rr = Z.RollRevised(
        who=who.id,
        side=side,
        aspect=aspect,
        reroll=new_roll,
        plot_point=bool(cmd.plot_points),
        mods=tuple(new_mods),
        total_before=total,
        total=new_total,
        against=against,
        outcome=outcome,
        damage_level=damage,
        opponent=opponent,
        follow=len(follow),
    )
    return [rr, *follow]


def revised_event(ev: Any, rr: Z.RollRevised) -> Any:
    """The last roll as the revision leaves it."""
    if rr.side == "skill":
        return attrs.evolve(
            ev,
            roll=rr.reroll or ev.roll,
            rerolled=ev.roll if rr.reroll else ev.rerolled,
            mods=rr.mods,
            total=rr.total,
            aspect=rr.aspect or ev.aspect,
            plot_point=ev.plot_point or rr.plot_point,
        )
    common = {"outcome": rr.outcome, "damage_level": rr.damage_level}
    if rr.side == "attack":
        return attrs.evolve(
            ev,
            attack=rr.reroll or ev.attack,
            attack_rerolled=ev.attack if rr.reroll else ev.attack_rerolled,
            attack_mods=rr.mods,
            attack_total=rr.total,
            aspect=rr.aspect or ev.aspect,
            plot_point=ev.plot_point or rr.plot_point,
            **common,
        )
    return attrs.evolve(
        ev,
        defense=rr.reroll or ev.defense,
        defense_rerolled=ev.defense if rr.reroll else ev.defense_rerolled,
        defense_mods=rr.mods,
        defense_total=rr.total,
        defense_aspect=rr.aspect or ev.defense_aspect,
        defense_plot_point=ev.defense_plot_point or rr.plot_point,
        **common,
    )


def decide(state: FightState, command: Any, dice: Roller) -> list[E.Event] | None:
    if isinstance(command, C.Attack):
        return attack(state, command, dice)
    if isinstance(command, C.InvokeAfter):
        return invoke_after(state, command, dice)
    if isinstance(command, C.AmbushInitiative):
        return ambush(state, command, dice)
    if isinstance(command, C.RollSkill):
        return roll_skill_cmd(state, command, dice)
    if isinstance(command, C.FirstAid):
        return first_aid(state, command, dice)
    if isinstance(command, C.ReopenWounds):
        return reopen(state, command)
    if isinstance(command, C.MarkWound):
        return mark_wound(state, command)
    if isinstance(command, C.MarkFatigue):
        return mark_fatigue(state, command)
    if isinstance(command, C.ClearBox):
        return clear_box(state, command)
    if isinstance(command, C.RefreshAspects):
        return refresh(state, command)
    if isinstance(command, C.TakeAction):
        return take_action(state, command)
    return None


# ---------------------------------------------------------------------------
# evolve


def _spend(d: ZludgeData, aspect: str, plot_point: bool) -> ZludgeData:
    if aspect:
        d = attrs.evolve(d, aspects_used=(*d.aspects_used, aspect))
    if plot_point:
        d = attrs.evolve(d, plot_points=d.plot_points - 1)
    return d


def _acted(d: ZludgeData) -> ZludgeData:
    return attrs.evolve(d, acted=True, spent=True, clipped=False)


def _data(state: FightState, cid: str, d: ZludgeData) -> FightState:
    return state.replace(attrs.evolve(state.get(cid), data=d))


def _roll_tail(state: FightState, ev: Any) -> int:
    """How many events follow a roll in its action (decide emits exactly these)."""
    if isinstance(ev, Z.AttackResolved):
        return 0 if ev.damage_level is None else 1
    tail = 1 if ev.purpose == "first aid" and ev.success else 0
    return tail + (1 if reopen_due(state.get(ev.actor).data, ev) else 0)


def _set_last(state: FightState, last: LastRoll | None) -> FightState:
    return attrs.evolve(state, data=attrs.evolve(state.data, last_roll=last))


def evolve(state: FightState, event: E.Event) -> FightState:
    """Apply an event; keep the last roll open to a later aspect or plot point until something else happens."""
    if isinstance(event, Z.RollRevised):
        last: LastRoll = state.data.last_roll
        for c in last.before:
            state = state.replace(c)
        ev = revised_event(last.event, event)
        state = _evolve(state, ev)
        return _set_last(state, LastRoll(event=ev, before=last.before, tail=event.follow))
    new = _evolve(state, event)
    if isinstance(event, (Z.AttackResolved, Z.SkillRolled)):
        ids = tuple(dict.fromkeys(i for i in (event.actor, event.target) if i))
        before = tuple(state.get(i) for i in ids)
        return _set_last(new, LastRoll(event=event, before=before, tail=_roll_tail(state, event)))
    last = new.data.last_roll if new.data is not None else None
    if last is not None:
        return _set_last(new, attrs.evolve(last, tail=last.tail - 1) if last.tail > 0 else None)
    return new


def _evolve(state: FightState, event: E.Event) -> FightState:
    if isinstance(event, E.TurnStarted):
        if event.resumed:  # the same turn goes on after a held action stepped in
            return state
        c = state.get(event.id)
        return _data(state, c.id, attrs.evolve(c.data, acted=True, spent=False, clipped=False))
    if isinstance(event, E.InitiativeSet):
        return state.update_data(event.id, init_tiebreak=())
    if isinstance(event, Z.TieRerolled):
        for i, t in zip(event.ids, event.totals(), strict=True):
            d = state.get(i).data
            state = state.update_data(i, init_tiebreak=(*d.init_tiebreak, t))
        return state
    if isinstance(event, Z.AmbushDeclared):
        return attrs.evolve(state, data=attrs.evolve(state.data, ambushers=event.ambushers))
    if isinstance(event, Z.AttackResolved):
        state = _data(state, event.actor, _acted(_spend(state.get(event.actor).data, event.aspect, event.plot_point)))
        t = state.get(event.target).data
        return _data(state, event.target, _spend(t, event.defense_aspect, event.defense_plot_point))
    if isinstance(event, Z.WoundMarked):
        d = state.get(event.target).data
        if event.box is None:
            d = attrs.evolve(d, dead=True)
        else:
            d = attrs.evolve(d, wounds=(*d.wounds, _box(event.box, event.wound)))
        if event.wound == 0:
            d = attrs.evolve(d, clipped=True)
        return _data(state, event.target, d)
    if isinstance(event, Z.FatigueMarked):
        if event.box is None:
            return state
        d = state.get(event.target).data
        box = _box(event.box, event.level, physical=event.physical)
        return _data(state, event.target, attrs.evolve(d, fatigue=(*d.fatigue, box)))
    if isinstance(event, Z.SkillRolled):
        d = _spend(state.get(event.actor).data, event.aspect, event.plot_point)
        if event.counts_as_action:
            d = _acted(d)
        return _data(state, event.actor, d)
    if isinstance(event, Z.WoundsTreated):
        d = state.get(event.target).data
        wounds = tuple(attrs.evolve(b, treated=True) if b.level > 0 else b for b in d.wounds)
        return _data(state, event.target, attrs.evolve(d, wounds=wounds))
    if isinstance(event, Z.WoundsReopened):
        d = state.get(event.target).data
        wounds = tuple(attrs.evolve(b, treated=False) for b in d.wounds)
        return _data(state, event.target, attrs.evolve(d, wounds=wounds))
    if isinstance(event, Z.BoxCleared):
        d = state.get(event.target).data
        boxes = d.wounds if event.track == "wounds" else d.fatigue
        idx = max(n for n, b in enumerate(boxes) if b.level == event.level)
        kept = boxes[:idx] + boxes[idx + 1 :]
        d = attrs.evolve(d, wounds=kept) if event.track == "wounds" else attrs.evolve(d, fatigue=kept)
        return _data(state, event.target, d)
    if isinstance(event, Z.AspectsRefreshed):
        for i in event.ids:
            state = state.update_data(i, aspects_used=())
        return state
    if isinstance(event, Z.ActionTaken):
        return _data(state, event.actor, _acted(state.get(event.actor).data))
    if type(event) in Z.EVENT_TYPES:
        raise UnknownEvent(f"zludge has no rule for {event.TYPE}")
    return state


def _box(level: int, wound: int, physical: bool = False) -> Box:
    return Box(level=level, wound=wound, physical=physical)
