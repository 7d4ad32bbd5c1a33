"""Skill rolls, first aid, reopened wounds, a new day's aspects, any other action.

Rulings:

- *First aid* is a Medical(First Aid) roll: a medic with a "First Aid"
  specialization in Medical uses it by itself; success makes each wound impair
  one level less (the boxes stay).  First aid is not physical: only fatigue
  weighs on it.
  Ruling (l.133 "A few minutes work with bandages"; a turn is about 3 seconds,
  l.104): while the fight runs (started, not ended) first aid is refused with
  those words; it is given after the fight, or before it.  It was one turn's
  action that eased the wounds at once.  Test:
  test_outside_the_fight.py::test_first_aid_waits_for_the_end_of_the_fight.
- *Physical by the skill*: a skill roll the GM does not mark physical or not is physical when its skill is the
  body's (``model.is_physical``, rule ``physical``): a Hurt PC's Alertness takes no wound penalty, her Athletics
  does.  Test: test_round4_table.py::test_a_skill_roll_is_physical_by_its_skill.
- *Reopening*: a failed physical check by someone with treated wounds raises a
  prompt; the GM answers with reopen_wounds or dismisses it.
- *Bulky armor* takes its penalty on every Athletics and Acrobatics roll
  (rule ``bulky``), a skill roll as much as a defense.
- *Naming the skill*: "Skill (Specialization)" in the skill field is the skill
  with that specialization; a typo of a sheet's skill is refused, a skill the
  sheet does not list rolls untrained and the log says "untrained" (ruling in
  ``checks.check_skill``; test_skill_names.py).
- *Off turn*: a skill roll ticked as the turn's action, off the roller's turn,
  is refused with the words to untick it: a check that costs no action is
  rolled at any moment (the rulings' third pass; test_skill_names.py).
- Each roll says how many events of its action follow it (``follow``), so the
  fight knows when the roll is open to an aspect or plot point after it.
"""

from __future__ import annotations

import attrs

from tracker.commands import Modifier
from tracker.dice import Roller
from tracker.errors import Refused
from tracker.kit import Draft, need, resolve
from tracker.model import FightState

from ..checks import (
    Boosts,
    base_mods,
    check_able,
    check_boosts,
    check_difficulty,
    check_situational,
    check_skill,
    check_turn,
    skill_roll,
    untrained,
)
from ..commands import FirstAid, RefreshAspects, ReopenWounds, RollSkill, TakeAction
from ..events import ActionTaken, AspectsRefreshed, SkillRolled, WoundsReopened, WoundsTreated
from ..model import ZludgeData, data, physical_for
from ..table import R, applies
from .contests import take_zero
from .reopen import REOPEN, reopen_due, reopen_prompt

# the end of a skill roll's off-turn refusal (third pass: a check that costs no action, any moment)
FREE_CHECK = "a check that costs no action is rolled at any moment: untick 'Is the turn's action'"


def in_combat(state: FightState) -> bool:
    """Whether the fight runs: an action before it starts or after it ends is none of the fight's."""
    return state.started and not state.ended


def untreated(d: ZludgeData) -> int:
    return sum(1 for b in d.wounds if b.level > 0 and not b.treated)


def _difficulty(value: int) -> list[Modifier]:
    check_difficulty(value)
    return [Modifier(label="difficulty", value=value)] if value else []


@applies(R.test, R.difficulty, R.take_0)
def roll_skill(d: Draft, cmd: RollSkill, dice: Roller) -> None:
    actor = need(d.state, cmd.actor)
    if not cmd.skill.strip():
        raise Refused("name the skill to roll")
    # "Medical (First Aid)" is Medical with First Aid; a typo of a sheet's skill is refused (checks.check_skill)
    skill, spec = check_skill(actor, cmd.skill, cmd.specialty)
    cmd = attrs.evolve(cmd, physical=physical_for(cmd.physical, skill))  # "by the skill": model.is_physical
    check_able(actor, bool(cmd.physical), f"roll {skill}", cmd.gm_allows)
    if cmd.as_action:
        check_turn(d.state, actor, FREE_CHECK)
    diff = _difficulty(cmd.difficulty)
    mods = check_situational(cmd.modifiers)
    aspect = check_boosts(actor, Boosts(aspect=cmd.aspect, use=cmd.aspect_use, plot_points=cmd.plot_points))
    base = untrained(actor, skill, base_mods(actor, skill, spec, *diff, *mods))
    if cmd.take_0:
        r = take_zero(actor, skill, aspect, cmd, base)
    else:
        r = skill_roll(
            actor, dice, f"{actor.name} {skill}", aspect=aspect, use=cmd.aspect_use,
            plot_point=cmd.plot_points == 1, base=base, physical=bool(cmd.physical),
        )  # fmt: skip
    ev = SkillRolled(
        actor=actor.id,
        skill=skill if not spec else f"{skill} ({spec})",
        roll=r.roll,
        rerolled=r.rerolled,
        better=r.better,
        mods=r.mods,
        total=r.total,
        physical=bool(cmd.physical),
        aspect=aspect,
        plot_point=r.plot_point,
        # a check outside the fight is no action in it: the roller stays flat-footed until its first (l.103)
        counts_as_action=cmd.as_action and in_combat(d.state),
        took_0=cmd.take_0,
    )
    due = reopen_due(data(actor), ev)
    d.add(attrs.evolve(ev, follow=int(due)))
    if due:
        d.add(reopen_prompt(actor))


@applies(R.first_aid)
def first_aid(d: Draft, cmd: FirstAid, dice: Roller) -> None:
    medic = need(d.state, cmd.actor, "medic")
    patient = need(d.state, cmd.target, "patient")
    check_able(medic, False, "give first aid")
    if in_combat(d.state):
        raise Refused(
            "first aid is a few minutes' work with bandages, not a 3-second turn: give it after the fight "
            "(end it first) or before it",
            rule=R.first_aid,
        )
    if data(patient).dead:
        raise Refused(f"{patient.name} is dead: first aid cannot help", rule=R.death)
    n_untreated = untreated(data(patient))
    if not n_untreated:
        raise Refused(f"{patient.name} has no untreated wound above Scratched for first aid to ease", rule=R.first_aid)
    diff = _difficulty(cmd.difficulty)
    mods = check_situational(cmd.modifiers)
    aspect = check_boosts(medic, Boosts(aspect=cmd.aspect, use=cmd.aspect_use, plot_points=cmd.plot_points))
    skill = data(medic).skill("Medical")
    spec = next((sp for sp in (skill.specs if skill else ()) if sp.lower() == "first aid"), "")
    r = skill_roll(
        medic, dice, f"{medic.name} first aid", aspect=aspect, use=cmd.aspect_use,
        plot_point=cmd.plot_points == 1, base=base_mods(medic, "Medical", spec, *diff, *mods), physical=False,
    )  # fmt: skip
    success = r.total >= 0
    d.add(
        SkillRolled(
            actor=medic.id,
            skill=f"Medical ({spec})" if spec else "Medical",
            roll=r.roll,
            rerolled=r.rerolled,
            better=r.better,
            mods=r.mods,
            total=r.total,
            physical=False,
            purpose="first aid",
            target=patient.id,
            aspect=aspect,
            plot_point=r.plot_point,
            follow=int(success),
            counts_as_action=in_combat(d.state),
        )
    )
    if success:
        d.add(WoundsTreated(target=patient.id, boxes=n_untreated))


def reopen(d: Draft, cmd: ReopenWounds, dice: Roller) -> None:
    c = need(d.state, cmd.target)
    if not any(b.treated for b in data(c).wounds):
        raise Refused(f"{c.name} has no treated wounds to reopen", rule=R.reopen)
    d.add(WoundsReopened(target=c.id, note=cmd.note))
    d.add(resolve(d.state, REOPEN, c.id, "the wounds reopen"))


def refresh(d: Draft, cmd: RefreshAspects, dice: Roller) -> None:
    pool = [need(d.state, i) for i in cmd.ids] if cmd.ids else list(d.state.present)
    ids = tuple(c.id for c in pool if data(c).aspects_used)
    if not ids:
        raise Refused("no aspect is checked off: nothing to refresh", rule=R.refresh)
    d.add(AspectsRefreshed(ids=ids))


@applies(R.turn)
def take_action(d: Draft, cmd: TakeAction, dice: Roller) -> None:
    c = need(d.state, cmd.actor)
    if not cmd.text.strip():
        raise Refused("say what the action is")
    if not in_combat(d.state):
        raise Refused(
            "a turn's action is taken in the fight: roll initiative and start it first (a note says the rest)"
        )
    check_able(c, cmd.physical, "act", cmd.gm_allows)
    check_turn(d.state, c)
    d.add(ActionTaken(actor=c.id, text=cmd.text.strip(), physical=cmd.physical))
