"""Harm and healing: what a fall to 0 HP means, quick damage and healing, binding wounds, rest; and ``react``.

Every way HP can fall — a blow, a blast, the GM's quick damage, a GM adjust of
HP or temporary damage — runs :func:`fall`: at 0 HP or below a lethal loss
means a death save (a minor NPC dies at once), a temporary one (fists) means
knocked out.

Rulings made here (GM defaults; a logged GM adjustment overrides any of them):
- Temporary damage is tracked apart from lethal damage; when it brings HP to 0
  or below the combatant is knocked out, no death save; a lethal loss after a
  knock-out (or after a survived death save) asks for a death save.
  (test_fists_deal_d3_temporary_damage_and_knock_out_without_a_death_save,
  test_a_lethal_blow_after_a_knockout_asks_for_a_death_save)
- Quick damage is HP lost: a number, a sum or dice (faces logged); a roll
  below 0 loses nothing; a typed negative amount is refused (that is healing).
  The dead take no more damage. (test_quick_damage_*)
- Quick healing: temporary damage heals first, then lethal damage (temporary
  damage is the kind that heals per hour, before wounds that heal per day),
  never above the maximum; lethal HP healed no longer count as lost in this
  fight (binding wounds). Healing that lifts a knocked-out, dying or
  unconscious combatant above 0 HP puts them back on their feet (the healing is
  the medical help they needed) and settles an open death save; the dead are
  not healed. (test_quick_heal_*)
- A GM adjust of HP or temporary damage to 0 or below runs the same fall as a
  blow (lethal if lethal damage rose: dying and a death save, or dead for a
  minor NPC; temporary: knocked out). Raising HP by an adjust changes no
  status: the GM sets that too. (test_gm_adjust_hp_to_zero_or_below_*)
  Ruling: an adjust of HP does not raise the dead (the GM sets Status for
  that); HP set above 0 on a dead combatant logs "Lou is still dead: set
  Status to bring them back" (StillDead). (test_round4_fixes.py:
  test_an_adjust_of_hp_above_0_on_the_dead_says_they_are_still_dead)
  Ruling: a GM adjust that lowers the HP maximum and so takes HP to 0 or below
  is a lethal loss too (dying and a death save; a minor NPC dies): the HP are
  gone whichever number the GM changed. (test_gm_adjust_of_the_hp_maximum_to_zero_or_below_falls_like_damage)
- A death save the GM settles by ruling has the outcome the GM picks: "dies"
  (dead) or "lives" (unconscious, in need of medical help); a dismissal that
  names no outcome (older fights) leaves the combatant unconscious.
  (test_a_dismissed_death_save_leaves_the_combatant_unconscious,
  test_a_death_save_ruled_dies_or_lives)
- A combatant removed from the fight leaves no open prompt behind.
  (test_removing_a_dying_combatant_settles_its_death_save)
- Binding wounds is once per combatant per fight, after the fight has ended.
  (test_binding_wounds_after_the_fight_1d3_only_hp_lost_in_this_fight)
- Temporary damage heals 1 HP per level (HD) an hour, as lethal damage heals
  per day; a knocked-out combatant comes to when HP rise above 0.
  (test_temporary_damage_heals_per_hour_and_the_knocked_out_come_to)
  Like the core Rest, it is refused while the fight runs: there time passes
  only by turns (RULINGS, letting time pass). (test_recover_is_refused_during_a_running_fight)
"""

from __future__ import annotations

from collections.abc import Sequence

from systems.bnb.commands import BindWounds, Recover
from systems.bnb.events import (
    AttackRolled,
    DeathRuled,
    DeathSaveWaived,
    Dropped,
    HpHealed,
    HpLost,
    Revived,
    StillDead,
    TemporaryHealed,
    WoundsBound,
    failed_save,
)
from systems.bnb.rules.table import R
from systems.bnb.sheet import DEAD, DYING, KNOCKED_OUT, OK, UNCONSCIOUS, data
from systems.bnb.tables import GAMBLER, SHOOTIST, lucky_streaks
from tracker.commands import Damage, Heal
from tracker.dice import Roller, roll
from tracker.errors import Refused
from tracker.events import CombatantRemoved, Event, PromptRaised, PromptResolved
from tracker.kit import Draft, amount, need, open_prompt, prompt, resolve
from tracker.model import Combatant, FightState, Prompt

APPLIES = (  # the rules these deciders apply (rules/table.py)
    R.death,  # fall
    R.minor_npc,
    R.knocked_out,
    R.death_by_ruling,  # react
    R.lucky_any_save,
    R.quick_damage,  # quick_damage
    R.quick_healing,  # quick_heal
    R.binding_wounds,  # bind_wounds
    R.temporary_healing,  # recover
    R.rest,
)

DEATH = "death_save"  # prompt kinds
LUCKY = "lucky_streak"
LIVES, DIES = "lives", "dies"  # a death save's outcomes by ruling
FAILURE_STANDS = "failure stands"  # a Lucky Streak offer's


def death_prompt(c: Combatant) -> PromptRaised:
    d = data(c)
    bonus = " +2 Shootist" if d.cls == SHOOTIST else ""
    text = f"{c.name} is at {d.hp} HP: save vs death (d20 + CON {d.mod('CON'):+d} − {max(0, -d.hp)}{bonus} ≥ {d.st})"
    return prompt(DEATH, text, c.id, command="death_save", params={"actor": c.id}, outcomes=(LIVES, DIES))


def fall(was: Combatant, now: Combatant, by: str | None) -> list[Event]:
    """What losing HP (``was`` → ``now``) means at 0 HP or below: dying and a death save, dead, knocked out."""
    dw, dn = data(was), data(now)
    if dn.hp > 0:
        return []
    # a lower maximum (the GM's adjust) falls like damage when it takes HP from above 0 to 0 or below; one already
    # down (stable after a death save, knocked out) is not asked for another save by it
    lethal = dn.damage > dw.damage or (dn.max_hp < dw.max_hp and dw.hp > 0)
    if lethal and dn.status in (OK, KNOCKED_OUT, UNCONSCIOUS):
        if not now.is_pc and dn.minor:
            return [Dropped(id=now.id, hp=dn.hp, outcome=DEAD, by=by)]
        return [Dropped(id=now.id, hp=dn.hp, outcome=DYING, by=by), death_prompt(now)]
    if dn.temp > dw.temp and dn.status == OK:
        return [Dropped(id=now.id, hp=dn.hp, outcome=KNOCKED_OUT, by=by)]
    return []


def blow(d: Draft, ev: AttackRolled) -> None:
    """Add an attack and, if it struck, what it means for the one struck."""
    before = d.get(ev.target)
    d.add(ev)
    if ev.hit:
        d.add(*fall(before, d.get(ev.target), ev.actor))


# ---------------------------------------------------------------------------
# quick damage and healing (core commands)


def quick_damage(d: Draft, cmd: Damage, dice: Roller) -> None:
    targets = [need(d.state, cid) for cid in cmd.targets]
    for t in targets:
        if data(t).status == DEAD:
            raise Refused(f"{t.name} is already dead", rule=R.death_save)
    for t in targets:
        r = amount(cmd.amount, dice, f"{t.name} loses HP")
        if r.total < 0 and not r.faces:
            raise Refused(f"HP lost: '{cmd.amount}' is below 0 — use Heal to give HP back", rule=R.quick_damage)
        if r.total == 0 and not r.faces:  # (logged "loses 0 HP": a change of nothing, an undo step)
            raise Refused(f"HP lost: '{cmd.amount}' changes nothing", rule=R.quick_damage)
        before = d.get(t.id)
        d.add(HpLost(id=t.id, roll=r, amount=max(0, r.total), temporary=cmd.temporary, note=cmd.note))
        d.add(*fall(before, d.get(t.id), None))


def quick_heal(d: Draft, cmd: Heal, dice: Roller) -> None:
    targets = [need(d.state, cid) for cid in cmd.targets]
    for t in targets:
        if data(t).status == DEAD:
            raise Refused(
                f"{t.name} is dead: no healing brings back the dead (a GM adjust of status can)", rule=R.quick_healing
            )
    if all(data(t).damage == 0 and data(t).temp == 0 for t in targets):
        names = ", ".join(t.name for t in targets)
        raise Refused(f"{names} {'is' if len(targets) == 1 else 'are'} already at full HP", rule=R.quick_healing)
    for t in targets:
        r = amount(cmd.amount, dice, f"{t.name} heals")
        if r.total < 0 and not r.faces:
            raise Refused(f"HP regained: '{cmd.amount}' is below 0 — use Damage to take HP", rule=R.quick_healing)
        if r.total == 0 and not r.faces:
            raise Refused(f"HP regained: '{cmd.amount}' changes nothing", rule=R.quick_healing)
        td = data(d.get(t.id))
        n = max(0, r.total)
        temp = min(td.temp, n)
        lethal = min(td.damage, n - temp)
        revived = td.status != OK and td.hp + temp + lethal > 0 and temp + lethal > 0
        d.add(HpHealed(id=t.id, roll=r, temporary=temp, lethal=lethal, revived=revived, note=cmd.note))
        if revived:
            d.add(resolve(d.state, DEATH, t.id, "healed above 0 HP: no death save"))


# ---------------------------------------------------------------------------
# after the fight, and rest


def bind_wounds(d: Draft, cmd: BindWounds, dice: Roller) -> None:
    c = need(d.state, cmd.actor)
    cd = data(c)
    if not d.state.ended:
        raise Refused("binding wounds comes after the battle: end the fight first", rule=R.binding_wounds)
    if cd.status == DEAD:
        raise Refused(f"{c.name} is dead: no binding helps", rule=R.binding_wounds)
    if cd.status == DYING:  # Ruling: as rest refuses it (test_binding_a_dying_pc_waits_for_the_death_save)
        raise Refused(f"{c.name} is dying: the death save comes first (p resolves it)", rule=R.death_save)
    if cd.bound:
        raise Refused(f"{c.name}'s wounds from this fight are already bound", rule=R.binding_wounds)
    if cd.lost <= 0:
        temp = " (temporary damage heals by the hour: Rest, h)" if cd.temp else ""
        raise Refused(
            f"{c.name} lost no HP to lethal damage in this fight: binding restores only HP lost in this fight{temp}",
            rule=R.binding_wounds,
        )
    r = roll("1d3", dice, f"{c.name} binds wounds")
    healed = min(r.total, cd.lost, cd.damage)
    # above 0 HP again: awake, as quick healing and rest wake (it left a PC at 1 HP "unconscious")
    revived = cd.status != OK and cd.hp + healed > 0 and healed > 0
    d.add(WoundsBound(id=c.id, roll=r, healed=healed, revived=revived))


def recover(d: Draft, cmd: Recover, dice: Roller) -> None:
    c = need(d.state, cmd.actor)
    cd = data(c)
    hours = cmd.hours
    if d.state.started and not d.state.ended:  # (the core Rest's words: engine._rest)
        raise Refused("time passes only by turns during a fight: end the fight first, then rest", rule=R.rest)
    if hours < 1:
        raise Refused("rest at least 1 hour", rule=R.temporary_healing)
    if cd.status == DEAD:
        raise Refused(f"{c.name} is dead", rule=R.temporary_healing)
    if cd.temp <= 0:
        raise Refused(f"{c.name} has no temporary damage to heal", rule=R.temporary_healing)
    healed = min(cd.temp, max(1, cd.level) * hours)
    woke = cd.status == KNOCKED_OUT and cd.hp + healed > 0
    d.add(TemporaryHealed(id=c.id, hours=hours, healed=healed, woke=woke))


# ---------------------------------------------------------------------------
# react: what any decision (core commands included) leads to


def lucky_prompt(c: Combatant) -> PromptRaised:
    d = data(c)
    left = lucky_streaks(d.level) - d.lucky_used
    what = d.last_save.against if d.last_save is not None else "a save"
    return prompt(
        LUCKY,
        f"{c.name} failed the save vs {what}: re-roll with Lucky Streak ({left} left today)? Settle it (P) as "
        f"'{FAILURE_STANDS}' to accept the failure",
        c.id,
        command="lucky_streak",
        params={"actor": c.id},
        outcomes=(FAILURE_STANDS,),
    )


def _striker(events: Sequence[Event], cid: str) -> str | None:
    for ev in reversed(events):
        if isinstance(ev, AttackRolled) and ev.hit and ev.target == cid:
            return ev.actor
    return None


def react(before: FightState, events: Sequence[Event], after: FightState) -> list[Event]:
    """Falls the decision left unsettled (a GM adjust), dismissed death saves, Lucky Streak offers, removals."""
    out: list[Event] = []
    # 1. HP at 0 or below by any path that did not settle it itself (a GM adjust of HP or temporary damage)
    was_by_id = {c.id: c for c in before.combatants}  # one lookup each, not a search per combatant
    for now in after.combatants:
        was = was_by_id.get(now.id)
        if now.removed or was is None:
            continue
        out += fall(was, now, _striker(events, now.id))
    closed: set[str] = set()
    # 1b. a dying combatant the GM set above 0 HP (healing and binding say so themselves): back on its feet, its
    #     death save moot (it stayed "dying", and the save asked again at its new HP could kill it)
    for now in after.combatants:
        was = was_by_id.get(now.id)
        rose = was is not None and data(was).hp <= 0 < data(now).hp  # (not the GM's "dying" set by hand at 10 HP)
        if not now.removed and rose and data(now).status == DYING:
            out.append(Revived(id=now.id))
            p = open_prompt(after, DEATH, now.id)
            if p is not None:
                out.append(PromptResolved(prompt_id=p.id, note=f"moot: {now.name} is above 0 HP again"))
                closed.add(p.id)
    # 1c. a dead combatant the GM set above 0 HP stays dead (Ruling: an adjust of HP does not raise the dead; the
    #     GM sets Status for that): the log says so, and how to bring them back
    for now in after.combatants:
        was = was_by_id.get(now.id)
        rose = was is not None and data(was).hp <= 0 < data(now).hp
        if not now.removed and rose and data(now).status == DEAD:
            out.append(StillDead(id=now.id))
    # 2. a death save the GM settled without the roll: as ruled, "dies" or "lives" (alive, unconscious; also
    #    when no outcome was named, as every dismissal did before prompts named their outcomes)
    known: dict[str, Prompt] = {p.id: p for p in before.prompts}
    known.update({ev.prompt.id: ev.prompt for ev in events if isinstance(ev, PromptRaised)})
    for ev in events:
        if not isinstance(ev, PromptResolved):
            continue
        p = known.get(ev.prompt_id)
        c = after.find(p.combatant) if p is not None and p.kind == DEATH and p.combatant else None
        if c is not None and data(c).status == DYING:
            out.append(DeathRuled(id=c.id) if ev.outcome == DIES else DeathSaveWaived(id=c.id))
    # 3. any save a Gambler failed — death, a scattergun's for half, any other — may be re-rolled
    offered: set[str] = set()
    for ev in events:
        cid = failed_save(ev)
        c = after.find(cid) if cid else None
        if c is None or c.id in offered or c.removed:
            continue
        d = data(c)
        if d.cls != GAMBLER or d.lucky_used >= lucky_streaks(d.level) or d.last_save is None:
            continue
        offered.add(c.id)
        earlier = open_prompt(after, LUCKY, c.id)  # an offer still open for an earlier failure lapses
        if earlier is not None:
            out.append(PromptResolved(prompt_id=earlier.id, note="failure accepted: a new save failed"))
        out.append(lucky_prompt(c))
    # 4. a combatant who leaves the fight leaves no open prompt behind
    for ev in events:
        if isinstance(ev, CombatantRemoved):
            out += [
                PromptResolved(prompt_id=p.id, note="left the fight") for p in after.prompts if p.combatant == ev.id
            ]
    # 5. a death save asked of one no longer dying (the GM set them dead or back on their feet) is moot: it was
    #    left open, and its roll refused ("not dying"), so only a ruling could clear it (a party loaded as saved,
    #    with a dead PC)
    closed |= {ev.prompt_id for ev in out if isinstance(ev, PromptResolved)}
    for p in after.prompts:
        c = after.find(p.combatant) if p.kind == DEATH and p.combatant and p.id not in closed else None
        if c is not None and not c.removed and data(c).status != DYING:
            out.append(PromptResolved(prompt_id=p.id, note=f"moot: {c.name} is no longer dying"))
            closed.add(p.id)
    # 6. a death save still asked of one whose HP changed while dying (a GM adjust, a blow to the dying) says the
    #    HP and the penalty now: its words kept "at 0 HP … − 0" while the roll took −5
    for p in after.prompts:
        c = after.find(p.combatant) if p.kind == DEATH and p.combatant and p.id not in closed else None
        if c is None or c.removed or data(c).status != DYING:
            continue
        fresh = death_prompt(c)
        if fresh.prompt.text != p.text:
            out += [PromptResolved(prompt_id=p.id, note=f"restated: {c.name} is at {data(c).hp} HP"), fresh]
    return out
