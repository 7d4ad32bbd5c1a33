"""Why: each 2d6 Gamma event explained by the rules of :mod:`systems.twod6.table`, with every term.

Pure: the reasons are read from the event and the states around it (``before``: just before the event),
so fights saved before reasons existed explain too.  A term names each die face, each modifier and where it
came from ("Melee (Heavy) ranks +2 (skill)", "prone −2 (condition)", "DC 9 (GM)").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import attrs

from systems.twod6.checks import CheckRoll
from systems.twod6.commands import ARMOR_ONLY, BLAST_SKILL, ENTANGLE_SKILL, REPEL_SKILL
from systems.twod6.events import (
    BROKE_FREE,
    DOUBLED,
    LET_GO,
    NO_COST,
    PARRIED,
    TURNED,
    ActionTaken,
    Aimed,
    AttackRolled,
    CinematicSpent,
    ContestRolled,
    EffectApplied,
    Healed,
    InitiativeTieRolled,
    OpposedRolled,
    ResolveRolled,
    ResolveRuled,
    Reworked,
    SkillChecked,
    Wounded,
)
from systems.twod6.record import Data
from systems.twod6.rules.harm import UNCONSCIOUS, knockout_pending
from systems.twod6.rules.rest import Rested
from systems.twod6.rules.turn_flags import TurnFlagsEnded
from systems.twod6.sheet import CAST, FAST_CASTER, NOTICE, STATS, STEALTH, UNARMED
from systems.twod6.table import R
from tracker.commands import Modifier
from tracker.events import Event, InitiativeSet, OrderSet, PromptRaised
from tracker.model import FightState, Prompt
from tracker.reasons import Reason
from tracker.text import counted

STAT_LABELS = {k.upper() for k in STATS}
CONDITION_LABELS = {"prone", "prone, tripping", "unconscious", "disabled limb"}
TALENT_LABELS = {"favored enemy", "favored culture", "sneak attack"}


def signed(n: int) -> str:
    return f"+{n}" if n >= 0 else f"−{-n}"


def _data(state: FightState, cid: str | None) -> Data | None:
    c = state.find(cid) if cid else None
    return c.data if c is not None and isinstance(c.data, Data) else None


def origin(label: str, owner: Data | None) -> str:
    """Where a modifier came from, as the GM reads it."""
    if label.endswith(" ranks"):
        return "skill"
    if label in STAT_LABELS:
        return "stat"
    if label.endswith(" armor"):
        return "armor"
    if label in CONDITION_LABELS:
        return "condition"
    if label in TALENT_LABELS:
        return "talent"
    if label == "aim":
        return "aim"
    if label == "improvised":
        return "weapon"
    if owner is not None and any(i.name == label for i in owner.items):
        return "item"
    return "GM"


def part_term(p: Modifier, owner: Data | None) -> str:
    return f"{p.label} {signed(p.value)} ({origin(p.label, owner)})"


def check_terms(check: CheckRoll, owner: Data | None, what: str = "") -> list[str]:
    """Each die face, each modifier with its origin, and the total."""
    head = f"{what}: " if what else ""
    if check.automatic:
        out = [f"{head}automatic critical (cinematic): counts 11"]
    elif check.dice is not None:
        faces = ",".join(map(str, check.dice.faces))
        if check.fumble:
            out = [f"{head}2d6 [{faces}]: snake eyes, fails"]
        elif check.critical:
            out = [f"{head}2d6 [{faces}]: critical, counts 11"]
        else:
            out = [f"{head}2d6 [{faces}]"]
    else:
        out = [head + "no dice"]
    for r in check.chain:
        again = " again, counts 11" if sum(r.faces) >= 11 else ""
        out.append(f"critical 2d6 [{','.join(map(str, r.faces))}]{again}")
    out += [part_term(p, owner) for p in check.parts]
    out.append(f"total {check.total}")
    return out


def roll_rules(*checks: CheckRoll) -> list[Reason]:
    """Criticals, snake eyes and automatic criticals among the checks."""
    out: list[Reason] = []
    if any(c.automatic for c in checks):
        out.append(Reason.of(R.AUTO_CRITICAL, "declared before the roll"))
    crits = [c for c in checks if (c.critical and not c.automatic) or c.chain]
    if crits:
        out.append(Reason.of(R.CRITICAL, *(f"{c.label}: {len(c.chain)} more 2d6" for c in crits)))
    if any(c.fumble for c in checks):
        out.append(Reason.of(R.SNAKE_EYES, *(f"{c.label}: snake eyes" for c in checks if c.fumble)))
    return out


def part_rules(parts: Iterable[Modifier], aim_used: int = 0, sniper: bool = False, parry: bool = False) -> list[Reason]:
    """The rules behind the modifiers of a roll (``parry``: a melee parry's, where an armor's penalty is the parry
    ruling's: the armor rule names melee attacks, not parries); one reason a rule, its terms together."""
    out: list[Reason] = []
    for p in parts:
        term = f"{p.label} {signed(p.value)}"
        if p.label.endswith(" armor"):
            out.append(Reason.of(R.PARRY_PENALTY if parry and p.value < 0 else R.ARMOR, term))
        elif p.label.startswith("prone"):
            out.append(Reason.of(R.TRIP, f"{term} (condition)"))
        elif p.label == "unconscious":
            out.append(Reason.of(R.UNCONSCIOUS, f"{term} (condition)"))
        elif p.label == "disabled limb":
            out.append(Reason.of(R.LIMB, f"{term} (condition)"))
        elif p.label == "favored enemy":
            out.append(Reason.of(R.FAVORED_ENEMY, term))
        elif p.label == "favored culture":
            out.append(Reason.of(R.FAVORED_CULTURE, term))
        elif p.label == "sneak attack":
            out.append(Reason.of(R.SNEAK_ATTACK, term))
        elif p.label == "improvised":
            out.append(Reason.of(R.IMPROVISED, term))
        elif p.label == "moving/cover":
            out.append(Reason.of(R.UNDEFENDABLE, f"{term} (GM)"))
        elif p.label == "aim":
            out.append(Reason.of(R.AIM, term))
            if sniper or (aim_used and p.value > 1 and aim_used != p.value):
                out.append(Reason.of(R.SNIPER, term))
    return _merged(out)  # (medium armor −2 and +2 read as two "Armor" blocks)


# ---------------------------------------------------------------------------
# each event


def _attack(before: FightState, e: AttackRolled) -> list[Reason]:
    a, t = _data(before, e.actor), _data(before, e.target)
    name, tname = before.name(e.actor), before.name(e.target)
    if not e.hit:
        tie = e.attack.total == e.defense.total and not e.attack.fumble and not e.defense.fumble
        out_term = "defended" + (": a tie goes to the defender" if tie else "")
    else:
        out_term = {1: "hit", 2: "doubled", 3: "tripled"}[e.times]
    ds = e.defense_skill
    terms = [f"declared result: {e.result}"]
    terms += check_terms(e.attack, a, f"{name} {e.skill}")
    # ("Bob defense, unconscious (no bonus)": it read "Bob defense (unconscious (no bonus))")
    terms += check_terms(e.defense, t, f"{tname} defense" + (f", {ds}" if "(" in ds else f" ({ds})"))
    terms.append(out_term)
    out = [Reason.of(R.OPPOSED, *terms), Reason.of(R.DECLARED, f"{name} declared {e.result}")]
    out += roll_rules(e.attack, e.defense)
    d = max(e.defense.total, 1)
    # the ratio is taken against the defense as rolled, a fumbled one too (its dice 2: a weak hit may triple)
    of = f"defense {d}" + (" (snake eyes: its total as rolled)" if e.defense.fumble else "")
    if e.hit and e.times == 3:
        out.append(Reason.of(R.TRIPLE, f"attack {e.attack.total} ≥ 3 × {of}"))
    if e.hit and e.times >= 2:
        out.append(Reason.of(R.DOUBLE, f"attack {e.attack.total} ≥ 2 × {of}"))
        out.append(Reason.of(R.DOUBLE_LANDS, f"{e.result} lands at once; the GM chooses the extra"))
    skill_rule = {BLAST_SKILL: R.BLAST, ENTANGLE_SKILL: R.ENTANGLE}.get(e.skill)
    if skill_rule is not None:
        out.append(Reason.of(skill_rule, e.skill))
    if ds.startswith("armor only ("):
        rule = R.SURPRISE if "surprised" in ds else R.STEALTH
        out.append(Reason.of(rule, f"{tname}: {ds}"))
    elif ds == ARMOR_ONLY:
        out.append(Reason.of(R.UNDEFENDABLE, f"{e.skill}: {tname} rolls armor alone"))
    elif ds == REPEL_SKILL:
        out.append(Reason.of(R.REPEL, f"{tname} defends with Cast"))
    elif ds.startswith("unconscious"):
        out.append(Reason.of(R.UNCONSCIOUS, f"{tname} is unconscious: −3 and no bonus"))
    out += part_rules(e.attack.parts, e.aim_used, bool(a and a.aim_sniper))
    out += part_rules(e.defense.parts, parry=e.defense_skill.startswith("Melee"))
    if e.reroll:
        out.append(Reason.of(R.REROLL, "a cinematic reroll: costs no action"))
    elif e.cost == "half":
        out.append(Reason.of(R.MULTIATTACK if not skill_rule else R.FAST_CASTER, "the attack takes a half-round"))
    elif e.cost == "full":
        out.append(Reason.of(R.FULL_ROUND, "the attack takes the full round"))
    else:
        out.append(Reason.of(R.MASS_SPELL, f"one Cast against {tname}'s defense too"))
    # an unconscious defender's 'Unconscious' came twice (the defense it rolls, its −3); the two sides' armor or
    # prone stay apart, each side's own
    return _merged(out, (R.UNCONSCIOUS.id,))


def _merged(reasons: list[Reason], only: tuple[str, ...] = ()) -> list[Reason]:
    """One reason a rule (of ``only``, or of every rule), its terms together, where it was first named."""
    merged: dict[str, Reason] = {}
    out: list[Reason] = []
    for r in reasons:
        had = merged.get(r.rule_id)
        if had is None or (only and r.rule_id not in only):
            merged.setdefault(r.rule_id, r)
            out.append(r)
            continue
        joined = attrs.evolve(had, terms=(*had.terms, *r.terms))
        out[out.index(had)] = joined
        merged[r.rule_id] = joined
    return out


DOUBLE_PROMPT = "double"  # the prompt kind of a doubled or tripled blow's extra choice (rules.attacks)
CHOSEN_AFTER = {DOUBLED: R.DOUBLE, PARRIED: R.VICIOUS_PARRY, TURNED: R.SPELL_TURNING}


def _double_prompt(state: FightState, by: str | None, target: str) -> Prompt | None:
    """The open "choose a second result" prompt of ``by``'s blow on ``target`` (``attacks.double_prompt``)."""
    for p in state.prompts:
        if p.kind == DOUBLE_PROMPT and p.params.get("actor") == by and p.params.get("target") == target:
            return p
    return None


def _prompt_times(state: FightState, p: Prompt) -> int:
    """The ratio a double prompt was raised for: its ``times`` (an older file's prompt: read from its text, as
    ``attacks._times`` reads it)."""
    if "times" in p.params:
        return int(p.params["times"])
    return 3 if f" tripled {state.name(p.combatant)}'s defense" in p.text else 2


def _blow(before: FightState, by: str | None, target: str, note: str = "") -> str:
    """Doubled or tripled: the blow whose extra result this is, read from the prompt it closes (still open in
    the state before the event; a limb's note says it too).

    Ruling: the extra result of a tripled blow is explained as the tripled blow's ("as doubled", @53102), not
    "the doubled blow's" (test_why_round3.py::test_the_extra_result_of_a_tripled_blow_*)."""
    if note in ("tripled", "doubled"):
        return note
    p = _double_prompt(before, by, target)
    return "tripled" if p is not None and _prompt_times(before, p) == 3 else "doubled"


def _chosen_after(before: FightState, source: str, by: str | None, target: str, note: str = "") -> str:
    """How a result chosen after the roll came (``source`` of the event)."""
    if source == DOUBLED:
        blow = _blow(before, by, target, note)
        return f"the {blow} blow's extra result{' (as doubled)' if blow == 'tripled' else ''}, chosen after the roll"
    if source == PARRIED:
        return f"chosen after {before.name(by)}'s parry doubled"
    return f"the spell turned back by {before.name(by)}"


def _freed(before: FightState, e: EffectApplied) -> list[Reason]:
    """A grapple ends: broken out of (against the holder's Melee (Unarmed), or an entangle's Cast), let go by the
    holder, or (an older file, which did not say) just ended — never "freed by" the one who held it."""
    t, holder = before.name(e.target), before.name(e.by) if e.by else "its holder"
    held = _data(before, e.target)
    entangled = held is not None and held.entangled
    hold = "entangle" if entangled else "grapple"
    if e.source == BROKE_FREE:
        term = f"{t} breaks free of {holder}'s {hold}" + (" against its Cast" if entangled else "")
    elif e.source == LET_GO:
        term = f"{holder} lets go of {t}"
    else:
        term = f"{t} is free of {holder}'s {hold}"
    out = [Reason.of(R.GRAPPLE, term)]
    if entangled:
        out.insert(0, Reason.of(R.ENTANGLE, term))
    return out


def _effect(before: FightState, e: EffectApplied) -> list[Reason]:
    t = before.name(e.target)
    by = f" by {before.name(e.by)}" if e.by else ""
    if e.effect == "freed":
        return _freed(before, e)
    what = "entangled (a grapple at range)" if e.effect == "entangle" else e.effect
    term = f"{t}: {what}{by}" + (f" ({e.note})" if e.note else "")
    after = CHOSEN_AFTER.get(e.source)
    if after is not None and e.effect != "limb":  # (a limb names Doubled attack already)
        own = {"distract": R.DISTRACT, "trip": R.TRIP, "grapple": R.GRAPPLE, "entangle": R.ENTANGLE}.get(e.effect)
        first = Reason.of(after, f"{term}, {_chosen_after(before, e.source, e.by, e.target)}")
        tripled = e.source == DOUBLED and _blow(before, e.by, e.target) == "tripled"
        lead = [Reason.of(R.TRIPLE, first.terms[0]), first] if tripled else [first]
        return lead if own is None else [*lead, Reason.of(own, term)]
    if e.effect == "entangle":  # (it cited only 'The result is chosen first')
        return [
            Reason.of(R.ENTANGLE, term),
            Reason.of(R.GRAPPLE, f"{t} can only speak, attack unarmed or try to break free"),
            Reason.of(R.DECLARED, f"{before.name(e.by) if e.by else 'the caster'} declared entangle"),
        ]
    if e.effect == "unconscious":
        rule = R.AT_ZERO if e.note == "0 wounds" else R.TRIPLE if e.note == "tripled" else R.KNOCKOUT
    elif e.effect == "limb":
        out = [Reason.of(R.LIMB, term, f"{e.limb} {signed(e.penalty)} on rolls using it"), Reason.of(R.DOUBLE, term)]
        return out + ([Reason.of(R.TRIPLE, term)] if e.note == "tripled" else [])
    else:
        rule = {
            "distract": R.DISTRACT,
            "trip": R.TRIP,
            "grapple": R.GRAPPLE,
            "dead": R.DEAD_AT_ZERO,
        }.get(e.effect, R.DECLARED)
    return [Reason.of(rule, term)]


def _threshold(had: int, left: int, most: int, unconscious: bool, tripled: bool) -> list[Reason]:
    """The check the fall from ``had`` to ``left`` wounds asked for, as ``harm.check_thresholds`` asks it: none
    against unconsciousness for one already out or knocked out either way by a tripled blow; 'one check a blow'
    only when the blow passed more than one threshold."""
    if left < 0:
        return [Reason.of(R.DEAD_AT_ZERO, "a wound taken at 0: dead")]
    passed = [t for t in (2, 1, 0) if left <= t < had and (t == 0 or most > t)]
    out: list[Reason] = []
    no_check = "already unconscious" if unconscious else "the tripled blow knocks out either way" if tripled else ""
    if left == 0:
        check = "the tripled blow's DC 7 check against death is the one check" if tripled else "DC 7 resolve or die"
        out.append(Reason.of(R.AT_ZERO, f"0 wounds left: unconscious, {check}"))
    elif left in (1, 2) and most > left:
        rule, where, dc = (R.AT_ONE, "1 wound left", 9) if left == 1 else (R.AT_TWO, "2 wounds left", 7)
        out.append(Reason.of(rule, f"{where}: no check, {no_check}" if no_check else f"{where}: DC {dc} resolve"))
    if len(passed) > 1 and (left == 0 or not no_check):
        listed = ", ".join(map(str, passed[:-1])) + f" and {passed[-1]}"
        out.append(Reason.of(R.LOWEST, f"{had} → {left} passes {listed} wounds left: only the check at {left}"))
    return out


def _wounded(before: FightState, e: Wounded) -> list[Reason]:
    d = _data(before, e.target)
    had = e.was if e.was is not None else (d.wounds if d else 0)
    most = d.max_wounds if d else had
    left = -1 if had == 0 else had - e.wounds
    tripled = e.times == 3 or knockout_pending(before, e.target)
    terms = [f"{before.name(e.target)}: wounds {had} → {max(left, 0)} of {most}"]
    if e.source == TURNED:
        by = f"by {before.name(e.target)}'s own spell, turned back by {before.name(e.by)}"
        out = [Reason.of(R.WOUNDS, *terms, by), Reason.of(R.SPELL_TURNING, by)]
    elif e.source == DOUBLED:
        blow = _blow(before, e.by, e.target)
        as_doubled = " (as doubled)" if blow == "tripled" else ""
        by = f"by {before.name(e.by)}'s {blow} blow{as_doubled}: its extra result, chosen after the roll"
        out = [Reason.of(R.WOUNDS, *terms, by), Reason.of(R.DOUBLE, by)]
        if blow == "tripled":
            out.append(Reason.of(R.TRIPLE, by))
    elif e.by is not None:
        out = [Reason.of(R.WOUNDS, *terms, f"by {before.name(e.by)}'s attack")]
    else:
        typed = e.roll.describe() if e.roll is not None else str(e.wounds)
        note = [f"note: {e.note} (GM)"] if e.note else []
        out = [Reason.of(R.QUICK_HARM, *terms, f"amount {typed} (GM)", *note), Reason.of(R.WOUNDS, *terms)]
    return out + _threshold(had, left, most, bool(d and d.unconscious), tripled)


def _healed(before: FightState, e: Healed) -> list[Reason]:
    d = _data(before, e.target)
    had = d.wounds if d else 0
    terms = [f"amount {e.roll.describe()} (GM)", f"wounds {had} → {had + e.wounds}"]
    out = [Reason.of(R.QUICK_HARM, *terms)]
    if e.wakes:
        out.append(Reason.of(R.WAKES, "a wound regained at 0: wakes"))
    return out


def _resolve(before: FightState, e: ResolveRolled) -> list[Reason]:
    owner = _data(before, e.actor)
    terms = [*check_terms(e.check, owner, f"{before.name(e.actor)} resolve"), f"DC {e.dc}", f"against {e.stakes}"]
    terms.append("passed" if e.passed else "failed")
    cause = _cause(before, e.actor, e.stakes)
    out = [Reason.of(R.RESOLVE, *terms), *_resolve_why(e.dc, e.stakes, cause)]
    if cause == R.TRIPLE.id and owner is not None and owner.wounds == 0 and e.stakes == "death":
        # the tripled blow's check has no −3 of its own: falling to 0 in the same blow brings it (unconscious first)
        out.append(Reason.of(R.AT_ZERO, "at 0 wounds: unconscious first, so the check takes the −3"))
    out += roll_rules(e.check) + part_rules(e.check.parts)
    if e.reroll:
        out.append(Reason.of(R.REROLL, "the failed resolve check rerolled"))
    return out


def _cause(state: FightState, actor: str, stakes: str) -> str:
    """The rule that asked for ``actor``'s resolve check against ``stakes`` (the open prompt's ``rule``; "" in a
    file written before prompts said it)."""
    for p in state.prompts:
        if p.params.get("actor") == actor and p.params.get("stakes") == stakes:
            return str(p.params.get("rule", ""))
    return ""


def _resolve_why(dc: int, stakes: str, cause: str = "") -> list[Reason]:
    if cause == R.KNOCKOUT.id:
        return [Reason.of(R.KNOCKOUT, f"DC {dc}: the attack's total")]
    if cause == R.TRIPLE.id:
        return [Reason.of(R.TRIPLE, f"DC {dc} against death, then unconscious either way")]
    if stakes == "death":
        return [Reason.of(R.AT_ZERO, f"DC {dc} against death")]
    if dc == 9:
        return [Reason.of(R.AT_ONE, "DC 9 against unconsciousness")]
    if dc == 7:
        return [Reason.of(R.AT_TWO, "DC 7 against unconsciousness")]
    return [Reason.of(R.KNOCKOUT, f"DC {dc}: the attack's total")]


def _ruled(before: FightState, e: ResolveRuled) -> list[Reason]:
    out = "passed" if e.passed else "failed"
    return [
        Reason.of(
            R.RESOLVE, f"DC {e.dc} against {e.stakes}", f"{out} (GM's ruling)", text="settled by the GM's ruling"
        ),
        *_resolve_why(e.dc, e.stakes, _cause(before, e.actor, e.stakes)),
    ]


def _double_asked(before: FightState, p: Prompt) -> list[Reason]:
    """The "choose a second result" prompt of a doubled or tripled blow: the rule of its ratio, and (a prompt
    raised after the declared result landed) that the declared result landed at once."""
    times = _prompt_times(before, p)
    a, t = before.name(p.params.get("actor")), before.name(p.combatant)
    declared = str(p.params.get("declared", ""))
    total = p.params.get("attack_total")
    beat = f"{a}'s attack {total} is at least {'three times' if times == 3 else 'twice'} {t}'s defense"
    choice = "the GM chooses the extra result: a second result, a second wound or a useless limb"
    out = [Reason.of(R.DOUBLE, beat, choice)]
    if times == 3:
        out.insert(0, Reason.of(R.TRIPLE, beat, "as doubled: the extra result is chosen here"))
    if p.params.get("landed"):
        if declared == UNCONSCIOUS and times == 3:  # a knock-out lands as its check (rule ``double_lands``)
            done = f"'{declared}' comes with the tripled blow's resolve check: {t} is out, pass or fail"
        elif declared == UNCONSCIOUS:
            done = (
                f"'{declared}' raised its resolve check at once, DC {total} (the attack's total): {t} falls only if"
                " it fails; only the extra choice waits"
            )
        else:
            done = f"'{declared}' has landed at once; only the extra choice waits"
        out.append(Reason.of(R.DOUBLE_LANDS, done))
    return out


def _prompt(before: FightState, e: PromptRaised) -> list[Reason]:
    """A resolve check asked for: the rule that asks for it, and where its DC comes from; a doubled or tripled
    blow's extra choice: its rule (test_why_round3.py::test_the_choose_a_second_result_prompt_names_its_rule)."""
    p = e.prompt
    if p.kind == DOUBLE_PROMPT:
        return _double_asked(before, p)
    if "stakes" not in p.params or "dc" not in p.params:
        return []
    return _resolve_why(int(p.params["dc"]), str(p.params["stakes"]), str(p.params.get("rule", "")))


OPPOSED_RULES = {"sneaks": R.STEALTH, "negates": R.NEGATE, "breaks the grapple": R.GRAPPLE}


def _opposed_skills(before: FightState, e: OpposedRolled) -> tuple[str, str]:
    """The skill each side of an opposed roll used: Stealth vs Notice, Cast vs Cast, Melee (Unarmed) vs the holder's
    Melee (Unarmed) or, against an entangle, its Cast (Entangle) (as ``actions``/``magic`` roll them)."""
    if e.purpose == "sneaks":
        return STEALTH, NOTICE
    if e.purpose == "negates":
        return CAST, CAST
    if e.purpose == "breaks the grapple":
        d = _data(before, e.actor)
        return UNARMED, ENTANGLE_SKILL if d is not None and d.entangled else UNARMED
    return "", ""


def _opposed(before: FightState, e: OpposedRolled) -> list[Reason]:
    """Stealth, Negate or breaking a grapple: each side's roll by its skill, who won, and the tie rule only on a tie
    (every failure read "fails (a tie goes to the one opposing)", 6 vs 12 too)."""
    a, t = _data(before, e.actor), _data(before, e.target)
    name, tname = before.name(e.actor), before.name(e.target)
    mine, theirs = _opposed_skills(before, e)
    tie = e.check.total == e.opposing.total and not e.check.fumble and not e.opposing.fumble
    both = e.check.fumble and e.opposing.fumble
    holder = "the one holding" if e.purpose == "breaks the grapple" else "the one opposing"
    terms = [
        *check_terms(e.check, a, f"{name} {mine}".strip()),
        *check_terms(e.opposing, t, f"{tname} {theirs}".strip()),
        "succeeds" if e.success else "fails" + (f": a tie goes to {holder}" if tie else ""),
    ]
    out = [Reason.of(OPPOSED_RULES.get(e.purpose, R.OPPOSED), *terms)]
    if tie or both:
        # breaking a grapple is an attack against the holder's (ties to the defender); Stealth and Negate are
        # opposed checks (ties to the one opposing, as in combat)
        rule = R.OPPOSED if e.purpose == "breaks the grapple" else R.CONTEST_TIE
        out.append(Reason.of(rule, f"both snake eyes: {holder} wins" if both else f"tie at {e.check.total}"))
    if e.purpose == "breaks the grapple" and theirs == ENTANGLE_SKILL:
        out.append(Reason.of(R.ENTANGLE, f"{name} breaks free against {tname}'s Cast"))
    out += roll_rules(e.check, e.opposing) + part_rules(e.check.parts) + part_rules(e.opposing.parts)
    if e.reroll:
        out.append(Reason.of(R.REROLL, f"the failed {e.purpose} rerolled"))
    return _merged(out)


def _contest(before: FightState, e: ContestRolled) -> list[Reason]:
    """An opposed check: both rolls term by term, who won (a tie to the one opposing), and what Stealth did."""
    a, t = _data(before, e.actor), _data(before, e.target)
    name, tname = before.name(e.actor), before.name(e.target)
    tie = e.check.total == e.opposing.total and not e.check.fumble and not e.opposing.fumble
    both = e.check.fumble and e.opposing.fumble
    out_term = "succeeds" if e.success else "fails" + (": a tie goes to the one opposing" if tie else "")
    terms = [
        *check_terms(e.check, a, f"{name} {e.skill}"),
        *check_terms(e.opposing, t, f"{tname} {e.opposing_skill}"),
        out_term,
    ]
    out = [Reason.of(R.CONTEST, *terms)]
    if tie or both:
        out.append(
            Reason.of(R.CONTEST_TIE, "both snake eyes: the one opposing wins" if both else f"tie at {e.check.total}")
        )
    out += roll_rules(e.check, e.opposing)
    if e.stealth and e.opposing_skill.startswith("armor only"):
        out.append(Reason.of(R.STEALTH, f"{tname}: armor only (caught by {name}'s stealth), and the stealth is spent"))
    elif e.stealth:
        out.append(Reason.of(R.STEALTH, f"{name}'s stealth on {tname} is spent"))
    if e.success and e.skill == "Stealth":
        out.append(Reason.of(R.STEALTH, f"{name} is hidden from {tname}"))
    if e.success and e.skill == "Notice" and e.opposing_skill == "Stealth":
        out.append(Reason.of(R.STEALTH, f"{name} spots {tname}: its stealth on {name} is gone"))
    out += part_rules(e.check.parts) + part_rules(e.opposing.parts)
    if e.reroll:
        out.append(Reason.of(R.REROLL, f"the failed {e.skill} check rerolled; {tname}'s roll stands"))
    else:
        out += _check_cost(e.skill, e.cost, a)
    return _merged(out)


def _check_cost(skill: str, cost: str, owner: Data | None) -> list[Reason]:
    """What a check cost: none off the turn; a casting a full round, or a half with Fast Caster."""
    if cost == NO_COST:
        return [Reason.of(R.CHECKS_ANYTIME, "no action spent")]
    if skill.startswith(CAST) and cost == "full":
        return [Reason.of(R.CHECK_COST, "full action: casting a spell is no half-round check")]
    if skill.startswith(CAST) and cost == "half" and owner is not None and owner.has(FAST_CASTER):
        return [Reason.of(R.CHECK_COST, "half action"), Reason.of(R.FAST_CASTER, "casting takes a half-round")]
    return [Reason.of(R.CHECK_COST, f"{cost} action")]


def _checked(before: FightState, e: SkillChecked) -> list[Reason]:
    owner = _data(before, e.actor)
    terms = [*check_terms(e.check, owner, f"{before.name(e.actor)} {e.skill}"), f"DC {e.dc} (GM)"]
    terms.append("succeeds" if e.passed else "fails")
    out = [Reason.of(R.CHECK, *terms), *roll_rules(e.check), *part_rules(e.check.parts, e.aim_used)]
    if e.reroll:
        out.append(Reason.of(R.REROLL, "the failed check rerolled"))
    else:
        out += _check_cost(e.skill, e.cost, owner)
    return out


def _cinematic(before: FightState, e: CinematicSpent) -> list[Reason]:
    d = _data(before, e.actor)
    have = d.cinematics if d else 0
    out = [Reason.of(R.CINEMATIC, f"{before.name(e.actor)}: cinematics {have} → {have - 1}", f"for: {e.use}")]
    if e.use == "extra turn":
        out.append(Reason.of(R.EXTRA_TURN, "fresh actions now; the order stays"))
    elif e.use == "ignore death":
        out.append(Reason.of(R.IGNORE_DEATH, "the failed save against death is ignored"))
    elif e.use.startswith("automatic critical"):
        out.append(Reason.of(R.AUTO_CRITICAL, e.use))
    elif e.use.startswith("reroll"):
        out += [Reason.of(R.REROLL, e.use), Reason.of(R.REROLL_PICK, e.use.removeprefix("reroll "))]
    return out


def _reworked(before: FightState, e: Reworked) -> list[Reason]:
    return [Reason.of(R.REROLL_PICK, e.describe(before), f"{before.name(e.by)}'s attack roll stands")]


def _rested(before: FightState, e: Rested) -> list[Reason]:
    d = _data(before, e.id)
    terms = [e.why]
    if d is not None:
        terms.append(f"wounds {d.wounds} → {min(d.max_wounds, d.wounds + e.wounds)} of {d.max_wounds}")
    out = [Reason.of(R.HEALING, *terms)]
    if "healer" in e.why:
        out.append(Reason.of(R.HEALER, "the carer's Trade (Healing) check succeeded (GM)"))
    if e.wakes and d is not None and d.wounds > 0:
        out.append(
            Reason.of(R.SLEPT_OFF, f"knocked out with {counted(d.wounds, 'wound')} left, a full day's rest: wakes")
        )
    elif e.wakes:
        out.append(Reason.of(R.WAKES, "a wound regained at 0: wakes"))
    return out


def _turn_flags(before: FightState, e: TurnFlagsEnded) -> list[Reason]:
    """What counted in turns, over: the event's own words, with the rule of each flag that ended."""
    out = [Reason.of(R.TURN_FLAGS_END, e.describe(before))]
    for name, rule in (("distracted", R.DISTRACT), ("negated", R.NEGATE), ("extra_turn", R.EXTRA_TURN), ("aim", R.AIM)):
        if name in e.flags:
            out.append(Reason.of(rule, f"{e.why}: no turn to come"))
    if "hidden_from" in e.flags:
        out.append(Reason.of(R.STEALTH, f"{e.why}: a new sneak is a new Stealth check"))
    return out


def _tie(before: FightState, e: InitiativeTieRolled) -> list[Reason]:
    terms = [f"{before.name(i)}: {r.describe()} → {v}" for i, r, v in zip(e.ids, e.rolls, e.values, strict=True)]
    return [Reason.of(R.INITIATIVE_TIE, *terms), Reason.of(R.INITIATIVE, "2d6 + PER + AGI")]


def _order(before: FightState, e: OrderSet) -> list[Reason]:
    """The order's ties and the rerolls that broke them (three at 6 came in an order nothing explained)."""
    by_value: dict[int, list[str]] = {}
    for cid in e.order:
        c = before.find(cid)
        if c is not None and c.initiative is not None:
            by_value.setdefault(c.initiative, []).append(cid)
    terms = []
    for value, ids in by_value.items():
        if len(ids) < 2:
            continue
        rolls = [f"{before.name(i)} {'/'.join(map(str, _tiebreak(before, i))) or '-'}" for i in ids]
        terms.append(
            f"{' before '.join(before.name(i) for i in ids)}: all initiative {value}; tie rolls {', '.join(rolls)}"
        )
    return [Reason.of(R.INITIATIVE_TIE, *terms)] if terms else []


def _tiebreak(state: FightState, cid: str) -> tuple[int, ...]:
    d = _data(state, cid)
    return d.init_tiebreak if d is not None else ()


def _action(before: FightState, e: ActionTaken) -> list[Reason]:
    out = [Reason.of(R.ACTIONS, f"{e.action}: {e.cost} action")]
    if e.note == "Graceful, no action":
        out.append(Reason.of(R.GRACEFUL, "once a turn"))
    if e.cost == "full":
        out.append(Reason.of(R.FULL_ROUND, e.action))
    if e.action == "stand up":
        out.append(Reason.of(R.TRIP, "standing ends prone"))
    if e.action == "release grapple":
        out.append(Reason.of(R.GRAPPLE, "the grappler lets go"))
    return out


def _aimed(before: FightState, e: Aimed) -> list[Reason]:
    d = _data(before, e.actor)
    per = d.stat("per") if d else e.bonus
    out = [Reason.of(R.AIM, f"PER {signed(per)} → aim {signed(e.bonus)} (at least +1)"), Reason.of(R.FULL_ROUND, "aim")]
    if e.sniper:
        out.append(Reason.of(R.SNIPER, f"{signed(2 * e.bonus)} on shooting, archery or throwing"))
    return out


def _initiative(before: FightState, e: InitiativeSet) -> list[Reason]:
    if e.roll is None:
        return []
    return [Reason.of(R.INITIATIVE, f"{before.name(e.id)}: {e.roll.describe()} (2d6 + PER + AGI)")]


EXPLAIN: dict[type, Callable[[FightState, Any], list[Reason]]] = {
    AttackRolled: _attack,
    EffectApplied: _effect,
    Wounded: _wounded,
    Healed: _healed,
    ResolveRolled: _resolve,
    ResolveRuled: _ruled,
    OpposedRolled: _opposed,
    SkillChecked: _checked,
    ContestRolled: _contest,
    CinematicSpent: _cinematic,
    Reworked: _reworked,
    Rested: _rested,
    TurnFlagsEnded: _turn_flags,
    InitiativeTieRolled: _tie,
    OrderSet: _order,
    ActionTaken: _action,
    Aimed: _aimed,
    InitiativeSet: _initiative,
    PromptRaised: _prompt,
}


def explain(before: FightState, event: Event, after: FightState) -> tuple[Reason, ...]:
    """The reasons for one event (none for an event the rules did not shape)."""
    fn = EXPLAIN.get(type(event))
    if fn is None:
        return ()
    try:
        return tuple(fn(before, event))
    except (KeyError, AttributeError, TypeError, ValueError):  # a damaged or foreign record: no reason, no crash
        return ()
