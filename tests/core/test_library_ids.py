"""The GM's presets (saves.library): a preset is its name's, never another's by its id; a preset kept fresh rolls
again what the book rolls; an NPC the GM made a PC comes back as the same character."""

from __future__ import annotations

import json
from pathlib import Path

import attrs
import pytest

from saves import library
from tracker import AddCombatant, Adjust, Fight, SeededRoller, registry
from tracker.errors import Refused
from tracker.events import CombatantAdded

SYSTEMS = ("bnb", "blackjack", "zludge", "twod6")


@pytest.fixture(autouse=True)
def _no_gm_presets() -> object:
    yield
    for sid in SYSTEMS:
        registry.use_presets(sid, ())


def _kept(folder: Path) -> list[tuple[str, str]]:
    data = json.loads(library.library_file("bnb", folder).read_text())
    return [(e["id"], e["name"]) for e in data["presets"]]


def _two_npcs() -> Fight:
    f = Fight(registry.load("bnb"))
    f.do(AddCombatant(name="Gang boss", sheet={"dc": 14, "hd": "3", "hp": 20}))
    f.do(AddCombatant(name="Hireling", sheet={"dc": 11, "hd": "1", "hp": 5}))
    return f


def test_a_new_preset_of_a_renamed_ones_old_name_is_another_preset(tmp_path: Path) -> None:
    """Kept as "Gang boss", renamed "Big Jim": a new "Gang boss" was refused naming Big Jim, and with Replace
    ticked Big Jim was gone."""
    f = _two_npcs()
    first = library.save_preset("bnb", f, "c1", "Gang boss", folder=tmp_path)
    library.rename_preset("bnb", first, "Big Jim", folder=tmp_path)
    second = library.save_preset("bnb", f, "c2", "Gang boss", folder=tmp_path)
    assert second != first
    assert _kept(tmp_path) == [(first, "Big Jim"), (second, "Gang boss")]
    later = Fight(registry.load("bnb"))
    later.do(AddCombatant(preset=first))  # an id saved before still names its own preset
    later.do(AddCombatant(preset="gang boss"))
    assert [c.data.hp for c in later.state.combatants] == [20, 5]


def test_replace_replaces_only_the_preset_of_that_name_under_its_id(tmp_path: Path) -> None:
    f = _two_npcs()
    first = library.save_preset("bnb", f, "c1", "Gang boss", folder=tmp_path)
    library.rename_preset("bnb", first, "Big Jim", folder=tmp_path)
    library.save_preset("bnb", f, "c1", "Gang boss", folder=tmp_path)
    library.save_preset("bnb", f, "c1", "Mule", folder=tmp_path)
    with pytest.raises(library.PresetExists, match="called 'Gang boss'"):
        library.save_preset("bnb", f, "c2", "GANG BOSS", folder=tmp_path)
    before = _kept(tmp_path)
    pid = library.save_preset("bnb", f, "c2", "GANG BOSS", folder=tmp_path, replace=True)
    assert pid == before[1][0]
    assert _kept(tmp_path) == [before[0], (pid, "GANG BOSS"), before[2]]  # in its place; Big Jim stays
    later = Fight(registry.load("bnb"))
    later.do(AddCombatant(preset=pid))
    assert later.state.combatants[0].data.hp == 5


def test_names_in_other_letters_are_different_presets(tmp_path: Path) -> None:
    """Every name without a Latin letter was ``my:preset``: "Орк" after "Гоблин" was refused naming the
    goblin, and replaced it when told to."""
    f = _two_npcs()
    goblin = library.save_preset("bnb", f, "c1", "Гоблин", folder=tmp_path)
    orc = library.save_preset("bnb", f, "c2", "Орк", folder=tmp_path)
    assert (goblin, orc) == ("my:гоблин", "my:орк")
    assert library.save_preset("bnb", f, "c2", "!!!", folder=tmp_path) == "my:preset"
    assert library.save_preset("bnb", f, "c2", "???", folder=tmp_path) == "my:preset-2"
    assert [name for _id, name in _kept(tmp_path)] == ["Гоблин", "Орк", "!!!", "???"]


def test_a_library_file_of_an_older_version_keeps_its_ids(tmp_path: Path) -> None:
    """Ids already in a file stay as they are: a fight or a GM that names one still finds it."""
    path = library.library_file("bnb", tmp_path)
    path.parent.mkdir(parents=True)
    old = {"id": "my:preset", "name": "Гоблин", "kind": "npc", "sheet": {"dc": 12, "hd": "1", "hp": 4}}
    path.write_text(json.dumps({"library": library.MARK, "system": "bnb", "presets": [old]}))
    assert [p.id for p in library.presets("bnb", tmp_path)] == ["my:preset"]
    f = _two_npcs()
    assert library.save_preset("bnb", f, "c1", "Орк", folder=tmp_path) == "my:орк"
    assert library.save_preset("bnb", f, "c2", "Гоблин", folder=tmp_path, replace=True) == "my:preset"
    later = Fight(registry.load("bnb"))
    later.do(AddCombatant(preset="my:preset"))
    assert later.state.combatants[0].data.hp == 5


def test_a_fresh_preset_rolls_again_for_each_one_added(tmp_path: Path) -> None:
    """bnb rolls HP from the Hit Dice as each is added: a wolf kept fresh gave every copy the first one's HP."""
    system = registry.load("bnb")
    f = Fight(system, roller=SeededRoller(3))
    f.do(AddCombatant(preset="wolf", count=3))
    f.do(AddCombatant(name="Gang boss", sheet={"dc": 14, "hd": "3", "hp": 0}))
    pid = library.save_preset("bnb", f, "c1", "My wolf", folder=tmp_path)
    boss = library.save_preset("bnb", f, "c4", "Boss", folder=tmp_path)
    kept = {e["name"]: e["sheet"] for e in json.loads(library.library_file("bnb", tmp_path).read_text())["presets"]}
    assert kept["My wolf"].get("hp", 0) == 0 and kept["Boss"].get("hp", 0) == 0  # "0: roll the hit dice"
    for preset, hd in ((pid, "1+1"), (boss, "3")):
        later = Fight(system, roller=SeededRoller(11))
        later.do(AddCombatant(preset=preset, count=6))
        added = [e.event for e in later.entries if isinstance(e.event, CombatantAdded)]
        assert all(len(e.rolls) == 1 for e in added)  # each one rolls its own
        assert len({c.data.max_hp for c in later.state.combatants}) > 1
        assert {c.data.hd.dice for c in later.state.combatants} == {int(hd[0])}
    # the rest of the sheet is the first one's
    wolf = Fight(system)
    wolf.do(AddCombatant(preset=pid))
    first = f.state.get("c1").data
    again = wolf.state.combatants[0].data
    assert attrs.evolve(again, max_hp=first.max_hp) == first


def test_a_preset_kept_as_it_is_now_keeps_the_hp_rolled(tmp_path: Path) -> None:
    system = registry.load("bnb")
    f = Fight(system, roller=SeededRoller(3))
    f.do(AddCombatant(preset="wolf"))
    pid = library.save_preset("bnb", f, "c1", "That wolf", now=True, folder=tmp_path)
    later = Fight(system, roller=SeededRoller(11))
    later.do(AddCombatant(preset=pid, count=3))
    assert {c.data.max_hp for c in later.state.combatants} == {f.state.get("c1").data.max_hp}


@pytest.mark.parametrize("sid", ("blackjack", "zludge", "twod6"))
def test_a_preset_kept_fresh_holds_the_sheet_as_it_was_given(sid: str, tmp_path: Path) -> None:
    """The library file held the rules' checked record (blackjack's weapons as dicts, "jam", "rev": 2…), not what
    the GM or the book gave ("Machete, 2 Revolvers"); the add event keeps it (``given``), the preset is made of it,
    and one added from it comes out as the first did."""
    system = registry.load(sid)
    f = Fight(system)
    npc = next(p for p in system.presets() if p.kind == "npc")
    f.do(AddCombatant(preset=npc.id))
    pid = library.save_preset(sid, f, "c1", "Mine", folder=tmp_path)
    added = next(e.event for e in f.entries if isinstance(e.event, CombatantAdded))
    kept = next(p for p in library.presets(sid, tmp_path) if p.id == pid).sheet
    assert kept == json.loads(json.dumps(dict(added.given or added.sheet), default=str))
    again = Fight(system)
    again.do(AddCombatant(preset=pid))
    assert again.state.combatants[0].data == f.state.combatants[0].data


@pytest.mark.parametrize("now", (False, True))
def test_an_npc_made_a_pc_comes_back_the_same(now: bool, tmp_path: Path) -> None:
    """The preset kept the NPC's sheet and the kind as it was then (PC): bnb read it as a level 1 Shootist."""
    system = registry.load("bnb")
    f = Fight(system)
    f.do(AddCombatant(name="Hireling", sheet={"dc": 13, "hd": "2", "hp": 9, "weapons": "rifle"}))
    f.do(Adjust(id="c1", field="kind", value="pc"))
    pid = library.save_preset("bnb", f, "c1", "Hired gun", now=now, folder=tmp_path)
    later = Fight(system)
    later.do(AddCombatant(preset=pid))
    back, was = later.state.combatants[0], f.state.get("c1")
    assert back.kind == "pc"
    assert back.data == was.data
    assert later.steps and len(later.steps) == 1  # one GM action, one undo
    later.undo()
    assert later.state.combatants == ()


def test_a_renamed_preset_cannot_take_a_name_kept_already(tmp_path: Path) -> None:
    f = _two_npcs()
    library.save_preset("bnb", f, "c1", "Gang boss", folder=tmp_path)
    pid = library.save_preset("bnb", f, "c2", "Hireling", folder=tmp_path)
    with pytest.raises(Refused, match="already have a preset called"):
        library.rename_preset("bnb", pid, "GANG BOSS", folder=tmp_path)
