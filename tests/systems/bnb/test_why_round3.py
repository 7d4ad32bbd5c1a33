"""Why? round 3 (w3 finding 4): a failed death save with a Lucky Streak still open is not "dead" yet."""

from __future__ import annotations

from systems.bnb import system
from systems.bnb.commands import DeathSave, LuckyStreak
from systems.bnb.events import DeathSaveRolled, LuckyStreakUsed
from systems.bnb.rules.table import R
from tests.systems.bnb.helpers import add_npc, add_pc, new_fight, start
from tracker import Damage, Fight
from tracker.events import Event
from tracker.reasons import Reason
from tracker.replay import Timeline


def reasons(f: Fight, kind: type[Event]) -> tuple[Event, tuple[Reason, ...]]:
    """The last event of ``kind`` with its reasons (the states around it folded from the log)."""
    t = Timeline.of(f.log)
    found = [
        (e.event, system.explain(t.state_at(i), e.event, t.state_at(i + 1)))
        for i, e in enumerate(t.entries)
        if isinstance(e.event, kind)
    ]
    return found[-1]


def dying(cls: str) -> tuple[Fight, str]:
    """A level-1 PC of ``cls`` at -1 HP (a death save due); the death save rolls 10, a re-roll 3."""
    f, _dice = new_fight(10, 3)
    pc = add_pc(f, "Kid", cls=cls, hp=10)
    add_npc(f, "outlaw")
    start(f)
    f.do(Damage(targets=(pc,), amount="11"))
    f.do(DeathSave(actor=pc))
    return f, pc


def test_a_failed_death_save_with_a_lucky_streak_left_reads_as_the_log_not_dead() -> None:
    """The log says "fails: dies unless a Lucky Streak re-rolls it"; the Why? said "total 9 vs ST 15: dead"."""
    f, pc = dying("Gambler")
    ev, rs = reasons(f, DeathSaveRolled)
    assert not ev.success
    death = next(r for r in rs if r.rule_id == R.death_save.id)
    assert death.terms[-1] == "total 9 vs ST 15: fails: dies unless a Lucky Streak re-rolls it (1 left today)"
    assert all(not t.endswith(": dead") for t in death.terms)
    lucky = next(r for r in rs if r.rule_id == R.lucky_any_save.id)
    assert lucky.terms == ("a failed death save may be re-rolled: 1 Lucky Streak left today",)
    t = Timeline.of(f.log)
    line = next(e.event.describe(t.state_at(i)) for i, e in enumerate(t.entries) if e.event is ev)
    assert line.endswith("fails: dies unless a Lucky Streak re-rolls it")
    f.do(LuckyStreak(actor=pc))  # the re-roll, a 3: 2 vs 15, dies
    _ev, rs2 = reasons(f, LuckyStreakUsed)
    assert next(r for r in rs2 if r.rule_id == R.lucky_any_save.id).terms[-1] == "total 2 vs ST 15: dies"


def test_a_failed_death_save_without_a_lucky_streak_is_still_dead() -> None:
    f, _pc = dying("Shootist")
    _ev, rs = reasons(f, DeathSaveRolled)
    death = next(r for r in rs if r.rule_id == R.death_save.id)
    assert death.terms[-1] == "total 11 vs ST 16: dead"  # (a Shootist: no Lucky Streak)
    assert R.lucky_any_save.id not in {r.rule_id for r in rs}
