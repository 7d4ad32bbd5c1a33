"""Blood & Bullets evolve: one pure function per event; it applies what the event says and decides nothing."""

from __future__ import annotations

from typing import Any

from systems.bnb.checks import SCATTERGUN_SAVE
from systems.bnb.events import (
    AttackRolled,
    DeathRuled,
    DeathSaveRolled,
    DeathSaveWaived,
    Dropped,
    HeldFire,
    HpHealed,
    HpLost,
    LoyaltyChecked,
    LuckyStreakUsed,
    Reloaded,
    Revived,
    SaveRolled,
    ShotsFired,
    StillDead,
    TemporaryHealed,
    WoundsBound,
)
from systems.bnb.sheet import DEAD, DYING, OK, UNCONSCIOUS, BnbData, LastSave, data
from tracker.commands import Modifier
from tracker.events import CombatantRemoved, FightEnded, PromptResolved, RoundStarted
from tracker.kit import Evolver
from tracker.model import FightState, changed

evolve = Evolver("bnb.")


def _set(state: FightState, cid: str, **changes: Any) -> FightState:
    return state.update_data(cid, **changes)


def _of(state: FightState, cid: str) -> BnbData:
    return data(state.get(cid))


def _gun(state: FightState, cid: str, name: str, **changes: Any) -> FightState:
    d = _of(state, cid)
    return _set(state, cid, weapons=tuple(changed(g, **changes) if g.name == name else g for g in d.weapons))


def _failed(against: str, st: int, parts: tuple[Modifier, ...], ok: bool, damage: int = 0) -> LastSave | None:
    return None if ok else LastSave(against=against, st=st, parts=parts, damage=damage)


@evolve.on(RoundStarted)
def _round(state: FightState, event: RoundStarted) -> FightState:
    """A new round: every combatant's round's action is free again."""
    return _round_over(state)


@evolve.on(FightEnded)
def _ended(state: FightState, event: FightEnded) -> FightState:
    """Ruling: the fight's end closes its round, as a new round does: the round's action is cleared ("This round:
    Gun-play" stayed in the detail after the end and after rest). Only ends logged with ``closes_round``: an end
    already in a file folds as it did (tests/systems/bnb/test_held_at_end.py::test_the_end_clears_the_rounds_action,
    test_an_end_logged_before_keeps_the_rounds_action, test_undo_of_the_end_brings_the_rounds_action_back)."""
    return _round_over(state) if event.closes_round else state


def _round_over(state: FightState) -> FightState:
    return changed(
        state,
        combatants=tuple(
            changed(c, data=changed(c.data, used=(), gunplay=False, reloaded=False))
            if isinstance(c.data, BnbData) and c.data.acted
            else c
            for c in state.combatants
        ),
    )


@evolve.on(PromptResolved)
def _legacy_prompt(state: FightState, event: PromptResolved) -> FightState:
    """Fights saved before the prompt ids were ``death_save:`` / ``lucky_streak:``: a dismissed
    ``death:<id>`` left the combatant unconscious, a closed ``lucky:<id>`` forfeited the re-roll.
    (Newer fights log those outcomes as events of their own.)"""
    if not event.prompt_id.startswith(("death:", "lucky:")):  # (every prompt resolved comes here)
        return state
    for c in state.combatants:
        if not isinstance(c.data, BnbData):
            continue
        if event.prompt_id == f"death:{c.id}" and c.data.status == DYING:
            return _set(state, c.id, status=UNCONSCIOUS)
        if event.prompt_id == f"lucky:{c.id}":
            return _set(state, c.id, last_save=None)
    return state


@evolve.on(CombatantRemoved)
def _removed(state: FightState, event: CombatantRemoved) -> FightState:
    """An NPC leaving the running fight (fled, driven off, captured) counts as overcome for XP (xp.py)."""
    c = state.find(event.id)
    if c is None or not isinstance(c.data, BnbData) or c.is_pc or not state.started or state.ended:
        return state
    return _set(state, event.id, dropped_round=state.round)


@evolve.on(AttackRolled)
def _attack(state: FightState, event: AttackRolled) -> FightState:
    if event.using:
        state = _set(state, event.actor, used=(*_of(state, event.actor).used, event.using))
    if not event.hit:
        return state
    t = _of(state, event.target)
    changes: dict[str, Any] = {}  # (one copy of the target for the whole hit: a long log's fold has many)
    if event.amount > 0:
        if event.temporary:
            changes["temp"] = t.temp + event.amount
        else:
            changes.update(damage=t.damage + event.amount, lost=t.lost + event.amount)
    if event.save is not None and not event.saved:
        dex = (Modifier(label="DEX", value=event.save_total - event.save.total),)
        changes["last_save"] = _failed(SCATTERGUN_SAVE, event.save_st, dex, False, event.amount)
    return _set(state, event.target, **changes) if changes else state


@evolve.on(Dropped)
def _dropped(state: FightState, event: Dropped) -> FightState:
    return _set(state, event.id, status=event.outcome, dropped_round=state.round, dropped_by=event.by)


@evolve.on(ShotsFired)
def _shots(state: FightState, event: ShotsFired) -> FightState:
    g = _of(state, event.actor).carried(event.gun)
    shots = (g.shots if g else 0) - event.count
    state = _gun(state, event.actor, event.gun, shots=shots, last_round=state.round)
    return _set(state, event.actor, gunplay=True) if event.gunplay else state


@evolve.on(HeldFire)
def _held(state: FightState, event: HeldFire) -> FightState:
    return state


@evolve.on(Reloaded)
def _reloaded(state: FightState, event: Reloaded) -> FightState:
    state = _gun(state, event.actor, event.gun, shots=event.after)
    return _set(state, event.actor, reloaded=True)


@evolve.on(DeathSaveRolled)
def _death_save(state: FightState, event: DeathSaveRolled) -> FightState:
    return _set(
        state,
        event.id,
        status=UNCONSCIOUS if event.success else DEAD,
        last_save=_failed("death", event.st, event.parts, event.success),
    )


@evolve.on(StillDead)
def _still_dead(state: FightState, event: StillDead) -> FightState:
    return state  # a note to the GM: the combatant stays dead


@evolve.on(Revived)
def _revived(state: FightState, event: Revived) -> FightState:
    return _set(state, event.id, status=OK, dropped_round=None, dropped_by=None)


@evolve.on(DeathSaveWaived)
def _waived(state: FightState, event: DeathSaveWaived) -> FightState:
    return _set(state, event.id, status=UNCONSCIOUS)


@evolve.on(DeathRuled)
def _ruled_dead(state: FightState, event: DeathRuled) -> FightState:
    return _set(state, event.id, status=DEAD)


@evolve.on(SaveRolled)
def _save(state: FightState, event: SaveRolled) -> FightState:
    return _set(state, event.id, last_save=_failed(event.against, event.st, event.parts, event.success))


@evolve.on(LuckyStreakUsed)
def _lucky(state: FightState, event: LuckyStreakUsed) -> FightState:
    d = _of(state, event.id)
    changes: dict[str, Any] = {"lucky_used": d.lucky_used + 1, "last_save": None}
    if event.of_death_save:
        changes["status"] = UNCONSCIOUS if event.success else DEAD
    if event.restored:
        changes["damage"] = d.damage - event.restored
        changes["lost"] = max(0, d.lost - event.restored)
    if event.revived:
        changes.update(status=OK, dropped_round=None, dropped_by=None)
    return _set(state, event.id, **changes)


@evolve.on(LoyaltyChecked)
def _loyalty(state: FightState, event: LoyaltyChecked) -> FightState:
    return _set(state, event.id, loyalty_next=event.next_mod)


@evolve.on(WoundsBound)
def _bound(state: FightState, event: WoundsBound) -> FightState:
    d = _of(state, event.id)
    state = _set(state, event.id, damage=d.damage - event.healed, lost=d.lost - event.healed, bound=True)
    return _set(state, event.id, status=OK, dropped_round=None, dropped_by=None) if event.revived else state


@evolve.on(TemporaryHealed)
def _rested(state: FightState, event: TemporaryHealed) -> FightState:
    d = _of(state, event.id)
    state = _set(state, event.id, temp=d.temp - event.healed)
    return _set(state, event.id, status=OK) if event.woke else state


@evolve.on(HpLost)
def _hp_lost(state: FightState, event: HpLost) -> FightState:
    d = _of(state, event.id)
    if event.temporary:
        return _set(state, event.id, temp=d.temp + event.amount)
    return _set(state, event.id, damage=d.damage + event.amount, lost=d.lost + event.amount)


@evolve.on(HpHealed)
def _hp_healed(state: FightState, event: HpHealed) -> FightState:
    d = _of(state, event.id)
    changes: dict[str, Any] = {
        "temp": d.temp - event.temporary,
        "damage": d.damage - event.lethal,
        "lost": max(0, d.lost - event.lethal),
    }
    if event.revived:
        changes.update(status=OK, dropped_round=None, dropped_by=None)
    return _set(state, event.id, **changes)
