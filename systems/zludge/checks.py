"""The Zludge roll: 4dF + skill modifier + penalties + situational modifiers + aspect and plot point.

Also who may act (dead, unconscious, prone; one action per turn on one's own
turn) and the checks of what a GM spends on a roll.  Every modifier goes into
the roll's labelled list, so the log shows each one.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

import attrs

from tracker.commands import Modifier
from tracker.dice import DiceError, Roll, Roller, roll
from tracker.errors import Refused
from tracker.model import Combatant, FightState

from .commands import ASPECT_USES
from .model import COMATOSE, EXHAUSTED, FATIGUE_STATES, INCAPACITATED, WOUND_STATES, data
from .table import R, applies


@applies(R.ladder)
def fudge(dice: Roller, label: str) -> Roll:
    """4dF; faces other than -1/0/+1 are refused."""
    try:
        r = roll("4dF", dice, label)
    except DiceError as e:
        prefix = "4dF faces are -1, 0 or +1: " if "impossible" in str(e) else ""
        raise Refused(f"{prefix}{e}", rule=R.ladder) from None
    if any(f not in (-1, 0, 1) for f in r.faces):
        raise Refused(f"4dF faces are -1, 0 or +1, not {list(r.faces)}", rule=R.ladder)
    return r


@attrs.frozen(kw_only=True)
class SkillRoll:
    roll: Roll
    rerolled: Roll | None
    mods: tuple[Modifier, ...]
    total: int
    aspect: str
    plot_point: bool
    better: bool = False  # an aspect's reroll chosen before the roll: ``roll`` is the better of the two


@attrs.frozen(kw_only=True)
class Boosts:
    """What a combatant spends on one roll: an aspect invocation and a plot point."""

    aspect: str = ""
    use: str = "+1"
    plot_points: int = 0


def check_boosts(c: Combatant, b: Boosts, what: str = "roll") -> str:
    """Check an aspect invocation and plot points; return the aspect's name as written on the sheet."""
    d = data(c)
    if b.plot_points < 0:
        raise Refused("plot points spent cannot be negative", rule=R.plot_point)
    if b.plot_points > 1:
        raise Refused(f"only one plot point can be spent per check, not {b.plot_points}", rule=R.plot_point)
    if b.plot_points and d.plot_points < 1:
        raise Refused(f"{c.name} has no plot points left", rule=R.plot_point)
    if b.use not in ASPECT_USES:
        raise Refused(f"an invoked aspect gives +1 or a reroll, not '{b.use}'", rule=R.invoke)
    name = b.aspect.strip()
    if not name:
        return ""
    for a in d.aspects:
        if a.lower() == name.lower():
            if a in d.aspects_used:
                raise Refused(
                    f"{c.name}'s aspect '{a}' is already checked off today: aspects refresh once per game day",
                    rule=R.refresh,
                )
            return a
    have = ", ".join(d.aspects) or "none"
    raise Refused(f"{c.name} has no aspect '{name}' to invoke on the {what} (aspects: {have})", rule=R.invoke)


def check_situational(mods: Sequence[Modifier]) -> tuple[Modifier, ...]:
    for m in mods:
        if m.value not in (-1, 1):
            raise Refused(
                f"situational modifiers are +1 or -1 each, not '{m.describe()}': list each one", rule=R.situational
            )
    return tuple(mods)


def check_specialty(c: Combatant, skill: str, specialty: str) -> str:
    """The specialization as the sheet writes it; one the skill does not have is refused, and when it is another
    skill's (a sword's "Swords" left in the attack form after the GM chose Unarmed) the refusal says whose."""
    if not specialty.strip():
        return ""
    d = data(c)
    s = d.skill(skill)
    for sp in s.specs if s else ():
        if sp.lower() == specialty.strip().lower():
            return sp
    owner = next((o for o in d.skills for sp in o.specs if sp.lower() == specialty.strip().lower()), None)
    if owner is not None and s is not owner:
        raise Refused(
            f"{c.name} has no specialization '{specialty}' in {skill}: {specialty} is a {owner.name} "
            f"specialization (empty the specialization to roll {skill} alone)",
            rule=R.skill,
        )
    raise Refused(f"{c.name} has no specialization '{specialty}' in {skill}", rule=R.skill)


# "Medical (First Aid)", as the log and the detail pane write a specialization roll
_SKILL_AND_SPEC = re.compile(r"^(?P<skill>.*?)\s*\((?P<spec>[^()]*)\)$")
UNTRAINED = "untrained"  # the label of the skill modifier of a skill the sheet does not list
CLOSE = 0.8  # how alike a typed name and a sheet's skill are to be taken for a typo ("Stelth": Stealth)


@applies(R.skill)
def check_skill(c: Combatant, text: str, specialty: str = "") -> tuple[str, str]:
    """The skill and the specialization a roll names, as the sheet writes them: ``(skill, specialization)``.

    Ruling: "Skill (Specialization)" typed in the skill field is the skill plus that specialization
    ("Medical (First Aid)" is Medical +2 for a sheet with Medical +First Aid), as the log and the detail pane
    write it; a specialization the sheet's skill does not have, or one on a skill the sheet does not list, is
    refused with the sheet's skills.  A skill the sheet does not list rolls untrained at -1 Poor (l.63), but a
    name that looks like a typo of a listed skill ("Stelth", "Medic") or that is a specialization typed alone
    ("First Aid") is refused naming the skill meant: both once rolled -1 with no word.  A skill the sheet does
    not list whose name is that close to a listed one is rolled by listing it with 0 ranks.
    Tests: tests/systems/zludge/test_skill_names.py.
    """
    raw = " ".join(text.split())
    spec = " ".join(specialty.split())
    d = data(c)
    listed = d.skill(raw)  # a sheet's skill named with parentheses ("Knowledge (History) 2") is that skill
    if listed is not None:
        return listed.name, check_specialty(c, listed.name, spec)
    m = _SKILL_AND_SPEC.match(raw)
    if m is not None:
        name, inner = m["skill"].strip(), m["spec"].strip()
        if spec and inner and inner.lower() != spec.lower():
            raise Refused(
                f"two specializations for one roll: '{inner}' in the skill and '{spec}' in the specialization "
                "field; keep one",
                rule=R.skill,
            )
        spec = inner or spec
    elif "(" in raw or ")" in raw:
        raise Refused(f"'{raw}': write a specialization as Skill (Specialization), e.g. Medical (First Aid)")
    else:
        name = raw
    if not name:
        raise Refused("name the skill to roll")
    s = d.skill(name)
    if s is not None:
        return s.name, check_specialty(c, s.name, spec)
    have = d.skills_text or "none"
    for owner in d.skills:
        for sp in owner.specs:
            if sp.lower() == name.lower():
                raise Refused(
                    f"{sp} is {c.name}'s specialization in {owner.name}: roll {owner.name} ({sp}), or {owner.name} "
                    f"with {sp} as the specialization (skills: {have})",
                    rule=R.skill,
                )
    names = {o.name.lower(): o.name for o in d.skills}
    close = [names[n] for n in difflib.get_close_matches(name.lower(), list(names), n=1, cutoff=CLOSE)]
    close += [o.name for o in d.skills if len(name) >= 3 and o.name.lower().startswith(name.lower())]
    if close:
        raise Refused(
            f"{c.name} has no skill '{name}'; did you mean {close[0]}? (skills: {have}; a skill not listed rolls "
            f"untrained at -1 Poor: to roll one named so close to a listed skill, list it with 0 ranks)",
            rule=R.skill,
        )
    if spec:
        raise Refused(
            f"{c.name} has no {name.title()} on the sheet, so no specialization '{spec}' in it (skills: {have}); "
            f"roll {name.title()} alone (untrained, -1 Poor)",
            rule=R.skill,
        )
    return name.title(), ""


def untrained(c: Combatant, skill: str, mods: Sequence[Modifier]) -> list[Modifier]:
    """``mods`` with the skill's modifier (the first) labelled "untrained" when the sheet does not list the skill,
    so the log says why it is -1 Poor: "Stealth 4dF [..] = 0, untrained -1 → -1 Poor"."""
    out = list(mods)
    if out and data(c).skill(skill) is None:
        out[0] = attrs.evolve(out[0], label=UNTRAINED)
    return out


def check_difficulty(difficulty: int) -> None:
    if not -4 <= difficulty <= 2:
        raise Refused(f"difficulty runs -4 (Improbable) to +2 (Negligible), not {difficulty:+d}", rule=R.difficulty)


@applies(R.skill)
def skill_mod(c: Combatant, skill: str, specialty: str = "") -> Modifier:
    value = data(c).skill_mod(skill, specialty)
    label = f"{skill} ({specialty})" if specialty else skill
    return Modifier(label=label, value=value)


@applies(R.skill, R.bulky)
def base_mods(c: Combatant, skill: str, specialty: str = "", *extra: Modifier) -> list[Modifier]:
    """The skill's modifier, then bulky armor's penalty on Athletics and Acrobatics, then ``extra``."""
    return [skill_mod(c, skill, specialty), *data(c).bulky(skill), *extra]


@applies(R.ladder, R.wound_penalty, R.fatigue_penalty, R.invoke, R.plot_point)
def skill_roll(
    c: Combatant,
    dice: Roller,
    label: str,
    *,
    aspect: str,
    use: str,
    plot_point: bool,
    base: Sequence[Modifier] = (),
    physical: bool = True,
) -> SkillRoll:
    """4dF + ``base`` (skill, armor, situational) + penalties + aspect/plot point (all checked beforehand).

    Ruling (rule ``invoke``, "+1 or a reroll of the dice, before or after the roll"): a reroll is chosen
    after seeing the dice, so an aspect invoked for a reroll *before* the roll (in the attack, defense, skill
    or first aid form) rolls the 4dF twice and keeps the better of the two (the player would not reroll a
    roll it liked); ``rerolled`` holds the other roll and ``better`` is set, and the log says "kept over".
    It kept the second roll whatever it was, so invoking an aspect could turn a Superb hit into a miss.
    (tests/systems/zludge/test_reroll_before_the_roll.py: test_aspect_reroll_before_the_roll_keeps_the_better_roll,
    test_defense_reroll_before_the_roll_keeps_the_better_roll,
    test_skill_and_first_aid_reroll_before_the_roll_keep_the_better_roll.)  A reroll after the roll
    (``InvokeAfter``, key ``i``) still rolls once more and the new roll counts.
    """
    first = fudge(dice, label)
    again = None
    better = False
    if aspect and use == "reroll":
        second = fudge(dice, f"{label} (reroll: {aspect})")
        better = True
        first, again = (first, second) if first.total >= second.total else (second, first)
    mods = list(base)
    mods.extend(data(c).penalties(physical))
    if aspect and use == "+1":
        mods.append(Modifier(label=f"aspect '{aspect}'", value=1))
    if plot_point:
        mods.append(Modifier(label="plot point", value=1))
    total = first.total + sum(m.value for m in mods)
    return SkillRoll(
        roll=first, rerolled=again, mods=tuple(mods), total=total, aspect=aspect, plot_point=plot_point, better=better
    )


# ---------------------------------------------------------------------------
# who may act


def check_able(c: Combatant, physical: bool, what: str, gm_allows: bool = False) -> None:
    """Dead or unconscious: nothing. Incapacitated or Exhausted (prone): "most actions not possible (-3 to physical
    actions)", l.118, l.128. Ruling ("-3 to every roll the GM still allows"): a physical action is refused
    unless the GM ticks that it allows this one; then it takes the -3 as any physical roll does."""
    d = data(c)
    if d.dead:
        raise Refused(f"{c.name} is dead", rule=R.death)
    if d.unconscious:
        wound = d.wound_effect >= COMATOSE
        state = "Comatose" if wound else "Unconscious"
        rule = R.wound_penalty if wound else R.fatigue_penalty
        raise Refused(f"{c.name} is {state}: unconscious, no actions are possible", rule=rule)
    if physical and d.prone and not gm_allows:
        wound = d.wound_effect >= INCAPACITATED
        state = WOUND_STATES[INCAPACITATED] if wound else FATIGUE_STATES[EXHAUSTED]
        rule = R.wound_penalty if wound else R.fatigue_penalty
        raise Refused(
            f"{c.name} is {state}: knocked prone, most actions are not possible (cannot {what}); "
            "if the fiction permits this one, tick 'GM allows it though prone' (-3)",
            rule=rule,
        )


def check_turn(state: FightState, c: Combatant, hint: str = "") -> None:
    """One action per turn, on one's own turn, while the fight runs; ``hint`` ends the off-turn refusal (a skill
    roll's form: untick its "Is the turn's action" for a check that costs no action)."""
    if not state.started or state.ended:
        return
    if state.current != c.id:
        raise Refused(
            f"it is {state.name(state.current)}'s turn: {c.name} acts on its own turn (one action per turn)"
            + (f"; {hint}" if hint else ""),
            rule=R.turn,
        )
    if data(c).spent:
        raise Refused(
            f"{c.name} has already taken its action this turn (one action per turn)" + (f"; {hint}" if hint else ""),
            rule=R.turn,
        )
