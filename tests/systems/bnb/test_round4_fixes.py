"""Round 4 fixes: a capped heal says so (w4 finding 2), an NPC's line of weapons is one weapon a round (r1 finding
1), an adjust of HP does not raise the dead and says so (g1 finding 3)."""

from __future__ import annotations

import json

import pytest

from saves.format import Codec
from systems.bnb import presets, system
from systems.bnb.commands import Attack, DeathSave
from systems.bnb.events import AttackRolled, HpHealed, StillDead
from systems.bnb.rules.table import R
from tests.systems.bnb.helpers import add_npc, add_pc, data, new_fight, start
from tracker import Adjust, Damage, Fight, Heal, Refused
from tracker.events import Adjusted, Event
from tracker.reasons import Reason
from tracker.replay import Timeline


def lines_and_reasons(f: Fight, kind: type[Event]) -> list[tuple[str, tuple[Reason, ...]]]:
    """Each event of ``kind``: its log line and its reasons (the states around it folded from the log)."""
    t = Timeline.of(f.log)
    return [
        (e.event.describe(t.state_at(i)), system.explain(t.state_at(i), e.event, t.state_at(i + 1)))
        for i, e in enumerate(t.entries)
        if isinstance(e.event, kind)
    ]


# -- 1. a heal capped by max HP -------------------------------------------------------------------------------


def test_a_heal_capped_by_max_hp_says_so_in_the_line_and_the_why() -> None:
    """w4 finding 2: the GM heals 30 on a PC of max HP 10 at -3: 13 land.  The line read "regains 13 HP (13
    lethal): 30", the 30 like the new HP; it says the 30 given, the cap at max HP and the HP now, and the Why?
    says the heal was capped by max HP."""
    f, _ = new_fight()
    hero = add_pc(f, "Hero", hp=10)
    f.do(Damage(targets=(hero,), amount="13"))
    f.do(Heal(targets=(hero,), amount="30"))
    assert data(f, hero).hp == 10
    ((line, reasons),) = lines_and_reasons(f, HpHealed)
    assert line == "Hero regains 13 HP (13 lethal; 30 given, capped at max HP 10: now 10/10), and is back on their feet"
    (heal,) = [r for r in reasons if r.rule_id == R.quick_healing.id]
    assert "capped by max HP 10: 30 given, 13 healed, 17 over" in heal.terms


def test_a_capped_rolled_heal_names_the_roll_and_an_uncapped_one_reads_as_before() -> None:
    f, dice = new_fight()
    hero = add_pc(f, "Hero", hp=10)
    f.do(Damage(targets=(hero,), amount="4"))
    f.do(Heal(targets=(hero,), amount="3"))  # 3 of 4 lost: not capped
    dice.add(5, 6)
    f.do(Heal(targets=(hero,), amount="2d6"))  # 11 given, 1 lost
    (plain, _), (rolled, reasons) = lines_and_reasons(f, HpHealed)
    assert plain == "Hero regains 3 HP (3 lethal)"
    assert rolled == "Hero regains 1 HP (1 lethal; 2d6 [5,6] = 11 given, capped at max HP 10: now 10/10)"
    assert any("capped by max HP 10: 11 given, 1 healed, 10 over" in r.terms for r in reasons)


def test_a_capped_heal_from_an_old_file_reads_in_the_new_words_and_heals_as_before() -> None:
    """Only the words change: the line a fight file of w4 holds (a GM heal of 30 on Hero 1, max HP 1, at -3) reads
    the new way and heals the 4 it healed."""
    line = (
        '{"seq":74,"action":34,"of":1,"type":"bnb.hp_healed","v":1,"event":{"id":"c1","roll":{"expr":"30",'
        '"label":"Hero 1 heals","faces":[],"kept":[],"extra":[],"modifier":30,"total":30},"temporary":0,'
        '"lethal":4,"revived":true,"note":""}}'
    )
    ev = Codec(system).decode(json.loads(line), 1).event
    f, _ = new_fight()
    hero = add_pc(f, "Hero 1", hp=1)
    f.do(Damage(targets=(hero,), amount="4"))
    assert hero == "c1" and data(f, hero).hp == -3
    assert ev.describe(f.state) == (
        "Hero 1 regains 4 HP (4 lethal; 30 given, capped at max HP 1: now 1/1), and is back on their feet"
    )
    after = system.evolve(f.state, ev)
    assert (after.get(hero).data.hp, after.get(hero).data.status) == (1, "ok")


# -- 2. an NPC's line of weapons: one weapon a round ----------------------------------------------------------

NPC_WEAPONS = [
    ("brave", "Brave", ("spear", 5), ("tomahawk", 5), "spear, tomahawk"),
    ("scout", "Scout", ("bow", 20), ("knife", 5), "bow, knife"),
    ("cavalry_soldier", "Soldier", ("carbine", 20), ("cavalry saber", 5), "carbine, cavalry saber"),
    ("mountain_man", "Mountain Man", ("long rifle", 20), ("wood axe", 5), "long rifle, horse pistol, wood axe"),
]


@pytest.mark.parametrize(("preset", "name", "first", "second", "line"), NPC_WEAPONS)
def test_an_npc_is_refused_a_second_weapon_in_a_round_and_told_why(
    preset: str, name: str, first: tuple[str, int], second: tuple[str, int], line: str
) -> None:
    """Ruling (r1 finding 1, the lead's): an NPC's line of weapons ("Spear, tomahawk +1", "Bow, knife", "Carbine,
    sabre") is the weapons it carries, one a round at its rate of fire, as a PC's; the refusal says so."""
    f, dice = new_fight()
    pc = add_pc(f, "Sam", cls="Gambler", hp=30, weapons="belt pistol")
    (npc,) = add_npc(f, preset, name=name, hp=6)
    start(f, {npc: 20, pc: 10})
    dice.add(2)  # a miss: one d20
    f.do(Attack(actor=npc, target=pc, weapon=first[0], distance=first[1]))
    with pytest.raises(Refused) as e:
        f.do(Attack(actor=npc, target=pc, weapon=second[0], distance=second[1]))
    assert e.value.rule == R.one_weapon
    said = str(e.value)
    assert f"{name} has attacked with the {first[0]} this round" in said
    assert f"{name}'s '{line}' are weapons it carries: one a round, at its rate of fire, as a PC's" in said


def test_a_black_bear_makes_both_claws_and_bite_in_a_round() -> None:
    """RULINGS.md: a critter's natural attacks ("Claws, Bite") each come every round."""
    f, dice = new_fight()
    pc = add_pc(f, "Sam", cls="Gambler", hp=30)
    (bear,) = add_npc(f, "black_bear", name="Bear", hp=20)
    start(f, {bear: 20, pc: 10})
    dice.add(2, 2)
    made = [e for w in ("claws", "bite") for e in f.do(Attack(actor=bear, target=pc, weapon=w))]
    assert [e.weapon for e in made if isinstance(e, AttackRolled)] == ["claws", "bite"]


def test_the_one_weapon_rule_and_the_presets_say_the_ruling() -> None:
    text = R.one_weapon.text
    assert "weapons it carries" in text and "Spear, tomahawk" in text and "Claws, Bite" in text
    assert presets.__doc__ is not None and "Spear, tomahawk" in presets.__doc__


def test_a_pc_switching_weapons_is_refused_in_the_old_words() -> None:
    f, dice = new_fight()
    dusty = add_pc(f, "Dusty", weapons="belt pistol:6, knife")
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=30)
    start(f)
    dice.add(2)
    f.do(Attack(actor=dusty, target=lefty, weapon="belt pistol", distance=20))
    with pytest.raises(Refused) as e:
        f.do(Attack(actor=dusty, target=lefty, weapon="knife", distance=5))
    assert str(e.value).startswith("Dusty has attacked with the belt pistol this round: one weapon a round")
    assert "weapons it carries" not in str(e.value)


# -- 3. an adjust of HP does not raise the dead ---------------------------------------------------------------


def dead_lou() -> tuple[Fight, str]:
    """Lou (Shootist, max HP 5) at -11 HP fails the death save: dead."""
    f, dice = new_fight()
    lou = add_pc(f, "Lou", hp=5)
    f.do(Damage(targets=(lou,), amount="16"))
    dice.add(1)
    f.do(DeathSave(actor=lou))
    assert data(f, lou).status == "dead" and data(f, lou).hp == -11
    return f, lou


def test_an_adjust_of_hp_above_0_on_the_dead_says_they_are_still_dead() -> None:
    """Ruling (g1 finding 3): an adjust of HP does not raise the dead (the GM sets Status for that); HP set above
    0 on a dead combatant logs "Lou is still dead: set Status to bring them back" after the adjust."""
    f, lou = dead_lou()
    events = f.do(Adjust(id=lou, field="hp", value=2))
    assert [type(e) for e in events] == [Adjusted, StillDead]
    assert data(f, lou).status == "dead" and data(f, lou).hp == 2
    ((line, reasons),) = lines_and_reasons(f, StillDead)
    assert line == "Lou is still dead: set Status to bring them back"
    assert events[1].describe_public(f.state) is None  # an instruction to the GM
    assert any(r.rule_id == R.death.id and "an adjust of HP does not raise the dead" in r.terms for r in reasons)
    f.do(Adjust(id=lou, field="status", value="ok"))
    assert data(f, lou).status == "ok"


def test_an_adjust_of_hp_on_the_dead_that_stays_at_0_or_below_says_nothing_more() -> None:
    f, lou = dead_lou()
    assert [type(e) for e in f.do(Adjust(id=lou, field="hp", value=-3))] == [Adjusted]


def test_the_hp_adjust_field_says_it_does_not_raise_the_dead() -> None:
    f, lou = dead_lou()
    (hp,) = [p for p in system.adjustable(f.state, f.state.get(lou)) if p.name == "hp"]
    assert hp.label == "HP (0 or below: dying, death save)"  # (the log names it "HP")
    assert "does not raise the dead: set Status" in hp.help
