"""2d6 Gamma Stealth ('sneak'), as the GM's form takes it and as the players' view tells it."""

from __future__ import annotations

from screens.table import public_log
from systems.twod6 import system
from systems.twod6.commands import Sneak
from tests.systems.twod6.helpers import refused, sheet
from tracker import Fight
from tracker.commands import AddCombatant, NextTurn, SetInitiative, SetView, StartFight
from tracker.dice import ScriptedRoller


def _fight() -> tuple[Fight, ScriptedRoller]:
    roller = ScriptedRoller()
    f = Fight(system, roller=roller)
    f.do(AddCombatant(name="Marla", kind="pc", sheet=sheet(agi=2, skills="Stealth 2")))
    f.do(AddCombatant(name="Goblin", kind="npc", sheet=sheet(per=1, skills="Notice 1")))
    f.do(AddCombatant(name="Orc", kind="npc", sheet=sheet()))
    f.do(SetInitiative(values={"c1": 20, "c2": 15, "c3": 10}))
    f.do(StartFight())
    return f, roller


def test_no_one_sneaks_past_itself():
    """The form let the actor be its own target ("Marla sneaks vs Marla"): refused in words."""
    f, _ = _fight()
    refused(f, Sneak(actor="c1", targets=("c1",)), "Marla cannot sneak past itself")
    refused(f, Sneak(actor="c1", targets=("c2", "c1")), "cannot sneak past itself")


def test_the_players_are_told_a_pcs_sneak_past_a_seen_npc_without_its_numbers():
    """A PC's sneak against seen NPCs gave the players' log no line at all: it now says who sneaked past whom and
    how it went, without the NPC's Notice (its numbers are the GM's)."""
    f, roller = _fight()
    roller.add(4, 4, 3, 3, 1, 2)  # Stealth 8 + 4 = 12 vs Goblin's Notice 6 + 2 = 8, Orc's 3
    f.do(Sneak(actor="c1", targets=("c2", "c3")))
    lines = public_log(f.system, f.steps, f.state)
    assert [line for line in lines if "Goblin" in line or "Orc" in line][-2:] == [
        "Marla sneaks past Goblin: succeeds",
        "Marla sneaks past Orc: succeeds",
    ], lines
    # the GM shows NPC numbers: the GM's own line
    f.do(SetView(npc_numbers=True, npc_names=True, dice=True))
    assert any("+1 Notice ranks" in line for line in public_log(f.system, f.steps, f.state))


def test_a_failed_sneak_reads_as_failed():
    f, roller = _fight()
    roller.add(1, 3, 5, 5)  # 4 + 4 = 8 vs 10 + 2 = 12: fails
    f.do(Sneak(actor="c1", targets=("c2",)))
    assert "Marla sneaks past Goblin: fails" in public_log(f.system, f.steps, f.state)


def test_an_npcs_sneak_past_a_pc_tells_the_players_nothing_of_how_it_went():
    """ "Goblin sneaks past Marla: succeeds" told the players what their PC had missed."""
    f, roller = _fight()
    f.do(NextTurn())  # the Goblin's turn
    roller.add(6, 6, 6, 6, 1, 1, 1, 1)
    f.do(Sneak(actor="c2", targets=("c1",)))
    lines = public_log(f.system, f.steps[-1:], f.state)
    assert not any("sneaks" in line or "succeeds" in line for line in lines), lines


def test_an_npcs_other_opposed_roll_against_a_pc_still_reads_as_before():
    """Breaking a PC's grapple still reads "Goblin tries to break Marla's grapple: …" (it became "acts against")."""
    import attrs

    from systems.twod6 import system as twod6
    from systems.twod6.events import OpposedRolled

    f, roller = _fight()
    roller.add(4, 4, 3, 3)
    (sneak,) = [e for e in f.do(Sneak(actor="c1", targets=("c2",))) if isinstance(e, OpposedRolled)]
    broke = attrs.evolve(sneak, actor="c2", target="c1", purpose="breaks the grapple", success=True)
    tally = twod6.tally(f.state, broke)
    assert tally is not None and "break" in tally.deed and tally.deed.endswith(": succeeds"), tally
