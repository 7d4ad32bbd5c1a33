"""Letting time pass in Zludge (l.135–136): the core ``Rest`` command, decided here.

Rules ``healing``, ``healed_box`` and ``fatigue_rest``, each tested in tests/systems/zludge/test_rest.py:
- Each wound heals one level a week (a Hurt becomes a Scratch, a Very Hurt a
  Hurt…; a Scratch heals away); each wound on its own, so a week heals every
  wound one level. Only full days count (``days`` plus every whole 24 ``hours``).
  (test_a_week_heals_each_wound_one_level)
- **Ruling:** days of rest add up across rests: seven one-day rests heal as one week does (each rest's days were
  counted alone, and a GM letting time pass day by day healed nothing). The days toward the next week are kept on
  the combatant and said in the log ("3 of 7 days toward the next week"); a track with no wound left keeps none.
  (test_days_of_rest_add_up_to_a_week)
- Each week is shortened by one day per point of the caregiver's Medical bonus:
  the rest's quality is the caregiver ("no caregiver", "caregiver Medical +1" …
  "+4"); a week is never shorter than 1 day. (test_a_caregiver_shortens_the_week)
- **Ruling** (``healed_box``): a healed wound keeps its record (the level it now counts
  as) and moves to the lowest free box of its new level; if that level is full
  it stays where it is, counting as the lower level. Wounds heal lowest first,
  so a Scratch healing away frees its box for the Hurt that becomes a Scratch.
  (test_a_healed_wound_moves_to_a_free_box_of_its_new_level_or_stays)
- Physical fatigue heals one level per 10 minutes of rest (any hour of rest
  clears six levels); other fatigue two levels per full night's sleep or day of
  rest (a rest of 8 hours or more short of a day counts as a night). **Ruling:**
  a fatigue level healed clears the highest checked box of that kind.
  (test_physical_fatigue_heals_by_ten_minutes_other_by_nights)
- The dead stay dead. (test_the_dead_stay_dead)
- Time passing ends a clip ("until your next action", l.115): no clip outlives a rest into the next fight's
  initiative. (test_time_passing_ends_a_clip)
- Rule ``refresh`` (l.38): "Aspects refresh once per game-world day (usually after your character has had a
  good night's rest)."  **Ruling:** a rest that lets a day pass or gives a night's sleep (a day, or 8 hours or
  more short of one: the span that heals a night's fatigue) refreshes every checked-off aspect; a shorter rest
  refreshes none.  The line says "aspects refresh ('Ranger')".  It left them checked off ("unhurt and rested"
  with the aspect still used).  Events in older files carry no ``refreshed`` and keep the aspects as they were.
  (test_a_day_or_a_night_of_rest_refreshes_aspects, test_a_short_rest_refreshes_no_aspect,
  test_an_old_rest_event_refreshes_no_aspect)
"""

from __future__ import annotations

from collections import Counter
from typing import ClassVar

import attrs

from systems.zludge.events import an
from systems.zludge.evolve import apply
from systems.zludge.model import FATIGUE_STATES, SCRATCHED, WOUND_STATES, Box, ZludgeData, data
from systems.zludge.table import R, applies
from tracker.commands import Rest
from tracker.dice import Roller
from tracker.errors import Refused
from tracker.events import Event
from tracker.model import FightState

NO_CAREGIVER = "no caregiver"
WOUNDS = ("Scratch", "Hurt", "Very Hurt", "Incapacitated", "Comatose")  # a wound, as the log names it
QUALITIES = (NO_CAREGIVER, *(f"caregiver Medical +{n}" for n in range(1, 5)))


@attrs.frozen(kw_only=True)
class Rested(Event):
    """One combatant's wound and fatigue tracks after time passed, and what healed (``why``)."""

    TYPE: ClassVar[str] = "zludge.rested"
    id: str
    wounds: tuple[Box, ...] = attrs.field(default=())
    fatigue: tuple[Box, ...] = attrs.field(default=())
    why: str = attrs.field(default="")
    # the clip is over (it lasts "until your next action", l.115; a week's rest left it, and it lowered the next
    # fight's initiative); absent from files written before 2026-12-07: no change
    unclipped: bool = attrs.field(default=False)
    # the days of rest toward the next week after it; absent from older files (each rest counted alone): kept as 0
    healing_days: int | None = attrs.field(default=None)
    # a day or a night passed: the checked-off aspects come back (l.38); absent from files written before the
    # ruling: no change (those rests left the aspects checked off)
    refreshed: bool = attrs.field(default=False)

    def describe(self, state: FightState) -> str:
        return f"{state.name(self.id)}: {self.why}"


REST_EVENTS: tuple[type[Event], ...] = (Rested,)


def _medical(quality: str) -> int:
    if quality not in QUALITIES:
        raise Refused(f"Rest: quality '{quality}' is not one of: {', '.join(QUALITIES)}", rule=R.healing)
    return QUALITIES.index(quality)


@applies(R.healing, R.healed_box)
def heal_week(boxes: tuple[Box, ...], cap: tuple[int, ...]) -> tuple[tuple[Box, ...], list[str]]:
    """Every wound one level lower (lowest first), moved to a free box of its new level when there is one."""
    kept = list(boxes)
    said: list[str] = []
    for box in sorted(boxes, key=lambda b: (b.wound, b.level)):
        i = next(j for j, b in enumerate(kept) if b is box)
        if box.wound <= SCRATCHED:
            del kept[i]
            said.append("a Scratch heals away")
            continue
        new = box.wound - 1
        free = sum(1 for b in kept if b.level == new) < cap[new]
        kept[i] = attrs.evolve(box, wound=new, level=new if free else box.level, healed=not free)
        stays = "" if free else f" (stays in its {WOUND_STATES[box.level]} box: the {WOUND_STATES[new]} boxes are full)"
        said.append(f"{an(WOUNDS[box.wound])} becomes {an(WOUNDS[new])}{stays}")
    return tuple(kept), _counted(said)


def _counted(said: list[str]) -> list[str]:
    """The same healing said once with its count: ``a Scratch heals away (×3)``."""
    counts = Counter(said)
    return [f"{s} (×{counts[s]})" if counts[s] > 1 else s for s in dict.fromkeys(said)]


@applies(R.fatigue_rest)
def _clear_fatigue(boxes: tuple[Box, ...], physical: bool, levels: int) -> tuple[tuple[Box, ...], int]:
    kept = list(boxes)
    cleared = 0
    while cleared < levels:
        mine = [b for b in kept if b.physical == physical]
        if not mine:
            break
        kept.remove(max(mine, key=lambda b: b.level))
        cleared += 1
    return tuple(kept), cleared


def _recover(d: ZludgeData, weeks: int, minutes: int, nights: int) -> tuple[tuple[Box, ...], tuple[Box, ...], str]:
    wounds = d.wounds
    said: list[str] = []
    for _ in range(weeks):
        if not wounds:
            break
        wounds, week = heal_week(wounds, d.wound_capacity)
        said.append("; ".join(week))
    fatigue, physical = _clear_fatigue(d.fatigue, True, minutes // 10)
    fatigue, other = _clear_fatigue(fatigue, False, 2 * nights)
    if physical:
        said.append(f"physical fatigue heals {physical} level{'s' if physical != 1 else ''}")
    if other:
        said.append(f"fatigue heals {other} level{'s' if other != 1 else ''}")
    return wounds, fatigue, " / ".join(said)


def rest(state: FightState, cmd: Rest, dice: Roller) -> list[Event]:
    quality = cmd.quality or NO_CAREGIVER
    medical = _medical(quality)
    week = max(1, 7 - medical)
    days = cmd.days + cmd.hours // 24
    nights = days + (1 if cmd.hours % 24 >= 8 else 0)
    minutes = 60 * (cmd.hours + 24 * cmd.days)
    out: list[Event] = []
    for cid in cmd.ids:
        d = data(state.get(cid))
        if d.dead:
            out.append(Rested(id=cid, wounds=d.wounds, fatigue=d.fatigue, why="dead: no rest heals the dead"))
            continue
        so_far = d.healing_days if d.wounds else 0
        weeks = (so_far + days) // week
        wounds, fatigue, said = _recover(d, weeks, minutes, nights)
        toward = (so_far + days) % week if wounds else 0
        if not d.wounds and not d.fatigue:
            said = "unhurt and rested"
        elif not said:
            said = "nothing heals yet"
        tracks = f"wounds {_state(wounds, WOUND_STATES)}, fatigue {_state(fatigue, FATIGUE_STATES)}"
        clip = "; the clip is over" if d.clipped else ""
        refresh = nights >= 1 and bool(d.aspects_used)  # R.refresh: once per game-world day, after a night's rest
        names = ", ".join(f"'{a}'" for a in d.aspects_used)
        fresh = f"; aspects refresh ({names})" if refresh else ""
        span = _span(days, weeks, week, cmd.hours % 24, so_far)
        why = f"{said}{clip}{fresh} ({span}, {quality}): now {tracks}"
        out.append(
            Rested(
                id=cid,
                wounds=wounds,
                fatigue=fatigue,
                why=why,
                unclipped=d.clipped,
                healing_days=toward,
                refreshed=refresh,
            )
        )
    return out


def _span(days: int, weeks: int, week: int, hours: int = 0, before: int = 0) -> str:
    """How long, in the weeks wounds heal by: "1 week and 3 days of 7-day weeks", "2 days of a 7-day week",
    "5 hours of a 7-day week" (it said "0 weeks", then "0 days", and left out the days past the weeks); after
    earlier days of rest, "1 more day: 3 of a 7-day week", "1 more day: 1 week of 7-day weeks"."""

    def count(n: int, what: str) -> str:
        return f"{n} {what}{'s' if n != 1 else ''}"

    if before:
        more = f"{count(days, 'more day')}: "
        left = before + days - weeks * week
        if not weeks:
            return f"{more}{left} of a {week}-day week"
        return f"{more}{count(weeks, 'week')}{' and ' + count(left, 'day') if left else ''} of {week}-day weeks"
    if not weeks:
        return f"{count(days, 'day') if days else count(hours, 'hour')} of a {week}-day week"
    left = days - weeks * week
    return f"{count(weeks, 'week')}{' and ' + count(left, 'day') if left else ''} of {week}-day weeks"


def _state(boxes: tuple[Box, ...], names: tuple[str, ...]) -> str:
    worst = max((b.level for b in boxes), default=-1)
    return "none" if worst < 0 else names[worst]


@apply.on(Rested)
def _rested(state: FightState, e: Rested) -> FightState:
    changes: dict[str, object] = {"wounds": e.wounds, "fatigue": e.fatigue}
    if e.unclipped:
        changes["clipped"] = False
    if e.healing_days is not None:
        changes["healing_days"] = e.healing_days
    if e.refreshed:
        changes["aspects_used"] = ()
    return state.update_data(e.id, **changes)
