"""Zludge contests between two combatants (book l.19–20; rules ``contest_simple`` and ``contest_regular``).

- Simple: the two ability scores (the skill's modifier with the side's own penalties, as if both
  took 0) are compared with no roll; the higher wins; equal scores become a regular contest.
- Regular: both roll their skill with their own penalties; a tie rolls again, both sides, as many
  times as needed; every roll is logged, one line a round.
- Each side's skill is named as in a skill roll, "Skill (Specialization)" included (ruling in ``sides``).
"""

from __future__ import annotations

import attrs

from tracker.commands import BOOL, CHOICE, CommandSpec, Modifier, Param
from tracker.dice import Roll, Roller
from tracker.errors import Refused
from tracker.events import Event
from tracker.kit import Draft, need, spec
from tracker.model import Combatant, FightState

from .checks import base_mods, check_able, check_skill, skill_roll, untrained
from .commands import SKILL_HELP
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
    specialty: str = ""  # the first's specialization ("Athletics (Climbing)" in the skill says it as well)
    target_skill: str = ""  # empty: the same skill
    target_specialty: str = ""  # empty: the first's, if the opponent's sheet has it (empty skill), else none
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


def _score(c: Combatant, skill: str, spec: str, physical: bool) -> tuple[Modifier, ...]:
    return (*untrained(c, skill, base_mods(c, skill, spec)), *data(c).penalties(physical))


def _label(skill: str, spec: str) -> str:
    return f"{skill} ({spec})" if spec else skill


def sides(a: Combatant, b: Combatant, cmd: Contest) -> tuple[tuple[str, str], tuple[str, str]]:
    """Each side's skill and specialization, as its sheet writes them (``checks.check_skill``).

    Ruling: a contest names a specialization as a skill roll does ("Medical (First Aid)" in the skill, or the
    specialization fields), where a contest once rolled "Medical (First Aid)" untrained at -1.  An empty
    Against's skill is the first's skill; the first's specialization counts for the opponent too when the
    opponent's sheet has it (a race up a wall is Climbing for both), else the opponent rolls the skill alone.
    Tests: tests/systems/zludge/test_skill_names.py (contest)."""
    if not cmd.skill.strip():
        raise Refused("name the skill of the contest")
    first = check_skill(a, cmd.skill, cmd.specialty)
    if cmd.target_skill.strip():
        return first, check_skill(b, cmd.target_skill, cmd.target_specialty)
    if cmd.target_specialty.strip():
        return first, check_skill(b, first[0], cmd.target_specialty)
    skill_b, _ = check_skill(b, first[0]) if data(b).skill(first[0]) else (first[0], "")
    theirs = data(b).skill(skill_b)
    spec_b = next((sp for sp in (theirs.specs if theirs else ()) if sp.lower() == first[1].lower()), "")
    return first, (skill_b, spec_b)


@applies(R.contest_simple, R.contest_regular)
def contest(d: Draft, cmd: Contest, dice: Roller) -> None:
    a = need(d.state, cmd.actor)
    b = need(d.state, cmd.target, "opponent")
    if a.id == b.id:
        raise Refused("a contest is between two different combatants")
    if cmd.kind not in (SIMPLE, REGULAR):
        raise Refused(f"a contest is simple or regular, not '{cmd.kind}'", rule=R.contest_simple)
    (skill_a, spec_a), (skill_b, spec_b) = sides(a, b, cmd)
    check_able(a, cmd.physical, f"contest {skill_a}")
    check_able(b, cmd.physical, f"contest {skill_b}")
    if cmd.kind == SIMPLE:
        ma, mb = _score(a, skill_a, spec_a, cmd.physical), _score(b, skill_b, spec_b, cmd.physical)
        ta, tb = sum(m.value for m in ma), sum(m.value for m in mb)
        win = a.id if ta > tb else b.id if tb > ta else ""
        first = ContestSide(id=a.id, skill=_label(skill_a, spec_a), mods=ma, total=ta)
        second = ContestSide(id=b.id, skill=_label(skill_b, spec_b), mods=mb, total=tb)
        d.add(ContestRolled(kind=SIMPLE, first=first, second=second, winner=win))
        if win:
            return
    for n in range(1, MAX_ROUNDS + 1):
        rolled = []
        for c, skill, sub in ((a, skill_a, spec_a), (b, skill_b, spec_b)):
            label = _label(skill, sub)
            r = skill_roll(
                c, dice, f"{c.name} {label} (contest)", aspect="", use="+1", plot_point=False,
                base=untrained(c, skill, base_mods(c, skill, sub)), physical=cmd.physical,
            )  # fmt: skip
            rolled.append(ContestSide(id=c.id, skill=label, roll=r.roll, mods=r.mods, total=r.total))
        first, second = rolled
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
        labels={"actor": "First", "target": "Against"},
        fields={
            "skill": Param(name="skill", label="First's skill", default="Athletics", help=SKILL_HELP),
            "target_skill": Param(
                name="target_skill",
                label="Against's skill",
                default="",
                required=False,
                help="empty: the same skill (and the first's specialization, if Against has it)",
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
            "specialty": Param(name="specialty", label="First's specialization", default="", required=False),
            "target_specialty": Param(
                name="target_specialty", label="Against's specialization", default="", required=False
            ),
        },
        help="Two combatants set a skill against each other; every roll is logged.",
    )


@apply.on(ContestRolled)
def _contest_rolled(state: FightState, event: ContestRolled) -> FightState:
    """A contest round changes nothing on the sheets: the log keeps it."""
    return state
