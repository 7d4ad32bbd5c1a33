"""Zludge contests between two combatants (book l.19–20; rules ``contest_simple`` and ``contest_regular``).

- Simple: the two ability scores (the skill's modifier with the side's own penalties, as if both
  took 0) are compared with no roll; the higher wins; equal scores become a regular contest.
- Regular: both roll their skill with their own penalties; a tie rolls again, both sides, as many
  times as needed; every roll is logged, one line a round.
"""

from __future__ import annotations

import attrs

from tracker.commands import BOOL, CHOICE, CommandSpec, Modifier, Param
from tracker.dice import Roll, Roller
from tracker.errors import Refused
from tracker.events import Event
from tracker.kit import Draft, need, spec
from tracker.model import Combatant, FightState

from .checks import base_mods, check_able, skill_roll
from .events import mods_text, roll_text
from .evolve import apply
from .model import data, ladder
from .table import R, applies

SIMPLE, REGULAR = "simple", "regular"
MAX_ROUNDS = 20  # ties rolled again "as many times as needed"; a stop for a dry run on fixed faces


@attrs.frozen(kw_only=True)
class Contest:
    """Two combatants set a skill against each other: simple (no roll) or regular (both roll)."""

    actor: str
    target: str
    skill: str = "Athletics"
    target_skill: str = ""  # empty: the same skill
    kind: str = REGULAR
    physical: bool = True


@attrs.frozen(kw_only=True)
class ContestSide:
    """One side of a contest round: its skill, its roll (None: no roll, a simple contest) and total."""

    id: str
    skill: str
    roll: Roll | None = None
    mods: tuple[Modifier, ...] = ()
    total: int = 0

    def text(self, state: FightState) -> str:
        if self.roll is None:
            return f"{state.name(self.id)} {self.skill}{mods_text(self.mods)} → {ladder(self.total)}"
        return f"{state.name(self.id)} {self.skill} {roll_text(self.roll, None, self.mods, self.total)}"


@attrs.frozen(kw_only=True)
class ContestRolled(Event):
    """One round of a contest: both sides' results and who wins ("" on a tie: the contest goes on)."""

    TYPE = "zludge.contest_rolled"
    kind: str
    round: int = 1
    first: ContestSide
    second: ContestSide
    winner: str = ""

    def describe(self, state: FightState) -> str:
        head = "simple contest (no roll)" if self.kind == SIMPLE else f"contest, roll {self.round}"
        if self.winner:
            out = f"{state.name(self.winner)} wins"
        elif self.kind == SIMPLE:
            out = "equal scores: a regular contest"
        else:
            out = "tie: both roll again"
        return f"{head}: {self.first.text(state)} vs {self.second.text(state)}: {out}"


def _score(c: Combatant, skill: str, physical: bool) -> tuple[Modifier, ...]:
    return (*base_mods(c, skill), *data(c).penalties(physical))


@applies(R.contest_simple, R.contest_regular)
def contest(d: Draft, cmd: Contest, dice: Roller) -> None:
    a = need(d.state, cmd.actor)
    b = need(d.state, cmd.target, "opponent")
    if a.id == b.id:
        raise Refused("a contest is between two different combatants")
    if cmd.kind not in (SIMPLE, REGULAR):
        raise Refused(f"a contest is simple or regular, not '{cmd.kind}'", rule=R.contest_simple)
    skill_a = cmd.skill.strip().title()
    skill_b = (cmd.target_skill.strip() or cmd.skill).strip().title()
    if not skill_a:
        raise Refused("name the skill of the contest")
    check_able(a, cmd.physical, f"contest {skill_a}")
    check_able(b, cmd.physical, f"contest {skill_b}")
    if cmd.kind == SIMPLE:
        ma, mb = _score(a, skill_a, cmd.physical), _score(b, skill_b, cmd.physical)
        ta, tb = sum(m.value for m in ma), sum(m.value for m in mb)
        win = a.id if ta > tb else b.id if tb > ta else ""
        first = ContestSide(id=a.id, skill=skill_a, mods=ma, total=ta)
        second = ContestSide(id=b.id, skill=skill_b, mods=mb, total=tb)
        d.add(ContestRolled(kind=SIMPLE, first=first, second=second, winner=win))
        if win:
            return
    for n in range(1, MAX_ROUNDS + 1):
        sides = []
        for c, skill in ((a, skill_a), (b, skill_b)):
            r = skill_roll(
                c, dice, f"{c.name} {skill} (contest)", aspect="", use="+1", plot_point=False,
                base=base_mods(c, skill), physical=cmd.physical,
            )  # fmt: skip
            sides.append(ContestSide(id=c.id, skill=skill, roll=r.roll, mods=r.mods, total=r.total))
        first, second = sides
        win = a.id if first.total > second.total else b.id if second.total > first.total else ""
        d.add(ContestRolled(kind=REGULAR, round=n, first=first, second=second, winner=win))
        if win:
            return


def contest_spec() -> CommandSpec:
    return spec(
        Contest,
        name="contest",
        title="Contest",
        key="k",
        subject="target",
        labels={"actor": "First", "target": "Against", "skill": "First's skill"},
        fields={
            "target_skill": Param(
                name="target_skill",
                label="Against's skill",
                default="",
                required=False,
                help="empty: the same skill",
            ),
            "kind": Param(
                name="kind",
                kind=CHOICE,
                choices=(REGULAR, SIMPLE),
                default=REGULAR,
                label="Contest",
                help="simple: compare scores, no roll (equal: regular); regular: both roll, a tie rolls again",
            ),
            "physical": Param(name="physical", kind=BOOL, default=True, label="Physical"),
        },
        help="Two combatants set a skill against each other; every roll is logged.",
    )


@apply.on(ContestRolled)
def _contest_rolled(state: FightState, event: ContestRolled) -> FightState:
    """A contest round changes nothing on the sheets: the log keeps it."""
    return state
