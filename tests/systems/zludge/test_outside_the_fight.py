"""What happens outside the fight leaves no mark on it: a check before the fight is no action in it (the
flat-footed rule, l.103), and time passing ends a clip (l.115, l.134).  Found in play (2026-12-07 audit)."""

from __future__ import annotations

import pytest

from systems.zludge.commands import FirstAid, RollSkill, TakeAction
from tests.systems.zludge.helpers import F, add, data, new_fight, script
from tracker import Adjust, EndFight, Refused, Rest, SetInitiative, StartFight


def test_a_check_before_the_fight_leaves_the_roller_flat_footed() -> None:
    """l.103: "Before a character has had a chance to act in combat, they are flat-footed". Cleo's climbing check
    before the fight (its form says it is the turn's action) ended her flat-footedness for the fight."""
    f = new_fight()
    cleo = add(f, "Cleo", skills="Athletics 3, Medical 1")
    rook = add(f, "Rook", kind="npc")
    f.do(Adjust(id=rook, field="wound_track", value="...|1.|.|.|."))
    script(f, F(0), F(0))
    f.do(RollSkill(actor=cleo, skill="Athletics", as_action=True))
    f.do(FirstAid(actor=cleo, target=rook))
    assert not data(f, cleo).acted
    f.do(SetInitiative(values={rook: 2, cleo: 1}))
    f.do(StartFight())
    assert not data(f, cleo).acted  # flat-footed until her first action in the fight


def test_an_other_action_is_taken_in_the_fight() -> None:
    f = new_fight()
    cleo = add(f, "Cleo")
    with pytest.raises(Refused, match="fight"):
        f.do(TakeAction(actor=cleo, text="draws her knife"))


def test_time_passing_ends_a_clip() -> None:
    """l.115: clipped, −1 "until your next action"; a week's rest left Bob clipped −1, and it lowered the next
    fight's initiative."""
    f = new_fight()
    bob = add(f, "Bob")
    thug = add(f, "Thug", kind="npc")
    f.do(SetInitiative(values={bob: 2, thug: 1}))
    f.do(StartFight())
    f.do(Adjust(id=bob, field="clipped", value=True))
    f.do(EndFight())
    assert data(f, bob).clipped
    (ev, *_) = f.do(Rest(days=7))
    assert not data(f, bob).clipped and "the clip is over" in ev.why


def test_a_rest_shorter_than_a_week_says_its_days() -> None:
    """It said "nothing heals yet (0 weeks of 7-day weeks, no caregiver)" for two days."""
    f = new_fight()
    bob = add(f, "Bob")
    f.do(Adjust(id=bob, field="wound_track", value="...|1.|.|.|."))
    (ev,) = f.do(Rest(days=2))
    assert ev.why.startswith("nothing heals yet (2 days of a 7-day week, no caregiver)"), ev.why


def test_a_rest_says_its_hours_and_the_days_past_its_weeks() -> None:
    """A 5-hour rest said "0 days of a 7-day week"; 10 days said "1 week", the 3 days past it left out."""
    f = new_fight()
    bob = add(f, "Bob")
    f.do(Adjust(id=bob, field="wound_track", value="...|1.|.|.|."))
    (ev,) = f.do(Rest(hours=5))
    assert "(5 hours of a 7-day week, no caregiver)" in ev.why, ev.why
    (ev,) = f.do(Rest(days=10))
    assert "(1 week and 3 days of 7-day weeks, no caregiver)" in ev.why, ev.why


def test_first_aid_waits_for_the_end_of_the_fight() -> None:
    """l.133 "A few minutes work with bandages ... reduces wound game effects by one level"; a turn is about 3
    seconds (l.104). Repro /tmp/a11/rules2/z4.py (Z12): on Alice's turn, first aid on the Incapacitated Bob was one
    action and he got up at once (-2, not prone). Ruling in rules/actions.py: refused while the fight runs."""
    from systems.zludge.commands import MarkWound
    from systems.zludge.events import WoundsTreated
    from tests.systems.zludge.helpers import duel, end

    f = duel({"skills": "Medical 2 +First Aid"}, {})
    f.do(MarkWound(target="c2", level=3))
    script(f, F(-1))
    with pytest.raises(Refused, match=r"a few minutes' work with bandages.*after the fight"):
        f.do(FirstAid(actor="c1", target="c2"))
    assert data(f, "c2").prone and not data(f, "c1").spent
    end(f)
    roll, treated = f.do(FirstAid(actor="c1", target="c2"))
    assert (
        roll.success
        and isinstance(treated, WoundsTreated)
        and data(f, "c2").wound_penalty == -2
        and not data(f, "c2").prone
    )
    assert "few minutes' work with bandages" in f.system.help()
