"""The players' view and what it implies of the unseen: group numbers, undone actions, a turn hidden on (a10)."""

from __future__ import annotations

from screens.table import Public, project
from tracker import Fight
from tracker import commands as C
from tracker.dice import SeededRoller
from tracker.registry import load

DUSTY = C.AddCombatant(name="Dusty", kind="pc", sheet={"cls": "Shootist", "level": 3, "weapons": "heavy pistol"})


def bnb() -> Fight:
    f = Fight(load("bnb"), roller=SeededRoller(3))
    f.do(DUSTY)
    return f


def npc_rows(p: Public) -> list[str]:
    return [r.name for r in p.rows if not r.pc]


def test_a_group_member_number_counts_only_the_members_the_players_know() -> None:
    """Outlaw 3 and 4 of four hidden revealed: "Outlaw 3, Outlaw 4 appear" told of two still hidden."""
    f = bnb()
    f.do(C.AddCombatant(name="Outlaw", preset="outlaw", count=4, hidden=True))
    ids = [c.id for c in f.state.combatants if c.group]
    f.do(C.Reveal(ids=(ids[2], ids[3])))
    p = project(f.system, f)
    assert npc_rows(p) == ["Outlaw 1", "Outlaw 2"], p.rows
    assert p.log[-1] == "Outlaw 1, Outlaw 2 appear", p.log
    assert not any("Outlaw 3" in line or "Outlaw 4" in line for line in p.log), p.log
    f.do(C.Reveal(ids=(ids[0],)))  # the next one revealed: the next number, the others keep theirs
    p = project(f.system, f)
    assert [(r.cid, r.name) for r in p.rows if not r.pc] == [
        (ids[0], "Outlaw 3"),
        (ids[2], "Outlaw 1"),
        (ids[3], "Outlaw 2"),
    ], p.rows
    assert p.log[-1] == "Outlaw 3 appears", p.log
    f.do(C.SetView(npc_numbers=False, npc_names=False, dice=True))  # the aliases read the same
    assert sorted(npc_rows(project(f.system, f))) == ["Outlaw 1", "Outlaw 2", "Outlaw 3"]


def test_a_gm_typed_condition_names_a_group_member_as_the_players_know_it() -> None:
    """A condition the GM typed with a seen member's real name reads with the name the players know it by."""
    f = bnb()
    f.do(C.AddCombatant(name="Outlaw", preset="outlaw", count=4, hidden=True))
    ids = [c.id for c in f.state.combatants if c.group]
    f.do(C.Reveal(ids=(ids[2], ids[3])))
    f.do(C.AddCondition(id="c1", name="Marked by Outlaw 4"))
    dusty = next(r for r in project(f.system, f).rows if r.pc)
    assert dusty.conditions == "Marked by Outlaw 2", dusty


def test_undone_actions_are_not_seen() -> None:
    """Two outlaws added in view and undone, then two hidden wolves (given the same ids), the second revealed:
    "Wolf 2" told of a wolf still hidden; and a reveal undone counted as seen ("Outlaw 2 appears")."""
    f = bnb()
    f.do(C.SetView(npc_numbers=False, npc_names=False, dice=True))
    f.do(C.AddCombatant(name="Outlaw", preset="outlaw", count=2))
    f.undo()
    f.do(C.AddCombatant(name="Wolf", preset="wolf", count=2, hidden=True))
    second = [c.id for c in f.state.combatants if c.group][1]
    f.do(C.Reveal(ids=(second,)))
    p = project(f.system, f)
    assert npc_rows(p) == ["Wolf"] and p.log[-1] == "Wolf appears", (p.rows, p.log)
    f.do(C.SetView(npc_numbers=False, npc_names=True, dice=True))
    p = project(f.system, f)
    assert npc_rows(p) == ["Wolf"] and p.log[-1] == "Wolf appears", (p.rows, p.log)

    g = bnb()
    g.do(C.AddCombatant(name="Outlaw", preset="outlaw", count=3, hidden=True))
    ids = [c.id for c in g.state.combatants if c.group]
    g.do(C.Reveal(ids=(ids[0],)))
    g.undo()
    g.do(C.Reveal(ids=(ids[2],)))
    p = project(g.system, g)
    assert npc_rows(p) == ["Outlaw"] and p.log[-1] == "Outlaw appears", (p.rows, p.log)


def round_two(hidden_first: bool = False) -> Fight:
    """Dusty and two outlaws (and, ``hidden_first``, a hidden lurker first to act), at Outlaw 1's turn in round 2."""
    f = bnb()
    f.do(C.AddCombatant(name="Outlaw", preset="outlaw", count=2))
    initiative = {"c1": 10, "c2": 20, "c3": 5}
    if hidden_first:
        f.do(C.AddCombatant(name="Lurker", preset="wolf", hidden=True))
        initiative["c4"] = 30
    f.do(C.SetInitiative(values=initiative))
    f.do(C.StartFight())
    while not (f.state.round == 2 and f.state.current == "c2"):
        f.do(C.NextTurn())
    return f


def test_hiding_one_on_its_own_turn_keeps_the_round() -> None:
    """Outlaw 1 hidden on its turn, the first of round 2: the view went back to "Round 1", Outlaw 2 up, "Round 2"
    struck from the log and said again at Dusty's turn."""
    f = round_two()
    before = project(f.system, f)
    assert before.round == "Round 2" and before.up == "Outlaw 1" and before.log[-2:] == ("Round 2", "Outlaw 1's turn")
    f.do(C.Hide(ids=("c2",)))
    p = project(f.system, f)
    assert p.round == "Round 2" and p.up == "", p
    assert not any(r.current for r in p.rows), p.rows
    assert p.log[-1] == "Round 2" and p.log.count("Round 2") == 1, p.log
    f.do(C.NextTurn())  # Dusty's turn
    p = project(f.system, f)
    assert p.round == "Round 2" and p.up == "Dusty", p
    assert p.log[-2:] == ("Round 2", "Dusty's turn") and p.log.count("Round 2") == 1, p.log


def test_hiding_one_on_its_turn_after_a_hidden_turn_keeps_the_round_said_once() -> None:
    """Round 2 begun by a hidden lurker: its line said with Outlaw 1's turn, and still once after Outlaw 1 hides."""
    f = round_two(hidden_first=True)
    assert project(f.system, f).log[-2:] == ("Round 2", "Outlaw 1's turn")
    f.do(C.Hide(ids=("c2",)))
    p = project(f.system, f)
    assert p.round == "Round 2" and p.up == "" and p.log[-1] == "Round 2", p
    f.do(C.NextTurn())
    p = project(f.system, f)
    assert p.up == "Dusty" and p.log.count("Round 2") == 1 and p.log[-1] == "Dusty's turn", p.log


def test_a_pc_hidden_on_his_turn_keeps_the_round() -> None:
    f = bnb()
    f.do(C.AddCombatant(name="Outlaw", preset="outlaw", count=2))
    f.do(C.SetInitiative(values={"c1": 20, "c2": 10, "c3": 5}))
    f.do(C.StartFight())
    while not (f.state.round == 2 and f.state.current == "c1"):
        f.do(C.NextTurn())
    f.do(C.Hide(ids=("c1",)))
    p = project(f.system, f)
    assert p.round == "Round 2" and p.up == "" and p.log[-1] == "Round 2", p
