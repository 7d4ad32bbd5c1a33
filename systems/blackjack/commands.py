"""Blackjack commands (verbs) and the forms the app builds for them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from tracker.commands import BOOL, CHOICE, COMBATANT, COMBATANTS, INT, MODIFIERS, CommandSpec, Modifier, Param

RANGES = ("auto", "close", "nearby", "far")
IMPACTS = ("none", "advantage", "disadvantage")
LEVEL_CHOICES = ("default", "lesser", "moderate", "severe", "grievous", "fatal")
RISKS = ("auto", "attacker", "target")
STAT_CHOICES = ("ACC", "BODY", "CTRL")
MOVES = ("attack", "defend", "flourish")


@attrs.frozen(kw_only=True)
class Attack:
    """Shoot, strike, throw or use a special; several targets for a volley or a blast."""

    actor: str
    targets: tuple[str, ...]
    weapon: str = ""
    range: str = "auto"
    impact: str = "none"
    level: str = "default"
    risk: str = "auto"
    modifiers: tuple[Modifier, ...] = ()
    tags: str = ""
    deficient: bool = False


@attrs.frozen(kw_only=True)
class MakeSave:
    actor: str
    stat: str = "BODY"
    against: str | None = None
    dv: int = 0
    modifiers: tuple[Modifier, ...] = ()
    deficient: bool = False
    fail_level: str = "none"
    injury: str = ""
    impact: str = "none"
    purpose: str = ""


@attrs.frozen(kw_only=True)
class Reload:
    actor: str
    weapon: str = ""


@attrs.frozen(kw_only=True)
class IngestLead:
    actor: str
    amount: int = 1


@attrs.frozen(kw_only=True)
class CastWorking:
    actor: str
    working: str
    target: str | None = None
    willing: bool = False
    modifiers: tuple[Modifier, ...] = ()


@attrs.frozen(kw_only=True)
class ResolveSixes:
    """Per six of a working: powderburn or catastrophe (the GM's choice for that die)."""

    actor: str
    choices: str = ""
    injuries: str = ""
    note: str = ""


@attrs.frozen(kw_only=True)
class MoraleCheck:
    actor: str
    outcome: str = "flees"


@attrs.frozen(kw_only=True)
class Argue:
    actor: str
    npc: str
    pc_move: str
    npc_move: str
    less_to_lose: str = "npc"


@attrs.frozen(kw_only=True)
class Injure:
    target: str
    level: str = "lesser"
    name: str = "injury"
    tags: str = ""


@attrs.frozen(kw_only=True)
class Treat:
    target: str
    level: str = "worst"


@attrs.frozen(kw_only=True)
class Rest:
    ids: tuple[str, ...] = ()


def _build(cls: type) -> Callable[..., Any]:
    """Build the command from form values; an empty optional field keeps the command's default."""

    def build(**values: Any) -> Any:
        return cls(**{k: v for k, v in values.items() if v is not None})

    return build


def _mods() -> Param:
    return Param(name="modifiers", kind=MODIFIERS, label="DV modifiers", required=False, help="'cover +2, hexed +2'")


SPECS: tuple[CommandSpec, ...] = (
    CommandSpec(
        name="attack",
        title="Attack",
        key="a",
        build=_build(Attack),
        params=(
            Param(name="actor", kind=COMBATANT, label="Attacker"),
            Param(
                name="targets",
                kind=COMBATANTS,
                label="Targets",
                help="one per shot for a revolver or repeater; several for a shotgun blast or a breath",
            ),
            Param(name="weapon", label="Weapon or attack", required=False, help="empty: the first ready weapon"),
            Param(name="range", kind=CHOICE, choices=RANGES, default="auto", help="auto: close in melee, else nearby"),
            Param(name="impact", kind=CHOICE, choices=IMPACTS, default="none", label="PC's impact"),
            Param(name="level", kind=CHOICE, choices=LEVEL_CHOICES, default="default", label="Injury level"),
            Param(
                name="risk",
                kind=CHOICE,
                choices=RISKS,
                default="auto",
                label="Who saves",
                help="auto: the attacker, or the PC for a special; target: the PC saves against the NPC's Threat",
            ),
            _mods(),
            Param(name="tags", label="Extra tags", required=False, help="'silver, -mundane'"),
            Param(name="deficient", kind=BOOL, default=False, label="NPC deficient"),
        ),
        help="A Blackjack save to hit; a success inflicts an injury that escalates up the track.",
    ),
    CommandSpec(
        name="save",
        title="Blackjack save",
        key="s",
        build=_build(MakeSave),
        params=(
            Param(name="actor", kind=COMBATANT, label="Who saves"),
            Param(name="stat", kind=CHOICE, choices=STAT_CHOICES, default="BODY"),
            Param(name="against", kind=COMBATANT, label="Against (DV = its Threat)", required=False),
            Param(name="dv", kind=INT, default=0, label="Base DV", min=-20, max=20),
            _mods(),
            Param(name="deficient", kind=BOOL, default=False, label="NPC deficient"),
            Param(
                name="fail_level",
                kind=CHOICE,
                choices=("none", *LEVEL_CHOICES[1:]),
                default="none",
                label="Injury on a failure",
            ),
            Param(name="injury", label="Injury name", required=False),
            Param(name="impact", kind=CHOICE, choices=IMPACTS, default="none", label="PC's impact"),
            Param(name="purpose", label="For", required=False),
        ),
        help="d20: success when DV < roll ≤ stat (NPC: ≤ Threat + 8).",
    ),
    CommandSpec(
        name="reload",
        title="Reload",
        key="r",
        build=_build(Reload),
        params=(
            Param(name="actor", kind=COMBATANT),
            Param(name="weapon", required=False, help="empty: the emptiest gun"),
        ),
        help="An action and 1 lead fill a firearm (a jammed, loaded gun is cleared for no lead).",
    ),
    CommandSpec(
        name="ingest",
        title="Ingest lead",
        key="i",
        build=_build(IngestLead),
        params=(
            Param(name="actor", kind=COMBATANT),
            Param(name="amount", kind=INT, default=1, min=1, max=9, label="Lead"),
        ),
        help="An action: swallow lead for a working (its level).",
    ),
    CommandSpec(
        name="cast",
        title="Cast a working",
        key="w",
        build=_build(CastWorking),
        params=(
            Param(name="actor", kind=COMBATANT, label="Caster"),
            Param(name="working", label="Working"),
            Param(name="target", kind=COMBATANT, required=False),
            Param(name="willing", kind=BOOL, default=False, label="Target is willing"),
            _mods(),
        ),
        help="An action: roll 1d6 per lead ingested, each 6 is powderburn or a catastrophe.",
    ),
    CommandSpec(
        name="burn",
        title="Powderburn or catastrophe",
        build=_build(ResolveSixes),
        params=(
            Param(name="actor", kind=COMBATANT, label="Caster"),
            Param(name="choices", label="Per six", help="'powderburn, catastrophe': one per six rolled"),
            Param(name="injuries", required=False, label="Catastrophe injuries", help="'moderate burned hands'"),
            Param(name="note", required=False, label="Catastrophe"),
        ),
        help="For each 6 of the last working: a lesser powderburn, or a catastrophe the GM narrates.",
    ),
    CommandSpec(
        name="morale",
        title="Morale check",
        key="m",
        build=_build(MoraleCheck),
        params=(
            Param(name="actor", kind=COMBATANT, label="A member of the side"),
            Param(name="outcome", kind=CHOICE, choices=("flees", "surrenders"), default="flees", label="If broken"),
        ),
        help="2d6 against the side's Morale: over it breaks.",
    ),
    CommandSpec(
        name="argue",
        title="Arguin'",
        key="g",
        build=_build(Argue),
        params=(
            Param(name="actor", kind=COMBATANT, label="PC"),
            Param(name="npc", kind=COMBATANT, label="NPC"),
            Param(name="pc_move", kind=CHOICE, choices=MOVES, label="PC picks"),
            Param(name="npc_move", kind=CHOICE, choices=MOVES, label="NPC picks"),
            Param(name="less_to_lose", kind=CHOICE, choices=("npc", "pc"), default="npc", label="Less to lose"),
        ),
        help="Defend beats attack, attack beats flourish, flourish beats defend; the loser keeps face or loses it.",
    ),
    CommandSpec(
        name="injure",
        title="Inflict injury",
        key="j",
        build=_build(Injure),
        params=(
            Param(name="target", kind=COMBATANT),
            Param(name="level", kind=CHOICE, choices=LEVEL_CHOICES[1:], default="lesser"),
            Param(name="name", default="injury", label="Injury"),
            Param(name="tags", required=False, help="'fire', 'snake venom' (for resistances)"),
        ),
        actor="target",
        help="Mark an injury (it escalates when its level is full).",
    ),
    CommandSpec(
        name="treat",
        title="Treat an injury",
        key="t",
        build=_build(Treat),
        params=(
            Param(name="target", kind=COMBATANT),
            Param(
                name="level",
                kind=CHOICE,
                choices=("worst", "lesser", "moderate", "severe", "grievous"),
                default="worst",
            ),
        ),
        actor="target",
        help="Proper treatment clears any one injury.",
    ),
    CommandSpec(
        name="rest",
        title="A night's rest",
        key="n",
        build=_build(Rest),
        params=(Param(name="ids", kind=COMBATANTS, label="Who rests", required=False, help="empty: everyone alive"),),
        actor=None,
        help="After the fight: clears lesser and moderate injuries; workings are safe again.",
    ),
)
