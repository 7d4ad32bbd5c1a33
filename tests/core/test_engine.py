"""The engine, as stories: given these actions, when this command, then these events and this state."""

from __future__ import annotations

import pytest

from tests.support.toy import Hit, HitRolled, Shrug
from tests.support.toy import system as toy
from tracker import (
    ActNow,
    AddCombatant,
    AddCondition,
    Adjust,
    Delay,
    DismissPrompt,
    EndFight,
    Fight,
    MoveInOrder,
    NextTurn,
    Note,
    Refused,
    RemoveCombatant,
    RemoveCondition,
    RenameCombatant,
    RollInitiative,
    ScriptedRoller,
    SetInitiative,
    StartFight,
    evolve,
    fold,
    registry,
)
from tracker import commands as C
from tracker import events as E
from tracker.dice import SeededRoller


def fight(*faces: int) -> Fight:
    return Fight(toy, roller=ScriptedRoller(list(faces)))


def three(*faces: int) -> Fight:
    """Alice (PC), Goblin 1 and Goblin 2, initiative set 15/12/10, started."""
    f = fight(*faces)
    f.do(AddCombatant(name="Alice", kind="pc", sheet={"hp": 8}))
    f.do(AddCombatant(name="Goblin", preset="goblin", count=2))
    f.do(SetInitiative(values={"c1": 15, "c2": 12, "c3": 10}))
    f.do(StartFight())
    return f


def refused(f: Fight, command: object, words: str) -> None:
    before_entries, before_state = list(f.entries), f.state
    with pytest.raises(Refused, match=words):
        f.do(command)
    assert f.entries == before_entries, "a refused command must log nothing"
    assert f.state == before_state


# -- combatants --------------------------------------------------------------


def test_adding_a_group_is_one_action_with_numbered_names() -> None:
    f = fight()
    f.do(AddCombatant(name="Outlaw", count=4, sheet={"hp": 5}))
    assert [c.name for c in f.state.combatants] == ["Outlaw 1", "Outlaw 2", "Outlaw 3", "Outlaw 4"]
    assert {c.group for c in f.state.combatants} == {"Outlaw"}
    assert {e.action for e in f.entries} == {1}
    f.undo()
    assert f.state.combatants == ()


def test_group_numbering_skips_names_in_use() -> None:
    f = fight()
    f.do(AddCombatant(name="Outlaw", count=2, sheet={"hp": 5}))
    f.do(AddCombatant(name="Outlaw", count=2, sheet={"hp": 5}))
    assert [c.name for c in f.state.combatants][2:] == ["Outlaw 3", "Outlaw 4"]


def test_bad_combatants_are_refused_and_nothing_is_logged() -> None:
    f = fight()
    refused(f, AddCombatant(name="  "), "needs a name")
    refused(f, AddCombatant(name="X", kind="monster"), "kind must be")
    refused(f, AddCombatant(name="X", sheet={"hp": "lots"}), "not a whole number")
    refused(f, AddCombatant(name="X", preset="dragon"), "no preset called 'dragon'")
    f.do(AddCombatant(name="Alice", kind="pc"))
    refused(f, AddCombatant(name="alice"), "already a combatant called")
    refused(f, RenameCombatant(id="c9", name="Bob"), "no combatant 'c9'")


def test_preset_sheet_is_used_and_can_be_overridden() -> None:
    f = fight()
    f.do(AddCombatant(name="", preset="Goblin"))
    f.do(AddCombatant(name="Big goblin", preset="goblin", sheet={"hp": 9}))
    assert [(c.name, c.data.hp) for c in f.state.combatants] == [("Goblin", 4), ("Big goblin", 9)]


def test_rename_and_remove() -> None:
    f = three()
    f.do(RenameCombatant(id="c2", name="Snag"))
    assert f.state.get("c2").name == "Snag"
    f.do(RemoveCombatant(id="c3", reason="fled"))
    assert f.state.order == ("c1", "c2")
    assert f.state.get("c3").removed
    refused(f, Hit(actor="c1", target="c3"), "no target 'c3'")


def test_removing_the_current_combatant_passes_the_turn() -> None:
    f = three()
    f.do(RemoveCombatant(id="c1"))
    assert f.state.current == "c2"
    assert f.state.order == ("c2", "c3")


# -- initiative, rounds and turns --------------------------------------------------


def test_initiative_orders_highest_first_and_keeps_ties() -> None:
    f = fight(15, 12, 15)
    f.do(AddCombatant(name="Alice", kind="pc"))
    f.do(AddCombatant(name="Goblin", count=2))
    f.do(RollInitiative())
    assert f.state.order == ("c1", "c3", "c2")
    assert f.state.ties == (("c1", "c3"),)
    assert [c.initiative for c in f.state.combatants] == [15, 12, 15]


def test_turns_run_down_the_order_and_wrap_into_the_next_round() -> None:
    f = three()
    assert (f.state.round, f.state.current) == (1, "c1")
    f.do(NextTurn())
    f.do(NextTurn())
    assert (f.state.round, f.state.current) == (1, "c3")
    events = f.do(NextTurn())
    assert [type(e) for e in events] == [E.TurnEnded, E.RoundStarted, E.TurnStarted]
    assert (f.state.round, f.state.current) == (2, "c1")


def test_the_order_is_kept_across_rounds_and_the_gm_can_move_someone() -> None:
    f = three()
    f.do(MoveInOrder(id="c3", position=0))
    assert f.state.order == ("c3", "c1", "c2")
    assert f.state.current == "c1", "moving someone does not change whose turn it is"
    for _ in range(2):
        f.do(NextTurn())
    assert (f.state.round, f.state.current) == (2, "c3")
    refused(f, MoveInOrder(id="c3", position=7), "outside the order")


def test_combatants_who_cannot_act_are_skipped() -> None:
    f = three()
    f.do(Adjust(id="c2", field="hp", value=0))
    assert [p.kind for p in f.state.prompts] == ["down"], "a GM adjust to 0 HP runs the rules' reaction"
    f.do(DismissPrompt(prompt_id=f.state.prompts[0].id, note="out cold"))
    f.do(NextTurn())
    assert f.state.current == "c3"


def test_start_needs_combatants_and_happens_once() -> None:
    f = fight()
    refused(f, StartFight(), "add combatants")
    refused(f, NextTurn(), "not started")
    f.do(AddCombatant(name="Alice", kind="pc"))
    f.do(AddCombatant(name="Bob"))
    f.do(StartFight())
    assert f.state.order == ("c1", "c2"), "without initiative the default order is PCs, then NPCs"
    refused(f, StartFight(), "already started")


def test_surprise_round_only_the_surprisers_act() -> None:
    f = fight()
    f.do(AddCombatant(name="Alice", kind="pc"))
    f.do(AddCombatant(name="Goblin", count=2))
    f.do(SetInitiative(values={"c1": 5, "c2": 12, "c3": 10}))
    f.do(StartFight(surprise=("c1",)))
    assert (f.state.round, f.state.current) == (0, "c1")
    f.do(NextTurn())
    assert (f.state.round, f.state.current) == (1, "c2")


def test_a_held_action_steps_in_later_and_the_turn_resumes() -> None:
    f = three()
    f.do(Delay())
    assert f.state.current == "c2"
    assert f.state.get("c1").held
    events = f.do(ActNow(id="c1"))
    assert isinstance(events[0], E.HeldActionTaken)
    assert f.state.current == "c1"
    assert f.state.order == ("c1", "c2", "c3"), "it steps in before Goblin 1, whose turn it was"
    f.do(NextTurn())
    assert f.state.current == "c2"
    last = f.entries[-1].event
    assert isinstance(last, E.TurnStarted) and last.resumed


def test_a_hold_that_lapses_at_the_new_round_is_said_in_its_line() -> None:
    """A held action not taken by the end of the round lapses (core rule); the log said nothing of it: the new
    round's line names whose hold lapsed, in the live log as in the replay (both describe it against the state
    before it)."""
    f = three()
    f.do(Delay())  # Alice holds
    while f.state.round == 1:
        f.do(NextTurn())
    assert not f.state.get("c1").held
    i = next(i for i, e in enumerate(f.entries) if isinstance(e.event, E.RoundStarted) and e.event.round == 2)
    assert f.log.describe(i) == "Round 2 — held action lapses: Alice"
    first = next(i for i, e in enumerate(f.entries) if isinstance(e.event, E.RoundStarted))
    assert f.log.describe(first) == "Round 1"


def test_only_the_current_combatant_can_hold() -> None:
    f = three()
    refused(f, Delay(id="c2"), "only the combatant whose turn it is")
    refused(f, ActNow(id="c2"), "not holding")


def test_an_unused_held_action_is_lost_at_the_round_end() -> None:
    f = three()
    f.do(Delay())
    f.do(NextTurn())
    f.do(NextTurn())
    assert f.state.round == 2
    assert not f.state.get("c1").held


# -- conditions ---------------------------------------------------------------


def test_a_condition_expires_at_the_end_of_the_chosen_turn() -> None:
    f = three()
    f.do(AddCondition(id="c2", name="Stunned", rounds=1, ends_on="c2", ends_at="end"))
    assert f.state.get("c2").condition("Stunned").expires_round == 2
    f.do(NextTurn())  # c2 round 1
    f.do(NextTurn())  # c3
    assert f.state.get("c2").condition("Stunned")
    f.do(NextTurn())  # c1 round 2
    f.do(NextTurn())  # c2 round 2
    events = f.do(NextTurn())  # c2 ends its turn
    assert E.ConditionRemoved(id="c2", name="Stunned", reason="expired") in events
    assert f.state.get("c2").conditions == ()


def test_a_condition_can_expire_at_the_start_of_a_turn() -> None:
    f = three()
    f.do(AddCondition(id="c3", name="Blessed", rounds=1, ends_on="c1", ends_at="start"))
    for _ in range(2):
        f.do(NextTurn())
    events = f.do(NextTurn())  # round 2, c1 starts
    assert events[-1] == E.ConditionRemoved(id="c3", name="Blessed", reason="expired")


def test_conditions_without_duration_stay_until_removed() -> None:
    f = three()
    f.do(AddCondition(id="c1", name="Hexed", value=2))
    refused(f, AddCondition(id="c1", name="Hexed"), "already Hexed")
    for _ in range(6):
        f.do(NextTurn())
    assert f.state.get("c1").condition("Hexed").value == 2
    f.do(RemoveCondition(id="c1", name="hexed"))
    assert f.state.get("c1").conditions == ()
    refused(f, RemoveCondition(id="c1", name="Hexed"), "is not Hexed")


# -- GM adjust, notes, prompts, end ------------------------------------------------


def test_an_adjustment_is_logged_by_the_name_the_gm_picked_it_by() -> None:
    """Blackjack's "Injuries" was logged as "GM sets Jed's injury_list: …" (the record's field); the log says
    the label of the list the GM picked from, without its explanation in brackets."""
    fight = Fight(registry.load("blackjack"), roller=SeededRoller(1))
    fight.do(AddCombatant(name="Jed", preset="gunslinger"))
    (ev,) = fight.do(Adjust(id="c1", field="injury_list", value="lesser scratch"))
    assert ev.label == "Injuries" and ev.describe(fight.state).startswith("GM sets Jed's Injuries: ")
    with pytest.raises(Refused, match="Jed's Injuries is already"):
        fight.do(Adjust(id="c1", field="injury_list", value="lesser scratch"))
    (ev,) = fight.do(Adjust(id="c1", field="lead", value="3"))
    assert ev.describe(fight.state).startswith("GM sets Jed's Lead: ")
    bnb = Fight(registry.load("bnb"), roller=SeededRoller(1))
    bnb.do(AddCombatant(name="Kid", preset="shootist"))
    (ev,) = bnb.do(Adjust(id="c1", field="hp", value="1"))
    assert ev.describe(bnb.state).startswith("GM sets Kid's HP: ")  # not "HP (0 or below: dying, death save)"


def test_gm_adjust_of_system_and_core_values_is_logged_and_undoable() -> None:
    f = three()
    events = f.do(Adjust(id="c2", field="hp", value="2", note="fell off the roof"))
    assert events == [E.Adjusted(id="c2", field="hp", value=2, old=4, note="fell off the roof", label="HP")]
    assert events[0].describe(f.state).endswith("'s HP: 4 → 2 (fell off the roof)")  # as the GM picked it
    assert f.state.get("c2").data.hp == 2
    f.do(Adjust(id="c2", field="group", value="Bandits"))
    assert f.state.get("c2").group == "Bandits"
    refused(f, Adjust(id="c2", field="hp", value="two"), "not a whole number")
    refused(f, Adjust(id="c2", field="mana", value=3), "no value 'mana'")
    f.undo()
    f.undo()
    assert f.state.get("c2").data.hp == 4


def test_notes_need_text() -> None:
    f = three()
    f.do(Note(text="The saloon is on fire", id="c1"))
    assert f.state.notes == ("The saloon is on fire",)
    refused(f, Note(text="   "), "empty")


def test_an_open_prompt_blocks_the_next_turn_until_resolved() -> None:
    f = three(15, 6)  # Alice hits Goblin 1 for 6: down
    events = f.do(Hit(actor="c1", target="c2"))
    assert isinstance(events[-1], E.PromptRaised)
    refused(f, NextTurn(), "resolve first: Goblin 1 is down")
    f.do(Shrug(actor="c2"))
    assert f.state.prompts == ()
    f.do(NextTurn())


def test_the_gm_can_settle_a_prompt_by_ruling() -> None:
    f = three(15, 6)
    f.do(Hit(actor="c1", target="c2"))
    f.do(DismissPrompt(prompt_id="down:c2", note="he's done for"))
    assert f.state.prompts == ()
    refused(f, DismissPrompt(prompt_id="down:c2"), "no open prompt")


def test_the_fight_ends() -> None:
    f = three()
    f.do(EndFight(note="the outlaws surrender"))
    assert f.state.ended and f.state.current is None
    refused(f, NextTurn(), "over")
    refused(f, EndFight(), "already over")


# -- undo and redo -----------------------------------------------------------------


def test_one_action_is_one_undo_step_however_many_events() -> None:
    f = three(15, 6)
    before = f.state
    f.do(Hit(actor="c1", target="c2"))  # hit + prompt: two events
    step = f.undo()
    assert len(step.events) == 2
    assert f.state == before
    assert isinstance(f.entries[-1].event, E.Undone)


def test_redo_restores_and_a_new_action_clears_redo() -> None:
    f = three()
    f.do(NextTurn())
    after = f.state
    f.undo()
    f.redo()
    assert f.state == after
    f.undo()
    f.do(Note(text="instead"))
    assert not f.can_redo
    with pytest.raises(Refused, match="nothing to redo"):
        f.redo()


def test_nothing_to_undo_at_the_start() -> None:
    with pytest.raises(Refused, match="nothing to undo"):
        fight().undo()


def test_the_log_keeps_the_mistake_its_undo_and_what_came_after() -> None:
    f = three(3)
    f.do(Hit(actor="c1", target="c2"))
    f.undo()
    f.do(Note(text="Alice reloads instead"))
    kinds = [type(e.event).__name__ for e in f.entries[-3:]]
    assert kinds == ["HitRolled", "Undone", "NoteAdded"]


# -- evolve ---------------------------------------------------------------------------


def test_evolve_is_pure_and_refuses_unknown_events() -> None:
    f = three()
    state = f.state
    ev = HitRolled(
        actor="c1", target="c2", attack=f.decide(Hit(actor="c1", target="c2"), ScriptedRoller([1]))[0].attack, hit=False
    )
    again = evolve(toy, state, ev)
    assert state == f.state and again == state

    class Stray(E.Event):
        TYPE = "stray"

    with pytest.raises(Exception, match="no rule applies"):
        evolve(toy, state, Stray())


def test_folding_the_log_without_undo_records_rebuilds_the_state() -> None:
    f = three()
    f.do(NextTurn())
    assert fold(toy, [e.event for e in f.entries]) == f.state


def test_adjusted_values_are_shaped_as_the_save_will_give_them_back() -> None:
    """Tuples become lists before they are applied, so live and replayed states agree."""
    f = three()
    events = f.do(Adjust(id="c1", field="group", value="Posse"))
    assert events[0].old is None
    f2 = fight()
    f2.do(AddCombatant(name="Alice", kind="pc", sheet={"hp": 8, "gear": ("rope", "lamp")}))
    added = f2.entries[-1].event
    assert added.sheet["gear"] == ["rope", "lamp"]


def test_the_state_keeps_the_latest_notes_and_the_log_keeps_them_all() -> None:
    f = three()
    for i in range(30):
        f.do(Note(text=f"note {i}"))
    assert f.state.notes[-1] == "note 29"
    assert len(f.state.notes) == 20
    assert sum(isinstance(e.event, E.NoteAdded) for e in f.entries) == 30


def test_an_event_lists_every_roll_it_carries_even_nested() -> None:
    import attrs as _attrs

    from tracker.dice import roll

    @_attrs.frozen
    class Inner:
        roll: object
        more: tuple = ()

    @_attrs.frozen(kw_only=True)
    class Nested(E.Event):
        TYPE = "test.nested"
        save: Inner
        extra: tuple = ()

    r1, r2, r3 = (roll("1d6", ScriptedRoller([n])) for n in (1, 2, 3))
    ev = Nested(save=Inner(roll=r1, more=(r2,)), extra=(r3, "x"))
    assert ev.all_rolls() == (r1, r2, r3)


def test_a_turn_action_out_of_turn_is_refused_when_the_system_says_so() -> None:
    class StrictToy(type(toy)):
        turn_commands = (Hit,)

    f = Fight(StrictToy(), roller=ScriptedRoller([15, 3]))
    f.do(AddCombatant(name="Alice", kind="pc", sheet={"hp": 8}))
    f.do(AddCombatant(name="Goblin", sheet={"hp": 8}))
    f.do(StartFight())
    refused(f, Hit(actor="c2", target="c1"), "it is Alice's turn, not Goblin's")
    f.do(Hit(actor="c1", target="c2"))
    f.do(Shrug(actor="c2"))  # not a turn action: allowed whenever
    f.do(Delay())
    refused(f, Hit(actor="c1", target="c2"), "a held action steps in with 'act now'")


@pytest.mark.parametrize("system_id", ["bnb"])
def test_quick_harm_of_nothing_is_refused_and_logs_nothing(system_id: str) -> None:
    """Quick damage of 0 HP was logged ("Hero loses 0 HP"): a change of nothing that took an undo step.  (In
    zludge 0 is a level, Scratched; blackjack's are named; 2d6's 0 wounds is refused as below 1.)"""
    from tracker import registry

    f = Fight(registry.load(system_id))
    f.do(C.AddCombatant(name="Hero", kind="pc", sheet={"cls": "Shootist", "level": 1, "hp": 6}))
    hero = f.state.combatants[0].id
    f.do(C.Damage(targets=(hero,), amount="2"))
    logged = len(f.entries)
    for amount in ("0", "00", "+0"):
        for command in (C.Damage(targets=(hero,), amount=amount), C.Heal(targets=(hero,), amount=amount)):
            with pytest.raises(Refused, match="changes nothing"):
                f.do(command)
    assert len(f.entries) == logged


@pytest.mark.parametrize("system_id", ["bnb", "blackjack", "zludge", "twod6"])
def test_time_passing_ends_the_conditions_counted_in_rounds(system_id: str) -> None:
    """Ruling: rounds are counted in a fight; once hours pass, a condition of so many rounds is over (a bear's
    2-round "Enraged" was still shown after two days' rest).  One until removed stays."""
    from tracker import registry

    f = Fight(registry.load(system_id))
    f.do(C.AddCombatant(name="Hero", kind="pc"))
    f.do(C.AddCombatant(name="Bear", kind="npc"))
    f.do(C.SetInitiative(values={"c1": 10, "c2": 5}))
    f.do(C.StartFight())
    f.do(C.AddCondition(id="c2", name="Enraged", rounds=2))
    f.do(C.AddCondition(id="c1", name="Cursed"))
    f.do(C.EndFight())
    f.do(C.Rest(days=1))
    assert f.state.get("c2").condition("Enraged") is None
    assert f.state.get("c1").condition("Cursed") is not None


def test_the_cores_refusals_of_a_prompt_left_open_and_of_another_s_turn_name_their_rule() -> None:
    """ "resolve first: …" and "it is A's turn, not Outlaw's" named no rule (the README: a refused action names
    its rule, as the systems' refusals do)."""
    from systems.blackjack.commands import Attack
    from tests.systems.blackjack.helpers import new_fight, npc, pc
    from tracker.commands import Damage, NextTurn, StartFight
    from tracker.errors import Refused

    f = new_fight()
    a = pc(f, "A")
    outlaw = npc(f, "Outlaw", "outlaw")
    f.do(StartFight())
    with pytest.raises(Refused) as other:
        f.do(Attack(actor=outlaw, targets=(a,)))
    assert "it is A's turn, not Outlaw's" in str(other.value) and other.value.rule is not None
    assert other.value.rule.id == "turn-order"
    from tests.systems.bnb.helpers import add_pc
    from tests.systems.bnb.helpers import new_fight as bnb_fight
    from tests.systems.bnb.helpers import start as bnb_start

    g, _ = bnb_fight()
    dusty = add_pc(g, "Dusty")
    bnb_start(g)
    g.do(Damage(targets=(dusty,), amount="30"))  # dying: the death save is asked
    assert g.state.prompts
    with pytest.raises(Refused) as open_prompt:
        g.do(NextTurn())
    assert open_prompt.value.rule is not None and open_prompt.value.rule.id == "prompt"


def test_a_gm_adjust_reads_its_values_as_a_gm_writes_them() -> None:
    """ "GM sets Grunt 1's Status: 'ok' → 'dead'" and "(('cut',), (), ())": Python's own writing of a value."""
    from tracker.events import Adjusted, shown

    assert shown("dead") == "dead" and shown(True) == "yes" and shown(None) == "none" and shown(7) == "7"
    assert shown((("cut",), (), ("shot", "burn"))) == "cut | - | shot, burn"
    from tracker.engine import initial_state

    state = initial_state(toy)
    ev = Adjusted(id="c1", field="status", value="dead", old="ok", label="Status")
    assert ev.describe(state).endswith("Status: ok → dead")
