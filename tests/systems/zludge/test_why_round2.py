"""Why? round 2 (findings Z1–Z3): a treated wound's penalty, an aspect's reroll before the roll, contests' rules,
skills and a simple contest revised to a tie.  Rulings in systems/zludge/why.py (_origin, reroll_reasons, _side,
skill_term, _revised_contest)."""

from __future__ import annotations

from systems.zludge.commands import Attack, InvokeAfter, RollSkill
from systems.zludge.contest import Contest
from tests.systems.zludge.helpers import F, add, duel, new_fight, script, treated
from tracker import Fight
from tracker.commands import parse_modifiers
from tracker.reasons import Reason

MEDIC = {"skills": "Melee 2, Athletics 2, Acrobatics 1, Medical 2 +First Aid", "weapon": "sword", "durability": 1}
BOB = {"skills": "Acrobatics 1, Melee 1, Athletics 1", "weapon": "knife"}
TREATED = "Very Hurt treated −1 (wound, eased one level by first aid)"


def why(f: Fight, type_: str, nth: int = -1) -> tuple[Reason, ...]:
    at = [i for i, e in enumerate(f.entries) if type_ == e.event.TYPE]
    assert at, f"no {type_} in the log"
    i = at[nth]
    return f.system.explain(f.log.before(i), f.entries[i].event, f.log.state_at(i + 1))


def names(reasons: tuple[Reason, ...]) -> list[str]:
    return [r.rule for r in reasons]


def terms(reasons: tuple[Reason, ...], rule: str | None = None) -> list[str]:
    return [t for r in reasons if rule is None or r.rule == rule for t in r.terms]


def wounded() -> Fight:
    """Alice (c1) carries a Very Hurt wound she treated herself before the fight: −1, not −2."""
    f = duel(MEDIC, BOB, before=treated("c1", 2))
    assert [m.label for m in f.state.get("c1").data.penalties(physical=True)] == ["Very Hurt treated"]
    return f


# ---------------------------------------------------------------------------
# Z1: a treated wound


def test_a_treated_wound_on_a_skill_roll_is_the_wounds_penalty_eased_by_first_aid():
    f = wounded()
    script(f, F(0))
    f.do(RollSkill(actor="c1", skill="Athletics", as_action=False))
    rs = why(f, "zludge.skill_rolled")
    assert TREATED in terms(rs, "Test")
    assert "Situational modifiers" not in names(rs)
    assert terms(rs, "Wound penalties") == [f"Alice: {TREATED} on the roll"]
    assert terms(rs, "First aid") == [f"Alice: {TREATED} on the roll"]
    assert not any("(GM)" in t for t in terms(rs))


def test_a_treated_wound_on_an_attack_cites_wound_penalties_and_first_aid():
    f = wounded()
    script(f, F(0), F(0))
    f.do(Attack(actor="c1", target="c2"))
    rs = why(f, "zludge.attack_resolved")
    assert TREATED in terms(rs, "Attack against defense")
    assert "Situational modifiers" not in names(rs)
    assert terms(rs, "First aid") == [f"Alice: {TREATED} on the attack"]


def test_a_treated_wound_on_a_contest_cites_wound_penalties_and_first_aid():
    f = wounded()
    script(f, F(1), F(0))  # Alice +1 −1 +1 vs Bob +0
    f.do(Contest(actor="c1", target="c2", skill="Athletics"))
    rs = why(f, "zludge.contest_rolled")
    assert TREATED in terms(rs, "Regular contest")
    assert "Situational modifiers" not in names(rs)
    assert terms(rs, "Wound penalties") == [f"Alice: {TREATED} on the contest"]
    assert terms(rs, "First aid") == [f"Alice: {TREATED} on the contest"]


# ---------------------------------------------------------------------------
# Z2: an aspect's reroll before the roll, and a contest's modifiers


def test_an_aspect_reroll_before_the_roll_is_named_on_the_attack_and_on_the_defense():
    f = duel({**MEDIC, "aspects": "Brave"}, {**BOB, "aspects": "Nimble"})
    script(f, F(-2), F(1), F(0), F(2))  # attack -2, rerolled to +1 (kept); defense 0, rerolled to +2 (kept)
    f.do(
        Attack(actor="c1", target="c2", aspect="Brave", aspect_use="reroll", defense_aspect="Nimble",
               defense_aspect_use="reroll")
    )  # fmt: skip
    rs = why(f, "zludge.attack_resolved")
    assert terms(rs, "Invoking an aspect") == [
        "Alice invokes 'Brave' before the attack: a reroll, the better of the two rolls counts",
        "checked off for the day",
        "Bob invokes 'Nimble' before the defense: a reroll, the better of the two rolls counts",
        "checked off for the day",
    ]


def test_an_aspect_reroll_before_the_roll_is_named_on_a_skill_roll_and_a_contest():
    f = new_fight()
    add(f, "Ann", skills="Athletics 2", aspects="Runner, Quick")
    add(f, "Bo", kind="npc", skills="Athletics 1", aspects="Strong")
    script(f, F(-2), F(1))
    f.do(RollSkill(actor="c1", skill="Athletics", aspect="Quick", aspect_use="reroll", as_action=False))
    rs = why(f, "zludge.skill_rolled")
    assert "Invoking an aspect" in names(rs)
    assert terms(rs, "Invoking an aspect")[0] == (
        "Ann invokes 'Quick' before the roll: a reroll, the better of the two rolls counts"
    )
    script(f, F(0), F(-1), F(2))  # Ann 0 (+1 → +1); Bo -1 rerolled to +2 (+0 → +2)
    f.do(Contest(actor="c1", target="c2", skill="Athletics", target_aspect="Strong", target_aspect_use="reroll"))
    rs = why(f, "zludge.contest_rolled")
    assert terms(rs, "Invoking an aspect") == [
        "Bo invokes 'Strong' before the contest: a reroll, the better of the two rolls counts",
        "checked off for the day",
    ]


def test_a_contest_cites_the_rules_of_its_modifiers():
    """An attack's or skill roll's aspect, plot point and GM modifier cite their rules; a contest's now do too."""
    f = new_fight()
    add(f, "Ann", skills="Athletics 2", aspects="Runner", plot_points=1)
    add(f, "Bo", kind="npc", skills="Athletics 1")
    script(f, F(0), F(0))
    f.do(
        Contest(actor="c1", target="c2", skill="Athletics", aspect="Runner", plot_points=1,
                target_modifiers=parse_modifiers("mud -1"))
    )  # fmt: skip
    rs = why(f, "zludge.contest_rolled")
    assert names(rs) == ["Regular contest", "Invoking an aspect", "Plot point", "Situational modifiers"]
    assert terms(rs, "Invoking an aspect") == ["Ann: aspect 'Runner' +1 (aspect, checked off) on the contest"]
    assert terms(rs, "Plot point") == ["Ann: plot point +1 (plot point) on the contest"]
    assert terms(rs, "Situational modifiers") == ["Bo: mud −1 (GM) on the contest"]


def test_a_contest_that_is_not_physical_says_wound_penalties_do_not_weigh():
    f = wounded()
    script(f, F(0), F(0))
    f.do(Contest(actor="c1", target="c2", skill="Athletics", physical=False))
    rs = why(f, "zludge.contest_rolled")
    assert "not physical: wound and clip penalties do not weigh on it" in terms(rs, "Regular contest")
    assert "Wound penalties" not in names(rs)


# ---------------------------------------------------------------------------
# Z3: contest skills, untrained sides, a simple contest revised to a tie


def test_contest_sides_name_the_skill_they_rolled():
    f = new_fight()
    add(f, "Ann", skills="Athletics 2")
    add(f, "Bo", kind="npc", skills="Acrobatics 1")
    script(f, F(1), F(0))
    f.do(Contest(actor="c1", target="c2", skill="Athletics", target_skill="Acrobatics"))
    contest = terms(why(f, "zludge.contest_rolled"), "Regular contest")
    assert "Ann's Athletics: 4dF [+,0,0,0] = 1" in contest
    assert "Bo's Acrobatics: 4dF [0,0,0,0] = 0" in contest
    f.do(Contest(actor="c1", target="c2", skill="Athletics", target_skill="Acrobatics", kind="simple"))
    simple = terms(why(f, "zludge.contest_rolled"), "Simple contest")
    assert simple[0] == "Ann's Athletics: no roll" and "Bo's Acrobatics: no roll" in simple


def test_an_untrained_contest_side_is_named_by_its_skill():
    f = new_fight()
    add(f, "Ann", skills="Melee 1")
    add(f, "Bo", kind="npc", skills="Melee 1")
    script(f, F(1), F(0))
    f.do(Contest(actor="c1", target="c2", skill="Athletics"))
    contest = terms(why(f, "zludge.contest_rolled"), "Regular contest")
    assert contest.count("Athletics −1 Poor (skill: untrained −1)") == 2, contest
    assert not any(t.startswith("untrained") for t in contest), contest
    f.do(RollSkill(actor="c1", skill="Stealth", as_action=False, take_0=True))
    assert "Stealth −1 Poor (skill: untrained −1)" in terms(why(f, "zludge.skill_rolled"), "Test")


def test_a_simple_contest_revised_to_a_tie_cites_the_simple_contest():
    """l.19: equal scores in a simple contest become a regular contest (the next event is its roll 1)."""
    f = new_fight()
    add(f, "Ann", skills="Athletics 2")
    add(f, "Bo", kind="npc", skills="Athletics 1", aspects="Strong")
    script(f, F(1), F(0))  # the regular contest that follows: Ann +2 vs Bo +1
    f.do(Contest(actor="c1", target="c2", skill="Athletics", kind="simple"))  # +1 vs +0: Ann wins
    f.do(InvokeAfter(actor="c2", aspect="Strong"))  # +1 vs +1: equal scores
    rs = why(f, "zludge.roll_revised")
    assert "Regular contest" not in names(rs)
    assert terms(rs, "Simple contest") == ["+1 Decent vs +1 Decent: now equal scores: a regular contest follows"]
    assert terms(why(f, "zludge.contest_rolled"), "Regular contest")[0] == "roll 1"


def test_a_regular_contest_revised_to_a_tie_still_rolls_again():
    f = new_fight()
    add(f, "Ann", skills="Athletics 2")
    add(f, "Bo", kind="npc", skills="Athletics 1", plot_points=1)
    script(f, F(0), F(0), F(1), F(0))  # +1 vs +0; revised to +1 vs +1: roll 2, Ann wins
    f.do(Contest(actor="c1", target="c2", skill="Athletics"))
    f.do(InvokeAfter(actor="c2", plot_points=1))
    assert terms(why(f, "zludge.roll_revised"), "Regular contest") == [
        "+1 Decent vs +1 Decent: now a tie: both roll again"
    ]
