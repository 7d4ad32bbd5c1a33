"""The fight table's status marks who has taken its turn's one action ("acted"), only while it is true.

Before: the mark was only in the Detail pane ("This turn: ... (its one action)"); the GM could not see it in
the table.  Rulings in ``systems/blackjack/show.py`` (``status``, ``public``).
"""

from __future__ import annotations

from screens.table import state_text
from systems.blackjack import system
from systems.blackjack.commands import IngestLead
from tests.systems.blackjack.helpers import new_fight, npc, pc
from tracker import Fight
from tracker.commands import ActNow, Adjust, Delay, EndFight, NextTurn, StartFight


def _status(f: Fight, cid: str) -> str:
    return system.status(f.state, f.state.get(cid))


def _fight() -> tuple[Fight, str, str]:
    f = new_fight()
    dusty = pc(f, "Dusty", acc=12, body=10, ctrl=14, weapons="Pistol", lead=6, workings="Hex 1")
    lefty = npc(f, "Lefty", preset="outlaw", slots="4/4/2")
    return f, dusty, lefty


def test_acted_shows_only_in_the_turn_it_was_taken() -> None:
    f, dusty, lefty = _fight()
    f.do(IngestLead(actor=dusty, amount=1))  # out of the fight's turns nothing is limited, nothing marked
    assert "acted" not in _status(f, dusty)
    f.do(StartFight())
    assert f.state.current == dusty
    f.do(IngestLead(actor=dusty, amount=1))
    # a flag before the equipment (the part cut first at 80 columns)
    assert _status(f, dusty).startswith("□□|□□|□ · ACC12 BODY10 CTRL14 · acted · lead 4 (2 ingested)")
    assert "acted" not in _status(f, lefty)
    f.do(NextTurn())  # Dusty's turn is over: the mark goes with it
    assert f.state.current == lefty
    assert "acted" not in _status(f, dusty) and "acted" not in _status(f, lefty)
    f.do(Adjust(id=lefty, field="acted", value="yes"))  # the GM's word counts too
    assert "T" in _status(f, lefty) and " · acted" in _status(f, lefty)
    f.do(Adjust(id=lefty, field="acted", value="no"))
    assert "acted" not in _status(f, lefty)
    f.do(Adjust(id=lefty, field="acted", value="yes"))
    f.do(EndFight())
    assert "acted" not in _status(f, lefty)


def test_a_turn_interrupted_by_a_held_action_keeps_its_mark() -> None:
    """One whose turn a held action stepped into has still acted in that turn (it resumes with its action
    taken), so it keeps the mark; the one stepping in starts fresh."""
    f, dusty, lefty = _fight()
    f.do(StartFight())
    f.do(Delay(id=dusty))
    assert f.state.current == lefty
    f.do(Adjust(id=lefty, field="acted", value="yes"))
    f.do(ActNow(id=dusty))
    assert f.state.current == dusty
    assert " · acted" in _status(f, lefty) and "acted" not in _status(f, dusty)


def test_the_players_descriptor_stays_one_word() -> None:
    """A PC's line on the players' view (its status) shows the mark; an NPC's public word does not."""
    f, dusty, lefty = _fight()
    f.do(StartFight())
    f.do(IngestLead(actor=dusty, amount=1))
    assert " · acted" in state_text(system, f.state, f.state.get(dusty))
    f.do(NextTurn())
    f.do(Adjust(id=lefty, field="acted", value="yes"))
    assert system.public(f.state, f.state.get(lefty)) == "unhurt"
    assert state_text(system, f.state, f.state.get(lefty)) == "unhurt"
