"""Zludge events: past-tense facts, each line with its dice and ladder words.

Event tags and fields are never renamed or removed (old fight files must load);
a field added later has a default that reads an older file as it was written:
``SkillRolled.follow`` and ``RollRevised.takes_back`` (see their docs).
"""

from __future__ import annotations

import attrs

from tracker.commands import Modifier
from tracker.dice import Roll
from tracker.events import Event
from tracker.model import FightState
from tracker.text import counted

from .model import FATIGUE_STATES, WOUND_STATES, Box, ladder


def an(word: str) -> str:
    """``a Hurt``, ``an Incapacitated``: the article for a state or skill name."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def mods_text(mods: tuple[Modifier, ...]) -> str:
    return "".join(f", {m.describe()}" for m in mods)


def roll_text(roll: Roll, rerolled: Roll | None, mods: tuple[Modifier, ...], total: int, better: bool = False) -> str:
    """The dice, the modifiers and the total; an aspect's reroll shows both rolls.

    ``better``: the reroll was chosen before the roll, and the better of the two rolls counts
    ("4dF [+,+,+,+] = 4 kept over 4dF [-,-,-,-] = -4"); otherwise the reroll came after and counts
    ("rerolled from … to …").
    """
    if rerolled is not None and better:
        kept = f"{roll.describe()} kept over {rerolled.describe()} (reroll chosen before the roll: the better counts)"
        return f"{kept}{mods_text(mods)} → {ladder(total)}"
    again = f" rerolled from {rerolled.describe()} to" if rerolled is not None else ""
    return f"{again} {roll.describe()}{mods_text(mods)} → {ladder(total)}".strip()


def where(location: str, roll: Roll | None) -> str:
    """ " in the torso (1d6 [2] = 2)": a hit location and the roll that chose it."""
    out = f" in the {location}" if location else ""
    return out + (f" ({roll.describe()})" if roll is not None else "")


HELPLESS = ("prone", "unconscious")  # labels of a helpless defender's fixed defense


@attrs.frozen(kw_only=True)
class TieRerolled(Event):
    """Combatants tied on initiative roll again among themselves."""

    TYPE = "zludge.tie_rerolled"
    ids: tuple[str, ...]
    rolls: tuple[Roll, ...]
    modifiers: tuple[int, ...]

    def totals(self) -> tuple[int, ...]:
        return tuple(r.total + m for r, m in zip(self.rolls, self.modifiers, strict=True))

    def describe(self, state: FightState) -> str:
        parts = [
            f"{state.name(i)} {r.describe()} {m:+d} → {ladder(t)}"
            for i, r, m, t in zip(self.ids, self.rolls, self.modifiers, self.totals(), strict=True)
        ]
        return "Initiative tie, rolled again: " + "; ".join(parts)


@attrs.frozen(kw_only=True)
class AmbushDeclared(Event):
    """An ambush: the ambushers roll Stealth and may take a surprise action.

    ``waits``: declared with no roll; the ambush initiative waits for the surprise action and is rolled as
    round 1 begins, where an event with ``after_surprise`` opens the rolls.  Both false in older files (and
    for an ambush rolled at once): the rolls follow this event.
    """

    TYPE = "zludge.ambush_declared"
    ambushers: tuple[str, ...]
    waits: bool = False
    after_surprise: bool = False

    def describe(self, state: FightState) -> str:
        """ "Ambush by Gunman; ambushed: Rook, Mara": the ambushed are everyone else present, named (a ruling in
        ``commands.AmbushInitiative``; the line once named the ambushers alone, and an ambush by a PC's own side
        read as one)."""
        names = ", ".join(state.name(i) for i in self.ambushers)
        victims = ", ".join(c.name for c in state.present if c.id not in self.ambushers)
        head = f"Ambush by {names}" + (f"; ambushed: {victims}" if victims else "")
        if self.waits:
            return f"{head}: the surprise action first, the ambush initiative when round 1 begins"
        if self.after_surprise:
            return f"{head}: the ambush initiative, rolled after the surprise action"
        return head


@attrs.frozen(kw_only=True)
class AttackResolved(Event):
    """One attack: the attack roll against the defense roll (or the fixed defense), and what it did.

    Every hit's line names its margin ("hits Bob by 2"), a hit the armor absorbs too: it once read "hits Bob:
    weapon 2 − armor 3, armor absorbs it all", and the GM could not see whether it was a critical
    (test_round4_fixes.py::test_a_hit_the_armor_absorbs_names_its_margin)."""

    TYPE = "zludge.attack_resolved"
    actor: str
    target: str
    skill: str
    attack: Roll
    attack_rerolled: Roll | None = None
    attack_mods: tuple[Modifier, ...] = ()
    attack_total: int
    defense_skill: str | None = None  # None: flat-footed or helpless, fixed defense
    defense: Roll | None = None
    defense_rerolled: Roll | None = None
    defense_mods: tuple[Modifier, ...] = ()
    defense_total: int
    outcome: str  # miss, clipped, hit, critical
    weapon_level: int = 0
    armor_level: int = 0
    damage_level: int | None = None  # None: no damage
    location: str = ""
    location_roll: Roll | None = None
    aspect: str = ""
    defense_aspect: str = ""
    plot_point: bool = False
    defense_plot_point: bool = False
    # an aspect's reroll chosen before the roll: the better of the two rolls counts (``attack`` is the better,
    # ``attack_rerolled`` the other); false in older files, where the second roll counted whatever it was
    attack_better: bool = False
    defense_better: bool = False

    @property
    def margin(self) -> int:
        return self.attack_total - self.defense_total

    def describe(self, state: FightState) -> str:
        a, t = state.name(self.actor), state.name(self.target)
        atk = roll_text(self.attack, self.attack_rerolled, self.attack_mods, self.attack_total, self.attack_better)
        if self.defense is not None:
            dfn = f"{self.defense_skill} " + roll_text(
                self.defense, self.defense_rerolled, self.defense_mods, self.defense_total, self.defense_better
            )
        else:
            helpless = bool(self.defense_mods) and self.defense_mods[0].label in HELPLESS
            why = "no defense roll" if helpless else "flat-footed"
            dfn = f"{why}, fixed defense{mods_text(self.defense_mods)} → {ladder(self.defense_total)}"
        where = f" in the {self.location}" if self.location else ""
        if self.location_roll is not None:
            where += f" ({self.location_roll.describe()})"
        if self.outcome == "miss":
            result = "misses"
        elif self.outcome == "clipped":
            result = f"clips {t}{where}: 0-level damage"
        else:
            crit = " critical, +1 level;" if self.outcome == "critical" else ""
            if self.damage_level is None:
                result = (
                    f"hits {t}{where} by {self.margin}:{crit} weapon {self.weapon_level} − armor {self.armor_level},"
                    " armor absorbs it all"
                )
            else:
                result = (
                    f"hits {t}{where} by {self.margin}:{crit} weapon {self.weapon_level} − armor {self.armor_level}"
                    f" → {self.damage_level}-level damage"
                )
        spent = []
        if self.aspect:
            spent.append(f"{a} invokes '{self.aspect}'")
        if self.defense_aspect:
            spent.append(f"{t} invokes '{self.defense_aspect}'")
        if self.plot_point:
            spent.append(f"{a} spends a plot point")
        if self.defense_plot_point:
            spent.append(f"{t} spends a plot point")
        tail = f" [{'; '.join(spent)}]" if spent else ""
        return f"{a} attacks {t} ({self.skill} {atk}) vs ({dfn}): {result}{tail}"


def attack_result(outcome: str, target: str, margin: int, damage: int | None) -> str:
    """The short reading of an attack's outcome, for a revised roll."""
    if outcome == "miss":
        return "misses"
    if outcome == "clipped":
        return f"clips {target}: 0-level damage"
    crit = " critical, +1 level;" if outcome == "critical" else ""
    dmg = "armor absorbs it all" if damage is None else f"{damage}-level damage"
    return f"hits {target} by {margin}:{crit} {dmg}"


@attrs.frozen(kw_only=True)
class RollRevised(Event):
    """An aspect or plot point spent after seeing the roll just made: its total (or dice) and outcome change.

    ``side`` is attack, defense, skill or contest; the roll it revises is the fight's last roll.
    It spends the aspect or plot point and records the roll as it now stands; the
    ``follow`` events after it take back the harm the earlier reading did
    (:class:`HarmTakenBack`) and deal the new reading's (a wound, a treatment, a prompt).

    ``takes_back`` is true in files written since the second round.  In older files
    (false) no HarmTakenBack was logged: this event itself takes the earlier
    reading's harm back, from the touched combatants as they were before the roll.
    """

    TYPE = "zludge.roll_revised"
    who: str
    side: str
    aspect: str = ""
    reroll: Roll | None = None
    plot_point: bool = False
    mods: tuple[Modifier, ...] = ()
    total_before: int
    total: int
    against: int | None = None  # attacks: the other side's total
    outcome: str = ""  # attacks: miss, clipped, hit, critical
    damage_level: int | None = None
    opponent: str | None = None  # attacks: the other combatant
    follow: int = 0
    takes_back: bool = False
    winner: str | None = None  # contests (side "contest"): who wins now ("": a tie, the rolls that follow settle it)

    def describe(self, state: FightState) -> str:
        who = state.name(self.who)
        spent = []
        if self.aspect:
            how = f"to reroll ({self.reroll.describe()})" if self.reroll is not None else "for +1"
            spent.append(f"invokes '{self.aspect}' {how}")
        if self.plot_point:
            spent.append("spends a plot point (+1)")
        change = f"{self.side} {ladder(self.total_before)} → {ladder(self.total)}"
        if self.side == "contest":
            now = f"{state.name(self.winner)} wins" if self.winner else "a tie: both roll again"
            return f"{who} {' and '.join(spent)} after the roll: {change} against {ladder(self.against or 0)}: {now}"
        if self.side == "skill":
            result = "success" if self.total >= 0 else "failure"
            return f"{who} {' and '.join(spent)} after the roll: {change}: {result}"
        attack_total = self.total if self.side == "attack" else (self.against or 0)
        defense_total = self.against if self.side == "attack" else self.total
        margin = attack_total - (defense_total or 0)
        target = state.name(self.who if self.side == "defense" else self.opponent or "")
        now = attack_result(self.outcome, target, margin, self.damage_level)
        return f"{who} {' and '.join(spent)} after the roll: {change} against {ladder(self.against or 0)}: now {now}"


@attrs.frozen(kw_only=True)
class WoundMarked(Event):
    """A wound checks a box; a full level pushes it to the next free higher box; none left: death."""

    TYPE = "zludge.wound_marked"
    target: str
    wound: int
    box: int | None  # None: no box left above Comatose: dead
    full: tuple[int, ...] = ()  # full levels passed on the way up
    source: str = ""
    # quick damage with armor counting (plug-in 1.2): the weapon level, the armor taken off it, and the hit location
    # rolled for armor that does not cover every location; None / empty in every other wound and in older files
    weapon_level: int | None = None
    armor_level: int = 0
    location: str = ""
    location_roll: Roll | None = None

    GM_WORDS = ("source",)

    def armor_text(self) -> str:
        """ "weapon 4 − armor 2" (with the hit location when one was rolled), or "" for a wound given as a level."""
        if self.weapon_level is None:
            return ""
        return f"weapon {self.weapon_level} − armor {self.armor_level}{where(self.location, self.location_roll)}"

    def describe(self, state: FightState) -> str:
        t = state.name(self.target)
        why = "; ".join(x for x in (self.source, self.armor_text()) if x)
        why = f" ({why})" if why else ""
        up = "".join(f"; {WOUND_STATES[lvl]} full" for lvl in self.full)
        clip = ", clipped (-1 until its next action)" if self.wound == 0 else ""
        if self.box is None:
            return f"{t} takes a {self.wound}-level wound{why}{up}; no box left above Comatose: {t} dies"
        return f"{t} takes a {self.wound}-level wound{why}{up}: checks {an(WOUND_STATES[self.box])} box{clip}"


@attrs.frozen(kw_only=True)
class HarmTakenBack(Event):
    """An aspect or plot point after the roll changed its outcome: the harm its earlier reading did is undone.

    The combatant's wound track, death and clip go back to what they were before
    the roll (``wounds``, ``dead``, ``clipped`` are those values); the new
    reading's harm follows.
    """

    TYPE = "zludge.harm_taken_back"
    target: str
    wounds: tuple[Box, ...] = ()
    dead: bool = False
    clipped: bool = False

    def describe(self, state: FightState) -> str:
        name = state.name(self.target)
        c = state.find(self.target)
        what: list[str] = []
        if c is not None:
            d = c.data
            rest = list(self.wounds)
            gone = []
            for b in d.wounds:
                if b in rest:
                    rest.remove(b)
                else:
                    gone.append(b)
            added = [b for b in gone if not any(x.level == b.level and x.wound == b.wound for x in rest)]
            what += [f"{an(WOUND_STATES[b.level])} box" for b in added]
            if len(added) < len(gone):
                what.append("the first aid")
            if d.dead and not self.dead:
                what.append("the death")
            if d.clipped and not self.clipped:
                what.append("the clip")
        taken = " and ".join(what) or "the harm"
        return f"{name}: {taken} from the earlier reading taken back"


@attrs.frozen(kw_only=True)
class FatigueMarked(Event):
    TYPE = "zludge.fatigue_marked"
    target: str
    level: int
    box: int | None  # None: no box left, stays Unconscious
    full: tuple[int, ...] = ()
    physical: bool = False
    source: str = ""

    GM_WORDS = ("source",)

    def describe(self, state: FightState) -> str:
        t = state.name(self.target)
        kind = "physical fatigue (P)" if self.physical else "fatigue"
        why = f" ({self.source})" if self.source else ""
        up = "".join(f"; {FATIGUE_STATES[lvl]} full" for lvl in self.full)
        if self.box is None:
            return f"{t} takes {self.level}-level {kind}{why}{up}; no box left: stays Unconscious"
        return f"{t} takes {self.level}-level {kind}{why}{up}: checks {an(FATIGUE_STATES[self.box])} box"


@attrs.frozen(kw_only=True)
class SkillRolled(Event):
    """A skill roll (a test): first aid, a physical check, anything the GM calls for."""

    TYPE = "zludge.skill_rolled"
    actor: str
    skill: str
    roll: Roll
    rerolled: Roll | None = None
    mods: tuple[Modifier, ...] = ()
    total: int
    physical: bool = True
    purpose: str = ""  # "first aid" for a Medical roll on a target
    target: str | None = None
    aspect: str = ""
    plot_point: bool = False
    counts_as_action: bool = True
    # events of its action that follow it (a treatment, a reopen prompt); None in files
    # written before the second round, where they are counted from the roll and the state
    follow: int | None = None
    took_0: bool = False  # "Take 0" (l.18): no roll, a result of 0
    # an aspect's reroll chosen before the roll: ``roll`` is the better of the two, ``rerolled`` the other;
    # false in older files, where the second roll counted whatever it was
    better: bool = False

    @property
    def success(self) -> bool:
        return self.total >= 0

    def describe(self, state: FightState) -> str:
        a = state.name(self.actor)
        result = "success" if self.success else "failure"
        if self.total >= 4:
            result = "critical success"
        elif self.total <= -4:
            result = "critical failure"
        spent = []
        if self.aspect:
            spent.append(f"invokes '{self.aspect}'")
        if self.plot_point:
            spent.append("spends a plot point")
        tail = f" [{'; '.join(spent)}]" if spent else ""
        what = f"{self.purpose} on {state.name(self.target)}" if self.purpose else f"{an(self.skill)} check"
        roll = roll_text(self.roll, self.rerolled, self.mods, self.total, self.better)
        if self.took_0:
            return f"{a} takes 0 on {what} (no roll: {self.skill} {roll}): {result}{tail}"
        return f"{a} rolls {what} ({self.skill} {roll}): {result}{tail}"


SIMPLE, REGULAR = "simple", "regular"  # the kinds of contest (l.19–20)


@attrs.frozen(kw_only=True)
class ContestSide:
    """One side of a contest round: its skill, its roll (None: no roll, a simple contest) and total.

    ``aspect`` and ``plot_point`` are what the side spent before the contest, on the contest's first event only
    (the +1 of either stays in ``mods`` for every roll of the contest); ``rerolled`` and ``better``: an aspect's
    reroll chosen before the roll, as in a skill roll.  All four are empty in files written before contests took
    them.  ``physical``: this side's (its own skill's, or the GM's yes or no: ruling in ``contest.Contest``); None in
    files written before each side had its own, where the contest's ``ContestRolled.physical`` is both sides'.
    """

    id: str
    skill: str
    roll: Roll | None = None
    mods: tuple[Modifier, ...] = ()
    total: int = 0
    rerolled: Roll | None = None
    better: bool = False
    aspect: str = ""
    plot_point: bool = False
    physical: bool | None = None

    def text(self, state: FightState) -> str:
        if self.roll is None:
            return f"{state.name(self.id)} {self.skill}{mods_text(self.mods)} → {ladder(self.total)}"
        rolled = roll_text(self.roll, self.rerolled, self.mods, self.total, self.better)
        return f"{state.name(self.id)} {self.skill} {rolled}"

    def spent(self) -> tuple[bool, bool]:
        """Whether an aspect and whether a plot point went on this roll (before it, or before the contest)."""
        aspect = bool(self.aspect) or any(m.label.startswith("aspect '") for m in self.mods)
        return aspect, self.plot_point or any(m.label == "plot point" for m in self.mods)


@attrs.frozen(kw_only=True)
class ContestRolled(Event):
    """One round of a contest: both sides' results and who wins ("" on a tie: the contest goes on).

    ``follow`` (the events of its action after it: the loser's reopen prompt) is None in files written before a
    contest could be revised after the roll: such a round is not the roll an aspect or plot point goes on, and
    the fight folds it as it always did.  ``physical``: the contest's (None in those files), the GM's yes or no
    for both sides; None too when each side's is by its skill (its side's ``physical``; ``physical_of``).
    ``counts_as_action``: the contest's first event in a running fight, the first side's action (its turn's one;
    it ends its clip); false in files written before a contest cost an action, which fold as they did.
    """

    TYPE = "zludge.contest_rolled"
    kind: str
    round: int = 1
    first: ContestSide
    second: ContestSide
    winner: str = ""
    physical: bool | None = None
    follow: int | None = None
    counts_as_action: bool = False

    @property
    def loser(self) -> str:
        return "" if not self.winner else self.second.id if self.winner == self.first.id else self.first.id

    def physical_of(self, cid: str) -> bool:
        """Whether ``cid``'s side of the contest is physical: its own (``ContestSide.physical``), else the contest's
        as files written before each side had its own say (None there: not physical)."""
        side = self.first if cid == self.first.id else self.second
        return bool(self.physical if side.physical is None else side.physical)

    def describe(self, state: FightState) -> str:
        head = "simple contest (no roll)" if self.kind == SIMPLE else f"contest, roll {self.round}"
        if self.winner:
            out = f"{state.name(self.winner)} wins"
        elif self.kind == SIMPLE:
            out = "equal scores: a regular contest"
        else:
            out = "tie: both roll again"
        spent = []
        for side in (self.first, self.second):
            if side.aspect:
                spent.append(f"{state.name(side.id)} invokes '{side.aspect}'")
            if side.plot_point:
                spent.append(f"{state.name(side.id)} spends a plot point")
        tail = f" [{'; '.join(spent)}]" if spent else ""
        return f"{head}: {self.first.text(state)} vs {self.second.text(state)}: {out}{tail}"


@attrs.frozen(kw_only=True)
class WoundsTreated(Event):
    """First aid: each wound's effect is one level lower; the boxes stay."""

    TYPE = "zludge.wounds_treated"
    target: str
    boxes: int

    def describe(self, state: FightState) -> str:
        return f"{state.name(self.target)}'s {counted(self.boxes, 'wound')} treated: each impairs one level less"


@attrs.frozen(kw_only=True)
class WoundsReopened(Event):
    TYPE = "zludge.wounds_reopened"
    target: str
    note: str = ""

    GM_WORDS = ("note",)

    def describe(self, state: FightState) -> str:
        why = f" ({self.note})" if self.note else ""
        return f"{state.name(self.target)}'s wounds reopen: full penalties again{why}"


@attrs.frozen(kw_only=True)
class BoxCleared(Event):
    TYPE = "zludge.box_cleared"
    target: str
    track: str  # wounds or fatigue
    level: int
    note: str = ""

    GM_WORDS = ("note",)

    def describe(self, state: FightState) -> str:
        names = WOUND_STATES if self.track == "wounds" else FATIGUE_STATES
        why = f" ({self.note})" if self.note else ""
        return f"{state.name(self.target)}: {an(names[self.level])} box is cleared{why}"


@attrs.frozen(kw_only=True)
class AspectsRefreshed(Event):
    TYPE = "zludge.aspects_refreshed"
    ids: tuple[str, ...]

    def describe(self, state: FightState) -> str:
        return "A new day: aspects refreshed for " + ", ".join(state.name(i) for i in self.ids)


@attrs.frozen(kw_only=True)
class ActionTaken(Event):
    """Any other action (move, reload, aim, shout): it is the combatant's action for the turn."""

    TYPE = "zludge.action_taken"
    actor: str
    text: str
    physical: bool = True

    def describe(self, state: FightState) -> str:
        return f"{state.name(self.actor)}: {self.text}"


EVENT_TYPES: tuple[type[Event], ...] = (
    TieRerolled,
    AmbushDeclared,
    AttackResolved,
    RollRevised,
    WoundMarked,
    HarmTakenBack,
    FatigueMarked,
    SkillRolled,
    WoundsTreated,
    WoundsReopened,
    BoxCleared,
    AspectsRefreshed,
    ActionTaken,
)
