"""Blackjack events: past-tense facts, each carrying its dice."""

from __future__ import annotations

import attrs

from tracker.dice import Roll
from tracker.events import Event
from tracker.model import FightState
from tracker.text import counted

from .records import PaperBond, data

SUCCESS = "success"
OVER = "over"  # rolled over the stat: fails, and a PC marks the stat
UNDER = "under"  # at or under the DV: fails, no mark


@attrs.frozen(kw_only=True)
class DvPart:
    label: str
    value: int

    def describe(self) -> str:
        return f"{self.label} {self.value:+d}"


@attrs.frozen(kw_only=True)
class SaveRoll:
    """One Blackjack save: success when DV < d20 ≤ limit."""

    who: str
    stat: str  # ACC / BODY / CTRL, or "Threat" for an NPC
    limit: int
    dv: int
    parts: tuple[DvPart, ...]
    roll: Roll
    outcome: str
    mark: bool = False  # a PC rolled over: mark the stat
    raised_to: int = 0  # the third mark raised the stat to this
    # the phrase of the NPC sheet's "Deficient in" that halved its Threat ("": none matched, the GM's tick alone,
    # or a file written before it was kept; the limit says whether it was halved)
    deficient: str = ""

    @property
    def success(self) -> bool:
        return self.outcome == SUCCESS

    def describe(self, hide: frozenset[str] = frozenset()) -> str:
        """The save in words; ``hide``: names whose DV terms the players do not see (with the DV they sum to)."""
        shown = [p for p in self.parts if p.value and not any(n in p.label for n in hide)]
        parts = ", ".join(p.describe() for p in shown)
        if len(shown) < sum(1 for p in self.parts if p.value):
            dv = "the DV" + (f" (with {parts})" if parts else "")
        else:
            dv = f"DV {self.dv}" + (f" ({parts})" if parts else "")
        if self.outcome == SUCCESS:
            res = "success"
        elif self.outcome == OVER:
            res = "fails, over"
            if self.raised_to:
                res += f"; third mark: {self.stat} rises to {self.raised_to}"
            elif self.mark:
                res += f"; {self.stat} marked"
        else:
            res = "fails, at or under the DV"
        return f"{self.stat} save {self.roll.describe()} needs ≤ {self.limit} over {dv}: {res}"


@attrs.frozen(kw_only=True)
class SaveRolled(Event):
    TYPE = "blackjack.save_rolled"
    actor: str
    save: SaveRoll
    purpose: str = ""

    def describe(self, state: FightState) -> str:
        why = f" to {self.purpose}" if self.purpose else ""
        return f"{state.name(self.actor)} saves{why}: {self.save.describe()}"

    def describe_public(self, state: FightState) -> str | None:
        """The players' line: an NPC's terms of the DV kept from them unless the GM shows NPC numbers (a save
        against the Sheriff said "DV 8 (Sheriff Crane's Threat +5, …)")."""
        if state.view.npc_numbers:
            return self.describe(state)
        why = f" to {self.purpose}" if self.purpose else ""
        npcs = frozenset({"Threat", *(c.name for c in state.combatants if not c.is_pc and c.name)})
        return f"{state.name(self.actor)} saves{why}: {self.save.describe(npcs)}"


@attrs.frozen(kw_only=True)
class AttackMade(Event):
    """One attack (one shot of a volley, one target of a blast)."""

    TYPE = "blackjack.attack_made"
    actor: str
    target: str
    weapon: str
    weapon_index: int
    range: str
    save: SaveRoll
    hit: bool
    jammed: bool = False
    shots_spent: int = 0
    ammo_spent: int = 0
    uses_special: bool = False
    thrown: bool = False  # a melee weapon thrown: it lands on the floor
    # the shots of the revolver's or repeater's action this one is among (1: a single shot; 0: a file written
    # before it was kept, which Why? reads as the event's weapon allows)
    volley: int = 0
    level: str = ""  # the injury level the GM picked for a hit ("": the weapon's own)
    # this shot's place in the volley's targets (1: the first) and the shots of the volley fired so far, this one
    # included (a held shot is not fired); 0: a file written before they were kept (the log and Why? say no more)
    shot: int = 0
    fired: int = 0

    @property
    def unfired(self) -> int:
        """The volley's shots a jam on this shot left unfired (0: none, or not known for an older file)."""
        return self.volley - self.shot if self.jammed and self.shot and self.volley > self.shot else 0

    def describe(self, state: FightState) -> str:
        a, t = state.name(self.actor), state.name(self.target)
        who = "" if self.save.who == self.actor else f"; {state.name(self.save.who)} saves"
        res = "hit" if self.hit else "miss"
        if self.jammed:
            res = f"{self.weapon} JAMS"
            if self.unfired:
                res += f": the volley ends, {counted(self.unfired, 'shot')} not fired"
        verb = "throws a" if self.thrown else "attacks"
        how = f" {self.weapon} at {t}" if self.thrown else f" {t} with {self.weapon}"
        floor = f"; the {self.weapon} lies on the floor" if self.thrown else ""
        return f"{a} {verb}{how} ({self.range}{who}): {self.save.describe()} → {res}{floor}"


@attrs.frozen(kw_only=True)
class InjuryMarked(Event):
    """An injury and its way up the track ("lesser → slots full → moderate")."""

    TYPE = "blackjack.injury_marked"
    target: str
    name: str
    steps: tuple[str, ...]
    index: int  # the level it lands on; -1: none; len(slots): fatal
    fatal: bool = False

    def describe(self, state: FightState) -> str:
        end = " — DEAD" if self.fatal else ""
        return f"{state.name(self.target)} injury ({self.name}): {' → '.join(self.steps)}{end}"


@attrs.frozen(kw_only=True)
class InjuryCleared(Event):
    TYPE = "blackjack.injury_cleared"
    target: str
    index: int
    name: str
    level: str
    reason: str = ""

    def describe(self, state: FightState) -> str:
        why = f" ({self.reason})" if self.reason else ""
        return f"{state.name(self.target)}'s {self.level} injury ({self.name}) is cleared{why}"


@attrs.frozen(kw_only=True)
class RechargeRolled(Event):
    TYPE = "blackjack.recharge_rolled"
    actor: str
    weapon: str
    weapon_index: int
    roll: Roll
    need: int
    ok: bool

    def describe(self, state: FightState) -> str:
        res = "ready" if self.ok else "not ready"
        return f"{state.name(self.actor)}'s {self.weapon} recharge ({self.need}+): {self.roll.describe()} → {res}"


@attrs.frozen(kw_only=True)
class Reloaded(Event):
    TYPE = "blackjack.reloaded"
    actor: str
    weapon: str
    weapon_index: int
    lead: int
    jam_cleared: bool = False

    def describe(self, state: FightState) -> str:
        what = "reloads" if self.lead else "clears the jam of"
        extra = " (and clears the jam)" if self.jam_cleared and self.lead else ""
        cost = f", spending {self.lead} lead" if self.lead else ""
        return f"{state.name(self.actor)} {what} the {self.weapon}{cost}{extra}"


@attrs.frozen(kw_only=True)
class LeadIngested(Event):
    TYPE = "blackjack.lead_ingested"
    actor: str
    amount: int

    def describe(self, state: FightState) -> str:
        return f"{state.name(self.actor)} ingests {self.amount} lead"


@attrs.frozen(kw_only=True)
class WorkingCast(Event):
    TYPE = "blackjack.working_cast"
    actor: str
    working: str
    working_index: int
    lead: int
    roll: Roll
    sixes: int
    again: bool = False
    target: str | None = None

    def describe(self, state: FightState) -> str:
        on = f" on {state.name(self.target)}" if self.target else ""
        again = " (again today)" if self.again else ""
        six = f": {counted(self.sixes, 'six', 'sixes')}" if self.sixes else ": no sixes"
        return f"{state.name(self.actor)} casts {self.working}{on} with {self.lead} lead{again}, {self.roll.describe()}{six}"


WILLING_SIDE = "own side"  # WorkingTookEffect.willing: a healing working on the caster's own side, no save
WILLING_GM = "the GM"  # the GM ticked "Target is willing": no save
SAVED = "saved"  # the target was unwilling and made its save


@attrs.frozen(kw_only=True)
class WorkingTookEffect(Event):
    TYPE = "blackjack.working_took_effect"
    actor: str
    working: str
    target: str | None = None
    took: bool = True
    note: str = ""
    # why a target other than the caster made no save, or that it made one: WILLING_SIDE (a healing working on
    # the caster's own side), WILLING_GM (the GM ticked "Target is willing"), SAVED (it saved: ``took`` says how
    # it went); "": not recorded (a file written before it was kept: Why? cannot say which)
    willing: str = ""

    def describe(self, state: FightState) -> str:
        on = f" on {state.name(self.target)}" if self.target else ""
        res = "takes effect" if self.took else "is resisted"
        note = f": {self.note}" if self.note else ""
        return f"{self.working}{on} {res}{note}"


@attrs.frozen(kw_only=True)
class SixesResolved(Event):
    TYPE = "blackjack.sixes_resolved"
    actor: str
    choices: tuple[str, ...]
    note: str = ""

    def describe(self, state: FightState) -> str:
        note = f" — {self.note}" if self.note else ""
        return f"{state.name(self.actor)}'s sixes: {', '.join(self.choices)}{note}"


@attrs.frozen(kw_only=True)
class MoraleChecked(Event):
    TYPE = "blackjack.morale_checked"
    side: str
    roll: Roll
    checked: tuple[str, ...]
    broken: tuple[str, ...]
    outcome: str = "fled"

    def describe(self, state: FightState) -> str:
        if not self.broken:
            res = "they hold"
        else:
            verb = "breaks" if len(self.broken) == 1 else "break"
            res = ", ".join(state.name(i) for i in self.broken) + f" {verb} ({self.outcome})"
        mls = ", ".join(f"{state.name(i)} ML {data(state.get(i)).morale}" for i in self.checked)
        return f"Morale check for {self.side}: {self.roll.describe()} vs {mls} → {res}"


@attrs.frozen(kw_only=True)
class MoraleRuled(Event):
    """The GM settled a morale prompt by ruling that the side breaks: every member who checks morale goes."""

    TYPE = "blackjack.morale_ruled"
    side: str
    broken: tuple[str, ...]
    outcome: str = "fled"

    def describe(self, state: FightState) -> str:
        verb = "breaks" if len(self.broken) == 1 else "break"
        who = ", ".join(state.name(i) for i in self.broken)
        return f"Morale for {self.side} by the GM's ruling: {who} {verb} ({self.outcome})"


_MOVE_VERBS = {"attack": "attacks", "defend": "defends", "flourish": "flourishes"}


def _moved(move: str) -> str:
    """An Arguin' move as the log says it ("flourishes", not "flourishs")."""
    return _MOVE_VERBS.get(move, move + "s")


@attrs.frozen(kw_only=True)
class ArguinRound(Event):
    TYPE = "blackjack.arguin_round"
    pc: str
    npc: str
    pc_move: str
    npc_move: str
    losers: tuple[str, ...]

    def describe(self, state: FightState) -> str:
        lost = " and ".join(state.name(i) for i in self.losers)
        tie = " (tie)" if len(self.losers) == 2 else ""
        return (
            f"Arguin': {state.name(self.pc)} {_moved(self.pc_move)}, {state.name(self.npc)} {_moved(self.npc_move)} → "
            f"{lost} must keep face{tie}"
        )


@attrs.frozen(kw_only=True)
class ArguinLost(Event):
    TYPE = "blackjack.arguin_lost"
    loser: str
    winner: str
    note: str = ""

    def describe(self, state: FightState) -> str:
        note = f" ({self.note})" if self.note else ""
        return f"{state.name(self.loser)} is publicly shamed and loses the argument to {state.name(self.winner)}{note}"


@attrs.frozen(kw_only=True)
class Rested(Event):
    """A night's rest as files written before 2026-12-07 have it: lesser and moderate injuries cleared (afflictions
    too), workings safe again.  A night's rest is now time passing (``blackjack.time_passed``); this event is kept
    so those files fold as they were played."""

    TYPE = "blackjack.rested"
    ids: tuple[str, ...]

    def describe(self, state: FightState) -> str:
        return (
            "A night's rest: "
            + ", ".join(state.name(i) for i in self.ids)
            + " clear lesser and moderate injuries; workings are safe again"
        )


@attrs.frozen(kw_only=True)
class SavePassed(Event):
    """A social save whose DV, before the floor at 0, is below 0: it passes with no roll."""

    TYPE = "blackjack.save_passed"
    actor: str
    stat: str
    dv: int
    parts: tuple[DvPart, ...]
    purpose: str = ""

    def describe(self, state: FightState) -> str:
        why = f" to {self.purpose}" if self.purpose else ""
        parts = ", ".join(p.describe() for p in self.parts if p.value)
        return (
            f"{state.name(self.actor)} saves{why}: {self.stat} DV {self.dv} ({parts}) is below 0: "
            "passes automatically, no roll"
        )


@attrs.frozen(kw_only=True)
class WorkingStopped(Event):
    """A working that was not cast: the powderburn of casting it again dropped or killed the caster."""

    TYPE = "blackjack.working_stopped"
    actor: str
    working: str
    reason: str = ""

    def describe(self, state: FightState) -> str:
        why = f": {self.reason}" if self.reason else ""
        return f"{state.name(self.actor)}'s {self.working} is not cast{why}"


@attrs.frozen(kw_only=True)
class PaperBound(Event):
    """An injury or condition a working laid that only destroying its paper removes."""

    TYPE = "blackjack.paper_bound"
    target: str
    bond: PaperBond

    def describe(self, state: FightState) -> str:
        by = f" by {state.name(self.bond.caster)}" if self.bond.caster else ""
        return f"{state.name(self.target)}'s {self.bond.describe()}{by}: only destroying the paper removes it"


@attrs.frozen(kw_only=True)
class PaperDestroyed(Event):
    """The GM says a working's paper is destroyed: what it bound on the target goes with it."""

    TYPE = "blackjack.paper_destroyed"
    target: str
    working: str
    caster: str = ""
    note: str = ""

    GM_WORDS = ("note",)

    def describe(self, state: FightState) -> str:
        by = f" (by {state.name(self.caster)})" if self.caster else ""
        note = f" — {self.note}" if self.note else ""
        return f"The paper of {self.working}{by} on {state.name(self.target)} is destroyed{note}"


EVENT_TYPES: tuple[type[Event], ...] = (
    SaveRolled,
    AttackMade,
    InjuryMarked,
    InjuryCleared,
    RechargeRolled,
    Reloaded,
    LeadIngested,
    WorkingCast,
    WorkingTookEffect,
    SixesResolved,
    MoraleChecked,
    MoraleRuled,
    ArguinRound,
    ArguinLost,
    Rested,
    SavePassed,
    WorkingStopped,
    PaperBound,
    PaperDestroyed,
)
