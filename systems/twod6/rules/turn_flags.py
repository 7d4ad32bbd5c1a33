"""What counts in turns, over when no turn comes: the fight ends, or time passes (rule ``turn_flags_end``).

A combatant's record keeps flags that last "until its next turn" or "for the next check": the fight's turns give
them their end, and with no turn to come they stayed on the table ("Wounds 3/3 · distracted" after the fight ended
and after 8 hours' rest). They end now in events of their own (:class:`TurnFlagsEnded`, one per combatant that had
any), made when the fight ends (``react``, after the core's ``FightEnded``) and when time passes (the ``Rest``
hook), so a fight file written before keeps folding as it did: its ``FightEnded`` and ``Rested`` clear nothing.

**Ruling**, flag by flag (each "fight-only" one ends with the fight and when time passes):

- distracted (a half-round action fewer on its next turn, @51823): fight-only; the next turn it takes is gone.
- negated (Negate: casts nothing until its next turn ends, @27954): fight-only.
- an extra turn (a cinematic's, @56321): fight-only, a turn "in combat"; it ends unused (the cinematic stays spent).
- aim (+PER on the next ranged check, @55306): fight-only, a full round spent aiming at what the fight offers
  (only taken in a fight: Aim is a turn's action); it ends unused.
- hiding (Stealth won against some watchers, @40535): not counted in turns, and a fight may end with a hider still
  unseen, so it stays when the fight ends; it ends when time passes (the hours spent resting are no sneaking: a
  new sneak is a new Stealth check).
- the actions left (quick, half-round, the Graceful free move) are the current turn's: the status and the detail
  show them only in the running fight, and a turn gives them back, so they are not logged as ending.
- prone, disarmed, grappled or entangled, a useless limb: no flag of a turn but the state of the body and the
  weapons; they stay (the GM's Adjust ends them), the fight's end or a rest does not say who stood up or let go.
- the failed checks a cinematic may reroll are not shown; rest already drops a lost defense (``rest``).

Tests: tests/systems/twod6/test_fight_end_flags.py (test_distracted_negated_and_aim_end_with_the_fight,
test_an_extra_turn_ends_with_the_fight_and_shows_no_actions_left, test_hiding_stays_at_the_end_and_ends_with_rest,
test_rest_ends_the_flags_an_older_file_kept_after_its_end, test_an_older_files_end_and_rest_fold_as_before,
test_undoing_the_end_brings_the_flags_back, test_prone_disarmed_and_limbs_stay).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import ClassVar

import attrs

from systems.twod6.evolve import evolve
from systems.twod6.record import Data
from tracker.events import Event, FightEnded
from tracker.model import FightState

FIGHT_ENDED = "the fight ended"
TIME_PASSED = "time passed"

# the flags that end, each with its fresh value (the record's default) and its words once ended
_FRESH: dict[str, object] = {"distracted": 0, "negated": False, "extra_turn": False, "aim": 0, "hidden_from": ()}
AT_THE_END = ("distracted", "negated", "extra_turn", "aim")  # fight-only: over with the fight
WITH_TIME = (*AT_THE_END, "hidden_from")  # and hiding too, when time passes


@attrs.frozen(kw_only=True)
class TurnFlagsEnded(Event):
    """The flags of one combatant that counted in turns, over with no turn to come (``why``: the fight ended, or
    time passed); ``flags`` names the record's fields put back to their fresh values."""

    TYPE: ClassVar[str] = "twod6.turn_flags_ended"
    id: str
    flags: tuple[str, ...]
    why: str = ""

    def describe(self, state: FightState) -> str:
        c = state.get(self.id)
        d = c.data if isinstance(c.data, Data) else None
        words = [_word(name, d) for name in self.flags if name in _FRESH]
        return f"{c.name}: {', '.join(words) or 'nothing counted in turns'} ({self.why})"


def _word(name: str, d: Data | None) -> str:
    if name == "aim":
        return f"aim {d.aim:+d} unused" if d is not None and d.aim else "aim unused"
    return {
        "distracted": "no longer distracted",
        "negated": "powers no longer negated",
        "extra_turn": "extra turn over",
        "hidden_from": "no longer hiding",
    }[name]


EVENTS: tuple[type[Event], ...] = (TurnFlagsEnded,)


def ended(state: FightState, ids: Iterable[str], names: Sequence[str], why: str) -> list[Event]:
    """One :class:`TurnFlagsEnded` for each of ``ids`` that has any of ``names`` set (none for one that has none)."""
    out: list[Event] = []
    for cid in ids:
        c = state.find(cid)
        if c is None or not isinstance(c.data, Data):
            continue
        on = tuple(name for name in names if getattr(c.data, name) != _FRESH[name])
        if on:
            out.append(TurnFlagsEnded(id=cid, flags=on, why=why))
    return out


def react(events: Sequence[Event], after: FightState) -> list[Event]:
    """The fight just ended: every combatant still in it loses what counted in its turns."""
    if not any(isinstance(ev, FightEnded) for ev in events):
        return []
    return ended(after, (c.id for c in after.combatants if not c.removed), AT_THE_END, FIGHT_ENDED)


@evolve.on(TurnFlagsEnded)
def _turn_flags_ended(state: FightState, e: TurnFlagsEnded) -> FightState:
    fresh = {name: _FRESH[name] for name in e.flags if name in _FRESH}
    if "aim" in fresh:
        fresh["aim_sniper"] = False
    return state.update_data(e.id, **fresh) if fresh else state
