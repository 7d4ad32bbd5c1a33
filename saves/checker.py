"""``tracker check``: a fight file is good only if everything that reads it works.

Loading folds every event (checksums, strict decoding, the rules); then every
event is described as replay shows it, the recap and the summary are made in
memory, what the fight screen shows of each combatant is asked for, and every
checkpoint is compared with the fold (the fold wins).
"""

from __future__ import annotations

from pathlib import Path

import attrs

from saves.store import Loaded, load
from tracker.model import FightState


@attrs.frozen
class Report:
    loaded: Loaded
    final: FightState
    problems: tuple[str, ...]

    @property
    def good(self) -> bool:
        return not self.problems


def check(path: str | Path) -> Report:
    """Check a fight file thoroughly; LoadError if it does not load at all, else the problems found."""
    from saves.checkpoint import verify
    from saves.export import recap
    from tracker.summary import summarize

    loaded = load(path)
    timeline = loaded.timeline()
    problems: list[str] = []
    for i, entry in enumerate(timeline.entries):
        try:
            timeline.describe(i)
        except Exception as e:
            problems.append(f"line {loaded.lines[i]}: event {entry.seq} cannot be shown: {_what(e)}")
            if len(problems) >= 20:
                break
    final = timeline.state_at(len(timeline))
    system = loaded.system
    for c in final.combatants:
        try:
            system.status(final, c)
            system.detail(final, c)
            system.standing(final, c)
            system.public(final, c)
        except Exception as e:
            problems.append(f"{c.name} cannot be shown at the end of the fight: {_what(e)}")
    for what, make in (("the recap", lambda: recap(loaded, timeline)), ("the summary", lambda: summarize(timeline))):
        try:
            make()
        except Exception as e:
            problems.append(f"{what} cannot be made: {_what(e)}")
    problems.extend(verify(loaded, timeline))
    return Report(loaded, final, tuple(problems))


def _what(e: Exception) -> str:
    text = str(e)
    return f"{type(e).__name__}: {text[:160]}" if text else type(e).__name__
