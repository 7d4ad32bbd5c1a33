"""Flat-footed (no action yet in the fight, l.103) is said only while a fight runs: a PC who never reached his
turn read "flat-footed" on the table and in the detail pane after the fight's end and a week's rest (audit a14
g1, F3).  Ruling in systems/zludge/views.py:_flags."""

from __future__ import annotations

from systems.zludge import system
from tests.systems.zludge.helpers import add, new_fight
from tracker.commands import EndFight, SetInitiative, StartFight


def test_flat_footed_is_said_while_the_fight_runs_and_not_after() -> None:
    f = new_fight()
    for name in ("Alice", "Bob", "Cid"):
        add(f, name)
    cid = f.state.by_name("Cid").id
    f.do(SetInitiative(values={f.state.by_name("Alice").id: 3, f.state.by_name("Bob").id: 2, cid: 1}))
    f.do(StartFight())
    running = f.state
    assert "flat-footed" in system.status(running, running.get(cid))
    assert "flat-footed" in system.detail(running, running.get(cid))
    f.do(EndFight())
    ended = f.state
    assert "flat-footed" not in system.status(ended, ended.get(cid))
    assert "flat-footed" not in system.detail(ended, ended.get(cid))
    f.undo()  # the fight runs again: Cid has still not acted
    assert "flat-footed" in system.status(f.state, f.state.get(cid))
