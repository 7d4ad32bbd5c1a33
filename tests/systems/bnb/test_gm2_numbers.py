"""Blood & Bullets number fields read the digits 0-9 only, as every INT field does (review gm2, finding 8):
"6_0" ft and "٦٠" ft were read as 60, "belt pistol:٤" as 4 shots."""

from __future__ import annotations

import pytest

from systems.bnb.commands import GunPlay
from systems.bnb.tables import parse_weapons
from tracker import AddCombatant, Refused

from .helpers import gunfight, new_fight


@pytest.mark.parametrize("distance", ["6_0", "\u0666\u0660", "\uff16\uff10", "10, 2_0"])
def test_a_gunplay_distance_in_other_digits_is_refused(distance: str) -> None:
    f, _dice, dusty, (o1, o2, _o3), _gun = gunfight(level=3)
    n, state = len(f.entries), f.state
    with pytest.raises(Refused, match="must be feet"):
        f.do(GunPlay(actor=dusty, targets=(o1, o2), distance=distance))
    assert len(f.entries) == n and f.state == state


@pytest.mark.parametrize("shots", ["\u0664", "0_4", "\uff14"])
def test_loaded_shots_in_other_digits_are_refused(shots: str) -> None:
    with pytest.raises(Refused, match="the loaded shots after the colon must be a number"):
        parse_weapons(f"belt pistol:{shots}")
    f, _dice = new_fight()
    with pytest.raises(Refused, match="must be a number"):
        f.do(
            AddCombatant(name="Dusty", kind="pc", sheet={"cls": "Shootist", "hp": 8, "weapons": f"belt pistol:{shots}"})
        )
    assert f.state.combatants == ()


def test_loaded_shots_in_the_digits_0_to_9_are_read_as_before() -> None:
    (carried,) = parse_weapons("belt pistol: 4 ")
    assert carried.shots == 4
