"""The fight's end clears bnb's record of the round (ruling in systems/bnb/evolve.py ``_ended``).

"This round: Gun-play" (and "Holding the action") stayed in the detail after the fight ended and after rest. The
end closes the round as a new round does; an end already logged folds as it did.
"""

from __future__ import annotations

from systems.bnb import system
from systems.bnb.commands import GunPlay
from tracker import Fight, fold
from tracker import commands as C
from tracker import events as E

from .helpers import data, gunfight


def _after_gunplay() -> tuple[Fight, str]:
    f, dice, dusty, (o1, o2, _o3), _gun = gunfight(level=3)
    assert f.state.current == dusty
    dice.add(15, 2, 3, 12, 5)
    f.do(GunPlay(actor=dusty, targets=(o1, o1, o2)))
    assert "This round: Gun-play" in system.detail(f.state, f.state.get(dusty))
    return f, dusty


def test_the_end_clears_the_rounds_action() -> None:
    f, dusty = _after_gunplay()
    f.do(C.EndFight())
    d = data(f, dusty)
    assert not d.acted and not d.gunplay and d.used == ()
    assert "This round" not in system.detail(f.state, f.state.get(dusty))
    assert not f.state.get(dusty).held
    f.do(C.Rest(hours=8))
    assert "This round" not in system.detail(f.state, f.state.get(dusty))
    assert fold(f.system, [e.event for e in f.entries]) == f.state


def test_undo_of_the_end_brings_the_rounds_action_back() -> None:
    f, dusty = _after_gunplay()
    before = f.state
    f.do(C.EndFight())
    f.undo()
    assert f.state == before
    assert data(f, dusty).gunplay


def test_an_end_logged_before_keeps_the_rounds_action() -> None:
    f, dusty = _after_gunplay()
    state = fold(f.system, [e.event for e in f.entries] + [E.FightEnded()])
    assert state.ended and state.get(dusty).data.gunplay
