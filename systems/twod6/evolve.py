"""evolve: apply 2d6 Gamma events (and the core's turn events and adjustments).  Pure, never rolls.

One function per event type, registered on a :class:`tracker.kit.Evolver`.  An event applies what
it says and nothing it does not: follow-ups (a resolve check after a wound, the knock-out after a
tripled attack's death check) are decided in ``rules.react`` and logged as their own events.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from systems.twod6.events import (
    NO_COST,
    ActionTaken,
    Aimed,
    AttackRolled,
    CinematicSpent,
    ContestRolled,
    EffectApplied,
    Healed,
    InitiativeTieRolled,
    OpposedRolled,
    ResolveRolled,
    ResolveRuled,
    Reworked,
    SkillChecked,
    Wounded,
)
from systems.twod6.record import Before, Data, Failed, data
from systems.twod6.sheet import NOTICE, SNIPER, STEALTH, Limb
from systems.twod6.table import PRONE
from tracker.events import Adjusted, InitiativeSet, TurnEnded, TurnStarted
from tracker.kit import Evolver
from tracker.model import FightState, changed

evolve = Evolver("twod6.")


def _data(state: FightState, cid: str) -> Data:
    return data(state.get(cid))


def _put(state: FightState, cid: str, **changes: object) -> FightState:
    return state.update_data(cid, **changes)


def _change(state: FightState, cid: str, fn: Callable[..., Data], *args: Any) -> FightState:
    """The combatant's record made anew by ``fn(record, *args)``, in one pass over the combatants (``_data``
    then ``_put`` make two; the fold's commonest events come here).  ``FightState.set_data`` without its
    blind trust in the record: one that is not 2d6's is a TypeError naming the combatant, as ``data`` says."""
    cs = state.combatants
    for i, c in enumerate(cs):
        if c.id == cid:
            return changed(state, combatants=(*cs[:i], changed(c, data=fn(data(c), *args)), *cs[i + 1 :]))
    raise KeyError(cid)


def spent(d: Data, cost: str) -> dict[str, object]:
    """The action economy's fields after spending ``cost`` (none for a free action)."""
    if cost == "quick":
        return {"quick": max(0, d.quick - 1)}
    if cost == "half":
        return {"half": max(0, d.half - 1)}
    if cost == "full":
        return {"half": 0}
    return {}


def spend(state: FightState, cid: str, cost: str) -> FightState:
    changes = spent(_data(state, cid), cost)
    return _put(state, cid, **changes) if changes else state


def settle(state: FightState, cid: str) -> FightState:
    """Someone unconscious or dead is out of any grapple."""
    d = _data(state, cid)
    if not d.down:
        return state
    if d.grappled_by:
        state = _put(state, d.grappled_by, grappling=None)
        state = _put(state, cid, grappled_by=None)
    if d.grappling:
        state = _put(state, d.grappling, grappled_by=None)
        state = _put(state, cid, grappling=None)
    return state


# ---------------------------------------------------------------------------
# the core's events


@evolve.on(TurnStarted)
def turn_started(state: FightState, e: TurnStarted) -> FightState:
    """An extra turn and a lost defense's reroll (right after its attack) last until the next turn starts,
    anyone's; the combatant whose turn starts (not one resumed after a held action) gets its actions back and
    its failed checks are behind it.  Ruling (RULINGS third pass, "the combatant's failed checks since its last
    turn"): a combatant's failed checks stay open to a cinematic reroll until its own next turn starts, so a
    check failed on another's turn, after its own, can still be rerolled.  One pass over the combatants and one
    copy of the state: this runs at every turn of a long log's fold."""
    begins = not e.resumed
    combatants = list(state.combatants)
    touched = found = False
    for i, c in enumerate(combatants):
        d = c.data
        mine = begins and c.id == e.id
        if mine:
            d = data(c)  # (a 2d6 record, else TypeError)
            found = True
        elif not isinstance(d, Data):
            continue
        if mine:
            ended = {"extra_turn": False, "failed": ()} if d.extra_turn or d.failed else {}
            d = changed(d, quick=2, half=max(0, 2 - d.distracted), distracted=0, graceful_used=False, **ended)
        elif d.extra_turn or any(f.kind == "defense" for f in d.failed):
            d = changed(d, extra_turn=False, failed=_without_defenses(d.failed))
        else:
            continue
        combatants[i] = changed(c, data=d)
        touched = True
    if begins and not found:
        raise KeyError(e.id)  # (the combatant whose turn starts is there)
    return changed(state, combatants=tuple(combatants)) if touched else state


def _failed(d: Data, f: Failed) -> tuple[Failed, ...]:
    return (*d.failed, f)


def _without_defenses(failed: tuple[Failed, ...]) -> tuple[Failed, ...]:
    """A lost defense is rerolled right after its attack: another attack on the defender, or any other change
    to its harm (healing, rest, the GM's hand, quick damage), ends that chance."""
    return tuple(f for f in failed if f.kind != "defense")


def _touched(state: FightState, cid: str) -> FightState:
    c = state.find(cid)
    if c is None or not isinstance(c.data, Data) or not any(f.kind == "defense" for f in c.data.failed):
        return state
    return _put(state, cid, failed=_without_defenses(c.data.failed))


@evolve.on(TurnEnded)
def turn_ended(state: FightState, e: TurnEnded) -> FightState:
    c = state.find(e.id)
    if c is not None and isinstance(c.data, Data) and c.data.negated:
        return _put(state, e.id, negated=False)
    return state


@evolve.on(InitiativeSet)
def initiative_set(state: FightState, e: InitiativeSet) -> FightState:
    return _put(state, e.id, init_tiebreak=())


@evolve.on(Adjusted)
def adjusted(state: FightState, e: Adjusted) -> FightState:
    """A GM adjustment has set one field; keep what depends on it in step."""
    c = state.find(e.id)
    if c is None or not isinstance(c.data, Data):
        return state
    if e.field == "grappled_by":
        old = state.find(e.old) if isinstance(e.old, str) else None
        if old is not None and data(old).grappling == e.id:
            state = _put(state, old.id, grappling=None)
        if isinstance(e.value, str):
            held = _data(state, e.value).grappling
            if held and held != e.id:
                state = _put(state, held, grappled_by=None)
            state = _put(state, e.value, grappling=e.id)
        state = _put(state, e.id, entangled=False)  # (a hold the GM sets is a grapple)
    if e.field == "max_wounds" and c.data.wounds > c.data.max_wounds:
        state = _put(state, e.id, wounds=c.data.max_wounds)
    if e.field == "aim":
        state = _put(state, e.id, aim_sniper=c.data.has(SNIPER))
    if e.field in ("unconscious", "dead") and e.value:
        state = settle(state, e.id)
    return _touched(state, e.id)


# ---------------------------------------------------------------------------
# the system's events


@evolve.on(InitiativeTieRolled)
def tie_rolled(state: FightState, e: InitiativeTieRolled) -> FightState:
    for cid, value in zip(e.ids, e.values, strict=True):
        d = _data(state, cid)
        state = _put(state, cid, init_tiebreak=d.init_tiebreak[: e.depth] + (value,))
    return state


@evolve.on(ActionTaken)
def action(state: FightState, e: ActionTaken) -> FightState:
    state = spend(state, e.actor, e.cost)
    if e.action == "stand up":  # up from prone, tripped or set by the GM as the book's condition
        state = _put(state, e.actor, prone=False)
        c = state.get(e.actor)
        if any(cond.name == PRONE for cond in c.conditions):
            kept = tuple(cond for cond in c.conditions if cond.name != PRONE)
            state = state.update(e.actor, conditions=kept)
    if e.action in ("draw weapon", "pick up weapon"):
        state = _put(state, e.actor, disarmed=False)
    if e.action == "move 20 ft" and e.cost == NO_COST:
        state = _put(state, e.actor, graceful_used=True)
    return state


@evolve.on(Aimed)
def aimed(state: FightState, e: Aimed) -> FightState:
    return _put(spend(state, e.actor, e.cost), e.actor, aim=e.bonus, aim_sniper=e.sniper)


@evolve.on(AttackRolled)
def attack(state: FightState, e: AttackRolled) -> FightState:
    state = _change(state, e.actor, _attacked, e)
    return _change(state, e.target, _defended, e) if e.target != e.actor else state


def _attacked(d: Data, e: AttackRolled) -> Data:
    changes = spent(d, e.cost)  # (one copy of the state for the whole attack: a long log's fold has many)
    if not e.keeps_stealth:
        hidden = d.hidden_from
        changes["hidden_from"] = tuple(i for i in hidden if i != e.target) if e.target in hidden else hidden
    if not e.keeps_aim:
        changes["aim"] = 0
    if not e.hit:
        changes["failed"] = _failed(
            d,
            Failed(
                kind="attack",
                label=f"{e.skill} attack",
                parts=e.attack.parts,
                target=e.target,
                skill=e.skill,
                result=e.result,
                defense=e.defense,
                defense_skill=e.defense_skill,
            ),
        )
    return changed(d, **changes)


def _defended(d: Data, e: AttackRolled) -> Data:
    """The defender: a defense that lost can be rerolled right after (the attack stands), from where it was."""
    failed = _without_defenses(d.failed)
    if e.hit:
        before = Before(
            wounds=d.wounds,
            unconscious=d.unconscious,
            dead=d.dead,
            death_save_failed=d.death_save_failed,
            prone=d.prone,
            disarmed=d.disarmed,
            grappled_by=d.grappled_by,
            limbs=d.limbs,
            distracted=d.distracted,
        )
        lost = Failed(
            kind="defense",
            label=e.defense.label,
            parts=e.defense.parts,
            target=e.actor,
            skill=e.skill,
            result=e.result,
            defense_skill=e.defense_skill,
            attack_roll=e.attack,
            before=before,
        )
        failed = (*failed, lost)
    return d if failed == d.failed else changed(d, failed=failed)


@evolve.on(EffectApplied)
def effect(state: FightState, e: EffectApplied) -> FightState:
    t = e.target
    d = _data(state, t)
    if e.effect == "disarm":
        return _put(state, t, disarmed=True)
    if e.effect == "distract":
        return _put(state, t, distracted=min(2, d.distracted + 1))
    if e.effect == "trip":
        return _put(state, t, prone=True)
    if e.effect in ("grapple", "entangle"):
        if e.by is None:
            return state
        state = _put(state, t, grappled_by=e.by, entangled=e.effect == "entangle")
        return _put(state, e.by, grappling=t)
    if e.effect == "freed":
        if d.grappled_by and _data(state, d.grappled_by).grappling == t:
            state = _put(state, d.grappled_by, grappling=None)
        return _put(state, t, grappled_by=None, entangled=False)
    if e.effect == "limb":
        return _put(state, t, limbs=(*d.limbs, Limb(name=e.limb, penalty=e.penalty)))
    if e.effect == "unconscious":
        return settle(_put(state, t, unconscious=True), t)
    if e.effect == "dead":
        return settle(_put(state, t, dead=True), t)
    return state  # "shove": a move, nothing to track


@evolve.on(Wounded)
def wounded(state: FightState, e: Wounded) -> FightState:
    state = settle(_change(state, e.target, _wounded, e), e.target)
    return state if e.by is not None else _touched(state, e.target)  # quick damage: the fight moved on


def _wounded(d: Data, e: Wounded) -> Data:
    new = d.wounds - e.wounds
    dead = d.dead or d.wounds == 0 or new < 0
    return changed(d, wounds=max(0, new), unconscious=d.unconscious or new <= 0, dead=dead)


@evolve.on(Healed)
def healed(state: FightState, e: Healed) -> FightState:
    return _change(state, e.target, _healed, e)


def _healed(d: Data, e: Healed) -> Data:
    return changed(
        d,
        wounds=min(d.max_wounds, d.wounds + e.wounds),
        unconscious=d.unconscious and not e.wakes,
        failed=_without_defenses(d.failed),
    )


@evolve.on(ResolveRolled)
def resolve(state: FightState, e: ResolveRolled) -> FightState:
    d = _data(state, e.actor)
    changes: dict[str, object] = {}
    if e.passed:
        if e.reroll and e.stakes == "unconscious" and d.wounds > 0:
            changes["unconscious"] = False
        if e.reroll and e.stakes == "death":  # the survivor of a death check is unconscious either way
            changes.update(dead=False, death_save_failed=False, unconscious=True)
    else:
        changes["failed"] = _failed(
            d, Failed(kind="resolve", label="resolve check", parts=e.check.parts, dc=e.dc, stakes=e.stakes)
        )
        if e.stakes == "unconscious":
            changes["unconscious"] = True
        else:
            changes.update(dead=True, death_save_failed=True)
    return settle(_put(state, e.actor, **changes), e.actor) if changes else state


@evolve.on(ResolveRuled)
def resolve_ruled(state: FightState, e: ResolveRuled) -> FightState:
    """As a roll that passed or failed would leave it, with no failed check for a cinematic to reroll."""
    if e.passed:
        return state
    changes = {"unconscious": True} if e.stakes == "unconscious" else {"dead": True, "death_save_failed": True}
    return settle(_put(state, e.actor, **changes), e.actor)


@evolve.on(CinematicSpent)
def cinematic(state: FightState, e: CinematicSpent) -> FightState:
    d = _data(state, e.actor)
    state = _put(state, e.actor, cinematics=d.cinematics - 1)
    if e.use == "extra turn":
        return _put(state, e.actor, extra_turn=True, quick=2, half=2, graceful_used=False)
    if e.use == "ignore death":  # alive, and unconscious as the check's survivor is
        return _put(state, e.actor, dead=False, death_save_failed=False, unconscious=True)
    if e.use.startswith("reroll") and d.failed:  # the check rerolled is used up (an older file: the latest)
        n = e.rerolls if -len(d.failed) <= e.rerolls < len(d.failed) else -1
        n %= len(d.failed)
        return _put(state, e.actor, failed=d.failed[:n] + d.failed[n + 1 :])
    return state


@evolve.on(Reworked)
def reworked(state: FightState, e: Reworked) -> FightState:
    """A lost defense rerolled: its defender is taken back to where the attack found it (the checks that
    the outcome brought are gone with it), the holder's grip with it."""
    d = _data(state, e.target)
    b = e.before
    holder = d.grappled_by
    if holder and holder != b.grappled_by:
        h = state.find(holder)
        if h is not None and isinstance(h.data, Data) and h.data.grappling == e.target:
            state = _put(state, holder, grappling=None)
    if b.grappled_by and b.grappled_by != holder:
        state = _put(state, b.grappled_by, grappling=e.target)
    return _put(
        state,
        e.target,
        wounds=b.wounds,
        unconscious=b.unconscious,
        dead=b.dead,
        death_save_failed=b.death_save_failed,
        prone=b.prone,
        disarmed=b.disarmed,
        grappled_by=b.grappled_by,
        limbs=b.limbs,
        distracted=b.distracted,
        failed=d.failed[: e.keep],
    )


@evolve.on(OpposedRolled)
def opposed(state: FightState, e: OpposedRolled) -> FightState:
    state = spend(state, e.actor, e.cost)
    # One Stealth roll against several watchers logs one event each (the first costs the action, the
    # rest "none"): the failures of that one roll add up, so a cinematic reroll retries it against each
    # Notice it lost to.  ``defense`` keeps the actor's own roll to tell "the same roll" apart.
    d = _data(state, e.actor)
    last = d.last_failed
    same_roll = e.cost == NO_COST and last is not None and last.kind == "opposed" and last.defense == e.check
    if not e.success:
        lost = Failed(
            kind="opposed",
            label=e.check.label,
            parts=e.check.parts,
            skill=e.purpose,
            target=e.target,
            defense=e.check,
            against=(last.against if same_roll and last else ()) + ((e.target, e.opposing),),
        )
        state = _put(state, e.actor, failed=(*d.failed[:-1], lost) if same_roll else (*d.failed, lost))
    if e.success and e.purpose == "sneaks":
        d = _data(state, e.actor)
        if e.target not in d.hidden_from:
            state = _put(state, e.actor, hidden_from=(*d.hidden_from, e.target))
    if e.success and e.purpose == "negates":
        state = _put(state, e.target, negated=True)
    return state


@evolve.on(SkillChecked)
def skill_checked(state: FightState, e: SkillChecked) -> FightState:
    state = spend(state, e.actor, e.cost)
    changes: dict[str, object] = {}
    if e.aim_used and not e.keeps_aim:
        changes["aim"] = 0
    if not e.passed:
        lost = Failed(kind="check", label=f"{e.skill} check", parts=e.check.parts, skill=e.skill, dc=e.dc)
        changes["failed"] = _failed(_data(state, e.actor), lost)
    return _put(state, e.actor, **changes) if changes else state


@evolve.on(ContestRolled)
def contest(state: FightState, e: ContestRolled) -> FightState:
    """An opposed check: its cost; the Stealth it spent (Intimidate, Diplomacy); a Stealth that won hides the actor
    from the target, an active Notice that beat a hider's Stealth spots it; a lost one is kept for a reroll."""
    state = spend(state, e.actor, e.cost)
    d = _data(state, e.actor)
    hidden = d.hidden_from
    if e.stealth:
        hidden = tuple(i for i in hidden if i != e.target)
    if e.success and e.skill == STEALTH and e.target not in hidden:
        hidden = (*hidden, e.target)
    changes: dict[str, object] = {} if hidden == d.hidden_from else {"hidden_from": hidden}
    if not e.success:
        lost = Failed(
            kind="contest",
            label=f"{e.skill} check",
            parts=e.check.parts,
            target=e.target,
            skill=e.skill,
            defense=e.opposing,
            defense_skill=e.opposing_skill,
        )
        changes["failed"] = _failed(d, lost)
    if changes:
        state = _put(state, e.actor, **changes)
    if e.success and e.skill == NOTICE and e.opposing_skill == STEALTH:
        seen = _data(state, e.target).hidden_from
        if e.actor in seen:
            state = _put(state, e.target, hidden_from=tuple(i for i in seen if i != e.actor))
    return state
