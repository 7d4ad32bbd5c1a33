"""2d6 Gamma: magic in combat, cinematics, the log format, and a whole fight as a story."""

from __future__ import annotations

import json

import saves
from saves.format import Codec
from systems.twod6 import system
from systems.twod6.commands import (
    Act,
    Aim,
    Attack,
    BreakGrapple,
    ChooseDouble,
    Contest,
    Negate,
    Resolve,
    Riposte,
    SkillCheck,
    Sneak,
    SpendCinematic,
)
from systems.twod6.events import (
    EVENT_TYPES,
    AttackRolled,
    CinematicSpent,
    OpposedRolled,
    ResolveRuled,
    Reworked,
    SkillChecked,
)
from systems.twod6.record import Before
from systems.twod6.sheet import Limb
from tests.systems.twod6.helpers import DUMMY, FIGHTER, attack, data, of, refused, set_wounds, setup, sheet
from tracker import Entry
from tracker.commands import (
    AddCombatant,
    Adjust,
    Damage,
    EndFight,
    Heal,
    Modifier,
    NextTurn,
    Note,
    RollInitiative,
    StartFight,
)
from tracker.dice import ScriptedRoller

MAGE = sheet(int=2, skills="Cast 2", talents="Blast, Repel Attack", items="Pendant: Cast +1")


# -- magic ---------------------------------------------------------------------------


def test_blast_is_a_ranged_cast_attack_and_needs_the_spell():
    """Rule 6: Blast is a ranged attack made with Cast (armor hinders casting)."""
    f, roller = setup(("Mage", sheet(int=2, skills="Cast 2", talents="Blast", armor="light")), ("Bob", DUMMY))
    (ev,) = of(attack(f, roller, (3, 3, 1, 2), "c1", "c2", skill="Cast (Blast)"), AttackRolled)
    assert ev.attack.total == 6 + 2 + 2 - 1 and ev.cost == "full"
    f.undo()
    refused(f, Attack(actor="c1", targets=("c2",), skill="Cast (Blast)", result="trip"), "melee result")
    f2, _ = setup(("Muggle", sheet(skills="Cast 2")), ("Bob", DUMMY))
    refused(f2, Attack(actor="c1", targets=("c2",), skill="Cast (Blast)"), "Blast is a spell talent")


def test_fast_caster_makes_a_blast_half_round():
    """Rule 6: Fast Caster makes casting a half-round action."""
    f, roller = setup(("Quick", sheet(skills="Cast 1", talents="Blast, Fast Caster")), ("Bob", sheet(tou=3)))
    (ev,) = of(attack(f, roller, (1, 2, 5, 5), "c1", "c2", skill="Cast (Blast)"), AttackRolled)
    assert ev.cost == "half" and data(f, "c1").half == 1


def test_repel_attack_defends_with_cast_even_against_shooting():
    """Rule 6: Repel Attack defends with Cast, against shooting and archery too."""
    f, roller = setup(("Gun", sheet(dex=2, skills="Shooting 2")), ("Mage", MAGE))
    (ev,) = of(attack(f, roller, (3, 4, 3, 3), "c1", "c2", skill="Shooting"), AttackRolled)
    assert ev.attack.total == 11 and ev.defense_skill == "Cast (Repel Attack)"
    assert ev.defense.total == 6 + 2 + 2 + 1 and not ev.hit


def test_negate_shuts_off_a_caster_until_its_next_turn_ends():
    """Rule 6: Negate (full round, opposed Cast) shuts off another caster's powers for its next turn."""
    f, roller = setup(("Negator", sheet(int=2, skills="Cast 2", talents="Negate")), ("Mage", MAGE), ("Bob", DUMMY))
    roller.add(4, 4, 2, 2)  # 8+4 = 12 vs 4+5 = 9
    (ev,) = f.do(Negate(actor="c1", target="c2"))
    assert isinstance(ev, OpposedRolled) and ev.success and ev.cost == "full"
    assert data(f, "c2").negated
    f.do(NextTurn())
    refused(f, Attack(actor="c2", targets=("c3",), skill="Cast (Blast)"), "negated")
    f.do(NextTurn())
    assert not data(f, "c2").negated


def test_entangle_is_a_grapple_at_range():
    """Rule 6: Entangle: an opposed check that grapples at range."""
    f, roller = setup(("Witch", sheet(skills="Cast 2", talents="Entangle")), ("Bob", DUMMY))
    refused(f, Attack(actor="c1", targets=("c2",), skill="Cast (Entangle)", result="wound"), "its result is grapple")
    attack(f, roller, (4, 4, 2, 3), "c1", "c2", skill="Cast (Entangle)", result="grapple")  # 10 vs 5: doubled
    f.do(ChooseDouble(actor="c1", target="c2", choice="distract"))
    assert data(f, "c2").grappled_by == "c1"


def test_spell_turning_reflects_a_spell_the_defender_doubles():
    """Rule 6: Spell Turning reflects a spell when the defender's Cast doubles the caster's."""
    f, roller = setup(
        ("Mage", sheet(skills="Cast 1", talents="Blast")),
        ("Turner", sheet(int=2, skills="Cast 2", talents="Spell Turning")),
    )
    attack(f, roller, (1, 2, 5, 5), "c1", "c2", skill="Cast (Blast)")  # 4 vs 10 + 4 = 14
    assert [p.id for p in f.state.prompts] == ["turn:c2"]
    refused(f, Riposte(actor="c2", target="c1", result="disarm"), "as it was cast: wound")
    f.do(Riposte(actor="c2", target="c1", result="wound"))
    assert data(f, "c1").wounds == 2


def test_mass_spell_rolls_one_cast_against_each_target():
    """Rule 6: Mass Spell takes several targets; Ruling (ours): one Cast roll against each defense."""
    f, roller = setup(
        ("Mass", sheet(skills="Cast 2", talents="Blast, Mass Spell")), ("A", sheet(tou=3)), ("B", sheet(tou=3))
    )
    events = attack(f, roller, (4, 3, 3, 3, 5, 5), "c1", "c2", "c3", skill="Cast (Blast)")
    a, b = of(events, AttackRolled)
    assert a.attack == b.attack and a.attack.total == 9
    assert (a.hit, b.hit) == (True, False) and (a.cost, b.cost) == ("full", "none")
    f2, _ = setup(("Plain", MAGE), ("A", DUMMY), ("B", DUMMY))
    refused(f2, Attack(actor="c1", targets=("c2", "c3"), skill="Cast (Blast)"), "only a Mass Spell")


# -- cinematics ---------------------------------------------------------------------------


def test_an_extra_turn_does_not_change_the_order():
    """Rule 8: a cinematic extra turn: fresh actions now, the same place in the order."""
    f, roller = setup(("Ann", FIGHTER), ("Hero", sheet(str=1, skills="Melee (Heavy) 1", cinematics=1)))
    order = f.state.order
    attack(f, roller, (1, 2, 5, 5), "c1", "c2")
    (ev,) = f.do(SpendCinematic(actor="c2", use="extra turn"))
    assert isinstance(ev, CinematicSpent) and data(f, "c2").cinematics == 0 and data(f, "c2").extra_turn
    attack(f, roller, (1, 2, 5, 5), "c2", "c1")  # out of turn, thanks to the cinematic
    assert data(f, "c2").half == 0 and f.state.order == order and f.state.current == "c1"
    f.do(NextTurn())
    assert f.state.current == "c2" and data(f, "c2").half == 2 and not data(f, "c2").extra_turn
    assert f.state.order == order


def test_an_extra_turn_spent_before_acting_on_its_own_turn_is_refused():
    """Spent at the start of its own turn, the fresh actions took the place of the turn's own: the second attack
    was refused and the cinematic was gone.  Refused, nothing logged; spent once the turn's actions are used, the
    extra turn gives the second attack."""
    f, roller = setup(("Hero", sheet(str=1, skills="Melee (Heavy) 1", cinematics=1)), ("Ann", FIGHTER))
    assert f.state.current == "c1"
    refused(f, SpendCinematic(actor="c1", use="extra turn"), "still has two half-round actions of this turn")
    assert data(f, "c1").cinematics == 1
    attack(f, roller, (1, 2, 5, 5), "c1", "c2")
    assert data(f, "c1").half == 0
    f.do(SpendCinematic(actor="c1", use="extra turn"))
    attack(f, roller, (1, 2, 5, 5), "c1", "c2")  # the extra turn's attack
    assert data(f, "c1").cinematics == 0 and data(f, "c1").half == 0


def test_spending_a_cinematic_the_combatant_does_not_have_is_refused():
    """Bad input: no cinematic, no spending; nothing logged."""
    f, _ = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    refused(f, SpendCinematic(actor="c1", use="extra turn"), "no cinematic")
    refused(f, Attack(actor="c1", targets=("c2",), auto_critical=True), "no cinematic")


def test_an_automatic_critical_is_declared_before_the_roll():
    """Rule 8: a cinematic for an automatic critical: the first dice count as 11 unrolled, then 2d6 more."""
    f, roller = setup(("Ann", sheet(skills="Melee (Heavy) 1", cinematics=2)), ("Bob", sheet(tou=3)))
    events = attack(f, roller, (3, 2, 4, 4), "c1", "c2", auto_critical=True, result="shove")
    (ev,) = of(events, AttackRolled)
    assert ev.attack.automatic and ev.attack.dice is None and ev.attack.total == 11 + 5 + 1
    assert data(f, "c1").cinematics == 1
    assert ev.attack.describe() == "automatic critical (cinematic) = 11 + 2d6 [3,2] +1 Melee (Heavy) ranks = 17"


def test_a_cinematic_rerolls_a_failed_attack():
    """Rule 8: reroll a failed check (the attacker's last failed attack, against the same defense)."""
    f, roller = setup(("Ann", sheet(str=1, skills="Melee (Heavy) 2", cinematics=1)), ("Bob", sheet(tou=2)))
    (miss,) = of(attack(f, roller, (1, 2, 4, 4), "c1", "c2"), AttackRolled)
    assert not miss.hit
    roller.add(5, 4)
    events = f.do(SpendCinematic(actor="c1", use="reroll"))
    (again,) = of(events, AttackRolled)
    assert again.reroll and again.hit and again.defense == miss.defense and again.cost == "none"
    assert data(f, "c2").wounds == 4 and data(f, "c1").cinematics == 0


def test_a_cinematic_rerolls_a_failed_resolve_check():
    f, roller = setup(("Ann", FIGHTER), ("Bob", sheet(cinematics=1)))
    attack(f, roller, (4, 4, 3, 4), "c1", "c2")
    roller.add(1, 2)
    f.do(Resolve(actor="c2"))
    assert data(f, "c2").unconscious
    roller.add(4, 4)
    f.do(SpendCinematic(actor="c2", use="reroll"))
    assert not data(f, "c2").unconscious


def test_a_reroll_must_come_before_the_combatants_own_next_turn():
    """RULINGS third pass: "the combatant's failed checks since its last turn": a failed check stays open to a
    reroll until that combatant's own next turn starts (another's turn starting closed it)."""
    f, roller = setup(("Ann", sheet(skills="Athletics 1", cinematics=2)), ("Bob", DUMMY))
    roller.add(1, 2)
    (ev,) = f.do(SkillCheck(actor="c1", skill="Athletics", dc=9))
    assert isinstance(ev, SkillChecked) and not ev.passed
    f.do(NextTurn())  # Bob's turn: Ann's failed check still stands
    roller.add(1, 3)
    f.do(SpendCinematic(actor="c1", use="reroll"))  # fails again: a failed check once more
    f.do(NextTurn())  # Ann's own turn starts: her failed checks are behind her
    refused(f, SpendCinematic(actor="c1", use="reroll"), "no failed check to reroll since its last turn")


def test_a_check_failed_after_the_combatants_turn_stays_open_until_its_own_next_turn():
    """The auditor's case: Bob fails his DC 9 resolve check on Ann's turn, after his own last turn; on Carl's turn
    he may still reroll it (it was refused "since its last turn"); when his own turn comes, the window closes."""
    f, roller = setup(("Ann", FIGHTER), ("Carl", DUMMY), ("Bob", sheet(cinematics=2, wil=1, skills="Resolve 1")))
    f.do(Damage(targets=("c3",), amount="2"))  # Bob to 1 wound on Ann's turn: DC 9 resolve
    roller.add(2, 3)
    f.do(Resolve(actor="c3", stakes="unconscious"))  # 5 + 2 = 7: fails, unconscious
    f.do(NextTurn())  # Carl's turn
    roller.add(4, 4)
    f.do(SpendCinematic(actor="c3", use="reroll"))  # 8 + 2 = 10: passes
    assert not data(f, "c3").unconscious
    # a second failure, then Bob's own turn starts: closed
    f, roller = setup(("Ann", FIGHTER), ("Carl", DUMMY), ("Bob", sheet(cinematics=2, wil=1, skills="Resolve 1")))
    f.do(Damage(targets=("c3",), amount="1"))  # to 2 left: DC 7
    roller.add(1, 3)
    f.do(Resolve(actor="c3", stakes="unconscious"))  # 4 + 2 = 6: fails
    f.do(Adjust(id="c3", field="unconscious", value=False))  # the GM wakes him: his turn comes
    f.do(NextTurn())
    f.do(NextTurn())
    assert f.state.current == "c3"
    refused(f, SpendCinematic(actor="c3", use="reroll"), "no failed check to reroll since its last turn")


def test_the_turn_that_starts_gives_its_combatant_fresh_actions_and_closes_only_its_own_rerolls():
    """Folded in one pass: a turn that starts gives its own combatant's actions back, and no one else's; it closes
    that combatant's rerolls, and every lost defense's (rerolled right after its attack), not another's failed
    check."""
    f, roller = setup(("Ann", FIGHTER), ("Bob", sheet(cinematics=1)), ("Cal", FIGHTER))
    attack(f, roller, (4, 4, 3, 4), "c1", "c2")
    roller.add(1, 2)
    f.do(Resolve(actor="c2"))
    assert data(f, "c2").unconscious and data(f, "c2").last_failed is not None and data(f, "c1").half == 0
    assert [x.kind for x in data(f, "c2").failed] == ["defense", "resolve"]
    f.do(NextTurn())  # Bob is out: Cal's turn
    assert f.state.current == "c3" and data(f, "c3").half == 2
    assert [x.kind for x in data(f, "c2").failed] == ["resolve"]  # the lost defense's chance is over
    assert data(f, "c1").half == 0  # Ann's spent actions wait for her own turn


def test_a_cinematic_ignores_a_failed_save_against_death():
    """Rule 8: ignore a failed save against death."""
    f, roller = setup(("Ann", FIGHTER), ("Bob", sheet(cinematics=1)))
    set_wounds(f, "c2", 1)
    attack(f, roller, (4, 4, 3, 4), "c1", "c2")
    roller.add(1, 3)
    f.do(Resolve(actor="c2", stakes="death"))
    assert data(f, "c2").dead
    f.do(SpendCinematic(actor="c2", use="ignore death"))
    assert not data(f, "c2").dead and data(f, "c2").unconscious
    refused(f, SpendCinematic(actor="c1", use="ignore death"), "no cinematic")


def test_skill_checks_use_the_aim_where_it_fits():
    f, roller = setup(("Ann", sheet(per=2, skills="Athletics 1")), ("Bob", DUMMY))
    f.do(Aim(actor="c1"))
    f.do(NextTurn())
    f.do(NextTurn())
    refused(f, SkillCheck(actor="c1", skill="Notice", dc=7, use_aim=True, stat="per"), "not Notice")
    roller.add(3, 3)
    (ev,) = f.do(SkillCheck(actor="c1", skill="Athletics", dc=9, use_aim=True))
    assert Modifier(label="aim", value=2) in ev.check.parts and ev.passed
    assert data(f, "c1").aim == 0  # the check that took the aim's bonus spent it


# -- the log ---------------------------------------------------------------------------------


def _all_events():
    """Play a little of everything and collect one event of each of the system's types."""
    f, roller = setup(("Ann", sheet(str=1, skills="Melee (Heavy) 2", cinematics=3)), ("Bob", MAGE), ("Cat", DUMMY))
    attack(f, roller, (5, 4, 3, 3), "c1", "c3", result="disarm")
    f.do(ChooseDouble(actor="c1", target="c3", choice="wound"))
    roller.add(3, 3)
    f.do(Resolve(actor="c3"))
    f.do(SpendCinematic(actor="c1", use="extra turn"))
    f.do(Aim(actor="c1"))
    f.do(Act(actor="c1", action="speak"))
    f.do(NextTurn())
    roller.add(2, 2, 1, 1)
    f.do(Sneak(actor="c2", targets=("c1",)))
    roller.add(1, 1)
    f.do(SkillCheck(actor="c2", skill="Athletics", dc=7))
    f.do(Heal(targets=("c3",), amount="1"))
    roller.add(3, 3, 2, 2)
    f.do(Contest(actor="c2", target="c1", skill="Cast", cost="none"))  # an opposed check (test_contest.py)
    other = ScriptedRoller([3, 3, 3, 3, 2, 2, 4, 4, 1, 1])
    g_events = system.roll_initiative(f.state, ("c1", "c2", "c3"), other)
    ruled = ResolveRuled(actor="c3", dc=7, stakes="death", passed=False)  # a resolve check settled by ruling
    # a lost defense rerolled takes the outcome back (played in test_reroll_defense.py)
    reworked = Reworked(
        target="c3", by="c1", before=Before(wounds=3, prone=True, limbs=(Limb(name="arm", penalty=-2),))
    )
    return [e.event for e in f.entries] + g_events + [ruled, reworked]


def test_every_event_type_round_trips_through_the_save_format():
    events = _all_events()
    seen = {type(e) for e in events}
    assert set(EVENT_TYPES) <= seen, set(EVENT_TYPES) - seen
    codec = Codec(system)
    for ev in events:
        back = codec.decode(json.loads(codec.encode(Entry(1, 1, ev))), 2)
        assert back.event == ev


# -- the story ----------------------------------------------------------------------------


def test_story_a_whole_fight_replays_from_its_saved_log(tmp_path):
    """Story: Ser Ada (longsword) and Pell (pistol, sniper) against a Goblin Raider and a Hedge Mage."""
    roller = ScriptedRoller()
    path = tmp_path / "fight.jsonl"
    fight = saves.new_fight(system, path, seed=1, roller=roller)
    fight.do(AddCombatant(name="Ser Ada", kind="pc", preset="longsword", sheet={"cinematics": 1}))
    fight.do(
        AddCombatant(
            name="Pell",
            kind="pc",
            sheet=sheet(dex=2, per=2, skills="Shooting 2, Resolve 1", talents="Sniper", items="Pistol: Shooting +1"),
        )
    )
    fight.do(AddCombatant(name="Gob", preset="goblin"))
    fight.do(AddCombatant(name="Mage", preset="mage"))
    roller.add(3, 4, 2, 4, 3, 3, 1, 2)  # Ada 7, Pell 8, Gob 6+3 = 9, Mage 3
    fight.do(RollInitiative())
    assert fight.state.order == ("c3", "c2", "c1", "c4")
    fight.do(StartFight())
    # round 1: the goblin shoots Pell with its bow
    attack(fight, roller, (2, 3, 4, 4), "c3", "c2", skill="Archery")  # 5+1+1 = 7 vs 8: defended
    fight.do(NextTurn())
    fight.do(Aim(actor="c2"))  # +4 with Sniper
    fight.do(NextTurn())
    attack(fight, roller, (6, 6, 6, 5, 3, 3, 1, 2), "c1", "c4")  # 11 + 11 + 6 + 4 = 32 vs 3 + 5: tripled
    fight.do(ChooseDouble(actor="c1", target="c4", choice="wound"))
    roller.add(4, 4)
    fight.do(Resolve(actor="c4", stakes="death"))  # 8 + 1 + 1 = 10: lives, unconscious
    fight.do(NextTurn())  # the mage is out: round 2, the goblin
    assert fight.state.round == 2 and fight.state.current == "c3"
    attack(fight, roller, (1, 1, 3, 3), "c3", "c1", skill="Melee (Light)")  # snake eyes
    fight.do(NextTurn())
    attack(fight, roller, (4, 4, 2, 2), "c2", "c3", skill="Shooting")  # 8+2+2+1+4 = 17 vs 4+1: tripled
    fight.do(ChooseDouble(actor="c2", target="c3", choice="wound"))  # 2 -> 0: one death check
    roller.add(1, 1)
    fight.do(Resolve(actor="c3", stakes="death"))
    assert data(fight, "c3").dead
    fight.do(SpendCinematic(actor="c1", use="extra turn"))
    fight.do(Note(text="The mage surrenders"))
    fight.do(EndFight(note="the road is clear"))
    live = fight.state
    fight.close()
    loaded = saves.load(path)
    assert loaded.fight().state == live
    assert live.get("c4").data.unconscious and not live.get("c4").data.dead
    assert live.get("c1").data.cinematics == 0


# -- cinematic rerolls of opposed checks (audit) ------------------------------------------------


def test_a_cinematic_rerolls_a_failed_stealth_check_against_each_notice_it_lost_to():
    """Rule 8: reroll a failed check — Stealth too.  Ruling (ours): the one Stealth roll is rerolled and
    compared with each Notice it lost to (the watchers do not roll again); the reroll costs no action."""
    f, roller = setup(
        ("Pell", sheet(agi=1, skills="Stealth 2", cinematics=1)),
        ("Guard", sheet(per=1, skills="Notice 1")),
        ("Dog", sheet(per=2)),
        ("Cat", DUMMY),
    )
    roller.add(2, 3, 4, 4, 4, 4, 1, 2)  # Stealth 5 + 3 = 8 vs Guard 10, Dog 10, Cat 3
    first = f.do(Sneak(actor="c1", targets=("c2", "c3", "c4")))
    assert [e.success for e in first] == [False, False, True]
    assert data(f, "c1").hidden_from == ("c4",) and data(f, "c1").half == 1
    before = f.state
    roller.add(5, 4)  # 9 + 3 = 12: beats both Notices kept from the first roll
    events = f.do(SpendCinematic(actor="c1", use="reroll"))
    assert roller.exhausted
    assert isinstance(events[0], CinematicSpent) and events[0].use == "reroll the failed Stealth check"
    again = of(events, OpposedRolled)
    assert [(e.target, e.success, e.reroll, e.cost) for e in again] == [
        ("c2", True, True, "none"),
        ("c3", True, True, "none"),
    ]
    assert [e.opposing for e in again] == [first[0].opposing, first[1].opposing]
    assert "(cinematic reroll)" in again[0].describe(before)
    d = data(f, "c1")
    assert set(d.hidden_from) == {"c2", "c3", "c4"} and d.cinematics == 0 and d.half == 1
    refused(f, SpendCinematic(actor="c1", use="reroll"), "no cinematic")
    f.undo()
    assert f.state == before


def test_a_cinematic_rerolls_a_failed_attempt_to_break_a_grapple():
    """Rule 8: reroll a failed check — breaking a grapple (Melee (Unarmed) vs the grappler's)."""
    wrestler = sheet(str=1, skills="Melee (Unarmed) 2", cinematics=1)
    f, roller = setup(("Ann", wrestler), ("Bob", wrestler))
    attack(f, roller, (4, 4, 1, 2), "c1", "c2", skill="Melee (Unarmed)", result="grapple")
    f.do(NextTurn())
    roller.add(1, 3, 4, 4)  # 4 + 3 = 7 vs 8 + 3 = 11: still held
    f.do(BreakGrapple(actor="c2"))
    assert data(f, "c2").grappled_by == "c1"
    roller.add(6, 5, 2, 1)  # critical: 11 + 3 more + 3 = 17 beats 11
    events = f.do(SpendCinematic(actor="c2", use="reroll"))
    assert of(events, OpposedRolled)[0].success
    assert data(f, "c2").grappled_by is None and data(f, "c1").grappling is None


def test_a_reroll_to_break_a_grapple_already_let_go_is_refused():
    """Ruling (ours): nothing to reroll once the grappler has let go; nothing is logged."""
    wrestler = sheet(str=1, skills="Melee (Unarmed) 2", cinematics=1)
    f, roller = setup(("Ann", wrestler), ("Bob", wrestler))
    attack(f, roller, (4, 4, 1, 2), "c1", "c2", skill="Melee (Unarmed)", result="grapple")
    f.do(NextTurn())
    roller.add(1, 3, 4, 4)
    f.do(BreakGrapple(actor="c2"))
    f.do(Adjust(id="c2", field="grappled_by", value=""))
    refused(f, SpendCinematic(actor="c2", use="reroll"), "no longer held")


def test_a_cinematic_rerolls_a_failed_negate():
    """Rule 8 with rule 6: a failed Negate (opposed Cast) can be rerolled; success shuts the target off."""
    f, roller = setup(("Nix", sheet(int=2, skills="Cast 2", talents="Negate", cinematics=1)), ("Bob", MAGE))
    roller.add(1, 2, 4, 4)  # 3 + 4 = 7 vs 8 + 5 = 13
    f.do(Negate(actor="c1", target="c2"))
    assert not data(f, "c2").negated
    roller.add(6, 6, 6, 4)  # 11 + 10 + 4 = 25
    f.do(SpendCinematic(actor="c1", use="reroll"))
    assert data(f, "c2").negated


def test_a_reroll_of_an_attack_on_a_target_dead_since_is_refused():
    """Ruling (ours): no reroll of a failed attack once its target has died; no cinematic is spent."""
    f, roller = setup(("Ann", sheet(str=1, skills="Melee (Heavy) 2", cinematics=1)), ("Bob", DUMMY))
    attack(f, roller, (1, 2, 4, 4), "c1", "c2")
    f.do(Adjust(id="c2", field="dead", value=True))
    refused(f, SpendCinematic(actor="c1", use="reroll"), "already dead")
    assert data(f, "c1").cinematics == 1


def test_a_mass_spell_cannot_entangle_several_foes():
    """Ruling (ours): Entangle is a grapple and a grapple holds one foe; nothing is logged."""
    f, _ = setup(("Witch", sheet(skills="Cast 2", talents="Entangle, Mass Spell")), ("A", DUMMY), ("B", DUMMY))
    refused(f, Attack(actor="c1", targets=("c2", "c3"), skill="Cast (Entangle)", result="grapple"), "holds one foe")


def test_a_victim_freed_by_the_gm_from_another_hold_leaves_the_new_grapple_alone():
    """Freeing someone clears the holder's grapple only if the holder still holds that someone."""
    wrestler = sheet(str=1, skills="Melee (Unarmed) 2")
    f, roller = setup(("Ann", wrestler), ("Bob", wrestler), ("Cat", wrestler))
    attack(f, roller, (4, 4, 1, 2), "c1", "c2", skill="Melee (Unarmed)", result="grapple")
    f.do(Adjust(id="c3", field="grappled_by", value="c1"))  # Ann now holds Cat; Bob is let go
    assert data(f, "c1").grappling == "c3" and data(f, "c2").grappled_by is None
    f.do(Adjust(id="c3", field="grappled_by", value=""))
    assert data(f, "c1").grappling is None and data(f, "c3").grappled_by is None


def test_an_entangled_foe_breaks_free_against_the_caster_s_cast_and_the_caster_may_cast():
    """Ruling on @26497 (Entangle, a grapple at range made with Cast): the foe broke free against the caster's
    Melee (Unarmed), a bare 2d6, and the caster was refused all casting as "in a grapple"."""
    from systems.twod6.commands import Attack, BreakGrapple

    f, roller = setup(("Mage", sheet(int=2, skills="Cast 2", talents="Entangle, Blast")), ("Bob", DUMMY), ("Cy", DUMMY))
    roller.add(2, 2, 3, 3)  # 4 + 4 = 8 vs 6: a hit
    f.do(Attack(actor="c1", targets=("c2",), skill="Cast (Entangle)", result="grapple"))
    assert data(f, "c2").grappled_by == "c1" and data(f, "c2").entangled
    assert "entangled" in f.system.status(f.state, f.state.get("c2"))
    assert "entangled by Mage" in f.system.detail(f.state, f.state.get("c2"))
    f.do(NextTurn())  # Bob's turn
    roller.add(3, 3, 3, 3)
    (ev,) = [e for e in f.do(BreakGrapple(actor="c2")) if type(e).__name__ == "OpposedRolled"]
    assert ev.opposing.total == 6 + 2 + 2, ev.describe(f.state)  # 2d6 + Cast 2 + INT 2: the hold stands
    assert data(f, "c2").grappled_by == "c1"
    f.do(NextTurn())
    f.do(NextTurn())  # the Mage again
    roller.add(5, 5, 1, 2)
    f.do(Attack(actor="c1", targets=("c3",), skill="Cast (Blast)"))  # refused before: "in a grapple"


def test_a_cast_sub_skill_named_for_the_spell_gives_it_its_ranks():
    """Ruling: "Cast (Blast) 2" (Cast divided into sub-skills, as the book allows) counted 0 for a Blast: only
    plain Cast was read. The sub-skill named for the spell gives its ranks; plain Cast still counts for any."""
    f, roller = setup(("Mage", sheet(int=2, skills="Cast (Blast) 2", talents="Blast")), ("Bob", DUMMY))
    (ev,) = of(attack(f, roller, (3, 3, 1, 2), "c1", "c2", skill="Cast (Blast)"), AttackRolled)
    said = ev.describe(f.state)
    assert "+2 Cast (Blast) ranks" in said, said
    f2, roller2 = setup(("Mage", sheet(int=2, skills="Cast 1", talents="Blast")), ("Bob", DUMMY))
    (ev2,) = of(attack(f2, roller2, (3, 3, 1, 2), "c1", "c2", skill="Cast (Blast)"), AttackRolled)
    assert "+1 Cast ranks" in ev2.describe(f2.state)


def test_a_perform_sub_skill_counts_for_a_perform_defense():
    """Ruling (rules/common.py perform_ranks): "Perform (Dance) 1" (Perform divided by subject, as the sheet allows)
    counted 0 for a Perform defense ("certain perform checks"), and "auto" never weighed it. Its ranks count now;
    plain Perform's still count first."""
    f, roller = setup(
        ("Bob", sheet(str=1, skills="Melee (Heavy) 1")), ("Dancer", sheet(agi=1, skills="Perform (Dance) 3"))
    )
    (ev,) = of(attack(f, roller, (3, 3, 3, 3), "c1", "c2", defense="Perform"), AttackRolled)
    said = ev.describe(f.state)
    assert "+3 Perform (Dance) ranks" in said, said
    f2, roller2 = setup(
        ("Bob", sheet(str=1, skills="Melee (Heavy) 1")), ("Dancer", sheet(agi=1, skills="Perform (Dance) 3"))
    )
    (auto,) = of(attack(f2, roller2, (3, 3, 3, 3), "c1", "c2"), AttackRolled)
    assert "Perform (Dance) ranks" in auto.describe(f2.state), auto.describe(f2.state)
