"""Blackjack forms, prompts through their commands, help and detail."""

from __future__ import annotations

import pytest

from systems.blackjack import system
from systems.blackjack.commands import Attack, CastWorking, IngestLead, Injure, MakeSave
from systems.blackjack.events import SaveRolled
from tests.systems.blackjack.helpers import data, new_fight, npc, of_type, pc
from tracker.errors import Refused


def spec(name: str):
    return next(s for s in system.commands() if s.name == name)


def test_every_form_builds_its_command_from_minimal_input() -> None:
    """The app builds forms from the declarations: empty optional fields keep the defaults."""
    minimal = {
        "attack": {"actor": "c1", "targets": "c2, c2"},
        "save": {"actor": "c1"},
        "reload": {"actor": "c1"},
        "ingest": {"actor": "c1"},
        "cast": {"actor": "c1", "working": "Hex"},
        "burn": {"actor": "c1", "choices": "powderburn"},
        "morale": {"actor": "c2"},
        "argue": {"actor": "c1", "npc": "c2", "pc_move": "attack", "npc_move": "defend"},
        "injure": {"target": "c1"},
        "treat": {"target": "c1"},
        "rest": {},
        "paper": {"target": "c1"},
        "worsen_affliction": {"target": "c1", "name": "hunger"},
    }
    assert {s.name for s in system.commands()} == set(minimal)
    for name, values in minimal.items():
        cmd = spec(name).make(values)
        assert cmd is not None
    attack = spec("attack").make(minimal["attack"])
    assert attack == Attack(actor="c1", targets=("c2", "c2"))
    with pytest.raises(Refused, match="not one of"):
        spec("argue").make({**minimal["argue"], "pc_move": "punch"})


def test_the_sixes_prompt_resolves_through_its_form() -> None:
    """The powderburn prompt names its command and prefills one choice per six."""
    f = new_fight(6, 6)
    m = pc(f, "Ma", lead=2, workings="Blast 2")
    f.do(IngestLead(actor=m, amount=2))
    f.do(CastWorking(actor=m, working="Blast"))
    prompt = f.state.prompts[0]
    cmd = spec(prompt.command).make(prompt.params)
    f.do(cmd)
    assert not f.state.prompts and data(f, m).injuries[0] == ("powderburn", "powderburn")


def test_encumbered_slot_counts_as_a_lesser_injury() -> None:
    """Ruling: an encumbered injury slot (burden over 12) counts as a lesser injury (+1 DV)."""
    f = new_fight(1)
    d = pc(f)
    f.do(Injure(target=d, level="lesser", name="encumbered"))
    s = of_type(f.do(MakeSave(actor=d)), SaveRolled)[0].save
    assert s.dv == 1 and data(f, d).injuries[0] == ("encumbered",)


def test_help_and_detail() -> None:
    f = new_fight()
    o = npc(f, "Fire Dragon", "fire_dragon")
    text = system.detail(f.state, f.state.get(o))
    assert "Ironscales: +1 DV against mundane bullet" in text and "Grievous (0/1)" in text
    h = system.help()
    assert "Blackjack save" in h and "[a] Attack" in h and "Powderburn" in h
