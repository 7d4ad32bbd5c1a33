"""Letting time pass in Blood & Bullets (l.138): the core Rest command, by the book's rates."""

from __future__ import annotations

import pytest

from systems.bnb.sheet import DEAD, KNOCKED_OUT, OK
from tests.systems.bnb.helpers import add_npc, add_pc, data, new_fight, start
from tracker import Adjust, Damage, EndFight, Fight, Refused, Rest


def _log(f: Fight) -> str:
    """The whole log in the GM's words."""
    return "\n".join(f.describe(i) for i in range(len(f.entries)))


def _hurt_pc(level: int = 3, hp: int = 30, lethal: int = 20):
    f, dice = new_fight()
    dusty = add_pc(f, "Dusty", level=level, hp=hp)
    f.do(Damage(targets=(dusty,), amount=str(lethal)))
    return f, dice, dusty


def test_a_week_of_uninterrupted_rest_heals_level_hp_a_day():
    """l.138: lethal damage heals 1 HP per level per full day of uninterrupted rest (a week: 7 × level)."""
    f, _, dusty = _hurt_pc(level=2, hp=30, lethal=20)
    (ev,) = f.do(Rest(days=7))
    assert ev.lethal == 14 and data(f, dusty).hp == 24
    assert "Dusty heals 14 HP of lethal damage (7 days of uninterrupted rest, level 2; 2 HP a full day)" in (_log(f))


def test_rest_never_heals_above_the_maximum():
    """l.138: healing restores lost HP only: never above the maximum."""
    f, _, dusty = _hurt_pc(level=3, hp=30, lethal=5)
    (ev,) = f.do(Rest(days=7))
    assert ev.lethal == 5 and data(f, dusty).hp == 30


def test_hours_short_of_a_day_heal_no_lethal_damage():
    """l.138: only a full day of rest heals lethal damage; 30 hours is one full day."""
    f, _, dusty = _hurt_pc(level=3, hp=30, lethal=20)
    f.do(Rest(hours=23))
    assert data(f, dusty).hp == 10
    f.do(Rest(hours=30))
    assert data(f, dusty).hp == 13


def test_interrupted_rest_heals_no_lethal_damage():
    """l.138 "uninterrupted rest". Ruling: interrupted days heal no lethal damage; the log says why."""
    f, _, dusty = _hurt_pc(level=3, hp=30, lethal=20)
    (ev,) = f.do(Rest(days=3, quality="interrupted"))
    assert ev.lethal == 0 and data(f, dusty).hp == 10 and "interrupted days heal no lethal damage" in ev.why
    with pytest.raises(Refused, match="not one of uninterrupted, interrupted"):
        f.do(Rest(days=1, quality="lazy"))


def test_temporary_damage_heals_level_hp_an_hour():
    """l.138: temporary (fist) damage heals at the same rate per hour: level HP an hour."""
    f, _ = new_fight()
    dusty = add_pc(f, "Dusty", level=2, hp=20)
    f.do(Damage(targets=(dusty,), amount="7", temporary=True))
    (ev,) = f.do(Rest(hours=2))
    assert ev.temporary == 4 and data(f, dusty).temp == 3
    f.do(Rest(hours=5))
    assert data(f, dusty).temp == 0 and data(f, dusty).hp == 20


def test_an_npc_heals_as_level_equals_hd():
    """l.138: an NPC heals as if its level were its HD."""
    f, _ = new_fight()
    (bull,) = add_npc(f, "gunfighter", name="Bull", hp=20)
    hd = data(f, bull).level
    f.do(Adjust(id=bull, field="hp", value=5))
    (ev,) = f.do(Rest(days=2))
    assert ev.lethal == min(15, 2 * hd) and f"{hd} HD" in ev.why


def test_knocked_out_comes_to_when_hp_climb_above_zero():
    """l.138 (rule temporary_healing): a knocked-out combatant whose HP climbs above 0 comes to."""
    f, _ = new_fight()
    dusty = add_pc(f, "Dusty", level=1, hp=5)
    f.do(Damage(targets=(dusty,), amount="6", temporary=True))
    assert data(f, dusty).status == KNOCKED_OUT
    (ev,) = f.do(Rest(hours=1))
    assert data(f, dusty).status == KNOCKED_OUT and not ev.revived  # 0 HP: not above 0
    (ev,) = f.do(Rest(hours=1))
    assert ev.revived and data(f, dusty).status == OK and "comes to" in _log(f)


def test_the_dead_stay_dead():
    """Rule rest (core: letting time pass): recovery never raises the dead."""
    f, _ = new_fight()
    dusty = add_pc(f, "Dusty", level=3, hp=10)
    f.do(Adjust(id=dusty, field="status", value=DEAD))
    (ev,) = f.do(Rest(days=7))
    assert ev.lethal == 0 and data(f, dusty).status == DEAD and "no rest heals the dead" in ev.why


def test_rest_is_refused_during_a_fight_and_allowed_after():
    """Core (letting time pass): during a fight time passes only by turns; before and after, the GM may rest."""
    f, _ = new_fight()
    dusty = add_pc(f, "Dusty", level=3, hp=30)
    (_lefty,) = add_npc(f, "outlaw", name="Lefty", hp=6)
    f.do(Damage(targets=(dusty,), amount="9"))
    start(f)
    with pytest.raises(Refused, match="time passes only by turns during a fight"):
        f.do(Rest(days=1))
    f.do(EndFight())
    events = f.do(Rest(days=1, ids=(dusty,)))
    assert [e.id for e in events] == [dusty] and data(f, dusty).hp == 24


def test_undo_of_a_rest_restores_every_combatant():
    """Core (letting time pass): a rest is one logged, undoable action."""
    f, _ = new_fight()
    dusty = add_pc(f, "Dusty", level=3, hp=30)
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=6)
    f.do(Damage(targets=(dusty, lefty), amount="4"))
    before = f.state
    f.do(Rest(days=7))
    assert data(f, dusty).hp == 30 and data(f, lefty).hp == 6
    f.undo()
    assert f.state == before and data(f, dusty).hp == 26


def test_rest_needs_some_time():
    f, _, _ = _hurt_pc()
    with pytest.raises(Refused, match="at least 1 hour or 1 day"):
        f.do(Rest())
