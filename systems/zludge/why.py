"""Why a Zludge event happened: the rules of :mod:`systems.zludge.table` it applied, and the terms.

:func:`explain` reads the event and the states around it (never rolls, never decides), so a fight saved
before reasons existed explains too.  Each term says where a number came from: a die face, a skill
("Melee +1 Decent (skill: 2 ranks +1)"), a penalty ("clipped −1 (condition)"), the GM's
situational modifier ("cover −1 (GM)"), armor ("armor 1 absorbs one level"), a treated wound ("Very Hurt
treated −1 (wound, eased one level by first aid)"), an aspect spent on a reroll before the roll ("Invoking an
aspect: Ana invokes 'Brave' before the attack: a reroll, the better of the two rolls counts").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs

from tracker.commands import Modifier
from tracker.dice import Roll
from tracker.events import (
    ConditionAdded,
    Event,
    FightStarted,
    InitiativeSet,
    OrderSet,
    PromptRaised,
    TurnStarted,
)
from tracker.model import FightState
from tracker.reasons import Reason, Rule
from tracker.text import counted

from .checks import UNTRAINED
from .contest import SIMPLE, ContestRolled, ContestSide
from .events import (
    HELPLESS,
    ActionTaken,
    AmbushDeclared,
    AspectsRefreshed,
    AttackResolved,
    BoxCleared,
    FatigueMarked,
    HarmTakenBack,
    RollRevised,
    SkillRolled,
    TieRerolled,
    WoundMarked,
    WoundsReopened,
    WoundsTreated,
)
from .fight import fight_data
from .model import FATIGUE_STATES, LOCATIONS, WOUND_STATES, ZludgeData, data, ladder, word
from .rules.reopen import REOPEN
from .rules.rest import Rested
from .table import R

CLIPPED = "clipped"  # the book's condition the rules read (see systems.zludge.conditions)


def num(n: int) -> str:
    """``+1``, ``−1`` (a true minus sign), ``+0``."""
    return f"{n:+d}".replace("-", "−")


def lad(n: int) -> str:
    """``+2 Good``, ``−1 Poor`` (a true minus sign)."""
    return ladder(n).replace("-", "−")


def _d(state: FightState, cid: str | None) -> ZludgeData | None:
    c = state.find(cid) if cid else None
    return data(c) if c is not None and c.data is not None else None


def _name(state: FightState, cid: str | None) -> str:
    return state.name(cid) if cid else "?"


# ---------------------------------------------------------------------------
# terms


def skill_term(d: ZludgeData | None, label: str, value: int, skill: str = "") -> str:
    """``Athletics (Climbing) +4 Superb (skill: 3 ranks +2, specialization +1, Fortitude +1)``.

    Ruling: a skill the sheet does not list is logged with the label "untrained" (``checks.untrained``); its term
    names the skill rolled (``skill``): "Athletics −1 Poor (skill: untrained −1)", where a contest side read
    "untrained −1 Poor (skill: untrained −1)" and never said which skill it rolled.
    Test: test_why_round2.py::test_an_untrained_contest_side_is_named_by_its_skill.

    Ruling (the book's l.63, "Skills default to -1 (Poor) without any ranks. Each rank bought adds +1"): only a
    skill the sheet does not list is "untrained"; a listed skill shows its ranks and what they give (ranks − 1:
    "1 rank +0", "3 ranks +2", "0 ranks −1"), where every trained skill began "−1 untrained" and a GM read a
    trained Melee as untrained.  Test: test_why.py::test_why_a_trained_skill_is_not_called_untrained.
    """
    if label == UNTRAINED and skill:
        label = skill
    head = f"{label} {num(value)} {word(value)} (skill"
    name, _, spec = label.partition(" (")
    spec = spec.rstrip(")")
    s = d.skill(name) if d is not None else None
    if d is None or s is None:
        return f"{head}: untrained −1)" if value == -1 else f"{head})"
    parts = [f"{s.ranks} rank{'' if s.ranks == 1 else 's'} {num(s.ranks - 1)}"]
    if spec:
        extra = min(4, s.ranks + 2) - s.ranks
        parts.append(f"specialization {num(extra)}" + (" (rank modifier at most +4)" if extra < 2 else ""))
    if s.attribute:
        parts.append(f"{s.attribute} {num(d.attribute(s.attribute))}")
    return f"{head}: {', '.join(parts)})"


TREATED = " treated"  # the end of a treated wound's label (model.ZludgeData.penalties: "Very Hurt treated")


def _origin(label: str) -> tuple[str, tuple[Rule, ...]]:
    """Where a modifier came from, by its label, and the rules that put it there.

    Ruling (l.116–120 wound penalties, l.133 first aid): a treated wound's penalty, labelled "Very Hurt treated",
    is the wound's penalty eased one level by first aid, and cites both rules; it once fell through to the GM's
    situational modifier ("Very Hurt treated −1 (GM)"). Test: test_why_round2.py::test_a_treated_wound_*.
    """
    if label == CLIPPED:
        return "condition", (R.clipped,)
    if label in WOUND_STATES:
        return "wound", (R.wound_penalty,)
    if label.endswith(TREATED) and label.removesuffix(TREATED) in WOUND_STATES:
        return "wound, eased one level by first aid", (R.wound_penalty, R.first_aid)
    if label == FATIGUE_STATES[3]:
        return "fatigue", (R.exhausted,)
    if label in FATIGUE_STATES:
        return "fatigue", (R.fatigue_penalty,)
    if label.startswith("bulky "):
        return "bulky armor", (R.bulky,)
    if label.startswith("aspect '"):
        return "aspect, checked off", (R.invoke,)
    if label == "plot point":
        return "plot point", (R.plot_point,)
    if label == "difficulty":
        return "task difficulty", (R.difficulty,)
    if label.startswith("called shot"):
        return "called shot", (R.called_shot,)
    if label in ("moving", "stationary"):
        return "flat-footed, fixed defense", (R.flat_footed,)
    if label in HELPLESS:
        return "no defense roll, fixed defense", (R.helpless,)
    return "GM", (R.situational,)


def mod_terms(
    mods: Sequence[Modifier], d: ZludgeData | None, skill_first: bool = True, skill: str = ""
) -> tuple[list[str], list[tuple[Rule, ...]]]:
    """One term per modifier with its origin, and the rules each comes from (the skill's first).

    ``skill``: the skill rolled, naming an untrained skill's modifier (see :func:`skill_term`)."""
    terms: list[str] = []
    rules: list[tuple[Rule, ...]] = []
    for i, m in enumerate(mods):
        if i == 0 and skill_first:
            terms.append(skill_term(d, m.label, m.value, skill))
            rules.append((R.skill,))
            continue
        origin, from_rules = _origin(m.label)
        terms.append(f"{m.label} {num(m.value)} ({origin})")
        rules.append(from_rules)
    return terms, rules


def dice_terms(who: str, roll: Roll, rerolled: Roll | None, better: bool = False) -> list[str]:
    if not roll.faces and roll.expr == "0":
        return [f"{who}: no roll, the dice count as 0 (Take 0)"]
    if rerolled is not None and better:
        return [f"{who}: {roll.describe()} kept over {rerolled.describe()} (aspect reroll before the roll: the better)"]
    if rerolled is not None:
        return [f"{who}: {rerolled.describe()} rerolled (aspect) → {roll.describe()}"]
    return [f"{who}: {roll.describe()}"]


def _penalty_reasons(rules: Sequence[tuple[Rule, ...]], who: str, terms: Sequence[str], what: str) -> list[Reason]:
    """A reason for each penalty, aspect or GM modifier rule a roll's modifiers came from."""
    out: list[Reason] = []
    seen: set[str] = set()
    for rule in (r for rs in rules for r in rs):
        if rule is R.skill or rule.id in seen:
            continue
        seen.add(rule.id)
        mine = [t for rs, t in zip(rules, terms, strict=True) if rule in rs]
        out.append(Reason.of(rule, *(f"{who}: {t} on the {what}" for t in mine)))
    return out


def reroll_reasons(who: str, aspect: str, rerolled: Roll | None, better: bool, what: str) -> list[Reason]:
    """The aspect checked off for a reroll before the roll (l.37), which no modifier shows.

    Ruling: an aspect spent on a reroll chosen before the roll is named and cites "Invoking an aspect", as its +1
    does; it once showed only as "(aspect reroll before the roll: the better)" on the dice.  Files written before
    ``better`` existed read "the second roll counts", as they played.
    Test: test_why_round2.py::test_an_aspect_reroll_before_the_roll_is_named_*.
    """
    if rerolled is None:
        return []
    name = f"'{aspect}'" if aspect else "an aspect"
    kept = "the better of the two rolls counts" if better else "the second roll counts"
    return [Reason.of(R.invoke, f"{who} invokes {name} before the {what}: a reroll, {kept}", "checked off for the day")]


# ---------------------------------------------------------------------------
# attacks


def _attack(before: FightState, ev: AttackResolved, after: FightState) -> list[Reason]:
    a, t = _name(before, ev.actor), _name(before, ev.target)
    ad, td = _d(before, ev.actor), _d(before, ev.target)
    out: list[Reason] = []
    aterms, arules = mod_terms(ev.attack_mods, ad, skill=ev.skill)
    attack = [*dice_terms(f"{a}'s {ev.skill} attack", ev.attack, ev.attack_rerolled, ev.attack_better), *aterms]
    attack.append(f"attack total {lad(ev.attack_total)}")
    if ev.defense is not None:
        dterms, drules = mod_terms(ev.defense_mods, td, skill=ev.defense_skill or "")
        defense = [
            *dice_terms(f"{t}'s {ev.defense_skill} defense", ev.defense, ev.defense_rerolled, ev.defense_better),
            *dterms,
        ]
        defense.append(f"defense total {lad(ev.defense_total)}")
        out.append(Reason.of(R.attack, *attack, *defense))
    else:
        dterms, drules = mod_terms(ev.defense_mods, td, skill_first=False)
        out.append(Reason.of(R.attack, *attack))
        helpless = bool(ev.defense_mods) and ev.defense_mods[0].label in HELPLESS
        fixed = R.helpless if helpless else R.flat_footed
        why = f"{t} is {ev.defense_mods[0].label}" if helpless else f"{t} has not acted yet"
        out.append(Reason.of(fixed, why, *dterms[:1], f"fixed defense {lad(ev.defense_total)}"))
        dterms, drules = dterms[1:], drules[1:]
    margin = ev.margin
    read = f"attack {lad(ev.attack_total)} vs defense {lad(ev.defense_total)}: margin {num(margin)} → {ev.outcome}"
    out.append(Reason.of(R.outcome, read))
    if ev.outcome == "critical":
        out.append(Reason.of(R.critical, f"margin {num(margin)} is 4 or more: +1 damage level"))
    out += _damage(ev, ad, td)
    out += _location(ev, td)
    out += reroll_reasons(a, ev.aspect, ev.attack_rerolled, ev.attack_better, "attack")
    out += _penalty_reasons(arules, a, aterms, "attack")
    out += reroll_reasons(t, ev.defense_aspect, ev.defense_rerolled, ev.defense_better, "defense")
    out += _penalty_reasons(drules, t, dterms, "defense")
    return out


def _damage(ev: AttackResolved, ad: ZludgeData | None, td: ZludgeData | None) -> list[Reason]:
    out: list[Reason] = []
    if ev.outcome == "clipped":
        if ev.armor_level:
            out.append(
                Reason.of(R.no_damage, f"a clip deals 0-level damage whatever the armor (armor {ev.armor_level})")
            )
        return out
    if ev.outcome == "miss":
        return out
    weapon = f"weapon level {ev.weapon_level}"
    if ad is not None and ev.weapon_level == ad.weapon_level and ev.skill.startswith(ad.weapon_skill):
        weapon += f" ({ad.weapon})"
    out.append(Reason.of(R.weapons, weapon))
    if ev.skill.startswith("Unarmed") and ev.weapon_level == 0 and ad is not None and ad.weapon_level > 0:
        out.append(Reason.of(R.unarmed, f"Unarmed: 0-level, not the {ad.weapon}'s {ad.weapon_level}"))
    levels = {0: "absorbs nothing", 1: "absorbs one level"}.get(ev.armor_level, f"absorbs {ev.armor_level} levels")
    crit = " + 1 (critical)" if ev.outcome == "critical" else ""
    raw = ev.weapon_level - ev.armor_level + (1 if ev.outcome == "critical" else 0)
    sums = f"{ev.weapon_level} − {ev.armor_level}{crit} = {str(raw).replace('-', '−')}"
    worn = td is not None and td.armor != "none" and td.armor_level == ev.armor_level and ev.armor_level > 0
    armor = f"armor {ev.armor_level}" + (f" ({td.armor})" if worn and td is not None else "")
    order: list[str] = []
    if ev.outcome == "critical" and ev.weapon_level - ev.armor_level < 0:
        # the ruling on the order (harm.py): the critical's +1 counts before the below-0 test
        order.append(
            f"weapon {ev.weapon_level} + 1 critical − armor {ev.armor_level} = {str(raw).replace('-', '−')}: "
            "the critical's +1 counts before the below-0 test"
        )
    if ev.damage_level is None:
        out.append(Reason.of(R.armor, f"{armor} {levels}", sums))
        out.append(Reason.of(R.no_damage, *order, f"damage level {num(raw)} is below 0: no damage"))
    else:
        out.append(Reason.of(R.armor, f"{armor} {levels}", f"{sums}-level damage"))
        if order:
            out.append(Reason.of(R.no_damage, f"{order[0]}, so the hit deals {raw}-level damage"))
    return out


def _location(ev: AttackResolved, td: ZludgeData | None) -> list[Reason]:
    out: list[Reason] = []
    if not ev.location:
        return out
    if ev.location_roll is not None:
        out.append(Reason.of(R.location, f"{ev.location_roll.describe()} → {ev.location}"))
    covers = td.armor_covers if td is not None else ()
    if covers and set(LOCATIONS) - set(covers):
        where = f"{td.armor if td else 'armor'} covers {', '.join(covers)}"
        bare = ev.location not in covers
        what = (
            f"the {ev.location} is bare: armor 0" if bare else f"the {ev.location} is covered: armor {ev.armor_level}"
        )
        out.append(Reason.of(R.partial_armor, where, what))
    return out


def _revised(before: FightState, ev: RollRevised, after: FightState) -> list[Reason]:
    who = _name(before, ev.who)
    out: list[Reason] = []
    if ev.aspect:
        how = f"reroll → {ev.reroll.describe()}" if ev.reroll is not None else "+1"
        out.append(Reason.of(R.invoke, f"{who} invokes '{ev.aspect}' after the roll: {how}", "checked off for the day"))
    if ev.plot_point:
        out.append(Reason.of(R.plot_point, f"{who} spends a plot point after the roll: +1"))
    change = f"{ev.side} {lad(ev.total_before)} → {lad(ev.total)}"
    out.append(Reason.of(R.revised, change))
    if ev.side == "contest":
        out.append(_revised_contest(before, ev))
    elif ev.side != "skill":
        atk, dfn = (ev.total, ev.against or 0) if ev.side == "attack" else (ev.against or 0, ev.total)
        out.append(Reason.of(R.outcome, f"attack {lad(atk)} vs defense {lad(dfn)}: now {ev.outcome}"))
        if ev.outcome == "critical":
            out.append(Reason.of(R.critical, f"margin {num(atk - dfn)} is 4 or more: +1 damage level"))
    else:
        out.append(Reason.of(R.test, f"total {lad(ev.total)}: {'success' if ev.total >= 0 else 'failure'}"))
    return out


def _revised_contest(before: FightState, ev: RollRevised) -> Reason:
    """The contest read again.

    Ruling (l.19): a simple contest revised to equal scores becomes a regular contest (the next event is its
    roll 1), and cites the simple contest; it once cited the regular contest's "a tie: both roll again".
    Test: test_why_round2.py::test_a_simple_contest_revised_to_a_tie_cites_the_simple_contest.
    """
    last = fight_data(before).last_roll
    simple = last is not None and isinstance(last.event, ContestRolled) and last.event.kind == SIMPLE
    if ev.winner:
        now = f"{_name(before, ev.winner)} wins"
    else:
        now = "equal scores: a regular contest follows" if simple else "a tie: both roll again"
    rule = R.contest_simple if simple else R.contest_regular
    return Reason.of(rule, f"{lad(ev.total)} vs {lad(ev.against or 0)}: now {now}")


# ---------------------------------------------------------------------------
# the tracks


def _capacity(d: ZludgeData, names: tuple[str, ...], fatigue: bool) -> str:
    cap = d.fatigue_capacity if fatigue else d.wound_capacity
    boxes = ", ".join(f"{n} {c}" for n, c in zip(names, cap, strict=True))
    why = f"Endurance {d.endurance}" if fatigue else f"Durability {d.durability}, Fortitude {num(d.fortitude)}"
    return f"boxes: {boxes} ({why})"


def _a(word: str) -> str:
    """``word`` after its article: "an Incapacitated", "a Hurt"."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def _wound(before: FightState, ev: WoundMarked, after: FightState) -> list[Reason]:
    t = _name(before, ev.target)
    d, now = _d(before, ev.target), _d(after, ev.target)
    src = f" from {ev.source}" if ev.source else ""
    terms = [f"{ev.wound}-level wound{src}"]
    terms += [f"{WOUND_STATES[lvl]} full: one level up" for lvl in ev.full]
    terms.append("no free box" if ev.box is None else f"checks {_a(WOUND_STATES[ev.box])} box")
    out = [Reason.of(R.wound_track, *terms)]
    if (ev.full or ev.box is None) and d is not None:
        out.append(Reason.of(R.boxes, _capacity(d, WOUND_STATES, False)))
    if ev.box is None:
        last = len(WOUND_STATES) - 1
        start = (
            f"from {WOUND_STATES[ev.wound]} up to {WOUND_STATES[last]}"
            if ev.wound < last
            else f"at {WOUND_STATES[last]}"
            if ev.wound == last
            else f"above {WOUND_STATES[last]}"
        )
        out.append(Reason.of(R.death, f"no box left {start}: {t} dies"))
        return out
    if ev.wound == 0:
        terms = [f"0-level damage: {t} is clipped, −1 to physical actions until its next action"]
        if now is not None and now.wound_penalty:
            worse = "is worse: the worst applies" if now.wound_penalty < -1 else "is as bad: they do not add up"
            terms.append(f"{WOUND_STATES[now.wound_effect]} {num(now.wound_penalty)} {worse}")
        out.append(Reason.of(R.clipped, *terms))
    if d is not None and now is not None and now.wound_effect > d.wound_effect and now.wound_effect > 0:
        state = WOUND_STATES[now.wound_effect]
        extra = {3: ", knocked prone", 4: ", unconscious"}.get(now.wound_effect, "")
        out.append(Reason.of(R.wound_penalty, f"now {state}: {num(now.wound_penalty)} to physical actions{extra}"))
    return out


def _fatigue(before: FightState, ev: FatigueMarked, after: FightState) -> list[Reason]:
    t = _name(before, ev.target)
    d, now = _d(before, ev.target), _d(after, ev.target)
    kind = "physical fatigue (P)" if ev.physical else "fatigue"
    src = f" from {ev.source}" if ev.source else ""
    terms = [f"{ev.level}-level {kind}{src}"]
    terms += [f"{FATIGUE_STATES[lvl]} full: one level up" for lvl in ev.full]
    terms.append("no free box" if ev.box is None else f"checks {_a(FATIGUE_STATES[ev.box])} box")
    if d is not None and (ev.full or ev.box is None):
        terms.append(_capacity(d, FATIGUE_STATES, True))
    out = [Reason.of(R.fatigue_track, *terms)]
    if ev.box is None:
        out.append(Reason.of(R.fatigue_full, f"no fatigue box left: {t} stays Unconscious"))
    elif d is not None and now is not None and now.fatigue_state > d.fatigue_state and now.fatigue_state > 0:
        state = FATIGUE_STATES[now.fatigue_state]
        effect = {3: f"{num(now.fatigue_penalty)} and prone", 4: "no actions"}.get(
            now.fatigue_state, f"{num(now.fatigue_penalty)} to every action"
        )
        out.append(Reason.of(R.exhausted if now.fatigue_state == 3 else R.fatigue_penalty, f"now {state}: {effect}"))
    return out


def _taken_back(before: FightState, ev: HarmTakenBack, after: FightState) -> list[Reason]:
    return [Reason.of(R.revised, ev.describe(before), "the new reading's harm follows")]


def _skill(before: FightState, ev: SkillRolled, after: FightState) -> list[Reason]:
    who = _name(before, ev.actor)
    terms, rules = mod_terms(ev.mods, _d(before, ev.actor), skill=ev.skill)
    result = "success" if ev.success else "failure"
    if ev.total >= 4:
        result = "critical success"
    elif ev.total <= -4:
        result = "critical failure"
    all_terms = [
        *dice_terms(f"{who}'s {ev.skill}", ev.roll, ev.rerolled, ev.better),
        *terms,
        f"total {lad(ev.total)}: {result}",
    ]
    if not ev.physical:
        all_terms.append("not physical: wound and clip penalties do not weigh on it")
    out = []
    if ev.purpose == "first aid":
        healed = "wounds will impair one level less" if ev.success else "no wound is eased"
        out.append(Reason.of(R.first_aid, *all_terms, f"on {_name(before, ev.target)}: {healed}"))
    else:
        out.append(Reason.of(R.test, *all_terms))
    if ev.took_0:
        out.append(Reason.of(R.take_0, f"{who} takes 0 on {ev.skill}: no roll, the modifiers still apply"))
    return (
        out
        + reroll_reasons(who, ev.aspect, ev.rerolled, ev.better, "roll")
        + _penalty_reasons(rules, who, terms, "roll")
    )


def _treated(before: FightState, ev: WoundsTreated, after: FightState) -> list[Reason]:
    d, now = _d(before, ev.target), _d(after, ev.target)
    terms = [f"{counted(ev.boxes, 'wound')} above Scratched treated; the boxes stay"]
    if d is not None and now is not None:
        terms.append(f"penalty {num(d.wound_penalty)} → {num(now.wound_penalty)}")
    return [Reason.of(R.first_aid, *terms)]


def _reopened(before: FightState, ev: WoundsReopened, after: FightState) -> list[Reason]:
    d, now = _d(before, ev.target), _d(after, ev.target)
    terms = [f"the GM's ruling: {ev.note}" if ev.note else "the GM's ruling after a failed physical check"]
    if d is not None and now is not None:
        terms.append(f"penalty {num(d.wound_penalty)} → {num(now.wound_penalty)}")
    return [Reason.of(R.reopen, *terms)]


def _prompt(before: FightState, ev: PromptRaised, after: FightState) -> list[Reason]:
    """The "do the treated wounds reopen?" prompt names its rule (it gave only the core's "Prompt"): who has
    treated wounds, what a failed physical check (a skill roll, or a lost physical contest: a contest is a check,
    l.21) asks, and the penalty now and if they reopen (test_why_round3.py::test_the_reopen_prompt_*)."""
    p = ev.prompt
    if p.kind != REOPEN:
        return []
    d = _d(before, p.combatant)
    who = _name(before, p.combatant)
    terms = [f"{who} failed a physical check (a skill roll, or a lost physical contest: a contest is a check, l.21)"]
    if d is not None:
        n = sum(1 for b in d.wounds if b.treated)
        full = attrs.evolve(d, wounds=tuple(attrs.evolve(b, treated=False) for b in d.wounds))
        terms.append(f"{counted(n, 'treated wound')}: penalty {num(d.wound_penalty)} now")
        terms.append(f"reopened: full penalties again, {num(full.wound_penalty)}")
    return [Reason.of(R.reopen, *terms)]


def _cleared(before: FightState, ev: BoxCleared, after: FightState) -> list[Reason]:
    names = WOUND_STATES if ev.track == "wounds" else FATIGUE_STATES
    terms = [f"a {names[ev.level]} box cleared from the {ev.track} track"]
    terms.append(f"the GM's: {ev.note}" if ev.note else "the GM's action")
    return [Reason.of(R.clear_box, *terms)]


def _refreshed(before: FightState, ev: AspectsRefreshed, after: FightState) -> list[Reason]:
    return [Reason.of(R.refresh, *(f"{_name(before, i)}'s aspects refreshed" for i in ev.ids))]


def _action(before: FightState, ev: ActionTaken, after: FightState) -> list[Reason]:
    what = "physical" if ev.physical else "not physical"
    return [Reason.of(R.turn, f"{_name(before, ev.actor)}'s action this turn: {ev.text} ({what})")]


# ---------------------------------------------------------------------------
# initiative, turns, contests, rest


def _tie(before: FightState, ev: TieRerolled, after: FightState) -> list[Reason]:
    terms = [
        f"{_name(before, i)}: {r.describe()} {num(m)} (same modifiers as the first roll) → {lad(t)}"
        for i, r, m, t in zip(ev.ids, ev.rolls, ev.modifiers, ev.totals(), strict=True)
    ]
    return [Reason.of(R.initiative_tie, *terms)]


def _ambush(before: FightState, ev: AmbushDeclared, after: FightState) -> list[Reason]:
    names = ", ".join(_name(before, i) for i in ev.ambushers)
    if ev.waits:
        surprise = "the unseen ambushers' surprise action comes first; the ambush initiative when round 1 begins"
    elif ev.after_surprise:
        surprise = "rolled after the surprise action: the penalties it left weigh on the rolls"
    else:
        surprise = "an unseen ambusher may take a surprise action when the fight starts"
    return [
        Reason.of(R.ambush, f"ambushers: {names} (Stealth)", "the others: average of Reflexes and Alertness"),
        Reason.of(R.surprise, surprise),
    ]


def _initiative(before: FightState, ev: InitiativeSet, after: FightState) -> list[Reason]:
    if ev.roll is None or ev.value is None:
        return []
    rule = R.ambush if "ambush" in ev.note else R.initiative
    terms = [f"{_name(before, ev.id)}: {ev.roll.describe()}"]
    terms += [p.strip() for p in ev.note.split("→")[0].split(",") if p.strip()]
    terms.append(f"initiative {lad(ev.value)}")
    return [Reason.of(rule, *terms)]


def _order(before: FightState, ev: OrderSet, after: FightState) -> list[Reason]:
    if ev.note not in ("by Reflexes", "ambush"):
        return []
    rule = R.ambush if ev.note == "ambush" else R.initiative
    out = [Reason.of(rule, "highest first: " + ", ".join(_name(before, i) for i in ev.order))]
    for g in ev.ties:
        out.append(Reason.of(R.initiative_tie, " & ".join(_name(before, i) for i in g) + ": still tied, act together"))
    return out


def _turn(before: FightState, ev: TurnStarted, after: FightState) -> list[Reason]:
    d = _d(before, ev.id)
    who = _name(before, ev.id)
    out = [Reason.of(R.turn, f"{who} takes one action this turn")]
    if d is None or ev.resumed:
        return out
    if not d.acted:
        out.append(Reason.of(R.flat_footed, f"{who} acts for the first time: no longer flat-footed"))
    if d.clipped:
        out.append(Reason.of(R.clipped, f"{who} acts: the clip ends"))
    return out


def _started(before: FightState, ev: FightStarted, after: FightState) -> list[Reason]:
    if not ev.surprise:
        return []
    return [Reason.of(R.surprise, *(f"{_name(before, i)} takes a surprise action" for i in ev.surprise))]


def _condition(before: FightState, ev: ConditionAdded, after: FightState) -> list[Reason]:
    if ev.condition.name.strip().lower() != CLIPPED:
        return []
    who = _name(before, ev.id)
    return [Reason.of(R.clipped, f"{who} is clipped: −1 to physical actions until its next action")]


def _side(before: FightState, side: ContestSide) -> tuple[list[str], list[Reason]]:
    """A contest side's terms (its skill named, as a skill roll's are) and the rules of its modifiers.

    Ruling: a contest side explains its aspect (+1 or a reroll before the roll), plot point, the GM's modifiers
    and its penalties with their rules, as an attack and a skill roll do; a contest once cited only its own rule.
    Tests: test_why_round2.py::test_a_contest_cites_the_rules_of_its_modifiers and
    test_contest_sides_name_the_skill_they_rolled."""
    who = _name(before, side.id)
    terms, rules = mod_terms(side.mods, _d(before, side.id), skill=side.skill)
    rolled = f"{who}'s {side.skill}"
    dice = (
        dice_terms(rolled, side.roll, side.rerolled, side.better) if side.roll is not None else [f"{rolled}: no roll"]
    )
    why = [
        *reroll_reasons(who, side.aspect, side.rerolled, side.better, "contest"),
        *_penalty_reasons(rules, who, terms, "contest"),
    ]
    return [*dice, *terms, f"{who} {lad(side.total)}"], why


def _contest(before: FightState, ev: ContestRolled, after: FightState) -> list[Reason]:
    first, first_why = _side(before, ev.first)
    second, second_why = _side(before, ev.second)
    sides = [*first, *second]
    # each side's own Physical (ruling in contest.Contest); files from before: the contest's, None saying nothing
    # (test_contest_physical.py::test_why_says_which_side_is_not_physical)
    off = [s for s in (ev.first, ev.second) if (ev.physical if s.physical is None else s.physical) is False]
    if len(off) == 2:
        sides.append("not physical: wound and clip penalties do not weigh on it")
    elif off:
        sides.append(f"{_name(before, off[0].id)}'s {off[0].skill} is not physical: wound and clip penalties do not "
                     "weigh on it")  # fmt: skip
    if ev.kind == SIMPLE:
        end = f"{_name(before, ev.winner)} wins" if ev.winner else "equal scores: a regular contest follows"
        return [Reason.of(R.contest_simple, *sides, end), *first_why, *second_why]
    end = f"{_name(before, ev.winner)} wins" if ev.winner else "tie: both roll again"
    return [Reason.of(R.contest_regular, f"roll {ev.round}", *sides, end), *first_why, *second_why]


def _rested(before: FightState, ev: Rested, after: FightState) -> list[Reason]:
    d = _d(before, ev.id)
    who = _name(before, ev.id)
    if d is not None and d.dead:
        return [Reason.of(R.death, f"{who} is dead: no rest heals the dead")]
    said, _, now = ev.why.rpartition("): now ")
    said, _, pace = said.rpartition(" (")
    parts = [p.strip() for chunk in said.split(" / ") for p in chunk.split("; ") if p.strip()]
    fresh = [p for p in parts if ev.refreshed and p.startswith("aspects refresh (")]
    parts = [p for p in parts if p not in fresh]
    wounds = [p for p in parts if "fatigue" not in p]
    out = [Reason.of(R.healing, f"{who}: {pace}", *(f"{who}: {p}" for p in wounds), f"{who} now: {now}")]
    if any("stays in its" in p for p in wounds):
        out.append(Reason.of(R.healed_box, *(f"{who}: {p}" for p in wounds if "stays in its" in p)))
    rested = [p for p in parts if "fatigue" in p]
    if rested:
        out.append(Reason.of(R.fatigue_rest, *(f"{who}: {p}" for p in rested)))
    if fresh:  # a day or a night passed (l.38)
        out.append(Reason.of(R.refresh, *(f"{who}: {p} after a day or a night's rest" for p in fresh)))
    return out


EXPLAINERS: dict[type[Event], Callable[[FightState, Any, FightState], list[Reason]]] = {
    AttackResolved: _attack,
    RollRevised: _revised,
    WoundMarked: _wound,
    FatigueMarked: _fatigue,
    HarmTakenBack: _taken_back,
    SkillRolled: _skill,
    WoundsTreated: _treated,
    WoundsReopened: _reopened,
    BoxCleared: _cleared,
    AspectsRefreshed: _refreshed,
    ActionTaken: _action,
    TieRerolled: _tie,
    AmbushDeclared: _ambush,
    ContestRolled: _contest,
    Rested: _rested,
    InitiativeSet: _initiative,
    OrderSet: _order,
    TurnStarted: _turn,
    FightStarted: _started,
    ConditionAdded: _condition,
    PromptRaised: _prompt,
}


def explain(before: FightState, event: Event, after: FightState) -> tuple[Reason, ...]:
    """The Zludge rules behind ``event`` (a Zludge event or a core event Zludge's rules shaped)."""
    fn = EXPLAINERS.get(type(event))
    return () if fn is None else tuple(fn(before, event, after))
