"""Turn actions other than attacks: aim, move and the like, Stealth, skill checks, breaking a grapple.

Rulings of our own, each with its test:
- The aim bonus goes to the next shooting, archery or throwing check by itself (a skill check of those
  skills always takes it); a casting, athletics, perform or ride check takes it when the GM ticks
  "Use aim"; the check that takes it spends it (rule ``aim``; see ``attacks``)
  (test_skill_checks_use_the_aim_where_it_fits).
- Stealth's advantage lasts until the sneaker's next weapon attack on that target
  (test_stealth_before_an_attack_leaves_armor_only_and_sneak_attack_adds_1).
- Breaking a grapple is an attack action (Melee (Unarmed) vs the grappler's, tie to the grappler);
  the grappler lets go as a quick action (test_the_grappler_lets_go_as_a_quick_action).  A combatant
  who falls unconscious or dies is out of any grapple (test_falling_unconscious_ends_a_grapple).
- Graceful: the first 20-ft move of a turn costs no action
  (test_graceful_moves_once_a_turn_without_spending_an_action).
- A skill check's skill is read as the sheet reader reads one (:func:`check_skill`): "melee heavy" is
  Melee (Heavy), a near miss of a book skill or a bare "Melee" is refused naming the skill to write
  (test_checks_and_turns.py::test_a_check_reads_the_skill_as_the_sheet_does).
"""

from __future__ import annotations

from systems.twod6.checks import beats, roll_check
from systems.twod6.commands import (
    ACTIONS,
    CHECK_COSTS,
    ENTANGLE_SKILL,
    PASSIVE_SKILLS,
    Act,
    Aim,
    BreakGrapple,
    SkillCheck,
    Sneak,
)
from systems.twod6.events import (
    BROKE_FREE,
    LET_GO,
    NO_COST,
    ActionTaken,
    Aimed,
    EffectApplied,
    OpposedRolled,
    SkillChecked,
)
from systems.twod6.record import data
from systems.twod6.rules.common import (
    SNIPER_SKILLS,
    acting,
    afford,
    aim_bonus,
    aim_part,
    attack_cost,
    base_skill,
    cast_cost,
    has_sniper,
    in_grapple,
    is_prone,
    opposing_parts,
    skill_parts,
    spend_cinematic,
)
from systems.twod6.sheet import CAST, GRACEFUL, NOTICE, STEALTH, UNARMED, skill_name
from systems.twod6.table import R, applies
from tracker.commands import Modifier
from tracker.dice import Roller
from tracker.errors import Refused
from tracker.kit import Draft, need
from tracker.model import Combatant, FightState


@applies(R.AIM, R.SNIPER, R.FULL_ROUND)
def decide_aim(d: Draft, cmd: Aim, dice: Roller) -> None:
    c = need(d.state, cmd.actor)
    acting(d.state, c)
    in_grapple(d.state, c, "aiming")
    afford(c, "full")
    d.add(Aimed(actor=c.id, bonus=aim_bonus(c), cost="full", sniper=has_sniper(c)))


@applies(R.ACTIONS, R.FULL_ROUND, R.GRACEFUL, R.TRIP, R.GRAPPLE)
def decide_act(d: Draft, cmd: Act, dice: Roller) -> None:
    c = need(d.state, cmd.actor)
    acting(d.state, c)
    if cmd.action not in ACTIONS:
        raise Refused(f"'{cmd.action}' is not an action here ({', '.join(ACTIONS)})")
    cost, effect = ACTIONS[cmd.action]
    x = data(c)
    if cmd.action not in ("speak", "release grapple"):
        in_grapple(d.state, c, cmd.action)
    if effect == "stand" and not is_prone(c):
        raise Refused(f"{c.name} is not prone")
    if effect == "release" and not x.grappling:
        raise Refused(f"{c.name} is not holding anyone in a grapple", rule=R.GRAPPLE)
    graceful = effect == "move" and x.has(GRACEFUL) and not x.graceful_used
    if graceful:
        d.add(ActionTaken(actor=c.id, action=cmd.action, cost=NO_COST, note="Graceful, no action"))
    else:
        afford(c, cost)
        d.add(ActionTaken(actor=c.id, action=cmd.action, cost=cost, note=cmd.note.strip()))
    if effect == "release" and x.grappling:
        d.add(EffectApplied(target=x.grappling, effect="freed", by=c.id, source=LET_GO))


@applies(R.STEALTH, R.OPPOSED, R.CRITICAL, R.SNAKE_EYES, R.AUTO_CRITICAL)
def decide_sneak(d: Draft, cmd: Sneak, dice: Roller) -> None:
    c = need(d.state, cmd.actor)
    acting(d.state, c)
    in_grapple(d.state, c, "sneaking")
    afford(c, "half")
    targets = [need(d.state, t, "target") for t in cmd.targets]
    if not targets:
        raise Refused("choose whom to sneak past")
    if any(t.id == c.id for t in targets):  # (the form let "Marla sneaks vs Marla" through)
        raise Refused(f"{c.name} cannot sneak past itself: choose whom to sneak past", rule=R.STEALTH)
    if cmd.auto_critical:
        spend_cinematic(d, c, "automatic critical", tuple(t.id for t in targets))
    parts = tuple(skill_parts(c, STEALTH, cmd.stat) + list(cmd.modifiers))
    check = roll_check(dice, f"{c.name} Stealth", parts, automatic=cmd.auto_critical)
    for n, t in enumerate(targets):
        notice = roll_check(dice, f"{t.name} Notice", tuple(opposing_parts(t, NOTICE)))
        d.add(
            OpposedRolled(
                actor=c.id,
                target=t.id,
                purpose="sneaks",
                check=check,
                opposing=notice,
                success=beats(check, notice),
                cost="half" if n == 0 else NO_COST,
            )
        )


def check_skill(c: Combatant, typed: str) -> str:
    """The skill a check typed as ``typed`` rolls, spelled as ``c``'s sheet spells it.

    Ruling: the skill is read as the sheet reader reads one (``sheet.skill_name``): case, spaces, hyphens and a
    missing parenthesis do not matter ("melee heavy" is Melee (Heavy); it was refused with "choose the stat for
    melee heavy"), a near miss of a book skill ("Stelth") or a bare "Melee" is refused naming the skill to write,
    and any other name is a skill of the GM's own.  A skill on the sheet is logged as the sheet writes it
    (test_checks_and_turns.py::test_a_check_reads_the_skill_as_the_sheet_does).
    """
    skill = skill_name(typed)
    if not skill:
        raise Refused("name the skill")
    return next((name for name, _ in data(c).skills if name.lower() == skill.lower()), skill)


@applies(R.CHECK, R.CHECK_COST, R.STAT_CHOICE, R.AIM, R.SNIPER, R.CRITICAL, R.SNAKE_EYES, R.AUTO_CRITICAL)
def decide_check(d: Draft, cmd: SkillCheck, dice: Roller) -> None:
    c = need(d.state, cmd.actor)
    skill = check_skill(c, cmd.skill)
    cost = check_cost(d.state, c, cmd.cost, skill)
    if cost != NO_COST:
        in_grapple(d.state, c, f"a {skill} check")
        afford(c, cost)
    parts = skill_parts(c, skill, cmd.stat)
    if cmd.use_aim:
        aim = aim_part(c, skill, "yes")
    else:
        aim = aim_part(c, skill, "auto") if skill in SNIPER_SKILLS else 0
    if aim:
        parts.append(Modifier(label="aim", value=aim))
    if cmd.auto_critical:
        spend_cinematic(d, c, "automatic critical")
    check = roll_check(dice, f"{c.name} {skill}", tuple(parts + list(cmd.modifiers)), automatic=cmd.auto_critical)
    passed = not check.fumble and check.total >= cmd.dc
    d.add(
        SkillChecked(
            actor=c.id,
            skill=skill,
            check=check,
            dc=cmd.dc,
            passed=passed,
            cost=cost,
            aim_used=aim,
            keeps_aim=False,  # (rule ``aim``: the check that takes the aim's bonus spends it)
        )
    )


@applies(R.GRAPPLE, R.ENTANGLE, R.OPPOSED, R.MULTIATTACK)
def decide_break(d: Draft, cmd: BreakGrapple, dice: Roller) -> None:
    c = need(d.state, cmd.actor)
    acting(d.state, c)
    holder_id = data(c).grappled_by
    if not holder_id:
        raise Refused(f"{c.name} is not grappled", rule=R.GRAPPLE)
    holder = d.get(holder_id)
    cost = attack_cost(c, UNARMED)
    afford(c, cost)
    if cmd.auto_critical:
        spend_cinematic(d, c, "automatic critical", (holder.id,))
    parts = tuple(skill_parts(c, UNARMED, cmd.stat) + list(cmd.modifiers))
    check = roll_check(dice, f"{c.name} Melee (Unarmed)", parts, automatic=cmd.auto_critical)
    # the spell's hold is a Cast (ruling on @26497: it was held against the caster's Melee (Unarmed), 0 ranks)
    holds_with = ENTANGLE_SKILL if data(c).entangled else UNARMED
    hold = roll_check(dice, f"{holder.name} {holds_with}", tuple(opposing_parts(holder, holds_with)))
    won = beats(check, hold)
    d.add(
        OpposedRolled(
            actor=c.id,
            target=holder.id,
            purpose="breaks the grapple",
            check=check,
            opposing=hold,
            success=won,
            cost=cost,
        )
    )
    if won:
        d.add(EffectApplied(target=c.id, effect="freed", by=holder.id, source=BROKE_FREE))


@applies(R.CHECK_COST, R.CHECKS_ANYTIME, R.FAST_CASTER)
def check_cost(state: FightState, c: Combatant, cost: str, skill: str = "", active: bool = False) -> str:
    """The action a check costs now, refusing only what must wait for the turn.

    Rule ``checks_anytime`` (ruling on twod6 @49086): a check that costs no action
    (a Notice, a healing check) is rolled for anyone at any moment, and any check
    outside a fight (before it starts, after it ends) costs nothing and waits for
    no one; only a check that costs an action waits for the combatant's turn.
    "auto" (the form's default) is the book's cost on the combatant's own turn — a passive
    check (Notice, Knowledge) a quick action, an active one a half-round action (rule ``check_cost``, @49086) — and
    none at any other moment: a check the GM calls for off the turn is no turn action
    (test_the_check_form_takes_the_books_cost_on_the_turn_and_none_off_it).

    Ruling: a casting check (Cast, any spell) on the caster's own turn is casting a spell, which the book leaves out
    of the half-round checks ("making an active skill check (not including an attack or casting as spell)", @49307):
    a full-round action, half-round with Fast Caster ("spells that would normally be a full round action as a
    half-round action instead", @19837), as Blast and Negate cost
    (test_round2_rules.py::test_casting_by_a_check_or_an_opposed_check_takes_the_full_round).
    Ruling: ``active`` (the opposed check's: the actor chooses to make it) makes a Notice or Knowledge an active
    check, a half-round action ("active checks are when your character says … 'I put my ear against the wall and
    listen'", @37861); only the check the GM rolls for the character (the skill check form's, or an opposing roll)
    is the passive, quick one (test_round2_rules.py::test_a_deliberate_notice_on_ones_own_turn_is_a_half_round_action).
    """
    if cost not in CHECK_COSTS:
        raise Refused("a check takes a quick, half-round or full-round action (or none, or auto)")
    if not state.started or state.ended:
        cost = NO_COST
    if cost == "auto":
        own_turn = state.current == c.id or data(c).extra_turn
        if not own_turn:
            cost = NO_COST
        elif base_skill(skill) == CAST:
            cost = cast_cost(c)
        elif skill.split(" (")[0] in PASSIVE_SKILLS and not active:
            cost = "quick"
        else:
            cost = "half"
    if cost != NO_COST:
        acting(state, c)
        return cost
    x = data(c)
    if x.dead:
        raise Refused(f"{c.name} is dead")
    if x.unconscious:
        raise Refused(f"{c.name} is unconscious and cannot roll a check", rule=R.UNCONSCIOUS)
    return NO_COST
