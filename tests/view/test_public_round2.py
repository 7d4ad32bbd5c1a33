"""Players' view audit (findings 1 and 4): a provisional order, initiative ties in a hidden step, a PC made NPC.

1. zludge ambush "Roll after the surprise action" with a hidden ambusher: during its hidden surprise turn the
   view showed "Up: Ann · On deck: Bob" from the placeholder order (the ambush initiative is rolled as round 1
   begins), and the tie rerolls of that roll were said after "The fight begins" with no surprise round said.
4. A PC made an NPC with NPC names hidden: every past line read "NPC joins the fight", and the change itself
   "GM sets NPC's kind to npc".
"""

from __future__ import annotations

from screens.table import project, public_log
from tests.support.toy import Hit
from tracker import Fight
from tracker import commands as C
from tracker.dice import ScriptedRoller, SeededRoller
from tracker.registry import load


def _ambush(seed: int = 1, hidden: bool = True) -> Fight:
    """Ann, Bob (PCs), Grunk (seen, alias Thug) and, with ``hidden``, the hidden Lurker, who ambushes: its
    initiative rolled after the surprise action. Without ``hidden``, Grunk ambushes, in view."""
    f = Fight(load("zludge"), roller=SeededRoller(seed))
    pc = {"fortitude": 1, "durability": 1, "endurance": 1}
    f.do(C.AddCombatant(name="Ann", kind="pc", sheet={"skills": "Athletics 1, Reflexes 1, Alertness 1", **pc}))
    f.do(C.AddCombatant(name="Bob", kind="pc", sheet={"skills": "Reflexes 2", **pc}))
    f.do(C.AddCombatant(name="Grunk", preset="thug", alias="Thug"))
    if hidden:
        f.do(C.AddCombatant(name="Lurker", preset="gunman", hidden=True))
    ambusher = f.state.combatants[-1].id
    spec = next(s for s in f.system.commands() if s.name == "ambush_initiative")
    f.do(spec.make({"ambushers": (ambusher,), "after_surprise": True}))
    f.do(C.StartFight(surprise=(ambusher,)))
    return f


def test_no_one_up_or_on_deck_while_the_ambush_order_waits() -> None:
    """Ruling (screens/table.py ``_this_round``): while the order is to be rolled again as the next round begins,
    the view guesses no one up and no one on deck from the order that will be replaced."""
    f = _ambush()
    assert f.state.round == 0 and f.state.name(f.state.current) == "Lurker"
    shown = project(f.system, f)
    assert (shown.up, shown.on_deck) == ("", "")
    assert not [r.name for r in shown.rows if r.current or r.on_deck]
    assert "Surprise round" not in shown.log and "Round 1" not in shown.log
    f.do(C.NextTurn())  # round 1: the ambush initiative rolled, the first of the real order up
    now = project(f.system, f)
    assert f.state.round == 1 and now.up == f.state.name(f.state.current)


def test_a_reroll_planned_by_the_gm_leaves_no_on_deck_guess_past_the_round() -> None:
    """The same for the core's reroll ("roll the whole order again at the next round"): the last seen turn of
    the round has no one on deck from the old order."""
    f = Fight(load("toy"), roller=ScriptedRoller([5, 15]))
    f.do(C.AddCombatant(name="Dusty", kind="pc", sheet={"hp": 12}))
    f.do(C.AddCombatant(name="Ann", kind="pc", sheet={"hp": 12}))
    f.do(C.SetInitiative(values={"c1": 20, "c2": 10}))
    f.do(C.StartFight())
    assert project(f.system, f).on_deck == "Ann"
    f.do(C.NextTurn())  # Ann's turn, the last of round 1
    assert project(f.system, f).on_deck == "Dusty"
    f.do(C.RollInitiative(reroll=True))
    assert project(f.system, f).on_deck == ""


def test_a_tie_rerolled_in_a_hidden_surprise_step_is_the_gms() -> None:
    """Ruling (screens/table.py ``_initiative_roll``): a plug-in's event inside an initiative roll (zludge's tie
    rerolled) in an action a hidden one takes part in is the GM's, as the initiative rolls are. Seed 1: Ann and
    Bob tie, and the lines were said after "The fight begins", telling of the unseen surprise action."""
    f = _ambush()
    f.do(C.NextTurn())
    step = f.steps[-1]
    assert any(type(ev).__name__ == "TieRerolled" for ev in step.events)  # (the scenario holds a tie)
    log = project(f.system, f).log
    assert not [line for line in log if "tie" in line.lower() or "4dF" in line], log
    assert log[-2:] == ("Round 1", f"{f.state.name(f.state.current)}'s turn")


def test_a_tie_rerolled_with_no_one_hidden_is_said_as_before() -> None:
    f = _ambush(hidden=False)
    f.do(C.NextTurn())
    log = project(f.system, f).log
    assert "The fight begins with a surprise round" in log
    assert [line for line in log if line.startswith("Initiative tie, rolled again: Ann")], log


def _turned() -> Fight:
    f = Fight(load("toy"), roller=ScriptedRoller([17, 4]))
    f.do(C.AddCombatant(name="Marla", kind="pc", sheet={"hp": 12}))
    f.do(C.AddCombatant(name="Black Bart", kind="npc", sheet={"hp": 10}, alias="Outlaw"))
    f.do(C.SetInitiative(values={"c1": 20, "c2": 15}))
    f.do(C.StartFight())
    f.do(Hit(actor="c1", target="c2", damage="1d6"))
    f.do(C.SetView(npc_numbers=False, npc_names=False))
    f.do(C.Adjust(id="c1", field="kind", value="npc"))
    return f


def test_a_pc_turned_npc_keeps_its_name_with_npc_names_hidden() -> None:
    """Rulings (screens/table.py ``public_names``, ``_core_line``): an NPC the players knew as a PC goes by its
    name; the change reads "Marla is now an NPC", whatever numbers are shown."""
    f = _turned()
    shown = project(f.system, f)
    assert [r.name for r in shown.rows] == ["Marla", "Outlaw"]
    assert "Marla joins the fight" in shown.log and "Marla hits Outlaw" in shown.log
    assert shown.log[-1] == "Marla is now an NPC"
    assert not [line for line in shown.log if "NPC joins" in line or "kind" in line], shown.log
    assert public_log(f.system, f.steps, f.state)[-1] == "Marla is now an NPC"  # (names from the steps too)


def test_an_npc_made_a_pc_and_back_keeps_its_name() -> None:
    """Black Bart (alias Outlaw) made a PC is named (a PC's name is the players'); made an NPC again it keeps
    the name they know rather than going back to "Outlaw"."""
    f = _turned()
    f.do(C.Adjust(id="c2", field="kind", value="pc"))
    assert project(f.system, f).log[-1] == "Black Bart is now a PC"
    f.do(C.Adjust(id="c2", field="kind", value="npc"))
    shown = project(f.system, f)
    assert [r.name for r in shown.rows] == ["Marla", "Black Bart"]
    assert shown.log[-1] == "Black Bart is now an NPC"
    assert "Outlaw" not in "\n".join(shown.log)


def test_a_kind_change_of_a_hidden_one_is_not_said() -> None:
    f = _turned()
    f.do(C.AddCombatant(name="Lurker", kind="pc", sheet={"hp": 5}, hidden=True))
    f.do(C.Adjust(id="c3", field="kind", value="npc"))
    shown = project(f.system, f)
    assert shown.log[-1] == "Marla is now an NPC" and "Lurker" not in "\n".join(shown.log)
    assert [r.name for r in shown.rows] == ["Marla", "Outlaw"]
