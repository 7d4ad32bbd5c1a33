"""Zludge checks without a roll, and contests (rules ``take_0``, ``combat_rolls``, ``contest_simple``,
``contest_regular``).

- "Take 0" (l.18): a skill check may take a result of 0 instead of rolling when the GM allows;
  combat skills (Melee, Ranged, Unarmed) always roll (l.21; test_take_0.py).
- Contests (l.19–20): the decide of :class:`systems.zludge.contest.Contest` (its rulings are there).
  Ruling (l.133 "A failure on a physical skill check can reopen your wounds"; a contest is a check, l.21):
  the loser of a physical contest who has treated wounds gets the same prompt a failed physical skill roll
  raises (do they reopen?); a lost contest once never asked.  Physical is the loser's own side's
  (``ContestRolled.physical_of``; each side by its skill, ruling in ``contest.Contest``).
  Test: test_contests.py::test_losing_a_physical_contest_asks_whether_treated_wounds_reopen.
- Ruling (l.104 "each active ... character gets to take an action"; the rulings' zludge "Turns: each active
  combatant takes one action per turn"; third pass "only actions that cost the combatant's action wait for its turn"):
  in a running fight a contest is the first side's action, as a skill roll is: on its own turn, one a turn, and
  it ends that side's clip and flat-footedness as any action of its does (``ContestRolled.counts_as_action``);
  the form ticks "Is the turn's action" only for the one whose turn it is (the skill roll's
  ``commands.skill_defaults``), and unticked (the other's doing, a reaction) it costs nothing and is rolled at
  any moment.  The one against spends no action.  A contest once cost no action on anyone's turn.
  Test: test_contest_round2.py::test_a_contest_in_the_fight_is_the_first_sides_action.
- Ruling (l.118, l.128 "most actions not possible, (-3 to physical actions)"; the rulings' "Exhausted is -3 to
  every roll the GM still allows"): each side of a physical contest that is Incapacitated or Exhausted is refused unless
  the GM ticks "GM allows it though prone" for that side (``gm_allows``, ``target_gm_allows``, the skill roll's
  tick); it then rolls with its -3.  The refusal named a tick the contest form did not have.
  Test: test_contest_round2.py::test_a_prone_side_of_a_contest_rolls_at_minus_3_when_the_gm_allows_it.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from tracker.commands import Modifier
from tracker.dice import Roll, Roller
from tracker.errors import Refused
from tracker.events import Event
from tracker.kit import Draft, need
from tracker.model import Combatant, FightState

from ..checks import (
    Boosts,
    SkillRoll,
    base_mods,
    check_able,
    check_boosts,
    check_situational,
    check_turn,
    fudge,
    skill_roll,
    untrained,
)
from ..commands import RollSkill
from ..contest import MAX_ROUNDS, Contest, label, sides
from ..events import REGULAR, SIMPLE, ContestRolled, ContestSide
from ..model import ATTACK_SKILLS, data, physical_for
from ..table import R, applies
from .reopen import reopen_prompt, treated

# the end of a contest's off-turn refusal (as a skill roll's: a contest that costs no action, any moment)
FREE_CONTEST = "a contest that costs the first no action is rolled at any moment: untick 'Is the turn's action'"


def take_zero(c: Combatant, skill: str, aspect: str, cmd: RollSkill, base: Sequence[Modifier]) -> SkillRoll:
    """A skill check taking 0 (l.18): the dice count as 0; the modifiers and penalties still apply."""
    if skill.split("(")[0].strip() in ATTACK_SKILLS:
        raise Refused(
            f"{skill} is a combat skill: combat rolls are always rolled, never taken as 0", rule=R.combat_rolls
        )
    if aspect and cmd.aspect_use == "reroll":
        raise Refused("taking 0 rolls no dice: there is nothing for the aspect to reroll", rule=R.take_0)
    mods = [*base, *data(c).penalties(bool(cmd.physical))]
    if aspect:
        mods.append(Modifier(label=f"aspect '{aspect}'", value=1))
    if cmd.plot_points == 1:
        mods.append(Modifier(label="plot point", value=1))
    zero = Roll(expr="0", label=f"{c.name} {skill} (take 0)", faces=(), kept=(), total=0)
    total = sum(m.value for m in mods)
    return SkillRoll(
        roll=zero, rerolled=None, mods=tuple(mods), total=total, aspect=aspect, plot_point=cmd.plot_points == 1
    )


@attrs.frozen(kw_only=True)
class Entrant:
    """One side of a contest as the GM set it: who, its skill's label, its modifiers before penalties, and what
    it spends before the roll (checked)."""

    c: Combatant
    skill: str
    base: tuple[Modifier, ...]
    physical: bool  # this side's (model.physical_for: the GM's yes or no, or its own skill's)
    aspect: str = ""
    use: str = "+1"
    plot_point: bool = False

    def boosts(self) -> list[Modifier]:
        out = [Modifier(label=f"aspect '{self.aspect}'", value=1)] if self.aspect and self.use == "+1" else []
        return out + ([Modifier(label="plot point", value=1)] if self.plot_point else [])

    def score(self) -> ContestSide:
        """A simple contest's score: no roll; the modifiers, the penalties and the aspect's or plot point's +1."""
        mods = (*self.base, *data(self.c).penalties(self.physical), *self.boosts())
        return ContestSide(
            id=self.c.id, skill=self.skill, mods=mods, total=sum(m.value for m in mods), aspect=self.aspect,
            plot_point=self.plot_point, physical=self.physical,
        )  # fmt: skip

    def first_roll(self, dice: Roller) -> ContestSide:
        """The contest's first roll, with what the side spent before it (a reroll keeps the better)."""
        r = skill_roll(
            self.c, dice, f"{self.c.name} {self.skill} (contest)", aspect=self.aspect, use=self.use,
            plot_point=self.plot_point, base=self.base, physical=self.physical,
        )  # fmt: skip
        return ContestSide(
            id=self.c.id, skill=self.skill, roll=r.roll, rerolled=r.rerolled, better=r.better, mods=r.mods,
            total=r.total, aspect=self.aspect, plot_point=self.plot_point, physical=self.physical,
        )  # fmt: skip


def _entrant(
    c: Combatant, skill: str, spec: str, mods: Sequence[Modifier], boosts: Boosts, kind: str, physical: bool
) -> Entrant:
    sit = check_situational(mods)
    aspect = check_boosts(c, boosts, "contest")
    if aspect and boosts.use == "reroll" and kind == SIMPLE:
        raise Refused(
            f"a simple contest rolls no dice: there is nothing for {c.name}'s aspect to reroll (invoke it for +1)",
            rule=R.invoke,
        )
    base = untrained(c, skill, base_mods(c, skill, spec, *sit))
    return Entrant(
        c=c, skill=label(skill, spec), base=tuple(base), physical=physical, aspect=aspect, use=boosts.use,
        plot_point=boosts.plot_points == 1,
    )  # fmt: skip


def winner(first: ContestSide, second: ContestSide) -> str:
    return first.id if first.total > second.total else second.id if second.total > first.total else ""


def rounds_after(
    state: FightState, first: ContestSide, second: ContestSide, start: int, dice: Roller, physical: bool | None
) -> list[ContestRolled]:
    """The regular contest's rolls from round ``start`` until one side wins (at most ``MAX_ROUNDS``): both sides
    roll 4dF again with the modifiers they had (penalties and an aspect's or plot point's +1 included; nothing is
    spent again), each side physical as it was (``physical``: the contest's, ``ContestRolled.physical``)."""
    out = []
    for n in range(start, MAX_ROUNDS + 1):
        rolled = []
        for side in (first, second):
            r = fudge(dice, f"{state.name(side.id)} {side.skill} (contest)")
            total = r.total + sum(m.value for m in side.mods)
            rolled.append(
                ContestSide(id=side.id, skill=side.skill, roll=r, mods=side.mods, total=total, physical=side.physical)
            )
        a, b = rolled
        ev = ContestRolled(kind=REGULAR, round=n, first=a, second=b, winner=winner(a, b), physical=physical, follow=0)
        out.append(ev)
        if ev.winner:
            break
    return out


@applies(R.reopen)
def loser_prompt(state: FightState, ev: ContestRolled) -> list[Event]:
    """The reopen prompt of the loser of a physical contest who has treated wounds (module docstring)."""
    if not ev.loser or not ev.physical_of(ev.loser):
        return []
    c = state.get(ev.loser)
    return [reopen_prompt(c)] if treated(data(c)) else []


@applies(R.contest_simple, R.contest_regular)
def contest(d: Draft, cmd: Contest, dice: Roller) -> None:
    a = need(d.state, cmd.actor)
    b = need(d.state, cmd.target, "opponent")
    if a.id == b.id:
        raise Refused("a contest is between two different combatants")
    if cmd.kind not in (SIMPLE, REGULAR):
        raise Refused(f"a contest is simple or regular, not '{cmd.kind}'", rule=R.contest_simple)
    (skill_a, spec_a), (skill_b, spec_b) = sides(a, b, cmd)
    # each side's Physical: the GM's yes or no, or by its own skill (ruling in contest.Contest)
    physical_a, physical_b = physical_for(cmd.physical, skill_a), physical_for(cmd.physical, skill_b)
    check_able(a, physical_a, f"contest {skill_a}", cmd.gm_allows)
    check_able(b, physical_b, f"contest {skill_b}", cmd.target_gm_allows)
    if cmd.as_action:
        check_turn(d.state, a, FREE_CONTEST)
    ea = _entrant(
        a, skill_a, spec_a, cmd.modifiers, Boosts(aspect=cmd.aspect, use=cmd.aspect_use, plot_points=cmd.plot_points),
        cmd.kind, physical_a,
    )  # fmt: skip
    boosts_b = Boosts(aspect=cmd.target_aspect, use=cmd.target_aspect_use, plot_points=cmd.target_plot_points)
    eb = _entrant(b, skill_b, spec_b, cmd.target_modifiers, boosts_b, cmd.kind, physical_b)
    if cmd.kind == SIMPLE:
        first, second = ea.score(), eb.score()
        start = 1
    else:
        first, second = ea.first_roll(dice), eb.first_roll(dice)
        start = 2
    acts = cmd.as_action and d.state.started and not d.state.ended  # (outside the fight no action of it)
    events = [
        ContestRolled(
            kind=cmd.kind,
            first=first,
            second=second,
            winner=winner(first, second),
            physical=cmd.physical,
            follow=0,
            counts_as_action=acts,
        )
    ]
    if not events[0].winner:
        events += rounds_after(d.state, first, second, start, dice, cmd.physical)
    prompt = loser_prompt(d.state, events[-1])
    events[-1] = attrs.evolve(events[-1], follow=len(prompt))
    d.add(*events, *prompt)
