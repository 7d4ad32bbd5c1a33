"""bnb: a PC who has taken the round's action cannot hold it (audit a14 w2, F6): it logged "Hero holds the action"
after an attack, the players' view read "acted · holding", and the fight's end "held action lapses: Hero".
Ruling in systems/bnb/plugin.py:check_core, as zludge and twod6 refuse it; GM adjust "acted" frees it."""

from __future__ import annotations

import pytest

import systems.bnb.commands as B
from tracker import Fight, registry
from tracker import commands as C
from tracker.errors import Refused


def _hero_first() -> Fight:
    f = Fight(registry.load("bnb"))
    f.do(C.AddCombatant(name="Hero", kind="pc", sheet={"hp": "8"}))
    f.do(C.AddCombatant(name="Bear", preset="black_bear"))
    f.do(C.SetInitiative(values={"c1": 20, "c2": 5}))
    f.do(C.StartFight())
    assert f.state.current == "c1"
    return f


def test_a_pc_who_attacked_cannot_hold_and_the_adjust_frees_it() -> None:
    f = _hero_first()
    f.do(B.Attack(actor="c1", target="c2"))
    with pytest.raises(Refused, match="has taken this round's action: there is none left to hold"):
        f.do(C.Delay())
    assert not f.state.get("c1").held
    f.do(C.Adjust(id="c1", field="acted", value=False))
    f.do(C.Delay())
    assert f.state.get("c1").held


def test_a_pc_who_has_not_acted_still_holds() -> None:
    f = _hero_first()
    f.do(C.Delay())
    assert f.state.get("c1").held
