"""The 2d6 status in the fight table: short, the most important first, the names in the detail pane.

Ruling in systems/twod6/plugin.py (TwoD6System.status): the wounds, held or not ("grappled", "entangled"), the
actions left (current combatant), the cinematics, then the other flags as words; a name only where the part is
about one hidden from the players (the players' view leaves such a part out), and "hidden from …" last.
"""

from __future__ import annotations

from screens.table import project
from systems.twod6 import system
from systems.twod6.commands import Sneak
from systems.twod6.record import data as record
from tests.systems.twod6.helpers import DUMMY, set_wounds, setup
from tracker import Fight
from tracker import commands as C
from tracker.dice import ScriptedRoller
from tracker.model import FightState, changed
from tracker.registry import load

DEPUTY = "Sheriff's Deputy Bartholomew Quincy"


def status(f: Fight, cid: str) -> str:
    return system.status(f.state, f.state.get(cid))


def detail(f: Fight, cid: str) -> str:
    return system.detail(f.state, f.state.get(cid))


def test_a_grappled_combatant_reads_grappled_first_and_the_detail_names_the_holder() -> None:
    f, _ = setup(("Marla", DUMMY), (DEPUTY, DUMMY), ("Goblin", DUMMY))
    for field, value in (
        ("cinematics", 2),
        ("prone", True),
        ("useless_limbs", "left leg -3"),
        ("grappled_by", "c2"),
        ("distracted", 1),
    ):
        f.do(C.Adjust(id="c1", field=field, value=value))
    set_wounds(f, "c1", 2)
    assert status(f, "c1") == "Wounds 2/3 · grappled · 2 quick, 2 half · cin 2 · prone · distracted · left leg -3"
    assert len("Wounds 2/3 · grappled · 2 quick, 2 half") <= 45  # the status column at 80x24, no condition shown
    assert "Now: grappled by Sheriff's Deputy Bartholomew Quincy, prone, distracted −1 half, left leg -3" in (
        detail(f, "c1")
    )
    assert status(f, "c2") == "Wounds 3/3 · grappling"  # the holder: the name in its detail
    assert "Now: grappling Marla" in detail(f, "c2")
    f.do(C.NextTurn())  # not its turn: no actions, the cinematics next to the wounds
    assert status(f, "c1") == "Wounds 2/3 · grappled · cin 2 · prone · distracted · left leg -3"


def test_entangled_is_held_too() -> None:
    f, _ = setup(("Mage", DUMMY), ("Orc Chieftain of the Broken Tusk", DUMMY))
    f.do(C.Adjust(id="c2", field="grappled_by", value="c1"))
    state = _entangled(f.state)  # (the Entangle spell's hold: a grapple at range)
    assert system.status(state, state.get("c2")) == "Wounds 3/3 · entangled"
    assert "Now: entangled by Mage" in system.detail(state, state.get("c2"))


def _entangled(state: FightState) -> FightState:
    c = state.get("c2")
    held = changed(c, data=changed(record(c), entangled=True))
    return changed(state, combatants=tuple(held if x.id == "c2" else x for x in state.combatants))


def test_flags_are_words_by_importance_and_the_cinematics_come_before_them() -> None:
    f, _ = setup(("Ann", DUMMY), ("Bob", DUMMY))
    for field in ("negated", "disarmed", "prone"):
        f.do(C.Adjust(id="c2", field=field, value=True))
    f.do(C.Adjust(id="c2", field="cinematics", value=1))
    assert status(f, "c2") == "Wounds 3/3 · cin 1 · prone · disarmed · negated"


def twod6() -> tuple[Fight, ScriptedRoller]:
    """Marla (PC), the Sheriff's long-named deputy (seen), a Lurker (hidden from the players)."""
    roller = ScriptedRoller()
    f = Fight(load("twod6"), roller=roller)
    f.do(C.AddCombatant(name="Marla", preset="knife", kind="pc"))
    f.do(C.AddCombatant(name=DEPUTY, preset="guard"))
    f.do(C.AddCombatant(name="Lurker", preset="wolf", hidden=True))
    f.do(C.SetInitiative(values={"c1": 20, "c2": 15, "c3": 5}))
    f.do(C.StartFight())
    return f, roller


def players_row(f: Fight) -> str:
    return project(f.system, f).rows[0].state  # Marla's row as the players see it


def test_the_players_see_grappled_without_a_name_and_nothing_of_a_hidden_holder() -> None:
    f, _ = twod6()
    f.do(C.Adjust(id="c1", field="grappled_by", value="c2"))
    assert players_row(f) == "Wounds 3/3 · grappled · 2 quick, 2 half"
    f.do(C.Adjust(id="c1", field="grappled_by", value="c3"))
    assert status(f, "c1") == "Wounds 3/3 · grappled by Lurker · 2 quick, 2 half"  # the GM: which one it is
    assert players_row(f) == "Wounds 3/3 · 2 quick, 2 half"  # the players: not even "grappled"


def test_hidden_from_the_seen_is_a_word_and_from_the_hidden_names_them_last() -> None:
    f, roller = twod6()
    f.do(C.Adjust(id="c1", field="cinematics", value=1))
    roller.add(5, 5, 1, 2)  # Marla's stealth 10 and more against the notice 3 and more
    f.do(Sneak(actor="c1", targets=("c2",)))
    assert roller.exhausted
    assert record(f.state.get("c1")).hidden_from == ("c2",)
    assert status(f, "c1") == "Wounds 3/3 · 2 quick, 1 half · cin 1 · hiding"  # (not the H mark's "(hidden)")
    assert f"Now: hidden from {DEPUTY}" in detail(f, "c1")
    assert players_row(f) == "Wounds 3/3 · 2 quick, 1 half · cin 1 · hiding"
    roller.add(5, 5, 1, 2)
    f.do(Sneak(actor="c1", targets=("c3",)))
    assert roller.exhausted
    assert record(f.state.get("c1")).hidden_from == ("c2", "c3")
    f.do(C.Adjust(id="c1", field="prone", value=True))
    assert status(f, "c1") == f"Wounds 3/3 · 2 quick, 0 half · cin 1 · prone · hidden from {DEPUTY}, Lurker"
    assert players_row(f) == f"Wounds 3/3 · 2 quick, 0 half · cin 1 · prone · hidden from {DEPUTY}"
