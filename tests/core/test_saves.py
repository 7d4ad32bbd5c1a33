"""The fight-log file: written as it happens, loaded, recovered, upgraded, refused with the line."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

import saves
from saves.format import Codec, seal
from tests.support.toy import Hit
from tests.support.toy import system as toy
from tracker import AddCombatant, Adjust, Entry, NextTurn, Note, ScriptedRoller, SetInitiative, StartFight
from tracker.errors import Refused
from tracker.events import CORE_EVENTS


def played(path: Path, *faces: int) -> saves.SavedFight:
    f = saves.new_fight(toy, path, seed=3, roller=ScriptedRoller(list(faces)))
    f.do(AddCombatant(name="Alice", kind="pc", sheet={"hp": 8}))
    f.do(AddCombatant(name="Goblin", preset="goblin", count=2))
    f.do(SetInitiative(values={"c1": 15, "c2": 12, "c3": 10}))
    f.do(StartFight())
    f.do(Hit(actor="c1", target="c2"))
    f.undo()
    f.redo()
    f.do(NextTurn())
    f.do(Adjust(id="c3", field="hp", value=1))
    f.do(Note(text="Ünïcode ✓ survives"))
    return f


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_each_action_is_on_disk_when_do_returns(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    f = saves.new_fight(toy, path, seed=3)
    assert len(path.read_text().splitlines()) == 1  # the header
    f.do(AddCombatant(name="Goblin", count=3, sheet={"hp": 4}))
    lines = path.read_text().splitlines()
    assert len(lines) == 4
    assert [json.loads(x)["of"] for x in lines[1:]] == [3, 3, 3]


def test_header_names_format_system_and_seed(tmp_path: Path) -> None:
    played(tmp_path / "f.jsonl", 15, 3)
    header = json.loads((tmp_path / "f.jsonl").read_text().splitlines()[0])
    assert header["format"] == saves.FORMAT_VERSION
    assert header["system"] == "toy"
    assert header["system_version"] == "1"
    assert header["seed"] == 3


def test_loading_replays_to_exactly_the_live_state(tmp_path: Path) -> None:
    live = played(tmp_path / "f.jsonl", 15, 3)
    loaded = saves.load(tmp_path / "f.jsonl")
    assert loaded.warnings == ()
    assert loaded.fight().state == live.state
    assert [e.event for e in loaded.entries] == [e.event for e in live.entries]


def test_continuing_a_fight_appends_to_the_same_file(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    live = played(path, 15, 3)
    live.close()
    again = saves.open_fight(path)
    assert again.state == live.state
    assert again.can_undo
    again.do(NextTurn())
    assert saves.load(path).fight().state == again.state


def test_a_torn_last_line_is_dropped_with_a_warning_and_repaired_in_place_once(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    live = played(path, 15, 3)
    live.close()  # one writer at a time
    good = saves.load(path).fight().state
    whole = path.read_bytes()
    torn = b'{"seq": 99, "action": 42, "of": 1, "ty'
    with open(path, "ab") as f:
        f.write(torn)
    before = digest(path)
    loaded = saves.load(path)
    assert loaded.torn and loaded.needs_repair
    assert "cut off" in loaded.warnings[0]
    assert loaded.fight().state == good == live.state
    assert digest(path) == before, "loading never changes the file"
    again = saves.open_fight(path)
    assert again.path == path, "the fight goes on in the same file"
    assert path.read_bytes() == whole, "cut back to its last whole action"
    (aside,) = tmp_path.glob("f.jsonl.torn-*")
    assert aside.read_bytes() == torn, "the torn bytes are kept aside"
    assert "kept in " + aside.name in again.warnings[0]
    again.do(NextTurn())
    again.close()
    third = saves.open_fight(path)  # opened again: the same fight, with what was done since
    assert third.warnings == () and third.state == again.state
    third.close()
    assert list(tmp_path.glob("f.jsonl.torn-*")) == [aside] and not list(tmp_path.glob("*-recovered*"))


def test_an_action_cut_short_by_a_crash_is_dropped_whole(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    f = saves.new_fight(toy, path, seed=3)
    f.do(AddCombatant(name="Alice", kind="pc"))
    f.do(AddCombatant(name="Goblin", count=3, sheet={"hp": 4}))
    lines = path.read_bytes().split(b"\n")
    # keep the header, Alice, the first two goblins and half of the third line
    path.write_bytes(b"\n".join(lines[:4]) + b"\n" + lines[4][:20])
    loaded = saves.load(path)
    assert [c.name for c in loaded.fight().state.combatants] == ["Alice"]
    assert any("cut short" in w for w in loaded.warnings)


def test_damage_in_the_middle_is_refused_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    played(path, 15, 3)
    lines = path.read_text().splitlines()
    lines[3] = "#" + lines[3][1:]
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(saves.LoadError, match=r"^line 4: not valid JSON"):
        saves.load(path)


def test_an_event_that_does_not_fit_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    played(path, 15, 3)
    lines = path.read_text().splitlines()
    record = json.loads(lines[2])
    record.pop("crc")
    record["event"]["name"] = 12345
    record["event"].pop("id")
    lines[2] = seal(json.dumps(record))  # a line changed on purpose, its checksum made anew
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(saves.LoadError, match=r"^line 3: event 'combatant_added' is damaged"):
        saves.load(path)


def test_an_undo_out_of_order_is_refused_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    played(path, 15, 3)
    with open(path, "a") as f:
        record = {"seq": 20, "action": 30, "of": 1, "type": "undone", "v": 1, "event": {"action": 1}}
        f.write(seal(json.dumps(record)) + "\n")
    with pytest.raises(saves.LoadError, match=r"line \d+: the log does not replay"):
        saves.load(path)


def test_a_newer_format_is_refused_clearly(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    played(path, 15, 3)
    lines = path.read_text().splitlines()
    lines[0] = lines[0].replace(f'"format":{saves.FORMAT_VERSION}', '"format":7')
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(saves.LoadError, match="newer tracker"):
        saves.load(path)


def test_an_older_format_is_upgraded_on_load(tmp_path: Path) -> None:
    path = tmp_path / "old.jsonl"
    header = {"format": 0, "system": "toy", "system_version": "1", "created": "2026-01-01", "seed": 1}
    rec = {
        "seq": 1,
        "act": 1,
        "type": "combatant_added",
        "event": {"id": "c1", "name": "Old Timer", "kind": "pc", "sheet": {"hp": 5}},
    }
    path.write_text(json.dumps(header) + "\n" + json.dumps(rec) + "\n")
    loaded = saves.load(path)
    assert loaded.fight().state.get("c1").name == "Old Timer"
    assert digest(path) == digest(path)  # loading never writes


def test_a_save_of_a_system_that_is_not_installed_is_refused_by_name(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    path.write_text(json.dumps({"format": 1, "system": "gurps", "seed": 1}) + "\n")
    with pytest.raises(saves.LoadError, match=r"'gurps'.*not installed"):
        saves.load(path)


def test_not_a_fight_file(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    path.write_text("hello\n")
    with pytest.raises(saves.LoadError, match="not a fight file"):
        saves.load(path)
    with pytest.raises(saves.LoadError, match="no fight file"):
        saves.load(tmp_path / "missing.jsonl")
    (tmp_path / "e.jsonl").write_text("")
    with pytest.raises(saves.LoadError, match="empty"):
        saves.load(tmp_path / "e.jsonl")


def test_a_fight_file_is_never_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    played(path, 15, 3)
    before = digest(path)
    with pytest.raises(saves.SaveError, match="never overwritten"):
        saves.new_fight(toy, path)
    assert digest(path) == before


def test_continue_from_a_point_starts_a_new_file_and_leaves_the_original(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    played(path, 15, 3)
    before = digest(path)
    branch = saves.continue_from(path, 3)  # inside the goblins' action: moved to its end
    assert [c.name for c in branch.state.combatants] == ["Alice", "Goblin 1", "Goblin 2"]
    branch.do(AddCombatant(name="Sheriff", kind="pc"))
    assert digest(path) == before
    assert json.loads(branch.path.read_text().splitlines()[0])["parent"] == str(path)
    assert saves.load(branch.path).fight().state == branch.state
    with pytest.raises(Refused):
        saves.continue_from(path, 999)


def test_default_folder_and_recent_list(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRACKER_DATA_DIR", str(tmp_path))
    assert saves.default_dir() == tmp_path / "fights"
    f = saves.new_fight("toy", title="Saloon brawl")
    assert f.path.parent == tmp_path / "fights"
    (tmp_path / "fights" / "junk.jsonl").write_text("not json\n")
    infos = saves.recent()
    assert {i.path for i in infos} == {f.path, tmp_path / "fights" / "junk.jsonl"}
    good = next(i for i in infos if i.path == f.path)
    assert good.header is not None and good.header.title == "Saloon brawl"
    assert next(i for i in infos if i.header is None).problem.startswith("unreadable")
    elsewhere = saves.new_fight("toy", directory=tmp_path / "elsewhere")
    assert elsewhere.path.parent == tmp_path / "elsewhere"
    assert [i.path for i in saves.recent(tmp_path / "elsewhere")] == [elsewhere.path]


def test_every_core_event_has_a_unique_stable_tag() -> None:
    codec = Codec(toy)
    tags = [cls.TYPE for cls in CORE_EVENTS]
    assert len(set(tags)) == len(tags)
    assert "combatant_added" in codec.types


def test_codec_round_trips_every_event_of_a_played_fight(tmp_path: Path) -> None:
    live = played(tmp_path / "f.jsonl", 15, 3)
    codec = Codec(toy)
    for entry in live.entries:
        assert codec.decode(json.loads(codec.encode(entry)), 2) == Entry(entry.seq, entry.action, entry.event)


def test_a_file_is_read_whole_in_any_pieces_and_never_past_the_limit(tmp_path, monkeypatch) -> None:
    """read_bytes reads the file in one go when it can (its size from fstat), and in pieces as they come (a short
    read, a file that grew since): always all of it, from ``start``, and never more than ``limit``."""
    import os

    from saves import files

    path = tmp_path / "f.jsonl"
    data = bytes(range(256)) * 5000
    path.write_bytes(data)
    assert files.read_bytes(path) == data
    assert files.read_bytes(path, start=1000) == data[1000:]
    assert files.read_bytes(path, limit=len(data)) == data
    with pytest.raises(files.LoadError, match="too big"):
        files.read_bytes(path, limit=len(data) - 1)
    real_read, real_fstat = os.read, os.fstat
    monkeypatch.setattr(os, "read", lambda fd, n: real_read(fd, min(n, 777)))  # short reads
    assert files.read_bytes(path) == data
    monkeypatch.setattr(os, "read", real_read)

    class Smaller:  # the file grew after fstat: more than its size then is read, still bounded by the limit
        def __init__(self, st: os.stat_result) -> None:
            self.st_mode, self.st_size = st.st_mode, 10

    monkeypatch.setattr(os, "fstat", lambda fd: Smaller(real_fstat(fd)))
    assert files.read_bytes(path) == data
    with pytest.raises(files.LoadError, match="too big"):
        files.read_bytes(path, limit=len(data) - 1)
