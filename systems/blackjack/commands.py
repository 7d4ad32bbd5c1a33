"""Blackjack commands (verbs) and the forms the app builds for them (derived from their fields)."""

from __future__ import annotations

import attrs

from systems.blackjack.presets import WORKINGS
from tracker.commands import BOOL, CHOICE, COMBATANT, COMBATANTS, INT, MODIFIERS, CommandSpec, Modifier, Param
from tracker.commands import Rest as CoreRest
from tracker.kit import spec
from tracker.model import FightState

RANGES = ("auto", "close", "nearby", "far")
IMPACTS = ("none", "advantage", "disadvantage")
LEVEL_CHOICES = ("default", "lesser", "moderate", "severe", "grievous", "fatal")
BY_CAUSE = "by cause"  # an injury's starting level from its cause: afflictions begin moderate (l.182)
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
    social: bool = False  # negotiation: a DV below 0 passes with no roll


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


def known_workings(state: FightState, cid: str) -> dict[str, tuple[str, ...]]:
    """The cast form's picker for the caster: the workings it knows (none known: every working, refused with the
    rule when picked)."""
    c = state.find(cid)
    names = tuple(w.name for w in getattr(c.data, "workings", ())) if c is not None else ()
    return {"working": names} if names else {}


def attack_defaults(state: FightState, cid: str) -> dict[str, str]:
    """The attack form starts on the weapon an empty field would use, the first ready one (a GM who left it empty
    could not see that an Outlaw with two revolvers struck with his machete, or a PC with an empty gun with a
    knife)."""
    c = state.find(cid)
    ws = getattr(c.data, "weapons", ()) if c is not None else ()
    if not ws:
        return {"weapon": "Fists"}
    return {"weapon": next((w.name for w in ws if w.ready), ws[0].name)}


GOOD_NIGHT = "good night's rest"  # the rest quality that clears injuries (l.184)


@attrs.frozen(kw_only=True)
class Rest:
    """A night's rest after the fight: time passes as the core's Rest of one good night (``L``) lets it, the
    afflictions kept and asked about (it cleared them, where ``L`` did not)."""

    ids: tuple[str, ...] = ()


@attrs.frozen(kw_only=True)
class DestroyPaper:
    """The paper of a Hex or a Naming is destroyed: what it bound on the target goes with it."""

    target: str
    working: str = ""
    note: str = ""


def _mods() -> Param:
    return Param(name="modifiers", kind=MODIFIERS, label="DV modifiers", required=False, help="'cover +2, hexed +2'")


def _choice(name: str, choices: tuple[str, ...], label: str = "", help: str = "") -> Param:
    return Param(name=name, kind=CHOICE, choices=choices, default=choices[0], label=label, help=help)


SPECS: tuple[CommandSpec, ...] = (
    spec(
        Attack,
        name="attack",
        title="Attack",
        key="a",
        subject="targets",
        focus="weapon",  # what the GM names first (it started on Range: a weapon typed after a went there)
        defaults=attack_defaults,
        labels={"actor": "Attacker", "weapon": "Weapon or attack", "tags": "Extra tags", "deficient": "NPC deficient"},
        fields={
            "targets": Param(
                name="targets",
                kind=COMBATANTS,
                label="Targets",
                help="one per shot for a revolver or repeater; several for a shotgun blast or a breath",
            ),
            "range": _choice(
                "range", RANGES, help="auto: close in melee, else nearby; nearby throws a hand axe or knife"
            ),
            "impact": _choice("impact", IMPACTS, "PC's impact"),
            "level": _choice("level", LEVEL_CHOICES, "Injury level"),
            "risk": _choice(
                "risk",
                RISKS,
                "Who saves",
                "auto: the attacker, or the PC for a special; target: the PC saves against the NPC's Threat",
            ),
            "modifiers": _mods(),
            "weapon": Param(
                name="weapon",
                label="Weapon or attack",
                required=False,
                default="",
                help="a weapon on the sheet, Fists, or a special's name",
            ),
        },
        help="A Blackjack save to hit; a success inflicts an injury that escalates up the track.",
    ),
    spec(
        MakeSave,
        name="save",
        title="Blackjack save",
        key="s",
        actor=None,
        subject="actor",
        labels={
            "actor": "Who saves",
            "deficient": "NPC deficient",
            "injury": "Injury name",
            "purpose": "For",
            "social": "Social (negotiation)",
        },
        fields={
            "stat": Param(name="stat", kind=CHOICE, choices=STAT_CHOICES, default="BODY"),
            "against": Param(name="against", kind=COMBATANT, label="Against (DV = its Threat)", required=False),
            "dv": Param(name="dv", kind=INT, default=0, label="Base DV", min=-20, max=20),
            "modifiers": _mods(),
            "fail_level": _choice("fail_level", ("none", *LEVEL_CHOICES[1:]), "Injury on a failure"),
            "impact": _choice("impact", IMPACTS, "PC's impact"),
        },
        help="d20: success when DV < roll ≤ stat (NPC: ≤ Threat + 8); a social save whose DV is below 0 passes.",
    ),
    spec(
        Reload,
        name="reload",
        title="Reload",
        key="r",
        fields={"weapon": Param(name="weapon", required=False, default="", help="empty: the emptiest gun")},
        help="An action and 1 lead fill a firearm (a jammed, loaded gun is cleared for no lead).",
    ),
    spec(
        IngestLead,
        name="ingest",
        title="Ingest lead",
        key="i",
        fields={"amount": Param(name="amount", kind=INT, default=1, min=1, max=9, label="Lead")},
        help="An action: swallow lead for a working (its level).",
    ),
    spec(
        CastWorking,
        name="cast",
        title="Cast a working",
        key="w",
        # the form starts on the selected combatant, as every form does (it opened on no target, so a heal aimed
        # at the selected wounded outlaw went to the caster)
        subject="target",
        labels={"actor": "Caster", "willing": "Target is willing"},
        fields={
            "modifiers": _mods(),
            "willing": Param(
                name="willing",
                kind=BOOL,
                default=False,
                required=False,
                label="Target is willing",
                help="no CTRL save; a heal on the caster's own side always is",
            ),
            # a picker of what the caster knows (an empty text field took anything but the exact name as unknown)
            "working": Param(
                name="working",
                kind=CHOICE,
                choices=tuple(w.name for w in WORKINGS.values()),
                label="Working",
                help="one the caster knows",
            ),
        },
        choices=known_workings,
        help="An action: roll 1d6 per lead ingested, each 6 is powderburn or a catastrophe.",
    ),
    spec(
        ResolveSixes,
        name="burn",
        title="Powderburn or catastrophe",
        actor=None,
        subject="actor",
        focus="choices",  # the choice to make (it started on the catastrophe's injuries)
        labels={"actor": "Caster", "note": "Catastrophe"},
        fields={
            "choices": Param(
                name="choices",
                label="Per six",
                default="",
                required=False,
                help="'powderburn, catastrophe': one per six rolled",
            ),
            "injuries": Param(
                name="injuries",
                label="Catastrophe injuries",
                default="",
                required=False,
                help="'moderate burned hands'",
            ),
        },
        help="For each 6 of the last working: a lesser powderburn, or a catastrophe the GM narrates.",
    ),
    spec(
        MoraleCheck,
        name="morale",
        title="Morale check",
        key="m",
        actor=None,
        subject="actor",
        labels={"actor": "A member of the side"},
        fields={"outcome": _choice("outcome", ("flees", "surrenders"), "If broken")},
        help="2d6 against the side's Morale: over it breaks.",
    ),
    spec(
        Argue,
        name="argue",
        title="Arguin'",
        key="g",
        subject="npc",
        fields={
            "actor": Param(name="actor", kind=COMBATANT, label="PC", side="pc"),
            "npc": Param(name="npc", kind=COMBATANT, label="NPC", side="npc"),
            "pc_move": Param(name="pc_move", kind=CHOICE, choices=MOVES, label="PC picks"),
            "npc_move": Param(name="npc_move", kind=CHOICE, choices=MOVES, label="NPC picks"),
            "less_to_lose": _choice("less_to_lose", ("npc", "pc"), "Less to lose"),
        },
        help="Defend beats attack, attack beats flourish, flourish beats defend; the loser keeps face or loses it.",
    ),
    spec(
        Injure,
        name="injure",
        title="Inflict injury",
        key="j",
        actor=None,
        subject="target",
        labels={"name": "Injury"},
        fields={
            "level": _choice(
                "level",
                (BY_CAUSE, *LEVEL_CHOICES[1:]),
                help="by cause: moderate for hunger, thirst, poison, snake venom or disease; else lesser",
            ),
            "tags": Param(name="tags", required=False, default="", help="'fire', 'snake venom' (for resistances)"),
        },
        help="Mark an injury (it escalates when its level is full); afflictions begin moderate.",
    ),
    spec(
        Treat,
        name="treat",
        title="Treat an injury",
        key="t",
        actor=None,
        subject="target",
        fields={"level": _choice("level", ("worst", *LEVEL_CHOICES[1:-1]))},
        help="Proper treatment clears any one injury (not one bound to a paper).",
    ),
    CommandSpec(
        name="rest",
        title="A night's rest",
        # the core's Rest of one good night, as L gives it: what a night does is decided in one place
        build=lambda ids=(): CoreRest(ids=tuple(ids), days=1, quality=GOOD_NIGHT),
        params=(Param(name="ids", kind=COMBATANTS, label="Who rests", required=False, help="empty: everyone alive"),),
        key="z",  # (zzz; n is the core's next turn: it had no key)
        actor=None,
        help="After the fight, one good night (as L): clears lesser and moderate injuries but afflictions, which "
        "the GM is asked about; workings are safe again.",
    ),
    spec(
        DestroyPaper,
        name="paper",
        title="The paper is destroyed",
        actor=None,
        subject="target",
        labels={"target": "Whose paper"},
        fields={
            "working": Param(
                name="working", required=False, default="", help="Hex, Naming…; empty: every paper binding them"
            )
        },
        help="A Hex or a Naming lasts until its paper is destroyed: this ends it.",
    ),
)
