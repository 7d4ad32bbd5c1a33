"""What every 2d6 decider needs: who may act now, what an action costs, the parts of a check, aim.

Rulings of our own, each with its test:
- Actions belong to the combatant whose turn it is (or who spent a cinematic on an extra turn, which
  lasts until the next turn starts); nothing is done while a prompt is open
  (test_only_the_current_combatant_acts).
- Armor's penalty falls on every melee check, a melee parry included (so light armor nets 0 on a
  parry): the only reading under which the book's worked example (11 against 10, the attacker wins)
  adds up (test_book_example_longsword_11_beats_knife_10).
- Sniper doubles the aim only "when aiming for a shooting, archery, or throwing check": a Sniper's aim
  before an Athletics check or a Blast gives the plain bonus
  (test_sniper_doubles_the_aim_only_on_shooting_archery_or_throwing).
"""

from __future__ import annotations

from systems.twod6.commands import BLAST_SKILL, ENTANGLE_SKILL, REPEL_SKILL
from systems.twod6.events import CinematicSpent
from systems.twod6.record import data
from systems.twod6.sheet import (
    ARCHERY,
    ATHLETICS,
    CAST,
    FAST_CASTER,
    HEAVY,
    LIGHT,
    MELEE,
    MULTIATTACK,
    NOTICE,
    PERFORM,
    RESOLVE,
    SHOOTING,
    SNIPER,
    STATS,
    STEALTH,
    THROWING,
    UNARMED,
)
from systems.twod6.table import PRONE, R
from tracker.commands import Modifier
from tracker.core_rules import core_rule
from tracker.errors import Refused
from tracker.kit import Draft
from tracker.model import Combatant, FightState

RANGED = (SHOOTING, ARCHERY, THROWING, BLAST_SKILL, ENTANGLE_SKILL)
UNDEFENDABLE = (SHOOTING, ARCHERY)
CASTING = (BLAST_SKILL, ENTANGLE_SKILL)
WEAPON_SKILLS = (HEAVY, LIGHT, SHOOTING, ARCHERY, THROWING)
ARMOR_HINDERS = (*MELEE, THROWING, CAST, ATHLETICS, *CASTING, REPEL_SKILL)
AIM_FITS = (SHOOTING, ARCHERY, THROWING, CAST, ATHLETICS, PERFORM, "Ride", *CASTING)
SNIPER_SKILLS = (SHOOTING, ARCHERY, THROWING)  # Sniper doubles the aim; such a check always spends it (even told no)
STAT_DEFAULTS: dict[str, tuple[str, ...]] = {
    HEAVY: ("str",),
    LIGHT: ("agi",),
    UNARMED: ("str", "agi"),
    SHOOTING: ("dex",),
    ARCHERY: ("dex",),
    THROWING: ("dex",),
    CAST: ("int", "wil"),
    ATHLETICS: ("str", "agi", "dex"),
    RESOLVE: ("wil",),
    NOTICE: ("per",),
    STEALTH: ("agi",),
    PERFORM: ("agi", "dex", "cha"),
    "Ride": ("dex", "agi"),
}
UNCONSCIOUS_PENALTY = Modifier(label="unconscious", value=-3)


def base_skill(skill: str) -> str:
    """The sheet skill a roll uses: Cast for every spell."""
    return CAST if skill.startswith(CAST) else skill


# ---------------------------------------------------------------------------
# who may do what


def acting(state: FightState, c: Combatant) -> None:
    """Refuse unless ``c`` may take actions now."""
    if not state.started:
        raise Refused("start the fight first: actions are counted per turn", rule=R.ACTIONS)
    if state.ended:
        raise Refused("the fight is over")
    if state.prompts:
        raise Refused(f"resolve first: {state.prompts[0].text}", rule=core_rule("prompt"))
    d = data(c)
    if d.dead:
        raise Refused(f"{c.name} is dead")
    if d.unconscious:
        raise Refused(f"{c.name} is unconscious and cannot act", rule=R.UNCONSCIOUS)
    if state.current != c.id and not d.extra_turn:
        raise Refused(
            f"it is {state.name(state.current)}'s turn: {c.name} acts on its own turn "
            "(or spends a cinematic for an extra turn)",
            rule=R.ACTIONS,
        )


def afford(c: Combatant, cost: str) -> None:
    d = data(c)
    if cost == "quick" and d.quick < 1:
        raise Refused(f"{c.name} has no quick action left this turn (two quick actions a turn)", rule=R.ACTIONS)
    if cost == "half" and d.half < 1:
        raise Refused(
            f"{c.name} has no half-round action left this turn (two half-round or one full-round action a turn)",
            rule=R.ACTIONS,
        )
    if cost == "full" and d.half < 2:
        raise Refused(
            f"{c.name} cannot take a full-round action: it takes the turn's two half-round actions "
            f"and {c.name} has {d.half} left (one full-round action a turn)",
            rule=R.FULL_ROUND,
        )


def in_grapple(state: FightState, c: Combatant, doing: str) -> None:
    """Refuse what one in a grapple may not do; the caster holding a foe by Entangle (a grapple at range) is in
    none (ruling: it was refused all casting, "in a grapple" with a foe 30 ft away)."""
    d = data(c)
    held = state.find(d.grappling) if d.grappling else None
    by_spell = held is not None and data(held).entangled
    if d.grappled_by or (d.grappling and not by_spell):
        raise Refused(
            f"{c.name} is in a grapple: it can only speak, attack with Melee (Unarmed) "
            f"or try to break the grapple, not {doing}",
            rule=R.GRAPPLE,
        )


def attack_cost(c: Combatant, skill: str) -> str:
    d = data(c)
    if d.has(MULTIATTACK) or (skill in CASTING and d.has(FAST_CASTER)):
        return "half"
    return "full"


def cast_cost(c: Combatant) -> str:
    return "half" if data(c).has(FAST_CASTER) else "full"


def spend_cinematic(d: Draft, c: Combatant, use: str, against: tuple[str, ...] = ()) -> None:
    """Spend one of ``c``'s cinematics on ``use``; ``against``: whom the check it buys is against (the players'
    view drops the line when one of them is hidden from it)."""
    if data(c).cinematics < 1:
        raise Refused(
            f"{c.name} has no cinematic to spend (a cinematic is gained at the first dot of experience)",
            rule=R.CINEMATIC,
        )
    d.add(CinematicSpent(actor=c.id, use=use, against=against))


# ---------------------------------------------------------------------------
# the parts of a check


def stat_part(c: Combatant, skill: str, stat: str) -> Modifier:
    d = data(c)
    if stat != "auto":
        if stat not in STATS:
            raise Refused(f"'{stat}' is not a stat ({', '.join(STATS)})")
        return Modifier(label=stat.upper(), value=d.stat(stat))
    options = STAT_DEFAULTS.get(base_skill(skill))
    if options is None:
        raise Refused(
            f"choose the stat for {skill}: stats are situational, the GM picks the fitting one", rule=R.STAT_CHOICE
        )
    best = max(options, key=d.stat)
    return Modifier(label=best.upper(), value=d.stat(best))


def is_prone(c: Combatant) -> bool:
    """Prone: tripped by an attack, or the book's condition the GM set by name."""
    return data(c).prone or any(cond.name == PRONE for cond in c.conditions)


def skill_parts(c: Combatant, skill: str, stat: str) -> list[Modifier]:
    """Ranks + stat + item(s), and the armor penalty where armor hinders.

    Ruling: Cast divided into sub-skills as Melee is (the book allows it, @Magic: "you may want to divide it into
    sub skills"), the sub-skill named for the spell ("Cast (Blast) 2") gives its ranks to that spell; a sheet's
    "Cast (Blast) 2" was kept and counted 0 (only plain Cast was read). Plain Cast counts for every spell."""
    d = data(c)
    base = base_skill(skill)
    own = d.ranks(skill) if skill != base else 0
    ranks = Modifier(label=f"{skill} ranks", value=own) if own else Modifier(label=f"{base} ranks", value=d.ranks(base))
    if skill == PERFORM and not ranks.value:
        ranks = perform_ranks(c)
    parts = [ranks, stat_part(c, skill, stat)]
    parts += [Modifier(label=i.name, value=i.bonus) for i in d.item_bonus(base)]
    if skill in ARMOR_HINDERS and d.armor_penalty:
        parts.append(Modifier(label=f"{d.armor} armor", value=d.armor_penalty))
    if skill in MELEE and is_prone(c):
        parts.append(Modifier(label="prone", value=-2))
    return parts


def perform_ranks(c: Combatant) -> Modifier:
    """The ranks a Perform roll with no subject named takes (a defense: "certain perform checks"): plain Perform's,
    else the best Perform sub-skill's ("Perform (Dance) 1", Perform divided as the book divides it).

    Ruling: a sheet's "Perform (Dance) 1" was kept and counted 0 for a Perform defense, which "auto" never
    weighed (test_defense.py::test_a_perform_sub_skill_counts_for_a_perform_defense)."""
    d = data(c)
    subs = [(r, name) for name, r in d.skills if name.lower().startswith(PERFORM.lower() + " (")]
    if d.ranks(PERFORM) or not subs:
        return Modifier(label=f"{PERFORM} ranks", value=d.ranks(PERFORM))
    r, name = max(subs)
    return Modifier(label=f"{name} ranks", value=r)


def opposing_parts(c: Combatant, skill: str, stat: str = "auto") -> list[Modifier]:
    """The other side of an opposed check: its skill, or the unconscious −3 and nothing else."""
    return [UNCONSCIOUS_PENALTY] if data(c).unconscious else skill_parts(c, skill, stat)


def aim_part(c: Combatant, skill: str, use: str) -> int:
    """The aim bonus ``skill`` takes (``use``: auto, yes or no): doubled for a Sniper's shooting, archery, throwing."""
    d = data(c)
    if use == "no":
        return 0
    fits = skill in AIM_FITS
    if use == "yes":
        if not fits:
            raise Refused(
                f"aiming helps the next shooting, archery, throwing, casting, athletics, perform or ride check, "
                f"not {skill}",
                rule=R.AIM,
            )
        if not d.aim:
            raise Refused(f"{c.name} has not aimed (aiming is a full-round action)", rule=R.AIM)
    if not fits:
        return 0
    return 2 * d.aim if d.aim_sniper and skill in SNIPER_SKILLS else d.aim


def aim_bonus(c: Combatant) -> int:
    """The aim as aimed: PER, at least +1 (Sniper doubles it later, on the checks it fits)."""
    return max(1, data(c).stat("per"))


def has_sniper(c: Combatant) -> bool:
    return data(c).has(SNIPER)
