"""``tracker check``: a fight file is good only if everything that reads it works.

Loading folds every event (checksums, strict decoding, the rules); then every
event is described as replay shows it, the recap and the summary are made in
memory, what the fight screen shows of each combatant is asked for, and every
checkpoint is compared with the fold (the fold wins).

A checkpoint is a cache, the events are the truth: a checkpoint line the
loader leaves out (its checksum off, cut short, or sealed but of a bad shape,
:func:`saves.loading.checkpoint_seq`) is one of the load's warnings, no
problem (``tracker check`` says it and exits 0 if nothing else is wrong), and
one whose state does not read as this version's is a note (``stale``); one
with another field on its line is still refused with the file (it may be an
event line).  A blank line before the last is refused at its line as
``saves.loading.BLANK_LINE`` says it.  Tests:
tests/reliability/test_checkpoint_cache.py.
"""

from __future__ import annotations

from pathlib import Path

import attrs

from saves.checkpoint import verify
from saves.export import recap
from saves.loading import Loaded, load
from tracker.model import FightState
from tracker.summary import summarize


@attrs.frozen
class Report:
    loaded: Loaded
    final: FightState
    problems: tuple[str, ...]  # what replay, export or the fight screen cannot do with this file
    checkpoints: tuple[str, ...] = ()  # checkpoints that disagree with the events (the events win; all else works)
    stale: tuple[str, ...] = ()  # checkpoints an older version wrote in another shape: a cache left out, no problem

    @property
    def good(self) -> bool:
        return not self.problems and not self.checkpoints

    @property
    def on_continuing(self) -> str:
        """What continuing this fight does first, in the GM's words ('' if nothing: it just goes on)."""
        loaded = self.loaded
        if not loaded.needs_repair:
            return ""
        if loaded.torn or any("was dropped" in w for w in loaded.warnings):
            what = "the damaged last line" if loaded.torn and not loaded.no_line_end else "the unfinished end"
            return (
                f"continuing it (tracker --save FILE) first sets {what} aside in FILE.torn-<time> "
                "(kept) and cuts the file back to its last whole action; it goes on in the same file"
            )
        return "continuing it (tracker --save FILE) first adds the missing line end; nothing is lost"


def check(path: str | Path) -> Report:
    """Check a fight file thoroughly; LoadError if it does not load at all, else the problems found."""
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
    disagree, stale = verify(loaded, timeline)
    return Report(loaded, final, tuple(problems), tuple(disagree), tuple(stale))


def _what(e: Exception) -> str:
    text = str(e)
    return f"{type(e).__name__}: {text[:160]}" if text else type(e).__name__
