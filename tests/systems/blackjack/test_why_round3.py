"""Why? audit 3 (a12/w3, findings 1, 2, 3 and 7): one action a turn, "Has acted this turn", two alike weapons,
and an NPC resisting a working.

1. A second action after a knife or a Bear hug was refused citing "Multiple shots, ruling on blackjack
   l.195–196" (the revolver and repeater rows): the one-action limit had no rule of its own.
2. The GM's "Has acted this turn: yes → no" explained with the core's generic text only.
3. An Outlaw whose "Revolver" was empty fired "Revolver 2" when the GM named "Revolver" (or left the weapon
   empty); Why? said nothing of why.
7. An NPC resisting a working rolled Threat + 8, but the rule's statement read "the target saves CTRL".
"""

from __future__ import annotations

from typing import Any

import pytest

from systems.blackjack import system
from systems.blackjack.commands import Attack, CastWorking, IngestLead, Reload
from systems.blackjack.table import R
from tests.systems.blackjack.helpers import new_fight, npc, pc, turn_of
from tracker import Adjust, Fight, StartFight
from tracker.commands import Delay
from tracker.errors import Refused
from tracker.events import Event
from tracker.reasons import Reason

Why = list[tuple[Event, tuple[Reason, ...]]]


def _why(f: Fight, *commands: Any) -> Why:
    """Do the commands; each logged event with the plug-in's reasons, read from the log's states around it."""
    start = len(f.entries)
    for cmd in commands:
        f.do(cmd)
    return [
        (f.entries[i].event, system.explain(f.log.state_at(i), f.entries[i].event, f.log.state_at(i + 1)))
        for i in range(start, len(f.entries))
    ]


def _of(w: Why, type_name: str) -> list[tuple[Reason, ...]]:
    return [rs for ev, rs in w if type(ev).__name__ == type_name]


def _terms(reasons: tuple[Reason, ...], rule: Any) -> list[str]:
    return [t for r in reasons if r.rule_id == rule.id for t in r.terms]


def _refusal(f: Fight, command: object) -> Refused:
    n = len(f.entries)
    with pytest.raises(Refused) as e:
        f.do(command)
    assert len(f.entries) == n
    return e.value


# -- 1 -------------------------------------------------------------------------------------------------


def test_a_second_action_after_a_knife_or_a_bear_hug_cites_one_action_a_turn() -> None:
    f = new_fight(15, 15, 15)
    slim = pc(f, "Slim", acc=12, body=12, weapons="Hunting knife, Revolver, Pistol", lead=3)
    bear = npc(f, "Bear", "bear")
    f.do(StartFight())
    f.do(Attack(actor=slim, targets=(bear,), weapon="Hunting knife", range="close"))
    e = _refusal(f, Attack(actor=slim, targets=(bear,), weapon="Revolver", range="nearby"))
    assert e.rule == R.ONE_ACTION
    assert str(e).endswith(
        "(attacked with the Hunting knife): attack next turn — One action a turn, ruling on blackjack l.221"
    )
    assert "Multiple shots" not in str(e)
    # holding the action after it names the same rule
    assert _refusal(f, Delay(id=slim)).rule == R.ONE_ACTION
    # the rules of a reload and of ingesting still say so themselves
    assert _refusal(f, Reload(actor=slim, weapon="Revolver")).rule == R.RELOAD
    turn_of(f, bear)
    f.do(Attack(actor=bear, targets=(slim,), weapon="Bear hug"))
    e = _refusal(f, Attack(actor=bear, targets=(slim,), weapon="Claws"))
    assert e.rule == R.ONE_ACTION and "(used its Bear hug)" in str(e)
    # the action the GM marks taken
    turn_of(f, slim)
    f.do(Adjust(id=slim, field="acted", value=True))
    assert _refusal(f, Attack(actor=slim, targets=(bear,), weapon="Hunting knife", range="close")).rule == (
        R.ONE_ACTION
    )
    # after a gun fired shot by shot, the refusal's hint is the volley's, and so is its rule (as before)
    turn_of(f, slim)
    f.do(Attack(actor=slim, targets=(bear,), weapon="Pistol", range="nearby"))
    e = _refusal(f, Attack(actor=slim, targets=(bear,), weapon="Pistol", range="nearby"))
    assert e.rule == R.VOLLEY and "only a revolver or repeater" in str(e)


def test_the_one_action_rule_is_in_the_table_as_a_ruling_on_l_221() -> None:
    rules = {r.id: r for r in system.rules()}
    assert rules["one_action"] == R.ONE_ACTION
    assert R.ONE_ACTION.source == "ruling on blackjack l.221"


# -- 2 -------------------------------------------------------------------------------------------------


def test_why_of_has_acted_names_the_one_action_rule() -> None:
    f = new_fight(15)
    slim = pc(f, "Slim", acc=12, weapons="Revolver")
    outlaw = npc(f, "Outlaw", "outlaw")
    f.do(StartFight())
    w = _why(
        f,
        Attack(actor=slim, targets=(outlaw,), weapon="Revolver", range="nearby"),
        Adjust(id=slim, field="acted", value=False),
        Adjust(id=slim, field="acted", value=True),
        Adjust(id=slim, field="acted", value=False),
    )
    freed, taken, freed_again = _of(w, "Adjusted")
    assert _terms(freed, R.ONE_ACTION) == [
        "no: frees Slim's action this turn (was: fired the Revolver)",
        "it may attack, reload, ingest or cast once more this turn",
    ]
    assert _terms(taken, R.ONE_ACTION) == [
        "yes: Slim's action this turn counts as taken",
        "no attack, reload, ingest or cast until its next turn",
    ]
    assert _terms(freed_again, R.ONE_ACTION)[0] == (
        "no: frees Slim's action this turn (was: the turn's action, as the GM set it)"
    )
    assert all(r.rule_id == R.ONE_ACTION.id for r in freed)  # the plug-in's reason: the one-action rule only


def test_other_adjustments_get_no_one_action_reason() -> None:
    f = new_fight()
    slim = pc(f, "Slim", acc=12, weapons="Revolver", lead=3)
    w = _why(f, Adjust(id=slim, field="lead", value=2))
    assert not any(r.rule_id == R.ONE_ACTION.id for r in _of(w, "Adjusted")[0])


# -- 3 -------------------------------------------------------------------------------------------------


def _outlaw(shots: str) -> tuple[Fight, str, str]:
    f = new_fight()
    dusty = pc(f, "Dusty", body=12)
    outlaw = npc(f, "Outlaw", "outlaw")
    f.do(Adjust(id=outlaw, field="shots", value=shots))
    return f, dusty, outlaw


def test_why_says_the_other_alike_revolver_was_empty() -> None:
    f, dusty, outlaw = _outlaw("Revolver 0, Revolver 2 6")
    f.roller.add(15, 15)  # type: ignore[attr-defined]
    named = _of(_why(f, Attack(actor=outlaw, targets=(dusty,), weapon="Revolver", range="nearby")), "AttackMade")
    blank = _of(_why(f, Attack(actor=outlaw, targets=(dusty,), weapon="", range="nearby")), "AttackMade")
    for reasons in (named[0], blank[0]):
        assert _terms(reasons, R.ALIKE) == ["Revolver is empty (0/6): of the two alike, the Revolver 2 fired"]
        assert next(r for r in reasons if r.rule_id == R.ALIKE.id).source == "ruling on blackjack l.256"


def test_why_says_which_alike_was_empty_or_short_of_the_volley() -> None:
    f, dusty, outlaw = _outlaw("Revolver 6, Revolver 2 0")
    f.roller.add(15)  # type: ignore[attr-defined]
    w = _why(f, Attack(actor=outlaw, targets=(dusty,), weapon="Revolver 2", range="nearby"))
    assert _terms(_of(w, "AttackMade")[0], R.ALIKE) == [
        "Revolver 2 is empty (0/6): of the two alike, the Revolver fired"
    ]
    f, dusty, outlaw = _outlaw("Revolver 2, Revolver 2 6")
    f.roller.add(15, 15, 15)  # type: ignore[attr-defined]
    w = _why(f, Attack(actor=outlaw, targets=(dusty,) * 3, weapon="Revolver", range="nearby"))
    assert _terms(_of(w, "AttackMade")[0], R.ALIKE) == [
        "Revolver holds 2 shots, not the volley's 3: of the two alike, the Revolver 2 fired"
    ]


def test_no_alike_reason_when_the_other_could_have_fired() -> None:
    f, dusty, outlaw = _outlaw("Revolver 6, Revolver 2 5")
    f.roller.add(15)  # type: ignore[attr-defined]
    w = _why(f, Attack(actor=outlaw, targets=(dusty,), weapon="Revolver 2", range="nearby"))
    assert not _terms(_of(w, "AttackMade")[0], R.ALIKE)


# -- 7 -------------------------------------------------------------------------------------------------


def test_an_npc_resisting_a_working_is_explained_by_threat_plus_8_not_ctrl() -> None:
    f = new_fight(1, 10)  # the working's 1d6; the Outlaw's save 10 ≤ 11, over DV 1: resists
    ma = pc(f, "Ma", lead=3, ctrl=12, workings="Hex 1")
    outlaw = npc(f, "Outlaw", "outlaw")
    w = _why(f, IngestLead(actor=ma, amount=1), CastWorking(actor=ma, working="Hex", target=outlaw))
    for type_name in ("SaveRolled", "WorkingTookEffect"):
        said = [r for r in _of(w, type_name)[0] if r.rule_id == R.WORKING_SAVE.id]
        assert said, type_name
        for r in said:
            assert "an NPC at or under Threat + 8" in r.text
            assert "saves CTRL with" not in r.text
    assert _terms(_of(w, "SaveRolled")[0], R.WORKING_SAVE)[0] == "Outlaw resists Hex: Threat+8"
