"""What the public log and the order show the players, by the GM's view options (toy system)."""

from __future__ import annotations

import re

from screens.table import LOG_LINES, _scrub, project, public_log, public_names
from tests.support.toy import Hit
from tracker import Fight
from tracker import commands as C
from tracker.dice import ScriptedRoller
from tracker.registry import load

FACES = re.compile(r"\[[0-9, ]+\]")


def fight(*faces: int) -> Fight:
    f = Fight(load("toy"), roller=ScriptedRoller(list(faces)))
    f.do(C.AddCombatant(name="Dusty", kind="pc", sheet={"hp": 12}))
    f.do(C.AddCombatant(name="Black Bart", kind="npc", sheet={"hp": 10}, alias="Outlaw"))
    f.do(C.AddCombatant(name="Assassin", kind="npc", sheet={"hp": 30}, hidden=True))
    f.do(C.SetInitiative(values={"c1": 20, "c2": 15, "c3": 10}))
    f.do(C.StartFight())
    return f


def log(f: Fight) -> str:
    return "\n".join(public_log(f.system, f.steps, f.state))


def test_open_view_shows_the_gms_own_lines() -> None:
    f = fight(17, 4)
    f.do(C.SetView(npc_numbers=True, npc_names=True, dice=True))
    f.do(Hit(actor="c1", target="c2", damage="1d6"))
    text = log(f)
    assert "Dusty hits Black Bart" in text and "[17]" in text and "for 4" in text


def test_npc_numbers_hidden_by_default() -> None:
    f = fight(17, 4)
    f.do(Hit(actor="c1", target="c2", damage="1d6"))
    f.do(C.Damage(targets=("c2",), amount="2"))
    f.do(C.Adjust(id="c2", field="hp", value=1))
    text = log(f)
    assert "Dusty hits Black Bart" in text
    assert "Black Bart: hurt" in text and "Black Bart: badly hurt" in text  # the plug-in's descriptor
    assert not re.search(r"\d", text.replace("Round 1", "")), text  # no NPC numbers, no dice
    row = next(r for r in project(f.system, f).rows if r.name == "Black Bart")
    assert row.state == "badly hurt"


def test_pc_numbers_are_shown() -> None:
    f = fight(17, 5)
    f.do(C.NextTurn())  # Black Bart's turn
    f.do(Hit(actor="c2", target="c1", damage="1d6"))
    text = log(f)
    assert "Black Bart hits Dusty (5)" in text and not FACES.search(text)  # harm to a PC; no faces (NPC roll)
    row = next(r for r in project(f.system, f).rows if r.name == "Dusty")
    assert row.state == "HP 7/12"


def test_names_hidden_use_the_alias() -> None:
    f = fight(17, 4)
    f.do(C.SetView(npc_names=False, npc_numbers=True))
    f.do(Hit(actor="c1", target="c2", damage="1d6"))
    f.do(C.AddCombatant(name="Ugly", kind="npc", sheet={"hp": 4}, alias="Outlaw"))
    view = project(f.system, f)
    text = log(f) + "\n".join(r.name for r in view.rows)
    assert "Black Bart" not in text and "Ugly" not in text
    assert "Outlaw 1" in text and "Outlaw 2" in text  # two share the alias: numbered
    assert "Dusty hits Outlaw 1" in text


def test_dice_hidden_drop_the_faces() -> None:
    f = fight(17, 4)
    f.do(C.SetView(npc_numbers=True, dice=False))
    f.do(Hit(actor="c1", target="c2", damage="1d6"))
    text = log(f)
    assert "Dusty hits Black Bart" in text
    assert not FACES.search(text) and "17" not in text and "4" not in text


def test_hidden_combatants_leave_no_trace() -> None:
    f = fight(17, 4, 18, 3)
    f.do(C.SetView(npc_numbers=True))
    f.do(C.NextTurn())
    f.do(C.NextTurn())  # the assassin's turn
    f.do(Hit(actor="c3", target="c1", damage="1d6"))
    f.do(C.Note(text="the assassin waits behind the curtain"))
    f.do(C.AddCondition(id="c3", name="Invisible"))
    view = project(f.system, f)
    text = log(f) + view.up + view.on_deck + "".join(r.name + r.state + r.conditions for r in view.rows)
    assert "Assassin" not in text and "assassin" not in text and "Invisible" not in text
    assert "c3" not in text
    assert view.up == "Black Bart"  # the last seen turn stays up: no gap in the turns tells of the assassin's
    f.do(C.Reveal(ids=("c3",)))
    text = log(f)
    assert "Assassin appears" in text
    assert "Assassin hits Dusty" not in text  # what it did while hidden stays hidden


def test_last_guard_scrubs_names_in_a_plugins_own_text() -> None:
    """A plug-in's text that names a hidden combatant is dropped; a hidden NPC name becomes the alias."""
    f = fight()
    f.do(C.SetView(npc_names=False))
    now = f.state
    names = public_names(now)
    assert _scrub("Dusty spots the assassin", now, names) is None
    assert _scrub("Dusty shoots Black Bart (Black Bart attacks)", now, names) == "Dusty shoots Outlaw (Outlaw attacks)"
    assert _scrub("Dusty shoots Black Barton", now, names) == "Dusty shoots Black Barton"  # whole names only


def test_gm_only_events_are_not_shown() -> None:
    f = fight()
    f.do(C.Note(text="secret plan"))
    f.do(C.NameFight(name="Brawl"))
    f.do(C.SetView(npc_numbers=False, npc_names=False, dice=False))
    f.do(C.SetDiceMode(typed=True))
    text = log(f)
    assert "secret" not in text and "Players' view" not in text and "typed" not in text


def test_a_condition_ending_on_a_hidden_combatants_turn_is_still_said() -> None:
    """A condition set to end on the hidden Assassin's turn: its line was dropped whole from the players' log
    (the event names the Assassin as whose turn ends it).  The line is said, without that name."""
    f = fight()
    f.do(C.AddCondition(id="c1", name="Stunned", rounds=2, ends_on="c3"))
    text = log(f)
    assert "Dusty is Stunned for 2 rounds" in text, text
    assert "Assassin" not in text


def test_an_adjustment_is_said_by_the_values_name() -> None:
    f = fight()
    f.do(C.Adjust(id="c1", field="hp", value=5))
    assert "GM sets Dusty's HP to 5" in log(f)


def test_an_npcs_public_number_stays_with_it_when_others_are_hidden_or_revealed() -> None:
    """NPC names hidden: Outlaws are "Outlaw 1", "Outlaw 2"… Revealing a hidden Outlaw renumbered the others,
    their earlier log lines too; hiding one renumbered the rest (telling the players someone was hidden).
    A number now stays with its combatant: in the order the players first saw them."""
    f = Fight(load("toy"), roller=ScriptedRoller([]))
    f.do(C.AddCombatant(name="Dusty", kind="pc", sheet={"hp": 12}))
    f.do(C.AddCombatant(name="Bart", kind="npc", sheet={"hp": 10}, alias="Outlaw", hidden=True))  # c2, unseen
    f.do(C.AddCombatant(name="Jesse", kind="npc", sheet={"hp": 10}, alias="Outlaw"))  # c3
    f.do(C.AddCombatant(name="Frank", kind="npc", sheet={"hp": 10}, alias="Outlaw"))  # c4
    f.do(C.SetView(npc_names=False))
    f.do(C.SetInitiative(values={"c1": 20, "c2": 15, "c3": 12, "c4": 10}))
    f.do(C.StartFight())
    f.do(C.Damage(targets=("c3",), amount="2"))  # a line about Jesse

    def rows() -> dict[str, str]:
        return {r.cid: r.name for r in project(f.system, f).rows}

    assert rows() == {"c1": "Dusty", "c3": "Outlaw 1", "c4": "Outlaw 2"}
    said = log(f)
    f.do(C.Reveal(ids=("c2",)))  # Bart appears: the next number, the others keep theirs
    assert rows() == {"c1": "Dusty", "c2": "Outlaw 3", "c3": "Outlaw 1", "c4": "Outlaw 2"}
    view_log = project(f.system, f).log
    earlier = [line for line in said.splitlines() if "Outlaw" in line][-LOG_LINES // 2 :]
    assert earlier and all(line in view_log for line in earlier), (earlier, view_log)  # said as they were
    f.do(C.Hide(ids=("c3",)))  # Jesse hidden: Frank stays Outlaw 2, Bart Outlaw 3
    assert rows() == {"c1": "Dusty", "c2": "Outlaw 3", "c4": "Outlaw 2"}


def test_a_pc_save_against_an_npc_keeps_the_npc_s_numbers_from_the_players() -> None:
    """blackjack: "Jesse saves: CTRL save … over DV 8 (Sheriff Crane's Threat +5, …)" showed the players the
    Sheriff's Threat: the line is about a PC only by its ids; the NPC is named in its terms."""
    from systems.blackjack.commands import MakeSave
    from tests.systems.blackjack.helpers import new_fight, npc, pc

    f = new_fight(9)
    jesse = pc(f, "Jesse", acc=14, body=10, ctrl=9)
    sheriff = npc(f, "Sheriff Crane", threat=5, morale=8)
    f.do(C.StartFight())
    f.do(MakeSave(actor=jesse, stat="CTRL", against=sheriff))
    text = log(f)
    assert "Jesse" in text and "Threat" not in text and "+5" not in text and "DV 8" not in text, text
    assert "Jesse saves: CTRL save" in text and "over the DV" in text, text  # the save itself is said
    f.do(C.SetView(npc_numbers=True, npc_names=True, dice=True))
    assert "Sheriff Crane's Threat +5" in log(f)  # with NPC numbers shown, the GM's line


def test_what_a_hidden_combatant_does_shows_only_its_effect() -> None:
    """A hidden Witch hexed Jesse: the players saw "Jesse saves to resist Hex: … (lead ingested +1 …)" — the
    working's name and the unseen caster's lead.  Only its effect on the seen is said."""
    from systems.blackjack.commands import CastWorking, IngestLead
    from tests.systems.blackjack.helpers import new_fight, pc

    f = new_fight(2, 14)
    jesse = pc(f, "Jesse", acc=14, body=10, ctrl=9)
    f.do(C.AddCombatant(name="Witch", kind="npc", preset="hexpaper_witch", hidden=True))
    witch = f.state.combatants[-1].id
    f.do(IngestLead(actor=witch, amount=1))  # before the fight (ingesting is an action in one)
    f.do(C.StartFight())
    f.do(C.NextTurn())  # the Witch's turn (PCs first, then NPCs as added)
    f.do(CastWorking(actor=witch, working="Hex", target=jesse))
    text = log(f)
    assert "saves to resist" not in text and "lead" not in text, text
    assert "Witch" not in text and "Jesse is Hexed" in text, text  # its effect on the seen, said


def test_a_roll_worked_out_again_is_said_so_not_as_a_second_hit() -> None:
    """zludge: an aspect invoked after the roll read the revised roll as a second hit: "Rook hits Mad Dog" twice
    for one shot."""
    from systems.zludge.commands import Attack, InvokeAfter
    from tests.systems.zludge.helpers import F, duel, script
    from tests.systems.zludge.test_invoke_after import BOB, SWORD

    f = duel(SWORD, BOB)
    script(f, F(-1), F(1))  # 0 vs +1: a miss
    f.do(Attack(actor="c1", target="c2"))
    f.do(InvokeAfter(actor="c1", aspect="star ranger"))  # +1: clipped
    text = log(f)
    assert text.count("Alice misses Bob") == 1 and "Alice hits Bob" not in text, text
    assert "Alice's attack on Bob is worked out again: a hit" in text, text


def test_the_harm_of_a_hit_reads_as_harm_not_as_a_second_action() -> None:
    """2d6: the wound of a hit on an NPC showed as "Ann acts against Bob": one attack read as two actions."""
    from systems.twod6.commands import Attack
    from tests.systems.twod6.helpers import DUMMY, FIGHTER

    f = Fight(load("twod6"), roller=ScriptedRoller([4, 4, 3, 4]))
    f.do(C.AddCombatant(name="Ann", kind="pc", sheet=FIGHTER))
    f.do(C.AddCombatant(name="Bob", kind="npc", sheet=DUMMY))
    f.do(C.SetInitiative(values={"c1": 20, "c2": 10}))
    f.do(C.StartFight())
    f.do(Attack(actor="c1", targets=("c2",)))  # 12 vs 7: a hit, one wound
    text = log(f)
    assert "Ann hits Bob" in text and "acts against" not in text, text


def test_a_fall_reads_as_the_state_it_leaves_not_as_an_action() -> None:
    """bnb: the Bear's hit that dropped Doc showed "Bear hits Doc" and then "Bear acts against Doc" (the fall)."""
    from systems.bnb.commands import Attack
    from tests.systems.bnb.helpers import add_npc, add_pc, new_fight, start

    f, dice = new_fight()
    dusty = add_pc(f, "Dusty", hp=3)
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=6)
    start(f, {lefty: 15, dusty: 10})
    dice.add(15, 6)
    f.do(Attack(actor=lefty, target=dusty))
    text = log(f)
    assert "Lefty hits Dusty" in text and "acts against" not in text, text


def test_actions_on_the_hidden_take_no_line_of_the_log() -> None:
    """The log looked at the GM's last 12 actions: a dozen on the hidden Assassin (its conditions) emptied it, one
    line at a time, and the players could count them. The log keeps its last public lines."""
    f = fight()
    before = project(f.system, f).log
    assert before
    for n in range(15):
        f.do(C.AddCondition(id="c3", name=f"Plotting {n}"))
    assert project(f.system, f).log == before


def test_a_hidden_turn_keeps_the_last_seen_turn_up_and_the_round_said_with_the_next_seen_turn() -> None:
    """On the Assassin's turn the players saw no one up (someone unseen acts, and where in the order); a round the
    Assassin begins was said alone ("Round 2", then nothing): the round is said with its first seen turn."""
    f = Fight(load("toy"), roller=ScriptedRoller([]))
    f.do(C.AddCombatant(name="Assassin", kind="npc", sheet={"hp": 30}, hidden=True))
    f.do(C.AddCombatant(name="Dusty", kind="pc", sheet={"hp": 12}))
    f.do(C.AddCombatant(name="Zed", kind="pc", sheet={"hp": 12}))
    f.do(C.SetInitiative(values={"c1": 20, "c2": 15, "c3": 10}))
    f.do(C.StartFight())  # the Assassin's turn first: the first seen to act is up (no one up told of it)
    view = project(f.system, f)
    assert (view.round, view.up, view.on_deck) == ("Round 1", "Dusty", "Zed")
    assert "Round 1" not in view.log
    f.do(C.NextTurn())  # Dusty
    assert project(f.system, f).log[-2:] == ("Round 1", "Dusty's turn")
    f.do(C.NextTurn())  # Zed
    f.do(C.NextTurn())  # round 2: the Assassin
    view = project(f.system, f)
    assert (view.round, view.up, view.on_deck) == ("Round 1", "Zed", "Dusty")
    assert view.log[-1] == "Zed's turn" and [r.name for r in view.rows if r.current] == ["Zed"]
    f.do(C.NextTurn())  # Dusty
    view = project(f.system, f)
    assert view.round == "Round 2" and view.log[-2:] == ("Round 2", "Dusty's turn")


def test_a_surprise_round_only_the_hidden_take_is_not_announced() -> None:
    f = Fight(load("toy"), roller=ScriptedRoller([]))
    f.do(C.AddCombatant(name="Dusty", kind="pc", sheet={"hp": 12}))
    f.do(C.AddCombatant(name="Assassin", kind="npc", sheet={"hp": 30}, hidden=True))
    f.do(C.SetInitiative(values={"c1": 20, "c2": 15}))
    f.do(C.StartFight(surprise=("c2",)))
    view = project(f.system, f)
    assert view.round == "Round 1" and view.up == "Dusty"
    assert view.log[-1] == "The fight begins" and "Surprise round" not in view.log
    f.do(C.NextTurn())
    assert project(f.system, f).log[-3:] == ("The fight begins", "Round 1", "Dusty's turn")


def test_a_seen_surpriser_makes_the_surprise_round_said() -> None:
    f = Fight(load("toy"), roller=ScriptedRoller([]))
    f.do(C.AddCombatant(name="Assassin", kind="npc", sheet={"hp": 30}, hidden=True))
    f.do(C.AddCombatant(name="Dusty", kind="pc", sheet={"hp": 12}))
    f.do(C.SetInitiative(values={"c1": 20, "c2": 15}))
    f.do(C.StartFight(surprise=("c1", "c2")))  # the Assassin's surprise turn first, then Dusty's
    assert project(f.system, f).log[-1] == "The fight begins with a surprise round"
    f.do(C.NextTurn())
    view = project(f.system, f)
    assert view.round == "Surprise round" and view.log[-2:] == ("Surprise round", "Dusty's turn")


def test_a_hidden_attackers_hit_on_the_seen_says_the_harm() -> None:
    """bnb: the unseen Sniper's hit on Dusty left no line (only his HP moved): the harm is said, not who did it."""
    from systems.bnb.commands import Attack
    from tests.systems.bnb.helpers import add_npc, add_pc, new_fight, start

    f, dice = new_fight()
    dusty = add_pc(f, "Dusty", hp=12)
    (sniper,) = add_npc(f, "outlaw", name="Sniper")
    f.do(C.Hide(ids=(sniper,)))
    start(f, {sniper: 15, dusty: 10})
    dice.add(15, 3)
    f.do(Attack(actor=sniper, target=dusty))
    text = log(f)
    assert "Dusty is harmed" in text and "Sniper" not in text and "[15]" not in text, text


def test_one_action_on_the_seen_and_the_hidden_says_what_it_did_to_the_seen() -> None:
    """bnb: quick damage to Dusty and the hidden Sniper (both marked) said nothing; a Gun-play at a seen Outlaw
    and the hidden Sniper left out Dusty's hits and misses on the Outlaw."""
    from systems.bnb.commands import GunPlay
    from tests.systems.bnb.helpers import add_npc, add_pc, new_fight, start

    f, dice = new_fight()
    dusty = add_pc(f, "Dusty", cls="Shootist", level=3, hp=12, weapons="heavy pistol")
    (outlaw,) = add_npc(f, "outlaw", name="Outlaw", hp=10)
    (sniper,) = add_npc(f, "outlaw", name="Sniper")
    f.do(C.Hide(ids=(sniper,)))
    start(f, {dusty: 20, outlaw: 10, sniper: 5})
    f.do(C.Damage(targets=(dusty, sniper), amount="2"))
    assert "Dusty loses 2 HP" in log(f), log(f)  # as with Dusty alone marked (it read "is harmed (2)", a tell)
    dice.add(2, 17, 1, 18, 1)  # a miss on the Outlaw; a hit for 1+2; a hit on the Sniper
    f.do(GunPlay(actor=dusty, targets=(outlaw, outlaw, sniper), distance="20"))
    text = log(f)
    assert "Dusty misses Outlaw" in text and "Dusty hits Outlaw" in text and "Sniper" not in text, text


def test_a_condition_naming_a_hidden_combatant_shows_without_its_name() -> None:
    """ "Marked by the Assassin" on Dusty showed in the players' Conditions column, the hidden Assassin's name with
    it (the log's line was left out for it; the row was not scrubbed): the hidden are "someone", and an NPC
    whose name the players do not see is called by the name they see."""
    f = fight()
    f.do(C.SetView(npc_names=False))
    f.do(C.AddCondition(id="c1", name="Marked by the Assassin"))
    f.do(C.AddCondition(id="c1", name="Taunted by Black Bart"))
    view = project(f.system, f)
    dusty = next(r for r in view.rows if r.name == "Dusty")
    assert "Assassin" not in dusty.conditions and "Black Bart" not in dusty.conditions, dusty.conditions
    assert "Marked by the someone" in dusty.conditions and "Taunted by Outlaw" in dusty.conditions, dusty.conditions


def test_a_hidden_name_inside_a_seen_name_hides_nothing_of_the_seen() -> None:
    """A third Outlaw added hidden is named "Outlaw": every line about the seen "Outlaw 1" was dropped, as naming
    the hidden one (its joining, its turns, its hits: Dusty fell with no cause)."""
    f = Fight(load("toy"), roller=ScriptedRoller([17, 4]))
    f.do(C.AddCombatant(name="Dusty", kind="pc", sheet={"hp": 12}))
    f.do(C.AddCombatant(name="Outlaw 1", kind="npc", sheet={"hp": 10}))
    f.do(C.AddCombatant(name="Outlaw", kind="npc", sheet={"hp": 10}, hidden=True))
    f.do(C.SetInitiative(values={"c1": 10, "c2": 20, "c3": 5}))
    f.do(C.StartFight())
    f.do(Hit(actor="c2", target="c1", damage="1d6"))
    f.do(C.AddCondition(id="c1", name="Covering Outlaw 1"))
    text = log(f)
    assert "Outlaw 1 joins the fight" in text and "Outlaw 1's turn" in text and "Outlaw 1 hits Dusty" in text, text
    dusty = next(r for r in project(f.system, f).rows if r.name == "Dusty")
    assert dusty.conditions == "Covering Outlaw 1", dusty.conditions


def test_numbered_aliases_name_each_npc_as_its_row_does() -> None:
    """NPC names hidden, the real "Outlaw 2" revealed first is "Outlaw 1" to the players: the log rewrote the names
    as text one after the other and called both "Outlaw 1" ("Outlaw 1's turn" with Outlaw 2 up)."""
    f = Fight(load("toy"), roller=ScriptedRoller([]))
    f.do(C.AddCombatant(name="Dusty", kind="pc", sheet={"hp": 12}))
    for name in ("Outlaw 1", "Outlaw 2"):
        f.do(C.AddCombatant(name=name, kind="npc", sheet={"hp": 10}, alias="Outlaw", hidden=True))
    f.do(C.SetView(npc_names=False))
    f.do(C.Reveal(ids=("c3",)))
    f.do(C.Reveal(ids=("c2",)))
    f.do(C.SetInitiative(values={"c1": 20, "c3": 15, "c2": 10}))
    f.do(C.StartFight())
    f.do(C.NextTurn())  # the real Outlaw 2: "Outlaw 1" to the players
    view = project(f.system, f)
    assert view.up == "Outlaw 1" and view.log[-1] == "Outlaw 1's turn", view
    f.do(C.AddCondition(id="c2", name="Prone"))  # the real Outlaw 1: "Outlaw 2" to the players
    view = project(f.system, f)
    assert view.log[-1] == "Outlaw 2 is Prone", view.log
    assert [r.conditions for r in view.rows if r.name == "Outlaw 2"] == ["Prone"]


def test_a_held_turn_and_an_action_taken_now_say_the_round_once() -> None:
    """The first in the order held: "Round 1" was said again with the next turn, and again on "acts now"."""
    f = Fight(load("toy"), roller=ScriptedRoller([]))
    for name in ("Ann", "Bart", "Cole"):
        f.do(C.AddCombatant(name=name, kind="pc", sheet={"hp": 12}))
    f.do(C.SetInitiative(values={"c1": 20, "c2": 10, "c3": 5}))
    f.do(C.StartFight())
    f.do(C.Delay(id="c1"))
    f.do(C.ActNow(id="c1"))
    text = log(f)
    assert text.count("Round 1") == 1 and "Ann acts now" in text, text


def test_a_surprise_round_with_a_hidden_surpriser_first_is_said_so_from_the_start() -> None:
    """The hidden Sniper and the seen Bart surprise, the Sniper first: the header said "Round 1", then
    "Surprise round", then "Round 1" (the log said "with a surprise round" all along), and no one was up."""
    f = Fight(load("toy"), roller=ScriptedRoller([]))
    f.do(C.AddCombatant(name="Sniper", kind="npc", sheet={"hp": 10}, hidden=True))
    f.do(C.AddCombatant(name="Ann", kind="pc", sheet={"hp": 12}))
    f.do(C.AddCombatant(name="Bart", kind="pc", sheet={"hp": 12}))
    f.do(C.SetInitiative(values={"c1": 25, "c2": 20, "c3": 15}))
    f.do(C.StartFight(surprise=("c1", "c3")))
    view = project(f.system, f)
    assert (view.round, view.up, view.on_deck) == ("Surprise round", "Bart", "Ann"), view


def test_a_hidden_action_taken_now_leaves_on_deck_as_it_was() -> None:
    """The hidden Sniper's held action taken during Bart's turn blanked "On deck: Cole" until it was over."""
    f = Fight(load("toy"), roller=ScriptedRoller([]))
    f.do(C.AddCombatant(name="Sniper", kind="npc", sheet={"hp": 10}, hidden=True))
    for name in ("Ann", "Bart", "Cole"):
        f.do(C.AddCombatant(name=name, kind="pc", sheet={"hp": 12}))
    f.do(C.SetInitiative(values={"c1": 25, "c2": 20, "c3": 15, "c4": 10}))
    f.do(C.StartFight())
    f.do(C.Delay(id="c1"))
    f.do(C.NextTurn())  # Bart
    before = project(f.system, f)
    f.do(C.ActNow(id="c1"))
    after = project(f.system, f)
    assert (before.up, before.on_deck) == (after.up, after.on_deck) == ("Bart", "Cole"), (before, after)
