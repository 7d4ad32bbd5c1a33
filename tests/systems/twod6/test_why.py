"""2d6 Gamma's "Why" (#47): the rules table, the deciders naming their rules, explain() for every event type.

Each scenario asks ``system.explain(before, event, after)`` for one event type and checks the rule's name,
its book place and the terms (each die face, each modifier and where it came from).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from bench.fights import make_fight
from systems.twod6 import system
from systems.twod6.commands import Act, Aim, Attack, Resolve, SkillCheck, Sneak, SpendCinematic
from systems.twod6.events import (
    ActionTaken,
    Aimed,
    AttackRolled,
    CinematicSpent,
    EffectApplied,
    Healed,
    InitiativeTieRolled,
    OpposedRolled,
    ResolveRolled,
    ResolveRuled,
    Reworked,
    SkillChecked,
    Wounded,
)
from systems.twod6.rules.rest import Rested
from systems.twod6.table import PRONE, RULES, R
from tests.systems.twod6.helpers import DUMMY, FIGHTER, attack, of, refused, set_wounds, setup, sheet
from tracker import Fight
from tracker.commands import (
    AddCombatant,
    AddCondition,
    DismissPrompt,
    Heal,
    NextTurn,
    Rest,
    RollInitiative,
)
from tracker.dice import ScriptedRoller
from tracker.events import OrderSet, PromptRaised
from tracker.reasons import Reason

ROOT = Path(__file__).resolve().parents[3]
SEEDS = sorted((ROOT.parent / "shared" / "seeds").glob("003_*.txt")) or sorted(
    Path("/work/shared/seeds").glob("003_*.txt")
)
PLACE = re.compile(r"@(\d+)")


def why(f: Fight, event: Any) -> tuple[Reason, ...]:
    """The reasons ``system.explain`` gives for a logged event (found by identity in the fight's log)."""
    i = next(n for n, e in enumerate(f.entries) if e.event is event)
    return system.explain(f.log.state_at(i), event, f.log.state_at(i + 1))


def reason(reasons: tuple[Reason, ...], rule: Any) -> Reason:
    found = [r for r in reasons if r.rule_id == rule.id]
    assert found, f"no {rule.name} among {[r.rule for r in reasons]}"
    assert found[0].rule == rule.name and found[0].source == rule.source
    return found[0]


# -- the table ------------------------------------------------------------------------------------------


def test_every_rule_has_a_unique_id_and_a_book_place_inside_the_seed_file():
    """Each source is ``twod6 @N`` or ``ruling on twod6 @N``, N an offset inside 2d6 Gamma's text."""
    ids = [r.id for r in RULES]
    assert len(ids) == len(set(ids)) and system.rules() == RULES
    text = SEEDS[0].read_text(encoding="utf-8") if SEEDS else None
    for r in RULES:
        assert re.fullmatch(r"(ruling on )?twod6 @\d+", r.source), r
        n = int(PLACE.search(r.source).group(1))  # type: ignore[union-attr]
        if text is not None:
            assert 0 <= n < len(text), r
        assert r.text and r.name


def test_the_seed_places_read_as_the_rules_say():
    """A few places checked against the book's words there (the offsets are the text's characters)."""
    if not SEEDS:
        pytest.skip("the seed books are not on this machine")
    text = SEEDS[0].read_text(encoding="utf-8")

    def at(rule: Any) -> str:
        n = int(PLACE.search(rule.source).group(1))
        return text[n : n + 80].lower()

    assert "healing" in at(R.HEALING) and "defender always wins" in at(R.OPPOSED)
    assert "reroll a failed check" in at(R.REROLL) and "initiative" in at(R.INITIATIVE)
    assert "prone" in at(R.TRIP) and "triple" in at(R.TRIPLE)
    assert "stats in 2d6 are situational" in at(R.STAT_CHOICE)  # (@8753 was the list of the eight stats)


def test_every_rule_is_named_by_the_code_that_decides():
    """Each rule constant is referenced outside the table and the explanations: by ``@applies`` on a decider or
    a ``Refused(..., rule=R.X)`` where the decision is made."""
    folder = ROOT / "systems" / "twod6"
    src = "".join(p.read_text(encoding="utf-8") for p in folder.rglob("*.py") if p.name not in ("table.py", "why.py"))
    names = [k for k, v in vars(R).items() if not k.startswith("_")]
    assert names and not [n for n in names if not re.search(rf"\bR\.{n}\b", src)]


def test_a_refusal_names_its_rule_and_the_books_place():
    f, _ = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    msg = refused(f, Attack(actor="c2", targets=("c1",)), "acts on its own turn")
    assert msg.endswith(f" — {R.ACTIONS.name}, twod6 @48822")
    msg = refused(f, SpendCinematic(actor="c1", use="reroll"), "no cinematic")
    assert msg.endswith(f" — {R.CINEMATIC.name}, {R.CINEMATIC.source}")


# -- each event type --------------------------------------------------------------------------------------


def test_an_attack_explains_the_opposed_roll_with_each_die_and_modifier_and_its_origin():
    """@51089: attack against defense; the terms name each face and each modifier with where it came from."""
    f, roller = setup(("Ann", FIGHTER), ("Bob", sheet(armor="light")))
    (ev,) = of(attack(f, roller, (3, 3, 3, 3), "c1", "c2"), AttackRolled)  # 10 vs 6 + 1 − 1 (Athletics)
    rs = why(f, ev)
    opposed = reason(rs, R.OPPOSED)
    assert "Ann Melee (Heavy): 2d6 [3,3]" in opposed.terms
    assert "Melee (Heavy) ranks +2 (skill)" in opposed.terms
    assert "STR +1 (stat)" in opposed.terms and "Longsword +1 (item)" in opposed.terms
    assert "light armor +1 (armor)" in opposed.terms and "hit" in opposed.terms
    assert "light armor −1 (armor)" in opposed.terms  # armor hinders athletics, the defense it rolls
    assert [r.terms for r in rs if r.rule_id == "armor"] == [("light armor −1", "light armor +1")]  # one block
    assert reason(rs, R.FULL_ROUND) and reason(rs, R.DECLARED).terms == ("Ann declared wound",)


def test_armor_on_a_melee_parry_cites_the_parry_ruling():
    """A guard's medium armor −2 on its melee parry was credited to the Armor rule (@46272: melee attacks,
    throwing, casting and athletics; no parry), the Armor block shown twice: it is the parry ruling's."""
    guard = sheet(skills="Melee (Heavy) 1", armor="medium", items="Spear: Melee (Heavy) +1")  # (no proficiency: +1)
    f, roller = setup(("Ann", FIGHTER), ("Guard", guard))
    (ev,) = of(attack(f, roller, (5, 5, 3, 3), "c1", "c2"), AttackRolled)
    assert ev.defense_skill.startswith("Melee")
    rs = why(f, ev)
    assert reason(rs, R.PARRY_PENALTY).terms == ("medium armor −2",)
    assert [r.terms for r in rs if r.rule_id == "armor"] == [("medium armor +1",)]


def test_a_prone_attacker_and_a_gm_modifier_are_named_as_such():
    """@52111 prone −2 on melee (a condition, set by the GM under the book's name); a GM modifier is the GM's."""
    f, roller = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    f.do(AddCondition(id="c1", name=PRONE))
    (ev,) = of(attack(f, roller, (3, 3, 6, 5, 1, 1), "c1", "c2"), AttackRolled)
    rs = why(f, ev)
    assert "prone −2 (condition)" in reason(rs, R.OPPOSED).terms
    assert reason(rs, R.TRIP).terms == ("prone −2 (condition)",)
    critical = reason(rs, R.CRITICAL)  # the defender's 6+5: a critical, 2 more dice (1,1) — not snake eyes
    assert critical.terms == ("Bob defense: 1 more 2d6",)
    assert "defended" in reason(rs, R.OPPOSED).terms[-1]


def test_a_doubled_attack_its_effect_and_its_wound():
    """@52573 doubled: the declared result lands at once; @53436 wounds; @53798 the DC 7 check at 2 left."""
    f, roller = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    events = attack(f, roller, (4, 4, 2, 3), "c1", "c2", result="trip")  # 12 vs 5: doubled
    (ev,) = of(events, AttackRolled)
    assert reason(why(f, ev), R.DOUBLE).terms == ("attack 12 ≥ 2 × defense 5",)
    (trip,) = of(events, EffectApplied)
    assert reason(why(f, trip), R.TRIP).terms == ("Bob: trip by Ann",)
    g, roller = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    (w,) = of(attack(g, roller, (3, 3, 3, 3), "c1", "c2"), Wounded)
    rs = why(g, w)
    assert reason(rs, R.WOUNDS).terms == ("Bob: wounds 3 → 2 of 3", "by Ann's attack")
    assert reason(rs, R.AT_TWO)


def test_quick_damage_healing_and_a_resolve_check():
    """The GM's quick damage and healing (ruling on @54878); resolve (@39294) at 1 wound left (@53977)."""
    f, roller = setup(("Ann", FIGHTER), ("Bob", sheet(cinematics=1)))
    from tracker.commands import Damage

    (w, *_rest) = f.do(Damage(targets=("c2",), amount="2", note="the fall"))
    assert isinstance(w, Wounded)
    rs = why(f, w)
    assert reason(rs, R.QUICK_HARM).terms[1:] == ("amount 2 (GM)", "note: the fall (GM)")
    assert reason(rs, R.AT_ONE)
    from systems.twod6.commands import Resolve

    roller.add(1, 2)
    (r, *_x) = f.do(Resolve(actor="c2"))
    assert isinstance(r, ResolveRolled) and not r.passed
    rs = why(f, r)
    assert {"Bob resolve: 2d6 [1,2]", "DC 9", "failed"} <= set(reason(rs, R.RESOLVE).terms)
    assert reason(rs, R.AT_ONE).terms == ("DC 9 against unconsciousness",)
    roller.add(5, 5)
    spent = f.do(SpendCinematic(actor="c2", use="reroll"))
    c = of(spent, CinematicSpent)[0]
    assert reason(why(f, c), R.REROLL).terms == ("reroll the failed resolve check",)
    assert reason(why(f, c), R.CINEMATIC).terms[0] == "Bob: cinematics 1 → 0"
    (h,) = of(f.do(Heal(targets=("c2",), amount="1")), Healed)
    assert reason(why(f, h), R.QUICK_HARM).terms == ("amount 1 (GM)", "wounds 1 → 2")


def test_a_resolve_settled_by_the_gm_explains_as_the_gms_ruling():
    f, roller = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    attack(f, roller, (3, 3, 3, 3), "c1", "c2")  # 10 vs 6: one wound, 2 left
    (p,) = f.state.prompts
    events = f.do(DismissPrompt(prompt_id=p.id, note="tough", outcome="fails"))
    (ruled,) = of(events, ResolveRuled)
    rs = why(f, ruled)
    assert reason(rs, R.RESOLVE).terms == ("DC 7 against unconscious", "failed (GM's ruling)")
    assert reason(rs, R.AT_TWO).terms == ("DC 7 against unconsciousness",)


def test_stealth_skill_checks_aim_and_other_actions():
    """@40535 Stealth vs Notice; @5912 a check against the GM's DC; @55306 aiming; @48822 actions."""
    f, roller = setup(("Pell", sheet(agi=1, per=1, skills="Stealth 2, Athletics 1, Shooting 1")), ("Guard", DUMMY))
    roller.add(4, 4, 1, 2)
    (sneak,) = f.do(Sneak(actor="c1", targets=("c2",)))
    assert isinstance(sneak, OpposedRolled)
    st = reason(why(f, sneak), R.STEALTH)
    assert "Stealth ranks +2 (skill)" in st.terms and "AGI +1 (stat)" in st.terms and "succeeds" in st.terms
    roller.add(3, 3)
    (check,) = f.do(SkillCheck(actor="c1", skill="Athletics", dc=9))
    assert isinstance(check, SkillChecked)
    rs = why(f, check)
    assert "DC 9 (GM)" in reason(rs, R.CHECK).terms and reason(rs, R.CHECK_COST).terms == ("half action",)
    (act,) = f.do(Act(actor="c1", action="speak"))
    assert isinstance(act, ActionTaken) and reason(why(f, act), R.ACTIONS).terms == ("speak: quick action",)
    f.do(NextTurn())
    f.do(NextTurn())
    (aimed,) = f.do(Aim(actor="c1"))
    assert isinstance(aimed, Aimed)
    assert reason(why(f, aimed), R.AIM).terms == ("PER +1 → aim +1 (at least +1)",)


def test_a_lost_defense_rerolled_explains_the_outcome_taken_back():
    """Ruling on @56400: the GM picks the check; a lost defense's outcome is taken back and worked out again."""
    f, roller = setup(("Ann", FIGHTER), ("Hero", sheet(cinematics=1)))
    attack(f, roller, (3, 3, 3, 3), "c1", "c2")
    roller.add(5, 5)
    events = f.do(SpendCinematic(actor="c2", use="reroll"))
    (back,) = of(events, Reworked)
    pick = reason(why(f, back), R.REROLL_PICK)
    assert "wounds 2 → 3/3" in pick.terms[0] and pick.terms[1] == "Ann's attack roll stands"
    (again,) = of(events, AttackRolled)
    assert reason(why(f, again), R.REROLL)


def test_a_tie_in_initiative_and_a_week_of_rest():
    """@50182 ties roll again; @54536 one wound a day fed and rested."""
    roller = ScriptedRoller()
    f = Fight(system, roller=roller)
    for name in ("Ann", "Bob"):
        f.do(AddCombatant(name=name, kind="pc", sheet=DUMMY))
    roller.add(3, 3, 4, 2, 6, 5, 1, 2)
    events = f.do(RollInitiative())
    (tie,) = of(events, InitiativeTieRolled)
    rs = why(f, tie)
    assert reason(rs, R.INITIATIVE_TIE).terms[0].startswith("Ann: 2d6")
    # the order says why the tied come in their order (three at 6 came in an order nothing explained)
    (order,) = of(events, OrderSet)
    (broke,) = reason(why(f, order), R.INITIATIVE_TIE).terms
    assert broke == "Ann before Bob: all initiative 6; tie rolls Ann 11, Bob 3", broke
    from tracker.commands import Damage

    f.do(Damage(targets=("c1",), amount="2"))
    for p in list(f.state.prompts):
        f.do(DismissPrompt(prompt_id=p.id, note="setup"))
    rested = of(f.do(Rest(days=7)), Rested)
    ann = next(e for e in rested if e.id == "c1")
    rs = why(f, ann)
    assert reason(rs, R.HEALING).terms == ("7 full days, fed and rested: 1 wound a day", "wounds 1 → 3 of 3")


# -- coverage -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_nearly_every_event_of_a_generated_fight_has_a_reason_with_a_book_place(seed: int):
    """#47: in a generated fight of 400 events (the bench's GM), ≥95% of twod6's events cite a book place."""
    f = make_fight("twod6", events=400, seed=seed)
    own = [(i, e) for i, e in enumerate(f.entries) if type(e.event) in system.event_types]
    assert len(f.entries) >= 400 and own
    placed = [
        any(PLACE.search(r.source) for r in system.explain(f.log.state_at(i), e.event, f.log.state_at(i + 1)))
        for i, e in own
    ]
    assert sum(placed) / len(placed) >= 0.95


# -- conditions (#46) -----------------------------------------------------------------------------------------


def test_every_condition_the_rules_read_is_listed_as_automated():
    """The rules read the book's "prone" (@52111) by name: it is offered, automated, under that very name."""
    listed = {c.name: c for c in system.conditions()}
    read_by_rules = {PRONE}
    for name in read_by_rules:
        assert listed[name].automated and listed[name].source == R.TRIP.source
    assert {c.name for c in system.conditions() if c.automated} == read_by_rules
    assert {"unconscious", "grappled", "disarmed", "distracted", "useless limb"} <= set(listed)
    text = SEEDS[0].read_text(encoding="utf-8") if SEEDS else ""
    for c in system.conditions():
        n = int(PLACE.search(c.source).group(1))  # type: ignore[union-attr]
        assert not text or n < len(text)
        assert c.effect


def test_the_gm_sets_prone_by_its_book_name_and_standing_up_clears_it():
    """@52111: prone −2 on melee; standing up is a half-round action (@49294) and ends it."""
    f, roller = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    f.do(AddCondition(id="c1", name=PRONE))
    (ev,) = of(attack(f, roller, (3, 3, 3, 3), "c1", "c2"), AttackRolled)
    assert ev.attack.total == 6 + 4 - 2
    g, roller = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    g.do(AddCondition(id="c1", name=PRONE))
    g.do(Act(actor="c1", action="stand up"))
    assert not any(c.name == PRONE for c in g.state.get("c1").conditions)
    refused(g, Act(actor="c1", action="stand up"), "not prone")


def test_a_resolve_check_asked_for_names_the_rule_that_asks_and_its_dc():
    """A knock-out blow's prompt cited only the core's "Prompt" (no word of @51974, nor that DC 12 is the attack's
    total); and a knock-out's resolve check at DC 7 or 9 was explained as a fall to 2 or 1 wounds left."""
    f, roller = setup(("Ann", FIGHTER), ("Bob", sheet(wil=2, skills="Resolve 2")))
    events = attack(f, roller, (1, 2, 2, 2), "c1", "c2", result="unconscious")  # 3+4 = 7 vs 4: a hit
    (raised,) = [e for e in of(events, PromptRaised) if e.prompt.kind == "resolve"]
    dc = raised.prompt.params["dc"]
    assert dc == 7, dc  # the same DC as a fall to 2 wounds left: told apart by the rule that asked
    assert reason(why(f, raised), R.KNOCKOUT).terms == ("DC 7: the attack's total",)
    roller.add(1, 2)
    (rolled,) = of(f.do(Resolve(actor="c2")), ResolveRolled)
    reasons = why(f, rolled)
    assert reason(reasons, R.KNOCKOUT).terms == ("DC 7: the attack's total",)
    assert R.AT_TWO.id not in {r.rule_id for r in reasons}


def test_a_threshold_and_a_tripled_attack_s_prompts_say_their_rules():
    f, roller = setup(("Ann", FIGHTER), ("Bob", sheet(wil=1, tou=1, skills="Resolve 1")))
    events = attack(f, roller, (6, 6, 3, 3, 1, 2), "c1", "c2")  # 21 vs 3: tripled
    (death,) = [e for e in of(events, PromptRaised) if e.prompt.params.get("stakes") == "death"]
    assert reason(why(f, death), R.TRIPLE).terms == ("DC 7 against death, then unconscious either way",)
    f2, roller2 = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    events = attack(f2, roller2, (4, 4, 3, 4), "c1", "c2")  # a hit: 3 → 2 wounds left
    (two,) = [e for e in of(events, PromptRaised) if e.prompt.kind == "resolve"]
    assert reason(why(f2, two), R.AT_TWO).terms == ("DC 7 against unconsciousness",)


def test_a_ratio_against_a_fumbled_defense_says_so():
    """Ruling (the ratios; a defense below 1 counts as 1): the ratio is taken against the defense as rolled, a
    fumbled one too; Why? says so (a GM was surprised by a death check from a weak hit)."""
    f, roller = setup(("Ann", sheet()), ("Bob", sheet()))
    events = attack(f, roller, (3, 4, 1, 1), "c1", "c2")  # 7 vs snake eyes (2): tripled
    (ev,) = of(events, AttackRolled)
    assert ev.times == 3 and ev.defense.fumble
    assert any("snake eyes: its total as rolled" in t for t in reason(why(f, ev), R.TRIPLE).terms)


def _threshold_terms(rs: tuple[Reason, ...]) -> dict[str, tuple[str, ...]]:
    return {r.rule_id: r.terms for r in rs if r.rule_id in ("at_two", "at_one", "at_zero", "lowest")}


def test_why_of_a_wound_names_only_the_check_that_was_asked():
    """@53798: Why? of a wound says which threshold's check was asked, and says so when none was: the target was
    already unconscious, or a tripled blow knocks out either way (it named a DC 7 or DC 9 check never raised);
    'One check a blow' only when the blow passed more than one threshold (it came with every fall to 1 left,
    never with 3 → 0)."""
    from tracker.commands import Damage

    f, roller = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    (w,) = of(attack(f, roller, (6, 6, 2, 2, 1, 2), "c1", "c2"), Wounded)  # 19 vs 3: tripled, 3 → 2
    assert [p.kind for p in f.state.prompts] == ["double", "death"]
    assert _threshold_terms(why(f, w)) == {
        "at_two": ("2 wounds left: no check, the tripled blow knocks out either way",)
    }

    f, roller = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    f.do(Damage(targets=("c2",), amount="1"))  # 2 left: DC 7
    roller.add(1, 2)
    f.do(Resolve(actor="c2", stakes="unconscious"))  # fails: unconscious
    (w, *_) = f.do(Damage(targets=("c2",), amount="1"))  # 1 left: no check, out already
    assert f.state.prompts == ()
    assert _threshold_terms(why(f, w)) == {"at_one": ("1 wound left: no check, already unconscious",)}

    f, _ = setup(("Ann", FIGHTER), ("Bob", DUMMY), ("Cal", DUMMY), ("Dan", DUMMY))
    (w, *_) = f.do(Damage(targets=("c2",), amount="1"))
    assert _threshold_terms(why(f, w)) == {"at_two": ("2 wounds left: DC 7 resolve",)}
    (w, *_) = f.do(Damage(targets=("c2",), amount="1"))  # 2 → 1: one threshold, no "one check a blow"
    assert _threshold_terms(why(f, w)) == {"at_one": ("1 wound left: DC 9 resolve",)}
    (w, *_) = f.do(Damage(targets=("c3",), amount="2"))  # 3 → 1
    assert _threshold_terms(why(f, w)) == {
        "at_one": ("1 wound left: DC 9 resolve",),
        "lowest": ("3 → 1 passes 2 and 1 wounds left: only the check at 1",),
    }
    (w, *_) = f.do(Damage(targets=("c4",), amount="3"))  # 3 → 0
    assert _threshold_terms(why(f, w)) == {
        "at_zero": ("0 wounds left: unconscious, DC 7 resolve or die",),
        "lowest": ("3 → 0 passes 2, 1 and 0 wounds left: only the check at 0",),
    }


def test_why_names_the_rule_of_a_result_chosen_after_the_roll():
    """A Vicious Parry's result (@23697), a doubled hit's extra result (@52573) and a spell turned back (@23476) are
    chosen after the roll: Why? names their rule, not 'The result is chosen first' (the attacker's declaration),
    and a turned spell's wound is not 'by Turner's attack'."""
    from systems.twod6.commands import ChooseDouble, Riposte

    vp = sheet(agi=1, skills="Melee (Light) 2", talents="Vicious Parry")
    for result, rule in (("disarm", None), ("trip", R.TRIP)):
        f, roller = setup(("Ann", sheet(str=1, skills="Melee (Heavy) 1")), ("Bob", vp))
        attack(f, roller, (2, 1, 4, 3), "c1", "c2")  # 5 vs 10: Bob doubles, the parry prompt
        (e,) = of(f.do(Riposte(actor="c2", target="c1", result=result)), EffectApplied)
        rs = why(f, e)
        assert reason(rs, R.VICIOUS_PARRY).terms == (f"Ann: {result} by Bob, chosen after Bob's parry doubled",)
        assert R.DECLARED.id not in {r.rule_id for r in rs}
        if rule is not None:
            assert reason(rs, rule)

    f, roller = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    attack(f, roller, (5, 5, 2, 3), "c1", "c2")  # 14 vs 5: doubled, the declared wound lands
    events = f.do(ChooseDouble(actor="c1", target="c2", choice="disarm"))
    (e,) = of(events, EffectApplied)
    rs = why(f, e)
    assert reason(rs, R.DOUBLE).terms == ("Bob: disarm by Ann, the doubled blow's extra result, chosen after the roll",)
    assert R.DECLARED.id not in {r.rule_id for r in rs}
    f, roller = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    attack(f, roller, (5, 5, 2, 3), "c1", "c2", result="distract")
    (w,) = of(f.do(ChooseDouble(actor="c1", target="c2", choice="wound")), Wounded)
    assert reason(why(f, w), R.WOUNDS).terms[-1] == "by Ann's doubled blow: its extra result, chosen after the roll"
    assert reason(why(f, w), R.DOUBLE)

    f, roller = setup(
        ("Mage", sheet(skills="Cast 1", talents="Blast")),
        ("Turner", sheet(int=2, skills="Cast 2", talents="Spell Turning")),
    )
    attack(f, roller, (1, 2, 5, 5), "c1", "c2", skill="Cast (Blast)")  # 4 vs 14: Turner doubles
    (w,) = of(f.do(Riposte(actor="c2", target="c1", result="wound")), Wounded)
    rs = why(f, w)
    assert reason(rs, R.WOUNDS).terms[-1] == "by Mage's own spell, turned back by Turner"
    assert reason(rs, R.SPELL_TURNING)


def test_a_tripled_blow_to_0_wounds_names_the_rule_of_its_minus_3():
    """A tripled blow that also drops the target to 0: the death check takes the unconscious −3 (at 0 wounds
    unconscious first, ruling on @54043); Why? names that rule, not only the tripled attack's (whose check has
    no −3)."""
    f, roller = setup(("Ann", FIGHTER), ("Bob", sheet(wil=1, skills="Resolve 2")))
    set_wounds(f, "c2", 1)
    attack(f, roller, (6, 6, 2, 2, 1, 2), "c1", "c2")  # tripled, 1 → 0
    double = next(p for p in f.state.prompts if p.kind == "double")
    f.do(DismissPrompt(prompt_id=double.id, outcome="no second result"))
    roller.add(3, 3)
    (rolled, *_) = f.do(Resolve(actor="c2", stakes="death"))  # 6 + 3 − 3 = 6: fails
    assert isinstance(rolled, ResolveRolled) and rolled.check.total == 6
    rs = why(f, rolled)
    assert reason(rs, R.TRIPLE)
    assert reason(rs, R.AT_ZERO).terms == ("at 0 wounds: unconscious first, so the check takes the −3",)


def test_an_attack_on_the_unconscious_names_unconscious_once_and_reads_plainly():
    """Why? of an attack on an unconscious defender: one 'Unconscious' reason with its terms together (it came
    twice), and the defense reads 'Bob defense, unconscious (no bonus)' (it nested brackets)."""
    from tracker.commands import Adjust

    f, roller = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    f.do(Adjust(id="c2", field="unconscious", value=True))
    (ev,) = of(attack(f, roller, (2, 3, 3, 3), "c1", "c2"), AttackRolled)
    rs = why(f, ev)
    assert [r.rule_id for r in rs].count(R.UNCONSCIOUS.id) == 1
    assert reason(rs, R.UNCONSCIOUS).terms == ("Bob is unconscious: −3 and no bonus", "unconscious −3 (condition)")
    assert "Bob defense, unconscious (no bonus): 2d6 [3,3]" in reason(rs, R.OPPOSED).terms
