"""Letting time pass in 2d6 Gamma (@54545): the core ``Rest`` command, decided here.

Rules ``healing``, ``healer`` and ``wakes`` of ``table.R``, each tested in tests/systems/twod6/test_rest.py:
- With eight hours' rest a day and proper food a character regains 1 wound per
  day; underfed or short of sleep, 1 wound per 2 days. Only full days count
  (``days`` plus every whole 24 ``hours``). **Ruling:** the half wound of an odd
  day underfed is carried to the next rest (it was dropped: a GM letting time
  pass day by day healed no one underfed, ever); it is said in the log and
  carried only while a wound is missing. (test_a_fed_and_rested_day_heals_one_wound,
  test_underfed_or_short_of_sleep_heals_one_wound_per_two_days,
  test_underfed_days_one_at_a_time_heal_as_the_days_together)
- A successful Trade (Healing) check by a carer doubles the rate. **Ruling:**
  the GM rolls the carer's check as any check outside the fight (DC set by the
  GM) and picks the rest's quality "… with a healer" when it succeeded: one
  Rest command for every system, no second roll hidden in it.
  (test_a_successful_healing_check_doubles_the_rate)
- Never above the maximum; the dead stay dead; a character at 0 wounds who
  regains one wakes. (test_at_zero_wounds_regaining_one_wakes, test_the_dead_stay_dead)
- The check against death comes first (@54043: "reduced to 0 wounds … must make a DC 7 resolve check or
  die"): rest is refused while that check is due for a chosen combatant, as quick healing is (rule
  ``at_zero``); it healed the wound and closed the check as moot.
  (test_rest_is_refused_while_a_death_check_is_due)
- What counts in turns ends as time passes (a distraction, Negate, an extra turn, an aim, hiding): one
  ``TurnFlagsEnded`` for each combatant that had any, after its ``Rested`` (ruling and tests in
  :mod:`systems.twod6.rules.turn_flags`).
- **Ruling** (``slept_off``; the book says how long a knock-out lasts only at 0
  wounds): one knocked out with a wound left wakes after a full day's rest.
  (test_a_full_days_rest_wakes_one_knocked_out_with_wounds_left)
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from systems.twod6.evolve import evolve
from systems.twod6.record import data
from systems.twod6.rules.harm import DEATH, due
from systems.twod6.rules.turn_flags import TIME_PASSED, WITH_TIME, ended
from systems.twod6.table import R, applies
from tracker.commands import Rest
from tracker.dice import Roller
from tracker.errors import Refused
from tracker.events import Event
from tracker.model import FightState

FED = "fed and rested"
FED_HEALER = "fed and rested, with a healer"
SHORT = "underfed or short of sleep"
SHORT_HEALER = "underfed or short of sleep, with a healer"
QUALITIES = (FED, FED_HEALER, SHORT, SHORT_HEALER)


@attrs.frozen(kw_only=True)
class Rested(Event):
    """Wounds one combatant regained while time passed (``why`` says the rate, or why none)."""

    TYPE: ClassVar[str] = "twod6.rested"
    id: str
    wounds: int = attrs.field(default=0)
    wakes: bool = attrs.field(default=False)
    why: str = attrs.field(default="")
    # half a wound's rest carried to the next rest; absent from older files (a half-day dropped): no change
    half: bool | None = attrs.field(default=None)

    def describe(self, state: FightState) -> str:
        c = state.get(self.id)
        d = data(c)
        s = f"{c.name} regains {self.wounds} wound{'s' if self.wounds != 1 else ''}"
        if self.wounds:
            s += f": {d.wounds + self.wounds}/{d.max_wounds}"
        if self.wakes:
            s += ", and wakes"
        return f"{s} ({self.why})"


REST_EVENTS: tuple[type[Event], ...] = (Rested,)


@applies(R.HEALING, R.HEALER, R.WAKES, R.SLEPT_OFF, R.AT_ZERO, R.TURN_FLAGS_END)
def rest(state: FightState, cmd: Rest, dice: Roller) -> list[Event]:
    for cid in cmd.ids:
        if due(state, cid, DEATH) is not None:
            raise Refused(f"resolve first: {state.name(cid)}'s DC 7 check against death is still due", rule=R.AT_ZERO)
    quality = cmd.quality or FED
    if quality not in QUALITIES:
        raise Refused(f"Rest: quality '{quality}' is not one of: {'; '.join(QUALITIES)}", rule=R.HEALING)
    days = cmd.days + cmd.hours // 24
    fed = quality in (FED, FED_HEALER)
    healer = quality in (FED_HEALER, SHORT_HEALER)
    per_two_days = (2 if fed else 1) * (2 if healer else 1)
    halves = days * per_two_days  # halves of a wound
    rate = {4: "2 wounds a day", 2: "1 wound a day", 1: "1 wound per 2 days"}[per_two_days]
    span = f"{days} full day{'s' if days != 1 else ''}, {quality}: {rate}"
    if healer:
        span += " (doubled by the healer's Trade (Healing))"
    out: list[Event] = []
    for cid in cmd.ids:
        d = data(state.get(cid))
        if d.dead:
            out.append(Rested(id=cid, why="dead: no rest heals the dead"))
            continue
        hurt = d.wounds < d.max_wounds
        carried = d.rest_half and hurt
        total = halves + carried
        wounds = min(d.max_wounds - d.wounds, total // 2)
        half = total % 2 == 1 and d.wounds + wounds < d.max_wounds
        why = span if hurt else "unhurt"
        if carried and halves:
            why += "; with the half day carried"
        if half:
            why += "; half a wound's rest carried to the next"
        wakes = d.unconscious and (wounds > 0 if d.wounds == 0 else days >= 1)
        out.append(Rested(id=cid, wounds=wounds, wakes=wakes, why=why, half=half))
    return out + ended(state, cmd.ids, WITH_TIME, TIME_PASSED)


@evolve.on(Rested)
def _rested(state: FightState, e: Rested) -> FightState:
    d = data(state.get(e.id))
    failed = tuple(f for f in d.failed if f.kind != "defense")  # time has passed: no defense to reroll now
    changes: dict[str, object] = {
        "wounds": min(d.max_wounds, d.wounds + e.wounds),
        "unconscious": d.unconscious and not e.wakes,
        "failed": failed,
    }
    if e.half is not None:
        changes["rest_half"] = e.half
    return state.update_data(e.id, **changes)
