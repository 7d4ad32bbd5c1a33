"""The fight's own Zludge data: the ambushers and the roll just made.

:func:`fight_data` is the typed accessor of the core's ``FightState.data``.
"""

from __future__ import annotations

from typing import Any

import attrs

from tracker.model import Combatant, FightState

from .events import AttackResolved, ContestRolled, SkillRolled


@attrs.frozen(kw_only=True)
class LastRoll:
    """The roll just made, still open to an aspect or plot point spent after it.

    ``event`` is the roll as it now stands (revisions applied); ``before`` the
    combatants it touched as they were before it (so a revision can take back
    the harm the earlier reading did); ``tail`` the events of its action still
    to come (its wound, treatment, prompt): the roll is open once they are in.
    """

    event: AttackResolved | SkillRolled | ContestRolled
    before: tuple[Combatant, ...]
    tail: int = 0

    @property
    def open(self) -> bool:
        return self.tail == 0


@attrs.frozen(kw_only=True, slots=False)  # copied by its dictionary: see tracker.model.changed (bench figure 3)
class ZludgeFight:
    ambushers: tuple[str, ...] = ()
    last_roll: LastRoll | None = None
    ambush_waits: bool = False  # declared, its initiative rolled as round 1 begins (after the surprise action)


def fight_data(state: FightState) -> ZludgeFight:
    """The fight's Zludge record (ambushers, the roll just made)."""
    fd: Any = state.data
    return fd if isinstance(fd, ZludgeFight) else ZludgeFight()


def open_roll(state: FightState) -> LastRoll | None:
    """The roll just made, if an aspect or plot point may still be spent on it."""
    last = fight_data(state).last_roll
    return last if last is not None and last.open else None
