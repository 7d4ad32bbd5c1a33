"""2d6 Gamma: a cinematic reroll names the failed check it rerolls, a lost defense included (#45).

The book: a cinematic may "reroll a failed check" (@56400).  RULINGS, third pass, twod6: the reroll
covers a defense that lost — right after the attack, the defender rerolls the defense, the attack's
dice stand, and the outcome (hit, doubling, wounds, prompts) is worked out again as one logged action;
the attacker may do the same for a missed attack; the GM chooses which of the combatant's failed checks
since its last turn is rerolled.
"""

from __future__ import annotations

from systems.twod6 import system
from systems.twod6.commands import Attack, SkillCheck, SpendCinematic
from systems.twod6.events import AttackRolled, CinematicSpent, Reworked, SkillChecked, Wounded
from tests.systems.twod6.helpers import FIGHTER, attack, data, of, prompts, refused, setup, sheet
from tracker.commands import DismissPrompt, EndFight, Heal, NextTurn
from tracker.events import PromptResolved

HERO = sheet(cinematics=2, per=1, skills="Notice 1")  # defends at +0 (Athletics, no ranks), 3 wounds


def cinematic_spec():
    return next(s for s in system.commands() if s.name == "cinematic")


def test_a_cinematic_rerolls_a_lost_defense_and_the_wound_is_taken_back():
    """@56400 "reroll a failed check" + RULINGS third pass: the defender rerolls a lost defense right after the
    attack; the attack (10) stands, the new defense (10) ties and the tie goes to the defender (@51089): the
    wound and its DC 7 resolve check are taken back, in one action that undo takes back whole."""
    f, roller = setup(("Ann", FIGHTER), ("Hero", HERO))
    (hit,) = of(attack(f, roller, (3, 3, 3, 3), "c1", "c2"), AttackRolled)  # 6+4 = 10 vs 6: a hit, not doubled
    assert hit.hit and hit.times == 1
    assert data(f, "c2").wounds == 2 and prompts(f) == [("resolve", "c2")]
    (lost,) = data(f, "c2").failed
    assert lost.kind == "defense" and lost.attack_roll == hit.attack
    before = f.state
    roller.add(5, 5)
    events = f.do(SpendCinematic(actor="c2", use="reroll", check="defense against Ann's Melee (Heavy) attack"))
    assert roller.exhausted
    spent = of(events, CinematicSpent)[0]
    assert spent.use == "reroll the lost defense against Ann's Melee (Heavy) attack"
    (back,) = of(events, Reworked)
    assert back.before.wounds == 3 and "wounds 2 → 3/3" in back.describe(before)
    (again,) = of(events, AttackRolled)
    assert again.reroll and not again.hit and again.attack == hit.attack and again.defense.total == 10
    assert of(events, PromptResolved) and not of(events, Wounded)
    d = data(f, "c2")
    assert d.wounds == 3 and d.cinematics == 1 and d.failed == () and prompts(f) == []
    assert data(f, "c1").half == 0  # the attack's action stays spent: its dice stand
    f.undo()
    assert f.state == before


def test_a_rerolled_defense_that_does_worse_works_the_outcome_out_again():
    """RULINGS third pass: hit, doubling, wounds and prompts are worked out again: the reroll (snake eyes,
    @55028) lets the attack double — the declared wound lands from where it was (3 → 2, not 2 → 1), the DC 7
    check is asked again, and the doubled attack's choice is offered."""
    f, roller = setup(("Ann", FIGHTER), ("Hero", HERO))
    attack(f, roller, (3, 3, 3, 3), "c1", "c2")
    roller.add(1, 1)
    events = f.do(SpendCinematic(actor="c2", use="reroll"))
    (again,) = of(events, AttackRolled)
    assert again.hit and again.times == 3 and again.defense.fumble
    d = data(f, "c2")
    assert d.wounds == 2 and not d.unconscious
    assert sorted(prompts(f)) == [("death", "c2"), ("double", "c2")]  # the tripled attack: its choice and DC 7
    # the defense lost again: it can be rerolled again, from the same starting point
    (lost,) = d.failed
    assert lost.kind == "defense" and lost.before is not None and lost.before.wounds == 3


def test_a_tripled_attack_taken_back_knocks_no_one_out():
    """@53102 (tripled: DC 7 resolve or die, unconscious either way): a tripled hit whose defense is rerolled
    into a plain hit leaves no knock-out and no death check, only the plain wound's DC 7 check (@53636)."""
    f, roller = setup(("Ann", FIGHTER), ("Hero", HERO))
    (hit,) = of(attack(f, roller, (4, 4, 1, 1), "c1", "c2"), AttackRolled)  # 12 vs snake eyes: tripled
    assert hit.times == 3 and ("death", "c2") in prompts(f)
    roller.add(4, 4)  # 12 vs 8: a hit, not doubled
    f.do(SpendCinematic(actor="c2", use="reroll"))
    d = data(f, "c2")
    assert d.wounds == 2 and not d.unconscious and not d.dead
    assert prompts(f) == [("resolve", "c2")]


def test_the_gm_picks_which_failed_check_is_rerolled():
    """RULINGS third pass: the GM chooses which failed check since the last turn is rerolled; the cinematic
    form offers them, newest first, and starts on a reroll."""
    f, roller = setup(("Ann", FIGHTER), ("Hero", HERO))
    roller.add(1, 2)
    f.do(SkillCheck(actor="c2", skill="Notice", dc=9))  # off its turn: no action (RULINGS third pass)
    attack(f, roller, (3, 3, 3, 3), "c1", "c2")
    spec = cinematic_spec()
    params = {p.name: p for p in spec.params_for(f.state, "c2")}
    assert params["check"].choices == ("defense against Ann's Melee (Heavy) attack", "Notice check DC 9")
    assert params["use"].choices[0] == "reroll"
    assert {p.name: p for p in spec.params_for(f.state, "c1")}["check"].choices == ()  # Ann failed nothing
    roller.add(6, 3)  # 9 + 1 + 1 = 11 ≥ 9
    events = f.do(SpendCinematic(actor="c2", use="reroll", check="notice check dc 9"))
    (again,) = of(events, SkillChecked)
    assert again.reroll and again.passed and again.cost == "none"
    d = data(f, "c2")
    assert [x.kind for x in d.failed] == ["defense"] and d.wounds == 2  # the defense is still there to reroll
    refused(f, SpendCinematic(actor="c2", use="reroll", check="Athletics check DC 7"), "defense against Ann")


def test_a_lost_defense_is_rerolled_only_right_after_its_attack():
    """RULINGS third pass, "right after the attack is resolved": healing the defender, another attack on it, or
    the next turn ends the chance (nothing is spent)."""
    f, roller = setup(("Ann", FIGHTER), ("Hero", HERO))
    attack(f, roller, (3, 3, 3, 3), "c1", "c2")
    f.do(Heal(targets=("c2",), amount="1"))
    refused(f, SpendCinematic(actor="c2", use="reroll"), "no failed check")
    swift = sheet(str=1, skills="Melee (Heavy) 2", items="Longsword: Melee (Heavy) +1", talents="Multiattack")
    g, roller = setup(("Ann", swift), ("Hero", HERO))
    attack(g, roller, (3, 3, 3, 3), "c1", "c2")  # a hit
    g.do(DismissPrompt(prompt_id=g.state.prompts[0].id, note="passed"))
    attack(g, roller, (1, 2, 4, 4), "c1", "c2")  # a miss: the first attack's outcome is no longer "right after"
    refused(g, SpendCinematic(actor="c2", use="reroll"), "no failed check")
    h, roller = setup(("Ann", FIGHTER), ("Hero", HERO))
    attack(h, roller, (3, 3, 3, 3), "c1", "c2")
    h.do(DismissPrompt(prompt_id=h.state.prompts[0].id, note="passed"))
    h.do(NextTurn())
    refused(h, SpendCinematic(actor="c2", use="reroll"), "no failed check")
    assert data(h, "c2").cinematics == 2


def test_the_attacker_rerolls_a_missed_attack_and_its_outcome_is_worked_out():
    """RULINGS third pass: the attacker may reroll a missed attack (the defense stands); the hit lands."""
    f, roller = setup(("Ann", sheet(str=1, skills="Melee (Heavy) 2", cinematics=1)), ("Hero", HERO))
    (miss,) = of(attack(f, roller, (1, 2, 4, 4), "c1", "c2"), AttackRolled)
    params = {p.name: p for p in cinematic_spec().params_for(f.state, "c1")}
    assert params["check"].choices == ("Melee (Heavy) attack on Hero",)
    roller.add(5, 4)
    events = f.do(SpendCinematic(actor="c1", use="reroll", check="Melee (Heavy) attack on Hero"))
    (again,) = of(events, AttackRolled)
    assert again.hit and again.defense == miss.defense and data(f, "c2").wounds == 2


def test_the_check_form_takes_the_books_cost_on_the_turn_and_none_off_it():
    """@49094: a passive check (Notice) is a quick action, an active one a half-round action (@49294);
    RULINGS third pass: off its turn, or outside a fight, a check costs nothing. "auto" is the form's default."""
    spec = next(s for s in system.commands() if s.name == "check")
    assert next(p for p in spec.params if p.name == "cost").default == "auto"
    f, roller = setup(("Ann", sheet(per=1, skills="Notice 1, Athletics 1")), ("Hero", HERO))
    roller.add(3, 3, 3, 3, 3, 3)
    (notice,) = f.do(SkillCheck(actor="c1", skill="Notice", dc=7))
    (athletics,) = f.do(SkillCheck(actor="c1", skill="Athletics", dc=7))
    (bystander,) = f.do(SkillCheck(actor="c2", skill="Notice", dc=7))
    assert (notice.cost, athletics.cost, bystander.cost) == ("quick", "half", "none")
    assert (data(f, "c1").quick, data(f, "c1").half) == (1, 1)
    f.do(EndFight())
    roller.add(3, 3)
    (after,) = f.do(SkillCheck(actor="c1", skill="Athletics", dc=7))
    assert after.cost == "none"
    refused(f, Attack(actor="c1", targets=("c2",)), "over")


def test_the_summary_takes_back_the_hit_and_wound_a_rerolled_defense_took_back():
    """The defense rerolled with a cinematic ties the attack: the summary counted the first reading's hit and
    its wound (Ann: a hit and a miss, 1 dealt; the Hero: 1 taken).  Now it counts the attack as worked out
    again: a miss, nothing dealt or taken."""
    from tracker.replay import Timeline
    from tracker.summary import summarize

    f, roller = setup(("Ann", FIGHTER), ("Hero", HERO))
    attack(f, roller, (3, 3, 3, 3), "c1", "c2")  # 10 vs 6: a hit, a wound
    roller.add(5, 5)
    f.do(SpendCinematic(actor="c2", use="reroll"))  # 10 vs 10: the defender's
    by_id = {x.id: x for x in summarize(Timeline(system, list(f.entries))).fighters}
    ann, hero = by_id["c1"], by_id["c2"]
    assert (ann.hits, ann.misses, ann.harm_dealt) == (0, 1, 0)
    assert hero.harm_taken == 0


def test_the_players_view_says_the_attack_is_worked_out_again():
    """NPCs' numbers hidden from the players: the reroll's line named no outcome ("Ann acts against Hero", from
    the tally); it says the attack is worked out again, then the new outcome."""
    from screens.table import public_log

    f, roller = setup(("Ann", FIGHTER), ("Hero", HERO), kind="npc")
    attack(f, roller, (3, 3, 3, 3), "c1", "c2")
    roller.add(5, 5)
    f.do(SpendCinematic(actor="c2", use="reroll"))
    last = public_log(f.system, f.steps[-1:], f.state)
    assert "Ann's attack on Hero is worked out again" in last and "Ann misses Hero" in last, last


def test_the_players_view_says_harm_taken_back_not_negative_harm() -> None:
    """The hidden Ann's hit taken back by Hero's rerolled defense read "Hero is harmed (-1)" to the players: the
    wound taken back is said as such."""
    from screens.table import public_log
    from tracker.commands import Hide

    f, roller = setup(("Ann", FIGHTER), ("Hero", HERO))
    f.do(Hide(ids=("c1",)))
    attack(f, roller, (3, 3, 3, 3), "c1", "c2")
    roller.add(5, 5)
    f.do(SpendCinematic(actor="c2", use="reroll"))
    last = public_log(f.system, f.steps[-1:], f.state)
    assert "the harm to Hero is taken back" in last and not any("(-1)" in line for line in last), last
    assert not any("Ann" in line for line in last), last
