"""Blood & Bullets commands (what the GM asks for) and their form declarations."""

from __future__ import annotations

import attrs

from systems.bnb.tables import SAVES
from tracker.commands import BOOL, CHOICE, COMBATANT, COMBATANTS, INT, MODIFIERS, STR, CommandSpec, Modifier, Param


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
    actor: str
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
    """Hours pass: temporary damage (fists) heals per hour, 1 HP per level (HD) an hour."""

    actor: str
    hours: int = 1


_ACTOR = Param(name="actor", kind=COMBATANT, label="Who")
_COVER = Param(name="cover", kind=INT, label="Cover (0–4)", default=0, help="the GM's cover penalty, 1 to 4")
_MODS = Param(name="modifiers", kind=MODIFIERS, label="Other modifiers", required=False, help="'high ground +1'")


def _tuple(x: object) -> tuple:
    return tuple(x) if x else ()  # type: ignore[arg-type]


SPECS: tuple[CommandSpec, ...] = (
    CommandSpec(
        name="attack",
        title="Attack",
        key="a",
        build=lambda actor, target, weapon="", distance=0, cover=0, modifiers=(), sneak=False, into_melee=(), two_hands=False: (
            Attack(
                actor=actor,
                target=target,
                weapon=weapon or "",
                distance=distance,
                cover=cover,
                modifiers=_tuple(modifiers),
                sneak=sneak,
                into_melee=_tuple(into_melee),
                two_hands=two_hands,
            )
        ),
        params=(
            _ACTOR,
            Param(name="target", kind=COMBATANT, label="Target"),
            Param(
                name="weapon", label="Weapon", default="", required=False, help="empty: the favoured or first weapon"
            ),
            Param(name="distance", kind=INT, label="Distance (ft)", default=0, help="0–5 ft is melee"),
            _COVER,
            _MODS,
            Param(name="sneak", kind=BOOL, label="By surprise (Gambler sneak attack ×2)", default=False),
            Param(
                name="into_melee",
                kind=COMBATANTS,
                label="Others in the melee",
                required=False,
                help="firing into a melee: the one struck is picked at random",
            ),
            Param(name="two_hands", kind=BOOL, label="Spear two-handed (+1 damage)", default=False),
        ),
        help="d20 + to-hit + STR (melee) or DEX (missile) + Sure Shot/Close Fighter + range − cover ≥ DC; "
        "natural 20 hits for maximum damage, natural 1 misses.",
    ),
    CommandSpec(
        name="gunplay",
        title="Gun-play",
        key="g",
        build=lambda actor, targets, guns="", distance="0", cover=0, modifiers=(): GunPlay(
            actor=actor,
            targets=_tuple(targets),
            guns=guns or "",
            distance=str(distance or "0"),
            cover=cover,
            modifiers=_tuple(modifiers),
        ),
        params=(
            _ACTOR,
            Param(name="targets", kind=COMBATANTS, label="Targets (one per attack, repeats allowed)"),
            Param(
                name="guns", label="Guns wielded", default="", required=False, help="empty: the first loaded firearm"
            ),
            Param(name="distance", kind=STR, label="Distance (ft)", default="0", help="one for all, or one per target"),
            _COVER,
            _MODS,
        ),
        help="Shootist: one attack per level this round at foes of 1 HD or fewer, never more than the loaded shots.",
    ),
    CommandSpec(
        name="critter_attacks",
        title="Critter attacks",
        key="m",
        build=lambda actor, target, cover=0, modifiers=(): CritterAttacks(
            actor=actor, target=target, cover=cover, modifiers=_tuple(modifiers)
        ),
        params=(_ACTOR, Param(name="target", kind=COMBATANT, label="Target"), _COVER, _MODS),
        help="Every attack on the stat line ('Claws, Bite'), each its own roll.",
    ),
    CommandSpec(
        name="blast",
        title="Scattergun blast",
        key="b",
        build=lambda actor, targets, gun="scattergun", distance=0, cover=0, modifiers=(): Blast(
            actor=actor,
            targets=_tuple(targets),
            gun=gun or "scattergun",
            distance=distance,
            cover=cover,
            modifiers=_tuple(modifiers),
        ),
        params=(
            _ACTOR,
            Param(name="targets", kind=COMBATANTS, label="Targets within 5 ft of the aimed point"),
            Param(name="gun", label="Gun", default="scattergun"),
            Param(name="distance", kind=INT, label="Distance (ft)", default=0, help="beyond 30 ft: DEX save for half"),
            _COVER,
            _MODS,
        ),
        help="One scattergun shot attacks every target within 5 ft either side of the point aimed at.",
    ),
    CommandSpec(
        name="reload",
        title="Reload",
        key="r",
        build=lambda actor, gun="": Reload(actor=actor, gun=gun or ""),
        params=(_ACTOR, Param(name="gun", label="Gun", default="", required=False, help="empty: the first not full")),
        help="Fill one gun; it takes the round's action.",
    ),
    CommandSpec(
        name="death_save",
        title="Death save",
        key="d",
        build=lambda actor, modifiers=(): DeathSave(actor=actor, modifiers=_tuple(modifiers)),
        params=(_ACTOR, _MODS),
        help="At 0 HP or below: d20 + CON − 1 per HP below 0 (+2 Shootist) ≥ ST, or dead.",
    ),
    CommandSpec(
        name="save",
        title="Saving throw",
        key="s",
        build=lambda actor, against="other", attribute="auto", modifiers=(): SavingThrow(
            actor=actor, against=against, attribute=attribute, modifiers=_tuple(modifiers)
        ),
        params=(
            _ACTOR,
            Param(name="against", kind=CHOICE, choices=tuple(SAVES), label="Against", default="other"),
            Param(
                name="attribute",
                kind=CHOICE,
                choices=("auto", "none", "STR", "INT", "WIS", "CON", "DEX", "CHA"),
                label="Attribute",
                default="auto",
                help="auto: Table 3's",
            ),
            _MODS,
        ),
        help="d20 + attribute modifier (Table 3) + class bonus ≥ the Saving Throw number.",
    ),
    CommandSpec(
        name="lucky_streak",
        title="Lucky Streak",
        key="l",
        build=lambda actor: LuckyStreak(actor=actor),
        params=(_ACTOR,),
        help="Gambler: re-roll the failed save (1/2/3/4 a day at levels 1–3/4–6/7–9/10).",
    ),
    CommandSpec(
        name="loyalty",
        title="Loyalty check",
        key="y",
        build=lambda actor, leader=None, modifiers=(): LoyaltyCheck(
            actor=actor, leader=leader or None, modifiers=_tuple(modifiers)
        ),
        params=(
            Param(name="actor", kind=COMBATANT, label="Hireling"),
            Param(name="leader", kind=COMBATANT, label="Leader (CHA)", required=False),
            _MODS,
        ),
        help="3d6 + the leader's CHA loyalty modifier, read on Table 15.",
    ),
    CommandSpec(
        name="bind_wounds",
        title="Bind wounds",
        key="w",
        build=lambda actor: BindWounds(actor=actor),
        params=(_ACTOR,),
        help="After the fight: 1d3 HP back, only HP lost in this fight.",
    ),
    CommandSpec(
        name="recover",
        title="Rest (temporary damage heals)",
        key="h",
        build=lambda actor, hours=1: Recover(actor=actor, hours=hours),
        params=(_ACTOR, Param(name="hours", kind=INT, label="Hours", default=1, min=1, max=24)),
        help="Fists' temporary damage heals per hour: 1 HP per level (HD) an hour; the knocked out come to.",
    ),
)
