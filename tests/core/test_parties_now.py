"""A party kept "as they are now" after temporary (fist) damage in bnb came back refused: "Hero's HP is already 5"
(audit a14 g2, F2).  Its steps set the temporary damage first, which already takes HP to what it was, then HP
to the same value, which is refused as no change.  Ruling (tracker.commands.Adjust.restore): a step of a party or
preset kept "as it was" whose value already holds is no change, not refused."""

from __future__ import annotations

from pathlib import Path

from saves import library, parties
from tracker import AddCombatant, Damage, Fight, StartFight, registry


def fisted() -> Fight:
    f = Fight(registry.load("bnb"))
    f.do(AddCombatant(name="Hero", kind="pc", sheet={"hp": "8"}))
    f.do(StartFight())
    f.do(Damage(targets=("c1",), amount="3", temporary=True))
    return f


def test_a_party_kept_after_fist_damage_comes_back_as_it_was(tmp_path: Path) -> None:
    f = fisted()
    hero = f.state.get("c1")
    path = parties.save_party("Fists", "bnb", parties.party_members(f, now=True), tmp_path)
    g = Fight(registry.load("bnb"))
    g.do_all(parties.party_commands(path))  # (one GM action, as the app loads it)
    back = g.state.combatants[0]
    assert (back.data.hp, back.data.temp) == (hero.data.hp, hero.data.temp) == (5, 3)


def test_a_preset_kept_after_fist_damage_comes_back_as_it_was(tmp_path: Path) -> None:
    f = fisted()
    hero = f.state.get("c1")
    pid = library.save_preset("bnb", f, "c1", "Bruised hero", now=True, folder=tmp_path)
    g = Fight(registry.load("bnb"))
    g.do(AddCombatant(preset=pid))
    back = g.state.combatants[0]
    assert (back.data.hp, back.data.temp) == (hero.data.hp, hero.data.temp)


def test_a_preset_kept_knocked_out_by_fists_comes_back_knocked_out(tmp_path: Path) -> None:
    """Audit a14 w2, F2: a first fix left the status out of the steps, and the PC came back standing."""
    f = Fight(registry.load("bnb"))
    f.do(AddCombatant(name="Hero", kind="pc", sheet={"hp": "4"}))
    f.do(StartFight())
    f.do(Damage(targets=("c1",), amount="6", temporary=True))
    hero = f.state.get("c1")
    assert hero.data.status != "ok"
    pid = library.save_preset("bnb", f, "c1", "Out cold", now=True, folder=tmp_path)
    g = Fight(registry.load("bnb"))
    g.do(AddCombatant(preset=pid))
    back = g.state.combatants[0]
    assert (back.data.status, back.data.hp, back.data.temp) == (hero.data.status, hero.data.hp, hero.data.temp)


def test_a_party_kept_knocked_out_after_lethal_and_fist_damage_comes_back_so(tmp_path: Path) -> None:
    """Audit a14 w2, F3: its HP step was read as harm crossing 0: back dying, with a death save asked."""
    f = Fight(registry.load("bnb"))
    f.do(AddCombatant(name="Hero", kind="pc", sheet={"hp": "8"}))
    f.do(StartFight())
    f.do(Damage(targets=("c1",), amount="6"))
    f.do(Damage(targets=("c1",), amount="3", temporary=True))
    hero = f.state.get("c1")
    path = parties.save_party("Out", "bnb", parties.party_members(f, now=True), tmp_path)
    g = Fight(registry.load("bnb"))
    g.do_all(parties.party_commands(path))
    back = g.state.combatants[0]
    assert (back.data.status, back.data.hp, back.data.temp) == (hero.data.status, hero.data.hp, hero.data.temp)
    assert not g.state.prompts
