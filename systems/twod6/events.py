"""The 2d6 Gamma events: past-tense facts with every die they rolled.

Each ``describe`` is given the state before its event.  Fields added since the first release
have defaults, so older fight files keep loading: ``Aimed.sniper``, ``Wounded.roll``,
``Wounded.note``, ``Wounded.times``, the ``source`` of ``Wounded`` and ``EffectApplied``, and the
others marked "older files".
"""

from __future__ import annotations

import attrs

from systems.twod6.checks import CheckRoll
from systems.twod6.record import Before
from tracker.dice import Roll
from tracker.events import Event
from tracker.model import FightState

NO_COST = "none"
# what chose a result after the roll (``EffectApplied.source``, ``Wounded.source``; "": the attacker's declared result)
DOUBLED, PARRIED, TURNED = "doubled", "Vicious Parry", "Spell Turning"
# how a grapple ended (``EffectApplied.source`` of a "freed"; "": an older file, which did not say)
BROKE_FREE, LET_GO = "broke free", "let go"


def _cost(cost: str) -> str:
    return "" if cost == NO_COST else f" [{cost} action]"


@attrs.frozen(kw_only=True)
class InitiativeTieRolled(Event):
    """Tied initiatives roll again against each other; the rerolls only order the tied."""

    TYPE = "twod6.initiative_tie_rolled"
    ids: tuple[str, ...]
    rolls: tuple[Roll, ...]
    values: tuple[int, ...]
    depth: int = 0  # how many rerolls this tie already had

    def describe(self, state: FightState) -> str:
        each = ", ".join(
            f"{state.name(i)} {r.describe()} → {v}" for i, r, v in zip(self.ids, self.rolls, self.values, strict=True)
        )
        return f"Initiative tie rerolled: {each}"


@attrs.frozen(kw_only=True)
class ActionTaken(Event):
    TYPE = "twod6.action_taken"
    actor: str
    action: str
    cost: str
    note: str = ""

    GM_WORDS = ("note",)

    def describe(self, state: FightState) -> str:
        note = f": {self.note}" if self.note else ""
        return f"{state.name(self.actor)}: {self.action}{note}{_cost(self.cost)}"


@attrs.frozen(kw_only=True)
class Aimed(Event):
    """A full round spent aiming.

    ``bonus`` is the aim as aimed (PER, at least +1); ``sniper`` doubles it on a shooting,
    archery or throwing check.  (An older file logged a Sniper's bonus already doubled, with
    ``sniper`` false: it applies as logged.)
    """

    TYPE = "twod6.aimed"
    actor: str
    bonus: int
    cost: str = "full"
    sniper: bool = False

    def describe(self, state: FightState) -> str:
        sniper = f" ({2 * self.bonus:+d} shooting, archery or throwing: Sniper)" if self.sniper else ""
        return f"{state.name(self.actor)} aims: {self.bonus:+d} on the next ranged check{sniper}{_cost(self.cost)}"


@attrs.frozen(kw_only=True)
class AttackRolled(Event):
    TYPE = "twod6.attack_rolled"
    actor: str
    target: str
    skill: str
    result: str  # the result declared before the roll
    attack: CheckRoll
    defense: CheckRoll
    defense_skill: str
    hit: bool
    times: int = 1  # 2: doubled, 3: tripled
    cost: str = "full"
    aim_used: int = 0
    reroll: bool = False
    keeps_aim: bool = False  # a melee attack neither takes nor spends an aim (older files: every attack spent it)
    keeps_stealth: bool = False  # a spell does not use up the caster's Stealth (older files: it did)

    def describe(self, state: FightState) -> str:
        a, t = state.name(self.actor), state.name(self.target)
        again = " (cinematic reroll)" if self.reroll else ""
        head = f"{a} attacks {t} with {self.skill} for {self.result}{again}: {self.attack.describe()}"
        vs = f" vs {self.defense_skill} {self.defense.describe()}"
        if not self.hit:
            out = " — defended" + (" (tie goes to the defender)" if self.attack.total == self.defense.total else "")
        else:
            out = {1: " — hit", 2: " — DOUBLED", 3: " — TRIPLED"}[self.times]
        return head + vs + out + _cost(self.cost)


@attrs.frozen(kw_only=True)
class EffectApplied(Event):
    """A result lands (disarm, distract, trip, shove, grapple, limb, unconscious, dead, freed, stood up…)."""

    TYPE = "twod6.effect_applied"
    target: str
    effect: str
    by: str | None = None
    limb: str = ""
    penalty: int = 0
    note: str = ""
    source: str = ""  # chosen after the roll: DOUBLED, PARRIED or TURNED ("": declared; older files: unknown);
    # of a "freed": BROKE_FREE (the held one broke out) or LET_GO (the holder released it); "": an older file

    def describe(self, state: FightState) -> str:
        t = state.name(self.target)
        by = f" by {state.name(self.by)}" if self.by else ""
        note = f" ({self.note})" if self.note else ""
        text = {
            "disarm": f"{t} is disarmed{by}",
            "distract": f"{t} is distracted{by}: one half-round action fewer next turn",
            "trip": f"{t} is tripped{by} and falls prone",
            "shove": f"{t} is shoved 5 feet{by}",
            "grapple": f"{t} is grappled{by}",
            "entangle": f"{t} is entangled{by} (a grapple at range)",
            "limb": f"{t}'s {self.limb} is disabled{by} ({self.penalty:+d} on rolls using it)",
            "unconscious": f"{t} is knocked unconscious{by}",
            "dead": f"{t} dies",
            "freed": f"{t} is free of the grapple",
        }.get(self.effect, f"{t}: {self.effect}{by}")
        return text + note


@attrs.frozen(kw_only=True)
class Wounded(Event):
    """Wounds dealt by an attack (``by``) or by the GM's quick damage (``roll``: the amount as typed)."""

    TYPE = "twod6.wounded"
    target: str
    wounds: int
    by: str | None = None
    roll: Roll | None = None
    note: str = ""
    was: int | None = None  # the wounds left just before (older files: read from the state before the action)
    times: int = 1  # the blow's ratio to the defense (3: tripled, whose knock-out makes unconsciousness checks moot)
    source: str = ""  # chosen after the roll: DOUBLED or TURNED ("": the declared result, or quick damage)

    GM_WORDS = ("note",)

    def describe(self, state: FightState) -> str:
        c = state.get(self.target)
        d = c.data
        had = d.wounds if self.was is None else self.was
        left = had - self.wounds
        shown = max(left, 0)
        typed = self.roll.describe() if self.roll is not None else ""
        amount = f" ({typed})" if typed and typed != str(self.wounds) else ""
        note = f" [{self.note}]" if self.note else ""
        s = f"{c.name} takes {self.wounds} wound{'s' if self.wounds > 1 else ''}{amount}: {shown}/{d.max_wounds} left"
        if had == 0 or left < 0:
            s += " — a wound at 0: dead"
        elif left == 0:
            s += " — unconscious"
        return s + note


@attrs.frozen(kw_only=True)
class Healed(Event):
    """Wounds regained (the GM's quick healing), never above the maximum; ``wakes``: up from 0 wounds."""

    TYPE = "twod6.healed"
    target: str
    wounds: int
    roll: Roll
    wakes: bool = False
    note: str = ""

    GM_WORDS = ("note",)

    def describe(self, state: FightState) -> str:
        c = state.get(self.target)
        d = c.data
        amount = self.roll.describe()
        asked = "" if self.roll.total == self.wounds else f", {self.roll.total} asked, at most the maximum"
        s = (
            f"{c.name} regains {self.wounds} wound{'s' if self.wounds != 1 else ''} ({amount}{asked}): "
            f"{d.wounds + self.wounds}/{d.max_wounds}"
        )
        if self.wakes:
            s += " — wakes up"
        return s + (f" [{self.note}]" if self.note else "")


@attrs.frozen(kw_only=True)
class ResolveRolled(Event):
    TYPE = "twod6.resolve_rolled"
    actor: str
    check: CheckRoll
    dc: int
    stakes: str  # "unconscious" or "death"
    passed: bool
    reroll: bool = False

    def describe(self, state: FightState) -> str:
        a = state.name(self.actor)
        again = " (cinematic reroll)" if self.reroll else ""
        if self.passed:
            out = "stays conscious" if self.stakes == "unconscious" else "lives"
        else:
            out = "falls unconscious" if self.stakes == "unconscious" else "dies"
        return f"{a} resolve DC {self.dc} against {self.stakes}{again}: {self.check.describe()} — {out}"


@attrs.frozen(kw_only=True)
class ResolveRuled(Event):
    """A resolve check the GM settled by ruling, without the roll: passed or failed, as a roll would have."""

    TYPE = "twod6.resolve_ruled"
    actor: str
    dc: int
    stakes: str  # "unconscious" or "death"
    passed: bool

    def describe(self, state: FightState) -> str:
        if self.passed:
            out = "stays conscious" if self.stakes == "unconscious" else "lives"
        else:
            out = "falls unconscious" if self.stakes == "unconscious" else "dies"
        return f"{state.name(self.actor)} resolve DC {self.dc} against {self.stakes} by the GM's ruling: {out}"


@attrs.frozen(kw_only=True)
class OpposedRolled(Event):
    """An opposed check outside an attack: stealth vs notice, breaking a grapple, Negate."""

    TYPE = "twod6.opposed_rolled"
    actor: str
    target: str
    purpose: str  # "stealth", "break grapple", "negate"
    check: CheckRoll
    opposing: CheckRoll
    success: bool
    cost: str = "half"
    reroll: bool = False

    def describe(self, state: FightState) -> str:
        a, t = state.name(self.actor), state.name(self.target)
        out = "succeeds" if self.success else "fails"
        again = " (cinematic reroll)" if self.reroll else ""
        return (
            f"{a} {self.purpose} vs {t}{again}: {self.check.describe()} vs {self.opposing.describe()} — "
            f"{out}{_cost(self.cost)}"
        )


@attrs.frozen(kw_only=True)
class ContestRolled(Event):
    """An opposed check between two combatants outside an attack (``Contest``): the actor's ``skill`` against the
    target's ``opposing_skill`` ("armor only (caught by stealth)" when the actor's Stealth left the target armor
    only).  ``stealth``: this check spent the actor's Stealth on the target (its armor-only roll, Sneak Attack)."""

    TYPE = "twod6.contest_rolled"
    actor: str
    target: str
    skill: str
    opposing_skill: str
    check: CheckRoll
    opposing: CheckRoll
    success: bool
    cost: str = "half"
    stealth: bool = False
    reroll: bool = False

    def describe(self, state: FightState) -> str:
        a, t = state.name(self.actor), state.name(self.target)
        again = " (cinematic reroll)" if self.reroll else ""
        if self.success:
            out = "succeeds"
        else:
            tie = self.check.total == self.opposing.total and not self.check.fumble and not self.opposing.fumble
            out = "fails" + (" (a tie goes to the one opposing)" if tie else "")
        return (
            f"{a} {self.skill} vs {t}'s {self.opposing_skill}{again}: {self.check.describe()} vs "
            f"{self.opposing.describe()} — {out}{_cost(self.cost)}"
        )


@attrs.frozen(kw_only=True)
class SkillChecked(Event):
    TYPE = "twod6.skill_checked"
    actor: str
    skill: str
    check: CheckRoll
    dc: int
    passed: bool
    cost: str = "half"
    aim_used: int = 0
    reroll: bool = False
    keeps_aim: bool = (
        False  # the aim stays (older files: an aimed Athletics/Cast check kept it; now the taker spends it)
    )

    def describe(self, state: FightState) -> str:
        out = "succeeds" if self.passed else "fails"
        again = " (cinematic reroll)" if self.reroll else ""
        return f"{state.name(self.actor)} {self.skill} check DC {self.dc}{again}: {self.check.describe()} — {out}{_cost(self.cost)}"


@attrs.frozen(kw_only=True)
class CinematicSpent(Event):
    TYPE = "twod6.cinematic_spent"
    actor: str
    use: str  # "extra turn", "reroll the failed …", "automatic critical", "ignore death"
    rerolls: int = -1  # a reroll: the place of the failed check it takes in the actor's list (older files: the latest)
    # whom the check it rerolls (or makes a critical) was against: the players' view says nothing of a cinematic
    # spent on a check against one hidden from them (()): older files, and checks against no one)
    against: tuple[str, ...] = ()

    def describe(self, state: FightState) -> str:
        c = state.get(self.actor)
        return f"{c.name} spends a cinematic ({c.data.cinematics - 1} left): {self.use}"


@attrs.frozen(kw_only=True)
class Reworked(Event):
    """A lost defense rerolled with a cinematic: its attack's outcome on the defender is taken back (wounds,
    knock-out, death, prone, disarmed, grapple, limbs, distraction, as the attack found them); the attack
    is then worked out again against the new defense, in the same action."""

    TYPE = "twod6.reworked"
    target: str
    by: str  # the attacker, whose roll stands
    before: Before
    keep: int = 0  # the defender's failed checks kept (those before the lost defense; the outcome's go with it)

    def describe(self, state: FightState) -> str:
        c = state.get(self.target)
        d = c.data
        b = self.before
        back = [f"wounds {d.wounds} → {b.wounds}/{d.max_wounds}"] if d.wounds != b.wounds else []
        for word, now, was in (
            ("unconscious", d.unconscious, b.unconscious),
            ("dead", d.dead, b.dead),
            ("prone", d.prone, b.prone),
            ("disarmed", d.disarmed, b.disarmed),
        ):
            if now and not was:
                back.append(f"no longer {word}")
        if d.grappled_by and d.grappled_by != b.grappled_by:
            back.append("no longer grappled")
        if len(d.limbs) > len(b.limbs):
            back.append("limb restored")
        if d.distracted > b.distracted:
            back.append("no longer distracted")
        undone = ", ".join(back) or "nothing had landed"
        return (
            f"{c.name}'s lost defense against {state.name(self.by)} is rerolled: the outcome is taken back ({undone})"
        )


EVENT_TYPES = (
    InitiativeTieRolled,
    ActionTaken,
    Aimed,
    AttackRolled,
    EffectApplied,
    Wounded,
    Healed,
    ResolveRolled,
    OpposedRolled,
    SkillChecked,
    CinematicSpent,
    ResolveRuled,
    Reworked,
    ContestRolled,
)
