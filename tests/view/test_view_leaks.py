"""Third pass on what the players' view tells of the hidden: a system's status naming them, a hidden one's old
name after a rename, and the rows on a hidden combatant's turn (they changed at that moment)."""

from __future__ import annotations

from screens.table import Public, project
from tracker import Fight
from tracker import commands as C
from tracker.dice import SeededRoller
from tracker.registry import load


def shown(p: Public) -> str:
    return "\n".join([p.round, p.up, *(f"{r.name} | {r.state} | {r.conditions}" for r in p.rows), *p.log])


def twod6(hidden_second: bool = False) -> Fight:
    f = Fight(load("twod6"), roller=SeededRoller(1))
    f.do(C.AddCombatant(name="Marla", preset="knife", kind="pc"))
    if hidden_second:
        f.do(C.AddCombatant(name="Lurker", preset="wolf", hidden=True))
        f.do(C.AddCombatant(name="Grunk", preset="goblin", alias="Goblin"))
    else:
        f.do(C.AddCombatant(name="Grunk", preset="goblin", alias="Goblin"))
        f.do(C.AddCombatant(name="Lurker", preset="wolf", hidden=True))
    f.do(C.SetInitiative(values={"c1": 20, "c2": 15, "c3": 5}))
    f.do(C.StartFight())
    return f


def test_a_pcs_status_never_names_a_hidden_combatant() -> None:
    """twod6's "grappled by Lurker" on a PC's row named the hidden wolf (and "someone" would tell of it)."""
    f = twod6()
    lurker = f.state.by_name("Lurker").id  # type: ignore[union-attr]
    f.do(C.Adjust(id="c1", field="grappled_by", value=lurker))
    assert "grappled by Lurker" in f.system.status(f.state, f.state.get("c1"))  # the GM's own status says it
    row = project(f.system, f).rows[0]
    assert row.name == "Marla (PC)" or row.name.startswith("Marla")
    assert "Lurker" not in row.state and "someone" not in row.state and "grappled" not in row.state, row.state
    assert "Wounds" in row.state


def test_a_pcs_status_names_a_seen_npc_as_the_players_know_it() -> None:
    """twod6's status words a grapple without the grappler's name ("grappled"; the name is in the GM's detail
    pane): the players' row says "grappled" and never the GM's name for the NPC."""
    f = twod6()
    f.do(C.SetView(npc_numbers=False, npc_names=False, dice=True))
    grunk = f.state.by_name("Grunk").id  # type: ignore[union-attr]
    f.do(C.Adjust(id="c1", field="grappled_by", value=grunk))
    text = shown(project(f.system, f))
    assert "grappled" in text and "Grunk" not in text, text


def test_a_hidden_combatant_renamed_keeps_its_old_name_secret() -> None:
    """ "Marked by Lurker" read "Marked by someone" until the GM renamed the hidden Lurker: then it showed."""
    f = twod6()
    lurker = f.state.by_name("Lurker").id  # type: ignore[union-attr]
    f.do(C.AddCondition(id="c1", name="Marked by Lurker"))
    assert "Marked by someone" in shown(project(f.system, f))
    f.do(C.RenameCombatant(id=lurker, name="Shadow"))
    text = shown(project(f.system, f))
    assert "Lurker" not in text and "Marked by someone" in text, text


def test_a_seen_npc_renamed_keeps_its_real_old_name_from_the_players() -> None:
    f = twod6()
    f.do(C.SetView(npc_numbers=False, npc_names=False, dice=True))
    grunk = f.state.by_name("Grunk").id  # type: ignore[union-attr]
    f.do(C.AddCondition(id="c1", name="Marked by Grunk"))
    f.do(C.RenameCombatant(id=grunk, name="Jeb"))
    text = shown(project(f.system, f))
    assert "Grunk" not in text and "Marked by Goblin" in text, text


def test_the_rows_do_not_change_when_a_hidden_turn_starts() -> None:
    """twod6: the up PC's actions left went from its row at the hidden wolf's turn, while "Up: Marla" stayed."""
    f = twod6(hidden_second=True)
    before = project(f.system, f)
    f.do(C.NextTurn())
    assert f.state.name(f.state.current) == "Lurker"
    after = project(f.system, f)
    assert after.up == before.up and after.round == before.round
    assert [(r.state, r.conditions, r.current) for r in after.rows] == [
        (r.state, r.conditions, r.current) for r in before.rows
    ]


def test_conditions_count_rounds_in_the_round_the_players_are_shown() -> None:
    """A round begun by a hidden turn: "Stunned (2r)" fell to "(1r)" while the view still said Round 1."""
    f = Fight(load("bnb"), roller=SeededRoller(5))
    f.do(C.AddCombatant(name="Dusty", kind="pc", sheet={"cls": "Shootist", "level": 3, "weapons": "heavy pistol"}))
    f.do(C.AddCombatant(name="", preset="black_bear", count=1))
    f.do(C.AddCombatant(name="Assassin", preset="cougar", hidden=True))
    ids = {c.name: c.id for c in f.state.combatants}
    f.do(C.SetInitiative(values={ids["Dusty"]: 20, ids["Bear, Black"]: 10, ids["Assassin"]: 25}))
    f.do(C.StartFight())
    f.do(C.NextTurn())
    f.do(C.AddCondition(id=ids["Dusty"], name="Stunned", rounds=2))
    f.do(C.NextTurn())  # the Bear's turn
    before = project(f.system, f)
    f.do(C.NextTurn())  # the hidden Assassin's: round 2
    assert f.state.round == 2
    after = project(f.system, f)
    assert after.round == before.round == "Round 1"
    assert [r.conditions for r in after.rows] == [r.conditions for r in before.rows], after.rows


def test_a_group_member_revealed_alone_shows_no_number() -> None:
    """A hidden pair of bears, one revealed: "Bear, Black 1" told the players of a "Bear, Black 2" still hidden."""
    f = Fight(load("bnb"), roller=SeededRoller(5))
    f.do(C.AddCombatant(name="Dusty", kind="pc", sheet={"cls": "Shootist", "level": 3, "weapons": "heavy pistol"}))
    f.do(C.AddCombatant(name="", preset="black_bear", count=2, hidden=True))
    first, second = (c.id for c in f.state.combatants if c.group)
    f.do(C.Reveal(ids=(first,)))
    text = shown(project(f.system, f))
    assert "Bear, Black" in text and "Bear, Black 1" not in text and "Bear, Black 2" not in text, text
    f.do(C.Reveal(ids=(second,)))
    p = project(f.system, f)
    assert [r.name for r in p.rows if r.name.startswith("Bear")] == ["Bear, Black 1", "Bear, Black 2"]
    f.do(C.Hide(ids=(second,)))  # seen once, it keeps its number: the players know of it
    assert [r.name for r in project(f.system, f).rows if r.name.startswith("Bear")] == ["Bear, Black 1"]


def test_a_seen_one_renamed_to_a_name_holding_its_old_one_reads_once() -> None:
    """ "Marla" renamed "Marla Stone": the players read "Marla Stone Stone's turn" (the old name, swapped for the
    new, was swapped inside the new one too)."""
    f = Fight(load("twod6"), roller=SeededRoller(1))
    f.do(C.AddCombatant(name="Marla", preset="knife", kind="pc"))
    f.do(C.AddCombatant(name="Wolf", preset="wolf"))
    f.do(C.SetInitiative(values={"c1": 20, "c2": 15}))
    f.do(C.StartFight())
    f.do(C.RenameCombatant(id="c1", name="Marla Stone"))
    f.do(C.RenameCombatant(id="c2", name="Wolf 1"))
    f.do(C.AddCombatant(name="Wolf 2", preset="wolf"))
    f.do(C.AddCondition(id="c1", name="bitten by Wolf 2"))
    f.do(C.NextTurn())
    text = shown(project(f.system, f))
    assert "Stone Stone" not in text and "Wolf 1 1" not in text and "Wolf 1 2" not in text, text
    assert "Marla Stone joins the fight" in text and "bitten by Wolf 2" in text, text


def test_a_hidden_name_a_seen_one_begins_is_not_named() -> None:
    """A seen "Outlaw" and a hidden "Outlaw Boss": "Marked by Outlaw Boss" was shown in full (the seen name, blanked
    first, hid the hidden one from the search); and a bear revealed alone ("Bear, Black") let "Stalked by Bear,
    Black 2" through."""
    f = Fight(load("bnb"), roller=SeededRoller(5))
    f.do(C.AddCombatant(name="Dusty", kind="pc", sheet={"cls": "Shootist", "level": 3, "weapons": "heavy pistol"}))
    f.do(C.AddCombatant(name="", preset="outlaw"))
    f.do(C.AddCombatant(name="Outlaw Boss", preset="outlaw", hidden=True))
    f.do(C.AddCombatant(name="", preset="black_bear", count=2, hidden=True))
    bear = next(c.id for c in f.state.combatants if c.name == "Bear, Black 1")
    f.do(C.Reveal(ids=(bear,)))
    f.do(C.StartFight())
    f.do(C.AddCondition(id="c1", name="Marked by Outlaw Boss"))
    f.do(C.AddCondition(id="c1", name="Stalked by Bear, Black 2"))
    f.do(C.AddCondition(id="c1", name="Covered by Outlaw"))  # the seen one: named
    text = shown(project(f.system, f))
    assert "Boss" not in text and "Black 2" not in text, text
    assert "Marked by someone" in text and "Stalked by someone" in text and "Covered by Outlaw" in text, text


def test_a_renamed_npcs_old_name_inside_another_seen_name_stays_secret() -> None:
    """NPC names hidden: "Cole" renamed "Jim" showed "Covered by Cole", "Cole" being inside the PC "Nicole"."""
    f = Fight(load("bnb"), roller=SeededRoller(5))
    f.do(C.AddCombatant(name="Nicole", kind="pc", sheet={"cls": "Shootist", "level": 3, "weapons": "heavy pistol"}))
    f.do(C.AddCombatant(name="Cole", preset="outlaw", alias="Outlaw"))
    f.do(C.SetView(npc_numbers=False, npc_names=False, dice=True))
    f.do(C.StartFight())
    f.do(C.AddCondition(id="c1", name="Covered by Cole"))
    f.do(C.RenameCombatant(id="c2", name="Jim"))
    text = shown(project(f.system, f))
    assert "Cole" not in text.replace("Nicole", "") and "Covered by Outlaw" in text, text


def test_an_adjust_to_a_combatant_names_it() -> None:
    """ "GM sets Marla's Grappled by: none → c2" (the GM's log and the players') showed the id."""
    f = twod6()
    grunk = f.state.by_name("Grunk").id  # type: ignore[union-attr]
    f.do(C.Adjust(id="c1", field="grappled_by", value=grunk))
    line = f.entries[-1].event.describe(f.state)
    assert line.endswith("none → Grunk") and grunk not in line.replace("Grunk", ""), line
    lurker = f.state.by_name("Lurker").id  # type: ignore[union-attr]
    f.do(C.Adjust(id="c1", field="grappled_by", value=lurker))
    assert "Lurker" not in shown(project(f.system, f)) and f" {lurker}" not in shown(project(f.system, f))


def test_the_last_of_a_surprise_round_who_opens_round_one_is_on_deck() -> None:
    """The Bear surprises Dusty and goes first in round 1 too: "On deck: Dusty" was said (turns were skipped by the
    one's name, not by the turn)."""
    f = Fight(load("bnb"), roller=SeededRoller(5))
    f.do(C.AddCombatant(name="", preset="black_bear"))
    f.do(C.AddCombatant(name="Dusty", kind="pc", sheet={"cls": "Shootist", "level": 3, "weapons": "heavy pistol"}))
    bear, dusty = (c.id for c in f.state.combatants)
    f.do(C.SetInitiative(values={bear: 25, dusty: 20}))
    f.do(C.StartFight(surprise=(bear,)))
    p = project(f.system, f)
    assert (p.round, p.up, p.on_deck) == ("Surprise round", "Bear, Black", "Bear, Black"), p
    f.do(C.NextTurn())
    assert f.state.current == bear and f.state.round == 1


def test_a_renamed_seen_one_leaves_another_seen_name_it_begins_alone() -> None:
    """ "Deputy" renamed "Jeb": the seen "Deputy Jones" read "Jeb Jones" in the players' log."""
    f = Fight(load("bnb"), roller=SeededRoller(5))
    f.do(C.AddCombatant(name="Dusty", kind="pc", sheet={"cls": "Shootist", "level": 3, "weapons": "heavy pistol"}))
    f.do(C.AddCombatant(name="Deputy", preset="outlaw"))
    f.do(C.AddCombatant(name="Deputy Jones", preset="outlaw"))
    f.do(C.SetInitiative(values={"c1": 5, "c2": 10, "c3": 20}))
    f.do(C.StartFight())
    f.do(C.AddCondition(id="c1", name="Covered by Deputy Jones"))
    f.do(C.RenameCombatant(id="c2", name="Jeb"))
    text = shown(project(f.system, f))
    assert "Jeb Jones" not in text and "Covered by Deputy Jones" in text and "Deputy Jones's turn" in text, text


def test_the_players_adjust_line_names_a_seen_combatant() -> None:
    f = twod6()
    f.do(C.SetView(npc_numbers=True, npc_names=True, dice=True))
    grunk = f.state.by_name("Grunk").id  # type: ignore[union-attr]
    f.do(C.Adjust(id="c1", field="grappled_by", value=grunk))
    assert "GM sets Marla's Grappled by to Grunk" in shown(project(f.system, f))


def test_the_only_one_seen_is_not_on_deck_behind_itself() -> None:
    """One seen PC and a hidden NPC: "Up: Dusty  On deck: Dusty" every round."""
    f = Fight(load("bnb"), roller=SeededRoller(5))
    f.do(C.AddCombatant(name="Dusty", kind="pc", sheet={"cls": "Shootist", "level": 3, "weapons": "heavy pistol"}))
    f.do(C.AddCombatant(name="Assassin", preset="cougar", hidden=True))
    f.do(C.SetInitiative(values={"c1": 20, "c2": 10}))
    f.do(C.StartFight())
    p = project(f.system, f)
    assert (p.up, p.on_deck) == ("Dusty", ""), p


def test_a_round_a_hidden_turn_begins_changes_nothing_on_the_seen_rows_or_in_the_log() -> None:
    """The hidden Assassin's turn opening round 2, the view still at "Round 1 / Up: Bear": Ann's "holding" went, the
    Bear's Blinded ended with a line "Bear, Black is no longer Blinded" said before any turn: each told the players
    an unseen one had begun a round."""
    f, ids = _dusty_bear_assassin({"Assassin": 25, "Dusty": 20, "Ann": 15, "Bear, Black": 10}, ann=True)
    # the hidden Assassin's turn
    f.do(C.NextTurn())  # Dusty
    f.do(C.AddCondition(id=ids["Bear, Black"], name="Blinded", rounds=1, ends_on=ids["Assassin"], ends_at="start"))
    f.do(C.NextTurn())  # Ann
    f.do(C.Delay(id=ids["Ann"]))  # Ann holds: the Bear's turn
    before = project(f.system, f)
    f.do(C.NextTurn())  # round 2: the hidden Assassin's turn
    assert f.state.round == 2 and f.state.current == ids["Assassin"]
    after = project(f.system, f)
    assert (after.round, after.up) == (before.round, before.up) == ("Round 1", "Bear, Black")
    assert [(r.name, r.state, r.conditions, r.current) for r in after.rows] == [
        (r.name, r.state, r.conditions, r.current) for r in before.rows
    ], after.rows
    assert after.log == before.log, [line for line in after.log if line not in before.log]
    f.do(C.NextTurn())  # a seen turn: the rows are the fight's again
    assert "holding" not in shown(project(f.system, f))


def test_a_hidden_turn_leaves_a_pcs_extra_turn_on_its_row() -> None:
    """twod6: Marla's "extra turn" went from her row the moment the hidden wolf's turn began."""
    from systems.twod6.commands import SpendCinematic

    f = twod6(hidden_second=True)
    f.do(C.Adjust(id="c1", field="cinematics", value=2))
    f.do(C.Adjust(id="c1", field="half", value=0))  # (her turn's actions used: the extra turn is spent after them)
    f.do(SpendCinematic(actor="c1", use="extra turn"))
    before = project(f.system, f)
    assert "extra turn" in before.rows[0].state
    f.do(C.NextTurn())
    assert f.state.name(f.state.current) == "Lurker"
    assert project(f.system, f).rows[0].state == before.rows[0].state


def test_an_order_rolled_again_for_a_round_a_hidden_turn_begins_is_not_shown_before_a_seen_turn() -> None:
    """The rows were re-sorted in round 2's order the moment the hidden Assassin's turn began it."""
    f, ids = _dusty_bear_assassin({"Dusty": 20, "Ann": 15, "Bear, Black": 10, "Assassin": 5}, ann=True)
    f.do(C.NextTurn())
    f.do(C.NextTurn())  # the Bear's turn
    f.do(C.RollInitiative(reroll=True))
    before = project(f.system, f)
    f.do(C.NextTurn())  # the hidden Assassin, end of round 1
    f.do(C.NextTurn())  # round 2, rolled again: the Assassin first (seed 4)
    assert f.state.round == 2 and f.state.current == ids["Assassin"]
    after = project(f.system, f)
    assert [r.name for r in after.rows] == [r.name for r in before.rows] == ["Dusty", "Ann", "Bear, Black"]
    assert after.log == before.log


def _dusty_bear_assassin(inits: dict[str, int], ann: bool = False) -> tuple[Fight, dict[str, str]]:
    f = Fight(load("bnb"), roller=SeededRoller(4))
    for name in ("Dusty", "Ann") if ann else ("Dusty",):
        f.do(C.AddCombatant(name=name, kind="pc", sheet={"cls": "Shootist", "level": 3, "weapons": "heavy pistol"}))
    f.do(C.AddCombatant(name="", preset="black_bear"))
    f.do(C.AddCombatant(name="Assassin", preset="cougar", hidden=True))
    ids = {c.name: c.id for c in f.state.combatants}
    f.do(C.SetInitiative(values={ids[n]: v for n, v in inits.items()}))
    f.do(C.StartFight())
    return f, ids


def test_a_condition_ending_with_a_seen_turn_before_a_hidden_one_is_said() -> None:
    """Dusty's Stunned "to the end of his turn", a hidden turn next: its line was dropped with the unseen turn's."""
    f, ids = _dusty_bear_assassin({"Dusty": 20, "Assassin": 18, "Ann": 15, "Bear, Black": 10}, ann=True)
    f.do(C.AddCondition(id=ids["Dusty"], name="Stunned", rounds=1, ends_on=ids["Dusty"], ends_at="end"))
    for _ in range(4):
        f.do(C.NextTurn())  # round 2: Dusty's turn
    f.do(C.NextTurn())  # Dusty's turn ends (Stunned with it), the hidden Assassin's begins
    assert f.state.current == ids["Assassin"]
    assert "Dusty is no longer Stunned" in project(f.system, f).log


def test_a_condition_ended_unseen_and_given_again_shows_once() -> None:
    """Pinned ran out at the hidden Assassin's turn and the GM pinned Dusty again in it: "Pinned (ends this round),
    Pinned (2r)"."""
    f, ids = _dusty_bear_assassin({"Dusty": 20, "Bear, Black": 15, "Assassin": 10})
    f.do(C.AddCondition(id=ids["Dusty"], name="Pinned", rounds=1, ends_on=ids["Assassin"], ends_at="start"))
    for _ in range(5):
        f.do(C.NextTurn())  # round 2: the Assassin's turn, where Pinned runs out
    assert f.state.current == ids["Assassin"]
    f.do(C.AddCondition(id=ids["Dusty"], name="Pinned", rounds=2))
    dusty = next(r for r in project(f.system, f).rows if r.name == "Dusty")
    assert dusty.conditions == "Pinned (2r)", dusty


def test_a_pcs_resolve_check_after_a_hidden_foes_tripled_blow_is_told_without_the_foe():
    """A hidden wolf triples Marla's defense: her DC 7 resolve check against death (her own roll, naming no one
    hidden) was left out of the players' log with the wolf's action; it is said, without numbers or the wolf."""
    from systems.twod6.commands import Attack, ChooseDouble, Resolve
    from tracker.dice import ScriptedRoller

    f = Fight(load("twod6"), roller=ScriptedRoller([]))
    f.do(C.AddCombatant(name="Marla", preset="knife", kind="pc"))
    f.do(C.AddCombatant(name="Lurker", preset="wolf", hidden=True))
    f.do(C.SetInitiative(values={"c1": 5, "c2": 20}))
    f.do(C.StartFight())
    f.roller.add(6, 5, 6, 4, 1, 2)  # a critical 11 + 10 against 3: tripled
    f.do(Attack(actor="c2", targets=("c1",), skill="Melee (Unarmed)"))
    f.do(ChooseDouble(actor="c2", target="c1", choice="disarm"))
    f.roller.add(4, 4)
    f.do(Resolve(actor="c1", stakes="death"))
    text = shown(project(f.system, f))
    assert "Marla makes the resolve check against death: lives" in text, text
    assert "Lurker" not in text and "someone" not in text and "[4,4]" not in text, text


def test_a_newcomer_taking_the_empty_turn_says_no_second_round_line() -> None:
    """The others removed, then the one whose turn it was: a newcomer takes the empty turn.  The players' log said
    "Round 1" a second time, read as a new round (audit a14 w2, F5)."""
    f = Fight(load("bnb"), roller=SeededRoller(3))
    f.do(C.AddCombatant(name="Hero", kind="pc"))
    f.do(C.AddCombatant(name="Bad", kind="npc"))
    f.do(C.SetInitiative(values={"c1": 20, "c2": 10}))
    f.do(C.StartFight())
    f.do(C.RemoveCombatant(id="c2"))
    f.do(C.RemoveCombatant(id="c1"))
    f.do(C.AddCombatant(name="Newbie", kind="pc"))
    log = project(f.system, f).log
    assert log.count("Round 1") == 1, log
    assert log[-1] == "Newbie's turn", log
