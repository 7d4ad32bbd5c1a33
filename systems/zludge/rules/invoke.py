"""An aspect or a plot point spent after seeing the roll just made.

Rulings (rules ``invoke``, ``plot_point`` and ``revised``):

- Right after a roll, before anything else is logged, the attacker, the
  defender (if it rolled) or the one who made a skill roll may invoke an aspect
  (+1 or reroll) or spend a plot point (+1) on it.  The outcome is read again:
  the harm the earlier reading did is taken back (a wound, a death, a clip, a
  treatment: one HarmTakenBack event per combatant, logged) and the new
  reading's harm dealt; first aid treats or not; a reopen prompt opens or closes.
- Each side may invoke one aspect and spend one plot point per roll, before and
  after together.  "reroll" rolls the 4dF again and the new roll counts; the
  log shows both.  (A reroll chosen before the roll keeps the better of the
  two rolls: ruling in ``checks.skill_roll``.)
- A revision does not roll a hit location the attack did not roll (against
  armor covering every location, only a GM's "roll location" on a hit rolls one).
- A contest's last roll is such a roll too (ruling in ``contest.Contest``): either
  side may spend on its own side; the winner is read again; a tie now rolls
  again (both sides, the modifiers they had), and the reopen prompt goes to the
  loser as it now stands (test_contests.py::test_invoke_after_a_contest_*).
"""

from __future__ import annotations

import attrs

from tracker.commands import Modifier
from tracker.dice import Roll, Roller
from tracker.errors import Refused
from tracker.events import Event
from tracker.kit import Draft, need, open_prompt, resolve
from tracker.model import Combatant

from ..checks import Boosts, check_boosts, fudge
from ..commands import InvokeAfter
from ..events import (
    SIMPLE,
    AttackResolved,
    ContestRolled,
    ContestSide,
    HarmTakenBack,
    RollRevised,
    SkillRolled,
    WoundsTreated,
)
from ..fight import LastRoll, open_roll
from ..model import data, taken_back
from ..table import R, applies
from .actions import untreated
from .attacks import outcome_of, wound_source
from .contests import loser_prompt, rounds_after, winner
from .harm import damage_of, wound_event
from .reopen import REOPEN, reopen_due, reopen_prompt


@attrs.frozen(kw_only=True)
class Side:
    """The roll a combatant spends on: its side, dice, modifiers, total, the other side's total, what it spent."""

    side: str
    roll: Roll
    mods: tuple[Modifier, ...]
    total: int
    against: int | None
    aspect: str
    plot_point: bool


def _side(d: Draft, who: Combatant, ev: AttackResolved | SkillRolled) -> Side:
    if isinstance(ev, SkillRolled):
        if who.id != ev.actor:
            raise Refused(f"{who.name} did not make the last roll ({d.state.name(ev.actor)}'s {ev.skill})")
        return Side(
            side="skill", roll=ev.roll, mods=ev.mods, total=ev.total, against=None, aspect=ev.aspect,
            plot_point=ev.plot_point,
        )  # fmt: skip
    if who.id == ev.actor:
        return Side(
            side="attack", roll=ev.attack, mods=ev.attack_mods, total=ev.attack_total, against=ev.defense_total,
            aspect=ev.aspect, plot_point=ev.plot_point,
        )  # fmt: skip
    if who.id == ev.target:
        if ev.defense is None:
            raise Refused(
                f"{who.name} made no defense roll (fixed defense): nothing to spend an aspect or plot point on"
            )
        return Side(
            side="defense", roll=ev.defense, mods=ev.defense_mods, total=ev.defense_total, against=ev.attack_total,
            aspect=ev.defense_aspect, plot_point=ev.defense_plot_point,
        )  # fmt: skip
    raise Refused(f"{who.name} made no roll in the last attack: only the attacker and the defender may spend on it")


@applies(R.revised)
def takebacks(last: LastRoll, d: Draft) -> list[HarmTakenBack]:
    """Put the combatants the roll touched back as they were before its harm (where the harm changed them)."""
    out: list[HarmTakenBack] = []
    if isinstance(last.event, ContestRolled):  # a contest does no harm
        return out
    for was in last.before:
        now = d.get(was.id)
        wounds, dead, clipped = taken_back(was, now, last.event.actor)
        n = data(now)
        if (wounds, dead, clipped) != (n.wounds, n.dead, n.clipped):
            out.append(HarmTakenBack(target=was.id, wounds=wounds, dead=dead, clipped=clipped))
    return out


def invoke_after(d: Draft, cmd: InvokeAfter, dice: Roller) -> None:
    who = need(d.state, cmd.actor)
    last = open_roll(d.state)
    if last is None:
        raise Refused(
            "an aspect or plot point spent after the roll goes on the roll just made, before anything else "
            "happens: there is no such roll now",
            rule=R.invoke,
        )
    ev = last.event
    if isinstance(ev, ContestRolled):
        _invoke_on_contest(d, who, cmd, dice, ev)
        return
    side = _side(d, who, ev)
    if not cmd.aspect.strip() and not cmd.plot_points:
        raise Refused("name an aspect to invoke or spend a plot point", rule=R.invoke)
    aspect = check_boosts(who, Boosts(aspect=cmd.aspect, use=cmd.aspect_use, plot_points=cmd.plot_points))
    if aspect and side.aspect:
        raise Refused(
            f"one aspect invocation per roll: {who.name} already invoked '{side.aspect}' on it", rule=R.invoke
        )
    if cmd.plot_points and side.plot_point:
        raise Refused(
            f"only one plot point can be spent per check: {who.name} already spent one on this roll", rule=R.plot_point
        )
    new_roll = fudge(dice, f"{who.name} rerolls ({aspect})") if aspect and cmd.aspect_use == "reroll" else None
    new_mods = list(side.mods)
    if aspect and cmd.aspect_use == "+1":
        new_mods.append(Modifier(label=f"aspect '{aspect}'", value=1))
    if cmd.plot_points:
        new_mods.append(Modifier(label="plot point", value=1))
    new_total = (new_roll or side.roll).total + sum(m.value for m in new_mods)
    outcome, damage, opponent = "", None, None
    if isinstance(ev, AttackResolved):
        against = side.against or 0
        atk, dfn = (new_total, against) if side.side == "attack" else (against, new_total)
        outcome = outcome_of(atk - dfn)
        damage = damage_of(outcome, ev.weapon_level, ev.armor_level)
        opponent = ev.target if side.side == "attack" else ev.actor
    rr = RollRevised(
        who=who.id,
        side=side.side,
        aspect=aspect,
        reroll=new_roll,
        plot_point=bool(cmd.plot_points),
        mods=tuple(new_mods),
        total_before=side.total,
        total=new_total,
        against=side.against,
        outcome=outcome,
        damage_level=damage,
        opponent=opponent,
        takes_back=True,
    )
    # the events after the revision: the earlier reading's harm taken back, then the new reading's
    draft = Draft(d.system, d.state)
    draft.add(rr)
    draft.add(*takebacks(last, draft))
    before = {c.id: c for c in last.before}
    if isinstance(ev, AttackResolved):
        if damage is not None:
            draft.add(wound_event(draft.get(ev.target), damage, wound_source(before[ev.actor], ev)))
    else:
        draft.add(*_skill_follow(draft, who, ev, attrs.evolve(ev, total=new_total), before))
    follow = draft.events[1:]
    d.add(attrs.evolve(rr, follow=len(follow)), *follow)


def _skill_follow(
    d: Draft, who: Combatant, ev: SkillRolled, revised: SkillRolled, before: dict[str, Combatant]
) -> list[Event | None]:
    out: list[Event | None] = []
    if ev.purpose == "first aid" and revised.success and ev.target is not None:
        out.append(WoundsTreated(target=ev.target, boxes=untreated(data(d.get(ev.target)))))
    open_ = open_prompt(d.state, REOPEN, who.id) is not None
    was = data(before[who.id])
    if reopen_due(was, revised) and not open_:
        out.append(reopen_prompt(who))
    elif reopen_due(was, ev) and not reopen_due(was, revised) and open_:
        out.append(resolve(d.state, REOPEN, who.id, "the check succeeds after all"))
    return out


def _invoke_on_contest(d: Draft, who: Combatant, cmd: InvokeAfter, dice: Roller, ev: ContestRolled) -> None:
    """An aspect or plot point on one's own side of the contest just rolled (module docstring)."""
    if who.id not in (ev.first.id, ev.second.id):
        names = f"{d.state.name(ev.first.id)} and {d.state.name(ev.second.id)}"
        raise Refused(f"{who.name} is not in the last contest ({names}): only its two sides may spend on it")
    mine, theirs = (ev.first, ev.second) if who.id == ev.first.id else (ev.second, ev.first)
    if not cmd.aspect.strip() and not cmd.plot_points:
        raise Refused("name an aspect to invoke or spend a plot point", rule=R.invoke)
    aspect = check_boosts(who, Boosts(aspect=cmd.aspect, use=cmd.aspect_use, plot_points=cmd.plot_points))
    spent_aspect, spent_plot = mine.spent()
    if aspect and spent_aspect:
        raise Refused(f"one aspect invocation per roll: {who.name} already invoked one on it", rule=R.invoke)
    if cmd.plot_points and spent_plot:
        raise Refused(
            f"only one plot point can be spent per check: {who.name} already spent one on this roll", rule=R.plot_point
        )
    reroll = bool(aspect) and cmd.aspect_use == "reroll"
    if reroll and mine.roll is None:
        raise Refused(
            "a simple contest rolls no dice: there is nothing for the aspect to reroll (invoke it for +1)",
            rule=R.invoke,
        )
    new_roll = fudge(dice, f"{who.name} rerolls ({aspect})") if reroll else None
    mods = list(mine.mods)
    if aspect and not reroll:
        mods.append(Modifier(label=f"aspect '{aspect}'", value=1))
    if cmd.plot_points:
        mods.append(Modifier(label="plot point", value=1))
    rolled = new_roll or mine.roll
    total = (rolled.total if rolled is not None else 0) + sum(m.value for m in mods)
    side = attrs.evolve(mine, roll=rolled, mods=tuple(mods), total=total, aspect="", plot_point=False)
    first, second = (side, theirs) if mine is ev.first else (theirs, side)
    win = winner(first, second)
    rr = RollRevised(
        who=who.id,
        side="contest",
        aspect=aspect,
        reroll=new_roll,
        plot_point=bool(cmd.plot_points),
        mods=tuple(mods),
        total_before=mine.total,
        total=total,
        against=theirs.total,
        opponent=theirs.id,
        winner=win,
        takes_back=True,
    )
    rounds: list[ContestRolled] = []
    if not win:  # a tie (or equal scores): both roll again, with the modifiers they have now (each side as physical)
        rounds = rounds_after(d.state, _carried(first), _carried(second), 1 if ev.kind == SIMPLE else ev.round + 1,
                              dice, ev.physical)  # fmt: skip
    final = rounds[-1] if rounds else attrs.evolve(ev, first=first, second=second, winner=win)
    follow: list[Event] = []
    was, now = ev.loser, final.loser
    physical = bool(was) and ev.physical_of(was)  # the old loser's side (the contest's, in files from before)
    closed = resolve(d.state, REOPEN, was, "the check succeeds after all") if was and was != now and physical else None
    shut = [closed] if closed is not None else []
    prompt = loser_prompt(d.state, final) if now and now != was and open_prompt(d.state, REOPEN, now) is None else []
    if rounds:  # (the prompt closes after the roll that won it, not after the tie: Why? names that roll)
        rounds[-1] = attrs.evolve(rounds[-1], follow=len(shut) + len(prompt))
    follow += [*rounds, *shut, *prompt]
    d.add(attrs.evolve(rr, follow=len(follow)), *follow)


def _carried(side: ContestSide) -> ContestSide:
    """A side as the rolls after it carry it: its skill and modifiers (nothing spent again)."""
    return ContestSide(id=side.id, skill=side.skill, mods=side.mods, total=side.total, physical=side.physical)
