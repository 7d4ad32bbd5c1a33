"""Why (#47): the Zludge rules table and the reasons behind every Zludge event, with their terms."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from systems.zludge import system
from systems.zludge.commands import (
    AmbushInitiative,
    Attack,
    ClearBox,
    FirstAid,
    InvokeAfter,
    MarkFatigue,
    MarkWound,
    RefreshAspects,
    ReopenWounds,
    RollSkill,
    TakeAction,
)
from systems.zludge.contest import Contest
from systems.zludge.table import R, rules
from systems.zludge.why import EXPLAINERS
from tests.systems.zludge.helpers import F, add, duel, end, new_fight, script
from tracker import Adjust, Fight, Refused, Rest
from tracker.commands import NextTurn, RollInitiative, SetInitiative, StartFight, parse_modifiers
from tracker.reasons import Reason

ROOT = Path(__file__).resolve().parents[3]
SEEDS = sorted((ROOT.parent / "shared" / "seeds").glob("002_*.txt"))
ZLUDGE = Path(__file__).resolve().parents[3] / "systems" / "zludge"
SWORD = {"skills": "Melee 2, Acrobatics 1", "weapon": "sword"}  # Melee +1, Acrobatics +0
BOB = {"skills": "Acrobatics 1, Melee 1", "weapon": "knife"}  # Acrobatics +0, Melee +0
PLACE = re.compile(r"l\.(\d+)(?:–(\d+))?")


def why(f: Fight, type_: str, nth: int = -1) -> tuple[Reason, ...]:
    """The reasons of the ``nth`` logged event of that type (the last by default), from the states around it."""
    at = [i for i, e in enumerate(f.entries) if type_ == e.event.TYPE]
    assert at, f"no {type_} in the log"
    i = at[nth]
    return f.system.explain(f.log.before(i), f.entries[i].event, f.log.state_at(i + 1))


def names(reasons: tuple[Reason, ...]) -> list[str]:
    return [r.rule for r in reasons]


def terms(reasons: tuple[Reason, ...], rule: str | None = None) -> list[str]:
    return [t for r in reasons if rule is None or r.rule == rule for t in r.terms]


# ---------------------------------------------------------------------------
# the table


def test_the_table_has_unique_ids_each_with_a_book_place_and_its_own_words():
    table = system.rules()
    assert table == rules() and len(table) >= 40
    assert len({r.id for r in table}) == len(table)
    for r in table:
        assert getattr(R, r.id) is r
        assert re.fullmatch(r"(ruling on )?zludge l\.\d+(–\d+)?", r.source), r.source
        assert r.name and r.text.endswith(".") and "RULINGS" not in r.text


@pytest.mark.skipif(not SEEDS, reason="the seed books are not beside the checkout")
def test_each_rule_cites_a_line_of_the_book_that_is_there_and_not_blank():
    lines = SEEDS[0].read_text(encoding="utf-8").splitlines()
    for r in [*system.rules(), *system.conditions()]:
        m = PLACE.search(r.source)
        assert m, r.source
        first, last = int(m.group(1)), int(m.group(2) or m.group(1))
        assert 1 <= first <= last <= len(lines), r.source
        for n in range(first, last + 1):
            assert lines[n - 1].strip(), f"{r.source}: line {n} is blank"


@pytest.mark.skipif(not SEEDS, reason="the seed books are not beside the checkout")
def test_some_cited_lines_say_what_the_rule_is_about():
    """Spot checks that the line numbers point at the right sentences (1-based)."""
    lines = SEEDS[0].read_text(encoding="utf-8").splitlines()
    assert '"Take 0"' in lines[17] and R.take_0.source == "zludge l.18"
    assert "flat-footed" in lines[102] and R.flat_footed.source.endswith("l.103")
    assert "clipped the target" in lines[105] and R.outcome.source.endswith("l.106")
    assert "1 level/week" in lines[134] and R.healing.source.endswith("l.135")


def test_every_rule_is_named_by_the_code_that_applies_it():
    """Each rule is referenced (``R.<id>``) in the plug-in's deciders, outside the table and the explainer."""
    code = "\n".join(
        p.read_text(encoding="utf-8") for p in ZLUDGE.rglob("*.py") if p.name not in ("table.py", "why.py")
    )
    for r in system.rules():
        assert re.search(rf"\bR\.{r.id}\b", code), f"no decider names R.{r.id}"


def test_no_zludge_file_refers_to_the_rulings_page_any_more():
    for p in [*ZLUDGE.rglob("*.py"), *Path(__file__).parent.glob("*.py")]:
        if p.name != "test_why.py":
            assert "RULINGS" not in p.read_text(encoding="utf-8"), p


def test_every_zludge_event_type_has_an_explainer():
    assert set(system.event_types) <= set(EXPLAINERS)


def test_every_zludge_event_type_is_explained_in_a_scenario_here():
    """Each event type's tag appears in a ``why(...)`` call of this module's scenarios."""
    tree = ast.parse(Path(__file__).read_text(encoding="utf-8"))
    asked = {
        n.args[1].value
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and getattr(n.func, "id", "") == "why" and isinstance(n.args[1], ast.Constant)
    }
    assert {t.TYPE for t in system.event_types} <= asked


# ---------------------------------------------------------------------------
# attacks


def test_an_attack_explains_each_die_each_modifier_and_where_it_came_from():
    f = duel(SWORD, BOB)
    f.do(MarkWound(target="c2", level=1))  # Bob Hurt: -1 to his defense
    script(f, F(2), F(0))  # +2 +1 skill +1 GM = +4 vs 0 +0 +1 cover -1 Hurt = 0: critical
    f.do(
        Attack(
            actor="c1",
            target="c2",
            modifiers=parse_modifiers("high ground +1"),
            defense_modifiers=parse_modifiers("cover +1"),
        )
    )
    rs = why(f, "zludge.attack_resolved")
    assert names(rs)[:3] == ["Attack against defense", "Miss, clip or hit", "Critical hit"]
    attack = terms(rs, "Attack against defense")
    assert "Alice's Melee attack: 4dF [+,+,0,0] = 2" in attack
    assert "Melee +1 Decent (skill: 2 ranks +1)" in attack
    assert "high ground +1 (GM)" in attack and "attack total +4 Superb" in attack
    assert "Bob's Acrobatics defense: 4dF [0,0,0,0] = 0" in attack
    assert "cover +1 (GM)" in attack and "Hurt −1 (wound)" in attack and "defense total +0 Fair" in attack
    assert terms(rs, "Miss, clip or hit") == ["attack +4 Superb vs defense +0 Fair: margin +4 → critical"]
    assert terms(rs, "Critical hit") == ["margin +4 is 4 or more: +1 damage level"]
    assert terms(rs, "Weapon damage levels") == ["weapon level 2 (sword)"]
    assert terms(rs, "Armor") == ["armor 0 absorbs nothing", "2 − 0 + 1 (critical) = 3-level damage"]
    assert terms(rs, "Wound penalties") == ["Bob: Hurt −1 (wound) on the defense"]
    assert terms(rs, "Situational modifiers") == [
        "Alice: high ground +1 (GM) on the attack",
        "Bob: cover +1 (GM) on the defense",
    ]
    assert {r.source for r in rs if r.rule == "Critical hit"} == {"zludge l.106"}
    assert all(r.rule_id and r.text for r in rs)


def test_armor_absorbs_levels_and_a_hit_below_0_does_nothing():
    f = duel(SWORD, {**BOB, "armor": "heavy kevlar"})
    script(f, F(1), F(0))  # +2 vs 0: hit, sword 2 - armor 3 = -1
    f.do(Attack(actor="c1", target="c2"))
    rs = why(f, "zludge.attack_resolved")
    assert terms(rs, "Armor") == ["armor 3 (heavy kevlar) absorbs 3 levels", "2 − 3 = −1"]
    assert terms(rs, "Armor stops the hit") == ["damage level −1 is below 0: no damage"]
    assert next(r.source for r in rs if r.rule == "Armor stops the hit") == "ruling on zludge l.106"


def test_a_flat_footed_target_meets_a_fixed_defense():
    f = new_fight()
    add(f, "Alice", **SWORD)
    add(f, "Bob", kind="npc", **BOB)
    f.do(SetInitiative(values={"c1": 2, "c2": 1}))
    f.do(StartFight())
    script(f, F(-1))  # 0 vs fixed -1 (stationary): hit
    f.do(Attack(actor="c1", target="c2"))
    rs = why(f, "zludge.attack_resolved")
    assert "Flat-footed" in names(rs)
    flat = terms(rs, "Flat-footed")
    assert flat == ["Bob has not acted yet", "stationary −1 (flat-footed, fixed defense)", "fixed defense −1 Poor"]
    assert next(r.source for r in rs if r.rule == "Flat-footed") == "ruling on zludge l.103"


def test_an_unarmed_blow_is_0_level_and_a_called_shot_picks_the_place():
    f = duel({**SWORD, "skills": "Melee 2, Unarmed 3"}, BOB)
    script(f, F(2), F(-2))  # Unarmed +2 -2 called +2 = +2 vs -2: hit by 4: critical
    f.do(Attack(actor="c1", target="c2", skill="Unarmed", called_shot="head"))
    rs = why(f, "zludge.attack_resolved")
    assert terms(rs, "Unarmed is 0-level") == ["Unarmed: 0-level, not the sword's 2"]
    assert "called shot (head) −2 (called shot)" in terms(rs, "Attack against defense")
    assert terms(rs, "Called shot") == ["Alice: called shot (head) −2 (called shot) on the attack"]


def test_partial_armor_rolls_a_location_and_counts_only_where_it_covers():
    f = duel(SWORD, {**BOB, "armor": "flak jacket", "armor_covers": "torso"})
    script(f, F(1), F(0), 4)  # +2 vs 0: hit; 1d6 4: right arm, bare
    f.do(Attack(actor="c1", target="c2"))
    rs = why(f, "zludge.attack_resolved")
    assert terms(rs, "Hit location") == ["1d6 [4] = 4 → right arm"]
    assert terms(rs, "Partial armor") == ["flak jacket covers torso", "the right arm is bare: armor 0"]
    assert terms(rs, "Armor")[-1] == "2 − 0 = 2-level damage"


# ---------------------------------------------------------------------------
# the tracks


def test_a_clip_checks_a_scratch_and_ends_when_the_victim_acts():
    f = duel(SWORD, BOB)
    script(f, F(0), F(1))  # +1 vs +1: clipped
    f.do(Attack(actor="c1", target="c2"))
    rs = why(f, "zludge.wound_marked")
    assert names(rs) == ["Wound boxes", "Clipped"]
    assert terms(rs, "Wound boxes") == ["0-level wound from Alice's sword", "checks a Scratched box"]
    assert terms(rs, "Clipped") == ["0-level damage: Bob is clipped, −1 to physical actions until its next action"]
    f.do(NextTurn())  # Bob's turn: the clip ends
    assert terms(why(f, "turn_started"), "Clipped") == ["Bob acts: the clip ends"]


def test_a_clip_on_the_hurt_is_as_bad_and_on_the_very_hurt_is_the_lesser():
    """A Hurt victim clipped read "Hurt −1 is worse" of two penalties of −1."""
    f = duel(SWORD, BOB)
    f.do(MarkWound(target="c2", level=1))  # Hurt: −1
    f.do(MarkWound(target="c2", level=0))
    assert terms(why(f, "zludge.wound_marked"), "Clipped")[1:] == ["Hurt −1 is as bad: they do not add up"]
    f.do(MarkWound(target="c2", level=1))
    f.do(MarkWound(target="c2", level=1))  # Very Hurt: −2
    f.do(MarkWound(target="c2", level=0))
    assert terms(why(f, "zludge.wound_marked"), "Clipped")[1:] == ["Very Hurt −2 is worse: the worst applies"]


def test_a_full_level_pushes_the_wound_up_and_no_box_left_kills():
    f = duel(SWORD, BOB)
    f.do(MarkWound(target="c2", level=1))
    f.do(MarkWound(target="c2", level=1))
    f.do(MarkWound(target="c2", level=1, note="falling rocks"))
    rs = why(f, "zludge.wound_marked")
    assert terms(rs, "Wound boxes") == [
        "1-level wound from falling rocks",
        "Hurt full: one level up",
        "checks a Very Hurt box",
    ]
    assert terms(rs, "Boxes per level") == [
        "boxes: Scratched 3, Hurt 2, Very Hurt 1, Incapacitated 1, Comatose 1 (Durability 0, Fortitude +0)"
    ]
    assert terms(rs, "Wound penalties") == ["now Very Hurt: −2 to physical actions"]
    f.do(MarkWound(target="c2", level=3))
    rs = why(f, "zludge.wound_marked")
    assert terms(rs, "Wound boxes")[-1] == "checks an Incapacitated box"  # ("checks a Incapacitated box")
    f.do(MarkWound(target="c2", level=4))
    f.do(MarkWound(target="c2", level=4))
    rs = why(f, "zludge.wound_marked")
    assert terms(rs, "Death") == ["no box left at Comatose: Bob dies"]  # ("from Comatose up to Comatose")


def test_fatigue_fills_its_track_and_beyond_unconscious_is_lost():
    f = duel(SWORD, BOB)
    f.do(MarkFatigue(target="c2", level=1, note="the long run"))
    rs = why(f, "zludge.fatigue_marked")
    assert terms(rs, "Fatigue boxes") == ["1-level physical fatigue (P) from the long run", "checks a Tired box"]
    assert terms(rs, "Fatigue penalties") == ["now Tired: −1 to every action"]
    f.do(MarkFatigue(target="c2", level=3))
    assert terms(why(f, "zludge.fatigue_marked"), "Exhausted") == ["now Exhausted: −3 and prone"]
    f.do(MarkFatigue(target="c2", level=4))
    f.do(MarkFatigue(target="c2", level=4))
    assert terms(why(f, "zludge.fatigue_marked"), "Fatigue beyond Unconscious") == [
        "no fatigue box left: Bob stays Unconscious"
    ]


def test_a_cleared_box_is_the_gms_with_the_note():
    f = duel(SWORD, BOB)
    f.do(MarkWound(target="c2", level=1))
    f.do(ClearBox(target="c2", level=1, note="it was a graze"))
    rs = why(f, "zludge.box_cleared")
    assert terms(rs, "Clearing a box") == ["a Hurt box cleared from the wounds track", "the GM's: it was a graze"]


# ---------------------------------------------------------------------------
# rolls, first aid, aspects and plot points


def test_the_books_worked_example_a_plus_4_climbing_roll_taken_as_0():
    """l.68: Fortitude +1, Athletics 3 ranks and a Climbing specialization: +4, Superb on a Take 0."""
    f = new_fight()
    add(f, "Alice", fortitude=1, skills="Athletics 3 +Climbing @Fortitude")
    f.do(RollSkill(actor="c1", skill="Athletics", specialty="Climbing", take_0=True))
    rs = why(f, "zludge.skill_rolled")
    assert names(rs) == ["Test", "Take 0"]
    assert terms(rs, "Test") == [
        "Alice's Athletics (Climbing): no roll, the dice count as 0 (Take 0)",
        "Athletics (Climbing) +4 Superb (skill: 3 ranks +2, specialization +1 "
        "(rank modifier at most +4), Fortitude +1)",
        "total +4 Superb: critical success",
    ]
    assert next(r.source for r in rs if r.rule == "Take 0") == "zludge l.18"


def test_first_aid_treats_wounds_and_a_failed_physical_check_reopens_them():
    f = end(duel({**SWORD, "skills": "Medical 2 +First Aid"}, BOB))  # first aid is given after the fight
    f.do(MarkWound(target="c2", level=2))
    script(f, F(0))
    f.do(FirstAid(actor="c1", target="c2", difficulty=1))
    rs = why(f, "zludge.skill_rolled")
    aid = terms(rs, "First aid")
    assert "Medical (First Aid) +3 Great (skill: 2 ranks +1, specialization +2)" in aid
    assert "difficulty +1 (task difficulty)" in aid and aid[-1] == "on Bob: wounds will impair one level less"
    assert "not physical: wound and clip penalties do not weigh on it" in aid
    assert terms(why(f, "zludge.wounds_treated"), "First aid") == [
        "1 wound above Scratched treated; the boxes stay",
        "penalty −2 → −1",
    ]
    f.do(ReopenWounds(target="c2", note="he tried to run"))
    assert terms(why(f, "zludge.wounds_reopened"), "Reopened wounds") == [
        "the GM's ruling: he tried to run",
        "penalty −1 → −2",
    ]


def test_an_aspect_after_the_roll_changes_the_reading_and_takes_the_harm_back():
    f = duel({**SWORD, "aspects": "Star Ranger", "plot_points": 1}, BOB)
    script(f, F(0), F(1))  # +1 vs +1: clipped
    f.do(Attack(actor="c1", target="c2"))
    f.do(InvokeAfter(actor="c1", aspect="Star Ranger"))  # +2 vs +1: hit
    rs = why(f, "zludge.roll_revised")
    assert names(rs) == ["Invoking an aspect", "Reading a revised roll", "Miss, clip or hit"]
    assert terms(rs, "Invoking an aspect") == [
        "Alice invokes 'Star Ranger' after the roll: +1",
        "checked off for the day",
    ]
    assert terms(rs, "Reading a revised roll") == ["attack +1 Decent → +2 Good"]
    assert terms(rs, "Miss, clip or hit") == ["attack +2 Good vs defense +1 Decent: now hit"]
    back = why(f, "zludge.harm_taken_back")
    assert names(back) == ["Reading a revised roll"]
    assert "taken back" in back[0].terms[0]
    f.do(RefreshAspects())
    assert terms(why(f, "zludge.aspects_refreshed"), "Aspects refresh") == ["Alice's aspects refreshed"]


def test_a_plot_point_on_the_attack_is_named():
    f = duel({**SWORD, "plot_points": 1}, BOB)
    script(f, F(0), F(1))
    f.do(Attack(actor="c1", target="c2", plot_points=1))
    rs = why(f, "zludge.attack_resolved")
    assert terms(rs, "Plot point") == ["Alice: plot point +1 (plot point) on the attack"]


def test_any_other_action_is_the_turns_one_action():
    f = duel(SWORD, BOB)
    f.do(TakeAction(actor="c1", text="reloads", physical=True))
    rs = why(f, "zludge.action_taken")
    assert terms(rs, "One action a turn") == ["Alice's action this turn: reloads (physical)"]
    assert rs[0].source == "zludge l.104"


# ---------------------------------------------------------------------------
# initiative, ambush, contests, rest


def test_initiative_rolls_ties_and_the_order_explain_themselves():
    f = new_fight()
    add(f, "Alice", skills="Reflexes 2")
    add(f, "Bob", kind="npc")
    script(f, F(0), F(2), F(1), F(0))  # Reflexes +1 vs -1 (untrained): +1 vs +1, tied; again +2 vs -1
    f.do(RollInitiative())
    rs = why(f, "initiative_set", 0)
    assert names(rs) == ["Initiative"] and rs[0].source == "zludge l.100"
    assert rs[0].terms == ("Alice: 4dF [0,0,0,0] = 0", "Reflexes +1", "initiative +1 Decent")
    tie = why(f, "zludge.tie_rerolled")
    assert terms(tie, "Initiative ties") == [
        "Alice: 4dF [+,0,0,0] = 1 +1 (same modifiers as the first roll) → +2 Good",
        "Bob: 4dF [0,0,0,0] = 0 −1 (same modifiers as the first roll) → −1 Poor",
    ]
    assert terms(why(f, "order_set"), "Initiative") == ["highest first: Alice, Bob"]


def test_an_ambush_names_its_rule_and_the_surprise_action():
    f = new_fight()
    add(f, "Alice", skills="Stealth 2")
    add(f, "Bob", kind="npc")
    script(f, F(0), F(0))
    f.do(AmbushInitiative(ambushers=("c1",)))
    rs = why(f, "zludge.ambush_declared")
    assert names(rs) == ["Ambush", "Surprise action"]
    assert terms(rs, "Ambush")[0] == "ambushers: Alice (Stealth)"
    assert "ambusher: Stealth +1" in why(f, "initiative_set", 0)[0].terms


def test_contests_simple_and_regular():
    f = new_fight()
    add(f, "Alice", skills="Athletics 2")
    add(f, "Bob", kind="npc", skills="Athletics 2")
    script(f, F(1), F(1), F(1), F(0))  # equal scores -> regular: tie, then Alice wins
    f.do(Contest(actor="c1", target="c2", skill="Athletics", kind="simple"))
    simple = why(f, "zludge.contest_rolled", 0)
    assert names(simple) == ["Simple contest"] and simple[0].terms[-1] == "equal scores: a regular contest follows"
    assert "Athletics +1 Decent (skill: 2 ranks +1)" in simple[0].terms
    tie = why(f, "zludge.contest_rolled", 1)
    assert names(tie) == ["Regular contest"] and tie[0].terms[-1] == "tie: both roll again"
    won = why(f, "zludge.contest_rolled", 2)
    assert won[0].terms[0] == "roll 2" and won[0].terms[-1] == "Alice wins"


def test_why_a_trained_skill_is_not_called_untrained():
    """l.63: a skill defaults to -1 without ranks, each rank +1. Only a skill not on the sheet is "untrained";
    Why? once began every trained skill "−1 untrained" (Melee 1 read "Melee +0 Fair (skill: −1 untrained, +1
    rank)"). Ruling in why.skill_term."""
    f = duel(BOB, {"skills": "Acrobatics 0, Melee 1", "weapon": "knife"})
    script(f, F(0), F(0))
    f.do(Attack(actor="c1", target="c2", defense="Acrobatics"))
    attack = terms(why(f, "zludge.attack_resolved"), "Attack against defense")
    assert "Melee +0 Fair (skill: 1 rank +0)" in attack
    assert "Acrobatics −1 Poor (skill: 0 ranks −1)" in attack
    assert not any("untrained" in t for t in attack), attack
    f.do(RollSkill(actor="c2", skill="Stealth", as_action=False, take_0=True))
    assert any(t.endswith("−1 Poor (skill: untrained −1)") for t in terms(why(f, "zludge.skill_rolled")))


def test_a_week_of_rest_explains_the_healing_with_the_books_rate():
    f = new_fight()
    add(f, "Alice")
    f.do(Adjust(id="c1", field="wound_track", value="...|..|2|2|2"))
    f.do(Adjust(id="c1", field="fatigue_track", value="P..|..|.|.|."))
    f.do(Rest(days=7))
    rs = why(f, "zludge.rested")
    assert names(rs)[0] == "Healing" and rs[0].source == "zludge l.135"
    assert terms(rs, "Where a healed wound sits") == [
        "Alice: a Very Hurt becomes a Hurt (stays in its Comatose box: the Hurt boxes are full)"
    ]
    assert terms(rs, "Fatigue recovery") == ["Alice: physical fatigue heals 1 level"]
    assert terms(rs, "Healing")[0] == "Alice: 1 week of 7-day weeks, no caregiver"
    assert "Alice: a Very Hurt becomes a Hurt (×2)" in terms(rs, "Healing")


# ---------------------------------------------------------------------------
# refusals and coverage


def test_refusals_name_their_rule_and_its_place():
    f = duel(SWORD, BOB)
    with pytest.raises(Refused) as e:
        f.do(Attack(actor="c2", target="c1"))
    assert e.value.rule is R.turn and str(e.value).endswith(" — One action a turn, zludge l.104")
    with pytest.raises(Refused) as e:
        f.do(RollSkill(actor="c1", skill="Melee", take_0=True))
    assert e.value.rule is R.combat_rolls and "zludge l.21" in str(e.value)
    with pytest.raises(Refused) as e:
        f.do(Attack(actor="c1", target="c2", modifiers=parse_modifiers("cover -2")))
    assert e.value.rule is R.situational and str(e.value).endswith("ruling on zludge l.107–109")


def test_a_fight_saved_before_reasons_explains_every_zludge_event_from_its_states():
    """The second-round fight file (tests/systems/zludge/data) explains too, a 5-level grenade wound included."""
    import saves

    f = saves.load(Path(__file__).parent / "data" / "old_fight.jsonl").fight()
    seen = set()
    for i, e in enumerate(f.entries):
        if e.event.TYPE.startswith("zludge."):
            rs = f.system.explain(f.log.before(i), e.event, f.log.state_at(i + 1))
            assert any(PLACE.search(r.source) for r in rs), e.event
            seen.add(e.event.TYPE)
    assert len(seen) >= 12
    i = next(i for i, e in enumerate(f.entries) if getattr(e.event, "wound", 0) > 4)
    grenade = f.system.explain(f.log.before(i), f.entries[i].event, f.log.state_at(i + 1))
    assert terms(grenade, "Death") == ["no box left above Comatose: Bob dies"]


def test_at_least_95_percent_of_zludge_events_in_a_generated_fight_have_a_book_place():
    from bench.fights import make_fight

    f = make_fight("zludge", events=400)
    ours = placed = 0
    for i, e in enumerate(f.entries):
        if not e.event.TYPE.startswith("zludge."):
            continue
        ours += 1
        rs = f.system.explain(f.log.before(i), e.event, f.log.state_at(i + 1))
        placed += any(PLACE.search(r.source) for r in rs)
    assert ours >= 100 and placed / ours >= 0.95, (placed, ours)
