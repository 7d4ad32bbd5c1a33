"""Which weapon an attack or a reload takes (rules/common.py ``find_weapon``, rules/attacks.py ``_range``).

Audit a12/r2, finding F2: the book's Outlaw carries "2 Revolvers" (the tracker's "Revolver" and "Revolver 2");
once the first was empty, naming "Revolver" was refused "empty … reload" while "Revolver 2" was full, and an
empty weapon field at nearby range took the Machete (refused: a melee attack). Finding F3: a Bear hug (l.261,
"BOD save or be grappled") was logged "(nearby)"; a hug is at arm's reach, "Close" (l.20).
"""

from __future__ import annotations

import pytest

from systems.blackjack.commands import Attack, Reload, attack_defaults
from systems.blackjack.events import AttackMade, Reloaded
from tests.systems.blackjack.helpers import new_fight, npc, of_type, pc, weapon
from tracker import Adjust, Fight
from tracker.errors import Refused


def _outlaw(shots: str = "") -> tuple[Fight, str, str]:
    """Dusty and an Outlaw (Machete, Revolver, Revolver 2; 3 lead); ``shots`` adjusts the revolvers' loads."""
    f = new_fight()
    dusty = pc(f, "Dusty", body=12)
    outlaw = npc(f, "Outlaw", "outlaw")
    for value in filter(None, shots.split(";")):
        f.do(Adjust(id=outlaw, field="shots", value=value.strip()))
    return f, dusty, outlaw


def _fired(events: list[object]) -> list[tuple[str, int]]:
    return [(e.weapon, e.weapon_index) for e in of_type(events, AttackMade)]


def test_naming_an_empty_revolver_fires_the_loaded_one_of_two_alike() -> None:
    f, dusty, outlaw = _outlaw()
    f.roller.add(*[15] * 6)  # type: ignore[attr-defined]
    f.do(Attack(actor=outlaw, targets=(dusty,) * 6, weapon="Revolver"))
    assert weapon(f, outlaw, "Revolver").loaded == 0
    f.roller.add(15)  # type: ignore[attr-defined]
    before = f.state
    ev = f.do(Attack(actor=outlaw, targets=(dusty,), weapon="Revolver"))
    assert _fired(ev) == [("Revolver 2", 2)]
    assert weapon(f, outlaw, "Revolver 2").loaded == 5 and weapon(f, outlaw, "Revolver").loaded == 0
    # the log names the revolver actually fired
    assert of_type(ev, AttackMade)[0].describe(before).startswith("Outlaw attacks Dusty with Revolver 2 (nearby)")


def test_naming_revolver_2_when_it_is_empty_fires_the_first_and_a_loaded_named_one_is_kept() -> None:
    f, dusty, outlaw = _outlaw("Revolver 2 0")
    f.roller.add(15, 15)  # type: ignore[attr-defined]
    assert _fired(f.do(Attack(actor=outlaw, targets=(dusty,), weapon="Revolver 2"))) == [("Revolver", 1)]
    # both loaded: the one named, as before
    f, dusty, outlaw = _outlaw()
    f.roller.add(15)  # type: ignore[attr-defined]
    assert _fired(f.do(Attack(actor=outlaw, targets=(dusty,), weapon="Revolver 2"))) == [("Revolver 2", 2)]


def test_a_volley_named_takes_the_revolver_holding_enough_shots() -> None:
    f, dusty, outlaw = _outlaw("Revolver 2")
    f.roller.add(15, 15, 15)  # type: ignore[attr-defined]
    ev = f.do(Attack(actor=outlaw, targets=(dusty,) * 3, weapon="Revolver"))
    assert _fired(ev) == [("Revolver 2", 2)] * 3


def test_both_revolvers_empty_is_refused_as_before() -> None:
    f, dusty, outlaw = _outlaw("Revolver 0; Revolver 2 0")
    with pytest.raises(Refused, match="Outlaw's Revolver is empty"):
        f.do(Attack(actor=outlaw, targets=(dusty,), weapon="Revolver"))


def test_reloading_a_named_revolver_reloads_the_empty_one_of_two_alike() -> None:
    f, _dusty, outlaw = _outlaw("Revolver 2 0")
    ev = f.do(Reload(actor=outlaw, weapon="Revolver"))
    assert [(e.weapon, e.weapon_index) for e in of_type(ev, Reloaded)] == [("Revolver 2", 2)]
    assert weapon(f, outlaw, "Revolver 2").loaded == 6 and weapon(f, outlaw, "Revolver").loaded == 6


def test_an_empty_weapon_field_takes_the_first_ready_weapon_that_can_make_the_attack() -> None:
    # range left on auto, one target: the first ready weapon, the one the form starts on (the Machete)
    f, dusty, outlaw = _outlaw("Revolver 0")
    f.roller.add(15)  # type: ignore[attr-defined]
    assert attack_defaults(f.state, outlaw) == {"weapon": "Machete"}
    assert _fired(f.do(Attack(actor=outlaw, targets=(dusty,)))) == [("Machete", 0)]
    # nearby: the Machete cannot reach, the empty Revolver is passed over, the loaded Revolver 2 fires
    f.roller.add(15)  # type: ignore[attr-defined]
    assert _fired(f.do(Attack(actor=outlaw, targets=(dusty,), range="nearby"))) == [("Revolver 2", 2)]
    # several targets: a volley, from the revolver that holds the shots
    f.roller.add(15, 15)  # type: ignore[attr-defined]
    assert _fired(f.do(Attack(actor=outlaw, targets=(dusty, dusty)))) == [("Revolver 2", 2)] * 2


def test_an_empty_field_with_nothing_able_is_refused_on_the_first_ready_weapon() -> None:
    f, dusty, outlaw = _outlaw("Revolver 0; Revolver 2 0")
    with pytest.raises(Refused, match="Machete is a melee attack"):
        f.do(Attack(actor=outlaw, targets=(dusty,), range="far"))


def test_a_bear_hug_is_close_and_a_breath_stays_nearby() -> None:
    f = new_fight()
    dusty = pc(f, "Dusty", body=12)
    bear = npc(f, "Bear", "bear")
    dragon = npc(f, "Dragon", "fire_dragon")
    f.roller.add(15)  # type: ignore[attr-defined]
    before = f.state
    ev = of_type(f.do(Attack(actor=bear, targets=(dusty,), weapon="Bear hug")), AttackMade)
    assert ev[0].range == "close"
    assert ev[0].describe(before).startswith("Bear attacks Dusty with Bear hug (close; Dusty saves)")
    f.roller.add(15)  # type: ignore[attr-defined]
    ev = of_type(f.do(Attack(actor=dragon, targets=(dusty,), weapon="Fire breath")), AttackMade)
    assert ev[0].range == "nearby"
    # a GM's own grappling special reads close too; one the GM sets a range for keeps it
    octo = npc(f, "Octopus", weapons="Tentacle grab: special")
    f.roller.add(15, 15)  # type: ignore[attr-defined]
    ev = of_type(f.do(Attack(actor=octo, targets=(dusty,), weapon="Tentacle grab")), AttackMade)
    assert ev[0].range == "close"
    ev = of_type(f.do(Attack(actor=bear, targets=(dusty,), weapon="Bear hug", range="nearby")), AttackMade)
    assert ev[0].range == "nearby"


def test_a_weapon_refused_names_one_that_can() -> None:
    """Audit g2, F5: the attack form starts on the Outlaw's Machete; at nearby range it is refused as a melee
    attack, and the refusal names the Revolver that can make the attack; with no such weapon nothing is added."""
    f, dusty, outlaw = _outlaw()
    with pytest.raises(Refused) as caught:
        f.do(Attack(actor=outlaw, targets=(dusty,), weapon="Machete", range="nearby"))
    said = str(caught.value)
    assert "Machete" in said and "; the Revolver can make this attack (name it, or empty the weapon field)" in said
    assert said.count("blackjack l.") <= 1, said  # the rule cited once, at the end
    f, dusty, outlaw = _outlaw("Revolver 0; Revolver 2 0")
    with pytest.raises(Refused) as caught:
        f.do(Attack(actor=outlaw, targets=(dusty,), weapon="Machete", range="nearby"))
    assert "can make this attack" not in str(caught.value), str(caught.value)
