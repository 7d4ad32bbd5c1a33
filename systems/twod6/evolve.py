"""evolve: apply 2d6 Gamma events (and react to the core's turn events).  Pure, never rolls."""

from __future__ import annotations

import attrs

from systems.twod6.events import (
    NO_COST,
    ActionTaken,
    Aimed,
    AttackRolled,
    CinematicSpent,
    EffectApplied,
    InitiativeTieRolled,
    OpposedRolled,
    ResolveRolled,
    SkillChecked,
    Wounded,
)
from systems.twod6.sheet import Data, Failed, Limb
from tracker.errors import UnknownEvent
from tracker.events import Adjusted, Event, InitiativeSet, TurnEnded, TurnStarted
from tracker.model import FightState


def _data(state: FightState, cid: str) -> Data:
    return state.get(cid).data


def _put(state: FightState, cid: str, **changes: object) -> FightState:
    return state.update_data(cid, **changes)


def spend(state: FightState, cid: str, cost: str) -> FightState:
    d = _data(state, cid)
    if cost == "quick":
        return _put(state, cid, quick=max(0, d.quick - 1))
    if cost == "half":
        return _put(state, cid, half=max(0, d.half - 1))
    if cost == "full":
        return _put(state, cid, half=0)
    return state


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


def turn_started(state: FightState, e: TurnStarted) -> FightState:
    combatants = tuple(
        attrs.evolve(c, data=attrs.evolve(c.data, extra_turn=False, last_failed=None))
        if c.data is not None and (c.data.extra_turn or c.data.last_failed)
        else c
        for c in state.combatants
    )
    state = attrs.evolve(state, combatants=combatants)
    if e.resumed:
        return state
    d = _data(state, e.id)
    return _put(state, e.id, quick=2, half=max(0, 2 - d.distracted), distracted=0, graceful_used=False)


def effect(state: FightState, e: EffectApplied) -> FightState:
    t = e.target
    d = _data(state, t)
    if e.effect == "disarm":
        return _put(state, t, disarmed=True)
    if e.effect == "distract":
        return _put(state, t, distracted=min(2, d.distracted + 1))
    if e.effect == "trip":
        return _put(state, t, prone=True)
    if e.effect == "grapple":
        if e.by is None:
            return state
        state = _put(state, t, grappled_by=e.by)
        return _put(state, e.by, grappling=t)
    if e.effect == "freed":
        if d.grappled_by and _data(state, d.grappled_by).grappling == t:
            state = _put(state, d.grappled_by, grappling=None)
        return _put(state, t, grappled_by=None)
    if e.effect == "limb":
        return _put(state, t, limbs=d.limbs + (Limb(name=e.limb, penalty=e.penalty),))
    if e.effect == "unconscious":
        return settle(_put(state, t, unconscious=True), t)
    if e.effect == "dead":
        return settle(_put(state, t, dead=True), t)
    return state  # "shove": a move, nothing to track


def wounded(state: FightState, e: Wounded) -> FightState:
    d = _data(state, e.target)
    new = d.wounds - e.wounds
    dead = d.dead or d.wounds == 0 or new < 0
    state = _put(state, e.target, wounds=max(0, new), unconscious=d.unconscious or new <= 0, dead=dead)
    return settle(state, e.target)


def attack(state: FightState, e: AttackRolled) -> FightState:
    state = spend(state, e.actor, e.cost)
    d = _data(state, e.actor)
    hidden = tuple(i for i in d.hidden_from if i != e.target)
    failed = None
    if not e.hit:
        failed = Failed(
            kind="attack",
            label=f"{e.skill} attack",
            parts=e.attack.parts,
            target=e.target,
            skill=e.skill,
            result=e.result,
            defense=e.defense,
            defense_skill=e.defense_skill,
        )
    return _put(state, e.actor, aim=0, hidden_from=hidden, last_failed=failed)


def resolve(state: FightState, e: ResolveRolled) -> FightState:
    d = _data(state, e.actor)
    failed = None
    if e.passed:
        if e.reroll and e.stakes == "unconscious" and d.wounds > 0:
            state = _put(state, e.actor, unconscious=False)
        if e.reroll and e.stakes == "death":
            state = _put(state, e.actor, dead=False, death_save_failed=False)
    else:
        failed = Failed(kind="resolve", label="resolve check", parts=e.check.parts, dc=e.dc, stakes=e.stakes)
        if e.stakes == "unconscious":
            state = _put(state, e.actor, unconscious=True)
        else:
            state = _put(state, e.actor, dead=True, death_save_failed=True)
    return settle(_put(state, e.actor, last_failed=failed), e.actor)


def cinematic(state: FightState, e: CinematicSpent) -> FightState:
    d = _data(state, e.actor)
    state = _put(state, e.actor, cinematics=d.cinematics - 1)
    if e.use == "extra turn":
        return _put(state, e.actor, extra_turn=True, quick=2, half=2, graceful_used=False)
    if e.use == "ignore death":
        return _put(state, e.actor, dead=False, death_save_failed=False)
    if e.use.startswith("reroll"):
        return _put(state, e.actor, last_failed=None)
    return state


def opposed(state: FightState, e: OpposedRolled) -> FightState:
    state = spend(state, e.actor, e.cost)
    # One Stealth roll against several watchers logs one event each (the first costs the action, the
    # rest "none"): the failures of that one roll add up, so a cinematic reroll retries it against each
    # Notice it lost to.  ``defense`` keeps the actor's own roll to tell "the same roll" apart.
    last = _data(state, e.actor).last_failed
    same_roll = e.cost == NO_COST and last is not None and last.kind == "opposed" and last.defense == e.check
    failed = last if same_roll else None
    if not e.success:
        failed = Failed(
            kind="opposed",
            label=e.check.label,
            parts=e.check.parts,
            skill=e.purpose,
            target=e.target,
            defense=e.check,
            against=(failed.against if failed else ()) + ((e.target, e.opposing),),
        )
    state = _put(state, e.actor, last_failed=failed)
    if e.success and e.purpose == "sneaks":
        d = _data(state, e.actor)
        if e.target not in d.hidden_from:
            state = _put(state, e.actor, hidden_from=d.hidden_from + (e.target,))
    if e.success and e.purpose == "negates":
        state = _put(state, e.target, negated=True)
    return state


def skill_checked(state: FightState, e: SkillChecked) -> FightState:
    state = spend(state, e.actor, e.cost)
    changes: dict[str, object] = {}
    if e.aim_used:
        changes["aim"] = 0
    changes["last_failed"] = (
        None
        if e.passed
        else Failed(kind="check", label=f"{e.skill} check", parts=e.check.parts, skill=e.skill, dc=e.dc)
    )
    return _put(state, e.actor, **changes)


def action(state: FightState, e: ActionTaken) -> FightState:
    state = spend(state, e.actor, e.cost)
    if e.action == "stand up":
        state = _put(state, e.actor, prone=False)
    if e.action in ("draw weapon", "pick up weapon"):
        state = _put(state, e.actor, disarmed=False)
    if e.action == "move 20 ft" and e.cost == NO_COST:
        state = _put(state, e.actor, graceful_used=True)
    return state


def tie_rolled(state: FightState, e: InitiativeTieRolled) -> FightState:
    for cid, value in zip(e.ids, e.values, strict=True):
        d = _data(state, cid)
        state = _put(state, cid, init_tiebreak=d.init_tiebreak[: e.depth] + (value,))
    return state


def adjusted(state: FightState, e: Adjusted) -> FightState:
    """A GM adjustment has set one field; keep what depends on it in step."""
    c = state.find(e.id)
    if c is None or not isinstance(c.data, Data):
        return state
    if e.field == "grappled_by":
        old = state.find(e.old) if isinstance(e.old, str) else None
        if old is not None and old.data.grappling == e.id:
            state = _put(state, old.id, grappling=None)
        if isinstance(e.value, str):
            held = _data(state, e.value).grappling
            if held and held != e.id:
                state = _put(state, held, grappled_by=None)
            state = _put(state, e.value, grappling=e.id)
    if e.field == "max_wounds" and c.data.wounds > c.data.max_wounds:
        state = _put(state, e.id, wounds=c.data.max_wounds)
    if e.field in ("unconscious", "dead") and e.value:
        state = settle(state, e.id)
    return state


def evolve(state: FightState, event: Event) -> FightState:
    if isinstance(event, Adjusted):
        return adjusted(state, event)
    if isinstance(event, TurnStarted):
        return turn_started(state, event)
    if isinstance(event, TurnEnded):
        c = state.find(event.id)
        if c is not None and c.data is not None and c.data.negated:
            return _put(state, event.id, negated=False)
        return state
    if isinstance(event, InitiativeSet):
        return _put(state, event.id, init_tiebreak=())
    if isinstance(event, AttackRolled):
        return attack(state, event)
    if isinstance(event, Wounded):
        return wounded(state, event)
    if isinstance(event, EffectApplied):
        return effect(state, event)
    if isinstance(event, ResolveRolled):
        return resolve(state, event)
    if isinstance(event, CinematicSpent):
        return cinematic(state, event)
    if isinstance(event, OpposedRolled):
        return opposed(state, event)
    if isinstance(event, SkillChecked):
        return skill_checked(state, event)
    if isinstance(event, ActionTaken):
        return action(state, event)
    if isinstance(event, Aimed):
        return _put(spend(state, event.actor, event.cost), event.actor, aim=event.bonus)
    if isinstance(event, InitiativeTieRolled):
        return tie_rolled(state, event)
    if type(event).TYPE.startswith("twod6."):
        raise UnknownEvent(event.TYPE)
    return state
