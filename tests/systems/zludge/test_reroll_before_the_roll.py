"""An aspect invoked for a reroll *before* the roll (rule ``invoke``: "+1 or a reroll of the dice, before
or after the roll"; ruling in systems/zludge/checks.py:skill_roll): the 4dF are rolled twice and the better of
the two counts, as a player who sees the first roll rerolls only a roll it does not like.  It kept the second
roll whatever it was: a Superb attack invoked for a reroll became a miss.
"""

from __future__ import annotations

import json

from saves.format import Codec
from systems.zludge import system
from systems.zludge.commands import Attack, FirstAid, InvokeAfter, MarkWound, RollSkill
from systems.zludge.events import AttackResolved, SkillRolled
from systems.zludge.why import dice_terms
from tests.systems.zludge.helpers import F, add, data, duel, new_fight, script
from tracker import Entry

SWORD = {"skills": "Melee 2, Acrobatics 1", "weapon": "sword", "aspects": "Star Ranger", "plot_points": 1}
BOB = {"skills": "Acrobatics 1", "aspects": "Brawler"}  # Acrobatics +0


def test_aspect_reroll_before_the_roll_keeps_the_better_roll():
    """The z11 case: a Superb first roll stays; the reroll's -4 is shown, not taken."""
    f = duel(SWORD, BOB)
    script(f, F(4), F(-4), F(0))
    res = f.do(Attack(actor="c1", target="c2", aspect="Star Ranger", aspect_use="reroll"))[0]
    assert isinstance(res, AttackResolved)
    assert res.attack.total == 4 and res.attack_rerolled is not None and res.attack_rerolled.total == -4
    assert res.attack_better and res.attack_total == 5 and res.outcome == "critical"
    assert data(f, "c1").aspects_used == ("Star Ranger",)
    text = res.describe(f.state)
    assert (
        "Melee 4dF [+,+,+,+] = 4 kept over 4dF [-,-,-,-] = -4 (reroll chosen before the roll: the better counts)"
        in (text)
    )
    assert "rerolled from" not in text


def test_a_better_reroll_before_the_roll_counts():
    f = duel(SWORD, BOB)
    script(f, F(-4), F(2), F(0))
    res = f.do(Attack(actor="c1", target="c2", aspect="Star Ranger", aspect_use="reroll"))[0]
    assert res.attack.total == 2 and res.attack_rerolled.total == -4 and res.attack_total == 3
    assert "4dF [+,+,0,0] = 2 kept over 4dF [-,-,-,-] = -4" in res.describe(f.state)


def test_defense_reroll_before_the_roll_keeps_the_better_roll():
    f = duel(SWORD, BOB)
    script(f, F(0), F(3), F(-3))  # attack +1; defense 3, its reroll -3: the 3 stands, a miss
    res = f.do(
        Attack(actor="c1", target="c2", defense_aspect="Brawler", defense_aspect_use="reroll", defense="Acrobatics")
    )[0]
    assert res.defense.total == 3 and res.defense_rerolled.total == -3 and res.defense_better
    assert res.defense_total == 3 and res.outcome == "miss"
    assert data(f, "c2").aspects_used == ("Brawler",) and data(f, "c2").wounds == ()
    assert "Acrobatics 4dF [+,+,+,0] = 3 kept over 4dF [-,-,-,0] = -3" in res.describe(f.state)


def test_skill_and_first_aid_reroll_before_the_roll_keep_the_better_roll():
    f = new_fight()
    a = add(f, "Alice", skills="Athletics 1, Medical 1", aspects="Star Ranger, Medic")
    b = add(f, "Bob", kind="npc")
    script(f, F(1), F(-2))
    (ev,) = f.do(RollSkill(actor=a, skill="Athletics", aspect="Star Ranger", aspect_use="reroll"))
    assert isinstance(ev, SkillRolled) and ev.better and ev.roll.total == 1 and ev.total == 1 and ev.success
    assert "4dF [+,0,0,0] = 1 kept over 4dF [-,-,0,0] = -2" in ev.describe(f.state)
    f.do(MarkWound(target=b, level=1))
    script(f, F(-3), F(0))
    ev = f.do(FirstAid(actor=a, target=b, aspect="Medic", aspect_use="reroll"))[0]
    assert ev.better and ev.roll.total == 0 and ev.success and data(f, b).wounds[0].treated


def test_a_plot_point_after_a_reroll_before_the_roll_keeps_both_rolls_shown():
    """The revision adds its +1 to the kept roll; the record still reads "kept over"."""
    f = duel(SWORD, BOB)
    script(f, F(-2), F(-1), F(0))  # the better -1, +1 Melee: 0 vs 0: clipped
    res = f.do(Attack(actor="c1", target="c2", aspect="Star Ranger", aspect_use="reroll"))[0]
    assert res.outcome == "clipped" and res.attack_total == 0
    f.do(InvokeAfter(actor="c1", plot_points=1))
    last = f.state.data.last_roll.event
    assert last.attack_total == 1 and last.outcome == "hit" and last.attack_better
    assert "kept over 4dF [-,-,0,0] = -2" in last.describe(f.state)


def test_why_says_which_roll_counted():
    f = duel(SWORD, BOB)
    script(f, F(4), F(-4), F(0))
    res = f.do(Attack(actor="c1", target="c2", aspect="Star Ranger", aspect_use="reroll"))[0]
    (term,) = dice_terms("Alice's Melee attack", res.attack, res.attack_rerolled, res.attack_better)
    assert term == (
        "Alice's Melee attack: 4dF [+,+,+,+] = 4 kept over 4dF [-,-,-,-] = -4 (aspect reroll before the roll: the better)"
    )


def test_an_old_file_reroll_reads_as_before():
    """Files written before the ruling have no ``attack_better``/``better``: the second roll counted, and the
    line still says "rerolled from … to …" (their totals were recorded, so they replay the same)."""
    f = duel(SWORD, BOB)
    script(f, F(4), F(-4), F(0))
    res = f.do(Attack(actor="c1", target="c2", aspect="Star Ranger", aspect_use="reroll"))[0]
    codec = Codec(system)
    record = json.loads(codec.encode(Entry(1, 1, res)))
    del record["crc"], record["event"]["attack_better"], record["event"]["defense_better"]
    record["event"]["attack"], record["event"]["attack_rerolled"] = (
        record["event"]["attack_rerolled"],
        record["event"]["attack"],
    )
    record["event"]["attack_total"] = -3
    old = codec.decode(record, 1).event
    assert isinstance(old, AttackResolved) and not old.attack_better
    assert "Melee rerolled from 4dF [+,+,+,+] = 4 to 4dF [-,-,-,-] = -4" in old.describe(f.state)
    skill = SkillRolled(actor="c1", skill="Athletics", roll=res.attack_rerolled, rerolled=res.attack, total=-4)
    assert "rerolled from 4dF [+,+,+,+] = 4 to 4dF [-,-,-,-] = -4" in skill.describe(f.state)
