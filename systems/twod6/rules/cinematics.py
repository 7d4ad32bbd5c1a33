"""Cinematics: an extra turn, a reroll of a failed check, ignoring a failed save against death.

(An automatic critical is spent with the roll it makes: the commands' "Automatic critical" box.)

Rulings of our own, each with its test:
- An extra turn gives fresh actions now and lasts until the next turn starts; the order does not
  change (test_an_extra_turn_does_not_change_the_order).
- A reroll takes the combatant's last failed attack, resolve, skill or opposed check (Stealth,
  breaking a grapple, Negate), before the next turn starts (test_a_reroll_must_come_before_the_next_turn);
  a Stealth roll that lost to several watchers is rerolled once and compared with each Notice it lost
  to (test_a_cinematic_rerolls_a_failed_stealth_check_against_each_notice_it_lost_to); a lost defense
  cannot be rerolled (the attacker's result has landed); nothing to reroll once the target of a failed
  attack has died or the grappler has let go.
- A character who ignores a failed save against death lives, unconscious (at 0 wounds or after a
  tripled attack, the check's survivor is unconscious either way)
  (test_a_cinematic_ignores_a_failed_save_against_death).
"""

from __future__ import annotations

from systems.twod6.checks import beats, roll_check
from systems.twod6.commands import CINEMATIC_USES, SpendCinematic
from systems.twod6.events import NO_COST, CinematicSpent, EffectApplied, OpposedRolled, ResolveRolled, SkillChecked
from systems.twod6.record import data
from systems.twod6.rules.attacks import resolve_attack
from tracker.dice import Roller
from tracker.errors import Refused
from tracker.kit import Draft, need

OPPOSED_NAMES = {"sneaks": "Stealth check", "breaks the grapple": "check to break the grapple", "negates": "Negate"}


def decide_cinematic(d: Draft, cmd: SpendCinematic, dice: Roller) -> None:
    state = d.state
    c = need(state, cmd.actor)
    x = data(c)
    if cmd.use not in CINEMATIC_USES:
        raise Refused(f"a cinematic buys: {', '.join(CINEMATIC_USES)} (or an automatic critical, before a roll)")
    if x.cinematics < 1:
        raise Refused(f"{c.name} has no cinematic to spend (a cinematic is gained at the first dot of experience)")
    if cmd.use == "extra turn":
        if not state.started or state.ended:
            raise Refused("an extra turn is taken during the fight")
        if state.prompts:
            raise Refused(f"resolve first: {state.prompts[0].text}")
        if x.down:
            raise Refused(f"{c.name} is {'dead' if x.dead else 'unconscious'} and cannot take a turn")
        d.add(CinematicSpent(actor=c.id, use="extra turn"))
        return
    if cmd.use == "ignore death":
        if not x.death_save_failed:
            raise Refused(f"{c.name} has not failed a save against death")
        d.add(CinematicSpent(actor=c.id, use="ignore death"))
        return
    failed = x.last_failed
    if failed is None:
        raise Refused(f"{c.name} has no failed check to reroll this turn")
    what = failed.label
    if failed.kind == "attack":
        t = need(state, failed.target or "", "target")
        if data(t).dead:
            raise Refused(f"{t.name} is already dead: the failed {failed.label} has nothing left to reroll for")
    if failed.kind == "opposed":
        what = OPPOSED_NAMES.get(failed.skill, failed.skill)
        if failed.skill == "breaks the grapple" and x.grappled_by != failed.target:
            raise Refused(f"{c.name} is no longer held by {state.name(failed.target or '')}: nothing to break")
    d.add(CinematicSpent(actor=c.id, use=f"reroll the failed {what}"))
    check = roll_check(dice, failed.label, failed.parts)
    if failed.kind == "opposed":
        for tid, opposing in failed.against:
            won = beats(check, opposing)
            d.add(
                OpposedRolled(
                    actor=c.id,
                    target=tid,
                    purpose=failed.skill,
                    check=check,
                    opposing=opposing,
                    success=won,
                    cost=NO_COST,
                    reroll=True,
                )
            )
            if won and failed.skill == "breaks the grapple":
                d.add(EffectApplied(target=c.id, effect="freed", by=tid))
    elif failed.kind == "attack":
        t = need(state, failed.target or "", "target")
        if failed.defense is None:  # every failed attack keeps the defense it lost to (evolve.attack)
            raise Refused(f"the failed {failed.label} kept no defense roll to reroll against")
        resolve_attack(
            d,
            c.id,
            t.id,
            failed.skill,
            failed.result,
            check,
            failed.defense,
            failed.defense_skill,
            NO_COST,
            0,
            keeps_aim=True,
            reroll=True,
        )
    elif failed.kind == "resolve":
        passed = not check.fumble and check.total >= failed.dc
        d.add(ResolveRolled(actor=c.id, check=check, dc=failed.dc, stakes=failed.stakes, passed=passed, reroll=True))
    else:
        passed = not check.fumble and check.total >= failed.dc
        d.add(
            SkillChecked(
                actor=c.id, skill=failed.skill, check=check, dc=failed.dc, passed=passed, cost=NO_COST, reroll=True
            )
        )
