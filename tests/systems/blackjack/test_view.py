"""What the GM sees (issue #11) and what the players see (issue #17)."""

from __future__ import annotations

import re

import pytest

from systems.blackjack import system
from systems.blackjack.commands import CastWorking, IngestLead, Injure
from tests.systems.blackjack.helpers import new_fight, npc, pc
from tracker import Fight
from tracker.commands import AddCondition, Adjust, RemoveCombatant
from tracker.plugin import Standing


def _standing(f: Fight, cid: str) -> Standing:
    return system.standing(f.state, f.state.get(cid))


def test_standing_word_for_each_out_state() -> None:
    """Dead (a Fatal injury), fled, surrendered, gone (removed) are out of the fight; down (a Severe injury,
    "need help or will die") is the word the GM must not miss, but the combatant still fights."""
    f = new_fight()
    ids = {w: npc(f, w.capitalize(), "outlaw") for w in ("fit", "down", "dead", "fled", "surrendered", "gone")}
    f.do(Injure(target=ids["down"], level="severe"))
    f.do(Injure(target=ids["dead"], level="fatal"))
    f.do(Adjust(id=ids["fled"], field="out", value="fled"))
    f.do(Adjust(id=ids["surrendered"], field="out", value="surrendered"))
    f.do(RemoveCombatant(id=ids["gone"]))
    assert _standing(f, ids["fit"]) == Standing()
    assert _standing(f, ids["down"]) == Standing(word="dying", out=False)
    for word in ("dead", "fled", "surrendered", "gone"):
        assert _standing(f, ids[word]) == Standing(word=word, out=True)
    assert system.takes_turns(f.state, f.state.get(ids["down"]))
    for cid in ids.values():
        line = system.status(f.state, f.state.get(cid))
        assert not re.search(r"\b(dead|DEAD|fled|FLED|surrendered|SURRENDERED|down|SEVERE)\b", line), line


def test_status_puts_injuries_and_dv_first_and_equipment_last() -> None:
    """The narrow line: track and DV (injuries and DV conditions) first, Threat and Morale, then guns and lead."""
    f = new_fight()
    o = npc(f, "Outlaw", "outlaw", injuries="lesser a, moderate b")
    f.do(AddCondition(id=o, name="Hexed", value=2))
    line = system.status(f.state, f.state.get(o))
    assert line == "■□|■□|□ DV+4 · T3 ML7 · lead 3, Revolver 6/6, Revolver 2 6/6"
    assert "Hexed" not in line  # the core shows conditions itself
    fresh = pc(f, "Fresh", weapons="Hunting knife")
    assert system.status(f.state, f.state.get(fresh)) == "□□|□□|□ · ACC10 BODY10 CTRL10 · lead 3"


def test_detail_has_everything_once_and_no_conditions_section() -> None:
    """The core pane adds the name and the conditions; the plug-in's detail adds neither, nor repeats itself."""
    f = new_fight(1, 1, 1, 1)
    w = npc(f, "Witch", "hexpaper_witch")
    d = pc(f, ctrl=12, weapons="Revolver 4, Hand axe", injuries="lesser bruised")
    f.do(AddCondition(id=d, name="Prone"))
    f.do(IngestLead(actor=w, amount=3))
    f.do(CastWorking(actor=w, working="Naming", target=d))
    text = system.detail(f.state, f.state.get(d))
    assert "Conditions" not in text and "Prone" not in text and not text.startswith("Dusty")
    lines = text.splitlines()
    assert len(lines) == len(set(lines))
    assert lines[0] == "Injuries ■□|□□|■: +2 DV to every save (own injuries +2)"
    assert "Bound: severe agony (Naming's paper), until the paper is destroyed" in lines
    assert "Stats: ACC 10 (0/3 marks), BODY 10 (0/3 marks), CTRL 12 (0/3 marks)" in lines
    assert "Weapons: Revolver 4/6, Hand axe" in lines and "Lead 3" in lines
    assert sum("Revolver" in x for x in lines) == 1


@pytest.mark.parametrize(
    ("injuries", "word"),
    [("", "unhurt"), ("lesser a", "lesser"), ("lesser a, moderate b", "moderate"), ("severe c", "severe")],
)
def test_public_is_the_worst_injury_name(injuries: str, word: str) -> None:
    f = new_fight()
    o = npc(f, "Outlaw", "outlaw", injuries=injuries)
    assert system.public(f.state, f.state.get(o)) == word


def test_public_never_shows_a_number_for_an_npc() -> None:
    """The players' view: a descriptor only — never Threat, Morale, DV, shots or lead."""
    f = new_fight()
    ids = [npc(f, f"Outlaw {i}", "outlaw") for i in range(5)]
    dragon = npc(f, "Fire Dragon", "fire_dragon", injuries="grievous scorched")
    f.do(Injure(target=ids[1], level="moderate"))
    f.do(Injure(target=ids[2], level="fatal"))
    f.do(Adjust(id=ids[3], field="out", value="fled"))
    f.do(Adjust(id=ids[4], field="out", value="surrendered"))
    words = [system.public(f.state, f.state.get(i)) for i in (*ids, dragon)]
    assert words == ["unhurt", "moderate", "dead", "fled", "surrendered", "grievous"]
    assert not any(re.search(r"\d", w) for w in words)
