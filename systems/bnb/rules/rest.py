"""Letting time pass in Blood & Bullets (l.138): the core ``Rest`` command, decided here.

Rules ``rest``, ``temporary_healing``, ``npc_rest`` and ``interrupted_rest``, each tested in tests/systems/bnb/test_rest.py:
- Lethal damage heals 1 HP per level per full day of uninterrupted rest
  (``days`` plus every whole 24 ``hours``); an NPC or critter heals as level =
  its HD. (test_a_week_of_uninterrupted_rest_heals_level_hp_a_day,
  test_an_npc_heals_as_level_equals_hd)
- Temporary (fist) damage heals at the same rate per hour of rest
  (every hour of ``hours`` and ``days``). (test_temporary_damage_heals_level_hp_an_hour)
- Quality: "uninterrupted" (the default) or "interrupted". **Ruling:** interrupted
  days count for no lethal healing (the book asks for uninterrupted rest); the
  hours still heal temporary damage, which the book ties to no rest.
  (test_interrupted_rest_heals_no_lethal_damage)
- Never above the maximum; the dead stay dead; a knocked-out combatant whose HP
  climbs above 0 comes to (an unconscious one too, as with quick healing); a
  dying combatant must make its death save first. (test_knocked_out_comes_to,
  test_the_dead_stay_dead)
- Lucky Streak's uses are "per day": when a day passes (``days`` ≥ 1 or 24
  ``hours`` or more, whatever the rest's quality) a Gambler has the day's uses
  again, and the Rested line says so. **Ruling:** a dying Gambler's death save
  comes first: his uses come back with the next rest after it; the dead get none.
  (test_lucky_streak_uses_come_back_when_a_day_passes)
- Binding wounds (1d3 after the battle, only HP lost in it, once per character)
  is the separate ``bind_wounds`` command (rules/harm.py).
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs

from systems.bnb.evolve import evolve
from systems.bnb.rules.table import R
from systems.bnb.sheet import DEAD, DYING, KNOCKED_OUT, OK, UNCONSCIOUS, data
from systems.bnb.tables import GAMBLER, lucky_streaks
from tracker.commands import Rest
from tracker.dice import Roller
from tracker.errors import Refused
from tracker.events import Event
from tracker.model import FightState

UNINTERRUPTED = "uninterrupted"
INTERRUPTED = "interrupted"
QUALITIES = (UNINTERRUPTED, INTERRUPTED)

APPLIES = (R.rest, R.npc_rest, R.interrupted_rest, R.temporary_healing, R.lucky_streak)  # rest (rules/table.py)


@attrs.frozen(kw_only=True)
class Rested(Event):
    """What one combatant recovered while time passed (``why`` says the rate, or why nothing)."""

    TYPE: ClassVar[str] = "bnb.rested"
    id: str
    lethal: int = attrs.field(default=0)
    temporary: int = attrs.field(default=0)
    revived: bool = attrs.field(default=False)
    why: str = attrs.field(default="")
    lucky: int = attrs.field(default=0)  # Lucky Streak uses back: a day passed (0 in fights logged before)

    def describe(self, state: FightState) -> str:
        name = state.name(self.id)
        got = []
        if self.lethal:
            got.append(f"{self.lethal} HP of lethal damage")
        if self.temporary:
            got.append(f"{self.temporary} temporary damage")
        healed = f"heals {' and '.join(got)}" if got else "heals nothing"
        woke = ", and comes to" if self.revived else ""
        return f"{name} {healed}{woke} ({self.why})"


REST_EVENTS: tuple[type[Event], ...] = (Rested,)


def _span(hours: int, days: int) -> str:
    parts = []
    if days:
        parts.append(f"{days} day{'s' if days != 1 else ''}")
    if hours:
        parts.append(f"{hours} hour{'s' if hours != 1 else ''}")
    return " and ".join(parts)


def rest(state: FightState, cmd: Rest, dice: Roller) -> list[Event]:
    quality = cmd.quality or UNINTERRUPTED
    if quality not in QUALITIES:
        raise Refused(f"Rest: quality '{quality}' is not one of {', '.join(QUALITIES)}", rule=R.interrupted_rest)
    full_days = cmd.days + cmd.hours // 24 if quality == UNINTERRUPTED else 0
    hours = cmd.hours + 24 * cmd.days
    span = _span(cmd.hours, cmd.days)
    out: list[Event] = []
    for cid in cmd.ids:
        c = state.get(cid)
        d = data(c)
        if d.status == DEAD:
            out.append(Rested(id=cid, why="dead: no rest heals the dead"))
            continue
        if d.status == DYING:
            out.append(Rested(id=cid, why="dying: the death save comes first"))
            continue
        rate = max(1, d.level)
        who = f"level {d.level}" if d.cls else f"{d.level} HD"
        lethal = min(d.damage, rate * full_days)
        temporary = min(d.temp, rate * hours)
        why = [f"{span} of {quality} rest, {who}"]
        if d.damage and quality != UNINTERRUPTED:
            why.append("interrupted days heal no lethal damage")
        elif d.damage or lethal:
            why.append(f"{rate} HP a full day")
        if d.temp:
            why.append(f"temporary damage {rate} an hour")
        if not d.damage and not d.temp:
            why.append("unhurt")
        lucky = d.lucky_used if d.cls == GAMBLER and hours >= 24 else 0
        if lucky:
            why.append(f"Lucky Streak: {lucky_streaks(d.level)} a day again")
        revived = d.status in (KNOCKED_OUT, UNCONSCIOUS) and d.hp + lethal + temporary > 0
        out.append(Rested(id=cid, lethal=lethal, temporary=temporary, revived=revived, why="; ".join(why), lucky=lucky))
    return out


@evolve.on(Rested)
def _rested(state: FightState, event: Rested) -> FightState:
    d = data(state.get(event.id))
    changes: dict[str, Any] = {
        "damage": d.damage - event.lethal,
        "temp": d.temp - event.temporary,
        "lost": max(0, d.lost - event.lethal),
        "lucky_used": max(0, d.lucky_used - event.lucky),
    }
    if event.revived:
        changes.update(status=OK, dropped_round=None, dropped_by=None)
    return state.update_data(event.id, **changes)
