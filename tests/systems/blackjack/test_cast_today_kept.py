"""The workings cast today are a GM-adjustable value, so a party or preset kept "as they are now" carries them.

RULINGS (blackjack): a second casting of a working in one day marks its lesser injury (powderburn) before the
working's dice.  A party (F5) or preset (M) kept as they are now keeps only the GM-adjustable values, and the
day's castings were none of them: Ann, reloaded for the next scene the same day, recast Hex with no powderburn.
"""

from __future__ import annotations

import json
from pathlib import Path

import attrs
import pytest

from saves import library, parties
from systems.blackjack import system
from systems.blackjack.commands import CastWorking, IngestLead
from systems.blackjack.events import InjuryMarked, WorkingCast
from tests.systems.blackjack.helpers import data, faces, new_fight, npc, of_type, pc
from tracker import Fight
from tracker.commands import AddCombatant, Adjust, NextTurn, StartFight
from tracker.errors import Refused

ANN = {"acc": 14, "ctrl": 15, "workings": "Hex 1, Naming 3", "lead": 5}


def _ann_cast_hex() -> Fight:
    """Ann ingests 1 lead and casts Hex at the Ogre (its CTRL save fails): Hex is cast today, Naming not."""
    f = new_fight()
    ann = pc(f, "Ann", **ANN)
    ogre = npc(f, "Ogre")
    f.do(StartFight())
    while f.state.current != ann:
        f.do(NextTurn())
    f.do(IngestLead(actor=ann, amount=1))
    f.do(NextTurn())
    while f.state.current != ann:
        f.do(NextTurn())
    faces(f, 3, 1)  # the working's 1d6; the Ogre's CTRL save (1: under the DV, fails)
    f.do(CastWorking(actor=ann, working="Hex", target=ogre))
    assert [(w.name, w.cast_today) for w in data(f, ann).workings] == [("Hex", True), ("Naming", False)]
    return f


def _recast_hex(g: Fight) -> list[object]:
    """The reloaded Ann, in a new fight the same day, ingests 1 lead and casts Hex at an Ogre again."""
    ann = g.state.by_name("Ann")
    assert ann is not None
    ogre = npc(g, "Ogre")
    g.do(StartFight())
    while g.state.current != ann.id:
        g.do(NextTurn())
    g.do(IngestLead(actor=ann.id, amount=1))
    g.do(NextTurn())
    while g.state.current != ann.id:
        g.do(NextTurn())
    faces(g, 3, 1)
    return g.do(CastWorking(actor=ann.id, working="Hex", target=ogre))


def test_a_party_kept_as_it_is_now_remembers_the_workings_cast_today(tmp_path: Path) -> None:
    f = _ann_cast_hex()
    path = parties.save_party("Crew", "blackjack", parties.party_members(f, now=True), tmp_path)
    assert json.loads(path.read_text())["members"][0]["now"]["cast_today"] == "Hex"

    g = new_fight()
    for cmd in parties.party_commands(path):
        g.do(cmd)
    back = g.state.by_name("Ann")
    assert back is not None
    # reloads exactly: Hex cast today, the lead spent, nothing else moved; the turn's action (casting) is the
    # fight's, not carried ("acted" is fight_only)
    assert data(f, "c1").action == "cast Hex" and back.data.action == ""
    assert back.data == attrs.evolve(data(f, "c1"), action="")
    events = _recast_hex(g)
    (cast,) = of_type(events, WorkingCast)
    assert cast.again
    burns = of_type(events, InjuryMarked)
    assert burns and burns[0].target == back.id and burns[0].index == 0  # the powderburn, before the dice
    assert events.index(burns[0]) < events.index(cast)

    fresh = new_fight()
    fresh.do_all(parties.party_commands(path, fresh=True))
    assert data(fresh, "c1").cast_today == ""  # a fresh party is fresh: nothing cast


def test_a_preset_kept_as_it_is_now_remembers_the_workings_cast_today(tmp_path: Path) -> None:
    f = _ann_cast_hex()
    pid = library.save_preset("blackjack", f, "c1", "Ann today", folder=tmp_path, now=True)
    (entry,) = json.loads(library.library_file("blackjack", tmp_path).read_text())["presets"]
    assert entry["now"]["cast_today"] == "Hex"

    g = new_fight()
    g.do(AddCombatant(name="Ann", kind="pc", preset=pid))
    back = g.state.combatants[0]
    assert back.data == attrs.evolve(data(f, "c1"), action="")  # reloads exactly: Hex cast today, the lead spent
    assert back.data.action == ""  # the turn's action is the fight's (fight_only)
    assert [(w.name, w.cast_today) for w in back.data.workings] == [("Hex", True), ("Naming", False)]


def test_the_gm_sets_the_workings_cast_today_and_a_recast_marks_its_powderburn() -> None:
    f = new_fight()
    ann = pc(f, "Ann", **ANN)
    labels = {p.name: p.label for p in system.adjustable(f.state, f.state.get(ann))}
    assert labels["cast_today"] == "Workings cast today"

    (ev,) = f.do(Adjust(id=ann, field="cast_today", value="naming , HEX"))
    assert ev.value == "Hex, Naming" and ev.old == ""  # the sheet's names, in its order
    assert data(f, ann).cast_today == "Hex, Naming"
    with pytest.raises(Refused, match="already Hex, Naming"):
        f.do(Adjust(id=ann, field="cast_today", value="Hex, Naming"))
    with pytest.raises(Refused, match=r"'Blast': name a working Ann knows \(Hex, Naming\)"):
        f.do(Adjust(id=ann, field="cast_today", value="Hex, Blast"))
    f.do(Adjust(id=ann, field="cast_today", value="Hex"))
    assert [(w.name, w.cast_today) for w in data(f, ann).workings] == [("Hex", True), ("Naming", False)]
    f.undo()
    assert data(f, ann).cast_today == "Hex, Naming"
    f.do(Adjust(id=ann, field="cast_today", value=""))
    assert data(f, ann).cast_today == ""

    f.do(Adjust(id=ann, field="cast_today", value="Hex"))
    npc(f, "Ogre")
    f.do(StartFight())
    f.do(IngestLead(actor=ann, amount=1))
    f.do(NextTurn())
    while f.state.current != ann:
        f.do(NextTurn())
    faces(f, 3, 1)
    events = f.do(CastWorking(actor=ann, working="Hex", target="c2"))
    assert of_type(events, WorkingCast)[0].again
    assert data(f, ann).injuries[0] == ("powderburn (second casting today)",)


def test_one_without_workings_has_no_such_value() -> None:
    f = new_fight()
    dusty = pc(f, "Dusty")
    assert "cast_today" not in {p.name for p in system.adjustable(f.state, f.state.get(dusty))}
    with pytest.raises(Refused, match="name a working Dusty knows \\(none\\)"):
        f.do(Adjust(id=dusty, field="cast_today", value="Hex"))
