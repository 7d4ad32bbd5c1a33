"""Blood & Bullets commands (what the GM asks for) and their forms, derived from the fields by ``kit.spec``.

Actions taken on a combatant's turn (attack, Gun-play, critter attacks, blast,
reload) start on the current combatant (``actor``) and on the GM's selected
combatant as the target.  The rest are GM actions on a subject (death save,
saving throw, Lucky Streak, loyalty, binding wounds, rest): they start on the
GM's selected combatant, never silently on whoever's turn it is.
"""

from __future__ import annotations

import attrs

from systems.bnb.sheet import BnbData
from systems.bnb.tables import GAMBLER, SAVES
from tracker.commands import BOOL, CHOICE, COMBATANT, COMBATANTS, INT, MODIFIERS, STR, CommandSpec, Modifier, Param
from tracker.kit import spec
from tracker.model import FightState


@attrs.frozen(kw_only=True)
class Attack:
    """One attack with a weapon (or one of a critter's listed attacks)."""

    actor: str
    target: str
    weapon: str = ""  # carried weapon or listed attack; "" = the favoured/first one
    distance: int = 0  # feet
    cover: int = 0  # 0–4
    modifiers: tuple[Modifier, ...] = ()
    sneak: bool = False  # a Gambler's hit by surprise
    into_melee: tuple[str, ...] = ()  # others in the melee the shot goes into
    two_hands: bool = False  # the spear used two-handed


@attrs.frozen(kw_only=True)
class CritterAttacks:
    """Every attack on a critter's stat line, at one target."""

    actor: str
    target: str
    cover: int = 0
    modifiers: tuple[Modifier, ...] = ()


@attrs.frozen(kw_only=True)
class GunPlay:
    """A Shootist's Gun-play: one attack per level at foes of 1 HD or fewer."""

    actor: str
    targets: tuple[str, ...]
    guns: str = ""  # the guns wielded, "belt pistol, belt pistol 2"; "" = the first loaded firearm
    distance: str = "0"  # feet: one for all, or one per target
    cover: int = 0
    modifiers: tuple[Modifier, ...] = ()


@attrs.frozen(kw_only=True)
class Blast:
    """One scattergun shot at every target within 5 ft of the aimed point."""

    actor: str
    targets: tuple[str, ...]
    gun: str = "scattergun"
    distance: int = 0
    cover: int = 0
    modifiers: tuple[Modifier, ...] = ()


@attrs.frozen(kw_only=True)
class Reload:
    actor: str
    gun: str = ""


@attrs.frozen(kw_only=True)
class DeathSave:
    actor: str  # the one saving (kept as "actor": prompts in saved fights name it so)
    modifiers: tuple[Modifier, ...] = ()


@attrs.frozen(kw_only=True)
class SavingThrow:
    actor: str
    against: str = "other"
    attribute: str = "auto"
    modifiers: tuple[Modifier, ...] = ()


@attrs.frozen(kw_only=True)
class LuckyStreak:
    actor: str


@attrs.frozen(kw_only=True)
class LoyaltyCheck:
    actor: str
    leader: str | None = None
    modifiers: tuple[Modifier, ...] = ()


@attrs.frozen(kw_only=True)
class BindWounds:
    actor: str


@attrs.frozen(kw_only=True)
class Recover:
    """Hours pass (before or after a fight): temporary damage (fists) heals per hour, 1 HP per level (HD) an hour."""

    actor: str
    hours: int = 1


_WHO = Param(name="actor", kind=COMBATANT, label="Who")
_COVER = Param(name="cover", kind=INT, label="Cover (0–4)", default=0, help="the GM's cover penalty, 1 to 4")
_MODS = Param(name="modifiers", kind=MODIFIERS, label="Other modifiers", required=False, help="'high ground +1'")
_LABELS = {"actor": "Who", "target": "Target"}


def attack_defaults(state: FightState, actor: str) -> dict[str, object]:
    """Where the attack form starts for ``actor``.

    - A Gambler's attack in the surprise round he has starts as a sneak attack (×2 by surprise, l.57): unticked,
      a GM who forgot it recorded a plain hit.
    - A critter that has made some of its listed attacks this round starts on the next one not yet made
      ("Claws, Bite": after the claws, the bite); the form stayed on the claws, refused ("each listed attack
      once a round") until the GM typed the bite.
    """
    c = state.find(actor)
    if c is None or not isinstance(c.data, BnbData):
        return {}
    d = c.data
    out: dict[str, object] = {}
    if d.natural and any(n.name in d.used for n in d.natural):
        left = next((n.name for n in d.natural if n.name not in d.used), None)
        if left is not None:
            out["weapon"] = left
    if d.cls == GAMBLER and state.started and state.round == 0 and actor in state.surprise:
        out["sneak"] = True
    return out


SPECS: tuple[CommandSpec, ...] = (
    spec(
        Attack,
        name="attack",
        in_fight=True,
        title="Attack",
        key="a",
        subject="target",
        fields={
            "weapon": Param(
                name="weapon", label="Weapon", default="", required=False, help="empty: the favoured or first weapon"
            ),
            "distance": Param(name="distance", kind=INT, label="Distance (ft)", default=0, help="0–5 ft is melee"),
            "cover": _COVER,
            "modifiers": _MODS,
            "sneak": Param(name="sneak", kind=BOOL, label="By surprise (Gambler sneak attack ×2)", default=False),
            "into_melee": Param(
                name="into_melee",
                kind=COMBATANTS,
                label="Others in the melee",
                required=False,
                help="firing into a melee: the one struck is picked at random",
            ),
            "two_hands": Param(name="two_hands", kind=BOOL, label="Spear two-handed (+1 damage)", default=False),
        },
        labels=_LABELS,
        defaults=attack_defaults,
        help="d20 + to-hit + STR (melee) or DEX (missile; NPCs: their HD only) + Sure Shot/Close Fighter + range "
        "− cover ≥ DC; natural 20 hits for maximum damage, natural 1 misses.",
    ),
    spec(
        GunPlay,
        name="gunplay",
        in_fight=True,
        title="Gun-play",
        key="g",
        subject="targets",
        fields={
            "targets": Param(name="targets", kind=COMBATANTS, label="Targets (one per attack, repeats allowed)"),
            "guns": Param(
                name="guns", label="Guns wielded", default="", required=False, help="empty: the first loaded firearm"
            ),
            "distance": Param(
                name="distance",
                kind=STR,
                label="Distance (ft)",
                default="0",
                help="one for all, or one per target in the list's order (top first): '20, 120'",
            ),
            "cover": _COVER,
            "modifiers": _MODS,
        },
        labels=_LABELS,
        help="Shootist: one attack per level this round at foes of 1 HD or fewer, never more than the loaded shots.",
    ),
    spec(
        CritterAttacks,
        name="critter_attacks",
        in_fight=True,
        title="Critter attacks",
        key="m",
        subject="target",
        fields={"cover": _COVER, "modifiers": _MODS},
        labels=_LABELS,
        help="Every attack on the stat line ('Claws, Bite'), each its own roll.",
    ),
    spec(
        Blast,
        name="blast",
        in_fight=True,
        title="Scattergun blast",
        key="b",
        subject="targets",
        fields={
            "targets": Param(name="targets", kind=COMBATANTS, label="Targets within 5 ft of the aimed point"),
            "gun": Param(name="gun", label="Gun", default="scattergun"),
            "distance": Param(
                name="distance", kind=INT, label="Distance (ft)", default=0, help="beyond 30 ft: DEX save for half"
            ),
            "cover": _COVER,
            "modifiers": _MODS,
        },
        labels=_LABELS,
        help="One scattergun shot attacks every target within 5 ft either side of the point aimed at.",
    ),
    spec(
        Reload,
        name="reload",
        title="Reload",
        key="r",
        fields={
            "gun": Param(name="gun", label="Gun", default="", required=False, help="empty: the first not full"),
        },
        labels=_LABELS,
        help="Fill one gun; it takes the round's action.",
    ),
    spec(
        DeathSave,
        name="death_save",
        title="Death save",
        key="d",
        actor=None,
        subject="actor",
        fields={"actor": _WHO, "modifiers": _MODS},
        help="At 0 HP or below: d20 + CON − 1 per HP below 0 (+2 Shootist) ≥ ST, or dead.",
    ),
    spec(
        SavingThrow,
        name="save",
        title="Saving throw",
        key="s",
        actor=None,
        subject="actor",
        fields={
            "actor": _WHO,
            "against": Param(name="against", kind=CHOICE, choices=tuple(SAVES), label="Against", default="other"),
            "attribute": Param(
                name="attribute",
                kind=CHOICE,
                choices=("auto", "none", "STR", "INT", "WIS", "CON", "DEX", "CHA"),
                label="Attribute",
                default="auto",
                help="auto: Table 3's",
            ),
            "modifiers": _MODS,
        },
        help="d20 + attribute modifier (Table 3) + class bonus ≥ the Saving Throw number.",
    ),
    spec(
        LuckyStreak,
        name="lucky_streak",
        title="Lucky Streak",
        key="l",
        actor=None,
        subject="actor",
        fields={"actor": _WHO},
        help="Gambler: re-roll a failed save — death, a scattergun's for half, any other "
        "(1/2/3/4 a day at levels 1–3/4–6/7–9/10); the re-roll replaces the first.",
    ),
    spec(
        LoyaltyCheck,
        name="loyalty",
        title="Loyalty check",
        key="y",
        actor=None,
        subject="actor",
        fields={
            "actor": Param(name="actor", kind=COMBATANT, label="Hireling"),
            "leader": Param(name="leader", kind=COMBATANT, label="Leader (CHA)", required=False),
            "modifiers": _MODS,
        },
        help="3d6 + the leader's CHA loyalty modifier, read on Table 15.",
    ),
    spec(
        BindWounds,
        name="bind_wounds",
        title="Bind wounds",
        key="w",
        actor=None,
        subject="actor",
        fields={"actor": _WHO},
        help="After the fight: 1d3 HP back, only HP lost in this fight.",
    ),
    spec(
        Recover,
        name="recover",
        title="Rest (temporary damage heals)",
        key="h",
        actor=None,
        subject="actor",
        fields={"actor": _WHO, "hours": Param(name="hours", kind=INT, label="Hours", default=1, min=1, max=24)},
        help="Before or after a fight: fists' temporary damage heals per hour, 1 HP per level (HD) an hour; "
        "the knocked out come to.",
    ),
)
