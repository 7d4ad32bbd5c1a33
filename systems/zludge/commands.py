"""Zludge commands (what the GM asks for) and their forms, derived from the commands' fields."""

from __future__ import annotations

import re

import attrs

from tracker.commands import BOOL, CHOICE, COMBATANT, COMBATANTS, INT, MODIFIERS, CommandSpec, Modifier, Param
from tracker.kit import spec
from tracker.model import FightState

from .model import ATTACK_SKILLS, LOCATIONS, PHYSICAL_SKILLS, WOUND_STATES, ZludgeData

ASPECT_USES = ("+1", "reroll")
SKILL_HELP = "as the sheet names it; 'Medical (First Aid)' for a specialization; one not on the sheet: untrained -1"
# quick damage and healing: a damage level, named by the box it checks
LEVEL_CHOICES = tuple(f"{n} {name}" for n, name in enumerate(WOUND_STATES))
# quick damage only: a weapon level, each target's armor taken off as an attack's damage (l.93, l.106)
WEAPONS = ("unarmed/rocks", "knife", "sword/pistol", "chainsaw/machine gun", "explosives")
ARMOR_CHOICES = tuple(f"weapon {n} ({what}), armor counts" for n, what in enumerate(WEAPONS))


@attrs.frozen(kw_only=True)
class Attack:
    actor: str
    target: str
    skill: str = "weapon"  # weapon: the sheet's weapon skill
    specialty: str = ""
    weapon_level: int | None = None  # None: the sheet's weapon (an Unarmed attack: 0)
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
    gm_allows: bool = False  # Incapacitated or Exhausted: the GM allows this one (−3)


@attrs.frozen(kw_only=True)
class InvokeAfter:
    """An aspect or a plot point spent after seeing the roll just made (attack, defense or skill roll)."""

    actor: str
    aspect: str = ""
    aspect_use: str = "+1"
    plot_points: int = 0


@attrs.frozen(kw_only=True)
class AmbushInitiative:
    """Ruling (g2 audit F2): the form's Ambushers start with no one ticked, the GM's selected combatant (or whose turn
    it is) not presumed: it ticked the selected PC, and a GM who ticked the real ambusher recorded an ambush by
    both, the PC's own ally then rolling as ambushed. So the field is no subject of the form (the core starts a
    required combatants field on the selection) and is optional there; an ambush naming no one is refused by the
    rules ("name the ambushers"). The log names the ambushed too (``AmbushDeclared``).
    Test: test_round4_table.py::test_the_ambush_form_starts_with_no_ambusher_ticked."""

    ambushers: tuple[str, ...] = ()
    after_surprise: bool = False  # the surprise action first; the ambush rolls as round 1 begins (l.102)


# a skill roll's Physical: from its skill (model.is_physical), or the GM's yes or no
PHYSICAL_CHOICES = ("by the skill", "yes", "no")


def physical_choice(value: object) -> bool | None:
    """A skill roll's Physical as the form gives it: "yes" True, "no" False, "by the skill" (or None) None."""
    if value is None or isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    return True if text in ("yes", "y", "true") else False if text in ("no", "n", "false") else None


def physical_param(contest: bool = False) -> Param:
    """The form's Physical ("by the skill", yes, no), for a skill roll and a contest: its help names the skills
    ``model.is_physical`` reads as the body's (``model.PHYSICAL_SKILLS``, the one list)."""
    by = "by the skill (each side by its own)" if contest else "by the skill"
    both = "; yes or no: both sides" if contest else ""
    return Param(
        name="physical",
        kind=CHOICE,
        label="Physical",
        choices=PHYSICAL_CHOICES,
        default=PHYSICAL_CHOICES[0],
        help=f"wound and clip penalties weigh on a physical roll; {by}: yes for {', '.join(PHYSICAL_SKILLS)}; no for "
        f"Alertness, Medical, Survival and any other{both}",
    )


@attrs.frozen(kw_only=True)
class RollSkill:
    actor: str
    skill: str
    specialty: str = ""
    difficulty: int = 0
    physical: bool | None = attrs.field(default=None, converter=physical_choice)  # None: by the skill
    modifiers: tuple[Modifier, ...] = ()
    aspect: str = ""
    aspect_use: str = "+1"
    plot_points: int = 0
    as_action: bool = True
    take_0: bool = False  # "Take 0" (l.18): a result of 0 instead of rolling, when the GM allows
    gm_allows: bool = False  # Incapacitated or Exhausted: the GM allows this physical one (−3)


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
    gm_allows: bool = False  # Incapacitated or Exhausted: the GM allows this physical one


# ---------------------------------------------------------------------------
# forms


def _gm_allows() -> dict[str, Param]:
    return {
        "gm_allows": Param(
            name="gm_allows",
            kind=BOOL,
            label="GM allows it though prone",
            default=False,
            help="Incapacitated or Exhausted: most physical actions are not possible; one the fiction permits "
            "(a desperate stab, crawling off) takes -3",
        )
    }


def _aspect_params(prefix: str = "", who: str = "") -> dict[str, Param]:
    return {
        f"{prefix}aspect": Param(
            name=f"{prefix}aspect",
            label=f"{who}Invoke aspect",
            default="",
            required=False,
            help="an aspect not yet checked off today (empty: none)",
        ),
        f"{prefix}aspect_use": Param(
            name=f"{prefix}aspect_use", kind=CHOICE, label=f"{who}Aspect gives", choices=ASPECT_USES, default="+1"
        ),
        f"{prefix}plot_points": Param(
            name=f"{prefix}plot_points",
            kind=INT,
            label=f"{who}Plot points",
            default=0,
            min=0,
            help="+1 for one plot point; at most one per roll",
        ),
    }


def _mods(name: str = "modifiers", label: str = "Situational modifiers") -> dict[str, Param]:
    return {
        name: Param(
            name=name,
            kind=MODIFIERS,
            label=label,
            required=False,
            help="±1 each, with a label: 'higher ground +1, off hand -1'",
        )
    }


def _level(name: str, label: str, help: str = "") -> dict[str, Param]:
    return {name: Param(name=name, kind=INT, label=label, default=0, min=0, max=4, help=help)}


def _note(label: str = "Note") -> dict[str, Param]:
    return {"note": Param(name="note", label=label, default="", required=False)}


def _text(name: str, label: str, help: str = "") -> dict[str, Param]:
    return {name: Param(name=name, label=label, default="", required=False, help=help)}


def harm_params(heal: bool) -> tuple[Param, ...]:
    """Quick damage: a damage level (and fatigue instead of a wound); quick healing: the level of the box cleared."""
    if heal:
        return (
            Param(
                name="amount",
                kind=CHOICE,
                label="Clear one wound box at level",
                choices=LEVEL_CHOICES,
                default=LEVEL_CHOICES[0],
                help="outside a running fight only: Zludge wounds heal over days and weeks",
            ),
        )
    return (
        Param(
            name="amount",
            kind=CHOICE,
            label="Damage level",
            choices=(*LEVEL_CHOICES, *ARMOR_CHOICES),
            default=LEVEL_CHOICES[0],
            help="a level (0 Scratched .. 4 Comatose): the damage each target takes, armor NOT counted; "
            "'weapon N, armor counts': each target's armor is taken off as in an attack (below 0: no damage). "
            "Checks a box at that level, or the next free one up; none left above Comatose: dead",
        ),
        Param(
            name="temporary",
            kind=BOOL,
            label="Fatigue (nonlethal, P)",
            default=False,
            help="marks physical fatigue at that level instead of a wound",
        ),
    )


def attack_defaults(state: FightState, cid: str) -> dict[str, str]:
    """Ruling: the attacker's specialization named for its weapon applies by default ("Ranged 2 +Pistols" firing a
    pistol rolls Pistols): left to the GM to type, a blank field quietly rolled the skill alone. The specialization
    must name the weapon in whole words ("Pistols" a "holdout pistol", "Machine Guns" a "machine gun"): "Bows" is not
    taken for a crossbow, nor "Guns" for a shotgun."""
    c = state.find(cid)
    d = c.data if c is not None else None
    if not isinstance(d, ZludgeData):
        return {}
    skill = d.skill(d.weapon_skill)
    weapon = d.weapon.lower()
    for name in skill.specs if skill is not None else ():
        stem = name.lower().rstrip("s")
        # whole words only: "Bows" is no crossbow, "Guns" no shotgun
        if stem and re.search(rf"\b{re.escape(stem)}s?\b", weapon):
            return {"specialty": name}
    return {}


def skill_defaults(state: FightState, cid: str) -> dict[str, bool]:
    """Ruling (checks outside the turn, third pass): a skill roll's form starts as the turn's action
    only for the combatant whose turn it is; for anyone else, while the fight runs, it starts unticked (a
    reaction or a passive check, which costs no action and is rolled at any moment), where it once started ticked
    and was refused. Test: test_skill_names.py::test_the_skill_form_off_turn_starts_as_no_action."""
    if not state.started or state.ended:
        return {}
    return {"as_action": state.current == cid}


def specs() -> tuple[CommandSpec, ...]:
    return (
        spec(
            Attack,
            name="attack",
            in_fight=True,
            title="Attack",
            key="a",
            subject="target",
            labels={"actor": "Attacker", "target": "Defender"},
            defaults=attack_defaults,
            fields={
                "skill": Param(
                    name="skill",
                    kind=CHOICE,
                    label="Attack skill",
                    choices=("weapon", *ATTACK_SKILLS),
                    default="weapon",
                    help="Unarmed is a 0-level attack whatever the attacker carries",
                ),
                **_text("specialty", "Specialization that applies", "empty: none; starts on one named for the weapon"),
                "weapon_level": Param(
                    name="weapon_level",
                    kind=INT,
                    label="Weapon damage level",
                    required=False,
                    help="empty: the attacker's weapon (0 unarmed .. 4 explosives)",
                ),
                **_mods(),
                "called_shot": Param(
                    name="called_shot",
                    kind=CHOICE,
                    label="Called shot (-2)",
                    choices=("none", *LOCATIONS),
                    default="none",
                ),
                "roll_location": Param(
                    name="roll_location",
                    kind=BOOL,
                    label="Roll hit location (1d6)",
                    default=False,
                    help="always rolled against armor that does not cover every location",
                ),
                **_aspect_params(),
                "defense": Param(
                    name="defense",
                    kind=CHOICE,
                    label="Defense skill",
                    choices=("auto", "Acrobatics", "Melee", "Unarmed"),
                    default="auto",
                    help="auto: Acrobatics, or the best of Acrobatics/Unarmed/Melee against close attacks",
                ),
                **_text("defense_specialty", "Defense specialization"),
                **_mods("defense_modifiers", "Defense modifiers"),
                **_aspect_params("defense_", "Defender: "),
                "target_moving": Param(
                    name="target_moving",
                    kind=BOOL,
                    label="Flat-footed target is moving",
                    default=False,
                    help="fixed defense 0 moving, -1 stationary",
                ),
                "armor_level": Param(
                    name="armor_level",
                    kind=INT,
                    label="Armor level",
                    required=False,
                    help="empty: the defender's armor",
                ),
                **_gm_allows(),
            },
            help="Attack roll against the defender's defense roll (flat-footed: fixed defense), then damage.",
        ),
        spec(
            InvokeAfter,
            name="invoke",
            title="Aspect or plot point after the roll",
            key="i",
            labels={"actor": "Who (attacker, defender, the one who rolled or a side of the contest)"},
            fields=_aspect_params(),
            help="Right after a roll, before anything else: invoke an aspect (+1 or reroll) or spend a plot "
            "point (+1) on one's own attack, defense, skill roll or side of a contest; the outcome and damage "
            "are worked out again.",
        ),
        spec(
            AmbushInitiative,
            name="ambush_initiative",
            title="Ambush initiative",
            key="b",  # (A is the core's add: it had no key)
            actor=None,
            subject=None,  # no one presumed (ruling in AmbushInitiative)
            focus="ambushers",  # the cursor on the list to tick (nothing is ticked)
            fields={
                "ambushers": Param(
                    name="ambushers",
                    kind=COMBATANTS,
                    label="Ambushers",
                    required=False,
                    help="tick each one hiding or sneaking (Stealth), one at least; everyone else is ambushed",
                ),
                "after_surprise": Param(
                    name="after_surprise",
                    kind=BOOL,
                    label="Roll after the surprise action",
                    default=False,
                    help="the book's order: unseen ambushers act first (start with a surprise round), the ambush "
                    "initiative is rolled as round 1 begins, with the wounds that action left",
                ),
            },
            help="Tick the ambushers (no one is presumed): they roll Stealth, everyone else (the ambushed) the "
            "average of Reflexes and Alertness (round up); "
            "start the fight with a surprise round for unseen ambushers (their surprise action may come before "
            "the rolls: tick 'Roll after the surprise action').",
        ),
        spec(
            RollSkill,
            name="roll_skill",
            title="Skill roll",
            key="r",
            labels={"actor": "Who", "skill": "Skill", "as_action": "Is the turn's action"},
            defaults=skill_defaults,
            fields={
                "skill": Param(name="skill", label="Skill", help=SKILL_HELP),
                **_text("specialty", "Specialization that applies"),
                "difficulty": Param(name="difficulty", kind=INT, label="Difficulty", default=0, min=-4, max=2),
                "physical": physical_param(),
                **_mods(),
                **_aspect_params(),
                "take_0": Param(
                    name="take_0",
                    kind=BOOL,
                    label="Take 0 (no roll)",
                    default=False,
                    help="not under pressure: a result of 0 instead of rolling (never a combat roll)",
                ),
                **_gm_allows(),
            },
            help="A test: 4dF + skill + difficulty; 0 or more succeeds. Bulky armor's penalty falls on Athletics "
            "and Acrobatics. A failed physical check may reopen treated wounds.",
        ),
        spec(
            FirstAid,
            name="first_aid",
            title="First aid",
            key="f",
            subject="target",
            labels={"actor": "Medic"},
            fields={
                "target": Param(name="target", kind=COMBATANT, label="Patient", side="ally"),
                "difficulty": Param(name="difficulty", kind=INT, label="Difficulty", default=0, min=-4, max=2),
                **_mods(),
                **_aspect_params(),
            },
            help="Medical(First Aid) roll: success makes each wound impair one level less (boxes stay). A few "
            "minutes' work with bandages: after the fight (or before it), not while it runs.",
        ),
        spec(
            ReopenWounds,
            name="reopen_wounds",
            title="Reopen wounds",
            actor=None,
            subject="target",
            labels={"target": "Who"},
            fields=_note(),
            help="A failed physical check reopened treated wounds: full penalties again.",
        ),
        spec(
            MarkWound,
            name="mark_wound",
            title="Mark wound",
            key="w",
            actor=None,
            subject="target",
            labels={"target": "Who"},
            fields={
                **_level("level", "Damage level", "0 Scratched, 1 Hurt, 2 Very Hurt, 3 Incapacitated, 4 Comatose"),
                **_note("Cause"),
            },
            help="GM: a wound from a fall, fire, a trap...",
        ),
        spec(
            MarkFatigue,
            name="mark_fatigue",
            title="Mark fatigue",
            key="t",
            actor=None,
            subject="target",
            labels={"target": "Who", "physical": "Physical (P)"},
            fields={
                **_level("level", "Fatigue level", "0 Winded, 1 Tired, 2 Very Tired, 3 Exhausted, 4 Unconscious"),
                **_note("Cause"),
            },
            help="GM: fatigue from exertion (P), strain, drink...",
        ),
        spec(
            ClearBox,
            name="clear_box",
            title="Clear a box",
            actor=None,
            subject="target",
            labels={"target": "Who"},
            fields={
                "track": Param(name="track", kind=CHOICE, choices=("wounds", "fatigue"), default="wounds"),
                **_level("level", "Level"),
                **_note(),
            },
            help="GM: healing or rest clears a box.",
        ),
        spec(
            RefreshAspects,
            name="refresh_aspects",
            title="New day: refresh aspects",
            actor=None,
            labels={"ids": "Who (empty: everyone)"},
            help="Aspects refresh once per game-world day.",
        ),
        spec(
            TakeAction,
            name="act",
            in_fight=True,
            title="Other action",
            key="o",
            labels={"actor": "Who", "text": "Action", "physical": "Physical", "gm_allows": "GM allows it though prone"},
            help="Move, reload, aim, shout...: the turn's one action.",
        ),
    )
