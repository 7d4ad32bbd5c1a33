"""Blood & Bullets sheets, presets and initiative, as scenarios with scripted dice."""

from __future__ import annotations

import pytest

from systems.bnb import system
from systems.bnb.presets import CHAPTER_8, WEAPON_PRESETS
from systems.bnb.tables import WEAPONS, find_weapon, modifier
from tracker import ActNow, AddCombatant, Delay, NextTurn, Refused, RollInitiative, SetInitiative, StartFight
from tracker.events import CombatantAdded, OrderSet

from .helpers import add_npc, add_pc, data, new_fight


def test_attribute_modifier_table():
    """Ruling: 3 → -3, 4–5 → -2, 6–8 → -1, 9–12 → 0, 13–15 → +1, 16–17 → +2, 18 → +3."""
    table = {3: -3, 4: -2, 5: -2, 6: -1, 8: -1, 9: 0, 12: 0, 13: 1, 15: 1, 16: 2, 17: 2, 18: 3}
    assert {s: modifier(s) for s in table} == table


def test_shootist_sheet_from_class_table_with_rolled_hp():
    """Given a level 5 Shootist, DEX 13, CON 13: HD 4, to-hit +3, Defence Bonus +2, ST 12,
    DC = 10 + DEX +1 + 2 = 13; HP = 4d6 with CON +1 per die, logged with its faces."""
    f, _ = new_fight(1, 2, 3, 6)
    f.do(AddCombatant(name="Dusty", kind="pc", sheet={"cls": "Shootist", "level": 5, "dex": 13, "con": 13}))
    ev = f.entries[-1].event
    assert isinstance(ev, CombatantAdded) and ev.rolls[0].faces == (1, 2, 3, 6)
    d = data(f, "c1")
    assert (d.to_hit, d.dc, d.st, str(d.hd), d.max_hp) == (3, 13, 12, "4", 2 + 3 + 4 + 7)
    assert "[1,2,3,6]" in ev.describe(f.steps[-1].before)


def test_level_one_shootist_has_one_hit_die_not_one_plus_one():
    """Ruling: the class tables win over the text's example — a level 1 Shootist has 1 HD, not 1+1."""
    f, dice = new_fight(4)
    f.do(AddCombatant(name="Kid", kind="pc", sheet={"cls": "Shootist", "level": 1}))
    assert data(f, "c1").max_hp == 4 and str(data(f, "c1").hd) == "1"
    assert dice.requests[-1].count == 1


def test_con_modifier_applies_per_die_with_at_least_one_hp_per_die():
    """Ruling: CON modifier per die, positive or negative, at least 1 HP per die.
    A level 4 Gambler (2+1 HD) with CON 3 rolls 2 and 5: max(1, 2-3) + max(1, 5-3) + 1 = 4."""
    f, _ = new_fight(2, 5)
    f.do(AddCombatant(name="Doc", kind="pc", sheet={"cls": "Gambler", "level": 4, "con": 3}))
    assert data(f, "c1").max_hp == 1 + 2 + 1


def test_trailblazer_level_one_is_one_plus_one_and_rowdy():
    f, _ = new_fight(4)
    f.do(AddCombatant(name="Jed", kind="pc", sheet={"cls": "Trailblazer", "level": 1}))
    d = data(f, "c1")
    assert (d.max_hp, str(d.hd), d.rowdy, d.st) == (5, "1+1", True, 16)


def test_entered_hp_rolls_nothing():
    f, dice = new_fight()
    add_pc(f, "Dusty", hp=9)
    assert data(f, "c1").max_hp == 9 and dice.requests == []


def test_npc_stat_lines():
    """NPCs: to-hit = HD (max +15), Saving Throw = 19 − HD, HP = HD d6 ± modifier."""
    f, _ = new_fight(1, 2, 3, 4)
    f.do(AddCombatant(name="", preset="black_bear"))
    bear = data(f, "c1")
    assert (bear.dc, bear.to_hit, bear.st, bear.max_hp, bear.level) == (13, 3, 16, 1 + 2 + 3 + 6, 3)
    f.do(AddCombatant(name="", preset="outlaw"))
    outlaw = data(f, "c2")
    assert (outlaw.to_hit, outlaw.st, outlaw.max_hp) == (1, 18, 4)
    f.do(AddCombatant(name="Titan", sheet={"dc": 20, "hd": "20", "hp": 70}))
    assert data(f, "c3").to_hit == 15 and data(f, "c3").st == -1


def test_half_hit_die_rolls_d3():
    """Ruling: "½" HD → 1d3 HP."""
    f, dice = new_fight(3)
    f.do(AddCombatant(name="", preset="rattler"))
    assert dice.requests[-1].hi == 3 and data(f, "c1").max_hp == 3 and data(f, "c1").hd.at_most_one


def test_npc_hp_at_least_one():
    """Ruling: a 1-1 HD Dandy rolling 1 still has 1 HP."""
    f, _ = new_fight(1)
    f.do(AddCombatant(name="", preset="dandy"))
    assert data(f, "c1").max_hp == 1


def test_presets_cover_chapter_8_and_tables_10_to_12():
    names = {p.name for p in CHAPTER_8}
    for n in (
        "Bear, Black", "Bear, Grizzly", "Bison", "Cougar", "Donkey", "Horse, Riding", "Mule", "Pony",
        "Snake, Rattler", "Wolf", "Brave", "Dandy", "Gunfighter", "Mountain Man", "Outlaw", "Rowdy",
        "Soiled Dove", "Scout", "Soldier, Cavalry",
    ):  # fmt: skip
        assert n in names
    weapon_names = {w.name for w in WEAPONS}
    for n in (
        "wood axe", "tomahawk", "cavalry saber", "club", "fists", "knife", "bowie knife", "spear", "bow",
        "derringer", "pocket pistol", "belt pistol", "heavy pistol", "horse pistol", "carbine",
        "repeating rifle", "long rifle", "buffalo rifle", "smoothbore musket", "scattergun",
    ):  # fmt: skip
        assert n in weapon_names
    assert len(WEAPON_PRESETS) == len(WEAPONS)
    for p in system.presets():
        assert p.summary


@pytest.mark.parametrize(
    "name, damage, rof, shots, rng",
    [
        ("derringer", "1d6-1", "2", 2, 10),
        ("pocket pistol", "1d6-1", "2", 5, 30),
        ("belt pistol", "1d6", "2", 6, 50),
        ("heavy pistol", "1d6+1", "2", 6, 75),
        ("horse pistol", "1d6", "1/2", 1, 25),
        ("carbine", "1d6+1", "2", 7, 200),
        ("repeating rifle", "2d6*", "2", 15, 300),
        ("long rifle", "2d6+1*", "1/2", 1, 400),
        ("buffalo rifle", "2d6+2*", "1/2", 1, 500),
        ("smoothbore musket", "1d6", "1/2", 1, 80),
        ("scattergun", "2d6", "1", 2, 30),
        ("bow", "1d6", "2", 0, 50),
        ("knife", "1d6-1", "1", 0, 10),
        ("spear", "1d6", "1", 0, 20),
    ],
)
def test_weapon_table_read_column_by_column(name, damage, rof, shots, rng):
    """Ruling: Table 12 read column by column (derringer 1d6−1, RoF 2, 1–2 shots, 10 ft …)."""
    w = find_weapon(name)
    assert (w.damage, w.rof, w.shots, w.range) == (damage, rof, shots, rng)


def test_four_outlaws_as_a_group_is_one_action():
    f, _ = new_fight(3, 4, 5, 6)
    f.do(AddCombatant(name="", preset="outlaw", count=4))
    assert [c.name for c in f.state.combatants] == ["Outlaw 1", "Outlaw 2", "Outlaw 3", "Outlaw 4"]
    assert {c.group for c in f.state.combatants} == {"Outlaw"}
    assert len(f.steps) == 1 and [c.data.max_hp for c in f.state.combatants] == [3, 4, 5, 6]


@pytest.mark.parametrize(
    "sheet, words",
    [
        ({"cls": "Shootist", "level": 11}, "level 11 is outside 1–10"),
        ({"cls": "Gambler", "level": 0}, "level 0 is outside 1–10"),
        ({"cls": "Shootist", "str": 19}, "STR 19 is outside 3–18"),
        ({"cls": "Trailblazer", "dex": 2}, "DEX 2 is outside 3–18"),
        ({"cls": "Shootist", "weapons": "laser"}, "not a weapon of Tables 10–12"),
        ({"cls": "Shootist", "weapons": "belt pistol:7"}, "holds 0 to 6 shots"),
        ({"cls": "Shootist", "weapons": "knife", "favoured": "knife"}, "Sure Shot is chosen for a firearm"),
        ({"cls": "Trailblazer", "favoured": "carbine"}, "Close Fighter is chosen for a non-firearm"),
        ({"dc": 12, "hd": "x"}, "Hit Dice 'x'"),
    ],
)
def test_bad_sheets_are_refused_and_nothing_is_logged(sheet, words):
    f, _ = new_fight(3, 3, 3)
    with pytest.raises(Refused, match=words):
        f.do(AddCombatant(name="Bad", kind="pc" if "cls" in sheet else "npc", sheet={"hp": 5, **sheet}))
    assert f.entries == []


def test_a_weapon_preset_is_not_a_combatant():
    f, _ = new_fight()
    with pytest.raises(Refused, match="a weapon is not a combatant"):
        f.do(AddCombatant(name="", preset="weapon_scattergun"))
    assert f.entries == []


# -- initiative -------------------------------------------------------------


def test_pcs_and_important_npcs_roll_alone_an_npc_group_rolls_once():
    """PCs and important NPCs roll alone (Gunfighter d20+1); the Outlaw group rolls once and shares it."""
    f, dice = new_fight()
    a = add_pc(f, "Dusty")
    b = add_pc(f, "Doc", cls="Gambler")
    gang = add_npc(f, "outlaw", count=3)
    (gun,) = add_npc(f, "gunfighter")
    dice.add(9, 14, 11, 7)
    f.do(RollInitiative())
    assert len(dice.requests) == 4
    inits = {c.id: c.initiative for c in f.state.combatants}
    assert inits[a] == 9 and inits[b] == 14 and inits[gun] == 8
    assert {inits[g] for g in gang} == {11}
    assert f.state.order[:4] == (b, *gang)


def test_ties_by_dex_then_level_then_simultaneous():
    """Ties: higher DEX first, then higher level (HD); still tied → simultaneous (kept in state.ties)."""
    f, _ = new_fight()
    slow = add_pc(f, "Slow", dex=10, level=1)
    quick = add_pc(f, "Quick", dex=15, level=1)
    veteran = add_pc(f, "Veteran", dex=10, level=4, hp=12)
    twin = add_pc(f, "Twin", dex=10, level=1)
    f.do(SetInitiative(values={slow: 12, quick: 12, veteran: 12, twin: 12}))
    assert f.state.order == (quick, veteran, slow, twin)
    assert f.state.ties == ((slow, twin),)
    ev = f.entries[-1].event
    assert isinstance(ev, OrderSet) and "simultaneous: Slow & Twin" in ev.describe(f.state)


def test_gunfighter_outranks_outlaw_on_a_tie_by_hit_dice():
    f, _ = new_fight()
    (o,) = add_npc(f, "outlaw", name="Lefty")
    (g,) = add_npc(f, "gunfighter")
    f.do(SetInitiative(values={o: 10, g: 10}))
    assert f.state.order == (g, o) and f.state.ties == ()


def test_order_is_kept_for_later_rounds():
    f, _ = new_fight()
    a, b = add_pc(f, "A"), add_pc(f, "B")
    f.do(SetInitiative(values={a: 5, b: 15}))
    f.do(StartFight())
    seen = [f.state.current]
    for _ in range(3):
        f.do(NextTurn())
        seen.append(f.state.current)
    assert seen == [b, a, b, a] and f.state.round == 2


def test_a_pc_may_withhold_its_action_and_act_later():
    f, _ = new_fight()
    a = add_pc(f, "Dusty")
    (o,) = add_npc(f, "outlaw", name="Lefty")
    f.do(SetInitiative(values={a: 15, o: 10}))
    f.do(StartFight())
    f.do(Delay())
    assert f.state.current == o and f.state.get(a).held
    f.do(ActNow(id=a))
    assert f.state.current == a


def test_npcs_may_not_withhold_their_action():
    f, _ = new_fight()
    a = add_pc(f, "Dusty")
    (o,) = add_npc(f, "outlaw", name="Lefty")
    f.do(SetInitiative(values={a: 5, o: 10}))
    f.do(StartFight())
    n = len(f.entries)
    with pytest.raises(Refused, match="NPCs may not withhold their action"):
        f.do(Delay())
    assert len(f.entries) == n and f.state.current == o


def test_a_surprise_round_for_one_side():
    """A surprise round may be granted to one side before initiative: only they act in round 0."""
    f, _ = new_fight()
    a, b = add_pc(f, "A"), add_pc(f, "B")
    (o,) = add_npc(f, "outlaw", name="Lefty")
    f.do(SetInitiative(values={a: 5, b: 8, o: 10}))
    f.do(StartFight(surprise=(a, b)))
    assert (f.state.round, f.state.current) == (0, b)
    f.do(NextTurn())
    assert (f.state.round, f.state.current) == (0, a)
    f.do(NextTurn())
    assert (f.state.round, f.state.current) == (1, o)
