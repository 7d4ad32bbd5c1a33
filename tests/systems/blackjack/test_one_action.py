"""One action a turn (rules/common.py ``one_action``): an attack, a reload, ingesting lead, casting a working.

Book: l.189 "To reload a firearm, you must spend lead and an action"; l.194–196 a revolver and a repeater
take "Multiple shots per round", so other firearms fire one; l.221 "ingesting lead as an action during combat
(or 10 seconds outside of combat) and subsequently activating a working using another action". RULINGS
(blackjack): "one action to ingest N lead …, another action to cast"; "Reloading spends 1 lead and an action";
"a revolver or repeater may fire several shots in one action … other firearms fire one". Before the fix all of
these were accepted in one turn (audit ar1, finding F1).
"""

from __future__ import annotations

import json
from pathlib import Path

import cattrs
import pytest

import saves
from systems.blackjack import system
from systems.blackjack.commands import Attack, CastWorking, IngestLead, MakeSave, Reload
from systems.blackjack.events import AttackMade, RechargeRolled, WorkingCast
from tests.systems.blackjack.helpers import data, faces, new_fight, npc, of_type, pc, turn_of
from tracker import Fight
from tracker.commands import ActNow, Adjust, Delay, EndFight, NextTurn, StartFight
from tracker.errors import Refused

FIXTURE = Path(__file__).parent / "fixtures" / "v11_actions"


def _fight() -> tuple[Fight, str, str]:
    """Dusty (Pistol, Revolver, Hatchet, 6 lead, Hex) against Lefty the outlaw; the fight started, Dusty's turn."""
    f = new_fight()
    dusty = pc(f, "Dusty", acc=12, body=10, ctrl=14, weapons="Pistol, Revolver, Hatchet", lead=6, workings="Hex 1")
    lefty = npc(f, "Lefty", preset="outlaw", slots="4/4/2")
    f.do(StartFight())
    assert f.state.current == dusty
    return f, dusty, lefty


def _refused(f: Fight, command: object, words: str) -> None:
    """Refused with these words (the rule's), and nothing logged."""
    n = len(f.entries)
    with pytest.raises(Refused) as e:
        f.do(command)
    assert words in str(e.value)
    assert len(f.entries) == n


def test_ingesting_takes_the_turn_and_casting_waits_for_the_next() -> None:
    f, dusty, lefty = _fight()
    f.do(IngestLead(actor=dusty, amount=1))
    _refused(
        f,
        CastWorking(actor=dusty, working="Hex", target=lefty),
        "Dusty has taken this turn's action (ingested lead): cast the working next turn — Ingesting lead, "
        "blackjack l.221",
    )
    _refused(f, IngestLead(actor=dusty, amount=1), "Dusty has taken this turn's action (ingested lead)")
    assert data(f, dusty).ingested == 1 and data(f, dusty).lead == 5
    turn_of(f, dusty)
    faces(f, 3, 15)  # the working's 1d6; Lefty's save, over Threat + 8: Hexed
    ev = f.do(CastWorking(actor=dusty, working="Hex", target=lefty))
    assert of_type(ev, WorkingCast) and f.state.get(lefty).condition("Hexed") is not None
    _refused(f, Attack(actor=dusty, targets=(lefty,), weapon="Pistol"), "Dusty has taken this turn's action (cast Hex)")


def test_a_pistol_fires_once_a_turn_a_revolver_volley_is_one_action() -> None:
    f, dusty, lefty = _fight()
    faces(f, 15)
    f.do(Attack(actor=dusty, targets=(lefty,), weapon="Pistol"))
    _refused(
        f,
        Attack(actor=dusty, targets=(lefty,), weapon="Pistol"),
        "Dusty has taken this turn's action (fired the Pistol): attack next turn (only a revolver or repeater "
        "fires several shots in one action: one attack, a target per shot) — Multiple shots",
    )
    _refused(f, Attack(actor=dusty, targets=(lefty,), weapon="Revolver"), "(fired the Pistol)")
    _refused(f, Attack(actor=dusty, targets=(lefty,), weapon="Hatchet", range="close"), "(fired the Pistol)")
    assert next(w for w in data(f, dusty).weapons if w.name == "Pistol").loaded == 9
    turn_of(f, dusty)
    faces(f, 15, 15, 15)
    ev = f.do(Attack(actor=dusty, targets=(lefty, lefty, lefty), weapon="Revolver"))  # three shots, one action
    assert len(of_type(ev, AttackMade)) == 3
    _refused(f, Attack(actor=dusty, targets=(lefty,), weapon="Revolver"), "(fired the Revolver)")


def test_reload_takes_the_turns_action() -> None:
    f, dusty, lefty = _fight()
    faces(f, 15)
    f.do(Attack(actor=dusty, targets=(lefty,), weapon="Pistol"))
    _refused(
        f,
        Reload(actor=dusty, weapon="Pistol"),
        "Dusty has taken this turn's action (fired the Pistol): reload next turn — Reload, blackjack l.217",
    )
    turn_of(f, dusty)
    f.do(Reload(actor=dusty, weapon="Pistol"))
    assert data(f, dusty).lead == 5
    _refused(
        f,
        Attack(actor=dusty, targets=(lefty,), weapon="Pistol"),
        "Dusty has taken this turn's action (reloaded the Pistol): attack next turn — Reload, blackjack l.217",
    )
    _refused(f, IngestLead(actor=dusty), "(reloaded the Pistol): ingest lead next turn — Ingesting lead")


def test_an_npc_special_takes_the_turns_action() -> None:
    f = new_fight()
    dusty = pc(f, "Dusty", body=12, slots="4/4/2")
    bear = npc(f, "Bear", preset="bear")
    f.do(StartFight())
    turn_of(f, bear)
    faces(f, 3)  # Dusty's BODY save against the Bear hug: at or under DV 4, fails
    f.do(Attack(actor=bear, targets=(dusty,), weapon="Bear hug"))
    _refused(
        f, Attack(actor=bear, targets=(dusty,), weapon="Claws"), "Bear has taken this turn's action (used its Bear hug)"
    )
    turn_of(f, bear)
    faces(f, 5)
    f.do(Attack(actor=bear, targets=(dusty,), weapon="Claws"))
    _refused(f, Attack(actor=bear, targets=(dusty,), weapon="Bite"), "(attacked with the Claws)")


def test_a_failed_recharge_takes_no_action_once_a_turn() -> None:
    """Ruling: a failed recharge roll takes no action (the creature does something else), and is rolled once a
    turn; a breath that recharged is the turn's action."""
    f = new_fight()
    dusty = pc(f, "Dusty", body=12, slots="4/4/2")
    dragon = npc(f, "Fire Dragon", preset="fire_dragon")
    f.do(StartFight())
    turn_of(f, dragon)
    faces(f, 15)  # Dusty's BODY save over DV 10: fails
    f.do(Attack(actor=dragon, targets=(dusty,), weapon="Fire breath", level="lesser"))
    turn_of(f, dragon)
    faces(f, 3)  # the recharge: 3, not ready (5+)
    (rolled,) = f.do(Attack(actor=dragon, targets=(dusty,), weapon="Fire breath"))
    assert isinstance(rolled, RechargeRolled) and not rolled.ok
    _refused(
        f,
        Attack(actor=dragon, targets=(dusty,), weapon="Fire breath"),
        "Fire Dragon's Fire breath did not recharge this turn (its roll was made): it may recharge next turn",
    )
    faces(f, 11)
    f.do(Attack(actor=dragon, targets=(dusty,), weapon="Claws"))  # the action is still free
    _refused(f, Attack(actor=dragon, targets=(dusty,), weapon="Tail"), "(attacked with the Claws)")
    turn_of(f, dragon)
    faces(f, 6, 15)  # recharged on 6, then Dusty's save
    ev = f.do(Attack(actor=dragon, targets=(dusty,), weapon="Fire breath", level="lesser"))
    assert of_type(ev, RechargeRolled)[0].ok and of_type(ev, AttackMade)
    _refused(f, Attack(actor=dragon, targets=(dusty,), weapon="Claws"), "(used its Fire breath)")


def test_nothing_is_limited_out_of_the_fights_turns() -> None:
    """Before the fight (ingesting takes 10 seconds out of combat) and after it, nothing is limited; saves take no
    action in it either."""
    f = new_fight()
    dusty = pc(f, "Dusty", acc=12, ctrl=14, weapons="Pistol", lead=6, workings="Hex 1")
    lefty = npc(f, "Lefty", preset="outlaw", slots="4/4/2")
    f.do(IngestLead(actor=dusty, amount=1))
    faces(f, 3, 15, 15, 15)
    f.do(CastWorking(actor=dusty, working="Hex", target=lefty))
    f.do(Attack(actor=dusty, targets=(lefty,), weapon="Pistol"))
    f.do(Attack(actor=dusty, targets=(lefty,), weapon="Pistol"))
    assert data(f, dusty).action == ""
    f.do(StartFight())
    faces(f, 15, 5, 5)
    f.do(Attack(actor=dusty, targets=(lefty,), weapon="Pistol"))
    f.do(MakeSave(actor=dusty, stat="BODY"))  # a save is no action
    f.do(MakeSave(actor=lefty, stat="BODY"))
    f.do(EndFight())
    assert data(f, dusty).action == ""
    f.do(Reload(actor=dusty))
    f.do(IngestLead(actor=dusty, amount=1))


def test_the_gm_frees_the_turns_action_by_an_adjustment() -> None:
    f, dusty, lefty = _fight()
    labels = {p.name: p.label for p in system.adjustable(f.state, f.state.get(dusty))}
    assert labels["acted"] == "Has acted this turn (no: may act again)"
    assert "acted" in system.fight_only
    f.do(IngestLead(actor=dusty, amount=1))
    assert "This turn: ingested lead (its one action)" in system.detail(f.state, f.state.get(dusty))
    (ev,) = f.do(Adjust(id=dusty, field="acted", value=False, note="a quick hand"))
    assert (ev.old, ev.value, ev.label) == (True, False, "Has acted this turn")
    faces(f, 3, 15)
    f.do(CastWorking(actor=dusty, working="Hex", target=lefty))  # the GM allowed a second action
    _refused(f, Adjust(id=dusty, field="acted", value=True), "already True")
    turn_of(f, dusty)
    assert not data(f, dusty).acted
    f.do(Adjust(id=dusty, field="acted", value=True, note="stunned by the blast"))
    _refused(f, Reload(actor=dusty), "Dusty has taken this turn's action (the turn's action, as the GM set it)")
    f.undo()
    faces(f, 15)
    f.do(Attack(actor=dusty, targets=(lefty,), weapon="Pistol"))


def test_one_who_acted_cannot_hold_the_action() -> None:
    """A combatant that has taken its action has none left to hold (a held action stepping in later would be a
    second one); one that has not may hold."""
    f, dusty, lefty = _fight()
    faces(f, 15)
    f.do(Attack(actor=dusty, targets=(lefty,), weapon="Pistol"))
    _refused(f, Delay(), "Dusty has taken this turn's action (fired the Pistol): there is none left to hold")
    turn_of(f, dusty)
    f.do(Delay())
    assert f.state.current == lefty and f.state.get(dusty).held


def test_a_turn_resumed_after_a_held_action_keeps_its_action() -> None:
    """A held PC stepping in is its own turn; the interrupted one's turn goes on, with its action still taken."""
    f = new_fight()
    dusty = pc(f, "Dusty", acc=12, weapons="Pistol")
    ma = pc(f, "Ma", acc=12, weapons="Pistol")
    lefty = npc(f, "Lefty", preset="outlaw", slots="4/4/2")
    f.do(StartFight())
    f.do(Delay())  # Dusty holds
    assert f.state.current == ma
    faces(f, 15, 15)
    f.do(Attack(actor=ma, targets=(lefty,), weapon="Pistol"))
    f.do(ActNow(id=dusty))
    f.do(Attack(actor=dusty, targets=(lefty,), weapon="Pistol"))  # Dusty's own action
    _refused(f, Attack(actor=dusty, targets=(lefty,), weapon="Pistol"), "Dusty has taken this turn's action")
    f.do(NextTurn())  # back to Ma's turn, resumed
    assert f.state.current == ma
    _refused(f, Attack(actor=ma, targets=(lefty,), weapon="Pistol"), "Ma has taken this turn's action")


def test_the_help_says_one_action_a_turn() -> None:
    text = system.help()
    assert "One action a turn: an attack (a revolver's or repeater's volley of several shots is one" in text
    assert "cast\n(another action, next turn)" in text


def test_an_old_fight_file_with_several_actions_a_turn_replays_as_it_did() -> None:
    """``fixtures/v11_actions.jsonl`` was written by the plug-in at version 1.1 (before the limit): Dusty fires
    the Pistol twice, ingests, casts Hex and reloads in one turn; Lefty fires twice; Dusty strikes and fires in
    round 2. ``.state.json`` is the state that plug-in folded it to. It loads (the version's checkpoints are
    not read), every event folds as it did, and only the new record of the turn's action is added."""
    header = json.loads(Path(f"{FIXTURE}.jsonl").read_text("utf-8").splitlines()[0])
    assert header["system_version"] == "1.1" and system.version == "1.2"
    fight = saves.load(f"{FIXTURE}.jsonl").fight()
    now = json.loads(json.dumps(cattrs.unstructure(fight.state), default=str))
    then = json.loads(Path(f"{FIXTURE}.state.json").read_text("utf-8"))

    def strip(state: dict) -> dict:
        for c in state["combatants"]:
            for new in ("action", "recharge_rolled"):
                c["data"].pop(new, None)
        return state

    assert strip(now) == then
    assert [c.data.action for c in fight.state.combatants] == ["fired the Pistol", ""]
    assert (fight.state.round, fight.state.current) == (2, "c1")


def test_has_acted_yes_is_only_for_the_one_whose_turn_it_is() -> None:
    """Marking Lefty (not up) as having acted was logged and then wiped, unsaid, as Lefty's turn began: Lefty
    attacked all the same.  It is refused; no (freeing the action) is refused as "already" as before."""
    f, dusty, lefty = _fight()
    assert f.state.current == dusty
    _refused(f, Adjust(id=lefty, field="acted", value=True), "only the one whose turn it is")
    f.do(Adjust(id=dusty, field="acted", value=True))  # the one up: as before
    assert data(f, dusty).acted


def test_a_second_blast_is_not_told_to_split_its_shots() -> None:
    """After a shotgun blast on two outlaws, a second blast is refused as the turn's action only; the revolver's
    hint ("a target per shot") read as if the blast should have been split."""
    f = new_fight()
    dusty = pc(f, "Dusty", acc=12, body=10, ctrl=14, weapons="Shotgun", lead=6)
    lefty = npc(f, "Lefty", preset="outlaw")
    righty = npc(f, "Righty", preset="outlaw")
    f.do(StartFight())
    faces(f, 15, 15)
    f.do(Attack(actor=dusty, targets=(lefty, righty), weapon="Shotgun"))
    with pytest.raises(Refused) as e:
        f.do(Attack(actor=dusty, targets=(lefty,), weapon="Shotgun"))
    assert "Dusty has taken this turn's action (fired the Shotgun): attack next turn" in str(e.value)
    assert "revolver" not in str(e.value), str(e.value)
