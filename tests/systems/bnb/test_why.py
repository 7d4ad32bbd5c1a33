"""Why (#47): the Blood & Bullets rules table, and every bnb event explained by its rules and terms.

Each scenario builds a small fight and reads ``system.explain`` for its events; the last tests check the
table itself: every rule is claimed by a decider, reached by a scenario, and cites a line of the book that
says it (when the book's text is at hand, ``../shared/seeds/``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from bench.fights import make_fight
from systems.bnb import plugin, system
from systems.bnb.commands import (
    Attack,
    BindWounds,
    Blast,
    CritterAttacks,
    DeathSave,
    GunPlay,
    LoyaltyCheck,
    LuckyStreak,
    Recover,
    Reload,
    SavingThrow,
)
from systems.bnb.events import EVENT_TYPES
from systems.bnb.rules import attacks, common, harm, rest, saves
from systems.bnb.rules.rest import REST_EVENTS
from systems.bnb.rules.table import RULES, R
from tests.systems.bnb.helpers import add_npc, add_pc, gunfight, new_fight, next_round, start
from tracker import (
    AddCondition,
    Adjust,
    Damage,
    Delay,
    DismissPrompt,
    EndFight,
    Fight,
    Heal,
    NextTurn,
    Refused,
    Rest,
    RollInitiative,
    StartFight,
)
from tracker.commands import Modifier
from tracker.events import Event
from tracker.reasons import Reason, Rule, cites
from tracker.replay import Timeline

SEEDS = Path(__file__).resolve().parents[3].parent / "shared" / "seeds"


def explained(f: Fight) -> list[tuple[Event, tuple[Reason, ...]]]:
    """Every event of the fight with its reasons (the states around it folded from the log)."""
    t = Timeline.of(f.log)
    return [(e.event, system.explain(t.state_at(i), e.event, t.state_at(i + 1))) for i, e in enumerate(t.entries)]


def why(f: Fight, kind: type[Event], nth: int = -1) -> dict[str, Reason]:
    """The reasons of the ``nth`` event of ``kind``, by rule name."""
    found = [rs for ev, rs in explained(f) if isinstance(ev, kind)]
    return {r.rule: r for r in found[nth]}


def refused(f: Fight, command: object, rule: Rule) -> Refused:
    """The command is refused by ``rule``: its message ends naming the rule and its source."""
    with pytest.raises(Refused) as caught:
        f.do(command)
    assert caught.value.rule is rule and str(caught.value).endswith(cites(rule)), str(caught.value)
    return caught.value


# -- scenarios (each returns its fight and the rules its refusals named) -------------------------------


def worked_example() -> tuple[Fight, list[Rule]]:
    """l.138's worked example: a level 5 Trailblazer's buffalo rifle (2d6+2*) rolls 5 and 6, keeps 6,
    explodes into 6, again into 2: 6+6+2 = 14, +2 = 16."""
    f, _ = new_fight(15, 5, 6, 6, 2)
    jed = add_pc(f, "Jed", cls="Trailblazer", level=5, weapons="buffalo rifle, bowie knife", hp=20)
    (bison,) = add_npc(f, "bison", hp=30)
    start(f)
    f.do(Attack(actor=jed, target=bison, weapon="buffalo rifle", distance=100))
    return f, []


def test_the_books_worked_example_explains_every_die_and_the_level_cap():
    from systems.bnb.events import AttackRolled, ShotsFired

    f, _ = worked_example()
    rs = why(f, AttackRolled)
    assert rs["Attack roll"].terms == (
        "d20 = 15",
        "to-hit +2 (Trailblazer level 5, Table 6)",
        "DEX 10 → +0",
        "short range +2 (up to the listed range)",
        "total 19 vs DC 12 (Bison): hit",
    )
    assert rs["Attack roll"].source == "bnb l.137"
    assert rs["Damage"].terms == (
        "2d6+2*: dice 5, 6",
        "kept 6",
        "extra dice 6, 2",
        "buffalo rifle +2",
        "damage 16",
        "Bison HP 30 → 14",
    )
    assert rs["Keep the highest"].terms == ("2d6 [5, 6] keeps 6",)
    assert rs["Exploding damage"].terms == ("level 5: 2 extra dice at most", "6s rolled: 2", "extra dice 6, 2")
    assert rs["Exploding damage"].source == "bnb l.138"
    assert rs["Missile attack"].terms == ("DEX 10 → +0",) and rs["Range"].source == "bnb l.121"
    assert why(f, ShotsFired)["Shots"].terms == ("buffalo rifle: 1 → 0 shots (holds 1)",)


def shootist() -> tuple[Fight, list[Rule]]:
    """Dusty (Shootist 3, DEX 13, heavy pistol Sure Shot): a natural 20 behind cover and an aim, then a natural 1;
    Outlaw 2 in Cover 3, Outlaw 3 in Cover (no value); the Gunfighter's Pistol +1."""
    f, dice, dusty, (o1, o2, o3), gun = gunfight(level=3)
    dice.add(20, 4, 2, 1)
    f.do(Attack(actor=dusty, target=o1, cover=2, modifiers=(Modifier(label="aimed", value=1),)))
    f.do(DeathSave(actor=o1))
    f.do(Attack(actor=dusty, target=o2))
    rules = [refused(f, Attack(actor=dusty, target=o2), R.rate_of_fire).rule]
    rules.append(refused(f, Attack(actor=dusty, target=o2, weapon="belt pistol"), R.one_weapon).rule)
    rules.append(refused(f, CritterAttacks(actor=dusty, target=o2), R.critter_attacks).rule)
    f.do(AddCondition(id=o2, name="Cover", value=3))
    f.do(AddCondition(id=o3, name="Cover"))
    next_round(f)
    rules.append(refused(f, Attack(actor=dusty, target=o2, distance=300), R.range).rule)
    rules.append(refused(f, Attack(actor=dusty, target=o2, cover=5), R.cover).rule)
    rules.append(refused(f, GunPlay(actor=dusty, targets=(gun,)), R.gunplay_targets).rule)
    dice.add(15, 2, 15, 2)
    f.do(Attack(actor=dusty, target=o2))
    f.do(Attack(actor=dusty, target=o3))
    for _ in range(3):
        f.do(NextTurn())
    assert f.state.current == gun
    rules.append(refused(f, Delay(), R.hold).rule)
    dice.add(15, 3)
    f.do(Attack(actor=gun, target=dusty))
    return f, [r for r in rules if r is not None]


def test_an_attack_names_each_modifier_and_where_it_came_from():
    from systems.bnb.events import AttackRolled, Dropped

    f, _ = shootist()
    rs = why(f, AttackRolled, 0)
    assert rs["Attack roll"].terms == (
        "d20 = 20",
        "to-hit +2 (Shootist level 3, Table 4)",
        "DEX 13 → +1",
        "Sure Shot +1",
        "short range +2 (up to the listed range)",
        "cover −2 (GM)",
        "aimed +1 (GM)",
        "total 25 vs DC 11 (Outlaw 1): hit",
    )
    assert rs["Natural 20 and 1"].terms == ("natural 20: always hits",)
    assert rs["Cover"].terms == ("cover −2 (GM)",) and rs["Cover"].source == "bnb l.138"
    assert rs["Sure Shot"].source == "bnb l.43"
    assert "natural 20: the first die counts as 6" in rs["Damage"].terms
    assert {"heavy pistol +1", "Sure Shot +1", "damage 12"} <= set(rs["Damage"].terms)
    assert rs["Exploding damage"].terms[0] == "level 3: 1 extra die at most"
    assert why(f, Dropped, 0)["Death at 0 HP"].terms == ("Outlaw 1 at -6 HP by Dusty", "a death save is due (ST 18)")
    miss = why(f, AttackRolled, 1)
    assert miss["Natural 20 and 1"].terms == ("natural 1: always misses",) and "Damage" not in miss


def test_the_cover_condition_gives_its_value_or_2_to_attacks_that_set_no_cover():
    from systems.bnb.events import AttackRolled

    f, _ = shootist()
    at_o2, at_o3 = why(f, AttackRolled, 2), why(f, AttackRolled, 3)
    assert "cover −3 (Cover condition)" in at_o2["Attack roll"].terms
    assert at_o2["Cover (condition)"].terms == ("Outlaw 2 is in Cover: −3",)
    assert at_o2["Cover (condition)"].source == "ruling on bnb l.138"
    assert "cover −2 (Cover condition)" in at_o3["Attack roll"].terms
    gun = why(f, AttackRolled, 4)
    assert gun["An NPC's +1 weapon"].terms[0] == "belt pistol (stat line): +1 to hit"
    assert gun["Critter to-hit"].terms[:2] == ("d20 = 15", "to-hit +1 (HD 1+1, at most +15)")
    assert "Critters attack at HD alone" in gun


def test_the_cover_condition_is_offered_and_automated_under_its_own_name():
    (cover,) = [c for c in system.conditions() if c.name == "Cover"]
    assert cover.automated and cover.source == R.cover.source


def test_refusals_name_their_rule_and_the_books_place():
    _f, rules = shootist()
    assert rules == [R.rate_of_fire, R.one_weapon, R.critter_attacks, R.range, R.cover, R.gunplay_targets, R.hold]
    f2, _dice = new_fight(15, 2)
    dusty = add_pc(f2, "Dusty", weapons="belt pistol:1, club")
    (lefty,) = add_npc(f2, "outlaw", name="Lefty", hp=10)
    start(f2)
    refused(f2, Attack(actor=dusty, target=lefty, weapon="club", distance=10), R.melee)
    refused(f2, Attack(actor=dusty, target=lefty, weapon="club", two_hands=True), R.two_hands)
    f2.do(Attack(actor=dusty, target=lefty))
    e = refused(f2, Attack(actor=dusty, target=lefty), R.shots)
    assert str(e) == "the belt pistol is empty: reload it first (it takes the round's action) — Shots, bnb l.98–106"
    refused(f2, DeathSave(actor=lefty), R.death_save)
    next_round(f2)
    f2.do(Reload(actor=dusty))
    e = refused(f2, Attack(actor=dusty, target=lefty), R.reload)
    assert str(e).endswith("a reload is the round's action — Reload, ruling on bnb l.98–106")


def reload_and_half_rate() -> tuple[Fight, list[Rule]]:
    f, _dice = new_fight(15, 2, 15, 3)
    dusty = add_pc(f, "Dusty", weapons="belt pistol:1, horse pistol")
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=20)
    start(f)
    f.do(Attack(actor=dusty, target=lefty, weapon="horse pistol"))
    next_round(f)
    rules = [refused(f, Attack(actor=dusty, target=lefty, weapon="horse pistol"), R.every_other_round).rule]
    f.do(Reload(actor=dusty, gun="horse pistol"))
    return f, [r for r in rules if r is not None]


def test_a_reload_explains_the_round_it_takes():
    from systems.bnb.events import Reloaded

    f, rules = reload_and_half_rate()
    assert rules == [R.every_other_round]
    rs = why(f, Reloaded)
    assert rs["Reload"].terms == ("horse pistol: 0 → 1 shot", "the round's action: no attack this round")
    assert rs["Shots"].terms == ("the horse pistol holds 1 (Table 12)",)


def bear() -> tuple[Fight, list[Rule]]:
    """A grizzly mauls Dusty (Shootist 1, CON 13, 4 HP): claws 6, explodes into 3; the bite is held; the save."""
    f, dice = new_fight()
    dusty = add_pc(f, "Dusty", con=13, hp=4)
    (griz,) = add_npc(f, "grizzly", hp=30)
    (donkey,) = add_npc(f, "donkey", hp=5)
    start(f)
    f.do(NextTurn())
    dice.add(15, 6, 3)
    f.do(CritterAttacks(actor=griz, target=dusty))
    dice.add(18)
    f.do(DeathSave(actor=dusty))
    f.do(NextTurn())
    dice.add(20)
    f.do(CritterAttacks(actor=donkey, target=griz))
    return f, []


def test_a_critter_attacks_at_its_hd_and_explodes_as_its_level():
    from systems.bnb.events import AttackRolled, DeathSaveRolled, Dropped, HeldFire
    from tracker.events import PromptRaised

    f, _ = bear()
    rs = why(f, AttackRolled, 0)
    assert rs["Critter to-hit"].terms == (
        "d20 = 15",
        "to-hit +5 (HD 5+6, at most +15)",
        "total 20 vs DC 10 (Dusty): hit",
    )
    assert rs["Exploding damage"].terms[0] == "HD 5 (its level): 2 extra dice at most"
    assert rs["A critter's level"].source == "ruling on bnb l.138"
    assert rs["Damage"].terms == ("1d6: dice 6", "extra dice 3", "damage 9", "Dusty HP 4 → -5")
    # its own ruling, not Gun-play's holding fire (l.43, "no shot spent")
    assert why(f, HeldFire)["A critter's attacks at the fallen"].terms == (
        "Dusty is down",
        "the rest of its listed attacks are not made",
    )
    assert why(f, Dropped)["Death at 0 HP"].terms == ("Dusty at -5 HP by Bear, Grizzly", "a death save is due (ST 16)")
    assert "save vs death" in why(f, PromptRaised)["Saving throw vs death"].terms[0]
    save = why(f, DeathSaveRolled)
    assert save["Saving throw vs death"].terms == (
        "d20 = 18",
        "CON 13 → +1",
        "Shootist vs death +2",
        "5 HP below 0 → −5",
        "total 16 vs ST 16: unconscious, needs medical help",
    )
    assert save["Shootist vs death"].terms == ("Shootist vs death +2",)
    assert save["Class tables"].terms == ("ST 16: Shootist level 1 (Table 4)",)
    hoof = why(f, AttackRolled)
    assert hoof["d3 dice do not explode"].terms == ("d3 [3]: no extra dice",)


def fists() -> tuple[Fight, list[Rule]]:
    """Jed (Trailblazer, Rowdy) knocks Lefty out with his fists; three hours later Lefty comes to."""
    f, _ = new_fight(15, 5, 15, 6)
    jed = add_pc(f, "Jed", cls="Trailblazer", hp=10)
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=3)
    (slim,) = add_npc(f, "outlaw", name="Slim", hp=2, minor=True)
    dusty = add_pc(f, "Dusty", weapons="belt pistol")
    start(f)
    f.do(Attack(actor=jed, target=lefty, weapon="fists"))
    while f.state.current != dusty:
        f.do(NextTurn())
    f.do(Attack(actor=dusty, target=slim))
    f.do(EndFight())
    f.do(Recover(actor=lefty, hours=3))
    return f, []


def test_a_rowdy_trailblazer_s_carried_fists_are_explained_as_the_d6_they_rolled():
    """Fists listed among a Rowdy Trailblazer's weapons were explained as a d3 that showed 6 and did not explode,
    under the log line "1d6+1 [6] exploded +4": the Why read the weapon table's d3 for carried fists."""
    from systems.bnb.events import AttackRolled

    f, _ = new_fight(15, 6, 4)
    row = add_pc(f, "Row", cls="Trailblazer", level=4, hp=16, str=13, weapons="fists, knife", favoured="knife")
    (out,) = add_npc(f, "outlaw", name="Out", hp=2)
    start(f)
    f.do(Attack(actor=row, target=out, weapon="fists"))
    rs = why(f, AttackRolled, 0)
    assert rs["Rowdy"].terms == ("fists d6 instead of d3",)
    assert "d3 dice do not explode" not in rs and "Exploding damage" in rs, list(rs)
    assert rs["Damage"].terms[0].startswith("1d6"), rs["Damage"].terms


def test_a_critter_attack_an_older_version_logged_with_str_is_explained_as_it_was():
    """The format-1 fixture's critter attacks counted STR +0 (the rules of the time): the Why listed "STR 10 → +0"
    and, under it, "no STR or DEX on the attack". It now says the older version added it."""
    import saves
    from systems.bnb.events import AttackRolled

    fixture = Path(__file__).resolve().parents[2] / "fixtures" / "format1" / "bnb.jsonl"
    loaded = saves.load(fixture)
    t = Timeline.of(loaded.fight().log)
    seen = 0
    for i, entry in enumerate(t.entries):
        ev = entry.event
        if isinstance(ev, AttackRolled) and any(part.label == "STR" for part in ev.parts):
            actor = t.state_at(i).find(ev.actor)
            if actor is None or actor.data.cls:
                continue
            rs = {r.rule: r for r in system.explain(t.state_at(i), ev, t.state_at(i + 1))}
            said = " ".join(rs["Critters attack at HD alone"].terms)
            assert "no STR or DEX" not in said and "older version" in said, said
            seen += 1
    assert seen > 0


def test_fists_deal_temporary_damage_that_knocks_out_and_heals_by_the_hour():
    from systems.bnb.events import AttackRolled, Dropped, TemporaryHealed

    f, _ = fists()
    rs = why(f, AttackRolled, 0)
    assert (
        rs["Fists: temporary damage"].terms == ("5 temporary damage",)
        and rs["Fists: temporary damage"].source == "bnb l.88"
    )
    assert rs["Rowdy"].terms == ("fists d6 instead of d3",) and rs["Rowdy"].source == "bnb l.72"
    assert rs["Damage"].terms[-1] == "Lefty HP 3 → -2 (temporary)"
    out = why(f, Dropped, 0)["Knocked out"]
    assert out.terms == ("Lefty at -2 HP by Jed", "temporary damage 5", "no death save")
    assert why(f, Dropped, 1)["Minor NPCs"].terms == ("Slim is a minor NPC at -5 HP by Dusty: dead, no save",)
    assert why(f, TemporaryHealed)["Temporary damage heals by the hour"].terms == (
        "HD 1 (its level): 1 an hour",
        "3 hours",
        "3 temporary healed",
        "HP above 0: comes to",
    )


def gunplay() -> tuple[Fight, list[Rule]]:
    f, dice, dusty, (o1, *_), _ = gunfight(level=3)
    dice.add(15, 6, 1)
    f.do(GunPlay(actor=dusty, targets=(o1, o1)))
    return f, []


def test_gunplay_explains_its_attacks_its_shots_and_the_held_fire():
    from systems.bnb.events import AttackRolled, HeldFire, ShotsFired

    f, _ = gunplay()
    assert why(f, AttackRolled)["Gun-play"].terms == ("level 3: up to 3 attacks this round", "Outlaw 1 has HD 1")
    shots = why(f, ShotsFired)
    assert shots["Gun-play targets"].terms == ("1 Gun-play attack: a shot each",)
    assert shots["Shots"].terms == ("heavy pistol: 6 → 5 shots (holds 6)",)
    assert why(f, HeldFire)["Holding fire at the fallen"].terms == ("Outlaw 1 is already down", "no shot spent")


def scattergun() -> tuple[Fight, list[Rule]]:
    """Jed's scattergun at 40 ft strikes Doc (Gambler), who fails the save for half, then pushes his luck."""
    f, _dice = new_fight(15, 5, 4, 3, 16)
    jed = add_pc(f, "Jed", cls="Trailblazer", weapons="scattergun")
    doc = add_pc(f, "Doc", cls="Gambler", hp=10)
    start(f)
    f.do(Blast(actor=jed, targets=(doc,), distance=40))
    f.do(LuckyStreak(actor=doc))
    return f, []


def test_a_scattergun_save_for_half_and_its_lucky_reroll_explain_themselves():
    from systems.bnb.events import AttackRolled, LuckyStreakUsed

    f, _ = scattergun()
    rs = why(f, AttackRolled)
    assert rs["Scattergun spread"].source == "bnb l.121"
    assert rs["Scattergun: save for half"].terms == (
        "beyond 30 ft: Doc saves for half",
        "d20 = 3",
        "DEX 10 → +0",
        "total 3 vs ST 15: failed, full damage",
    )
    assert "medium range +1 (up to 2×)" in rs["Attack roll"].terms
    luck = why(f, LuckyStreakUsed)
    assert luck["Lucky Streak"].terms == ("level 1: 1 a day", "0 left today")
    assert luck["Lucky Streak on any save"].terms[0] == "re-rolls the failed save vs scattergun (half damage)"
    assert luck["Lucky Streak on any save"].terms[-1] == "total 16 vs ST 15: saved"
    assert luck["Scattergun: save for half"].terms == ("half damage after all: 5 HP back",)


def surprise() -> tuple[Fight, list[Rule]]:
    """Doc (Gambler) springs a derringer by surprise: sneak attack ×2, and a 1 on the dice still deals 1."""
    f, _ = new_fight(12, 4, 15, 1)
    doc = add_pc(f, "Doc", cls="Gambler", weapons="derringer")
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=12)
    start(f, surprise=(doc,))
    rules = [refused(f, Attack(actor=lefty, target=doc), R.surprise).rule]
    f.do(Attack(actor=doc, target=lefty, sneak=True))  # (the form starts it ticked in the surprise round)
    f.do(Attack(actor=doc, target=lefty, sneak=True))
    return f, [r for r in rules if r is not None]


def test_a_sneak_attack_doubles_and_a_hit_deals_at_least_1():
    from systems.bnb.events import AttackRolled

    f, rules = surprise()
    assert rules == [R.surprise]
    assert why(f, AttackRolled, 0)["Sneak attack"].terms == ("×2: 3 → 6",)
    second = why(f, AttackRolled, 1)
    assert second["A hit deals at least 1"].terms == ("damage 0 → 1",)
    assert second["Sneak attack"].terms == ("×2: 1 → 2",)


def test_the_damage_a_sneak_attack_dealt_stands_beside_the_hp_it_left():
    """The damage block said "damage 3, Lefty HP 12 → 6": the ×2 came in a block below; the amount dealt is said
    beside the HP it left, as the scattergun's half is."""
    from systems.bnb.events import AttackRolled

    f, _ = surprise()
    terms = why(f, AttackRolled, 0)["Damage"].terms
    assert terms[-3:] == ("damage 3", "6 dealt (×2 sneak attack)", "Lefty HP 12 → 6")


def melee_and_into_melee() -> tuple[Fight, list[Rule]]:
    f, _ = new_fight(15, 3, 2, 15, 3)
    jed = add_pc(f, "Jed", cls="Trailblazer", str=14, weapons="spear", hp=10)
    dusty = add_pc(f, "Dusty", weapons="belt pistol")
    (bear_,) = add_npc(f, "black_bear", hp=30)
    start(f)
    f.do(Attack(actor=jed, target=bear_, two_hands=True))
    f.do(NextTurn())
    f.do(Attack(actor=dusty, target=bear_, distance=30, into_melee=(jed,)))
    return f, []


def test_melee_adds_str_and_firing_into_a_melee_names_the_roll_that_picked():
    from systems.bnb.events import AttackRolled

    f, _ = melee_and_into_melee()
    rs = why(f, AttackRolled, 0)
    assert rs["Melee attack"].terms == ("STR 14 → +1",)
    assert rs["Close Fighter"].terms == ("Close Fighter: +1 to hit", "+1 damage with the spear")
    assert rs["Two-handed spear"].terms == ("the spear used two-handed: +1 damage",)
    assert rs["Damage"].terms[:5] == ("1d6: dice 3", "STR 14 → +1", "Close Fighter +1", "two-handed +1", "damage 6")
    shot = why(f, AttackRolled, 1)
    assert shot["Firing into melee"].terms == ("aimed at Bear, Black", "1d2 [2] = 2 picks Jed")


def saves_and_loyalty() -> tuple[Fight, list[Rule]]:
    f, _ = new_fight(10, 10, 10, 2, 2, 1)
    jed = add_pc(f, "Jed", cls="Trailblazer", con=13)
    doc = add_pc(f, "Doc", cls="Gambler", wis=6, cha=16)
    (scout,) = add_npc(f, "scout")
    f.do(SavingThrow(actor=jed, against="alcohol or poison"))
    f.do(SavingThrow(actor=doc, against="deception"))
    f.do(SavingThrow(actor=scout, against="explosion"))
    f.do(LoyaltyCheck(actor=scout, leader=doc))
    return f, []


def test_saving_throws_name_the_attribute_the_class_bonus_and_the_st():
    from systems.bnb.events import LoyaltyChecked, SaveRolled

    f, _ = saves_and_loyalty()
    jed = why(f, SaveRolled, 0)
    assert jed["Saving throw"].terms == (
        "vs alcohol or poison",
        "d20 = 10",
        "CON 13 → +1",
        "Trailblazer vs alcohol or poison +2",
        "total 13 vs ST 16: failed",
    )
    assert jed["Saving throw attribute"].terms == ("CON 13 → +1",)
    assert jed["Trailblazer vs poison and rockfall"].source == "bnb l.72"
    doc = why(f, SaveRolled, 1)
    assert doc["Gambler vs deceit"].terms == ("Gambler vs deception +2",)
    assert "WIS 6 → −1" in doc["Saving throw"].terms
    assert why(f, SaveRolled, 2)["A critter's Saving Throw"].terms == ("ST 18 = 19 − HD 1",)
    loyal = why(f, LoyaltyChecked)
    assert loyal["Loyalty check"].terms == (
        "3d6 [2, 2, 1] = 5",
        "Doc's CHA loyalty +2 (CHA 16)",
        "total 7: -1 on next loyalty check",
    )
    assert loyal["Charisma and loyalty"].source == "bnb l.21–23"


def after_the_fight() -> tuple[Fight, list[Rule]]:
    """Dusty loses 5 HP, is bound after the fight, healed 1 by the GM, then rests a week; an outlaw rests poorly."""
    f, _ = new_fight(2)
    dusty = add_pc(f, "Dusty", level=2, hp=20)
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=6)
    start(f)
    f.do(Damage(targets=(dusty,), amount="12", note="dynamite"))
    f.do(Damage(targets=(lefty,), amount="3", temporary=True))
    rules = [refused(f, BindWounds(actor=dusty), R.binding_wounds).rule]
    f.do(EndFight())
    f.do(BindWounds(actor=dusty))
    f.do(Heal(targets=(dusty,), amount="1"))
    f.do(Rest(ids=(dusty,), days=7))
    f.do(Rest(ids=(lefty,), days=2, quality="interrupted"))
    return f, [r for r in rules if r is not None]


def test_harm_healing_binding_and_rest_explain_their_rates():
    from systems.bnb.events import HpHealed, HpLost, WoundsBound
    from systems.bnb.rules.rest import Rested

    f, rules = after_the_fight()
    assert rules == [R.binding_wounds]
    lost = why(f, HpLost, 0)["HP lost"]
    assert lost.terms == ("the GM's damage: 12", "HP 20 → 8", "GM's note: dynamite")
    assert why(f, HpLost, 1)["Fists: temporary damage"].terms == ("3 temporary damage",)
    assert why(f, WoundsBound)["Binding wounds"].terms == ("1d3 = 2", "HP lost in this fight: 12", "2 HP back")
    assert why(f, HpHealed)["HP regained"].terms[:3] == (
        "the GM's healing: 1",
        "temporary 0, then lethal 1",
        "HP 10 → 11 (max 20)",
    )
    week = why(f, Rested, 0)
    assert week["Healing by rest"].terms == (
        "7 days of uninterrupted rest, level 2",
        "level 2: 2 HP a full day",
        "7 days × 2 HP = 14, but only 9 HP of lethal damage taken: healing stops at the HP lost",
        "9 HP healed",
    )
    assert "Interrupted rest" not in week and "An NPC's healing" not in week
    poor = why(f, Rested, 1)
    assert poor["An NPC's healing"].terms == ("HD 1 (its level): heals as level 1",)
    assert poor["Interrupted rest"].terms == ("interrupted: no lethal damage heals",)
    assert poor["Temporary damage heals by the hour"].terms == ("HD 1 (its level): 1 temporary an hour", "3 healed")


def death_by_ruling() -> tuple[Fight, list[Rule]]:
    f, _ = new_fight()
    dusty = add_pc(f, "Dusty", hp=2)
    slim = add_pc(f, "Slim", hp=2)
    start(f)
    f.do(Damage(targets=(dusty, slim), amount="3"))
    first, second = f.state.prompts
    f.do(DismissPrompt(prompt_id=first.id, outcome="lives"))
    f.do(DismissPrompt(prompt_id=second.id, outcome="dies"))
    doc = add_pc(f, "Doc", hp=2)
    f.do(Damage(targets=(doc,), amount="3"))
    f.do(Adjust(id=doc, field="hp", value=1))  # the GM sets the dying Doc above 0: back on his feet
    f.do(Adjust(id=slim, field="hp", value=1))  # and the dead Slim above 0: still dead (StillDead)
    return f, []


def test_a_dying_combatant_set_above_0_by_the_gm_explains_why_no_death_save_is_due():
    from systems.bnb.events import Revived

    f, _ = death_by_ruling()
    assert why(f, Revived)["Death at 0 HP"].terms == ("Doc: HP 1, above 0 again (the GM's adjust)", "no death save")


def test_a_death_save_the_gm_settles_explains_as_the_gms_ruling():
    from systems.bnb.events import DeathRuled, DeathSaveWaived

    f, _ = death_by_ruling()
    lives = why(f, DeathSaveWaived)["A death save settled by the GM"]
    assert (
        lives.terms == ("the GM's ruling for Dusty: lives, unconscious", "no roll")
        and lives.source == "ruling on bnb l.138"
    )
    assert why(f, DeathRuled)["A death save settled by the GM"].terms == ("the GM's ruling for Slim: dies", "no roll")


def initiative() -> tuple[Fight, list[Rule]]:
    """Dusty and Slim tie on 12 (same DEX and level: simultaneous); the outlaws roll once as a group."""
    f, dice = new_fight(4)
    add_pc(f, "Dusty", con=13, dex=13, hp=0)
    add_pc(f, "Slim", dex=13)
    add_npc(f, "outlaw", count=2)
    add_npc(f, "rattler", hp=2)
    dice.add(12, 12, 7, 3)
    f.do(RollInitiative())
    f.do(StartFight())
    next_round(f)
    return f, []


def test_initiative_the_order_its_ties_and_the_sheets_explain_themselves():
    from tracker.events import CombatantAdded, InitiativeSet, OrderSet, RoundStarted

    f, _ = initiative()
    dusty = why(f, CombatantAdded, 0)
    assert dusty["Hit points"].terms == ("HP 1d6+1 (CON +1 a die) [4] = 5",)
    assert dusty["Defence Class"].terms == ("10", "DEX 13 → +1", "Defence Bonus +0", "DC 11")
    assert dusty["Attribute modifier"].terms == ("CON 13 → +1", "DEX 13 → +1")
    assert dusty["Class tables"].terms == ("Shootist level 1: HD 1, to-hit +0, ST 16",)
    outlaw = why(f, CombatantAdded, 2)
    assert outlaw["Critter Hit Dice"].terms[0] == "HD 1" and outlaw["Critter to-hit"].source == "bnb l.172"
    assert why(f, CombatantAdded, 4)["Half a Hit Die"].terms == ("½ HD: 1d3 HP, counts as 0 HD",)
    assert why(f, InitiativeSet, 0)["Initiative"].terms == ("d20 = 12", "initiative 12")
    assert why(f, InitiativeSet, 2)["Group initiative"].terms == ("group roll for Outlaw",)
    (order_reasons,) = [rs for ev, rs in explained(f) if isinstance(ev, OrderSet)]
    ties = [r.terms for r in order_reasons if r.rule == "Initiative ties"]
    order = {r.rule: r for r in order_reasons}
    assert (
        "Outlaw 1: initiative 7, DEX 10, HD 1",
        "Outlaw 2: initiative 7, DEX 10, HD 1",
        "still tied: they act at the same time",
    ) in ties
    assert ties[0] == (
        "Dusty: initiative 12, DEX 13, Shootist level 1",
        "Slim: initiative 12, DEX 13, Shootist level 1",
        "still tied: they act at the same time",
    )
    assert order["Simultaneous actions"].source == "bnb l.137"
    assert why(f, RoundStarted)["Turn order kept"].terms == ("round 2: the first round's order",)


def test_the_order_names_everyone_and_each_tie_the_rule_broke():
    """Why? on the order listed 8 names and said nothing of a tie settled by DEX, then level or HD (bnb l.137):
    a GM asking why Shoot goes before Trail got no answer."""
    from tracker.events import OrderSet

    f, dice = new_fight()
    add_pc(f, "Shoot", dex=13)
    add_pc(f, "Trail", cls="Trailblazer", level=5)
    add_pc(f, "Gamb", cls="Gambler")
    add_npc(f, "outlaw", count=3)
    add_npc(f, "gunfighter")
    add_npc(f, "wolf")
    add_npc(f, "dandy")
    dice.add(10, 10, 10, 15, 14, 5, 5)
    f.do(RollInitiative())
    (reasons,) = [rs for ev, rs in explained(f) if isinstance(ev, OrderSet)]
    names = [c.name for c in f.state.combatants]
    first = {r.rule: r for r in reasons}["Initiative"].terms[0]
    assert first.startswith("highest first: ") and all(n in first for n in names), first
    broken = [r.terms for r in reasons if r.rule == "Initiative ties"][-1]
    assert "Shoot before Trail: both initiative 10; DEX 13 over 10" in broken, broken
    assert "Trail before Gamb: both initiative 10; DEX 10 each; Trailblazer level 5 over Gambler level 1" in broken
    assert any(t.startswith("Gunfighter before Outlaw 1: both initiative 15; DEX") for t in broken), broken
    assert any(t.startswith("Wolf before Dandy: both initiative 5;") and "HD" in t for t in broken), broken
    assert not any(t.startswith("Outlaw 1 before") for t in broken), "a group still tied is said as before"


SCENARIOS: tuple[Callable[[], tuple[Fight, list[Rule]]], ...] = (
    worked_example,
    shootist,
    reload_and_half_rate,
    bear,
    fists,
    gunplay,
    scattergun,
    surprise,
    melee_and_into_melee,
    saves_and_loyalty,
    after_the_fight,
    death_by_ruling,
    initiative,
)


def _reached() -> tuple[set[str], set[type[Event]]]:
    rules: set[str] = set()
    types: set[type[Event]] = set()
    for scenario in SCENARIOS:
        f, refusals = scenario()
        rules |= {r.id for r in refusals}
        for ev, reasons in explained(f):
            if reasons:
                types.add(type(ev))
            rules |= {r.rule_id for r in reasons}
    return rules, types


def test_every_bnb_event_type_is_explained_in_a_scenario():
    _rules, types = _reached()
    missing = [t.__name__ for t in (*EVENT_TYPES, *REST_EVENTS) if t not in types]
    assert missing == []


def test_every_rule_is_reached_by_a_scenario():
    from tests.systems.bnb.test_xp import xp_rules_reached

    rules, _types = _reached()
    rules |= xp_rules_reached()
    assert sorted({r.id for r in RULES} - rules) == []


# -- the table -------------------------------------------------------------------------------------------


def test_the_table_is_the_systems_rules_one_entry_per_id():
    assert system.rules() == RULES
    assert len({r.id for r in RULES}) == len(RULES) > 60
    assert all(getattr(R, r.id) is r for r in RULES)
    assert all(r.text and r.name and r.text[-1] == "." for r in RULES)


def test_every_rule_is_named_by_the_code_that_applies_it():
    """Each decider family lists the rules it applies (``APPLIES``) or names them in its refusals."""
    applied = {r.id for module in (plugin, common, attacks, harm, saves, rest) for r in module.APPLIES}
    from systems.bnb import xp

    applied |= {r.id for r in xp.APPLIES}
    assert sorted({r.id for r in RULES} - applied) == []
    code = "\n".join(
        p.read_text(encoding="utf-8")
        for p in Path(plugin.__file__).parent.rglob("*.py")
        if p.name not in ("table.py", "why.py")
    )
    assert sorted(r.id for r in RULES if not re.search(rf"\bR\.{r.id}\b", code)) == []


SOURCE = re.compile(r"(?:ruling on )?bnb l\.(\d+)(?:–(\d+))?")

# a phrase of the book each rule's cited lines must hold (the place says what the rule reads)
SAYS = {
    "attribute_modifier": "Attribute Roll 3",
    "class_tables": "To Hit Bonus",
    "hit_points": "Hit Dice",
    "defence_class": "Defence Bonus",
    "npc_hit_dice": "add or subtract that number once",
    "half_hd": "½",
    "initiative": "initiative on a d20",
    "group_initiative": "important NPCs get a separate roll",
    "initiative_ties": "highest dexterity acts first",
    "simultaneous": "simultaneous initiative",
    "keep_order": "keep turn order",
    "hold": "withhold their initiative",
    "surprise": "surprise",
    "to_hit": "equal to or higher than the DC",
    "natural": "natural” roll of 1",
    "npc_to_hit": "capped at +15",
    "npc_no_dex": "to-hit” bonus is equal to its hit dice",
    "melee": "within five feet",
    "missile": "dexterity bonus for missile attacks",
    "range": "short range",
    "cover": "from -1 to -4",
    "cover_condition": "Cover",
    "sure_shot": "Sure Shot",
    "close_fighter": "Close Fighter",
    "npc_weapon_bonus": "Pistol +1",
    "two_hands": "+1 damage if used twohanded",
    "into_melee": "fire into melee",
    "damage": "Roll the weapon’s damage die",
    "exploding": "once per 2 levels",
    "critter_level": "once per 2 levels",
    "keep_highest": "take the highest result",
    "small_dice": "roll the die again",
    "at_least_one": "damage",
    "sneak_attack": "x2 damage",
    "fists": "Temporary damage",
    "rowdy": "d6 temporary damage",
    "rate_of_fire": "Rate of Fire is the number of projectiles",
    "every_other_round": "Rate of Fire",
    "one_weapon": "Rate of Fire",
    "critter_attacks": "Most monsters have one attack",
    "critter_held": "Most monsters have one attack",
    "shots": "Capacity",
    "reload": "Capacity",
    "gunplay": "Gun-play",
    "gunplay_targets": "1HD or fewer",
    "held_fire": "Gun-play",
    "scattergun": "one shot can attack several targets",
    "scattergun_save": "half damage",
    "death": "When HP reaches 0",
    "death_save": "-1 to the roll for every HP",
    "minor_npc": "saving roll vs. death",
    "knocked_out": "temporary damage",
    "death_by_ruling": "saving roll vs. death",
    "saving_throw": "equal to or greater than the character's saving throw",
    "save_attribute": "Table 3",
    "critter_save": "subtracting the critter’s HD from 19",
    "shootist_save": "+2 bonus on saving throws vs. death",
    "gambler_save": "+2 bonus on saving throws vs. deceit",
    "trailblazer_save": "poisons, alcohol and rockfalls",
    "lucky_streak": "re-roll any failed saving throw",
    "lucky_any_save": "re-roll any failed saving throw",
    "loyalty": "roll 3d6",
    "loyalty_modifier": "Loyalty",
    "binding_wounds": "Binding Wounds",
    "rest": "per level per day of uninterrupted rest",
    "temporary_healing": "heals per hour",
    "npc_rest": "per level per day",
    "interrupted_rest": "uninterrupted rest",
    "quick_damage": "deducted from his hit points",
    "quick_healing": "Healing",
    "experience": "acquired by PCs for overcoming",
    "experience_bonus": "Experience Modifier",
    "experience_share": "divided evenly",
}


def test_every_rule_cites_a_place_of_the_book():
    for r in RULES:
        assert SOURCE.fullmatch(r.source), r
        assert r.source.startswith("ruling on ") or "Ruling" not in r.text


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the book's text (../shared/seeds/) is not beside this checkout")
def test_each_rules_line_exists_in_the_book_and_says_it():
    (book,) = SEEDS.glob("000_*.txt")
    lines = book.read_text(encoding="utf-8").split("\n")
    assert set(SAYS) == {r.id for r in RULES}
    for r in RULES:
        m = SOURCE.fullmatch(r.source)
        assert m is not None
        first, last = int(m[1]), int(m[2] or m[1])
        assert 1 <= first <= last <= len(lines), r
        text = " ".join(lines[first - 1 : last])
        assert text.strip() and SAYS[r.id] in text, (r.id, r.source)


def test_95_percent_of_a_generated_fights_bnb_events_have_a_reason_with_a_book_place():
    f = make_fight("bnb", events=400)
    own = (*system.event_types,)
    counted = [rs for ev, rs in explained(f) if isinstance(ev, own)]
    placed = [rs for rs in counted if any(re.search(r"l\.\d+", r.source) for r in rs)]
    assert len(counted) >= 100
    assert len(placed) / len(counted) >= 0.95


def test_a_fight_saved_before_reasons_existed_explains_its_bnb_events():
    """The format-1 fixture (saved long before Why): every event explains without an error, and each bnb event
    names a rule with the book's place."""
    import saves

    loaded = saves.load(Path(__file__).resolve().parents[2] / "fixtures" / "format1" / "bnb.jsonl")
    t = loaded.timeline()
    own = [
        system.explain(t.state_at(i), e.event, t.state_at(i + 1))
        for i, e in enumerate(t.entries)
        if isinstance(e.event, system.event_types)
    ]
    assert len(own) > 50
    assert all(any(re.search(r"l\.\d+", r.source) for r in rs) for rs in own)


def test_a_critter_under_1_hd_heals_at_least_1_hp_a_day_and_says_so():
    """A rattlesnake (HD ½) "heals as level 0" beside "1 HP a full day": the least is said."""
    from systems.bnb.rules.rest import Rested
    from tracker import Damage, EndFight, Rest

    f, _ = new_fight(2)
    (snake,) = add_npc(f, "rattler", hp=3)
    f.do(Damage(targets=(snake,), amount="1"))
    f.do(EndFight())
    f.do(Rest(days=1))
    rs = why(f, Rested)
    assert rs["An NPC's healing"].terms == ("HD 0 (its level): heals as level 0, at least 1",)
    assert "HD 0 (its level): 1 HP a full day" in rs["Healing by rest"].terms


def test_a_prompt_names_the_action_that_resolves_it_as_the_gm_knows_it():
    """A death save's prompt was explained "resolved by: death_save" (the command's id; 72 times in the format-1
    fixture); it names the action as its form does: "Death save"."""
    import saves
    from tracker.events import PromptRaised
    from tracker.explain import explain_event

    fixture = Path(__file__).resolve().parents[2] / "fixtures" / "format1" / "bnb.jsonl"
    t = Timeline.of(saves.load(fixture).fight().log)
    said = [
        " ".join(term for r in explain_event(system, t.state_at(i), e.event, t.state_at(i + 1)) for term in r.terms)
        for i, e in enumerate(t.entries)
        if isinstance(e.event, PromptRaised) and e.event.prompt.command == "death_save"
    ]
    assert said and all("resolved by: Death save" in s and "death_save" not in s for s in said), said[:2]
