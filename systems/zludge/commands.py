"""Zludge commands (what the GM asks for) and their form declarations."""

from __future__ import annotations

import attrs

from tracker.commands import BOOL, CHOICE, COMBATANT, COMBATANTS, INT, MODIFIERS, STR, CommandSpec, Modifier, Param

from .sheet import ATTACK_SKILLS, LOCATIONS

ASPECT_USES = ("+1", "reroll")


@attrs.frozen(kw_only=True)
class Attack:
    actor: str
    target: str
    skill: str = "weapon"  # weapon: the sheet's weapon skill
    specialty: str = ""
    weapon_level: int | None = None  # None: the sheet's weapon
    modifiers: tuple[Modifier, ...] = ()
    called_shot: str = "none"
    roll_location: bool = False
    aspect: str = ""
    aspect_use: str = "+1"
    plot_points: int = 0
    defense: str = "auto"
    defense_specialty: str = ""
    defense_modifiers: tuple[Modifier, ...] = ()
    defense_aspect: str = ""
    defense_aspect_use: str = "+1"
    defense_plot_points: int = 0
    target_moving: bool = False
    armor_level: int | None = None  # None: the target's armor


@attrs.frozen(kw_only=True)
class InvokeAfter:
    """An aspect or a plot point spent after seeing the roll just made (attack, defense or skill roll)."""

    actor: str
    aspect: str = ""
    aspect_use: str = "+1"
    plot_points: int = 0


@attrs.frozen(kw_only=True)
class AmbushInitiative:
    ambushers: tuple[str, ...]


@attrs.frozen(kw_only=True)
class RollSkill:
    actor: str
    skill: str
    specialty: str = ""
    difficulty: int = 0
    physical: bool = True
    modifiers: tuple[Modifier, ...] = ()
    aspect: str = ""
    aspect_use: str = "+1"
    plot_points: int = 0
    as_action: bool = True


@attrs.frozen(kw_only=True)
class FirstAid:
    actor: str
    target: str
    difficulty: int = 0
    modifiers: tuple[Modifier, ...] = ()
    aspect: str = ""
    aspect_use: str = "+1"
    plot_points: int = 0


@attrs.frozen(kw_only=True)
class ReopenWounds:
    target: str
    note: str = ""


@attrs.frozen(kw_only=True)
class MarkWound:
    target: str
    level: int
    note: str = ""


@attrs.frozen(kw_only=True)
class MarkFatigue:
    target: str
    level: int = 0
    physical: bool = True
    note: str = ""


@attrs.frozen(kw_only=True)
class ClearBox:
    target: str
    track: str = "wounds"
    level: int = 0
    note: str = ""


@attrs.frozen(kw_only=True)
class RefreshAspects:
    ids: tuple[str, ...] = ()


@attrs.frozen(kw_only=True)
class TakeAction:
    actor: str
    text: str
    physical: bool = True


def _aspect_params(prefix: str = "", who: str = "") -> tuple[Param, ...]:
    return (
        Param(
            name=f"{prefix}aspect",
            label=f"{who}Invoke aspect",
            default="",
            required=False,
            help="an aspect not yet checked off today (empty: none)",
        ),
        Param(name=f"{prefix}aspect_use", kind=CHOICE, label=f"{who}Aspect gives", choices=ASPECT_USES, default="+1"),
        Param(
            name=f"{prefix}plot_points",
            kind=INT,
            label=f"{who}Plot points",
            default=0,
            min=0,
            help="+1 for one plot point; at most one per roll",
        ),
    )


def _mods(name: str = "modifiers", label: str = "Situational modifiers") -> Param:
    return Param(
        name=name,
        kind=MODIFIERS,
        label=label,
        required=False,
        help="±1 each, with a label: 'higher ground +1, off hand -1'",
    )


def specs() -> tuple[CommandSpec, ...]:
    return (
        CommandSpec(
            name="attack",
            title="Attack",
            key="a",
            build=Attack,
            params=(
                Param(name="actor", kind=COMBATANT, label="Attacker"),
                Param(name="target", kind=COMBATANT, label="Defender"),
                Param(
                    name="skill",
                    kind=CHOICE,
                    label="Attack skill",
                    choices=("weapon", *ATTACK_SKILLS),
                    default="weapon",
                ),
                Param(name="specialty", label="Specialization that applies", default="", required=False),
                Param(
                    name="weapon_level",
                    kind=INT,
                    label="Weapon damage level",
                    required=False,
                    help="empty: the attacker's weapon (0 unarmed .. 4 explosives)",
                ),
                _mods(),
                Param(
                    name="called_shot",
                    kind=CHOICE,
                    label="Called shot (-2)",
                    choices=("none", *LOCATIONS),
                    default="none",
                ),
                Param(name="roll_location", kind=BOOL, label="Roll hit location (1d6)", default=False),
                *_aspect_params(),
                Param(
                    name="defense",
                    kind=CHOICE,
                    label="Defense skill",
                    choices=("auto", "Acrobatics", "Melee", "Unarmed"),
                    default="auto",
                    help="auto: Acrobatics, or the best of Acrobatics/Unarmed/Melee against close attacks",
                ),
                Param(name="defense_specialty", label="Defense specialization", default="", required=False),
                _mods("defense_modifiers", "Defense modifiers"),
                *_aspect_params("defense_", "Defender: "),
                Param(
                    name="target_moving",
                    kind=BOOL,
                    label="Flat-footed target is moving",
                    default=False,
                    help="fixed defense 0 moving, -1 stationary",
                ),
                Param(
                    name="armor_level",
                    kind=INT,
                    label="Armor level",
                    required=False,
                    help="empty: the defender's armor",
                ),
            ),
            help="Attack roll against the defender's defense roll (flat-footed: fixed defense), then damage.",
        ),
        CommandSpec(
            name="invoke",
            title="Aspect or plot point after the roll",
            key="i",
            build=InvokeAfter,
            params=(
                Param(name="actor", kind=COMBATANT, label="Who (attacker, defender or the one who rolled)"),
                *_aspect_params(),
            ),
            help="Right after a roll, before anything else: invoke an aspect (+1 or reroll) or spend a plot "
            "point (+1) on one's own attack, defense or skill roll; the outcome and damage are worked out again.",
        ),
        CommandSpec(
            name="ambush_initiative",
            title="Ambush initiative",
            key="A",
            build=lambda ambushers: AmbushInitiative(ambushers=tuple(ambushers)),
            params=(Param(name="ambushers", kind=COMBATANTS, label="Ambushers"),),
            actor=None,
            help="Ambushers roll Stealth, victims the average of Reflexes and Alertness (round up); "
            "start the fight with a surprise round for unseen ambushers.",
        ),
        CommandSpec(
            name="roll_skill",
            title="Skill roll",
            key="r",
            build=RollSkill,
            params=(
                Param(name="actor", kind=COMBATANT, label="Who"),
                Param(name="skill", label="Skill"),
                Param(name="specialty", label="Specialization that applies", default="", required=False),
                Param(name="difficulty", kind=INT, label="Difficulty", default=0, min=-4, max=2),
                Param(name="physical", kind=BOOL, label="Physical", default=True),
                _mods(),
                *_aspect_params(),
                Param(name="as_action", kind=BOOL, label="Is the turn's action", default=True),
            ),
            help="A test: 4dF + skill + difficulty; 0 or more succeeds. A failed physical check may reopen treated wounds.",
        ),
        CommandSpec(
            name="first_aid",
            title="First aid",
            key="f",
            build=FirstAid,
            params=(
                Param(name="actor", kind=COMBATANT, label="Medic"),
                Param(name="target", kind=COMBATANT, label="Patient"),
                Param(name="difficulty", kind=INT, label="Difficulty", default=0, min=-4, max=2),
                _mods(),
                *_aspect_params(),
            ),
            help="Medical(First Aid) roll: success makes each wound impair one level less (boxes stay).",
        ),
        CommandSpec(
            name="reopen_wounds",
            title="Reopen wounds",
            build=ReopenWounds,
            params=(Param(name="target", kind=COMBATANT, label="Who"), Param(name="note", default="", required=False)),
            actor="target",
            help="A failed physical check reopened treated wounds: full penalties again.",
        ),
        CommandSpec(
            name="mark_wound",
            title="Mark wound",
            key="w",
            build=MarkWound,
            params=(
                Param(name="target", kind=COMBATANT, label="Who"),
                Param(name="level", kind=INT, label="Damage level", default=0, min=0, max=4),
                Param(name="note", label="Cause", default="", required=False),
            ),
            actor="target",
            help="GM: a wound from a fall, fire, a trap...",
        ),
        CommandSpec(
            name="mark_fatigue",
            title="Mark fatigue",
            key="t",
            build=MarkFatigue,
            params=(
                Param(name="target", kind=COMBATANT, label="Who"),
                Param(name="level", kind=INT, label="Fatigue level", default=0, min=0, max=4),
                Param(name="physical", kind=BOOL, label="Physical (P)", default=True),
                Param(name="note", label="Cause", default="", required=False),
            ),
            actor="target",
            help="GM: fatigue from exertion (P), strain, drink...",
        ),
        CommandSpec(
            name="clear_box",
            title="Clear a box",
            build=ClearBox,
            params=(
                Param(name="target", kind=COMBATANT, label="Who"),
                Param(name="track", kind=CHOICE, choices=("wounds", "fatigue"), default="wounds"),
                Param(name="level", kind=INT, label="Level", default=0, min=0, max=4),
                Param(name="note", default="", required=False),
            ),
            actor="target",
            help="GM: healing or rest clears a box.",
        ),
        CommandSpec(
            name="refresh_aspects",
            title="New day: refresh aspects",
            build=lambda ids=(): RefreshAspects(ids=tuple(ids)),
            params=(Param(name="ids", kind=COMBATANTS, label="Who (empty: everyone)", required=False),),
            actor=None,
            help="Aspects refresh once per game-world day.",
        ),
        CommandSpec(
            name="act",
            title="Other action",
            key="o",
            build=TakeAction,
            params=(
                Param(name="actor", kind=COMBATANT, label="Who"),
                Param(name="text", kind=STR, label="Action"),
                Param(name="physical", kind=BOOL, label="Physical", default=True),
            ),
            help="Move, reload, aim, shout...: the turn's one action.",
        ),
    )
