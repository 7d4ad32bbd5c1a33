"""The 2d6 Gamma commands (verbs) and the forms the app builds for them."""

from __future__ import annotations

import attrs

from systems.twod6.sheet import ARCHERY, ATHLETICS, MELEE, PERFORM, RESOLVE, SHOOTING, STATS, THROWING
from tracker.commands import BOOL, CHOICE, COMBATANT, COMBATANTS, INT, MODIFIERS, STR, CommandSpec, Modifier, Param
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
    cost: str = "half"
    use_aim: bool = False
    modifiers: tuple[Modifier, ...] = ()
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


def _actor(label: str = "Who") -> Param:
    return Param(name="actor", kind=COMBATANT, label=label)


def _stat(name: str = "stat", label: str = "Stat") -> Param:
    return Param(
        name=name, kind=CHOICE, choices=STAT_CHOICES, default="auto", label=label, help="auto: the book's usual stat"
    )


def _mods(name: str = "modifiers", label: str = "Modifiers") -> Param:
    return Param(name=name, kind=MODIFIERS, label=label, required=False, help="labelled, like 'high ground +1'")


def _crit(name: str = "auto_critical", label: str = "Automatic critical (spend a cinematic)") -> Param:
    return Param(name=name, kind=BOOL, default=False, label=label)


def attack_defaults(state: FightState, actor: str) -> dict[str, str]:
    """Ruling: the attack form starts on the attacker's best-ranked attack skill (ties: the list's order)."""
    c = state.find(actor)
    if c is None or c.data is None:
        return {}
    best = max(ATTACK_SKILLS, key=lambda skill: c.data.ranks(skill))
    return {"skill": best} if c.data.ranks(best) > 0 else {}


SPECS = (
    CommandSpec(
        name="attack",
        title="Attack",
        key="a",
        build=Attack,
        defaults=attack_defaults,
        params=(
            _actor("Attacker"),
            Param(name="targets", kind=COMBATANTS, label="Target(s)", help="several only for a Mass Spell"),
            Param(name="skill", kind=CHOICE, choices=ATTACK_SKILLS, default="Melee (Heavy)", label="Skill"),
            Param(name="result", kind=CHOICE, choices=RESULTS, default="wound", label="Declared result"),
            _stat(),
            Param(name="defense", kind=CHOICE, choices=DEFENSE_SKILLS, default="auto", label="Defense"),
            _stat("defense_stat", "Defense stat"),
            Param(name="improvised", kind=BOOL, default=False, label="Improvised weapon (−2)"),
            Param(
                name="cover", kind=INT, default=0, min=0, max=2, label="Target moving / in cover (shooting, archery)"
            ),
            Param(name="use_aim", kind=CHOICE, choices=("auto", "yes", "no"), default="auto", label="Use aim"),
            Param(name="limb_penalty", kind=BOOL, default=True, label="Disabled limbs count"),
            _mods(),
            _mods("defense_modifiers", "Defense modifiers"),
            _crit(),
            _crit("defense_critical", "Defender's automatic critical (cinematic)"),
        ),
        help="Attack vs defense, tie to the defender; the result is declared before the roll.",
    ),
    CommandSpec(
        name="aim",
        title="Aim",
        key="i",
        build=Aim,
        params=(_actor(),),
        help="Full-round: +PER (min +1, ×2 Sniper) on the next ranged check.",
    ),
    CommandSpec(
        name="act",
        title="Other action",
        key="m",
        build=Act,
        params=(
            _actor(),
            Param(name="action", kind=CHOICE, choices=tuple(ACTIONS), default="move 20 ft", label="Action"),
            Param(name="note", kind=STR, default="", required=False, label="Note"),
        ),
        help="Move, stand up, draw or pick up a weapon, speak…",
    ),
    CommandSpec(
        name="sneak",
        title="Stealth before an attack",
        key="s",
        build=Sneak,
        params=(
            _actor(),
            Param(name="targets", kind=COMBATANTS, label="Against"),
            _stat(),
            _mods(),
            _crit(),
        ),
        help="Half-round: Stealth vs Notice; on success the target defends with armor only (Sneak Attack +1).",
    ),
    CommandSpec(
        name="check",
        title="Skill check",
        key="k",
        build=SkillCheck,
        params=(
            _actor(),
            Param(name="skill", kind=STR, default="Athletics", label="Skill"),
            Param(name="dc", kind=INT, default=7, label="DC"),
            _stat(),
            Param(name="cost", kind=CHOICE, choices=("quick", "half", "full", "none"), default="half", label="Takes"),
            Param(name="use_aim", kind=BOOL, default=False, label="Use aim"),
            _mods(),
            _crit(),
        ),
        help="2d6 + ranks + stat + item vs a DC.",
    ),
    CommandSpec(
        name="break_grapple",
        title="Break grapple",
        key="b",
        build=BreakGrapple,
        params=(_actor(), _stat(), _mods(), _crit()),
        help="Melee (Unarmed) against the grappler's Melee (Unarmed).",
    ),
    CommandSpec(
        name="negate",
        title="Negate",
        key="n",
        build=Negate,
        params=(
            _actor("Caster"),
            Param(name="target", kind=COMBATANT, label="Caster to negate"),
            _stat(),
            _stat("target_stat", "Their stat"),
            _mods(),
            _crit(),
        ),
        help="Full round (half with Fast Caster): opposed Cast; the target casts nothing until its next turn ends.",
    ),
    CommandSpec(
        name="resolve",
        title="Resolve check",
        key="r",
        build=Resolve,
        params=(
            _actor(),
            Param(name="stakes", kind=CHOICE, choices=("unconscious", "death"), default="unconscious", label="Against"),
            Param(name="stat", kind=CHOICE, choices=("wil", "tou"), default="wil", label="Stat"),
            _mods(),
            _crit(),
        ),
        help="The resolve check a wound threshold, a knock-out or a tripled attack calls for.",
    ),
    CommandSpec(
        name="double_result",
        title="Doubled attack: extra result",
        key="d",
        build=lambda penalty="-2", **kw: ChooseDouble(penalty=int(penalty), **kw),
        params=(
            _actor("Attacker"),
            Param(name="target", kind=COMBATANT, label="Defender"),
            Param(name="choice", kind=CHOICE, choices=DOUBLE_CHOICES, default="wound", label="Second result or limb"),
            Param(name="limb", kind=STR, default="arm", label="Limb"),
            Param(name="penalty", kind=CHOICE, choices=("-2", "-3"), default="-2", label="Limb penalty"),
        ),
        help="A second result (a second wound), or instead a disabled limb and one wound.",
    ),
    CommandSpec(
        name="riposte",
        title="Vicious Parry / Spell Turning",
        key="v",
        build=Riposte,
        params=(
            _actor("Defender"),
            Param(name="target", kind=COMBATANT, label="Attacker"),
            Param(name="result", kind=CHOICE, choices=RESULTS, default="disarm", label="Result"),
        ),
        help="When a defense doubles the attack: Vicious Parry or Spell Turning.",
    ),
    CommandSpec(
        name="cinematic",
        title="Spend a cinematic",
        key="c",
        build=SpendCinematic,
        params=(
            _actor(),
            Param(name="use", kind=CHOICE, choices=CINEMATIC_USES, default="extra turn", label="For"),
        ),
        help="Extra turn, reroll a failed check, ignore a failed save against death.",
    ),
)
