"""2d6 Gamma, second pass (issue #16): each test quotes the book line it plays, and failed on the old code."""

from __future__ import annotations

from systems.twod6 import system
from systems.twod6.commands import Aim, Attack, ChooseDouble, Resolve, SkillCheck, Sneak
from systems.twod6.events import AttackRolled, EffectApplied, ResolveRolled, Wounded
from systems.twod6.record import make_data
from tests.systems.twod6.helpers import DUMMY, FIGHTER, attack, data, of, prompts, refused, set_wounds, setup, sheet
from tracker import Fight
from tracker.commands import AddCombatant, DismissPrompt, Modifier, NextTurn
from tracker.dice import ScriptedRoller
from tracker.events import PromptRaised

# -- 11. Favored Enemy ----------------------------------------------------------------------------


def test_favored_enemy_adds_1_on_attack_and_on_defense():
    """Favored Enemy: "They receive a +1 on all combat rolls against this race" — attack and defense alike."""
    f, roller = setup(
        ("Gob", sheet(race="Goblin", skills="Melee (Light) 1")),
        ("Hunter", sheet(skills="Melee (Heavy) 1", talents="Favored Enemy (Goblin)")),
    )
    (ev,) = of(attack(f, roller, (3, 3, 3, 4), "c1", "c2", skill="Melee (Light)", result="shove"), AttackRolled)
    assert Modifier(label="favored enemy", value=1) in ev.defense.parts
    assert ev.defense.total == 7 + 1 + 1  # 2d6 + Melee (Heavy) 1 + favored enemy
    assert Modifier(label="favored enemy", value=1) not in ev.attack.parts
    f.do(NextTurn())
    (back,) = of(attack(f, roller, (3, 3, 3, 4), "c2", "c1", result="shove"), AttackRolled)
    assert Modifier(label="favored enemy", value=1) in back.attack.parts
    assert Modifier(label="favored enemy", value=1) not in back.defense.parts


def test_favored_enemy_is_not_added_to_an_armor_only_roll():
    """Ruling (ours): shooting "cannot be defended except by magic": 2d6 + armor alone, no Favored Enemy."""
    f, roller = setup(
        ("Gob", sheet(race="Goblin", dex=1, skills="Archery 1")),
        ("Hunter", sheet(talents="Favored Enemy (Goblin)", armor="light")),
    )
    (ev,) = of(attack(f, roller, (3, 3, 3, 4), "c1", "c2", skill="Archery"), AttackRolled)
    assert ev.defense_skill == "armor only" and ev.defense.parts == (Modifier(label="light armor", value=1),)


# -- 12. Sniper and the aim ---------------------------------------------------------------------------


SNIPER = sheet(per=2, dex=1, str=1, skills="Shooting 1, Athletics 1, Melee (Heavy) 1, Cast 1", talents="Sniper, Blast")


def test_sniper_doubles_the_aim_only_on_shooting_archery_or_throwing():
    """Sniper: "Characters with this talent double their bonus when aiming for a shooting, archery, or throwing
    check": a Sniper's aim before an Athletics check or a Blast gives the plain bonus."""
    f, roller = setup(("Pell", SNIPER), ("Bob", sheet(tou=3, agi=2, skills="Athletics 2")))
    f.do(Aim(actor="c1"))
    f.do(NextTurn())
    f.do(NextTurn())
    roller.add(3, 3)
    (check,) = f.do(SkillCheck(actor="c1", skill="Athletics", dc=7, use_aim=True))
    assert check.aim_used == 2 and Modifier(label="aim", value=2) in check.check.parts
    f.do(NextTurn())
    f.do(NextTurn())
    f.do(Aim(actor="c1"))  # (the check took the aim and spent it: aim again)
    f.do(NextTurn())
    f.do(NextTurn())
    (blast,) = of(attack(f, roller, (3, 3, 1, 2), "c1", "c2", skill="Cast (Blast)", result="distract"), AttackRolled)
    assert blast.aim_used == 2
    f.do(NextTurn())
    f.do(NextTurn())
    f.do(Aim(actor="c1"))
    f.do(NextTurn())
    f.do(NextTurn())
    (shot,) = of(attack(f, roller, (3, 3, 1, 2), "c1", "c2", skill="Shooting", result="distract"), AttackRolled)
    assert shot.aim_used == 4


def test_a_check_that_takes_the_aim_spends_it_and_one_it_does_not_apply_to_leaves_it():
    """Aiming gives its bonus on "their next shooting, throwing, archery, casting …, athletics … check" (@55306).
    Ruling on RULINGS' "an aim is spent only by such a check": a check that takes the aim's bonus spends it (a
    Blast, an aimed Athletics check: one aim gave +PER to every Blast of the fight); a check it does not apply to
    (an Athletics check not aimed, a melee attack) leaves it."""
    f, roller = setup(("Pell", SNIPER), ("Bob", sheet(tou=3, agi=2, skills="Athletics 2")))

    def aim() -> None:
        f.do(Aim(actor="c1"))
        f.do(NextTurn())
        f.do(NextTurn())

    aim()
    roller.add(3, 3)
    f.do(SkillCheck(actor="c1", skill="Athletics", dc=7))  # not aimed: the aim is not for it
    assert data(f, "c1").aim == 2, "an Athletics check without the aim leaves it"
    roller.add(3, 3)
    (check,) = f.do(SkillCheck(actor="c1", skill="Athletics", dc=7, use_aim=True))
    assert check.aim_used == 2 and data(f, "c1").aim == 0, "an aimed Athletics check spends the aim"
    f.do(NextTurn())
    f.do(NextTurn())
    aim()
    (blast,) = of(attack(f, roller, (3, 3, 1, 2), "c1", "c2", skill="Cast (Blast)", result="distract"), AttackRolled)
    assert blast.aim_used == 2 and data(f, "c1").aim == 0, "a Blast takes the aim and spends it"
    f.do(NextTurn())
    f.do(NextTurn())
    (again,) = of(attack(f, roller, (3, 3, 1, 2), "c1", "c2", skill="Cast (Blast)", result="distract"), AttackRolled)
    assert again.aim_used == 0 and Modifier(label="aim", value=2) not in again.attack.parts
    f.do(NextTurn())
    f.do(NextTurn())
    aim()
    attack(f, roller, (3, 3, 1, 2), "c1", "c2", skill="Shooting", result="distract")
    assert data(f, "c1").aim == 0, "the shot spends it"


def test_a_melee_attack_between_aim_and_shot_does_not_spend_the_aim():
    """Aiming: "they receive a bonus on their next shooting, throwing, archery ... check": only such a check
    spends the aim; a melee attack in between does not."""
    f, roller = setup(("Pell", SNIPER), ("Bob", sheet(tou=3, agi=2, skills="Athletics 2")))
    f.do(Aim(actor="c1"))
    f.do(NextTurn())
    f.do(NextTurn())
    (melee,) = of(attack(f, roller, (3, 3, 3, 3), "c1", "c2", result="shove"), AttackRolled)
    assert melee.aim_used == 0 and data(f, "c1").aim == 2
    f.do(NextTurn())
    f.do(NextTurn())
    (shot,) = of(attack(f, roller, (3, 3, 1, 2), "c1", "c2", skill="Shooting", result="distract"), AttackRolled)
    assert shot.aim_used == 4 and Modifier(label="aim", value=4) in shot.attack.parts
    assert data(f, "c1").aim == 0


def test_a_shooting_check_takes_the_aim_and_a_shot_told_no_still_spends_it():
    """Ruling (ours): a shooting, archery or throwing check takes the aim by itself; an attack the GM tells not
    to use it (an aim at another target) still spends it, being the next such check."""
    f, roller = setup(("Pell", SNIPER), ("Bob", sheet(tou=3, agi=2, skills="Athletics 2")))
    f.do(Aim(actor="c1"))
    f.do(NextTurn())
    f.do(NextTurn())
    roller.add(3, 3)
    (check,) = f.do(SkillCheck(actor="c1", skill="shooting", dc=9))
    assert check.skill == "Shooting" and check.aim_used == 4 and data(f, "c1").aim == 0
    f.do(NextTurn())
    f.do(NextTurn())
    f.do(Aim(actor="c1"))
    f.do(NextTurn())
    f.do(NextTurn())
    (shot,) = of(attack(f, roller, (3, 3, 1, 2), "c1", "c2", skill="Shooting", use_aim="no"), AttackRolled)
    assert shot.aim_used == 0 and data(f, "c1").aim == 0


# -- 13. the order of events at 0 wounds, stealth and spells, the declared result ------------------------------


def test_at_0_wounds_unconscious_first_so_the_death_check_takes_the_minus_3():
    """Wounds: "When a character is reduced to 0 wounds, they automatically fall unconscious and must make a DC 7
    resolve check or die": unconscious when rolling, so the unconscious −3 applies to that check."""
    f, roller = setup(("Ann", FIGHTER), ("Bob", sheet(wil=1, skills="Resolve 1")))
    set_wounds(f, "c2", 1)
    attack(f, roller, (4, 4, 3, 4), "c1", "c2")  # 12 vs 7: a hit
    assert data(f, "c2").unconscious and [p.params["stakes"] for p in f.state.prompts] == ["death"]
    roller.add(4, 4)  # 8 + 1 + 1 - 3 = 7: passes, just
    (rolled, _) = f.do(Resolve(actor="c2", stakes="death"))
    assert Modifier(label="unconscious", value=-3) in rolled.check.parts
    assert rolled.check.total == 7 and rolled.passed and not data(f, "c2").dead


def test_a_tripled_attack_rolls_the_death_check_first_then_knocks_out():
    """Tripling: "the defender must make a DC 7 resolve check or immediately die. Even if they succeed on this
    check, they are automatically knocked unconscious": the check comes first, without the −3."""
    f, roller = setup(("Ann", FIGHTER), ("Bob", sheet(wil=1, tou=2, skills="Resolve 1")))
    events = attack(f, roller, (6, 6, 3, 3, 1, 2), "c1", "c2", result="shove")  # 11+6+4 = 21 vs 3
    assert not data(f, "c2").unconscious and prompts(f) == [("double", "c2"), ("death", "c2")]
    assert "knocked unconscious either way" in of(events, PromptRaised)[-1].prompt.text
    f.do(ChooseDouble(actor="c1", target="c2", choice="distract"))  # one check a blow: the extra first
    roller.add(2, 3)  # 5 + 1 + 1 = 7: passes without the −3
    done = f.do(Resolve(actor="c2", stakes="death"))
    (rolled,) = of(done, ResolveRolled)
    assert rolled.passed and all(p.label != "unconscious" for p in rolled.check.parts)
    (out,) = of(done, EffectApplied)
    assert (out.effect, out.by, out.note) == ("unconscious", "c1", "tripled")
    assert data(f, "c2").unconscious and not data(f, "c2").dead
    assert prompts(f) == []
    # settled by the GM instead of rolled: knocked out all the same
    f.undo()
    f.do(DismissPrompt(prompt_id="death:c2", note="the GM rules it passed"))
    assert data(f, "c2").unconscious


def test_stealth_gives_armor_only_against_weapons_not_spells():
    """Stealth: a success "before using the melee ( ), archery, shooting, throwing, intimidate, or diplomacy skills"
    leaves the defender armor only: not a spell, which neither gains from nor uses up the Stealth."""
    f, roller = setup(
        ("Shade", sheet(agi=2, int=1, skills="Stealth 2, Cast 2, Melee (Light) 1", talents="Blast, Sneak Attack")),
        ("Guard", sheet(agi=2, tou=3, skills="Notice 1, Athletics 2", armor="light")),
    )
    roller.add(4, 4, 1, 2)  # Stealth 8 + 4 = 12 vs Notice 3 + 1
    f.do(Sneak(actor="c1", targets=("c2",)))
    f.do(NextTurn())
    f.do(NextTurn())
    (blast,) = of(attack(f, roller, (4, 4, 2, 3), "c1", "c2", skill="Cast (Blast)", result="distract"), AttackRolled)
    assert blast.defense_skill == "Athletics" and blast.defense.total == 5 + 2 + 2 - 1 + 1
    assert all(p.label != "sneak attack" for p in blast.attack.parts)
    assert data(f, "c1").hidden_from == ("c2",)  # not used up
    f.do(NextTurn())
    f.do(NextTurn())
    (stab,) = of(attack(f, roller, (4, 4, 2, 3), "c1", "c2", skill="Melee (Light)", result="shove"), AttackRolled)
    assert stab.defense_skill == "armor only (caught by stealth)" and stab.defense.total == 5 + 1
    assert Modifier(label="sneak attack", value=1) in stab.attack.parts
    assert data(f, "c1").hidden_from == ()


def test_a_doubled_hit_lands_the_declared_result_at_once():
    """On a doubled or tripled hit the declared result lands at once, before the prompt for the second choice."""
    f, roller = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    events = attack(f, roller, (5, 5, 2, 3), "c1", "c2", result="disarm")  # 14 vs 5
    assert [type(e).__name__ for e in events] == ["AttackRolled", "EffectApplied", "PromptRaised"]
    assert data(f, "c2").disarmed and prompts(f) == [("double", "c2")]
    f.do(ChooseDouble(actor="c1", target="c2", choice="trip"))
    assert data(f, "c2").disarmed and data(f, "c2").prone and prompts(f) == []


# -- 14. Dual Wield names its skill --------------------------------------------------------------------


def test_dual_wield_names_one_skill_each_time_it_is_taken():
    """Dual Wield: "Each time this talent is taken it applies to a different skill": a bare Dual Wield is refused."""
    f = Fight(system, roller=ScriptedRoller())
    why = refused(f, AddCombatant(name="Twin", sheet=sheet(talents="Dual Wield")), "names the skill")
    assert "different skill" in why
    refused(
        f,
        AddCombatant(name="Twin", sheet=sheet(talents="Dual Wield (Shooting), Dual Wield (shooting)")),
        "taken twice",
    )
    f.do(AddCombatant(name="Twin", sheet=sheet(talents="Dual Wield (Melee (Light)), Dual Wield (Shooting)")))
    # an older sheet with a bare Dual Wield stacks nothing
    old = make_data("pc", {"talents": "Dual Wield", "items": "Pistol: Shooting +1; Rifle: Shooting +1"})
    assert len(old.item_bonus("Shooting")) == 1


# -- the armor ruling stays ----------------------------------------------------------------------------


def test_armor_still_penalises_a_melee_parry():
    """Kept: armor's melee penalty falls on a melee parry, the reading under which the book's example adds up."""
    f, roller = setup(("Ann", FIGHTER), ("Knife", sheet(agi=1, skills="Melee (Light) 1", armor="light")))
    (ev,) = of(attack(f, roller, (3, 4, 3, 4), "c1", "c2", defense="Melee (Light)"), AttackRolled)
    assert Modifier(label="light armor", value=-1) in ev.defense.parts
    assert Modifier(label="light armor", value=1) in ev.defense.parts


def test_an_attack_on_someone_dead_since_the_declared_wound_raises_no_prompt():
    """A declared wound at 0 kills at once: no doubled choice, no death check is left open."""
    f, roller = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    set_wounds(f, "c2", 0)
    events = attack(f, roller, (5, 5, 1, 1), "c1", "c2")
    assert data(f, "c2").dead and prompts(f) == [] and of(events, Wounded)
    refused(f, Attack(actor="c1", targets=("c2",)), "already dead")
