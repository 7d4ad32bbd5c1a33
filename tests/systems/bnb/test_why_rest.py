"""Why? audit 2 (N1): rest that heals less than the daily rate says it stopped at the HP lost.

Shoot (level 3, 12 HP) had lost 2 HP and rested 2 days: 2 × 3 = 6 HP of rest, 2 healed. Why? said
"2 days of uninterrupted rest, level 3 · level 3: 3 HP a full day · 2 HP healed" and never why 2.
"""

from __future__ import annotations

from systems.bnb import system
from systems.bnb.rules.rest import Rested
from tests.systems.bnb.helpers import add_pc, new_fight
from tracker import Damage, Fight, Rest
from tracker.reasons import Reason


def _rest_reasons(f: Fight) -> tuple[Reason, ...]:
    i = next(i for i in range(len(f.entries)) if isinstance(f.entries[i].event, Rested))
    return system.explain(f.log.state_at(i), f.entries[i].event, f.log.state_at(i + 1))


def _terms(reasons: tuple[Reason, ...], name: str) -> tuple[str, ...]:
    return next(r.terms for r in reasons if r.rule == name)


def _rested(lost: int, days: int = 0, hours: int = 0) -> tuple[Fight, tuple[Reason, ...]]:
    f, _ = new_fight()
    shoot = add_pc(f, "Shoot", level=3, hp=12)
    f.do(Damage(targets=(shoot,), amount=str(lost)))
    f.do(Rest(ids=(shoot,), days=days, hours=hours))
    return f, _rest_reasons(f)


def test_rest_that_heals_less_than_the_rate_says_it_stopped_at_the_hp_lost() -> None:
    """Why? of a rest capped by the damage taken names the product and the HP lost it stopped at."""
    _, reasons = _rested(2, days=2)
    assert _terms(reasons, "Healing by rest") == (
        "2 days of uninterrupted rest, level 3",
        "level 3: 3 HP a full day",
        "2 days × 3 HP = 6, but only 2 HP of lethal damage taken: healing stops at the HP lost",
        "2 HP healed",
    )


def test_full_days_counted_from_hours_too() -> None:
    _, reasons = _rested(1, hours=50)  # 50 hours: 2 full days
    assert "2 days × 3 HP = 6, but only 1 HP of lethal damage taken: healing stops at the HP lost" in _terms(
        reasons, "Healing by rest"
    )


def test_rest_that_heals_the_full_rate_says_no_cap() -> None:
    _, reasons = _rested(8, days=2)  # 6 of 8 healed: the rate, not the HP lost
    assert _terms(reasons, "Healing by rest") == (
        "2 days of uninterrupted rest, level 3",
        "level 3: 3 HP a full day",
        "6 HP healed",
    )
    _, exact = _rested(6, days=2)  # 6 lost, 6 healed: the rate and the loss agree, no "stops" said
    assert not any("stops" in t for t in _terms(exact, "Healing by rest"))
