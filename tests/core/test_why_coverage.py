"""#47 coverage: in a realistic generated fight (the bench's GM, 400 events and more) nearly every event of a
system's own explains itself with a book place, and every event type a system defines is explained somewhere.

Per installed system (and the toy): at least 95% of the plug-in's own events have a reason whose source has a
book place (``l.N`` or ``@N``).  Every type in ``system.event_types`` is either met in the generated fights
(and explained there, with a book place) or named by one of the system's own tests that calls ``explain``.
(The four built-in systems' ``explain`` is written in their own branches: on a branch without it these tests
fail for those systems, by design.)
"""

from __future__ import annotations

import re
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from bench.fights import make_fight
from tracker import Fight, registry
from tracker.explain import explain

ROOT = Path(__file__).resolve().parents[2]
SYSTEMS = ("toy", *(e.id for e in registry.available()))
BOOK_PLACE = re.compile(r"l\.\d+|@\d+")
SEEDS = (1, 2, 3)  # three generated fights per system: more event types are met
SHARE = 0.95


@cache
def fights(system_id: str) -> tuple[Fight, ...]:
    return tuple(make_fight(system_id, events=400, seed=s) for s in SEEDS)


def placed(fight: Fight, seq: int) -> bool:
    return any(BOOK_PLACE.search(r.source) for r in explain(fight, seq))


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_nearly_every_event_of_the_system_has_a_reason_with_a_book_place(system_id: str) -> None:
    fight = fights(system_id)[0]
    assert len(fight.entries) >= 400
    own = [e for e in fight.entries if type(e.event) in fight.system.event_types]
    assert own, f"{system_id}: the generated fight has none of the system's events"
    missing = Counter(type(e.event).__name__ for e in own if not placed(fight, e.seq))
    share = 1 - sum(missing.values()) / len(own)
    assert share >= SHARE, f"{system_id}: {share:.0%} of {len(own)} events have a book place; without: {missing}"


def _named_in_tests(system_id: str) -> str:
    """The system's own tests that ask for reasons (their text)."""
    folder = ROOT / "tests" / "systems" / system_id
    texts = [p.read_text(encoding="utf-8") for p in folder.rglob("test_*.py")] if folder.is_dir() else []
    return "\n".join(t for t in texts if "explain" in t)


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_every_event_type_of_the_system_is_explained_in_some_test(system_id: str) -> None:
    system = registry.load(system_id)
    met: dict[type, bool] = {}
    for fight in fights(system_id):
        for e in fight.entries:
            t = type(e.event)
            if t in system.event_types and not met.get(t):
                met[t] = placed(fight, e.seq)
    unplaced = [t.__name__ for t, ok in met.items() if not ok]
    assert not unplaced, f"{system_id}: met in the generated fights with no book place: {unplaced}"
    tests = _named_in_tests(system_id)
    unexplained = [
        t.__name__
        for t in system.event_types
        if t not in met and not re.search(rf"\b{t.__name__}\b", tests) and f'"{t.TYPE}"' not in tests
    ]
    assert not unexplained, (
        f"{system_id}: event types neither met in the generated fights nor named (class or tag) by a test that calls explain: "
        f"{unexplained}"
    )


def test_the_toys_fights_meet_every_toy_event_type() -> None:
    system = registry.load("toy")
    seen = {type(e.event) for f in fights("toy") for e in f.entries}
    assert set(system.event_types) <= seen
