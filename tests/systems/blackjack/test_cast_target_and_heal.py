"""The cast form starts on the selected combatant; a heal that finds nothing to heal is refused before anything is
spent; a heal on one's own side needs no save; the Arguin' log conjugates its moves (tbj report, findings 1-2)."""

from __future__ import annotations

import pytest

from screens import logic
from systems.blackjack import system
from systems.blackjack.commands import Argue, CastWorking, IngestLead
from systems.blackjack.events import InjuryCleared, InjuryMarked, SaveRolled, WorkingTookEffect
from tests.systems.blackjack.helpers import data, new_fight, npc, of_type, pc
from tracker import NextTurn, StartFight
from tracker.commands import CommandSpec
from tracker.errors import Refused


def _cast_spec() -> CommandSpec:
    return next(s for s in system.commands() if s.name == "cast")


def test_the_cast_form_starts_on_the_selected_combatant() -> None:
    """README: every form starts on the selected combatant. Cast a working opened with Target ‹ — › while the
    cursor sat on the wounded Outlaw 1 (and on the Pinkerton to be hexed)."""
    f = new_fight()
    preacher = npc(f, "Preacher", "preacher")
    outlaw = npc(f, "Outlaw 1", "outlaw", injuries="moderate gunshot")
    ada = pc(f, "Ada", workings="Hex 1")
    pinkerton = npc(f, "Pinkerton", "pinkerton")
    f.do(StartFight())
    spec = _cast_spec()
    turns = system.turn_commands
    assert f.state.current == ada  # the PCs act first
    values = logic.prefill(spec, f.state, pinkerton, turn_commands=turns)
    assert (values["actor"], values["target"]) == (ada, pinkerton)
    while f.state.current != preacher:
        f.do(NextTurn())
    values = logic.prefill(spec, f.state, outlaw, turn_commands=turns)
    assert (values["actor"], values["target"]) == (preacher, outlaw)
    # the caster selected: no target (a working on the caster), not the first foe it would heal or hex by mistake
    values = logic.prefill(spec, f.state, preacher, turn_commands=turns)
    assert values["actor"] == preacher and values.get("target") is None, values


def test_a_heal_with_nothing_to_heal_is_refused_before_anything_is_spent() -> None:
    """Ruling: Healing hands on a target with no injury to clear (or, with no target, on an unhurt caster) is
    refused in words: no dice, no save, no powderburn, the lead stays ingested. It logged "takes effect: restore 1
    injury slot" and healed no one."""
    f = new_fight(4, 2)
    preacher = npc(f, "Preacher", "preacher")
    outlaw = npc(f, "Outlaw 2", "outlaw")
    f.do(IngestLead(actor=preacher, amount=1))
    before = f.state
    with pytest.raises(Refused, match=r"Healing hands would heal no one.*Outlaw 2 has no injury"):
        f.do(CastWorking(actor=preacher, working="Healing hands", target=outlaw))
    with pytest.raises(Refused, match=r"Healing hands would heal no one.*Preacher has no injury"):
        f.do(CastWorking(actor=preacher, working="Healing hands"))
    assert f.state == before and data(f, preacher).ingested == 1
    assert f.roller.requests == []  # type: ignore[attr-defined]


def test_a_second_heal_today_with_nothing_to_heal_marks_no_powderburn() -> None:
    """Ruling: the refusal comes before the second casting's powderburn too."""
    f = new_fight(3, 1)
    preacher = npc(f, "Preacher", "preacher")
    outlaw = npc(f, "Outlaw 1", "outlaw", injuries="lesser graze")
    f.do(IngestLead(actor=preacher, amount=1))
    f.do(CastWorking(actor=preacher, working="Healing hands", target=outlaw))
    assert data(f, outlaw).injuries[0] == ()
    f.do(IngestLead(actor=preacher, amount=1))
    before = f.state
    with pytest.raises(Refused, match="would heal no one"):
        f.do(CastWorking(actor=preacher, working="Healing hands", target=outlaw))
    assert f.state == before and data(f, preacher).injuries[0] == ()


def test_a_heal_on_injuries_bound_to_a_paper_is_refused() -> None:
    """Ruling: only injuries bound to a paper (Naming's agony) leave nothing a heal may clear: refused, naming the
    paper."""
    f = new_fight(1, 1, 1, 1)
    w = npc(f, "Hexpaper Witch", "hexpaper_witch")
    p = npc(f, "Preacher", "preacher")
    d = pc(f, ctrl=12)
    f.do(IngestLead(actor=w, amount=3))
    f.do(CastWorking(actor=w, working="Naming", target=d))
    f.do(IngestLead(actor=p, amount=1))
    with pytest.raises(Refused, match=r"would heal no one.*bound to a paper"):
        f.do(CastWorking(actor=p, working="Healing hands", target=d, willing=True))


def test_healing_hands_on_the_selected_wounded_ally_heals_it() -> None:
    """Ruling: a healing working on one of the caster's own side is willing: no CTRL save (Outlaw 1 resisted the
    Preacher's healing unless the GM ticked "willing"). The log names the one healed."""
    f = new_fight(4)
    preacher = npc(f, "Preacher", "preacher")
    outlaw = npc(f, "Outlaw 1", "outlaw", injuries="moderate gunshot")
    f.do(IngestLead(actor=preacher, amount=1))
    before = f.state
    ev = f.do(CastWorking(actor=preacher, working="Healing hands", target=outlaw))
    assert not of_type(ev, SaveRolled)
    took = of_type(ev, WorkingTookEffect)[0]
    assert took.describe(before) == "Healing hands on Outlaw 1 takes effect: restore 1 injury slot"
    cleared = of_type(ev, InjuryCleared)[0]
    assert cleared.target == outlaw and data(f, outlaw).injuries[1] == ()


def test_healing_hands_on_the_other_side_still_asks_a_save() -> None:
    """The book: an unwilling target saves CTRL. A PC healed by an NPC preacher saves unless marked willing."""
    f = new_fight(4, 20)
    preacher = npc(f, "Preacher", "preacher")
    d = pc(f, ctrl=12, injuries="moderate cut")
    f.do(IngestLead(actor=preacher, amount=1))
    ev = f.do(CastWorking(actor=preacher, working="Healing hands", target=d))
    assert of_type(ev, SaveRolled) and not of_type(ev, InjuryMarked)


@pytest.mark.parametrize(
    ("pc_move", "npc_move", "said"),
    [
        ("attack", "flourish", "Ada attacks, Outlaw 1 flourishes"),
        ("flourish", "defend", "Ada flourishes, Outlaw 1 defends"),
    ],
)
def test_the_arguin_log_conjugates_each_move(pc_move: str, npc_move: str, said: str) -> None:
    """The Arguin' log said "Outlaw 1 flourishs"."""
    f = new_fight(12, 12)
    d = pc(f, "Ada", ctrl=10)
    o = npc(f, "Outlaw 1", "outlaw")
    before = f.state
    ev = f.do(Argue(actor=d, npc=o, pc_move=pc_move, npc_move=npc_move))
    assert ev[0].describe(before).startswith(f"Arguin': {said} → ")
