"""2d6 Gamma: sheets, checks with criticals, initiative and the action economy (given / when / then)."""

from __future__ import annotations

from systems.twod6 import system
from systems.twod6.checks import roll_check
from systems.twod6.commands import Act, Aim, Attack, SkillCheck
from systems.twod6.events import ActionTaken, Aimed, AttackRolled, InitiativeTieRolled, SkillChecked
from tests.systems.twod6.helpers import DUMMY, FIGHTER, attack, data, of, refused, setup, sheet
from tracker import Fight
from tracker.commands import ActNow, AddCombatant, Delay, Modifier, NextTurn, RollInitiative, SetInitiative, StartFight
from tracker.dice import ScriptedRoller
from tracker.events import InitiativeSet, OrderSet

# -- sheets ------------------------------------------------------------------


def test_a_stat_outside_minus2_to_plus4_is_refused_and_nothing_logged():
    """Sheets: the eight stats run −2..+4."""
    f = Fight(system, roller=ScriptedRoller())
    f.do(AddCombatant(name="Ok", sheet=sheet(agi=4, tou=-2)))
    refused(f, AddCombatant(name="Hero", sheet=sheet(agi=5)), "outside −2..+4")
    refused(f, AddCombatant(name="Wretch", sheet=sheet(wil=-3)), "every stat starts at −2")


def test_wounds_are_3_plus_toughness_plus_extra_wound():
    """Rule 7: maximum wounds 3 + TOU (even negative), +1 with Extra Wound."""
    f, _ = setup(
        ("Tough", sheet(tou=2, talents="Extra Wound")),
        ("Frail", sheet(tou=-1)),
        ("Plain", sheet()),
    )
    assert (data(f, "c1").max_wounds, data(f, "c1").wounds) == (6, 6)
    assert data(f, "c2").max_wounds == 2
    assert data(f, "c3").max_wounds == 3


def test_sheet_is_checked_and_written_back_in_canonical_form():
    f = Fight(system, roller=ScriptedRoller())
    ev = f.do(
        AddCombatant(
            name="Vex",
            sheet=sheet(
                skills="melee (heavy) 2, shooting 1",
                talents="sneak “attack” (shooting), favored enemy (Goblin)",
                items="Rifle: shooting +1",
                armor="Medium",
            ),
        )
    )
    added = ev[0].sheet
    assert added["skills"] == "Melee (Heavy) 2, Shooting 1"
    assert added["talents"] == "Sneak Attack (Shooting), Favored Enemy (Goblin)"
    assert added["items"] == "Rifle: Shooting +1"
    assert added["armor"] == "medium"
    refused(f, AddCombatant(name="Bad", sheet=sheet(skills="Melee (Heavy)")), "needs its ranks")
    refused(f, AddCombatant(name="Bad", sheet=sheet(items="a sword")), "name: skill +N")
    refused(f, AddCombatant(name="Bad", sheet=sheet(armor="mithril")), "not one of")
    refused(f, AddCombatant(name="Bad", sheet=sheet(talents="Extra Wound, Extra Wound")), "can only be taken once")


def test_armor_bonus_and_penalty_with_and_without_proficiency():
    """Ruling: light +1/−1, medium +2/−2, heavy +3/−3; medium or heavy without Armor Proficiency +1 with the full penalty."""
    f, _ = setup(
        ("Light", sheet(armor="light")),
        ("Medium", sheet(armor="medium", talents="Armor Proficiency")),
        ("Clumsy", sheet(armor="heavy")),
        ("Fine", sheet(armor="heavy", talents="Armor Proficiency", fine_armor=True)),
    )
    got = [(data(f, c).armor_defense, data(f, c).armor_penalty) for c in ("c1", "c2", "c3", "c4")]
    assert got == [(1, -1), (2, -2), (1, -3), (3, -2)]


def test_dual_wield_lets_two_items_modify_one_skill():
    """Sheets: only one item modifies a skill, two with Dual Wield for that skill."""
    items = "Sword: Melee (Light) +1; Dagger: Melee (Light) +1"
    f, roller = setup(
        ("Two", sheet(skills="Melee (Light) 1", items=items, talents="Dual Wield (Melee (Light))")),
        ("One", sheet(skills="Melee (Light) 1", items=items)),
        ("Dummy", DUMMY),
    )
    (ev,) = of(attack(f, roller, (3, 3, 3, 3), "c1", "c3", skill="Melee (Light)", result="shove"), AttackRolled)
    assert ev.attack.total == 6 + 1 + 2
    f.do(NextTurn())
    (ev,) = of(attack(f, roller, (3, 3, 3, 3), "c2", "c3", skill="Melee (Light)", result="shove"), AttackRolled)
    assert ev.attack.total == 6 + 1 + 1


# -- checks ------------------------------------------------------------------


def test_critical_chain_12_then_11_then_5():
    """Ruling: dice showing 11 or 12 count as 11 and roll 2d6 more, repeatedly; every die is logged."""
    check = roll_check(ScriptedRoller([6, 6, 5, 6, 2, 3]), "Ann", (Modifier(label="Melee", value=3),))
    assert check.critical and not check.fumble
    assert check.total == 11 + 11 + 5 + 3
    assert [r.faces for r in (check.dice, *check.chain)] == [(6, 6), (5, 6), (2, 3)]
    assert check.describe() == "2d6 [6,6] critical, counts 11 + 2d6 [5,6] again, counts 11 + 2d6 [2,3] +3 Melee = 30"


def test_a_two_on_the_extra_dice_of_a_critical_just_adds_two():
    """Ruling (ours): only the first dice can be snake eyes."""
    check = roll_check(ScriptedRoller([5, 6, 1, 1]), "Ann")
    assert not check.fumble and check.total == 13


def test_snake_eyes_fail_whatever_the_bonus():
    """Rule 3: snake eyes fail: a +12 attack loses to a +0 defense."""
    f, roller = setup(("Champion", sheet(str=4, skills="Melee (Heavy) 8")), ("Peasant", DUMMY))
    events = attack(f, roller, (1, 1, 1, 2), "c1", "c2")
    (ev,) = of(events, AttackRolled)
    assert ev.attack.fumble and ev.attack.total > ev.defense.total
    assert not ev.hit
    assert data(f, "c2").wounds == 3
    assert "snake eyes: fails" in ev.describe(f.state)


def test_snake_eyes_on_defense_lose_the_defense():
    f, roller = setup(("Ann", DUMMY), ("Bob", sheet(agi=4, skills="Athletics 6")))
    (ev,) = of(attack(f, roller, (1, 2, 1, 1), "c1", "c2", skill="Melee (Unarmed)"), AttackRolled)
    assert ev.hit and data(f, "c2").wounds == 2


def test_both_snake_eyes_go_to_the_defender():
    """Ruling (ours): both sides' snake eyes: the defender wins, as in a tie."""
    f, roller = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    (ev,) = of(attack(f, roller, (1, 1, 1, 1), "c1", "c2"), AttackRolled)
    assert ev.attack.fumble and ev.defense.fumble and not ev.hit and data(f, "c2").wounds == 3


def test_initiative_has_no_criticals():
    """Ruling: criticals apply to attack, defense and resolve, not to initiative."""
    check = roll_check(ScriptedRoller([6, 6]), "init", crits=False)
    assert check.total == 12 and not check.critical


# -- initiative ----------------------------------------------------------------


def test_initiative_is_2d6_plus_per_plus_agi_and_ties_reroll_among_the_tied():
    """Rule 1 / Ruling: ties reroll against each other (logged); the order is kept for later rounds."""
    roller = ScriptedRoller()
    f = Fight(system, roller=roller)
    f.do(AddCombatant(name="Ann", kind="pc", sheet=sheet(per=1, agi=1)))
    f.do(AddCombatant(name="Bob", kind="pc", sheet=sheet(per=2)))
    f.do(AddCombatant(name="Cat", sheet=sheet(agi=-1)))
    f.do(AddCombatant(name="Dan", sheet=sheet()))
    # Ann 5+2=7, Bob 5+2=7, Cat 9-1=8, Dan 7: three-way tie at 7
    roller.add(2, 3, 4, 1, 4, 5, 3, 4)
    # tie reroll: Ann 3+3+2=8, Bob 4+2+2=8, Dan 1+2=3 ; then Ann and Bob again: Ann 6+2, Bob 1+1+2
    roller.add(3, 3, 4, 2, 1, 2)
    roller.add(3, 3, 1, 1)
    events = f.do(RollInitiative())
    assert roller.exhausted
    assert [e.value for e in of(events, InitiativeSet)] == [7, 7, 8, 7]
    ties = of(events, InitiativeTieRolled)
    assert [t.ids for t in ties] == [("c1", "c2", "c4"), ("c1", "c2")]
    assert ties[0].values == (8, 8, 3) and ties[1].values == (8, 4)
    assert "Ann 2d6+2 [3,3] = 8" in ties[0].describe(f.state)
    order = of(events, OrderSet)[0]
    assert order.order == ("c3", "c1", "c2", "c4") and order.ties == ()
    f.do(StartFight())
    for _ in range(5):
        f.do(NextTurn())
    assert f.state.round == 2 and f.state.order == ("c3", "c1", "c2", "c4")
    assert f.state.current == "c1"


def test_surprise_round_unaware_defender_adds_only_armor():
    """Rule 1: in the surprise round the unaware defend with 2d6 + armor alone."""
    roller = ScriptedRoller()
    f = Fight(system, roller=roller)
    f.do(AddCombatant(name="Ambusher", kind="pc", sheet=FIGHTER))
    f.do(AddCombatant(name="Sentry", sheet=sheet(agi=3, skills="Melee (Light) 3", armor="light")))
    f.do(SetInitiative(values={"c1": 5, "c2": 9}))
    f.do(StartFight(surprise=("c1",)))
    assert f.state.round == 0 and f.state.current == "c1"
    (ev,) = of(attack(f, roller, (3, 3, 4, 4), "c1", "c2", result="shove"), AttackRolled)
    assert ev.defense.total == 8 + 1 and ev.defense_skill == "armor only (surprised)"
    assert ev.hit
    f.do(NextTurn())
    assert f.state.round == 1 and f.state.current == "c2"


# -- the action economy ----------------------------------------------------------


def test_an_attack_is_full_round_and_a_second_full_round_action_is_refused():
    """Rule 2: two half-round or one full-round action a turn; attack is full-round."""
    f, roller = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    attack(f, roller, (1, 2, 5, 5), "c1", "c2")
    assert (data(f, "c1").quick, data(f, "c1").half) == (2, 0)
    refused(f, Attack(actor="c1", targets=("c2",)), "one full-round action a turn")
    refused(f, Aim(actor="c1"), "full-round action")
    refused(f, Act(actor="c1", action="move 20 ft"), "no half-round action left")
    f.do(Act(actor="c1", action="draw weapon"))
    f.do(Act(actor="c1", action="speak"))
    refused(f, Act(actor="c1", action="speak"), "no quick action left")


def test_half_round_actions_leave_no_room_for_a_full_round_one():
    f, _ = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    f.do(Act(actor="c1", action="move 20 ft"))
    assert data(f, "c1").half == 1
    refused(f, Attack(actor="c1", targets=("c2",)), "has 1 left")


def test_multiattack_makes_attacks_half_round_two_a_turn():
    """Rule 2: with Multiattack an attack is a half-round action, so two attacks a turn."""
    f, roller = setup(("Ann", sheet(talents="Multiattack", skills="Melee (Light) 1")), ("Bob", DUMMY))
    (ev,) = of(attack(f, roller, (1, 2, 3, 3), "c1", "c2", skill="Melee (Light)"), AttackRolled)
    assert ev.cost == "half"
    attack(f, roller, (1, 2, 3, 3), "c1", "c2", skill="Melee (Light)")
    refused(f, Attack(actor="c1", targets=("c2",), skill="Melee (Light)"), "no half-round action left")


def test_actions_reset_when_the_turn_starts_but_not_when_it_resumes_after_a_held_action():
    """Rule 2: the economy resets on TurnStarted, not when the turn goes on after a held action stepped in."""
    f, roller = setup(("Ann", FIGHTER), ("Bob", FIGHTER))
    f.do(Delay())
    assert f.state.current == "c2"
    attack(f, roller, (1, 2, 3, 3), "c2", "c1")
    assert data(f, "c2").half == 0
    f.do(ActNow(id="c1"))
    assert f.state.current == "c1" and data(f, "c1").half == 2
    attack(f, roller, (1, 2, 3, 3), "c1", "c2")
    f.do(NextTurn())
    assert f.state.current == "c2" and data(f, "c2").half == 0  # resumed: still spent
    f.do(NextTurn())
    assert f.state.round == 2 and f.state.current == "c1" and data(f, "c1").half == 2


def test_only_the_current_combatant_acts():
    """Ruling (ours): actions belong to the combatant whose turn it is."""
    f, _ = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    refused(f, Attack(actor="c2", targets=("c1",)), "it is Ann's turn")


def test_aim_gives_per_min_1_doubled_by_sniper_on_the_next_ranged_check():
    """Rule 2: aim is full-round, +PER (min +1), ×2 with Sniper on shooting, spent on the next ranged check."""
    f, roller = setup(
        ("Sniper", sheet(per=2, dex=1, skills="Shooting 1", talents="Sniper")),
        ("Dull", sheet(per=-1, dex=1, skills="Shooting 1")),
        ("Target", DUMMY),
    )
    (aimed,) = f.do(Aim(actor="c1"))
    assert isinstance(aimed, Aimed) and aimed.bonus == 2 and aimed.sniper and data(f, "c1").half == 0
    assert "+2 on the next ranged check (+4 shooting, archery or throwing: Sniper)" in aimed.describe(f.state)
    f.do(NextTurn())
    (dull,) = f.do(Aim(actor="c2"))
    assert dull.bonus == 1 and not dull.sniper
    f.do(NextTurn())
    f.do(NextTurn())
    (ev,) = of(attack(f, roller, (3, 3, 3, 3), "c1", "c3", skill="Shooting"), AttackRolled)
    assert ev.aim_used == 4 and ev.attack.total == 6 + 1 + 1 + 4
    assert data(f, "c1").aim == 0


def test_aiming_then_attacking_in_melee_with_the_aim_bonus_is_refused():
    """Bad input: the aim bonus is for shooting, archery, throwing, casting… not melee."""
    f, roller = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    f.do(Aim(actor="c1"))
    f.do(NextTurn())
    f.do(NextTurn())
    refused(f, Attack(actor="c1", targets=("c2",), use_aim="yes"), "not Melee (Heavy)")
    # #16: a melee attack neither uses the aim nor spends it
    (ev,) = of(attack(f, roller, (3, 3, 3, 3), "c1", "c2"), AttackRolled)
    assert ev.aim_used == 0 and ev.attack.total == 10 and data(f, "c1").aim == 1


def test_distract_takes_a_half_round_action_from_the_victims_next_turn():
    """Rule 2 / 5: a distracted defender loses a half-round action on its next turn."""
    f, roller = setup(("Ann", FIGHTER), ("Bob", FIGHTER))
    attack(f, roller, (4, 4, 1, 2), "c1", "c2", result="distract")
    assert data(f, "c2").distracted == 1
    f.do(NextTurn())
    assert (data(f, "c2").half, data(f, "c2").distracted) == (1, 0)
    refused(f, Attack(actor="c2", targets=("c1",)), "has 1 left")


def test_graceful_moves_once_a_turn_without_spending_an_action():
    """Ruling (ours): Graceful: the first 20-ft move of a turn costs no action."""
    f, _ = setup(("Ann", sheet(talents="Graceful")), ("Bob", DUMMY))
    (ev,) = f.do(Act(actor="c1", action="move 20 ft"))
    assert isinstance(ev, ActionTaken) and ev.cost == "none" and data(f, "c1").half == 2
    f.do(Act(actor="c1", action="move 20 ft"))
    assert data(f, "c1").half == 1


def test_status_shows_what_the_current_combatant_has_left():
    f, _ = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    f.do(Act(actor="c1", action="move 20 ft"))
    assert system.status(f.state, f.state.get("c1")) == "Wounds 3/3 · 2 quick, 1 half"
    assert "Actions left: 2 quick, 1 half" in system.detail(f.state, f.state.get("c1"))
    assert "quick" not in system.status(f.state, f.state.get("c2"))


def test_a_turn_start_for_someone_not_there_or_not_of_2d6_is_refused_by_the_fold() -> None:
    """The turn's start checks its combatant in the same pass that gives it its actions back: one not in the
    fight is a KeyError, one without a 2d6 record a TypeError; a resumed turn gives nothing back and needs neither."""
    import attrs
    import pytest

    from systems.twod6.evolve import evolve
    from tracker.events import TurnStarted

    f, _roller = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    s = f.state
    with pytest.raises(KeyError):
        evolve(s, TurnStarted(id="c9", index=0))
    odd = attrs.evolve(s, combatants=(attrs.evolve(s.combatants[0], data=None), s.combatants[1]))
    with pytest.raises(TypeError, match="no 2d6 Gamma record"):
        evolve(odd, TurnStarted(id="c1", index=0))
    assert evolve(s, TurnStarted(id="c9", index=0, resumed=True)) == s
    after = evolve(s, TurnStarted(id="c2", index=1))
    assert after.combatants[0] is s.combatants[0] and after.get("c2").data.quick == 2


def test_wounds_the_gm_gives_back_at_0_close_the_check_against_death() -> None:
    """The GM set Bob's wounds from 0 back to 2: "DC 7 resolve check or die (reduced to 0 wounds)" stayed open,
    and resolving it could kill him. It is moot, as a death is once wounds are left."""
    from tracker.commands import Adjust

    f, _roller = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    f.do(Adjust(id="c2", field="wounds", value=0))
    assert [(p.params.get("stakes"), p.combatant) for p in f.state.prompts] == [("death", "c2")]
    f.do(Adjust(id="c2", field="wounds", value=2))
    assert [p for p in f.state.prompts if p.params.get("stakes") == "death"] == []


def test_a_check_reads_the_skill_as_the_sheet_does() -> None:
    """Ruling: a check's skill is read as the sheet reader reads one.  "melee heavy" was refused with "choose the
    stat for melee heavy"; now it is Melee (Heavy); a near miss or a bare "Melee" is refused naming the skill."""
    f, roller = setup(("Kara", sheet(str=1, int=1, skills="Melee (Heavy) 2, Trade (Healing) 1")), ("Bob", DUMMY))
    roller.add(3, 3)
    (e,) = of(f.do(SkillCheck(actor="c1", skill="melee heavy", dc=7)), SkillChecked)
    assert e.skill == "Melee (Heavy)" and e.check.total == 6 + 2 + 1
    assert e.describe(f.state).startswith("Kara Melee (Heavy) check DC 7")
    roller.add(3, 3)
    (e,) = of(f.do(SkillCheck(actor="c1", skill="trade healing", stat="int", dc=7, cost="none")), SkillChecked)
    assert e.skill == "Trade (Healing)" and e.check.total == 6 + 1 + 1  # as the sheet writes it, its rank counted
    refused(f, SkillCheck(actor="c1", skill="Stelth", dc=7, cost="none"), "did you mean Stealth")
    refused(f, SkillCheck(actor="c1", skill="Melee", dc=7, cost="none"), "Melee (Heavy), Melee (Light) or Melee")
    refused(f, SkillCheck(actor="c1", skill="  ", dc=7, cost="none"), "name the skill")
    assert roller.exhausted
