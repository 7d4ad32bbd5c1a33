"""Blackjack's evolve: one function per event, pure, never rolls, never decides.

The one exception is kept for old fight files only: a file whose combatants
were added before morale prompts moved into ``react`` (sheet revision 1) had
the prompts of a GM adjust or a removal opened here, unlogged; they are opened
here again when such a file replays, so it folds to the same state
(:func:`_legacy_morale`).
"""

from __future__ import annotations

from typing import Any

from tracker.events import (
    Adjusted,
    CombatantRemoved,
    ConditionRemoved,
    FightEnded,
    FightStarted,
    PromptRaised,
    TurnEnded,
    TurnStarted,
)
from tracker.kit import Evolver
from tracker.model import FightState, changed

from .checks import apply_save
from .events import (
    ArguinLost,
    ArguinRound,
    AttackMade,
    InjuryCleared,
    InjuryMarked,
    LeadIngested,
    MoraleChecked,
    MoraleRuled,
    PaperBound,
    PaperDestroyed,
    RechargeRolled,
    Reloaded,
    Rested,
    SavePassed,
    SaveRolled,
    SixesResolved,
    WorkingCast,
    WorkingStopped,
    WorkingTookEffect,
)
from .records import REV, BJData, Weapon, data, fight
from .rules.morale import legacy_prompts

evolve = Evolver("blackjack.")


def _acted(state: FightState, cid: str, words: str) -> FightState:
    """The combatant took its turn's action (``words`` say which), when taken in its own turn of a running fight:
    out of turn (before the fight, after it) nothing is limited, so nothing is kept."""
    if state.current != cid:
        return state
    return state.update_data(cid, action=words)


def _set_weapon(state: FightState, cid: str, index: int, **changes: Any) -> FightState:
    ws = list(data(state.get(cid)).weapons)
    ws[index] = changed(ws[index], **changes)
    return state.update_data(cid, weapons=tuple(ws))


@evolve.on(SaveRolled)
def _save_rolled(state: FightState, ev: SaveRolled) -> FightState:
    return apply_save(state, ev.save)


def _attack_words(w: Weapon | None, name: str) -> str:
    if w is None:
        return f"attacked with {name}"
    if w.is_firearm:
        return f"fired the {name}"
    return f"used its {name}" if w.kind == "special" else f"attacked with the {name}"


@evolve.on(AttackMade)
def _attack_made(state: FightState, ev: AttackMade) -> FightState:
    state = apply_save(state, ev.save)
    if ev.weapon_index < 0:  # bare hands: nothing to spend
        return _acted(state, ev.actor, _attack_words(None, ev.weapon))
    w = data(state.get(ev.actor)).weapons[ev.weapon_index]
    state = _acted(state, ev.actor, _attack_words(w, ev.weapon))
    changes: dict[str, Any] = {}
    if ev.shots_spent:
        changes["loaded"] = max(0, w.loaded - ev.shots_spent)
    if ev.ammo_spent:
        changes["ammo"] = max(0, w.ammo - ev.ammo_spent)
    if ev.jammed:
        changes["jammed"] = True
    if ev.uses_special:
        changes["spent"] = True
    if ev.thrown:
        changes["dropped"] = True
    return _set_weapon(state, ev.actor, ev.weapon_index, **changes) if changes else state


@evolve.on(InjuryMarked)
def _injury_marked(state: FightState, ev: InjuryMarked) -> FightState:
    if ev.index < 0:
        return state
    d = data(state.get(ev.target))
    if ev.fatal:
        return state.update_data(ev.target, dead=True)
    inj = list(d.injuries)
    inj[ev.index] = (*inj[ev.index], ev.name)
    return state.update_data(ev.target, injuries=tuple(inj))


@evolve.on(InjuryCleared)
def _injury_cleared(state: FightState, ev: InjuryCleared) -> FightState:
    d = data(state.get(ev.target))
    inj = list(d.injuries)
    row = list(inj[ev.index])
    if ev.name in row:
        del row[len(row) - 1 - row[::-1].index(ev.name)]
    elif row:
        row.pop()
    inj[ev.index] = tuple(row)
    bound = list(d.bound)
    # a bond outlives no injury: the last bond of that name and level goes with the last such injury
    while sum(1 for b in bound if b.level == ev.index and b.name == ev.name) > row.count(ev.name):
        at = max(i for i, b in enumerate(bound) if b.level == ev.index and b.name == ev.name)
        del bound[at]
    return state.update_data(ev.target, injuries=tuple(inj), bound=tuple(bound))


@evolve.on(RechargeRolled)
def _recharge(state: FightState, ev: RechargeRolled) -> FightState:
    state = _set_weapon(state, ev.actor, ev.weapon_index, spent=not ev.ok)
    if state.current != ev.actor:
        return state
    return state.update_data(ev.actor, recharge_rolled=(*data(state.get(ev.actor)).recharge_rolled, ev.weapon))


@evolve.on(Reloaded)
def _reloaded(state: FightState, ev: Reloaded) -> FightState:
    w = data(state.get(ev.actor)).weapons[ev.weapon_index]
    loaded = w.shots if ev.lead else w.loaded
    state = _set_weapon(state, ev.actor, ev.weapon_index, loaded=loaded, jammed=False)
    state = _acted(state, ev.actor, f"cleared the jammed {ev.weapon}" if not ev.lead else f"reloaded the {ev.weapon}")
    return state.update_data(ev.actor, lead=data(state.get(ev.actor)).lead - ev.lead)


@evolve.on(LeadIngested)
def _lead_ingested(state: FightState, ev: LeadIngested) -> FightState:
    d = data(state.get(ev.actor))
    state = _acted(state, ev.actor, "ingested lead")
    return state.update_data(ev.actor, lead=d.lead - ev.amount, ingested=d.ingested + ev.amount)


@evolve.on(WorkingCast)
def _working_cast(state: FightState, ev: WorkingCast) -> FightState:
    d = data(state.get(ev.actor))
    wks = list(d.workings)
    wks[ev.working_index] = changed(wks[ev.working_index], cast_today=True)
    state = _acted(state, ev.actor, f"cast {ev.working}")
    return state.update_data(ev.actor, ingested=0, workings=tuple(wks), pending_sixes=d.pending_sixes + ev.sixes)


@evolve.on(SixesResolved)
def _sixes_resolved(state: FightState, ev: SixesResolved) -> FightState:
    return state.update_data(ev.actor, pending_sixes=0)


@evolve.on(MoraleChecked, MoraleRuled)
def _morale_checked(state: FightState, ev: MoraleChecked | MoraleRuled) -> FightState:
    for cid in ev.broken:
        state = state.update_data(cid, out=ev.outcome)
    return state


@evolve.on(Rested)
def _rested(state: FightState, ev: Rested) -> FightState:
    """Lesser and moderate injuries clear, except those bound to a paper; workings are safe again."""
    for cid in ev.ids:
        d = data(state.get(cid))
        inj = tuple(row if i >= 2 else _kept(d, i) for i, row in enumerate(d.injuries))
        wks = tuple(changed(w, cast_today=False) for w in d.workings)
        state = state.update_data(cid, injuries=inj, workings=wks)
    return state


def _kept(d: BJData, level: int) -> tuple[str, ...]:
    return tuple(b.name for b in d.bound if b.level == level)


@evolve.on(PaperBound)
def _paper_bound(state: FightState, ev: PaperBound) -> FightState:
    return state.update_data(ev.target, bound=(*data(state.get(ev.target)).bound, ev.bond))


@evolve.on(PaperDestroyed)
def _paper_destroyed(state: FightState, ev: PaperDestroyed) -> FightState:
    d = data(state.get(ev.target))
    kept = tuple(b for b in d.bound if not (b.working == ev.working and b.caster == ev.caster))
    return state.update_data(ev.target, bound=kept)


@evolve.on(WorkingStopped)
def _working_stopped(state: FightState, ev: WorkingStopped) -> FightState:
    """A second casting its powderburn stopped: the casting was the turn's action all the same."""
    return _acted(state, ev.actor, f"tried to cast {ev.working}")


@evolve.on(WorkingTookEffect, ArguinRound, ArguinLost, SavePassed)
def _told(state: FightState, ev: Any) -> FightState:
    return state


# -- the core's events that blackjack keeps a record of ------------------------------


@evolve.on(PromptRaised)
def _prompt_raised(state: FightState, ev: PromptRaised) -> FightState:
    """A morale prompt uses up its triggers: each prompts once."""
    if ev.prompt.kind != "morale":
        return state
    keys = tuple(k for k in str(ev.prompt.params.get("trigger", "")).split("|") if k)
    record = fight(state)
    seen = record.morale_seen + tuple(k for k in keys if k not in record.morale_seen)
    return changed(state, data=changed(record, morale_seen=seen))


@evolve.on(FightStarted)
def _fight_started(state: FightState, ev: FightStarted) -> FightState:
    """The NPCs already out when the fight starts are no side's casualties."""
    out = tuple(c.id for c in state.combatants if c.kind != "pc" and (c.removed or not data(c).standing))
    return changed(state, data=changed(fight(state), setup_out=out))


def _fresh_turn(state: FightState, cid: str) -> FightState:
    c = state.find(cid)
    if c is None or not isinstance(c.data, BJData) or not (c.data.action or c.data.recharge_rolled):
        return state
    return state.update_data(c.id, action="", recharge_rolled=())


@evolve.on(TurnStarted)
def _turn_started(state: FightState, ev: TurnStarted) -> FightState:
    """The combatant's turn begins: its action is free again (a turn resumed after a held action stepped in is
    the same turn, and keeps what was taken in it)."""
    return state if ev.resumed else _fresh_turn(state, ev.id)


@evolve.on(TurnEnded)
def _turn_ended(state: FightState, ev: TurnEnded) -> FightState:
    """The turn is over: what was taken in it is no longer "this turn's" (the next turn starts fresh anyway)."""
    return _fresh_turn(state, ev.id)


@evolve.on(FightEnded)
def _fight_ended(state: FightState, ev: FightEnded) -> FightState:
    """After the fight no turn limits anything: no turn's action is kept."""
    for c in state.combatants:
        state = _fresh_turn(state, c.id)
    return state


@evolve.on(ConditionRemoved)
def _condition_removed(state: FightState, ev: ConditionRemoved) -> FightState:
    c = state.find(ev.id)
    if c is None or not isinstance(c.data, BJData) or not any(b.level < 0 for b in c.data.bound):
        return state
    kept = tuple(b for b in c.data.bound if not (b.level < 0 and b.name == ev.name))
    return state.update_data(c.id, bound=kept)


@evolve.on(Adjusted, CombatantRemoved)
def _legacy_morale(state: FightState, ev: Adjusted | CombatantRemoved) -> FightState:
    """Old fight files only (combatants of sheet revision 1): the morale prompts evolve used to open here."""
    if not state.started or state.ended:
        return state
    if not any(isinstance(c.data, BJData) and c.data.rev < REV for c in state.combatants):
        return state
    for raised in legacy_prompts(state):
        if all(p.id != raised.prompt.id for p in state.prompts):
            state = changed(state, prompts=(*state.prompts, raised.prompt))
        state = _prompt_raised(state, raised)
    return state
