"""2d6 Gamma: attack vs defense, declared results, doubling and tripling, wounds and resolve prompts."""

from __future__ import annotations

import attrs

from systems.twod6.commands import Act, Aim, Attack, BreakGrapple, ChooseDouble, Resolve, Riposte, Sneak
from systems.twod6.events import AttackRolled, EffectApplied, ResolveRolled, Wounded
from systems.twod6.rules.attacks import double_prompt
from tests.systems.twod6.helpers import DUMMY, FIGHTER, attack, data, of, prompts, refused, set_wounds, setup, sheet
from tracker.commands import Adjust, Modifier, NextTurn
from tracker.events import PromptRaised, PromptResolved

KNIFE = sheet(agi=1, skills="Melee (Light) 1", items="Well-made Knife: Melee (Light) +1", armor="light")
LONGSWORD = sheet(str=1, skills="Melee (Heavy) 2", items="Ancestral Longsword: Melee (Heavy) +1")


# -- attack vs defense -----------------------------------------------------------


def test_book_example_longsword_11_beats_knife_10():
    """The book's worked example: 2d6 (7) + 2 + 1 + 1 = 11 against 2d6 (7) + 1 + 1 + 1 + 1 = 10: the attacker wins.

    Ruling: leather armor's +1 defense and its −1 on melee checks both count on the knife parry,
    which is how the book's defender sums to 10.
    """
    f, roller = setup(("Attacker", LONGSWORD), ("Defender", KNIFE))
    (ev,) = of(attack(f, roller, (3, 4, 3, 4), "c1", "c2"), AttackRolled)
    assert (ev.attack.total, ev.defense.total) == (11, 10)
    assert ev.defense_skill == "Melee (Light)"
    assert ev.hit and ev.times == 1
    assert data(f, "c2").wounds == 2


def test_a_tie_goes_to_the_defender():
    """Rule 4: in combat a tie goes to the defender."""
    f, roller = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    (ev,) = of(attack(f, roller, (3, 3, 5, 5), "c1", "c2"), AttackRolled)
    assert ev.attack.total == ev.defense.total == 10
    assert not ev.hit and data(f, "c2").wounds == 3
    assert "tie goes to the defender" in ev.describe(f.state)


def test_shooting_is_defended_by_2d6_plus_armor_alone():
    """Rule 4: shooting and archery are defended only by 2d6 + armor (no skill, no stat)."""
    f, roller = setup(
        ("Gun", sheet(dex=2, skills="Shooting 2", items="Rifle: Shooting +1")),
        ("Duelist", sheet(agi=3, skills="Melee (Light) 3, Athletics 3", armor="light")),
    )
    (ev,) = of(attack(f, roller, (3, 3, 4, 4), "c1", "c2", skill="Shooting"), AttackRolled)
    assert ev.attack.total == 11 and ev.defense.total == 9 and ev.defense_skill == "armor only"
    f.undo()
    refused(f, Attack(actor="c1", targets=("c2",), skill="Shooting", defense="Athletics"), "except by magic")


def test_moving_or_covered_target_gives_minus_1_or_2_to_shooting_only():
    """Ruling: the GM may give −1 or −2 to shooting and archery at a moving or partly covered target."""
    f, roller = setup(("Archer", sheet(dex=1, skills="Archery 1")), ("Bob", DUMMY))
    (ev,) = of(attack(f, roller, (4, 4, 1, 2), "c1", "c2", skill="Archery", cover=2), AttackRolled)
    assert Modifier(label="moving/cover", value=-2) in ev.attack.parts and ev.attack.total == 8
    f.undo()
    refused(f, Attack(actor="c1", targets=("c2",), cover=1), "for shooting and archery")


def test_armor_penalises_melee_attacks_and_athletics_defense():
    """Rule 4: heavy armor +3 defense, −3 to melee attacks and to athletics."""
    plate = sheet(str=2, skills="Melee (Heavy) 2, Athletics 2", talents="Armor Proficiency", armor="heavy")
    f, roller = setup(("Knight", plate), ("Knight 2", plate))
    (ev,) = of(attack(f, roller, (3, 3, 3, 3), "c1", "c2", defense="Athletics", result="shove"), AttackRolled)
    assert ev.attack.total == 6 + 2 + 2 - 3
    assert ev.defense.total == 6 + 2 + 2 - 3 + 3


def test_prone_minus_2_on_melee_plus_2_to_trip_and_standing_up_is_half_round():
    """Rule 5: trip leaves the defender prone: −2 on melee checks, except +2 to trip."""
    f, roller = setup(("Ann", FIGHTER), ("Bob", FIGHTER))
    attack(f, roller, (5, 5, 1, 3), "c1", "c2", result="trip")  # 14 vs 8
    assert data(f, "c2").prone
    f.do(NextTurn())
    (ev,) = of(attack(f, roller, (3, 3, 3, 3), "c2", "c1", result="wound"), AttackRolled)
    assert Modifier(label="prone", value=-2) in ev.attack.parts
    f.undo()
    (ev,) = of(attack(f, roller, (3, 3, 3, 3), "c2", "c1", result="trip"), AttackRolled)
    assert Modifier(label="prone, tripping", value=2) in ev.attack.parts
    f.undo()
    f.do(Act(actor="c2", action="stand up"))
    assert not data(f, "c2").prone and data(f, "c2").half == 1
    refused(f, Act(actor="c2", action="stand up"), "not prone")


def test_an_unconscious_defender_gets_minus_3_and_no_bonus_at_all():
    """Rule 7: unconscious: −3 and no bonus at all on defense, armor included."""
    f, roller = setup(("Ann", FIGHTER), ("Bob", sheet(agi=3, skills="Athletics 3", armor="light")))
    f.do(Adjust(id="c2", field="unconscious", value=True))
    (ev,) = of(attack(f, roller, (1, 2, 4, 4), "c1", "c2", result="shove"), AttackRolled)
    assert ev.defense.total == 8 - 3 and ev.defense.parts == (Modifier(label="unconscious", value=-3),)


def test_a_disabled_limb_penalises_the_defense_too():
    """Ruling (ours): a useless limb's −2/−3 counts on attack and defense unless the GM unticks it."""
    f, roller = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    attack(f, roller, (5, 5, 2, 3), "c1", "c2", result="shove")  # 14 vs 5: doubled
    f.do(ChooseDouble(actor="c1", target="c2", choice="limb", limb="left leg", penalty=-3))
    assert [(x.name, x.penalty) for x in data(f, "c2").limbs] == [("left leg", -3)]
    assert data(f, "c2").wounds == 2
    roller.add(4, 3)
    f.do(Resolve(actor="c2"))
    f.do(NextTurn())
    f.do(NextTurn())
    (ev,) = of(attack(f, roller, (1, 2, 3, 3), "c1", "c2", result="shove"), AttackRolled)
    assert Modifier(label="disabled limb", value=-3) in ev.defense.parts and ev.defense.total == 3


def test_results_that_only_melee_can_give_and_grapple_only_unarmed():
    """Rule 5: knock out, trip, shove and grapple are melee results; grapple only with Melee (Unarmed)."""
    f, _ = setup(("Gun", sheet(skills="Shooting 1, Melee (Heavy) 1")), ("Bob", DUMMY))
    refused(f, Attack(actor="c1", targets=("c2",), skill="Shooting", result="trip"), "melee result")
    refused(f, Attack(actor="c1", targets=("c2",), skill="Melee (Heavy)", result="grapple"), "Melee (Unarmed)")


def test_grapple_restricts_both_and_can_be_broken():
    """Rule 5: a grappled character can only speak, attack with Melee (Unarmed) or try to break the grapple."""
    wrestler = sheet(str=2, skills="Melee (Unarmed) 2, Melee (Heavy) 1, Shooting 1")
    f, roller = setup(("Ann", wrestler), ("Bob", wrestler))
    attack(f, roller, (4, 4, 1, 2), "c1", "c2", skill="Melee (Unarmed)", result="grapple")  # 12 vs 7
    assert data(f, "c2").grappled_by == "c1" and data(f, "c1").grappling == "c2"
    f.do(NextTurn())
    refused(f, Attack(actor="c2", targets=("c1",), skill="Melee (Heavy)"), "in a grapple")
    refused(f, Aim(actor="c2"), "in a grapple")
    refused(f, Act(actor="c2", action="move 20 ft"), "in a grapple")
    f.do(Act(actor="c2", action="speak", note="Let go!"))
    roller.add(5, 5, 1, 2)
    f.do(BreakGrapple(actor="c2"))
    assert data(f, "c2").grappled_by is None and data(f, "c1").grappling is None
    assert data(f, "c2").half == 0


def test_disarmed_needs_a_weapon_before_a_weapon_attack():
    f, roller = setup(("Ann", FIGHTER), ("Bob", FIGHTER))
    attack(f, roller, (4, 4, 1, 2), "c1", "c2", result="disarm")
    assert data(f, "c2").disarmed
    f.do(NextTurn())
    refused(f, Attack(actor="c2", targets=("c1",)), "disarmed")
    f.do(Act(actor="c2", action="draw weapon"))
    assert not data(f, "c2").disarmed and data(f, "c2").quick == 1


def test_stealth_before_an_attack_leaves_armor_only_and_sneak_attack_adds_1():
    """Rule 5: Stealth vs Notice first; the defender adds only armor; Sneak "Attack" +1."""
    f, roller = setup(
        ("Shade", sheet(agi=2, skills="Stealth 2, Melee (Light) 1", talents="Sneak Attack")),
        ("Guard", sheet(per=1, agi=2, skills="Notice 1, Melee (Light) 3", armor="light")),
    )
    roller.add(3, 4, 2, 3)  # stealth 7+4=11 vs notice 5+2=7
    f.do(Sneak(actor="c1", targets=("c2",)))
    assert data(f, "c1").hidden_from == ("c2",) and data(f, "c1").half == 1
    f.do(NextTurn())
    f.do(NextTurn())
    (ev,) = of(attack(f, roller, (3, 3, 4, 4), "c1", "c2", skill="Melee (Light)", result="shove"), AttackRolled)
    assert Modifier(label="sneak attack", value=1) in ev.attack.parts
    assert ev.attack.total == 6 + 1 + 2 + 1
    assert ev.defense.total == 8 + 1 and "stealth" in ev.defense_skill
    assert data(f, "c1").hidden_from == ()


def test_improvised_minus_2_unless_improvisation_and_favored_enemy_plus_1():
    f, roller = setup(
        ("Brawler", sheet(skills="Melee (Heavy) 1", talents="Favored Enemy (Goblin)")),
        ("Gob", sheet(race="Goblin")),
    )
    (ev,) = of(attack(f, roller, (3, 3, 3, 4), "c1", "c2", improvised=True, result="shove"), AttackRolled)
    assert Modifier(label="improvised", value=-2) in ev.attack.parts
    assert Modifier(label="favored enemy", value=1) in ev.attack.parts
    assert ev.attack.total == 6 + 1 - 2 + 1


# -- declared results, doubling, tripling ----------------------------------------------


def test_a_doubled_attack_asks_for_a_second_result_and_two_wounds_can_be_chosen():
    """Rule 5: attack ≥ 2× defense: a second result chosen after the roll (or two wounds)."""
    f, roller = setup(("Ann", FIGHTER), ("Bob", sheet(tou=2)))
    events = attack(f, roller, (5, 5, 2, 3), "c1", "c2")  # 14 vs 5
    assert prompts(f) == [("double", "c2")] and data(f, "c2").wounds == 4  # the declared wound has landed
    text = f.state.prompts[0].text
    assert "Ann doubled Bob's defense and 'wound' has landed" in text and "useless limb" in text
    assert [type(e).__name__ for e in events] == ["AttackRolled", "Wounded", "PromptRaised"]
    refused(f, NextTurn(), "resolve first")
    refused(f, ChooseDouble(actor="c1", target="c2", choice="grapple"), "Melee (Unarmed)")
    events = f.do(ChooseDouble(actor="c1", target="c2", choice="wound"))
    assert of(events, Wounded)[0].wounds == 1 and data(f, "c2").wounds == 3
    assert prompts(f) == []


def test_doubled_two_different_results_land_but_not_the_same_one_twice():
    f, roller = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    attack(f, roller, (5, 5, 2, 3), "c1", "c2", result="disarm")
    refused(f, ChooseDouble(actor="c1", target="c2", choice="disarm"), "only wounds can be taken twice")
    f.do(ChooseDouble(actor="c1", target="c2", choice="trip"))
    assert data(f, "c2").disarmed and data(f, "c2").prone and data(f, "c2").wounds == 3


def test_doubled_a_limb_comes_with_one_wound():
    """Rule 5: "an attacker who doubles a defender's roll can incapacitate one of the defender's limbs ...
    This renders the limb useless and deals the defender a wound."  The declared result has landed already
    (#16); ruling (ours): when it was a wound, that wound is the limb's."""
    f, roller = setup(("Ann", FIGHTER), ("Bob", sheet(tou=2, skills="Melee (Heavy) 1")), ("Cat", sheet(tou=2)))
    attack(f, roller, (5, 5, 2, 3), "c1", "c2", result="disarm")  # 14 vs 6
    assert data(f, "c2").disarmed and data(f, "c2").wounds == 5
    f.do(ChooseDouble(actor="c1", target="c2", choice="limb", limb="sword arm", penalty=-2))
    bob = data(f, "c2")
    assert bob.wounds == 4 and bob.disarmed and bob.limb_penalty == -2
    f.do(NextTurn())
    f.do(Act(actor="c2", action="draw weapon"))
    (ev,) = of(attack(f, roller, (3, 3, 3, 3), "c2", "c1", result="shove"), AttackRolled)
    assert Modifier(label="disabled limb", value=-2) in ev.attack.parts
    assert Modifier(label="disabled limb", value=-2) not in ev.defense.parts
    f.undo()
    (ev,) = of(attack(f, roller, (3, 3, 3, 3), "c2", "c1", result="shove", limb_penalty=False), AttackRolled)
    assert all(p.label != "disabled limb" for p in ev.attack.parts)
    # declared wound, then the limb: one wound in all
    f.do(NextTurn())
    f.do(NextTurn())
    attack(f, roller, (5, 5, 2, 3), "c1", "c3")
    f.do(ChooseDouble(actor="c1", target="c3", choice="limb", limb="leg", penalty=-3))
    assert data(f, "c3").wounds == 4 and data(f, "c3").limb_penalty == -3


def test_a_tripled_attack_knocks_out_and_calls_for_a_dc7_death_check():
    """Rule 5: attack ≥ 3× defense: as doubled, and DC 7 resolve or die, unconscious either way."""
    f, roller = setup(("Ann", FIGHTER), ("Bob", sheet(wil=1, tou=1, skills="Resolve 1")))
    events = attack(f, roller, (6, 6, 3, 3, 1, 2), "c1", "c2")  # 11+6+4 = 21 vs 3
    (ev,) = of(events, AttackRolled)
    assert ev.times == 3 and "TRIPLED" in ev.describe(f.state)
    assert data(f, "c2").wounds == 3 and not data(f, "c2").dead  # the declared wound, at once
    assert not data(f, "c2").unconscious  # #16: the death check comes first
    assert prompts(f) == [("double", "c2"), ("death", "c2")]
    f.do(ChooseDouble(actor="c1", target="c2", choice="wound"))
    assert data(f, "c2").wounds == 2 and prompts(f) == [("death", "c2")]  # no unconsciousness check: out anyway
    roller.add(2, 2)  # 4 + 1 + 1 = 6 < 7
    events = f.do(Resolve(actor="c2", stakes="death"))
    (rr,) = of(events, ResolveRolled)
    assert not rr.passed and rr.check.total == 6
    assert data(f, "c2").dead and prompts(f) == []


def test_tripled_then_passing_the_death_check_leaves_the_defender_unconscious():
    f, roller = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    attack(f, roller, (6, 6, 3, 3, 1, 2), "c1", "c2", result="shove")
    f.do(ChooseDouble(actor="c1", target="c2", choice="trip"))
    roller.add(4, 3)
    f.do(Resolve(actor="c2", stakes="death"))
    assert data(f, "c2").unconscious and not data(f, "c2").dead
    assert not f.state.get("c2").data.dead
    f.do(NextTurn())
    assert f.state.current == "c1" and f.state.round == 2  # Bob is skipped


def test_a_limb_taken_on_a_tripled_attack_is_logged_tripled():
    """Ruling: a limb chosen on a tripled attack is logged "(tripled)", on a doubled one "(doubled)"; a prompt of an
    older file (no ratio kept) is read from its text; events already logged keep their note."""
    from systems.twod6.rules.attacks import _times  # (here: the test fails, not the module, where it is missing)

    f, roller = setup(("Ann", FIGHTER), ("Bob", sheet(tou=2)), ("Cat", sheet(tou=2)))
    attack(f, roller, (6, 6, 3, 3, 1, 2), "c1", "c2")  # 21 vs 3: tripled
    (e,) = of(f.do(ChooseDouble(actor="c1", target="c2", choice="limb", limb="left leg", penalty=-3)), EffectApplied)
    assert e.note == "tripled"
    assert e.describe(f.state) == "Bob's left leg is disabled by Ann (-3 on rolls using it) (tripled)"
    assert attrs.evolve(e, note="doubled").describe(f.state).endswith("(doubled)")  # an older file's event
    roller.add(4, 3)
    f.do(Resolve(actor="c2", stakes="death"))
    f.do(NextTurn())
    f.do(NextTurn())
    attack(f, roller, (5, 5, 2, 3), "c1", "c3")  # 14 vs 5: doubled
    p = double_prompt(f.state, "c1", "c3")
    assert p is not None and p.params["times"] == 2
    cat = f.state.get("c3")
    old = attrs.evolve(p, params={k: v for k, v in p.params.items() if k != "times"})  # an older file's prompt
    assert _times(old, cat) == 2
    assert _times(attrs.evolve(old, text="Ann tripled Cat's defense and 'wound' has landed"), cat) == 3
    (e,) = of(f.do(ChooseDouble(actor="c1", target="c3", choice="limb", limb="arm")), EffectApplied)
    assert e.note == "doubled" and e.describe(f.state).endswith("(-2 on rolls using it) (doubled)")


def test_a_defense_below_1_counts_as_1_for_doubling():
    """Ruling: for the ratios a defense total below 1 counts as 1."""
    f, roller = setup(("Weak", sheet(str=-2, agi=-2)), ("Bob", sheet(agi=-2, str=-2, dex=-2, armor="heavy")))
    (ev,) = of(attack(f, roller, (1, 2, 1, 2), "c1", "c2", skill="Melee (Unarmed)", result="shove"), AttackRolled)
    # attack 3 - 2 = 1 vs defense 3 - 2 - 3 (athletics in heavy armor) + 1 armor = -1 -> counts 1: a hit, not doubled
    assert ev.defense.total == -1 and ev.hit and ev.times == 1


def test_vicious_parry_trips_the_attacker():
    """Rule 5: a defender with Vicious Parry who doubles a melee attack may disarm, trip, shove or grapple."""
    f, roller = setup(("Ann", FIGHTER), ("Parry", sheet(agi=2, skills="Melee (Light) 2", talents="Vicious Parry")))
    attack(f, roller, (1, 1, 5, 5), "c1", "c2")  # snake eyes: 2+4 = 6 counts; defense 14 ≥ 12
    assert prompts(f) == [("parry", "c2")]
    refused(f, Riposte(actor="c2", target="c1", result="wound"), "disarm, trip, shove or grapple")
    f.do(Riposte(actor="c2", target="c1", result="trip"))
    assert data(f, "c1").prone and prompts(f) == []


def test_knock_unconscious_calls_for_resolve_at_the_attack_total():
    """Rule 5: knock unconscious: a resolve check at DC = the attack total."""
    f, roller = setup(("Ann", FIGHTER), ("Bob", sheet(wil=2, skills="Resolve 2")))
    attack(f, roller, (4, 4, 2, 3), "c1", "c2", result="unconscious")  # 12 vs 5: doubled
    f.do(ChooseDouble(actor="c1", target="c2", choice="shove"))
    (p,) = f.state.prompts
    assert p.id == "resolve:c2" and p.params["dc"] == 12 and p.command == "resolve"
    roller.add(3, 4)  # 7 + 2 + 2 = 11 < 12
    f.do(Resolve(actor="c2"))
    assert data(f, "c2").unconscious


# -- wounds and resolve thresholds ------------------------------------------------------


def one_hit(f, roller, target="c2"):
    return attack(f, roller, (4, 4, 3, 4), "c1", target)  # 12 vs 7: a hit, not doubled


def test_falling_to_2_left_calls_for_a_dc7_resolve_or_unconscious():
    """Rule 7: at 2 wounds left (maximum above 2): DC 7 resolve or unconscious."""
    f, roller = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    events = one_hit(f, roller)
    (raised,) = of(events, PromptRaised)
    assert raised.prompt.id == "resolve:c2" and raised.prompt.params["dc"] == 7
    assert "DC 7 resolve check or fall unconscious" in raised.prompt.text
    roller.add(2, 4)
    (rr, done) = f.do(Resolve(actor="c2"))
    assert not rr.passed and isinstance(done, PromptResolved)
    assert data(f, "c2").unconscious and not f.state.prompts


def test_falling_to_1_left_calls_for_a_dc9_resolve():
    """Rule 7: at 1 left (maximum above 1): DC 9 resolve or unconscious."""
    f, roller = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    set_wounds(f, "c2", 2)
    one_hit(f, roller)
    assert f.state.prompts[0].params["dc"] == 9
    roller.add(5, 4)
    (rr, _) = f.do(Resolve(actor="c2"))
    assert rr.passed and not data(f, "c2").unconscious


def test_one_hit_past_several_thresholds_rolls_only_the_lowest():
    """Ruling: when one hit passes several thresholds, only the check of the lowest one reached is rolled."""
    f, roller = setup(("Ann", FIGHTER), ("Bob", sheet(tou=1)))
    set_wounds(f, "c2", 3)
    attack(f, roller, (5, 5, 2, 3), "c1", "c2", result="disarm")
    f.do(ChooseDouble(actor="c1", target="c2", choice="limb"))  # disarmed, then the limb's wound: 3 -> 2
    assert [(p.id, p.params["dc"]) for p in f.state.prompts] == [("resolve:c2", 7)]
    f.undo()
    f.undo()
    attack(f, roller, (5, 5, 2, 3), "c1", "c2")  # the declared wound: 3 -> 2
    f.do(ChooseDouble(actor="c1", target="c2", choice="wound"))  # 2 -> 1: the DC 9 check replaces the DC 7
    assert [(p.id, p.params["dc"]) for p in f.state.prompts] == [("resolve:c2", 9)]


def test_a_two_wound_maximum_has_no_2_left_check():
    """Rule 7: the 2-left check only when the maximum is above 2."""
    f, roller = setup(("Ann", FIGHTER), ("Frail", sheet(tou=-1)))
    one_hit(f, roller)
    assert [(p.id, p.params["dc"]) for p in f.state.prompts] == [("resolve:c2", 9)]


def test_at_0_wounds_unconscious_and_dc7_or_die():
    """Rule 7: at 0: unconscious, and DC 7 resolve or die."""
    f, roller = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    set_wounds(f, "c2", 1)
    one_hit(f, roller)
    assert data(f, "c2").unconscious and data(f, "c2").wounds == 0
    (p,) = f.state.prompts
    assert p.id == "death:c2" and p.kind == "death" and "unconscious: −3" in p.text
    roller.add(1, 1)
    f.do(Resolve(actor="c2", stakes="death"))
    assert data(f, "c2").dead


def test_a_wound_at_0_kills():
    """Rule 7: any wound at 0 wounds: dead."""
    f, roller = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    set_wounds(f, "c2", 0)
    assert data(f, "c2").unconscious
    events = attack(f, roller, (1, 2, 3, 4), "c1", "c2")  # 7 vs 7 - 3
    (w,) = of(events, Wounded)
    assert "a wound at 0: dead" in w.describe(f.steps[-1].before)
    assert data(f, "c2").dead and not f.state.prompts


def test_wounds_beyond_0_in_one_blow_kill():
    """Ruling (ours): two wounds from 1 left: the second is a wound at 0."""
    f, roller = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    set_wounds(f, "c2", 1)
    attack(f, roller, (5, 5, 2, 3), "c1", "c2")  # the declared wound: 1 -> 0, a death check
    f.do(ChooseDouble(actor="c1", target="c2", choice="wound"))  # a wound at 0
    assert data(f, "c2").dead and not f.state.prompts


def test_resolve_when_no_check_is_due_is_refused():
    f, _ = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    refused(f, Resolve(actor="c2"), "no resolve check against unconscious is due")


def test_undo_of_an_attack_restores_the_state_exactly():
    f, roller = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    before = f.state
    one_hit(f, roller)
    assert f.state != before
    f.undo()
    assert f.state == before


def test_effects_describe_in_the_gms_words():
    f, roller = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    events = attack(f, roller, (4, 4, 3, 4), "c1", "c2", result="disarm")
    (eff,) = of(events, EffectApplied)
    assert eff.describe(f.state) == "Bob is disarmed by Ann"
    (ev,) = of(events, AttackRolled)
    line = ev.describe(f.state)
    assert line.startswith("Ann attacks Bob with Melee (Heavy) for disarm: 2d6 [4,4] +2 Melee (Heavy) ranks +1 STR")
    assert line.endswith("— hit [full action]")


def test_a_doubled_disarm_s_prompt_says_a_wound_picked_is_one():
    """The prompt said "wound again for two wounds" after a declared disarm: picking wound gives one."""
    f, roller = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    attack(f, roller, (4, 4, 2, 3), "c1", "c2", result="disarm")  # 12 vs 5: doubled
    (p,) = [p for p in f.state.prompts if p.kind == "double"]
    assert "two wounds" not in p.text and "a wound is one" in p.text, p.text
    f2, roller2 = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    attack(f2, roller2, (4, 4, 2, 3), "c1", "c2")
    (p2,) = [p for p in f2.state.prompts if p.kind == "double"]
    assert "wound again for two wounds" in p2.text


def test_the_attack_form_starts_a_caster_on_its_spell():
    """Ruling (the best-ranked attack skill): a caster's sheet ranks Cast, which every spell rolls; the form
    started it on Melee (Heavy), 0 ranks."""
    from systems.twod6.commands import attack_defaults

    f, _ = setup(("Mage", sheet(int=2, skills="Cast 2", talents="Blast")), ("Bob", DUMMY))
    assert attack_defaults(f.state, "c1") == {"skill": "Cast (Blast)"}
    g, _ = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    assert attack_defaults(g.state, "c1")["skill"].startswith("Melee")


def test_auto_defense_weighs_a_parry_with_an_item_and_no_ranks():
    """Ruling: "auto" weighed Athletics without ranks but never a melee parry without them: a clubman (STR +3,
    "Club: Melee (Heavy) +1") was given Athletics 9 where the parry made 10. A parry with an item is weighed."""
    f, r = setup(("Ann", FIGHTER), ("Bob", sheet(str=3, items="Club: Melee (Heavy) +1")))
    (ev, *_rest) = attack(f, r, (4, 4, 3, 3), "c1", "c2")
    said = ev.describe(f.state)
    assert "vs Melee (Heavy) 2d6 [3,3] +3 STR +1 Club = 10" in said, said
