"""An NPC's "Deficient in" read as a GM writes it (regression check rg, finding F1).

Book l.239: "When the NPC must make a save (including shooting a firearm), they must save under or equal to their
Threat + 8. If an NPC would be deficient in something, divide their Threat in half first (rounding up) before
adding 8." A Bandit "Deficient in: shooting, guns" shot at Threat + 8 while its detail pane promised
⌈Threat ÷ 2⌉ + 8: the sheet's phrases were matched word for word against the stat, the weapon's name, kind and
tags. Rulings: ``systems/blackjack/deficiency.py`` (the table of the words a GM writes) and ``show.detail`` (the
warning under a phrase no save tests).
"""

from __future__ import annotations

from typing import Any

import pytest

from systems.blackjack import system
from systems.blackjack.commands import Attack, CastWorking, IngestLead, MakeSave
from systems.blackjack.events import AttackMade, SaveRolled
from systems.blackjack.show import detail
from systems.blackjack.table import R
from tests.systems.blackjack.helpers import new_fight, npc, pc
from tracker import Fight
from tracker.model import NPC

# Threat 5: an NPC saves ≤ 13, deficient ≤ ⌈5 ÷ 2⌉ + 8 = 11; the d20 shows 12, between the two.
FULL, HALF, FACE = 13, 11, 12


def _save(events: list[Any]) -> tuple[int, str]:
    """The one save logged: its limit and the sheet's phrase that halved it."""
    (s,) = [e.save for e in events if isinstance(e, (SaveRolled, AttackMade))]
    return s.limit, s.deficient


def _attack(deficiencies: str, weapon: str, rng: str = "auto") -> tuple[int, str]:
    """A Threat 5 Bandit with ``weapon`` attacks a PC (DV 0) at ``rng``."""
    f = new_fight(FACE)
    hero = pc(f, "Hero")
    bandit = npc(f, "Bandit", threat=5, weapons=weapon, deficiencies=deficiencies)
    return _save(f.do(Attack(actor=bandit, targets=(hero,), weapon=weapon, range=rng)))


@pytest.mark.parametrize(
    ("phrase", "weapon", "rng"),
    [
        # shooting a firearm: the book's own word, and the GM's
        ("shooting", "Revolver", "auto"),
        ("shooting a firearm", "Revolver", "auto"),
        ("guns", "Revolver", "auto"),
        ("Guns", "Rifle", "far"),
        ("firearms", "Shotgun", "auto"),
        ("pistols", "Revolver", "auto"),
        ("pistol", "Pistol", "auto"),
        ("handguns", "Revolver", "auto"),
        ("ranged", "Revolver", "auto"),
        ("ranged attacks", "Bow", "auto"),
        ("ranged weapons", "Revolver", "auto"),
        ("ACC saves", "Revolver", "auto"),
        ("shots", "Rifle", "auto"),
        ("firearms (rifles)", "Rifle", "auto"),
        ("shooting", "Bow", "auto"),
        ("archery", "Bow", "auto"),
        ("ranged combat", "Revolver", "auto"),  # (audit a14 g1, F4: these five matched nothing)
        ("gunplay", "Revolver", "auto"),
        ("marksmanship", "Rifle", "auto"),
        # a blow at close range
        ("knives", "Knife", "auto"),
        ("fighting", "Knife", "auto"),
        ("melee", "Knife", "auto"),
        ("hand-to-hand", "Machete", "auto"),
        ("hand to hand", "Machete", "auto"),
        ("close combat", "Club", "auto"),
        ("blades", "Machete", "auto"),
        ("BODY saves", "Machete", "auto"),
        ("melee", "Claws", "auto"),
        ("melee attacks", "Club", "auto"),
        ("unarmed fighting", "Fists", "auto"),
        ("brawling", "Fists", "auto"),
        ("hand-to-hand combat", "Machete", "auto"),
        ("fisticuffs", "Fists", "auto"),
        # a knife thrown at nearby range
        ("throwing", "Knife", "nearby"),
        ("thrown knives", "Knife", "nearby"),
        ("ranged", "Throwing knife", "nearby"),
        # alternatives
        ("guns or knives", "Revolver", "auto"),
        ("guns and knives", "Knife", "auto"),
    ],
)
def test_the_gms_words_match(phrase: str, weapon: str, rng: str) -> None:
    """The phrase halves the Bandit's save: ⌈5 ÷ 2⌉ + 8 = 11, and the log keeps the sheet's phrase."""
    assert _attack(phrase, weapon, rng) == (HALF, phrase)


@pytest.mark.parametrize(
    ("phrase", "weapon", "rng"),
    [
        ("guns", "Knife", "auto"),
        ("shooting", "Knife", "auto"),
        ("ranged", "Knife", "auto"),
        ("fighting", "Revolver", "auto"),
        ("hand-to-hand combat", "Revolver", "auto"),
        ("ranged combat", "Knife", "auto"),
        ("gunplay", "Knife", "auto"),
        ("melee", "Revolver", "auto"),
        ("magic", "Revolver", "auto"),
        ("knives", "Revolver", "auto"),
        ("knives", "Machete", "auto"),
        ("CTRL saves", "Revolver", "auto"),
        ("pistols", "Rifle", "auto"),
        ("rifles", "Revolver", "auto"),
        ("firearms (rifles)", "Revolver", "auto"),
        ("fire", "Revolver", "auto"),
        ("shooting", "Knife", "nearby"),
        ("fighting", "Throwing knife", "nearby"),
        ("melee", "Knife", "nearby"),  # (a thrown knife is no melee, as it is no hand-to-hand: audit a14 g2, F3)
        ("melee combat", "Knife", "nearby"),
        ("guns", "Bow", "auto"),
        ("saves", "Revolver", "auto"),
        ("swimming", "Revolver", "auto"),
    ],
)
def test_phrases_that_must_not_match(phrase: str, weapon: str, rng: str) -> None:
    """No more than what the save tests: the Bandit saves at Threat + 8 = 13."""
    assert _attack(phrase, weapon, rng) == (FULL, "")


def test_the_book_case_a_bandit_deficient_in_shooting_shoots_at_half_threat() -> None:
    """The report's fight: Bandit (Threat 5, Revolver, "Deficient in: shooting, guns") shoots Hero, the d20 shows
    12: over ⌈5 ÷ 2⌉ + 8 = 11, a miss (it hit at Threat + 8); the log and Why? say so."""
    f = new_fight(FACE)
    hero = pc(f, "Hero")
    bandit = npc(f, "Bandit", threat=5, weapons="Revolver", deficiencies="shooting, guns")
    since = len(f.entries)
    ev = f.do(Attack(actor=bandit, targets=(hero,), weapon="Revolver"))
    (shot,) = [e for e in ev if isinstance(e, AttackMade)]
    assert not shot.hit
    assert "⌈Threat/2⌉+8" in shot.describe(f.state)
    reasons = system.explain(f.log.state_at(since), f.entries[since].event, f.log.state_at(since + 1))
    npc_save = next(r for r in reasons if r.rule_id == R.NPC_SAVE.id)
    assert list(npc_save.terms) == ["Threat 5, deficient in shooting (sheet): saves ≤ 11 (⌈5 ÷ 2⌉ + 8)"]


@pytest.mark.parametrize("phrase", ["magic", "Magic", "spells", "workings", "sorcery", "Hex", "CTRL saves"])
def test_an_npc_deficient_in_magic_resists_a_working_at_half_threat(phrase: str) -> None:
    f = new_fight(1, FACE)
    w = pc(f, "Witchy", ctrl=14, workings="Hex 1", lead=4)
    b = npc(f, "Brute", threat=5, deficiencies=phrase)
    f.do(IngestLead(actor=w, amount=1))
    assert _save(f.do(CastWorking(actor=w, working="Hex", target=b))) == (HALF, phrase)


@pytest.mark.parametrize("phrase", ["guns", "shooting", "fighting", "Naming"])
def test_other_words_do_not_halve_resisting_a_working(phrase: str) -> None:
    f = new_fight(1, FACE)
    w = pc(f, "Witchy", ctrl=14, workings="Hex 1", lead=4)
    b = npc(f, "Brute", threat=5, deficiencies=phrase)
    f.do(IngestLead(actor=w, amount=1))
    assert _save(f.do(CastWorking(actor=w, working="Hex", target=b))) == (FULL, "")


@pytest.mark.parametrize(
    ("phrase", "stat", "purpose", "limit"),
    [
        ("dodge", "BODY", "dodging the boulder", HALF),
        ("dodging", "BODY", "dodge the boulder", HALF),
        ("Dodges", "BODY", "dodge", HALF),
        ("CTRL saves", "CTRL", "", HALF),
        ("control", "CTRL", "", HALF),
        ("climbing", "BODY", "climb the wall", HALF),
        ("dodge", "BODY", "jump the gap", FULL),
        ("CTRL saves", "BODY", "dodge", FULL),
        ("shooting", "ACC", "", FULL),
    ],
)
def test_a_save_forms_purpose_matches_in_its_simple_forms(phrase: str, stat: str, purpose: str, limit: int) -> None:
    f = new_fight(FACE)
    b = npc(f, "Brute", threat=5, deficiencies=phrase)
    assert _save(f.do(MakeSave(actor=b, stat=stat, purpose=purpose))) == (limit, phrase if limit == HALF else "")


@pytest.mark.parametrize(("phrase", "limit"), [("shooting", FULL), ("ranged", FULL), ("guns", HALF)])
def test_a_target_saving_against_a_shot_is_not_shooting(phrase: str, limit: int) -> None:
    """With the risk on the NPC target, the target is not the one shooting: "shooting" and "ranged" are the
    shooter's; the gun it saves against is still a gun. (The Gunman's Threat is its DV; the d20 12 is over DV 5.)"""
    f = new_fight(FACE)
    gunman = npc(f, "Gunman", threat=5, weapons="Revolver")
    b = npc(f, "Brute", threat=5, deficiencies=phrase)
    ev = f.do(Attack(actor=gunman, targets=(b,), weapon="Revolver", risk="target"))
    assert _save(ev) == (limit, phrase if limit == HALF else "")


def _detail_of(f: Fight, cid: str) -> list[str]:
    return detail(f.state, f.state.get(cid)).splitlines()


def test_the_detail_pane_warns_of_a_phrase_no_save_tests() -> None:
    """Ruling (show.detail): 'swimming' is said by no attack, working or stat (it counts only where a save's
    purpose says it); 'saves' names nothing; 'horns' is another combatant's attack and 'guns', 'magic' are known,
    so they get no line."""
    f = new_fight()
    npc(f, "Bull", threat=3, weapons="Horns: natural")
    b = npc(f, "Brute", threat=5, deficiencies="guns, swimming, saves, magic, horns, dodging")
    lines = _detail_of(f, b)
    i = lines.index("Deficient in: guns, swimming, saves, magic, horns, dodging (a save testing one: ≤ 11)")
    assert [line for line in lines[i + 1 :] if line.startswith("  '")] == [
        "  'swimming': no attack, working or stat says it; only a save whose purpose does",
        "  'saves' names nothing a save tests: write what, like CTRL, shooting, knives",
        "  'dodging': no attack, working or stat says it; only a save whose purpose does",
    ]


@pytest.mark.parametrize("phrase", ["shooting", "guns", "knives", "CTRL saves", "magic", "Hex", "fire breath"])
def test_a_phrase_the_tracker_tests_gets_no_warning(phrase: str) -> None:
    f = new_fight()
    b = npc(f, "Brute", threat=5, deficiencies=phrase)
    lines = _detail_of(f, b)
    i = lines.index(f"Deficient in: {phrase} (a save testing one: ≤ 11)")
    assert all(not line.startswith("  '") for line in lines[i + 1 :])


def test_the_fields_help_lists_what_is_matched() -> None:
    (field,) = [p for p in system.sheet_fields(NPC) if p.name == "deficiencies"]
    for said in ("CTRL", "shooting", "guns", "ranged", "fighting", "melee", "hand-to-hand", "magic", "Hex", "knives"):
        assert said in field.help
    assert "'saves' is ignored" in field.help
