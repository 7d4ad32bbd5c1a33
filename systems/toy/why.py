"""Why: the toy's rules behind each event, read from the event and the states around it (never rolled)."""

from __future__ import annotations

from systems.toy.book import rule
from systems.toy.events import HitRolled, HpChanged, Shrugged
from systems.toy.sheet import data
from tracker.events import Event, InitiativeSet, PromptRaised
from tracker.explain import quick_harm, roll_terms
from tracker.model import FightState
from tracker.reasons import Reason


def explain(before: FightState, event: Event, after: FightState) -> tuple[Reason, ...]:
    if isinstance(event, HitRolled):
        attack = Reason.of(rule("attack"), *roll_terms(event.attack, "d20"), "hits on 10 or more")
        if not event.hit or event.damage is None:
            return (attack,)
        hp = data(after.get(event.target)).hp
        return (attack, Reason.of(rule("damage"), *roll_terms(event.damage, "damage"), f"HP left: {hp}"))
    if isinstance(event, HpChanged):
        target = before.get(event.target)
        was, most = data(target).hp, data(target).max_hp
        harm = quick_harm(
            event.roll,
            target.name,
            heal=event.change > 0 or event.roll.label.endswith("heal"),
            amount=abs(event.change),
        )
        terms = [f"HP {was} → {was + event.change}"]
        if event.change >= 0 and event.change < event.roll.total:
            terms.append(f"healing stops at the most: {most}")
        return (harm, Reason.of(rule("hit-points"), *terms))
    if isinstance(event, Shrugged):
        return (Reason.of(rule("shrug"), f"{before.name(event.actor)} gets up at 1 HP"),)
    if isinstance(event, PromptRaised) and event.prompt.kind == "down" and event.prompt.combatant:
        hp = data(after.get(event.prompt.combatant)).hp
        return (Reason.of(rule("down"), f"{after.name(event.prompt.combatant)}: HP {hp}"),)
    if isinstance(event, InitiativeSet) and event.roll is not None:
        bonus = event.roll.modifier
        return (Reason.of(rule("initiative"), f"{before.name(event.id)}: 1d20 {bonus:+d} = {event.roll.total}"),)
    return ()
