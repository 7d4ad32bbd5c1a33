"""Zludge evolve: one function per event, each applying what the event says (pure, no dice, no decisions).

Besides its own events it follows two core ones: a turn's start is the
combatant's action (it ends flat-footedness and the clip; a turn resumed after
a held action stepped in is not a new one), and an initiative roll keeps the
roll's modifiers for a later tie reroll.

The roll just made (an attack or a skill roll) stays open to an aspect or plot
point spent after it until an event of a later action comes: it records the
combatants it touched as they were before it and how many events of its own
action follow it (``tail``).

Old files: a RollRevised written before the second round (``takes_back``
false) came with no HarmTakenBack events; applying it takes the earlier
reading's harm back itself, from the recorded combatants, exactly as the
HarmTakenBack events of newer files do.  A SkillRolled without ``follow``
counts its follow-ups from the roll and the state, as the old code did.

A contest's round (ContestRolled) spends what its sides spent before the
contest, and one written with ``follow`` is the roll just made, open to an
aspect or plot point after it; in older files (no ``follow``, nothing spent)
it changes nothing and closes the roll before it, as it always did.  One with ``counts_as_action`` (written
since a contest is the first side's action) is that side's action, as a skill roll's: it is spent and its clip
ends; older rounds have it false.
"""

from __future__ import annotations

from tracker.events import (
    ConditionAdded,
    ConditionRemoved,
    Event,
    InitiativeSet,
    RoundStarted,
    TurnEnded,
    TurnStarted,
)
from tracker.kit import Evolver
from tracker.model import Combatant, FightState, changed

from .events import (
    ActionTaken,
    AmbushDeclared,
    AspectsRefreshed,
    AttackResolved,
    BoxCleared,
    ContestRolled,
    ContestSide,
    FatigueMarked,
    HarmTakenBack,
    RollRevised,
    SkillRolled,
    TieRerolled,
    WoundMarked,
    WoundsReopened,
    WoundsTreated,
)
from .fight import LastRoll, ZludgeFight, fight_data
from .model import Box, ZludgeData, data, taken_back

apply = Evolver("zludge.")


def _set(state: FightState, cid: str, d: ZludgeData) -> FightState:
    return state.put_data(cid, d)


def _spend(d: ZludgeData, aspect: str, plot_point: bool) -> ZludgeData:
    if aspect:
        d = changed(d, aspects_used=(*d.aspects_used, aspect))
    if plot_point:
        d = changed(d, plot_points=d.plot_points - 1)
    return d


def _acted(d: ZludgeData) -> ZludgeData:
    return changed(d, acted=True, spent=True, clipped=False)


def is_clipped(name: str) -> bool:
    """The book's "clipped" as a condition the GM adds (whatever case or spacing): the rules read it."""
    return " ".join(name.split()).lower() == "clipped"


@apply.on(TurnStarted)
def _turn(state: FightState, event: TurnStarted) -> FightState:
    if event.resumed:  # the same turn goes on after a held action stepped in
        return state
    state = state.update_data(event.id, acted=True, spent=False, clipped=False)
    c = state.get(event.id)
    if any(is_clipped(x.name) for x in c.conditions):  # the clip ends as the victim acts (R.clipped)
        state = state.replace(changed(c, conditions=tuple(x for x in c.conditions if not is_clipped(x.name))))
    return state


@apply.on(ConditionAdded)
def _condition_added(state: FightState, event: ConditionAdded) -> FightState:
    """The GM's "clipped" (thrown off balance): −1 to physical actions until the victim's next action."""
    if is_clipped(event.condition.name) and state.get(event.id).data is not None:
        return state.update_data(event.id, clipped=True)
    return state


@apply.on(ConditionRemoved)
def _condition_removed(state: FightState, event: ConditionRemoved) -> FightState:
    if is_clipped(event.name) and state.get(event.id).data is not None:
        return state.update_data(event.id, clipped=False)
    return state


@apply.on(InitiativeSet)
def _initiative(state: FightState, event: InitiativeSet) -> FightState:
    first = None if event.roll is None or event.value is None else event.value - event.roll.total
    return state.update_data(event.id, init_tiebreak=(), init_modifier=first)


@apply.on(TieRerolled)
def _tie(state: FightState, event: TieRerolled) -> FightState:
    for i, t in zip(event.ids, event.totals(), strict=True):
        state = state.update_data(i, init_tiebreak=(*data(state.get(i)).init_tiebreak, t))
    return state


@apply.on(AmbushDeclared)
def _ambush(state: FightState, event: AmbushDeclared) -> FightState:
    """The ambushers; an ambush whose rolls wait for the surprise action is marked (``ambush_waits``); its rolls,
    come (``after_surprise``) or made by the GM in the surprise round, clear the mark and the roll planned."""
    state = changed(state, data=changed(fight_data(state), ambushers=event.ambushers, ambush_waits=event.waits))
    if event.after_surprise and state.reroll_next_round and state.started and state.round == 0:
        state = changed(state, reroll_next_round=False)
    return state


@apply.on(RoundStarted)
def _round(state: FightState, event: RoundStarted) -> FightState:
    """The surprise round of an ambush whose rolls wait: they are made as round 1 begins (the core rolls the
    order again then, through ``roll_initiative``, which rolls the ambush)."""
    if event.round == 0 and fight_data(state).ambush_waits:
        return changed(state, reroll_next_round=True)
    return state


def _attacker(d: ZludgeData, event: AttackResolved) -> ZludgeData:
    return _acted(_spend(d, event.aspect, event.plot_point))


@apply.on(AttackResolved)
def _attack(state: FightState, event: AttackResolved) -> FightState:
    state = state.set_data(event.actor, _attacker, event)  # (one pass over the combatants: folds do many)
    t = data(state.get(event.target))
    spent = _spend(t, event.defense_aspect, event.defense_plot_point)
    return state if spent is t else _set(state, event.target, spent)


def _wounded(d: ZludgeData, event: WoundMarked) -> ZludgeData:
    clipped = event.wound == 0
    if event.box is None:
        return changed(d, dead=True, clipped=True) if clipped else changed(d, dead=True)
    wounds = (*d.wounds, Box(level=event.box, wound=event.wound))
    return changed(d, wounds=wounds, clipped=True) if clipped else changed(d, wounds=wounds)


@apply.on(WoundMarked)
def _wound(state: FightState, event: WoundMarked) -> FightState:
    return state.set_data(event.target, _wounded, event)


@apply.on(HarmTakenBack)
def _taken_back(state: FightState, event: HarmTakenBack) -> FightState:
    d = data(state.get(event.target))
    return _set(state, event.target, changed(d, wounds=event.wounds, dead=event.dead, clipped=event.clipped))


@apply.on(FatigueMarked)
def _fatigue(state: FightState, event: FatigueMarked) -> FightState:
    if event.box is None:
        return state
    d = data(state.get(event.target))
    box = Box(level=event.box, wound=event.level, physical=event.physical)
    return _set(state, event.target, changed(d, fatigue=(*d.fatigue, box)))


@apply.on(SkillRolled)
def _skill(state: FightState, event: SkillRolled) -> FightState:
    d = _spend(data(state.get(event.actor)), event.aspect, event.plot_point)
    return _set(state, event.actor, _acted(d) if event.counts_as_action else d)


@apply.on(ContestRolled)
def _contest_rolled(state: FightState, event: ContestRolled) -> FightState:
    """A contest's round spends what its sides spent before the contest (its first round only); the log keeps
    the rest; a round that counts as the first side's action is its action.  Older files spent nothing here and
    took no action: the state stays as it was."""
    for side in (event.first, event.second):
        if side.aspect or side.plot_point:
            state = _set(state, side.id, _spend(data(state.get(side.id)), side.aspect, side.plot_point))
    if event.counts_as_action:
        state = _set(state, event.first.id, _acted(data(state.get(event.first.id))))
    return state


@apply.on(WoundsTreated)
def _treated(state: FightState, event: WoundsTreated) -> FightState:
    d = data(state.get(event.target))
    wounds = tuple(changed(b, treated=True) if b.level > 0 else b for b in d.wounds)
    return _set(state, event.target, changed(d, wounds=wounds))


@apply.on(WoundsReopened)
def _reopened(state: FightState, event: WoundsReopened) -> FightState:
    d = data(state.get(event.target))
    wounds = tuple(changed(b, treated=False) for b in d.wounds)
    return _set(state, event.target, changed(d, wounds=wounds))


def _box_cleared(d: ZludgeData, event: BoxCleared) -> ZludgeData:
    wounds = event.track == "wounds"
    boxes = d.wounds if wounds else d.fatigue
    idx = max(n for n, b in enumerate(boxes) if b.level == event.level)
    kept = boxes[:idx] + boxes[idx + 1 :]
    return changed(d, wounds=kept) if wounds else changed(d, fatigue=kept)


@apply.on(BoxCleared)
def _cleared(state: FightState, event: BoxCleared) -> FightState:
    return state.set_data(event.target, _box_cleared, event)


@apply.on(AspectsRefreshed)
def _refreshed(state: FightState, event: AspectsRefreshed) -> FightState:
    for i in event.ids:
        state = state.update_data(i, aspects_used=())
    return state


@apply.on(ActionTaken)
def _action(state: FightState, event: ActionTaken) -> FightState:
    return _set(state, event.actor, _acted(data(state.get(event.actor))))


@apply.on(RollRevised)
def _revised(state: FightState, event: RollRevised) -> FightState:
    """The reviser spends its aspect or plot point; an old file's revision also takes the harm back."""
    last = fight_data(state).last_roll
    if last is None:
        raise ValueError("a revised roll needs the roll just made")
    if not event.takes_back and not isinstance(last.event, ContestRolled):  # (a contest does no harm)
        for was in last.before:
            wounds, dead, clipped = taken_back(was, state.get(was.id), last.event.actor)
            d = data(state.get(was.id))
            state = _set(state, was.id, changed(d, wounds=wounds, dead=dead, clipped=clipped))
    return _set(state, event.who, _spend(data(state.get(event.who)), event.aspect, event.plot_point))


# ---------------------------------------------------------------------------
# the roll just made


def _revised_side(side: ContestSide, rr: RollRevised) -> ContestSide:
    return changed(
        side,
        roll=rr.reroll or side.roll,
        rerolled=side.roll if rr.reroll else side.rerolled,
        better=False if rr.reroll else side.better,
        mods=rr.mods,
        total=rr.total,
        aspect=side.aspect or rr.aspect,
        plot_point=side.plot_point or rr.plot_point,
    )


Rolled = AttackResolved | SkillRolled | ContestRolled


def revised_event(ev: Rolled, rr: RollRevised) -> Rolled:
    """The record of the last roll as the revision leaves it (its dice, modifiers, total, outcome)."""
    if isinstance(ev, ContestRolled):
        if ev.first.id == rr.who:
            return changed(ev, first=_revised_side(ev.first, rr), winner=rr.winner or "")
        return changed(ev, second=_revised_side(ev.second, rr), winner=rr.winner or "")
    if isinstance(ev, SkillRolled):
        return changed(
            ev,
            roll=rr.reroll or ev.roll,
            rerolled=ev.roll if rr.reroll else ev.rerolled,
            mods=rr.mods,
            total=rr.total,
            aspect=rr.aspect or ev.aspect,
            plot_point=ev.plot_point or rr.plot_point,
        )
    if rr.side == "attack":
        return changed(
            ev,
            attack=rr.reroll or ev.attack,
            attack_rerolled=ev.attack if rr.reroll else ev.attack_rerolled,
            attack_mods=rr.mods,
            attack_total=rr.total,
            aspect=rr.aspect or ev.aspect,
            plot_point=ev.plot_point or rr.plot_point,
            outcome=rr.outcome,
            damage_level=rr.damage_level,
        )
    return changed(
        ev,
        defense=rr.reroll or ev.defense,
        defense_rerolled=ev.defense if rr.reroll else ev.defense_rerolled,
        defense_mods=rr.mods,
        defense_total=rr.total,
        defense_aspect=rr.aspect or ev.defense_aspect,
        defense_plot_point=ev.defense_plot_point or rr.plot_point,
        outcome=rr.outcome,
        damage_level=rr.damage_level,
    )


def _tail(state: FightState, ev: AttackResolved | SkillRolled) -> int:
    """How many events of its action follow a roll (its wound; its treatment and reopen prompt)."""
    if isinstance(ev, AttackResolved):
        return 0 if ev.damage_level is None else 1
    if ev.follow is not None:
        return ev.follow
    # files written before the second round: counted as that code's decide emitted them
    treated = ev.purpose == "first aid" and ev.success
    d = data(state.get(ev.actor))
    reopen = ev.physical and not ev.success and any(b.treated for b in d.wounds)
    return int(treated) + int(reopen)


def _set_last(state: FightState, last: LastRoll | None) -> FightState:
    return changed(state, data=changed(fight_data(state), last_roll=last))


def evolve(state: FightState, event: Event) -> FightState:
    """Apply an event; keep the roll just made open to an aspect or plot point until a later action."""
    new = apply(state, event)
    kind = type(event)
    if kind is TurnStarted or kind is TurnEnded:  # (half of a long log: neither a roll nor its revision)
        fd = new.data
        last = fd.last_roll if type(fd) is ZludgeFight else None
        if last is None:
            return new
        return _set_last(new, changed(last, tail=last.tail - 1) if last.tail > 0 else None)
    if isinstance(event, RollRevised):
        last = fight_data(state).last_roll
        if last is not None:  # (apply refused a revision with no roll)
            revised = revised_event(last.event, event)
            return _set_last(new, LastRoll(event=revised, before=last.before, tail=event.follow))
    elif isinstance(event, (AttackResolved, SkillRolled)):
        a, t = event.actor, event.target
        before: tuple[Combatant, ...]
        if a and t and a != t:  # (the common case of the line below)
            before = (state.get(a), state.get(t))
        else:
            before = tuple(state.get(i) for i in dict.fromkeys(i for i in (a, t) if i))
        return _set_last(new, LastRoll(event=event, before=before, tail=_tail(state, event)))
    elif isinstance(event, ContestRolled) and event.follow is not None:
        sides = (state.get(event.first.id), state.get(event.second.id))
        return _set_last(new, LastRoll(event=event, before=sides, tail=event.follow))
    last = fight_data(new).last_roll
    if last is not None:
        return _set_last(new, changed(last, tail=last.tail - 1) if last.tail > 0 else None)
    return new
