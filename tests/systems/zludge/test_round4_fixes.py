"""Round 4 fixes (r1 audit, zludge findings 2 and 3): a critical's +1 before armor's below-0 test, shown in Why?;
an armor-absorbed hit's log line names its margin."""

from __future__ import annotations

from systems.zludge.commands import Attack
from systems.zludge.events import AttackResolved, WoundMarked
from systems.zludge.table import R
from tests.systems.zludge.helpers import F, data, duel, script
from tests.systems.zludge.test_why import terms, why

KNIFE = {"skills": "Melee 3", "weapon": "knife"}  # Melee +2, weapon 1
KEVLAR = {"skills": "Acrobatics 1", "weapon": "knife", "armor": "light kevlar"}  # Acrobatics +0, armor 2


def test_a_critical_counts_before_armors_below_0_test():
    """Ruling (harm.py): weapon 1 against armor 2 on a critical is 1 + 1 − 2 = 0, a 0-level wound (Scratched,
    clipped), not −1 and nothing; Why? shows the order."""
    f = duel(KNIFE, KEVLAR)
    script(f, F(3), F(-1))  # +5 vs −1: margin 6, critical
    ev = f.do(Attack(actor="c1", target="c2"))
    res, wound = ev[0], ev[1]
    assert isinstance(res, AttackResolved) and isinstance(wound, WoundMarked)
    assert (res.outcome, res.weapon_level, res.armor_level, res.damage_level) == ("critical", 1, 2, 0)
    assert (wound.wound, wound.box) == (0, 0)
    assert data(f, "c2").clipped
    assert "hits Bob by 6: critical, +1 level; weapon 1 − armor 2 → 0-level damage" in res.describe(f.state)
    rs = why(f, "zludge.attack_resolved")
    assert terms(rs, R.no_damage.name) == [
        "weapon 1 + 1 critical − armor 2 = 0: the critical's +1 counts before the below-0 test, "
        "so the hit deals 0-level damage"
    ]
    assert "critical's +1 counted before that test" in R.no_damage.text


def test_a_critical_still_below_0_after_armor_does_nothing_and_why_shows_the_order():
    """Weapon 0 (Unarmed) against armor 2 on a critical: 0 + 1 − 2 = −1, no damage."""
    f = duel({"skills": "Unarmed 3", "weapon": "knife"}, KEVLAR)
    script(f, F(3), F(-1))  # +5 vs −1: critical
    ev = f.do(Attack(actor="c1", target="c2", skill="Unarmed"))
    assert len(ev) == 1 and (ev[0].outcome, ev[0].damage_level) == ("critical", None)
    assert data(f, "c2").wounds == ()
    assert "hits Bob by 6: critical, +1 level; weapon 0 − armor 2, armor absorbs it all" in ev[0].describe(f.state)
    rs = why(f, "zludge.attack_resolved")
    assert terms(rs, R.no_damage.name) == [
        "weapon 0 + 1 critical − armor 2 = −1: the critical's +1 counts before the below-0 test",
        "damage level −1 is below 0: no damage",
    ]


def test_a_hit_the_armor_absorbs_names_its_margin():
    """r1 finding 3: "hits Bob: weapon 2 − armor 3, armor absorbs it all" left out the margin every other hit
    names; a GM checking for a critical could not see it."""
    f = duel({"skills": "Melee 2", "weapon": "sword"}, {**KEVLAR, "armor": "heavy kevlar"})
    script(f, F(2), F(0))  # +3 vs 0: a hit by 3, sword 2 − armor 3
    ev = f.do(Attack(actor="c1", target="c2"))
    assert len(ev) == 1 and (ev[0].outcome, ev[0].damage_level) == ("hit", None)
    assert ev[0].describe(f.state).endswith("hits Bob by 3: weapon 2 − armor 3, armor absorbs it all")
