"""The 2d6 Gamma commands (verbs) and the forms the app builds for them (``kit.spec``).

Forms start where the GM expects them: an attack on its attacker (the current combatant) and its
target (the GM's selected combatant); a resolve check, a Vicious Parry or Spell Turning, and a
cinematic (an extra turn, a reroll, ignoring death) are GM actions on the selected combatant
(``actor=None``, ``subject="actor"``), since they come on someone else's turn.

Ruling (ours): the attack form starts on the attacker's best-ranked attack skill
(test_an_archer_attacks_with_archery_and_a_swordsman_with_the_sword), a spell only for a caster with its
talent (see :func:`attack_defaults`).
"""

from __future__ import annotations

import attrs

from systems.twod6.failed import failed_names
from systems.twod6.record import data
from systems.twod6.sheet import (
    ARCHERY,
    ATHLETICS,
    BLAST,
    CAST,
    ENTANGLE,
    MELEE,
    PERFORM,
    RESOLVE,
    SHOOTING,
    STAT_NAMES,
    STATS,
    THROWING,
)
from tracker.commands import BOOL, CHOICE, COMBATANTS, INT, MODIFIERS, STR, CommandSpec, Modifier, Param
from tracker.kit import spec
from tracker.model import FightState

BLAST_SKILL = "Cast (Blast)"
ENTANGLE_SKILL = "Cast (Entangle)"
ATTACK_SKILLS = (*MELEE, SHOOTING, ARCHERY, THROWING, BLAST_SKILL, ENTANGLE_SKILL)
REPEL_SKILL = "Cast (Repel Attack)"
ARMOR_ONLY = "armor only"
DEFENSE_SKILLS = ("auto", *MELEE, ATHLETICS, REPEL_SKILL, PERFORM, RESOLVE, ARMOR_ONLY)
RESULTS = ("wound", "disarm", "distract", "unconscious", "trip", "shove", "grapple")
MELEE_RESULTS = ("unconscious", "trip", "shove", "grapple")
DOUBLE_CHOICES = (*RESULTS, "limb")
STAT_CHOICES = ("auto", *STATS)
ACTIONS = {
    # action: (cost, what it does)
    "draw weapon": ("quick", "rearm"),
    "speak": ("quick", ""),
    "release grapple": ("quick", "release"),
    "other quick action": ("quick", ""),
    "move 20 ft": ("half", "move"),
    "stand up": ("half", "stand"),
    "pick up weapon": ("half", "rearm"),
    "other half-round action": ("half", ""),
    "move 50 ft": ("full", ""),
    "retrieve item from bag": ("full", ""),
    "other full-round action": ("full", ""),
}
CINEMATIC_USES = ("extra turn", "reroll", "ignore death")
CHECK_COSTS = ("auto", "quick", "half", "full", "none")
PASSIVE_SKILLS = ("Notice", "Knowledge")  # a passive check is a quick action, an active one half-round (check_cost)
# An opposed check between two combatants (``Contest``): each skill the book opposes with another's, and what it is
# opposed by, as the book names them (@32816 Bluff, @34212 Diplomacy, @34954 Forgery, @35149 Hacking, @35535
# Intimidate, @36596 Lockpicking, @38202 Notice ("lie" is Bluff), @38685 Perform, @40586 Stealth, @33411 Cast)
OPPOSED_BY: dict[str, tuple[str, ...]] = {
    "Intimidate": (RESOLVE,),
    "Bluff": ("Notice", "Bluff"),
    "Diplomacy": ("Diplomacy",),
    "Stealth": ("Notice",),
    "Notice": ("Stealth", "Forgery", "Bluff"),
    "Forgery": ("Notice",),
    "Hacking": ("Craft (Programming)",),
    "Lockpicking": ("Craft (Lock)",),
    PERFORM: (PERFORM,),
    CAST: (CAST, RESOLVE, ATHLETICS, *MELEE),
}
CONTEST_SKILLS = tuple(OPPOSED_BY)
OPPOSING_SKILLS = ("auto", *dict.fromkeys(s for opts in OPPOSED_BY.values() for s in opts))


@attrs.frozen(kw_only=True)
class Attack:
    actor: str
    targets: tuple[str, ...]
    skill: str = "Melee (Heavy)"
    result: str = "wound"
    stat: str = "auto"
    defense: str = "auto"
    defense_stat: str = "auto"
    improvised: bool = False
    cover: int = 0
    use_aim: str = "auto"
    limb_penalty: bool = True
    modifiers: tuple[Modifier, ...] = ()
    defense_modifiers: tuple[Modifier, ...] = ()
    auto_critical: bool = False
    defense_critical: bool = False


@attrs.frozen(kw_only=True)
class Aim:
    actor: str


@attrs.frozen(kw_only=True)
class Act:
    actor: str
    action: str
    note: str = ""


@attrs.frozen(kw_only=True)
class Sneak:
    """Stealth against the targets' Notice before an attack."""

    actor: str
    targets: tuple[str, ...]
    stat: str = "auto"
    modifiers: tuple[Modifier, ...] = ()
    auto_critical: bool = False


@attrs.frozen(kw_only=True)
class SkillCheck:
    actor: str
    skill: str
    dc: int
    stat: str = "auto"
    cost: str = "auto"
    use_aim: bool = False
    modifiers: tuple[Modifier, ...] = ()
    auto_critical: bool = False


@attrs.frozen(kw_only=True)
class Contest:
    """An opposed check between two combatants outside an attack: the actor's skill against the target's roll
    of the skill the book opposes it with (``opposing``: "auto" takes the target's best of those)."""

    actor: str
    target: str
    skill: str = "Intimidate"
    opposing: str = "auto"
    stat: str = "auto"
    target_stat: str = "auto"
    cost: str = "auto"
    modifiers: tuple[Modifier, ...] = ()
    target_modifiers: tuple[Modifier, ...] = ()
    auto_critical: bool = False


@attrs.frozen(kw_only=True)
class BreakGrapple:
    actor: str
    stat: str = "auto"
    modifiers: tuple[Modifier, ...] = ()
    auto_critical: bool = False


@attrs.frozen(kw_only=True)
class Negate:
    actor: str
    target: str
    stat: str = "auto"
    target_stat: str = "auto"
    modifiers: tuple[Modifier, ...] = ()
    auto_critical: bool = False


@attrs.frozen(kw_only=True)
class Resolve:
    actor: str
    stakes: str = "unconscious"
    stat: str = "wil"
    modifiers: tuple[Modifier, ...] = ()
    auto_critical: bool = False


@attrs.frozen(kw_only=True)
class ChooseDouble:
    """After a doubled (or tripled) attack: the second result, a second wound, or a limb."""

    actor: str
    target: str
    choice: str = "wound"
    limb: str = "arm"
    penalty: int = -2


@attrs.frozen(kw_only=True)
class Riposte:
    """Vicious Parry (disarm, trip, shove or grapple the attacker) or Spell Turning."""

    actor: str
    target: str
    result: str = "disarm"


@attrs.frozen(kw_only=True)
class SpendCinematic:
    actor: str
    use: str = "extra turn"
    check: str = ""  # a reroll: the failed check it rerolls, as the form lists it ("" : the latest)


def _stat(name: str = "stat", label: str = "Stat") -> Param:
    return Param(
        name=name,
        kind=CHOICE,
        choices=STAT_CHOICES,
        choice_labels=("auto", *(STAT_NAMES[s] for s in STATS)),
        default="auto",
        label=label,
        help="auto: the book's usual stat",
    )


def _mods(name: str = "modifiers", label: str = "Modifiers") -> Param:
    return Param(name=name, kind=MODIFIERS, label=label, required=False, help="labelled, like 'high ground +1'")


def _crit(name: str = "auto_critical", label: str = "Automatic critical (spend a cinematic)") -> Param:
    return Param(name=name, kind=BOOL, default=False, label=label)


def _roll_fields(*extra: Param) -> dict[str, Param]:
    """The fields every roll shares: stat, modifiers, automatic critical (and any given)."""
    fields = {"stat": _stat(), "modifiers": _mods(), "auto_critical": _crit()}
    fields.update({p.name: p for p in extra})
    return fields


def reroll_choices(state: FightState, cid: str) -> dict[str, tuple[str, ...]]:
    """The cinematic form's picker for ``cid``: its failed checks since its last turn, newest first (and the
    form starts on a reroll when there is any)."""
    c = state.find(cid)
    if c is None or c.data is None:
        return {}
    names = tuple(reversed(failed_names(state, c)))
    if not names:
        return {}
    return {"use": ("reroll", *(u for u in CINEMATIC_USES if u != "reroll")), "check": names}


def attack_defaults(state: FightState, actor: str) -> dict[str, str]:
    """Ruling: the attack form starts on the attacker's best-ranked attack skill (ties: the list's order, weapons
    before spells).

    Ruling: a spell is an attack only for a caster with its talent: Cast (Blast) ranks the caster's Cast (its
    "Cast (Blast)" sub-skill when the sheet has one) only with the Blast talent, Cast (Entangle) only with
    Entangle; without the talent the spell ranks 0, so a caster with Cast but no attack spell starts on its best
    weapon skill (the form started every caster on Cast (Blast), which the attack then refused).  Entangle's only
    result is grapple, so a form started on it starts on grapple too
    (test_form_defaults.py::test_a_caster_starts_on_a_spell_it_has_else_its_best_weapon_skill).
    """
    c = state.find(actor)
    if c is None or c.data is None:
        return {}
    d = data(c)
    spells = {BLAST_SKILL: BLAST, ENTANGLE_SKILL: ENTANGLE}

    def ranks(skill: str) -> int:
        if skill in spells:
            return (d.ranks(skill) or d.ranks(CAST)) if d.has(spells[skill]) else 0
        return d.ranks(skill)

    best = max(ATTACK_SKILLS, key=ranks)
    if ranks(best) <= 0:
        return {}
    return {"skill": best, "result": "grapple"} if best == ENTANGLE_SKILL else {"skill": best}


SPECS: tuple[CommandSpec, ...] = (
    spec(
        Attack,
        name="attack",
        in_fight=True,
        title="Attack",
        key="a",
        subject="targets",
        defaults=attack_defaults,
        labels={"actor": "Attacker", "improvised": "Improvised weapon (−2)", "limb_penalty": "Disabled limbs count"},
        fields=_roll_fields(
            Param(name="targets", kind=COMBATANTS, label="Target(s)", help="several only for a Mass Spell"),
            Param(name="skill", kind=CHOICE, choices=ATTACK_SKILLS, default="Melee (Heavy)", label="Skill"),
            Param(name="result", kind=CHOICE, choices=RESULTS, default="wound", label="Declared result"),
            Param(name="defense", kind=CHOICE, choices=DEFENSE_SKILLS, default="auto", label="Defense"),
            _stat("defense_stat", "Defense stat"),
            Param(
                name="cover", kind=INT, default=0, min=0, max=2, label="Target moving / in cover (shooting, archery)"
            ),
            Param(name="use_aim", kind=CHOICE, choices=("auto", "yes", "no"), default="auto", label="Use aim"),
            _mods("defense_modifiers", "Defense modifiers"),
            _crit("defense_critical", "Defender's automatic critical (cinematic)"),
        ),
        help="Attack vs defense, tie to the defender; the result is declared before the roll.",
    ),
    spec(
        Aim,
        name="aim",
        in_fight=True,
        title="Aim",
        key="i",
        labels={"actor": "Who"},
        help="Full-round: +PER (min +1) on the next ranged check, ×2 with Sniper on shooting, archery or throwing.",
    ),
    spec(
        Act,
        name="act",
        in_fight=True,
        title="Other action",
        key="m",
        labels={"actor": "Who"},
        fields={
            "action": Param(name="action", kind=CHOICE, choices=tuple(ACTIONS), default="move 20 ft", label="Action"),
            "note": Param(name="note", kind=STR, default="", required=False, label="Note"),
        },
        help="Move, stand up, draw or pick up a weapon, speak…",
    ),
    spec(
        Sneak,
        name="sneak",
        in_fight=True,
        title="Stealth before an attack",
        key="s",
        subject="targets",
        labels={"actor": "Who", "targets": "Against"},
        fields=_roll_fields(),
        help="Half-round: Stealth vs Notice; on success the target defends a weapon attack with armor only.",
    ),
    spec(
        SkillCheck,
        name="check",
        title="Skill check",
        key="k",
        labels={"actor": "Who"},
        fields=_roll_fields(
            Param(name="skill", kind=STR, default="Athletics", label="Skill"),
            Param(name="dc", kind=INT, default=7, label="DC"),
            Param(
                name="cost",
                kind=CHOICE,
                choices=CHECK_COSTS,
                default="auto",
                label="Takes",
                help="auto: on its own turn a passive check (Notice, Knowledge) is quick, an active one half-round, "
                "a casting full (half with Fast Caster); at any other moment, none",
            ),
            Param(
                name="use_aim",
                kind=BOOL,
                default=False,
                label="Use aim",
                help="shooting, archery and throwing checks always take it",
            ),
        ),
        help="2d6 + ranks + stat + item vs a DC.",
    ),
    spec(
        Contest,
        name="contest",
        title="Opposed check",
        key="o",
        subject="target",
        labels={"actor": "Who", "target": "Against"},
        fields=_roll_fields(
            Param(name="skill", kind=CHOICE, choices=CONTEST_SKILLS, default="Intimidate", label="Skill"),
            Param(
                name="opposing",
                kind=CHOICE,
                choices=OPPOSING_SKILLS,
                default="auto",
                label="Opposed by",
                help="auto: the target's best of the skills the book opposes it with (Intimidate: Resolve; "
                "Bluff: Notice or Bluff; Diplomacy: Diplomacy; Stealth: Notice…)",
            ),
            _stat("target_stat", "Their stat"),
            Param(
                name="cost",
                kind=CHOICE,
                choices=CHECK_COSTS,
                default="auto",
                label="Takes",
                help="auto: on its own turn a half-round action (a casting full, half with Fast Caster); "
                "at any other moment, none",
            ),
            _mods("target_modifiers", "Their modifiers"),
        ),
        help="Skill vs the target's opposing skill (Intimidate vs Resolve, Bluff vs Notice…), tie to the target; "
        "after Stealth, Intimidate or Diplomacy meets armor only (+Sneak Attack).",
    ),
    spec(
        BreakGrapple,
        name="break_grapple",
        in_fight=True,
        title="Break grapple",
        key="b",
        labels={"actor": "Who"},
        fields=_roll_fields(),
        help="Melee (Unarmed) against the grappler's Melee (Unarmed).",
    ),
    spec(
        Negate,
        name="negate",
        in_fight=True,
        title="Negate",
        key="g",  # (neGate; n is the core's next turn: it had no key)
        subject="target",
        labels={"actor": "Caster", "target": "Caster to negate"},
        fields=_roll_fields(_stat("target_stat", "Their stat")),
        help="Full round (half with Fast Caster): opposed Cast; the target casts nothing until its next turn ends.",
    ),
    spec(
        Resolve,
        name="resolve",
        title="Resolve check",
        key="r",
        actor=None,
        subject="actor",
        labels={"actor": "Who"},
        fields=_roll_fields(
            Param(name="stakes", kind=CHOICE, choices=("unconscious", "death"), default="unconscious", label="Against"),
            Param(
                name="stat",
                kind=CHOICE,
                choices=("wil", "tou"),
                choice_labels=(STAT_NAMES["wil"], STAT_NAMES["tou"]),
                default="wil",
                label="Stat",
            ),
        ),
        help="The resolve check a wound threshold, a knock-out or a tripled attack calls for.",
    ),
    spec(
        ChooseDouble,
        name="double_result",
        title="Doubled or tripled: extra result",  # (a tripled one was titled "Doubled attack")
        key="d",
        subject="target",
        labels={"actor": "Attacker", "target": "Defender", "limb": "Limb"},
        fields={
            "choice": Param(
                name="choice", kind=CHOICE, choices=DOUBLE_CHOICES, default="wound", label="Second result or limb"
            ),
            "penalty": Param(name="penalty", kind=INT, default=-2, min=-3, max=-2, label="Limb penalty (−2 or −3)"),
        },
        help=(
            "The declared result has landed (a knock-out: its resolve check is raised): a second result (a second "
            "wound), or a disabled limb with its wound."
        ),
    ),
    spec(
        Riposte,
        name="riposte",
        title="Vicious Parry / Spell Turning",
        key="v",
        actor=None,
        subject="actor",
        labels={"actor": "Defender", "target": "Attacker"},
        fields={"result": Param(name="result", kind=CHOICE, choices=RESULTS, default="disarm", label="Result")},
        help="When a defense doubles the attack: Vicious Parry or Spell Turning.",
    ),
    spec(
        SpendCinematic,
        name="cinematic",
        title="Spend a cinematic",
        key="c",
        actor=None,
        subject="actor",
        labels={"actor": "Who"},
        fields={
            "use": Param(name="use", kind=CHOICE, choices=CINEMATIC_USES, default="extra turn", label="For"),
            "check": Param(
                name="check",
                kind=CHOICE,
                required=False,
                default="",
                label="Reroll",
                help="a reroll: which of the failed checks since its last turn (empty: the latest)",
            ),
        },
        choices=reroll_choices,
        help="Extra turn, reroll a failed check (a lost defense too), ignore a failed save against death.",
    ),
)
