"""Cinematics: an extra turn, a reroll of a failed check, ignoring a failed save against death.

(An automatic critical is spent with the roll it makes: the commands' "Automatic critical" box.)

Rulings, each with its test:
- An extra turn gives fresh actions now and lasts until the next turn starts; the order does not
  change (test_an_extra_turn_does_not_change_the_order).  Ruling: on its own turn, a combatant with a half-round
  action left is refused, saying to spend it once they are used: the fresh actions took the place of those left,
  and the cinematic bought nothing (audit a14 h2, t66;
  test_an_extra_turn_spent_before_acting_on_its_own_turn_is_refused).
- A reroll names the failed check it rerolls: the GM picks one of the combatant's failed checks since its
  last turn (attack, defense, resolve, skill or opposed check: Stealth, breaking a grapple, Negate); none
  named takes the latest (test_the_gm_picks_which_failed_check_is_rerolled).  Ruling: "since its last turn"
  is since that combatant's own last turn: its failed checks stay open until its own next turn starts, a
  check failed on another's turn too (test_a_reroll_must_come_before_the_combatants_own_next_turn,
  test_a_check_failed_after_the_combatants_turn_stays_open_until_its_own_next_turn).
- A lost defense can be rerolled right after its attack: the attack's dice stand, the defender's outcome is
  taken back (``Reworked``) and worked out again against the new defense, as one action
  (test_a_cinematic_rerolls_a_lost_defense_and_the_wound_is_taken_back); another attack on the defender, or
  healing, rest, quick damage or the GM's hand on it ends that chance.  A missed attack rerolled is worked
  out again the same way; a Vicious Parry or Spell Turning it had opened is moot.
- A Stealth roll that lost to several watchers is rerolled once and compared with each Notice it lost to
  (test_a_cinematic_rerolls_a_failed_stealth_check_against_each_notice_it_lost_to); nothing to reroll once
  the target of a failed attack has died or the grappler has let go.
- A lost opposed check (``contest``) is rerolled against the roll it lost to, which stands; the Stealth it spent
  stays spent (test_contest.py::test_a_cinematic_rerolls_a_lost_contest_against_the_same_opposing_roll).
- Ruling: the players' view follows the check's visibility: a cinematic spent on a check against one hidden from
  the players (a reroll, or an automatic critical declared with it) names whom it was against (``against``), so the
  view shows no line of it ("Marla spends a cinematic: reroll the failed Intimidate check" told of a check the
  players never saw) (test_round2_rules.py::test_a_reroll_of_a_check_against_a_hidden_foe_shows_the_players_nothing).
- A character who ignores a failed save against death lives, unconscious (at 0 wounds or after a
  tripled attack, the check's survivor is unconscious either way)
  (test_a_cinematic_ignores_a_failed_save_against_death).
"""

from __future__ import annotations

from systems.twod6.checks import beats, roll_check
from systems.twod6.commands import CINEMATIC_USES, SpendCinematic
from systems.twod6.events import (
    BROKE_FREE,
    NO_COST,
    CinematicSpent,
    ContestRolled,
    EffectApplied,
    OpposedRolled,
    ResolveRolled,
    Reworked,
    SkillChecked,
)
from systems.twod6.failed import OPPOSED_NAMES, failed_names
from systems.twod6.record import Failed, data
from systems.twod6.rules.attacks import resolve_attack
from systems.twod6.rules.harm import check_thresholds
from systems.twod6.table import R, applies
from tracker.core_rules import core_rule
from tracker.dice import Roller
from tracker.errors import Refused
from tracker.events import PromptResolved
from tracker.kit import Draft, need
from tracker.model import Combatant, FightState


@applies(R.CINEMATIC, R.EXTRA_TURN, R.IGNORE_DEATH)
def decide_cinematic(d: Draft, cmd: SpendCinematic, dice: Roller) -> None:
    state = d.state
    c = need(state, cmd.actor)
    x = data(c)
    if cmd.use not in CINEMATIC_USES:
        raise Refused(
            f"a cinematic buys: {', '.join(CINEMATIC_USES)} (or an automatic critical, before a roll)", rule=R.CINEMATIC
        )
    if x.cinematics < 1:
        raise Refused(
            f"{c.name} has no cinematic to spend (a cinematic is gained at the first dot of experience)",
            rule=R.CINEMATIC,
        )
    if cmd.use == "extra turn":
        if not state.started or state.ended:
            raise Refused("an extra turn is taken during the fight", rule=R.EXTRA_TURN)
        if state.prompts:
            raise Refused(f"resolve first: {state.prompts[0].text}", rule=core_rule("prompt"))
        if x.down:
            raise Refused(
                f"{c.name} is {'dead' if x.dead else 'unconscious'} and cannot take a turn", rule=R.EXTRA_TURN
            )
        if state.current == c.id and x.half > 0:
            left = "two half-round actions" if x.half >= 2 else "a half-round action"
            raise Refused(
                f"{c.name} still has {left} of this turn: an extra turn gives fresh actions in their place, so "
                "spend it once they are used",
                rule=R.EXTRA_TURN,
            )
        d.add(CinematicSpent(actor=c.id, use="extra turn"))
        return
    if cmd.use == "ignore death":
        if not x.death_save_failed:
            raise Refused(f"{c.name} has not failed a save against death", rule=R.IGNORE_DEATH)
        d.add(CinematicSpent(actor=c.id, use="ignore death"))
        return
    reroll(d, c, cmd.check, dice)


def picked(state: FightState, c: Combatant, name: str) -> int:
    """The place of the failed check the GM named (none named: the latest)."""
    x = data(c)
    if not x.failed:
        raise Refused(f"{c.name} has no failed check to reroll since its last turn", rule=R.REROLL)
    if not name.strip():
        return len(x.failed) - 1
    names = failed_names(state, c)
    for n, have in enumerate(names):
        if have.lower() == name.strip().lower():
            return n
    raise Refused(
        f"{c.name} has no failed '{name.strip()}' to reroll; it has: {'; '.join(reversed(names))}", rule=R.REROLL_PICK
    )


@applies(R.REROLL, R.REROLL_PICK)
def reroll(d: Draft, c: Combatant, name: str, dice: Roller) -> None:
    state = d.state
    x = data(c)
    n = picked(state, c, name)
    failed = x.failed[n]
    what = failed.label
    if failed.kind == "defense":
        reroll_defense(d, c, n, failed, dice)
        return
    if failed.kind == "attack":
        t = need(state, failed.target or "", "target")
        if data(t).dead:
            raise Refused(
                f"{t.name} is already dead: the failed {failed.label} has nothing left to reroll for",
                rule=R.REROLL_PICK,
            )
    if failed.kind == "opposed":
        what = OPPOSED_NAMES.get(failed.skill, failed.skill)
        if failed.skill == "breaks the grapple" and x.grappled_by != failed.target:
            raise Refused(
                f"{c.name} is no longer held by {state.name(failed.target or '')}: nothing to break", rule=R.REROLL_PICK
            )
    against = tuple(tid for tid, _ in failed.against) or ((failed.target,) if failed.target else ())
    d.add(CinematicSpent(actor=c.id, use=f"reroll the failed {what}", rerolls=n, against=against))
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
                d.add(EffectApplied(target=c.id, effect="freed", by=tid, source=BROKE_FREE))
    elif failed.kind == "attack":
        t = need(state, failed.target or "", "target")
        if failed.defense is None:  # every failed attack keeps the defense it lost to (evolve.attack)
            raise Refused(f"the failed {failed.label} kept no defense roll to reroll against")
        for p in state.prompts:  # a Vicious Parry or Spell Turning the miss opened is moot now
            if p.kind in ("parry", "turn") and p.combatant == t.id and p.params.get("target") == c.id:
                d.add(PromptResolved(prompt_id=p.id, note=f"moot: {c.name} rerolls the attack"))
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
    elif failed.kind == "contest":
        lost_to = failed.defense
        if lost_to is None:  # every lost contest keeps the roll it lost to (evolve.contest)
            raise Refused(f"the failed {failed.label} kept no opposing roll to reroll against")
        d.add(
            ContestRolled(
                actor=c.id,
                target=failed.target or "",
                skill=failed.skill,
                opposing_skill=failed.defense_skill,
                check=check,
                opposing=lost_to,
                success=beats(check, lost_to),
                cost=NO_COST,
                reroll=True,
            )
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


@applies(R.REROLL_PICK, R.OPPOSED)
def reroll_defense(d: Draft, c: Combatant, n: int, failed: Failed, dice: Roller) -> None:
    """A lost defense rerolled: the outcome taken back, then the attack (its dice stand) worked out again."""
    state = d.state
    a = need(state, failed.target or "", "attacker")
    if failed.before is None or failed.attack_roll is None:
        raise Refused(f"the lost defense against {a.name} kept no attack to work out again")
    d.add(
        CinematicSpent(
            actor=c.id,
            use=f"reroll the lost defense against {a.name}'s {failed.skill} attack",
            rerolls=n,
            against=(a.id,),
        )
    )
    for p in state.prompts:  # what the outcome asked for is worked out again
        if p.combatant == c.id and p.command in ("resolve", "double_result"):
            d.add(PromptResolved(prompt_id=p.id, note=f"moot: {c.name} rerolls the defense"))
    d.add(Reworked(target=c.id, by=a.id, before=failed.before, keep=n))
    check = roll_check(dice, failed.label, failed.parts)
    resolve_attack(
        d,
        a.id,
        c.id,
        failed.skill,
        failed.result,
        failed.attack_roll,
        check,
        failed.defense_skill,
        NO_COST,
        0,
        keeps_aim=True,
        reroll=True,
    )
    now = d.get(c.id)
    if not data(now).dead and data(now).wounds < failed.before.wounds:
        check_thresholds(d, now)
