"""The spear's two-handed +1 damage is for wielding it in melee (Table 10's † note, bnb l.88); thrown, it is
Table 11's missile spear (1d6, range 20, l.89–94) and gains nothing from two hands (audit ar1, finding F2: a
thrown spear with the tick dealt 1d6+1)."""

from __future__ import annotations

import pytest

from systems.bnb.commands import Attack
from systems.bnb.events import AttackRolled
from tracker import Refused

from .helpers import add_npc, add_pc, new_fight, next_round, start


def test_a_thrown_spear_gains_nothing_from_two_hands() -> None:
    f, _dice = new_fight(15, 4, 15, 4)
    jed = add_pc(f, "Jed", cls="Trailblazer", weapons="spear, club", favoured="club")
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=20)
    start(f)
    n, state = len(f.entries), f.state
    with pytest.raises(Refused) as e:
        f.do(Attack(actor=jed, target=lefty, weapon="spear", distance=15, two_hands=True))
    assert str(e.value) == (
        "a thrown spear gains nothing from two hands: the +1 damage is for a spear wielded with both hands in "
        "melee (within 5 ft); thrown 15 ft it is Table 11's missile spear, 1d6 — Two-handed spear, bnb l.88"
    )
    assert len(f.entries) == n and f.state == state
    # thrown without the tick: 1d6, no +1
    (thrown,) = [
        x for x in f.do(Attack(actor=jed, target=lefty, weapon="spear", distance=15)) if isinstance(x, AttackRolled)
    ]
    assert thrown.hit and thrown.amount == 4
    next_round(f)
    # in melee the tick stands: 1d6+1
    (held,) = [
        x
        for x in f.do(Attack(actor=jed, target=lefty, weapon="spear", distance=5, two_hands=True))
        if isinstance(x, AttackRolled)
    ]
    assert held.hit and held.amount == 5
