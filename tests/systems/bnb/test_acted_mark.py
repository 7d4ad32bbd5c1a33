"""The fight table's status marks who has taken the round's action ("acted"), only while it is true.

Before: the mark was only in the Detail pane ("This round: ..."); the GM of a fight of eight could not see at a
glance who had acted.  Rulings in ``systems/bnb/plugin.py`` (``status``, ``public``).
"""

from __future__ import annotations

from screens.table import state_text
from systems.bnb import system
from systems.bnb.commands import Attack
from tests.systems.bnb.helpers import add_npc, add_pc, new_fight, next_round, start
from tracker import Fight, NextTurn
from tracker.commands import Adjust, EndFight


def _status(f: Fight, cid: str) -> str:
    return system.status(f.state, f.state.get(cid))


def test_acted_shows_in_the_status_only_in_the_round_it_is_true() -> None:
    f, dice = new_fight()
    dusty = add_pc(f, "Dusty", weapons="belt pistol:6")
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=30)
    start(f)
    assert f.state.current == dusty
    assert "acted" not in _status(f, dusty) and "acted" not in _status(f, lefty)
    dice.add(2)
    f.do(Attack(actor=dusty, target=lefty, distance=20))
    # a flag among the others, before the guns (the part cut first at 80 columns)
    assert _status(f, dusty) == "HP 10/10 · DC 10 · acted · belt pistol 5/6"
    assert "acted" not in _status(f, lefty)
    f.do(NextTurn())  # Lefty's turn: Dusty has still acted this round
    assert f.state.current == lefty
    assert _status(f, dusty).endswith("· acted · belt pistol 5/6")
    f.do(Adjust(id=lefty, field="acted", value="yes"))  # the GM's word counts too
    assert " · acted" in _status(f, lefty)
    next_round(f)  # a new round frees everyone's action: no mark left over
    assert "acted" not in _status(f, dusty) and "acted" not in _status(f, lefty)
    dice.add(2)
    f.do(Attack(actor=dusty, target=lefty, distance=20))
    assert " · acted" in _status(f, dusty)
    f.do(EndFight())  # the record is not cleared at the end, but the fight's round is over
    assert "acted" not in _status(f, dusty)


def test_the_players_descriptor_stays_one_word() -> None:
    """A PC's line on the players' view (its status) shows the mark; an NPC's public word does not."""
    f, dice = new_fight()
    dusty = add_pc(f, "Dusty", weapons="belt pistol:6")
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=30)
    start(f)
    dice.add(2)
    f.do(Attack(actor=dusty, target=lefty, distance=20))
    f.do(NextTurn())
    f.do(Adjust(id=lefty, field="acted", value="yes"))
    assert " · acted" in state_text(system, f.state, f.state.get(dusty))
    assert system.public(f.state, f.state.get(lefty)) == "unhurt"
    assert state_text(system, f.state, f.state.get(lefty)) == "unhurt"
