"""The summary's roll counts add up: every roll counted once in the figures and in at most one combatant's row.

GM audit: a B&B fight with a preset group of 3 outlaws and a PC said "Rolls: 17 — 5 above their expected value, 12
below" while the rows added up to 12: the hit-point rolls of CombatantAdded were counted in the figures but in no
row, and the group's one initiative roll (in each member's InitiativeSet) was counted once per member.
Ruling (``summarize``): a group's shared initiative roll counts once, in the row of the member it is first logged
for; rolls in no row are counted as ``rolls_unowned`` and said so.
"""

from __future__ import annotations

import attrs

from systems.bnb.commands import Attack
from tests.systems.bnb.helpers import new_fight
from tracker import AddCombatant, Fight, RollInitiative, ScriptedRoller, SetInitiative, StartFight
from tracker.commands import Damage, NextTurn
from tracker.events import InitiativeSet
from tracker.replay import Timeline
from tracker.summary import Summary, rolls_text, summarize


def _rows(s: Summary) -> dict[str, tuple[int, int, int]]:
    return {f.name: (f.rolls_above, f.rolls_below, f.rolls_even) for f in s.fighters}


def _adds_up(s: Summary) -> None:
    in_rows = sum(f.rolls_above + f.rolls_below + f.rolls_even for f in s.fighters)
    assert s.rolls == s.rolls_above + s.rolls_below + s.rolls_even
    assert s.rolls == in_rows + s.rolls_unowned, (s.rolls, in_rows, s.rolls_unowned)


def _outlaw_fight() -> Fight:
    """Dusty (PC) and a preset group of 3 outlaws (one AddCombatant), initiative rolled, two attacks.

    Dice: HP 1d6 Dusty 5, outlaws 6, 2, 1; initiative 1d20 Dusty 15, the outlaws' group roll 9;
    Dusty attacks Outlaw 1: 1d20 18, 1d6+2 [2] = 4; Outlaw 1 attacks Dusty: 1d20 3 (a miss).
    """
    f, _dice = new_fight(5, 6, 2, 1, 15, 9, 18, 2, 3)
    f.do(AddCombatant(name="Dusty", kind="pc", sheet={"cls": "Shootist", "level": 1, "weapons": "heavy pistol"}))
    f.do(AddCombatant(name="", kind="npc", preset="outlaw", count=3))
    f.do(RollInitiative())
    f.do(StartFight())
    f.do(Attack(actor="c1", target="c2"))
    f.do(NextTurn())
    f.do(Attack(actor="c2", target="c1"))
    assert _dice.exhausted
    return f


def test_a_group_fight_counts_each_roll_once_and_the_rows_add_up() -> None:
    f = _outlaw_fight()
    inits = [e.event for e in f.entries if isinstance(e.event, InitiativeSet)]
    assert [e.note for e in inits[1:]] == ["group roll for Outlaw"] * 3  # one roll, in three events
    s = summarize(Timeline(f.system, list(f.entries)))
    # 4 HP rolls, 2 initiative rolls (Dusty's, the group's), 3 attack rolls: 9 (it said 11)
    # above: 5, 6, 15, 18; below: 2, 1, 9, 4 (1d6+2), 3
    assert (s.rolls, s.rolls_above, s.rolls_below, s.rolls_even) == (9, 4, 5, 0)
    assert s.rolls_unowned == 0
    assert _rows(s) == {
        "Dusty": (3, 1, 0),  # HP 5, initiative 15, attack 18 above; damage 4 below
        "Outlaw 1": (1, 2, 0),  # HP 6 above; the group's initiative 9 and the attack 3 below
        "Outlaw 2": (0, 1, 0),  # HP 2 (the group's roll is Outlaw 1's)
        "Outlaw 3": (0, 1, 0),  # HP 1
    }
    _adds_up(s)
    assert rolls_text(s) == "Rolls: 9 — 4 above their expected value, 5 below"


def test_hit_points_rolled_as_a_combatant_joins_are_its_own() -> None:
    f = _outlaw_fight()
    joined = 4  # the entries of the two AddCombatant actions: Dusty, then the three outlaws
    s = summarize(Timeline(f.system, list(f.entries)), joined)
    assert s.rolls == 4 and s.rolls_unowned == 0
    assert _rows(s) == {"Dusty": (1, 0, 0), "Outlaw 1": (1, 0, 0), "Outlaw 2": (0, 1, 0), "Outlaw 3": (0, 1, 0)}
    _adds_up(s)


def test_a_group_roll_read_back_from_a_file_counts_once() -> None:
    """A log read back holds equal rolls, not one shared object: still one roll."""
    f = _outlaw_fight()
    entries = [
        e._replace(event=attrs.evolve(e.event, roll=attrs.evolve(e.event.roll)))
        if isinstance(e.event, InitiativeSet) and e.event.roll is not None
        else e
        for e in f.entries
    ]
    rolls = [e.event.roll for e in entries if isinstance(e.event, InitiativeSet)]
    assert rolls[1] == rolls[2] and rolls[1] is not rolls[2]
    s = summarize(Timeline(f.system, entries))
    assert s.rolls == 9 and _rows(s)["Outlaw 2"] == (0, 1, 0)
    _adds_up(s)


def test_two_groups_rolling_the_same_face_are_two_rolls() -> None:
    """Only the one roll a group shares is merged: another group's roll on the same face is a roll of its own."""
    f, dice = new_fight(3, 3, 3, 3, 9, 9)  # HP 1d6 ×4; outlaws 9, rowdies 9
    f.do(AddCombatant(name="", kind="npc", preset="outlaw", count=2))
    f.do(AddCombatant(name="", kind="npc", preset="rowdy", count=2))
    f.do(RollInitiative())
    assert dice.exhausted
    s = summarize(Timeline(f.system, list(f.entries)))
    assert (s.rolls, s.rolls_below) == (6, 6)
    assert _rows(s) == {"Outlaw 1": (0, 2, 0), "Outlaw 2": (0, 1, 0), "Rowdy 1": (0, 2, 0), "Rowdy 2": (0, 1, 0)}
    _adds_up(s)


def test_a_group_rerolled_in_a_later_action_is_a_new_roll() -> None:
    f, dice = new_fight(3, 3, 9, 12)
    f.do(AddCombatant(name="", kind="npc", preset="outlaw", count=2))
    f.do(RollInitiative())  # 9
    f.do(RollInitiative())  # rolled again before the start (12): a roll of its own, again Outlaw 1's
    assert dice.exhausted
    s = summarize(Timeline(f.system, list(f.entries)))
    assert (s.rolls, s.rolls_above, s.rolls_below) == (4, 1, 3)
    assert _rows(s) == {"Outlaw 1": (1, 2, 0), "Outlaw 2": (0, 1, 0)}
    _adds_up(s)


def test_a_roll_of_no_one_is_counted_and_said_so() -> None:
    """The GM's one roll of dynamite for two goblins (quick harm, no actor) is in the figures and in no row."""
    from systems.toy import system

    f = Fight(system, roller=ScriptedRoller([5, 6]))
    f.do(AddCombatant(name="Alice", kind="pc", sheet={"hp": 8}))
    f.do(AddCombatant(name="Goblin", preset="goblin", count=2))
    f.do(SetInitiative(values={"c1": 15, "c2": 12, "c3": 10}))
    f.do(StartFight())
    f.do(Damage(targets=("c2", "c3"), amount="2d6", one_roll=True))
    s = summarize(Timeline(f.system, list(f.entries)))
    assert (s.rolls, s.rolls_above, s.rolls_unowned) == (1, 1, 1)
    assert all(r == (0, 0, 0) for r in _rows(s).values())
    _adds_up(s)
    assert rolls_text(s) == "Rolls: 1 — 1 above their expected value, 0 below; 1 in no combatant's row"


def test_a_tie_rolled_again_gives_each_their_own_roll() -> None:
    """An event pairing ids with rolls (2d6 Gamma's initiative tie) gives each roll to its combatant."""
    from systems.twod6 import system
    from systems.twod6.events import InitiativeTieRolled
    from tests.systems.twod6.helpers import sheet

    roller = ScriptedRoller([2, 3, 4, 1, 6, 6, 1, 1])  # Ann 5, Bob 5: a tie; rolled again Ann 12, Bob 2
    f = Fight(system, roller=roller)
    f.do(AddCombatant(name="Ann", kind="pc", sheet=sheet()))
    f.do(AddCombatant(name="Bob", kind="pc", sheet=sheet()))
    f.do(RollInitiative())
    assert roller.exhausted and any(isinstance(e.event, InitiativeTieRolled) for e in f.entries)
    s = summarize(Timeline(f.system, list(f.entries)))
    assert s.rolls == 4 and s.rolls_unowned == 0
    assert _rows(s) == {"Ann": (1, 1, 0), "Bob": (0, 2, 0)}
    _adds_up(s)


def test_the_gm_s_quick_damage_on_one_is_not_its_own_roll() -> None:
    """bnb's quick damage on one bear (2d6, no attacker) went to the bear's own row, "Rolls 3/0" where it rolled 2:
    the harm event's ``id`` is the one harmed. A roll of no one, as the dynamite above."""
    f, _dice = new_fight(6, 5)
    f.do(AddCombatant(name="Dusty", kind="pc", sheet={"cls": "Shootist", "level": 1, "hp": 8}))
    f.do(AddCombatant(name="Bear", kind="npc", sheet={"hp": 20}))
    f.do(SetInitiative(values={"c1": 15, "c2": 12}))
    f.do(StartFight())
    f.do(Damage(targets=("c2",), amount="2d6"))
    s = summarize(Timeline(f.system, list(f.entries)))
    assert s.rolls == 1 and s.rolls_unowned == 1, (s.rolls, s.rolls_unowned)
    assert _rows(s)["Bear"] == (0, 0, 0), _rows(s)
    _adds_up(s)
