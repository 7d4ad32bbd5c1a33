"""#46 anchors: the GM's own presets (saves.library), one roll for an area, conditions under the book's name."""

from __future__ import annotations

import json
from pathlib import Path

import attrs
import pytest

from saves import library
from tracker import AddCombatant, AddCondition, Damage, Fight, SeededRoller, StartFight, registry
from tracker.dice import ScriptedRoller
from tracker.errors import Refused
from tracker.events import CombatantAdded, ConditionAdded, HarmRolled
from tracker.explain import explain

SYSTEMS = ("bnb", "blackjack", "zludge", "twod6")
# one NPC preset of each book, and a quick damage in each system's own measure
BOOK = {"bnb": "cougar", "blackjack": "outlaw", "zludge": "thug", "twod6": "bandit"}
HURT = {"bnb": "3", "blackjack": "lesser", "zludge": "1", "twod6": "1"}


@pytest.fixture(autouse=True)
def _no_gm_presets() -> object:
    yield
    for sid in SYSTEMS:
        registry.use_presets(sid, ())


def _added(fight: Fight) -> list[CombatantAdded]:
    return [e.event for e in fight.entries if isinstance(e.event, CombatantAdded)]


def _hurt_boss(sid: str) -> Fight:
    system = registry.load(sid)
    f = Fight(system)
    f.do(AddCombatant(name="Gang boss", preset=BOOK[sid]))
    f.do(AddCombatant(name="Alice", kind="pc"))
    f.do(StartFight())
    f.do(Damage(targets=("c1",), amount=HURT[sid]))
    return f


@pytest.mark.parametrize("sid", SYSTEMS)
def test_a_saved_preset_adds_the_same_sheet_in_a_later_fight(sid: str, tmp_path: Path) -> None:
    f = _hurt_boss(sid)
    pid = library.save_preset(sid, f, "c1", "Gang boss", folder=tmp_path)
    assert pid == "my:gang-boss"
    registry.use_presets(sid, ())  # a later session: the library is read again
    assert [p.id for p in library.presets(sid, tmp_path)] == [pid]
    later = Fight(registry.load(sid), roller=SeededRoller(5))
    later.do(AddCombatant(preset=pid, count=3))
    sheets = [e.sheet for e in _added(later)]
    if not _added(f)[0].rolls:
        assert sheets == [_added(f)[0].sheet] * 3
    # what the rules rolled as it was added (bnb: HP from the HD) is rolled again for each, as for the book's
    book = Fight(registry.load(sid), roller=SeededRoller(5))
    book.do(AddCombatant(name="Gang boss", preset=BOOK[sid], count=3))
    assert sheets == [e.sheet for e in _added(book)]
    assert [c.name for c in later.state.combatants] == ["Gang boss 1", "Gang boss 2", "Gang boss 3"]
    fresh = Fight(registry.load(sid))
    fresh.do(AddCombatant(name="Gang boss", preset=BOOK[sid]))
    system = later.system
    if not _added(fresh)[0].rolls:  # (bnb rolls HP from its HD as each one is added)
        assert system.status(later.state, later.state.combatants[0]) == system.status(
            fresh.state, fresh.state.combatants[0]
        )
    text = library.library_file(sid, tmp_path).read_text()
    assert json.loads(text)["presets"][0]["name"] == "Gang boss"  # a file a GM can read and edit
    assert library.library_file(sid, tmp_path).stat().st_mode & 0o777 == 0o600


@pytest.mark.parametrize("sid", SYSTEMS)
def test_a_preset_kept_as_it_is_now_comes_back_hurt(sid: str, tmp_path: Path) -> None:
    f = _hurt_boss(sid)
    boss = f.state.get("c1")
    pid = library.save_preset(sid, f, "c1", "Hurt boss", now=True, folder=tmp_path)
    later = Fight(registry.load(sid))
    later.do(AddCombatant(preset=pid))
    system = later.system
    same_phase = attrs.evolve(later.state, started=f.state.started, ended=f.state.ended)  # (zludge: flat-footed)
    assert system.status(same_phase, later.state.combatants[0]) == system.status(f.state, boss)
    later.undo()
    assert later.state.combatants == ()


def test_rename_and_delete_keep_the_file_and_the_core_in_step(tmp_path: Path) -> None:
    f = _hurt_boss("bnb")
    pid = library.save_preset("bnb", f, "c1", "Gang boss", folder=tmp_path)
    library.rename_preset("bnb", pid, "Big Jim", folder=tmp_path)
    assert [(p.id, p.name) for p in registry.gm_presets("bnb")] == [(pid, "Big Jim")]
    later = Fight(registry.load("bnb"))
    later.do(AddCombatant(preset="big jim"))
    assert later.state.combatants[0].name == "Big Jim"
    library.delete_preset("bnb", pid, folder=tmp_path)
    assert library.presets("bnb", tmp_path) == ()
    with pytest.raises(Refused, match="no preset called"):
        Fight(registry.load("bnb")).do(AddCombatant(preset=pid))


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('{\n  "presets": [\n    {"id": "my:x", "name": "X", "bogus": 1}\n  ]\n}\n', 'line 3: unknown field "bogus"'),
        ('{\n  "presets": [\n    {"id": "my:x", "name": "X",}\n  ]\n}\n', "line 3"),
        ('{\n  "presets": [],\n  "extra": true\n}\n', 'line 3: unknown field "extra"'),
    ],
)
def test_a_damaged_library_is_reported_with_its_line_and_skipped(tmp_path: Path, text: str, said: str) -> None:
    path = library.library_file("bnb", tmp_path)
    path.parent.mkdir(parents=True)
    path.write_text(text)
    with pytest.raises(library.LibraryError, match=said):
        library.presets("bnb", tmp_path)
    assert registry.gm_presets("bnb") == ()
    f = Fight(registry.load("bnb"))
    f.do(AddCombatant(preset="cougar"))  # the book's presets still work
    assert f.state.combatants[0].name == "Cougar"
    with pytest.raises(library.LibraryError):  # and the damaged file is never written over
        library.save_preset("bnb", f, "c1", "Cat", folder=tmp_path)
    assert path.read_text() == text


def test_one_roll_for_all_rolls_once_and_deals_the_total_to_each() -> None:
    f = Fight(registry.load("bnb"), roller=ScriptedRoller([4, 5, 6, 6]))
    for name in ("A", "B", "C"):
        f.do(AddCombatant(name=name, sheet={"hp": 20}))
    f.do(StartFight())
    events = f.do(Damage(targets=("c1", "c2", "c3"), amount="2d6", one_roll=True))
    rolled = [e for e in events if isinstance(e, HarmRolled)]
    assert len(rolled) == 1 and rolled[0].roll.faces == (4, 5) and rolled[0].roll.total == 9
    lost = [e for e in events if type(e).__name__ == "HpLost"]
    assert [(e.id, e.amount) for e in lost] == [("c1", 9), ("c2", 9), ("c3", 9)]
    assert f.describe(len(f.entries) - len(events)).startswith("One roll for A, B, C: 2d6 [4,5] = 9")
    (why,) = explain(f, f.entries[len(f.entries) - len(events)].seq)  # Why? names the rule and the roll
    assert why.rule == "One roll for all" and "faces 4, 5" in " ".join(why.terms)
    assert "caught: A, B, C" in why.terms
    # without one_roll each target gets its own roll, as before
    events = f.do(Damage(targets=("c1", "c2"), amount="1d6"))
    assert not any(isinstance(e, HarmRolled) for e in events)


def test_one_roll_goes_through_each_targets_own_rules() -> None:
    """twod6: each target's own rules take the one total (wounds; the dead refuse it, as a single target would)."""
    f = Fight(registry.load("twod6"), roller=ScriptedRoller([2]))
    for name in ("A", "B"):
        f.do(AddCombatant(name=name, preset="bandit"))
    f.do(StartFight())
    events = f.do(Damage(targets=("c1", "c2"), amount="1d3", one_roll=True))
    wounded = [(e.target, e.wounds) for e in events if type(e).__name__ == "Wounded"]
    assert wounded == [("c1", 2), ("c2", 2)]
    assert sum(isinstance(e, HarmRolled) for e in events) == 1


def test_a_level_is_no_roll() -> None:
    """blackjack's quick damage is a level ("moderate"): nothing to roll once, so no HarmRolled."""
    f = Fight(registry.load("blackjack"))
    for name in ("A", "B"):
        f.do(AddCombatant(name=name, preset="outlaw"))
    f.do(StartFight())
    events = f.do(Damage(targets=("c1", "c2"), amount="moderate", one_roll=True))
    assert not any(isinstance(e, HarmRolled) for e in events)


@pytest.mark.parametrize("sid", SYSTEMS)
def test_each_book_names_its_conditions_and_a_read_one_is_stored_under_its_own_name(sid: str) -> None:
    system = registry.load(sid)
    named = system.conditions()
    assert named, f"{sid} declares no book conditions"
    read = [c for c in named if c.automated]
    assert read, f"{sid} declares no condition its rules read"
    f = Fight(system)
    f.do(AddCombatant(name="Alice", kind="pc"))
    typed = f"  {read[0].name.upper()}  "
    events = f.do(AddCondition(id="c1", name=typed))
    assert [e.condition.name for e in events if isinstance(e, ConditionAdded)] == [read[0].name]
    assert f.state.get("c1").condition(read[0].name) is not None


def test_typed_conditions_are_remembered_for_the_next_form(tmp_path: Path) -> None:
    library.remember_condition("bnb", "  on  fire ", tmp_path)
    library.remember_condition("bnb", "pinned", tmp_path)
    library.remember_condition("bnb", "on fire", tmp_path)  # already near the top: not written again
    assert library.typed_conditions("bnb", tmp_path) == ["pinned", "on fire"]
    assert library.typed_conditions("zludge", tmp_path) == []


def test_a_preset_of_a_name_kept_already_is_replaced_only_when_told(tmp_path: Path) -> None:
    """M with the name of a preset kept before replaced it without a word (the kept one, and its kept state,
    gone).  It is refused, naming the preset, unless the GM says to replace it."""
    f = _hurt_boss("bnb")
    pid = library.save_preset("bnb", f, "c1", "Old grizzly", now=True, folder=tmp_path)
    before = library.library_file("bnb", tmp_path).read_text()
    with pytest.raises(library.PresetExists, match="already have a preset called 'Old grizzly'"):
        library.save_preset("bnb", f, "c1", "old GRIZZLY", folder=tmp_path)
    assert library.library_file("bnb", tmp_path).read_text() == before
    assert library.save_preset("bnb", f, "c1", "Old grizzly", replace=True, folder=tmp_path) == pid
    (kept,) = library.presets("bnb", tmp_path)
    assert kept.id == pid and not kept.now  # the new one (fresh) in its place
    registry.use_presets("bnb", ())


@pytest.mark.parametrize("what", ["fifo", "symlink"])
def test_saving_a_preset_past_a_fifo_or_a_link_at_the_temporary_name(what: str, tmp_path: Path) -> None:
    """A FIFO named "bnb.json.new" in the library folder froze saving a preset for ever; a symlink there was
    written through. The temporary name (now ".bnb.json.PID.part") is made afresh (never followed, never waited
    on)."""
    import os

    f = _hurt_boss("bnb")
    library.save_preset("bnb", f, "c1", "Gang boss", folder=tmp_path)
    path = library.library_file("bnb", tmp_path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.part")
    outside = tmp_path / "outside.txt"
    outside.write_text("mine")
    if what == "fifo":
        os.mkfifo(tmp)
    else:
        tmp.symlink_to(outside)
    library.save_preset("bnb", f, "c1", "Big Jim", folder=tmp_path)  # returned: no hang
    assert {p.name for p in library.presets("bnb", tmp_path)} == {"Gang boss", "Big Jim"}
    assert outside.read_text() == "mine" and not tmp.exists()


def test_a_fault_in_a_later_preset_is_named_at_its_own_line(tmp_path: Path) -> None:
    """Preset 3's bad id was said at line 5, preset 1's (the first "id" of the file); a name with an Escape in it
    was said with neither file nor line ("Name: control characters …")."""
    path = library.library_file("bnb", tmp_path)
    path.parent.mkdir(parents=True)
    head = '{\n  "library": "gm-combat-tracker presets",\n  "system": "bnb",\n  "presets": [\n'
    good = '{"id": "my:a", "name": "A", "sheet": {}}'
    rows = [good, good.replace("my:a", "my:b").replace('"A"', '"B"')]
    for third, said in (
        ('{"id": "gang", "name": "C", "sheet": {}}', r"line 7: preset 3's id must start"),
        (
            '{"id": "my:c", "name": "Esc\\u001b[31mX", "sheet": {}}',
            r"library file .*bnb.json, line 7: preset 3's Name: control",
        ),
    ):
        path.write_text(head + ",\n".join([*rows, third]) + "\n]}\n")
        with pytest.raises(library.LibraryError, match=said):
            library.presets("bnb", tmp_path)
