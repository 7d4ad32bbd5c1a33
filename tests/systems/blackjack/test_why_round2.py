"""Why? audit 2 (B1, B2): a working's willing target, and a jam that ends a volley.

B1: Healing hands on an ally took effect with no save, and Why? cited the unwilling target's rule, "Gun
failed its CTRL save, or was willing"; every working that took effect said that hedge, since the event did
not record whether its target was willing. B2: a jam on the second shot of a volley of three was explained
as "3 shots in one action", and neither the log nor Why? said the third shot was not fired.
"""

from __future__ import annotations

from typing import Any

import attrs

import saves
from systems.blackjack import system
from systems.blackjack.commands import Attack, CastWorking, IngestLead
from systems.blackjack.events import SAVED, WILLING_GM, WILLING_SIDE, AttackMade, SaveRolled, WorkingTookEffect
from systems.blackjack.table import R
from tests.systems.blackjack.helpers import new_fight, npc, of_type, pc
from tracker import Fight, NextTurn, StartFight
from tracker.commands import AddCombatant
from tracker.events import Event
from tracker.reasons import Reason


def _why(f: Fight, *commands: Any) -> list[tuple[Event, tuple[Reason, ...], Any]]:
    start = len(f.entries)
    for cmd in commands:
        f.do(cmd)
    out = []
    for i in range(start, len(f.entries)):
        ev = f.entries[i].event
        before = f.log.state_at(i)
        out.append((ev, system.explain(before, ev, f.log.state_at(i + 1)), before))
    return out


def _terms(reasons: tuple[Reason, ...], rule: Any) -> list[str]:
    return [t for r in reasons if r.rule_id == rule.id for t in r.terms]


def _took(w: list[tuple[Event, tuple[Reason, ...], Any]]) -> tuple[WorkingTookEffect, tuple[Reason, ...]]:
    ev, reasons, _ = next(x for x in w if isinstance(x[0], WorkingTookEffect))
    assert isinstance(ev, WorkingTookEffect)
    return ev, reasons


def _healing_an_ally() -> tuple[Fight, list[tuple[Event, tuple[Reason, ...], Any]]]:
    f = new_fight(4)
    gun = pc(f, "Gun", injuries="moderate cut")
    lead = pc(f, "Lead", ctrl=14, lead=6, workings="Hex 1, Healing hands 1")
    return f, _why(f, IngestLead(actor=lead, amount=1), CastWorking(actor=lead, working="Healing hands", target=gun))


def test_healing_an_ally_is_explained_as_willing_not_a_failed_save() -> None:
    """Ruling (rules/magic.py): a healing working on the caster's own side is taken as willing, no save; the event
    now records it, and Why? says so instead of "failed its CTRL save, or was willing" under the unwilling rule."""
    _, w = _healing_an_ally()
    assert not [ev for ev, _, _ in w if isinstance(ev, SaveRolled)]
    took, reasons = _took(w)
    assert took.willing == WILLING_SIDE
    assert not _terms(reasons, R.WORKING_SAVE)  # no "An unwilling target" reason at all
    said = _terms(reasons, R.NO_TARGET)
    assert said[0] == "Gun is willing: Healing hands heals one of Lead's own side"
    assert "no save" in said[1]
    assert not any("failed" in t for r in reasons for t in r.terms)


def _hex(*faces: int) -> tuple[WorkingTookEffect, tuple[Reason, ...]]:
    f = new_fight(*faces)
    lead = pc(f, "Lead", ctrl=14, lead=6, workings="Hex 1")
    o = npc(f, "Outlaw", "outlaw")
    return _took(_why(f, IngestLead(actor=lead, amount=1), CastWorking(actor=lead, working="Hex", target=o)))


def test_a_hex_that_lands_says_the_save_failed_and_one_resisted_says_it_succeeded() -> None:
    took, reasons = _hex(2, 1)
    assert took.took and took.willing == SAVED
    assert _terms(reasons, R.WORKING_SAVE) == ["Outlaw failed its Threat+8 save"]
    took, reasons = _hex(2, 10)
    assert not took.took and took.willing == SAVED
    assert _terms(reasons, R.WORKING_SAVE) == ["Outlaw's Threat+8 save succeeded: no effect"]


def test_the_gm_ticking_willing_is_said() -> None:
    f = new_fight(4)
    d = pc(f, "Dusty", injuries="moderate cut")
    p = npc(f, "Preacher", "preacher")
    took, reasons = _took(
        _why(f, IngestLead(actor=p, amount=1), CastWorking(actor=p, working="Healing hands", target=d, willing=True))
    )
    assert took.willing == WILLING_GM
    assert _terms(reasons, R.NO_TARGET) == ["Dusty is willing (the GM's word): no save"]
    assert not _terms(reasons, R.WORKING_SAVE)


def test_a_working_event_of_an_older_file_keeps_the_hedge() -> None:
    """An event written before ``willing`` was kept cannot say which happened: it reads as before."""
    _, w = _healing_an_ally()
    took, _ = _took(w)
    old = attrs.evolve(took, willing="")
    before = next(b for ev, _, b in w if ev is took)
    reasons = system.explain(before, old, before)
    assert _terms(reasons, R.WORKING_SAVE) == ["Gun failed its CTRL save, or was willing"]


def _jam_on_the_second_of_three() -> tuple[list[tuple[Event, tuple[Reason, ...], Any]], str]:
    f = new_fight(9, 19)
    gun = pc(f, "Gun", acc=14, weapons="Rusty revolver, Rifle")
    o = npc(f, "Outlaw 1", "outlaw")
    f.do(StartFight())
    while f.state.current != gun:
        f.do(NextTurn())
    return _why(f, Attack(actor=gun, targets=(o, o, o), weapon="Rusty revolver")), gun


def test_a_jam_in_a_volley_says_the_shots_fired_and_the_ones_not_fired() -> None:
    """Ruling (rules/attacks.py): a jam ends the volley. The jamming shot's log line says the shot not fired, and
    Why? says the shots fired (not "3 shots in one action") and cites the ruling that the jam ended it."""
    w, _ = _jam_on_the_second_of_three()
    shots = [(ev, rs, b) for ev, rs, b in w if isinstance(ev, AttackMade)]
    assert len(shots) == 2
    jam, reasons, before = shots[1]
    assert isinstance(jam, AttackMade) and jam.jammed and (jam.shot, jam.fired, jam.volley) == (2, 2, 3)
    assert jam.describe(before).endswith("→ Rusty revolver JAMS: the volley ends, 1 shot not fired")
    volley = _terms(reasons, R.VOLLEY)
    assert "the jam on shot 2 of 3 ends the volley: shot 3 not fired" in volley
    assert "Rusty revolver: 3 shots called in one action, 2 shots fired, each its own save" in volley
    assert not any("3 shots in one action" in t for t in volley)
    assert any(r.rule_id == R.VOLLEY.id and "a jam ends the volley" in r.text for r in reasons)
    first, first_reasons, first_before = shots[0]
    assert "volley ends" not in first.describe(first_before)
    assert _terms(first_reasons, R.VOLLEY) == ["Rusty revolver: 3 shots in one action, each its own save"]


def test_a_jam_of_an_older_file_reads_as_before() -> None:
    w, _ = _jam_on_the_second_of_three()
    jam, _, before = [x for x in w if isinstance(x[0], AttackMade)][1]
    old = attrs.evolve(jam, shot=0, fired=0)
    assert old.describe(before).endswith("→ Rusty revolver JAMS")
    assert _terms(system.explain(before, old, before), R.VOLLEY) == [
        "Rusty revolver: 3 shots in one action, each its own save"
    ]


def test_the_new_fields_are_saved_and_read_back(tmp_path: Any) -> None:
    path = tmp_path / "f.jsonl"
    f = saves.new_fight("blackjack", path, seed=1)
    f.do(AddCombatant(name="Gun", kind="pc", sheet={"injuries": "moderate cut"}))
    f.do(AddCombatant(name="Lead", kind="pc", sheet={"ctrl": 14, "lead": 6, "workings": "Healing hands 1"}))
    ids = [c.id for c in f.state.combatants]
    f.do(IngestLead(actor=ids[1], amount=1))
    f.do(CastWorking(actor=ids[1], working="Healing hands", target=ids[0]))
    f.close()
    g = saves.load(path).fight()
    took = of_type([e.event for e in g.entries], WorkingTookEffect)[0]
    assert took.willing == WILLING_SIDE
