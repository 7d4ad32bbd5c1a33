"""Initiative: Reflexes rolls (or the ambush rolls), ties rolled again among the tied, every roll logged.

Ruling (rule ``initiative_tie``): a combatant already in the order that rolls
again to break a tie rolls with the same modifiers as its first roll (its
Reflexes or ambush skill and the wound, clip and fatigue penalties it had
then).  A GM-set initiative has no roll of its own: such a combatant's tie
reroll takes the modifier the roll being made would give it now.

Ruling (rules ``ambush`` and ``surprise``; l.102 "an ambusher may get an entire
surprise action before Reflexes are rolled"): the GM may declare the ambush
with its rolls after the surprise action (``after_surprise``): the ambushers
are declared with no roll, the fight starts with their surprise round, and the
ambush initiative (Stealth; the average of Reflexes and Alertness) is rolled as
round 1 begins, with the wounds and clips the surprise action left weighing on
it.  The ambush could only be rolled before the fight, so the surprise shot's
wound never counted on its victim's roll.  Rolled at once (the default) it is
as before: the rolls, then the surprise round.  A fight cannot start without a
surprise round while the rolls wait, and the initiative cannot be rolled
before the fight then (the ambush, untimed, rolls it).
Tests: test_initiative.py::test_the_surprise_action_before_the_ambush_rolls_*.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tracker.commands import Modifier
from tracker.dice import Roller
from tracker.errors import Refused
from tracker.events import Event, InitiativeSet, OrderSet
from tracker.kit import Draft, need
from tracker.model import Combatant, FightState

from ..checks import fudge
from ..commands import AmbushInitiative
from ..events import AmbushDeclared, TieRerolled
from ..fight import fight_data
from ..model import data, ladder
from ..table import R, applies

MAX_TIE_REROLLS = 20


def _ceil_half(n: int) -> int:
    return -(-n // 2)


@applies(R.initiative, R.ambush)
def _modifier(c: Combatant, ambushers: Sequence[str] | None) -> tuple[int, str]:
    """The initiative modifier and its labelled parts: ``Reflexes +1, Hurt -1``."""
    d = data(c)
    if ambushers is None:
        value, label = d.skill_mod("Reflexes"), "Reflexes"
    elif c.id in ambushers:
        value, label = d.skill_mod("Stealth"), "ambusher: Stealth"
    else:
        value = _ceil_half(d.skill_mod("Reflexes") + d.skill_mod("Alertness"))
        label = "ambushed: average of Reflexes and Alertness, rounded up"
    pens: tuple[Modifier, ...] = d.penalties(True)
    text = f"{label} {value:+d}" + "".join(f", {m.describe()}" for m in pens)
    return value + sum(m.value for m in pens), text


@applies(R.initiative, R.initiative_tie)
def initiative_events(
    state: FightState, ids: Sequence[str], dice: Roller, ambushers: Sequence[str] | None = None
) -> list[InitiativeSet | TieRerolled | OrderSet]:
    """Reflexes rolls (or the ambush rolls) of ``ids``; ties roll again among the tied, every roll logged."""
    mods: dict[str, tuple[int, str]] = {}
    for i in ids:
        c = state.get(i)
        if not data(c).unconscious:
            mods[i] = _modifier(c, ambushers)
    events: list[InitiativeSet | TieRerolled | OrderSet] = []
    keys: dict[str, tuple[int, ...]] = {}
    for c in state.combatants:
        if not c.removed and c.initiative is not None and c.id not in mods:
            keys[c.id] = (c.initiative, *data(c).init_tiebreak)
    for i, (mod, note) in mods.items():
        r = fudge(dice, f"{state.name(i)} initiative")
        value = r.total + mod
        events.append(InitiativeSet(id=i, value=value, roll=r, note=f"{note} → {ladder(value)}"))
        keys[i] = (value,)
    for _ in range(MAX_TIE_REROLLS):
        groups = _tied(keys)
        if not groups:
            break
        for group in groups:
            rolls, gmods = [], []
            for i in group:
                rolls.append(fudge(dice, f"{state.name(i)} initiative tie"))
                gmods.append(mods[i][0] if i in mods else _first_modifier(state.get(i), ambushers))
            ev = TieRerolled(ids=group, rolls=tuple(rolls), modifiers=tuple(gmods))
            for i, t in zip(group, ev.totals(), strict=True):
                keys[i] = (*keys[i], t)
            events.append(ev)
    order = tuple(sorted(keys, key=lambda i: keys[i], reverse=True))
    rest = tuple(c.id for c in state.combatants if not c.removed and c.id not in keys)
    note = "by Reflexes" if ambushers is None else "ambush"
    events.append(OrderSet(order=order + rest, ties=_tied(keys), note=note))
    return events


def _first_modifier(c: Combatant, ambushers: Sequence[str] | None) -> int:
    """The modifier of the combatant's own initiative roll (a GM-set one: today's)."""
    first = data(c).init_modifier
    return first if first is not None else _modifier(c, ambushers)[0]


def _tied(keys: Mapping[str, tuple[int, ...]]) -> tuple[tuple[str, ...], ...]:
    seen: dict[tuple[int, ...], list[str]] = {}
    for i, k in keys.items():
        seen.setdefault(k, []).append(i)
    return tuple(tuple(g) for g in seen.values() if len(g) > 1)


def ambush(d: Draft, cmd: AmbushInitiative, dice: Roller) -> None:
    state = d.state
    if state.started and fight_data(state).ambush_waits:
        raise Refused(
            "the ambush initiative waits for the surprise action: it is rolled as round 1 begins (next turn)",
            rule=R.ambush,
        )
    if state.started:
        raise Refused("an ambush is declared before the fight starts", rule=R.ambush)
    ambushers = tuple(dict.fromkeys(need(state, i, "ambusher").id for i in cmd.ambushers))
    if not ambushers:
        raise Refused("name the ambushers (they roll Stealth)", rule=R.ambush)
    ids = tuple(c.id for c in state.present)
    if all(i in ambushers for i in ids):
        raise Refused("an ambush needs victims: not everyone can be an ambusher", rule=R.ambush)
    if cmd.after_surprise:
        d.add(AmbushDeclared(ambushers=ambushers, waits=True))
        return
    events = initiative_events(state, ids, dice, ambushers)
    d.add(AmbushDeclared(ambushers=ambushers), *events)


def initiative_rolls(state: FightState, ids: Sequence[str], dice: Roller) -> list[Event]:
    """The initiative rolls of ``ids``: Reflexes, or the ambush's when its rolls waited for the surprise action
    (round 1 begins, or the GM rolls in the surprise round); before the fight those wait (module docstring)."""
    fd = fight_data(state)
    if not fd.ambush_waits:
        return list(initiative_events(state, ids, dice))
    if not state.started:
        raise Refused(
            "the ambush initiative waits for the surprise action: start the fight with the surprise round "
            "(it is rolled as round 1 begins), or roll the ambush now (ambush initiative, 'Roll after the "
            "surprise action' unticked)",
            rule=R.ambush,
        )
    head = AmbushDeclared(ambushers=fd.ambushers, after_surprise=True)
    return [head, *initiative_events(state, ids, dice, fd.ambushers)]
