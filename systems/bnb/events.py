"""Blood & Bullets events: past-tense facts carrying every roll's faces."""

from __future__ import annotations

from typing import ClassVar

import attrs

from systems.bnb.sheet import data
from systems.bnb.tables import GAMBLER, lucky_streaks
from tracker.commands import Modifier
from tracker.dice import Roll
from tracker.events import Event
from tracker.model import Combatant, FightState
from tracker.text import counted


def parts_text(parts: tuple[Modifier, ...]) -> str:
    return ", ".join(p.describe() for p in parts if p.value) or "no modifiers"


@attrs.frozen(kw_only=True)
class AttackRolled(Event):
    """One attack: the d20 against DC and, on a hit, the damage."""

    TYPE: ClassVar[str] = "bnb.attack_rolled"
    actor: str
    target: str
    weapon: str
    using: str = ""  # the weapon or attack this counts against for its rate per round ("" none)
    attack: Roll
    parts: tuple[Modifier, ...] = ()
    total: int
    dc: int
    hit: bool
    damage: Roll | None = None
    amount: int = 0
    temporary: bool = False
    sneak: bool = False
    gunplay: bool = False
    intended: str | None = None  # fired into a melee at this one; ``target`` is who it struck
    pick: Roll | None = None
    save: Roll | None = None  # scattergun beyond 30 ft: the target's save for half
    save_total: int = 0
    save_st: int = 0  # the target's Saving Throw number (0 in logs from before it was kept)
    saved: bool = False

    def describe(self, state: FightState) -> str:
        a, t = state.name(self.actor), state.name(self.target)
        lead = "Gun-play: " if self.gunplay else ""
        into = ""
        if self.intended is not None and self.pick is not None:
            into = f" (into the melee at {state.name(self.intended)}: {self.pick.describe()} picks {t})"
        face = self.attack.faces[0]
        nat = " natural 20" if face == 20 else " natural 1" if face == 1 else ""
        s = (
            f"{lead}{a} attacks {t} with the {self.weapon}{into}: {self.attack.describe()}"
            f" ({parts_text(self.parts)}) = {self.total} vs DC {self.dc}{nat}: "
        )
        if not self.hit:
            return s + "miss"
        assert self.damage is not None
        kind = " temporary" if self.temporary else ""
        extra = ", at least 1" if self.damage.total < 1 else ""
        extra += " ×2 sneak attack" if self.sneak else ""
        if self.save is not None:
            dex = self.save_total - self.save.total
            vs = f" vs ST {self.save_st}" if self.save_st else ""
            extra += f"; {t} saves for half: {self.save.describe()} (DEX {dex:+d}) = {self.save_total}{vs}: " + (
                "half" if self.saved else "failed"
            )
        return s + f"hit for {self.amount}{kind} damage ({self.damage.describe()}{extra})"


@attrs.frozen(kw_only=True)
class Dropped(Event):
    """HP at 0 or below: dying (a death save is due), dead (a minor NPC) or knocked out (temporary damage)."""

    TYPE: ClassVar[str] = "bnb.dropped"
    id: str
    hp: int
    outcome: str
    by: str | None = None

    def describe(self, state: FightState) -> str:
        how = {
            "dying": "falls and must make a death save",
            "dead": "is dead (minor NPCs die at 0 HP)",
            "knocked out": "is knocked out (temporary damage: no death save)",
        }.get(self.outcome, self.outcome)
        return f"{state.name(self.id)} at {self.hp} HP {how}"


@attrs.frozen(kw_only=True)
class ShotsFired(Event):
    TYPE: ClassVar[str] = "bnb.shots_fired"
    actor: str
    gun: str
    count: int
    gunplay: bool = False
    blast: bool = False  # a scattergun blast: the one shot attacks every target named (False in older fights)

    def describe(self, state: FightState) -> str:
        c = state.get(self.actor)
        g = data(c).carried(self.gun)
        left = (g.shots - self.count) if g else 0
        return f"{c.name} fires {counted(self.count, 'shot')} from the {self.gun} ({left} left)"


@attrs.frozen(kw_only=True)
class HeldFire(Event):
    TYPE: ClassVar[str] = "bnb.held_fire"
    actor: str
    target: str
    reason: str = ""

    def describe(self, state: FightState) -> str:
        return f"{state.name(self.actor)} holds fire at {state.name(self.target)}: {self.reason}"


@attrs.frozen(kw_only=True)
class Reloaded(Event):
    TYPE: ClassVar[str] = "bnb.reloaded"
    actor: str
    gun: str
    before: int
    after: int

    def describe(self, state: FightState) -> str:
        return f"{state.name(self.actor)} reloads the {self.gun} ({self.before} → {counted(self.after, 'shot')}; the round's action)"


def vs_st(roll: Roll, parts: tuple[Modifier, ...], total: int, st: int) -> str:
    """A saving throw's roll, its modifiers and total against the Saving Throw number."""
    return f"{roll.describe()} ({parts_text(parts)}) = {total} vs ST {st}"


def lucky_left(c: Combatant) -> bool:
    """A Gambler with a Lucky Streak left today (a failed save may be re-rolled)."""
    d = data(c)
    return d.cls == GAMBLER and d.lucky_used < lucky_streaks(d.level)


@attrs.frozen(kw_only=True)
class DeathSaveRolled(Event):
    TYPE: ClassVar[str] = "bnb.death_save_rolled"
    id: str
    roll: Roll
    parts: tuple[Modifier, ...] = ()
    total: int
    st: int
    success: bool

    def describe(self, state: FightState) -> str:
        end = "survives, unconscious and in need of medical help" if self.success else "dies"
        c = state.find(self.id)
        if not self.success and c is not None and lucky_left(c):  # (the re-roll is offered in the same action)
            end = "fails: dies unless a Lucky Streak re-rolls it"
        return f"{state.name(self.id)} saves vs death: {vs_st(self.roll, self.parts, self.total, self.st)}: {end}"


@attrs.frozen(kw_only=True)
class SaveRolled(Event):
    TYPE: ClassVar[str] = "bnb.save_rolled"
    id: str
    against: str
    roll: Roll
    parts: tuple[Modifier, ...] = ()
    total: int
    st: int
    success: bool

    def describe(self, state: FightState) -> str:
        end = "saved" if self.success else "failed"
        return (
            f"{state.name(self.id)} saves vs {self.against}: {vs_st(self.roll, self.parts, self.total, self.st)}: {end}"
        )


@attrs.frozen(kw_only=True)
class LuckyStreakUsed(Event):
    TYPE: ClassVar[str] = "bnb.lucky_streak_used"
    id: str
    against: str
    roll: Roll
    parts: tuple[Modifier, ...] = ()
    total: int
    st: int
    success: bool
    left: int = 0
    restored: int = 0  # a save for half re-rolled into a success: the HP the half not taken gives back
    revived: bool = False  # those HP lift the Gambler back above 0 HP: the fall (and its death save) is undone
    # the re-roll is of the death save at 0 HP (its outcome: unconscious or dead), not a saving throw the GM called
    # "vs death" at any HP; None in files written before it was said: read from ``against`` as then
    death_save: bool | None = None

    @property
    def of_death_save(self) -> bool:
        return self.against == "death" if self.death_save is None else self.death_save

    def describe(self, state: FightState) -> str:
        end = "saved" if self.success else "failed again"
        if self.of_death_save:
            end = "survives, unconscious" if self.success else "dies"
        elif self.restored:
            end = f"saved: half damage, {self.restored} HP back" + (", and back on his feet" if self.revived else "")
        return (
            f"{state.name(self.id)} pushes a Lucky Streak, re-rolling the save vs {self.against}: "
            f"{vs_st(self.roll, self.parts, self.total, self.st)}: {end}"
            f" ({self.left} left today)"
        )


@attrs.frozen(kw_only=True)
class LoyaltyChecked(Event):
    TYPE: ClassVar[str] = "bnb.loyalty_checked"
    id: str
    leader: str | None = None
    roll: Roll
    parts: tuple[Modifier, ...] = ()
    total: int
    result: str
    next_mod: int = 0

    def describe(self, state: FightState) -> str:
        return (
            f"Loyalty check for {state.name(self.id)}: {self.roll.describe()} ({parts_text(self.parts)})"
            f" = {self.total}: {self.result}"
        )


@attrs.frozen(kw_only=True)
class WoundsBound(Event):
    TYPE: ClassVar[str] = "bnb.wounds_bound"
    id: str
    roll: Roll
    healed: int
    revived: bool = False  # back above 0 HP: awake, as quick healing wakes (files before it: as they were)

    def describe(self, state: FightState) -> str:
        woke = "; back on its feet" if self.revived else ""
        return f"{state.name(self.id)}'s wounds are bound: {self.roll.describe()}, {self.healed} HP back{woke}"


@attrs.frozen(kw_only=True)
class TemporaryHealed(Event):
    TYPE: ClassVar[str] = "bnb.temporary_healed"
    id: str
    hours: int
    healed: int
    woke: bool = False

    def describe(self, state: FightState) -> str:
        woke = ", and comes to" if self.woke else ""
        return f"{state.name(self.id)} rests {counted(self.hours, 'hour')}: {self.healed} temporary damage heals{woke}"


def _how(roll: Roll, amount: int) -> str:
    """The roll or sum behind a quick amount, ": 3+4 = 7", "2d6 [2,5] = 7"; nothing when the GM typed just the
    number the line already says ("loses 2 HP", not "loses 2 HP: 2")."""
    rolled = roll.describe()
    return "" if rolled == str(amount) else f": {rolled}"


@attrs.frozen(kw_only=True)
class HpLost(Event):
    """Quick damage from the GM: HP lost, lethal or temporary (fists), through the same harm path as a blow."""

    TYPE: ClassVar[str] = "bnb.hp_lost"
    id: str
    roll: Roll
    amount: int
    temporary: bool = False
    note: str = ""

    GM_WORDS = ("note",)

    def describe(self, state: FightState) -> str:
        kind = " temporary" if self.temporary else ""
        why = f" ({self.note})" if self.note else ""
        return f"{state.name(self.id)} loses {self.amount}{kind} HP{_how(self.roll, self.amount)}{why}"


@attrs.frozen(kw_only=True)
class HpHealed(Event):
    """Quick healing from the GM: temporary damage heals first, then lethal damage; never above maximum."""

    TYPE: ClassVar[str] = "bnb.hp_healed"
    id: str
    roll: Roll
    temporary: int = 0  # temporary damage healed
    lethal: int = 0  # lethal damage healed
    revived: bool = False  # back above 0 HP: knocked out, dying or unconscious no more
    note: str = ""

    GM_WORDS = ("note",)

    def describe(self, state: FightState) -> str:
        why = f" ({self.note})" if self.note else ""
        healed = self.temporary + self.lethal
        if not healed:
            return f"{state.name(self.id)} is at full HP: nothing to heal ({self.roll.describe()}){why}"
        parts = [f"{n} {what}" for n, what in ((self.temporary, "temporary"), (self.lethal, "lethal")) if n]
        up = ", and is back on their feet" if self.revived else ""
        kinds = " + ".join(parts)
        if self.roll.total > healed:  # more given than was lost: the maximum kept the rest
            return f"{state.name(self.id)} regains {healed} HP ({kinds}; {capped(self.roll, state, self.id)}){up}{why}"
        return f"{state.name(self.id)} regains {healed} HP ({kinds}){_how(self.roll, healed)}{up}{why}"


def capped(roll: Roll, state: FightState, cid: str) -> str:
    """The healing given and the maximum that capped it, "30 given, capped at max HP 1: now 1/1" (the state before
    or after the healing: the maximum is the same).  Ruling: a quick heal above what was lost says both numbers,
    the amount given and the maximum HP that stopped it, never the given amount alone after the HP healed (it read
    as the new HP: "regains 4 HP (4 lethal): 30" at max HP 1) — test_round4_fixes.py
    test_a_heal_capped_by_max_hp_says_so_in_the_line_and_the_why."""
    given = roll.describe()
    c = state.find(cid)
    if c is None:
        return f"{given} given, capped at max HP"
    top = data(c).max_hp
    return f"{given} given, capped at max HP {top}: now {top}/{top}"


@attrs.frozen(kw_only=True)
class DeathSaveWaived(Event):
    """The GM settled a death save without the roll: the combatant lives, unconscious (Ruling)."""

    TYPE: ClassVar[str] = "bnb.death_save_waived"
    id: str

    def describe(self, state: FightState) -> str:
        return f"{state.name(self.id)} is spared the death save: alive, unconscious and in need of medical help"


@attrs.frozen(kw_only=True)
class Revived(Event):
    """A dying combatant the GM set above 0 HP (a GM adjust) is back on its feet, as healing brings it back: its
    death save is moot (it stayed "dying", and the save, asked again at its new HP, could kill it)."""

    TYPE: ClassVar[str] = "bnb.revived"
    id: str

    def describe(self, state: FightState) -> str:
        return f"{state.name(self.id)} is above 0 HP again: back on their feet, no death save"


@attrs.frozen(kw_only=True)
class StillDead(Event):
    """The GM set a dead combatant's HP above 0 (a GM adjust): it stays dead, and the log says how to bring it back.

    Ruling (g1 finding 3): an adjust of HP does not raise the dead; the GM sets Status for that.  It changes
    nothing: a note to the GM, not shown to the players (test_round4_fixes.py
    test_an_adjust_of_hp_above_0_on_the_dead_says_they_are_still_dead)."""

    TYPE: ClassVar[str] = "bnb.still_dead"
    id: str

    def describe(self, state: FightState) -> str:
        return f"{state.name(self.id)} is still dead: set Status to bring them back"

    def describe_public(self, state: FightState) -> str | None:
        return None  # an instruction to the GM


@attrs.frozen(kw_only=True)
class DeathRuled(Event):
    """The GM settled a death save by ruling that the combatant dies (the ruling "lives" is DeathSaveWaived)."""

    TYPE: ClassVar[str] = "bnb.death_ruled"
    id: str

    def describe(self, state: FightState) -> str:
        return f"{state.name(self.id)} dies by the GM's ruling, without the death save"


def failed_save(event: Event) -> str | None:
    """The combatant whose saving throw this event failed (death, a scattergun's for half, any other)."""
    if isinstance(event, (SaveRolled, DeathSaveRolled)) and not event.success:
        return event.id
    if isinstance(event, AttackRolled) and event.save is not None and not event.saved:
        return event.target
    return None


EVENT_TYPES: tuple[type[Event], ...] = (
    AttackRolled,
    Dropped,
    ShotsFired,
    HeldFire,
    Reloaded,
    DeathSaveRolled,
    SaveRolled,
    LuckyStreakUsed,
    LoyaltyChecked,
    WoundsBound,
    TemporaryHealed,
    HpLost,
    HpHealed,
    DeathSaveWaived,
    DeathRuled,
    Revived,
    StillDead,
)
