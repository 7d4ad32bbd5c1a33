"""Party files: the PCs kept fresh or as they are now (injuries, spent lead, wounds), in every system."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from saves import parties
from tracker import AddCombatant, Adjust, Damage, Fight, SeededRoller, StartFight, registry
from tracker.errors import Refused, TrackerError

HARM = {"bnb": "1", "blackjack": "moderate", "zludge": "1", "twod6": "1"}
PC = {"bnb": {"cls": "Shootist", "level": 3, "weapons": "heavy pistol"}}


def hurt_pc(system_id: str) -> Fight:
    s = registry.load(system_id)
    f = Fight(s, roller=SeededRoller(3))
    pcs = [p for p in s.presets() if p.kind == "pc"]
    if pcs:
        f.do(AddCombatant(name="Mags", kind="pc", preset=pcs[0].id))
    else:
        f.do(AddCombatant(name="Mags", kind="pc", sheet=PC.get(system_id, {})))
    npc = next(p for p in s.presets() if p.kind == "npc")
    f.do(AddCombatant(name="Thug", preset=npc.id))
    f.do(StartFight())
    f.do(Damage(targets=("c1",), amount=HARM[system_id]))
    return f


@pytest.mark.parametrize("system_id", ["bnb", "blackjack", "zludge", "twod6"])
def test_a_party_kept_as_it_is_now_comes_back_hurt_and_a_fresh_one_unhurt(system_id: str, tmp_path: Path) -> None:
    f = hurt_pc(system_id)
    s = f.system
    mags = f.state.get("c1")
    path = parties.save_party("Posse", system_id, parties.party_members(f, now=True), tmp_path)
    assert parties.keeps_now(path)

    now = Fight(s)
    now.do_all(parties.party_commands(path))  # one GM action
    assert len(now.steps) == 1
    back = now.state.by_name("Mags")
    assert back is not None and s.public(now.state, back) == s.public(f.state, mags) != "unhurt"
    carried = [p.name for p in s.adjustable(f.state, mags) if p.name not in s.fight_only]  # type: ignore[attr-defined]
    assert [getattr(back.data, n, None) for n in carried] == [getattr(mags.data, n, None) for n in carried]

    fresh = Fight(s)
    fresh.do_all(parties.party_commands(path, fresh=True))
    unhurt = Fight(s)
    unhurt.do(AddCombatant(name="Mags", kind="pc", sheet=parties.party_members(f)[0]["sheet"]))
    mags_fresh = fresh.state.by_name("Mags")
    assert mags_fresh is not None
    assert mags_fresh.data == unhurt.state.get("c1").data
    assert s.public(fresh.state, mags_fresh) != s.public(f.state, mags)


def test_what_belongs_to_one_fight_is_not_carried() -> None:
    f = hurt_pc("zludge")
    f.do(Adjust(id="c1", field="clipped", value=True))
    members = parties.party_members(f, now=True)
    assert "clipped" not in members[0]["now"] and "acted" not in members[0]["now"]
    assert members[0]["now"]["wound_track"] == "...|1.|.|.|."


def test_a_party_file_that_is_not_a_regular_file_is_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "Posse.json"
    os.mkfifo(fifo)
    with pytest.raises(TrackerError, match="cannot read the party file"):
        parties.party_commands(fifo)


def test_a_bnb_pc_kept_with_temporary_damage_comes_back_as_it_was_not_dying(tmp_path: Path) -> None:
    """HP were set before the temporary damage, which then took them again: a Shootist at 3 of 10 HP with 2 of
    them temporary came back at 1 HP (and one kept at 1 HP, dying); the maximum rolled anew for each copy is
    kept too."""
    s = registry.load("bnb")
    f = Fight(s, roller=SeededRoller(3))
    f.do(AddCombatant(name="Mags", kind="pc", sheet={"cls": "Shootist", "level": 3, "hp": 10}))
    f.do(StartFight())
    f.do(Damage(targets=("c1",), amount="5"))
    f.do(Damage(targets=("c1",), amount="2", temporary=True))
    mags = f.state.get("c1").data
    assert (mags.hp, mags.temp, mags.damage) == (3, 2, 5)
    path = parties.save_party("Posse", "bnb", parties.party_members(f, now=True), tmp_path)
    back = Fight(s, roller=SeededRoller(9))
    back.do_all(parties.party_commands(path))
    d = back.state.by_name("Mags").data  # type: ignore[union-attr]
    assert (d.hp, d.temp, d.damage, d.max_hp, d.status) == (3, 2, 5, 10, "ok")


def test_a_party_of_the_same_name_is_replaced_only_when_asked_and_never_another_systems(tmp_path: Path) -> None:
    """F5 "Posse" in a twod6 fight replaced the bnb party "Posse" without a word (the file was the name), and
    within a system a second "Posse" replaced the first: each system keeps its own, and a party of this system
    of that name (in any case) is replaced only when the GM asks."""
    bnb = parties.party_members(hurt_pc("bnb"))
    twod6 = parties.party_members(hurt_pc("twod6"))
    first = parties.save_party("Posse", "bnb", bnb, tmp_path)
    other = parties.save_party("Posse", "twod6", twod6, tmp_path)
    assert other != first
    assert [(n, p) for n, p, _ in parties.list_parties("bnb", tmp_path)] == [("Posse", first)]
    assert [(n, p) for n, p, _ in parties.list_parties("twod6", tmp_path)] == [("Posse", other)]
    with pytest.raises(Refused, match="already a party called 'Posse': tick Replace"):
        parties.save_party("posse", "bnb", bnb, tmp_path)
    again = parties.save_party("posse", "bnb", bnb, tmp_path, replace=True)
    assert again == first and len(list(tmp_path.glob("*.json"))) == 2
