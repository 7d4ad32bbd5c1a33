"""A whole fight: two PCs against outlaws, a Pinkerton and a hexpaper witch, saved and replayed."""

from __future__ import annotations

from pathlib import Path

import saves
from saves.export import recap
from systems.blackjack import system
from systems.blackjack.commands import Attack, CastWorking, IngestLead, MoraleCheck, Reload, ResolveSixes, Rest
from systems.blackjack.events import InjuryMarked, MoraleChecked
from tests.systems.blackjack.helpers import of_type
from tracker.commands import AddCombatant, EndFight, NextTurn, RollInitiative, StartFight
from tracker.dice import ScriptedRoller
from tracker.events import PromptRaised

FACES = [
    10,
    12,
    2,  # Dusty fans the revolver: Outlaw 1, Outlaw 1, Outlaw 2
    6,
    1,  # Ma's Hex: 1d6 = 6; the Pinkerton's save 1 (fails)
    9,  # Outlaw 1 shoots Dusty
    15,  # Outlaw 2 shoots Ma: over Threat + 8
    2,  # the hexed Pinkerton shoots Dusty: at or under DV 2
    3,
    8,  # the witch's Hex: 1d6 = 3; Dusty's CTRL save 8 (holds)
    7,  # round 2: Dusty's rifle at Outlaw 1
    5,  # Ma's pistol at Outlaw 1: dead
    3,
    3,  # morale: 6, the witch (ML 5) flees
    5,
    4,  # morale again (half out): 9, Outlaw 2 (ML 7) surrenders
    10,  # the Pinkerton shoots Ma
    9,  # round 3: Ma's pistol at the Pinkerton
]


def test_a_whole_fight_replays_to_the_same_end(tmp_path: Path) -> None:
    path = tmp_path / "fight.jsonl"
    fight = saves.new_fight(system, path, seed=1, roller=ScriptedRoller(FACES))
    fight.do(AddCombatant(name="Dusty", kind="pc", preset="gunslinger"))
    fight.do(AddCombatant(name="Ma", kind="pc", preset="lead_eater"))
    fight.do(AddCombatant(name="Outlaw", kind="npc", preset="outlaw", count=2))
    fight.do(AddCombatant(name="Pinkerton", kind="npc", preset="pinkerton", group="Agency"))
    fight.do(AddCombatant(name="Witch", kind="npc", preset="hexpaper_witch", group="Outlaw"))
    dusty, ma, o1, o2, pink, witch = "c1", "c2", "c3", "c4", "c5", "c6"
    fight.do(RollInitiative())
    assert fight.state.order == (dusty, ma, o1, o2, pink, witch)
    # the casters swallow their lead before the shooting (10 seconds out of combat): in the fight, ingesting
    # and casting are two actions, two turns
    fight.do(IngestLead(actor=ma, amount=1))
    fight.do(IngestLead(actor=witch, amount=1))
    fight.do(StartFight())

    # round 1
    fight.do(Attack(actor=dusty, targets=(o1, o1, o2), weapon="Revolver"))
    assert fight.state.get(o1).data.injuries[1] == ("gunshot", "gunshot")
    fight.do(NextTurn())
    fight.do(CastWorking(actor=ma, working="Hex", target=pink))
    assert fight.state.get(pink).condition("Hexed") is not None
    fight.do(ResolveSixes(actor=ma, choices="catastrophe", injuries="lesser deafened", note="her ears ring"))
    fight.do(NextTurn())
    fight.do(Attack(actor=o1, targets=(dusty,), weapon="Revolver"))
    fight.do(NextTurn())
    fight.do(Attack(actor=o2, targets=(ma,), weapon="Revolver"))
    fight.do(NextTurn())
    fight.do(Attack(actor=pink, targets=(dusty,), weapon="Repeater"))
    fight.do(NextTurn())
    fight.do(CastWorking(actor=witch, working="Hex", target=dusty))
    assert fight.state.get(dusty).condition("Hexed") is None

    # round 2
    fight.do(NextTurn())
    assert (fight.state.round, fight.state.current) == (2, dusty)
    ev = fight.do(Attack(actor=dusty, targets=(o1,), weapon="Rifle"))
    assert of_type(ev, InjuryMarked)[0].steps == ("moderate", "slots full", "severe")
    fight.do(NextTurn())
    ev = fight.do(Attack(actor=ma, targets=(o1,), weapon="Pistol"))
    assert fight.state.get(o1).data.dead
    assert "first casualty" in of_type(ev, PromptRaised)[0].prompt.text
    ev = fight.do(MoraleCheck(actor=o2))
    assert of_type(ev, MoraleChecked)[0].broken == (witch,)
    assert "half its number" in of_type(ev, PromptRaised)[0].prompt.text
    fight.do(MoraleCheck(actor=o2, outcome="surrenders"))
    assert fight.state.get(o2).data.out == "surrendered"
    fight.do(NextTurn())
    assert fight.state.current == pink
    fight.do(Attack(actor=pink, targets=(ma,), weapon="Repeater"))

    # round 3
    fight.do(NextTurn())
    assert (fight.state.round, fight.state.current) == (3, dusty)
    fight.do(Reload(actor=dusty, weapon="Revolver"))
    fight.do(NextTurn())
    fight.do(Attack(actor=ma, targets=(pink,), weapon="Pistol"))
    fight.do(EndFight(note="the Pinkerton rides off"))
    fight.do(Rest())
    live = fight.state
    assert fight.roller.exhausted  # type: ignore[attr-defined]

    d = live.get(dusty).data
    assert d.injuries == ((), (), ()) and d.lead == 3 and d.weapons[0].loaded == 6
    assert live.get(ma).data.lead == 5 and live.get(pink).data.injuries == ((), (), ())

    loaded = saves.load(path)
    assert loaded.fight().state == live
    text = recap(loaded)
    assert "1d20 [10]" in text and "slots full" in text
