"""Saving throws: the death save, any other save, a Gambler's Lucky Streak, and loyalty checks.

Rulings made here (GM defaults; a logged GM adjustment overrides any of them):
- Lucky Streak (rule ``lucky_any_save``, binding): a Gambler may re-roll *any*
  saving throw he fails — a death save, a scattergun's save for half damage,
  any other — while the day's uses remain; the re-roll (same modifiers, a new
  d20) replaces the first result: a death save re-rolled into a success leaves
  him unconscious, a save for half re-rolled into a success gives back the
  half not taken (and if that lifts him above 0 HP, the fall and its death
  save are undone). Each failed save is offered once (a prompt); a re-roll
  that fails again is final.
  (test_lucky_streak_rerolls_a_failed_scattergun_save_for_half_damage,
  test_lucky_streak_on_a_failed_death_save_brings_the_gambler_back_unconscious)
- Dismissing the Lucky Streak prompt, or rolling another save while it is
  open, accepts the failure and forfeits that re-roll.
  (test_dismissing_the_lucky_prompt_forfeits_the_reroll, test_a_new_save_accepts_an_open_lucky_streak_offer)
- The death save's HP penalty counts temporary damage too.
  (test_the_death_saves_hp_penalty_counts_temporary_damage)
- A death save rolled without an open prompt (the GM set "dying" by hand)
  resolves nothing else. (test_a_death_save_without_an_open_prompt_resolves_nothing)
"""

from __future__ import annotations

from systems.bnb.checks import HP_BELOW_0, half_damage, roll_save, save_parts
from systems.bnb.commands import DeathSave, LoyaltyCheck, LuckyStreak, SavingThrow
from systems.bnb.events import DeathSaveRolled, LoyaltyChecked, LuckyStreakUsed, SaveRolled
from systems.bnb.rules.harm import DEATH, LUCKY
from systems.bnb.rules.table import R
from systems.bnb.sheet import DEAD, DYING, data
from systems.bnb.tables import GAMBLER, SAVES, loyalty_result, lucky_streaks, modifier
from tracker.commands import Modifier
from tracker.dice import Roller, roll
from tracker.errors import Refused
from tracker.kit import Draft, need, resolve
from tracker.model import PC
from tracker.text import counted

APPLIES = (  # the rules these deciders apply (rules/table.py)
    R.death_save,  # death_save
    R.saving_throw,  # saving_throw (and every save, through checks.py)
    R.save_attribute,
    R.shootist_save,
    R.gambler_save,
    R.trailblazer_save,
    R.critter_save,
    R.lucky_streak,  # lucky_streak
    R.lucky_any_save,
    R.loyalty,  # loyalty
    R.loyalty_modifier,
)


def _accept_lucky(d: Draft, cid: str) -> None:
    """A new save while a Lucky Streak offer is open accepts the earlier failure (Ruling)."""
    d.add(resolve(d.state, LUCKY, cid, "failure accepted: a new save was rolled"))


def death_save(d: Draft, cmd: DeathSave, dice: Roller) -> None:
    c = need(d.state, cmd.actor)
    cd = data(c)
    if cd.status != DYING:
        raise Refused(f"{c.name} is not dying: a death save is made when HP fall to 0 or below", rule=R.death_save)
    parts = save_parts(c, "death")
    if cd.hp < 0:
        parts.append(Modifier(label=HP_BELOW_0, value=cd.hp))
    parts.extend(cmd.modifiers)
    s = roll_save(c, tuple(parts), dice, f"{c.name} saves vs death")
    _accept_lucky(d, c.id)
    d.add(DeathSaveRolled(id=c.id, roll=s.roll, parts=s.parts, total=s.total, st=s.st, success=s.success))
    # a Gambler's failure may yet be re-rolled (the Lucky Streak offer follows): not "dead" in the record, which
    # stayed there after the re-roll saved him
    lucky = cd.cls == GAMBLER and cd.lucky_used < lucky_streaks(cd.level)
    failed = "failed: dead unless a Lucky Streak re-roll saves him" if lucky else "dead"
    d.add(resolve(d.state, DEATH, c.id, "alive, unconscious" if s.success else failed))


def saving_throw(d: Draft, cmd: SavingThrow, dice: Roller) -> None:
    c = need(d.state, cmd.actor)
    if data(c).status == DEAD:
        raise Refused(f"{c.name} is dead and makes no saving throws", rule=R.saving_throw)
    if cmd.against not in SAVES:
        raise Refused(f"'{cmd.against}' is not a danger of Table 3 ({', '.join(SAVES)})", rule=R.save_attribute)
    parts = tuple(save_parts(c, cmd.against, cmd.attribute, cmd.modifiers))
    s = roll_save(c, parts, dice, f"{c.name} saves vs {cmd.against}")
    _accept_lucky(d, c.id)
    d.add(
        SaveRolled(id=c.id, against=cmd.against, roll=s.roll, parts=s.parts, total=s.total, st=s.st, success=s.success)
    )


def lucky_streak(d: Draft, cmd: LuckyStreak, dice: Roller) -> None:
    c = need(d.state, cmd.actor)
    cd = data(c)
    if cd.cls != GAMBLER:
        raise Refused(
            f"Lucky Streak is the Gambler's: {c.name} is {'a ' + cd.cls if cd.cls else 'not a Gambler'}",
            rule=R.lucky_streak,
        )
    per_day = lucky_streaks(cd.level)
    if cd.lucky_used >= per_day:
        raise Refused(
            f"Lucky Streak: a level {cd.level} Gambler re-rolls {counted(per_day, 'failed save')} a day, "
            f"and {c.name} has used {cd.lucky_used}",
            rule=R.lucky_streak,
        )
    last = cd.last_save
    offer = resolve(d.state, LUCKY, c.id, "re-rolled")
    if last is None or offer is None:
        raise Refused(f"{c.name} has no failed saving throw to re-roll", rule=R.lucky_any_save)
    s = roll_save(c, last.parts, dice, f"{c.name} Lucky Streak", st=last.st)
    # the half not taken comes back, as far as the harm still on him (healed since, it was HP above the maximum)
    restored = min(last.damage - half_damage(last.damage), cd.damage) if s.success and last.damage else 0
    revived = restored > 0 and cd.status == DYING and cd.hp + restored > 0
    d.add(
        LuckyStreakUsed(
            id=c.id,
            against=last.against,
            roll=s.roll,
            parts=s.parts,
            total=s.total,
            st=s.st,
            success=s.success,
            left=per_day - cd.lucky_used - 1,
            restored=restored,
            revived=revived,
            death_save=last.against == "death" and cd.status == DEAD,  # failed at 0 HP (a save vs death: alive)
        ),
        offer,
    )
    if revived:
        d.add(resolve(d.state, DEATH, c.id, "the save for half keeps him above 0 HP"))


def loyalty(d: Draft, cmd: LoyaltyCheck, dice: Roller) -> None:
    c = need(d.state, cmd.actor, "hireling")
    if c.kind == PC:
        raise Refused("loyalty checks are for NPCs (hirelings, or NPCs offered a bribe), not PCs", rule=R.loyalty)
    cd = data(c)
    if cd.status == DEAD:
        raise Refused(f"{c.name} is dead")
    parts: list[Modifier] = []
    leader = None
    if cmd.leader:
        lc = need(d.state, cmd.leader, "leader")
        leader = lc.id
        parts.append(Modifier(label=f"{lc.name}'s CHA loyalty", value=modifier(data(lc).score("CHA"))))  # Table 2
    if cd.loyalty_next:
        parts.append(Modifier(label="last loyalty check", value=cd.loyalty_next))
    parts.extend(cmd.modifiers)
    r = roll("3d6", dice, f"{c.name} loyalty")
    total = r.total + sum(p.value for p in parts)
    result, nxt = loyalty_result(total)
    d.add(LoyaltyChecked(id=c.id, leader=leader, roll=r, parts=tuple(parts), total=total, result=result, next_mod=nxt))
