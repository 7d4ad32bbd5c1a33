"""Python's cyclic garbage collector, run while the GM is idle rather than inside a key's frame.

With Python's default thresholds (a young collection every 700 new container
objects) one key on a fight of 100 combatants set off six to nine young
collections and, every few keys, a middle or a full one: 2-4 ms of the key's
frame, and up to 6.5 ms for a full collection (traced in bench/probe.py's
records: the collections ran between the action and its frame).  Drawing a
frame makes many objects that live on (Textual's line caches, the new state,
the log's lines), so the young generation fills quickly.

The app (after its first frame) raises the young threshold to :data:`YOUNG`
and collects itself once the keyboard has been quiet for :data:`QUIET`:
the middle generation each time there is something young, the full collection
every :data:`FULL_EVERY` of those, unless full collections would take more
than :data:`FULL_SHARE` of the time (a replay holding a long fight's states:
each walks them all; Python's own rule of a quarter more old objects does the
same for its automatic ones, which :data:`OLD` makes rare).  Keys typed
without a pause still get
collections from the raised thresholds (the cost of a young collection grows
with the objects still alive in it, not with the threshold, so a rare one
costs about what the many small ones did together); cyclic garbage waits at
most :data:`YOUNG` objects or one quiet moment.  :meth:`IdleCollector.stop`
puts the thresholds back.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

YOUNG = 50_000  # new container objects between automatic young collections (Python's default: 700)
QUIET = 0.1  # seconds without a key before the app collects
SMALL = 1_000  # fewer young objects than this are left for the next quiet moment
FULL_EVERY = 10  # a full collection after this many middle ones
FULL_SHARE = 0.01  # at most this share of the time in full collections
OLD = 100  # middle collections before Python's own full one (its default: 10)
EVERY = 0.1  # seconds between looks at the keyboard (a timer of the app)


class IdleCollector:
    """Collect when the keyboard is quiet.  ``last_key`` is when the last key came (``time.monotonic``)."""

    def __init__(self, last_key: Callable[[], float], clock: Callable[[], float] = time.monotonic) -> None:
        self.last_key = last_key
        self.clock = clock
        self._saved: tuple[int, int, int] | None = None
        self._full_ready = 0.0  # clock() from which a full collection may run again (see FULL_SHARE)
        self.collected: list[int] = []  # the generations this collector collected, in order (the last 100)

    @property
    def started(self) -> bool:
        return self._saved is not None

    def start(self) -> None:
        if self._saved is None:
            self._saved = gc.get_threshold()
            gc.set_threshold(YOUNG, self._saved[1], OLD)

    def stop(self) -> None:
        if self._saved is not None:
            gc.set_threshold(*self._saved)
            self._saved = None

    def tick(self) -> int | None:
        """Collect if the keyboard has been quiet and there is something to collect; the generation, or None."""
        if not self.started or not gc.isenabled() or self.clock() - self.last_key() < QUIET:
            return None
        young, middle, old = gc.get_count()
        if young < SMALL and not middle:
            return None
        now = self.clock()
        generation = 2 if old + 1 >= FULL_EVERY and now >= self._full_ready else 1
        gc.collect(generation)
        if generation == 2:
            took = self.clock() - now
            self._full_ready = now + took / FULL_SHARE
        self.collected = [*self.collected[-99:], generation]
        return generation
