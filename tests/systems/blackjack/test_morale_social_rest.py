"""Blackjack scenarios: morale, arguin', healing, bad input and the save format."""

from __future__ import annotations

import json

import pytest

from saves.format import Codec
from systems.blackjack import system
from systems.blackjack.commands import (
    Argue,
    Attack,
    CastWorking,
    DestroyPaper,
    IngestLead,
    Injure,
    MakeSave,
    MoraleCheck,
    Reload,
    ResolveSixes,
    Rest,
    Treat,
)
from systems.blackjack.events import (
    EVENT_TYPES,
    ArguinLost,
    ArguinRound,
    InjuryMarked,
    MoraleChecked,
    MoraleRuled,
    SaveRolled,
)
from tests.systems.blackjack.helpers import add, data, faces, new_fight, npc, of_type, pc
from tracker import Entry
from tracker.commands import AddCombatant, EndFight, NextTurn, RollInitiative, StartFight, parse_modifiers
from tracker.errors import Refused
from tracker.events import PromptRaised, PromptResolved
from tracker.plugin import Standing

# -- morale --------------------------------------------------------------------------


def test_first_casualty_prompts_a_morale_check() -> None:
    """Rule: the first casualty on a side prompts the 2d6 check; over the Morale breaks (flees)."""
    f = new_fight(10, 4, 4)
    d = pc(f, acc=14)
    f.do(AddCombatant(name="Outlaw", kind="npc", preset="outlaw", count=2))
    o1, o2 = "c2", "c3"
    f.do(Injure(target=o1, level="severe"))
    f.do(RollInitiative())
    f.do(StartFight())
    ev = f.do(Attack(actor=d, targets=(o1,), level="severe"))
    prompt = of_type(ev, PromptRaised)[0].prompt
    assert (prompt.kind, prompt.combatant, prompt.command, prompt.params["actor"]) == ("morale", o2, "morale", o2)
    assert "first casualty" in prompt.text and "half its number" in prompt.text
    n = len(f.entries)
    with pytest.raises(Refused, match="resolve first"):
        f.do(NextTurn())
    assert len(f.entries) == n
    ev = f.do(MoraleCheck(actor=o2))
    check = of_type(ev, MoraleChecked)[0]
    assert check.roll.total == 8 and check.broken == (o2,)
    assert data(f, o2).out == "fled" and not system.takes_turns(f.state, f.state.get(o2))
    assert of_type(ev, PromptResolved) and not f.state.prompts
    assert "Morale check for Outlaw: 2d6 [4,4] = 8" in check.describe(f.state)


def test_morale_holds_at_or_under_and_triggers_only_once() -> None:
    """Ruling: a roll over its Morale breaks it, equal holds; a trigger prompts once."""
    f = new_fight(3, 4)
    for _ in range(4):
        npc(f, f"Outlaw {_}", "outlaw", group="Gang")
    f.do(StartFight())
    f.do(Injure(target="c1", level="fatal"))
    assert [(p.kind, p.combatant) for p in f.state.prompts] == [("morale", "c2")]
    ev = f.do(MoraleCheck(actor="c2", outcome="surrenders"))
    assert of_type(ev, MoraleChecked)[0].broken == ()
    ev = f.do(Injure(target="c2", level="lesser"))
    assert not of_type(ev, PromptRaised)
    ev = f.do(Injure(target="c2", level="fatal"))
    assert "half its number" in of_type(ev, PromptRaised)[0].prompt.text


def test_surrender_is_marked() -> None:
    f = new_fight(6, 6)
    a = npc(f, "Pinkerton A", "pinkerton", group="Agency")
    b = npc(f, "Pinkerton B", "pinkerton", group="Agency")
    f.do(Injure(target=a, level="fatal"))
    f.do(MoraleCheck(actor=b, outcome="surrenders"))
    assert data(f, b).out == "surrendered"
    assert system.standing(f.state, f.state.get(b)) == Standing(word="surrendered", out=True)


def test_lone_npc_with_two_moderate_injuries_checks() -> None:
    """Rule: (if alone) an NPC that suffers 2 moderate injuries checks morale."""
    f = new_fight()
    p = npc(f, "Pinkerton", "pinkerton")
    f.do(StartFight())
    ev = f.do(Injure(target=p, level="moderate"))
    assert not of_type(ev, PromptRaised)
    ev = f.do(Injure(target=p, level="moderate"))
    assert "alone with 2 moderate" in of_type(ev, PromptRaised)[0].prompt.text


def test_morale_12_never_checks_and_morale_2_never_fights() -> None:
    """Ruling: Morale 12 never checks; Morale 2 never fights."""
    f = new_fight()
    d = pc(f)
    s1 = npc(f, "Skeleton A", "skeleton", group="Crew")
    npc(f, "Skeleton B", "skeleton", group="Crew")
    coward = npc(f, "Coward", threat=1, morale=2, weapons="Knife")
    f.do(StartFight())
    ev = f.do(Injure(target=s1, level="fatal"))
    assert not of_type(ev, PromptRaised)
    while f.state.current != coward:
        f.do(NextTurn())
    n = len(f.entries)
    with pytest.raises(Refused, match="Morale 2"):
        f.do(Attack(actor=coward, targets=(d,)))
    with pytest.raises(Refused, match="Morale 12 never checks"):
        f.do(MoraleCheck(actor="c3"))
    assert len(f.entries) == n


# -- arguin' -------------------------------------------------------------------------------


def test_arguin_defend_beats_attack_and_loser_keeps_face_or_not() -> None:
    """Rule: defend beats attack; the loser makes a CTRL save (DV = its injuries) or suffers lesser 'lose face'."""
    f = new_fight(15)
    d = pc(f, ctrl=12, injuries="lesser bruised")
    p = npc(f, "Preacher", "preacher")
    ev = f.do(Argue(actor=d, npc=p, pc_move="attack", npc_move="defend"))
    assert of_type(ev, ArguinRound)[0].losers == (d,)
    s = of_type(ev, SaveRolled)[0].save
    assert (s.who, s.stat, s.dv, s.success) == (d, "CTRL", 1, False)
    assert data(f, d).injuries[0] == ("bruised", "lose face") and not of_type(ev, ArguinLost)


def test_arguin_tie_both_save_and_first_moderate_lose_face_loses() -> None:
    """Rule: on a tie both save; the first side whose lose-face lands as moderate loses."""
    f = new_fight(12, 11)
    d = pc(f, ctrl=10, injuries="lesser a, lesser b")
    p = npc(f, "Preacher", "preacher")
    ev = f.do(Argue(actor=d, npc=p, pc_move="flourish", npc_move="flourish"))
    assert of_type(ev, ArguinRound)[0].losers == (d, p)
    inj = of_type(ev, InjuryMarked)
    assert inj[0].steps == ("lesser", "slots full", "moderate") and inj[0].target == d
    assert inj[1].target == p and inj[1].index == 0
    lost = of_type(ev, ArguinLost)[0]
    assert (lost.loser, lost.winner) == (d, p)


def test_arguin_both_shamed_goes_to_the_side_with_less_to_lose() -> None:
    """Ruling (ours): both shamed in one round: the side with less to lose wins."""
    f = new_fight(20, 20)
    d = pc(f, ctrl=10, injuries="lesser a, lesser b")
    p = npc(f, "Preacher", "preacher", injuries="lesser a, lesser b")
    ev = f.do(Argue(actor=d, npc=p, pc_move="defend", npc_move="defend", less_to_lose="pc"))
    assert of_type(ev, ArguinLost)[0].loser == p


def test_arguin_is_one_pc_against_one_npc() -> None:
    f = new_fight()
    d = pc(f)
    m = pc(f, "Ma")
    with pytest.raises(Refused, match="one PC against one NPC"):
        f.do(Argue(actor=d, npc=m, pc_move="attack", npc_move="defend"))


# -- healing ---------------------------------------------------------------------------------


def test_nights_rest_clears_lesser_and_moderate_after_the_fight() -> None:
    """Rule: a night's rest clears lesser and moderate injuries (not severe); workings are safe again."""
    f = new_fight()
    d = pc(f, injuries="lesser a, moderate b, severe c", workings="Hex 1 (cast)")
    f.do(RollInitiative())
    f.do(StartFight())
    n = len(f.entries)
    with pytest.raises(Refused, match="after the fight"):
        f.do(Rest())
    assert len(f.entries) == n
    f.do(EndFight())
    f.do(Rest())
    assert data(f, d).injuries == ((), (), ("c",)) and not data(f, d).workings[0].cast_today


def test_treatment_clears_any_one_injury() -> None:
    """Rule: proper treatment clears any single injury (default the worst)."""
    f = new_fight()
    d = pc(f, injuries="lesser a, moderate b, severe c")
    f.do(Treat(target=d))
    assert data(f, d).injuries == (("a",), ("b",), ())
    f.do(Treat(target=d, level="lesser"))
    assert data(f, d).injuries == ((), ("b",), ())
    with pytest.raises(Refused, match="no lesser injury"):
        f.do(Treat(target=d, level="lesser"))


# -- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "sheet", "match"),
    [
        ("pc", {"acc": 2}, "ACC must be 3 to 19"),
        ("pc", {"ctrl": 20}, "CTRL must be 3 to 19"),
        ("npc", {"threat": 11}, "Threat runs 1 to 10"),
        ("npc", {"threat": 0}, "Threat runs 1 to 10"),
        ("npc", {"morale": 13}, "Morale runs 2 to 12"),
        ("pc", {"slots": "2/2/1/1/1"}, "1 to 4 groups"),
        ("pc", {"injuries": "lesser a, lesser b, lesser c"}, "3 lesser injuries do not fit 2 slots$"),
    ],
)
def test_bad_sheets_are_refused_naming_the_rule(kind: str, sheet: dict, match: str) -> None:
    f = new_fight()
    with pytest.raises(Refused, match=match):
        f.do(AddCombatant(name="X", kind=kind, sheet=sheet))
    assert f.entries == []


def test_the_dead_cannot_act() -> None:
    """Bad input: acting while dead is refused, nothing logged."""
    f = new_fight()
    d = pc(f, lead=3, workings="Hex 1")
    o = npc(f, "Outlaw", "outlaw")
    f.do(Injure(target=d, level="fatal"))
    n = len(f.entries)
    for cmd in (
        Attack(actor=d, targets=(o,)),
        Reload(actor=d),
        IngestLead(actor=d, amount=1),
        CastWorking(actor=d, working="Hex"),
        MakeSave(actor=d),
    ):
        with pytest.raises(Refused, match="dead"):
            f.do(cmd)
    with pytest.raises(Refused, match="dead"):
        f.do(Attack(actor=o, targets=(d,)))
    assert len(f.entries) == n


# -- the save format -------------------------------------------------------------------------------


def test_every_event_type_round_trips_through_the_codec() -> None:
    """Every blackjack event survives cattrs + JSON."""
    f = new_fight(10, 6, 6, 2, 15, 4, 4, 19, 3, 3, 5, 5)
    d = pc(f, acc=14, ctrl=12, lead=3, workings="Fire 2")
    a = npc(f, "Outlaw", "outlaw", group="Gang")
    b = npc(f, "Outlaw B", "outlaw", group="Gang")
    dragon = npc(f, "Fire Dragon", "fire_dragon", injuries="severe a, severe b")
    p = npc(f, "Preacher", "preacher")
    f.do(Attack(actor=d, targets=(a,)))
    f.do(IngestLead(actor=d, amount=2))
    f.do(CastWorking(actor=d, working="Fire", target=dragon))
    f.do(ResolveSixes(actor=d, choices="powderburn, catastrophe", injuries="lesser singed"))
    f.do(Argue(actor=d, npc=p, pc_move="attack", npc_move="defend"))
    f.do(Injure(target=a, level="fatal"))
    f.do(MoraleCheck(actor=b))
    f.do(Attack(actor=p, targets=(d,)))
    f.do(Reload(actor=p))
    f.do(Treat(target=d))
    f.do(Attack(actor=dragon, targets=(d,), weapon="Fire breath", level="lesser"))
    f.do(Attack(actor=dragon, targets=(d,), weapon="Fire breath", level="lesser"))
    f.do(EndFight())
    f.do(Rest())
    f.do(Argue(actor=d, npc=p, pc_move="attack", npc_move="attack"))
    talker = pc(f, "Talker", ctrl=12)
    f.do(MakeSave(actor=talker, stat="CTRL", against=p, modifiers=parse_modifiers("bribe -4"), social=True))
    witch = npc(f, "Witch", "hexpaper_witch")
    faces(f, 1, 1, 1, 1)
    f.do(IngestLead(actor=witch, amount=3))
    f.do(CastWorking(actor=witch, working="Naming", target=talker))
    f.do(DestroyPaper(target=talker))
    burnt = pc(f, "Burnt", injuries="lesser a, lesser b, moderate c, moderate d", workings="Hag eye 1 (cast)")
    f.do(IngestLead(actor=burnt, amount=1))
    f.do(CastWorking(actor=burnt, working="Hag eye"))
    codec = Codec(system)
    seen = set()
    for entry in f.entries:
        back = codec.decode(json.loads(codec.encode(Entry(1, 1, entry.event))), 2)
        assert back.event == entry.event
        seen.add(type(entry.event))
    missing = {t.__name__ for t in EVENT_TYPES} - {t.__name__ for t in seen}
    assert missing <= {"ArguinLost", "MoraleRuled"}
    lost = ArguinLost(loser=d, winner=p, note="x")
    assert codec.decode(json.loads(codec.encode(Entry(1, 1, lost))), 2).event == lost
    ruled = MoraleRuled(side="Gang", broken=(a, b), outcome="surrendered")  # a morale prompt settled by ruling
    assert codec.decode(json.loads(codec.encode(Entry(1, 1, ruled))), 2).event == ruled


def test_presets_load_with_their_stat_lines() -> None:
    """Presets: the book's example stat lines."""
    f = new_fight()
    ids = {
        name: add(f, name, "npc", preset=name)
        for name in ("Outlaw", "Pinkerton", "Preacher", "Bear", "Fire Dragon", "Hexpaper Witch", "Skeleton")
    }
    o = data(f, ids["Outlaw"])
    assert (o.threat, o.morale, o.slots, o.lead) == (3, 7, (2, 2, 1), 3)
    assert data(f, add(f, "Drifter", "npc")).lead == 0
    assert [(w.name, w.level, w.paper) for w in data(f, ids["Hexpaper Witch"]).workings] == [
        ("Hex", 1, True),
        ("Naming", 3, True),
        ("Hag eye", 1, False),
    ]
    assert [w.name for w in o.weapons] == ["Machete", "Revolver", "Revolver 2"]
    dragon = data(f, ids["Fire Dragon"])
    assert (dragon.threat, dragon.morale, dragon.slots) == (10, 12, (2, 2, 2, 1))
    assert data(f, ids["Preacher"]).weapons[0].jam == 19
    assert data(f, ids["Skeleton"]).resistances == ("piercing", "slashing")
    assert [w.name for w in data(f, ids["Hexpaper Witch"]).workings] == ["Hex", "Naming", "Hag eye"]
    assert "Scoped rifle" in system.help()
