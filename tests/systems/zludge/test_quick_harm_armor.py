"""Quick damage with "armor counts" (l.93 weapon levels, l.106 "minus any reduction due to the target's armor").

Repro /tmp/a11/rules3/z6.py (Z29): a grenade given as quick damage to Bob (light kevlar, armor 2) and Carl (none)
checked a Comatose box on both.  Ruling in systems/zludge/rules/harm.py.
"""

from __future__ import annotations

import pytest

from systems.zludge import system
from systems.zludge.events import WoundMarked
from tests.systems.zludge.helpers import add, data, duel
from tracker.commands import Damage
from tracker.errors import Refused
from tracker.events import NoteAdded


def _three():
    f = duel({}, {"armor": "light kevlar"})
    add(f, "Carl", kind="npc")
    return f


def test_a_grenade_as_quick_damage_takes_each_targets_armor_off() -> None:
    """Weapon 4 on Bob (armor 2) → 2-level, on Carl (none) → 4-level, each wound saying so."""
    f = _three()
    bob, carl = f.do(Damage(targets=("c2", "c3"), amount="weapon 4 (explosives), armor counts", note="grenade"))
    assert (bob.weapon_level, bob.armor_level, bob.wound, bob.source) == (4, 2, 2, "grenade")
    assert (carl.weapon_level, carl.armor_level, carl.wound) == (4, 0, 4)
    assert bob.describe(f.state) == "Bob takes a 2-level wound (grenade; weapon 4 − armor 2): checks a Very Hurt box"
    assert data(f, "c2").wound_penalty == -2


def test_armor_above_the_weapon_does_no_damage() -> None:
    """Ruling "below 0 does no damage": a knife (1) on light kevlar (2) marks no wound."""
    f = _three()
    (note,) = f.do(Damage(targets=("c2",), amount="weapon 1"))
    assert isinstance(note, NoteAdded) and note.id == "c2"
    assert note.text == "Bob: weapon 1 − armor 2 → below 0: no damage (GM)"
    assert data(f, "c2").wounds == ()


def test_a_plain_level_still_ignores_armor_as_before() -> None:
    """What a GM typed before means the same: "4" is the level each target takes."""
    f = _three()
    (wound,) = f.do(Damage(targets=("c2",), amount="4"))
    assert isinstance(wound, WoundMarked) and (wound.wound, wound.weapon_level) == (4, None)
    assert "weapon" not in wound.describe(f.state)


def test_partial_armor_counts_where_the_hit_location_falls() -> None:
    """Armor covering the torso only: a hit location is rolled as for an attack; legs (6): no armor."""
    f = duel({}, {"armor": "flak jacket", "armor_covers": "torso"})
    f.roller.add(6)
    (wound,) = f.do(Damage(targets=("c2",), amount="weapon 2"))
    assert (wound.location, wound.armor_level, wound.wound) == ("legs", 0, 2)
    f.roller.add(2)
    (wound,) = f.do(Damage(targets=("c2",), amount="weapon 2"))
    assert (wound.location, wound.armor_level, wound.wound) == ("torso", 1, 1)
    assert "weapon 2 − armor 1 in the torso (1d6 [2]" in wound.describe(f.state)


def test_armor_counts_with_fatigue_is_refused() -> None:
    f = _three()
    with pytest.raises(Refused, match="fatigue is marked at the level given"):
        f.do(Damage(targets=("c2",), amount="weapon 3", temporary=True))


def test_the_damage_form_offers_armor_counts_and_says_a_plain_level_ignores_armor() -> None:
    amount = system.harm_params(False)[0]
    assert "weapon 4 (explosives), armor counts" in amount.choices
    assert amount.default == "0 Scratched"
    assert "armor NOT counted" in amount.help and "below 0: no damage" in amount.help
