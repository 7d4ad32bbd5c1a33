"""Zludge contests between two combatants (book l.19–20; rules ``contest_simple`` and ``contest_regular``).

- Simple: the two ability scores (the skill's modifier with the side's own penalties, as if both
  took 0) are compared with no roll; the higher wins; equal scores become a regular contest.
- Regular: both roll their skill with their own penalties; a tie rolls again, both sides, as many
  times as needed; every roll is logged, one line a round.
- Each side's skill is named as in a skill roll, "Skill (Specialization)" included (ruling in ``sides``).
- Each side takes what a skill roll takes (``Contest``'s docstring has the ruling); the decide is
  :func:`systems.zludge.rules.contests.contest`.
- In a running fight a contest is the first side's action, as a skill roll is ("Is the turn's action", ticked
  in the form only for the one whose turn it is, ``commands.skill_defaults``); each side may be allowed by the
  GM though prone, as a skill roll may (rulings in :func:`systems.zludge.rules.contests.contest`).
"""

from __future__ import annotations

import attrs

from tracker.commands import CHOICE, CommandSpec, Modifier, Param
from tracker.errors import Refused
from tracker.kit import spec
from tracker.model import Combatant

from .checks import check_skill
from .commands import SKILL_HELP, _aspect_params, _gm_allows, _mods, physical_choice, physical_param, skill_defaults
from .events import REGULAR, SIMPLE, ContestRolled, ContestSide
from .model import data

__all__ = ["MAX_ROUNDS", "REGULAR", "SIMPLE", "Contest", "ContestRolled", "ContestSide", "contest_spec", "sides"]

MAX_ROUNDS = 20  # ties rolled again "as many times as needed"; a stop for a dry run on fixed faces


@attrs.frozen(kw_only=True)
class Contest:
    """Two combatants set a skill against each other: simple (no roll) or regular (both roll).

    Ruling (a contest is a check, l.21; a plot point "+1 to a check, either before or after making a roll",
    l.80; an aspect "before or after the roll", l.37; the GM's ±1 situational modifiers "to a roll"): each
    side takes the GM's situational modifiers, may invoke one aspect (+1 or a reroll) and spend one plot point,
    as a skill roll does; a contest once took none of them and the aspect or plot point after its roll was
    refused.  Spent before the contest, the aspect or plot point is spent once and its +1 counts on every roll
    of the contest (a tie rolled again is the same check going on); an aspect's reroll chosen before the roll
    rerolls the first roll and keeps the better, as in a skill roll; a simple contest rolls no dice, so it takes
    an aspect for +1 only.  After the last roll, either side may spend on its own roll (invoke, key i): the
    winner is read again, a tie rolls again, both sides, with the modifiers they had.
    Tests: tests/systems/zludge/test_contests.py (test_a_contest_side_*, test_invoke_after_a_contest_*).

    Ruling (rule ``physical``; a contest is a check, l.21, each side rolling "with their own penalties"; wound and
    clip penalties weigh on physical actions only, l.115–119): the form's Physical is the skill roll's, "by the
    skill" by default, and it is worked out for each side from its own skill (``model.physical_for``, the skill
    roll's reading): in Alertness against Stealth the Hurt watcher takes no -1 and the Hurt sneak does; in
    Persuasion neither does. "yes" or "no" is the GM's word for both sides.  Each side's Physical also says
    whether it may be refused as prone (``gm_allows``) and whether losing asks if treated wounds reopen.  The
    contest once stood ticked physical for every skill, both sides: a Hurt PC's Alertness took -1 in a contest and
    not in a skill roll, and a lost Persuasion asked about reopening.  Events already in files keep their plain
    yes or no (``ContestRolled.physical``; a side's own ``ContestSide.physical`` is None in them).
    Tests: tests/systems/zludge/test_contest_physical.py.
    """

    actor: str
    target: str
    skill: str = "Athletics"
    specialty: str = ""  # the first's specialization ("Athletics (Climbing)" in the skill says it as well)
    target_skill: str = ""  # empty: the same skill
    target_specialty: str = ""  # empty: the first's, if the opponent's sheet has it (empty skill), else none
    kind: str = REGULAR
    physical: bool | None = attrs.field(default=None, converter=physical_choice)  # None: each side by its skill
    modifiers: tuple[Modifier, ...] = ()
    aspect: str = ""
    aspect_use: str = "+1"
    plot_points: int = 0
    target_modifiers: tuple[Modifier, ...] = ()
    target_aspect: str = ""
    target_aspect_use: str = "+1"
    target_plot_points: int = 0
    as_action: bool = True  # in a running fight: the first side's action (the skill roll's "Is the turn's action")
    gm_allows: bool = False  # the first side Incapacitated or Exhausted: the GM allows this physical one (−3)
    target_gm_allows: bool = False  # the same for the one against


def label(skill: str, spec: str) -> str:
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


def _target_gm_allows() -> dict[str, Param]:
    """The skill roll's "GM allows it though prone" tick, for the one against."""
    (tick,) = _gm_allows().values()
    return {"target_gm_allows": attrs.evolve(tick, name="target_gm_allows", label="Against: GM allows it though prone")}


def contest_spec() -> CommandSpec:
    return spec(
        Contest,
        name="contest",
        title="Contest",
        key="k",
        subject="target",
        labels={"actor": "First", "target": "Against", "as_action": "Is the turn's action (First's)"},
        defaults=skill_defaults,
        fields={
            "skill": Param(name="skill", label="First's skill", default="Athletics", help=SKILL_HELP),
            "target_skill": Param(
                name="target_skill",
                label="Against's skill",
                default="",
                required=False,
                help="empty: the first's skill",
            ),
            "kind": Param(
                name="kind",
                kind=CHOICE,
                choices=(REGULAR, SIMPLE),
                default=REGULAR,
                label="Contest",
                help="simple: compare scores, no roll (equal: regular); regular: both roll, a tie rolls again",
            ),
            "physical": physical_param(contest=True),
            "specialty": Param(name="specialty", label="First's specialization", default="", required=False),
            "target_specialty": Param(
                name="target_specialty", label="Against's specialization", default="", required=False
            ),
            **_mods("modifiers", "First's situational modifiers"),
            **_aspect_params("", "First: "),
            **_mods("target_modifiers", "Against's situational modifiers"),
            **_aspect_params("target_", "Against: "),
            **{k: attrs.evolve(p, label="First: GM allows it though prone") for k, p in _gm_allows().items()},
            **_target_gm_allows(),
        },
        help="Two combatants set a skill against each other; every roll is logged. Each side may take ±1 "
        "situational modifiers here; an aspect (+1 or reroll) and a plot point (+1) here or after the roll (i). "
        "A lost physical contest may reopen treated wounds. In a running fight it is the first's action, on its "
        "own turn (untick 'Is the turn's action' for one that costs none); a prone side rolls at -3 if the GM "
        "allows it.",
    )
