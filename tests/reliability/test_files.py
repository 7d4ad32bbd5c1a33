"""Damaged and hostile files: a warning, or the app's one-line error naming the line, never a crash (items 3-7, 11, 13)."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import saves
from bench.fights import make_fight
from saves.checker import check
from saves.export import fresh_recap_path
from tests.reliability.support import ROOT, records, reseal, run_cli, seal_raw
from tracker import Note

pytestmark = pytest.mark.reliability
FIXTURES = ROOT / "tests" / "fixtures" / "format1"


def a_fight(tmp_path: Path, system_id: str = "bnb", events: int = 200, name: str = "f.jsonl") -> Path:
    path = tmp_path / name
    make_fight(system_id, events, path, seed=4)
    return path


# -- 3: an unfinished last action is dropped with a warning, whether or not its last line is whole ------------


def test_a_power_cut_at_a_line_end_inside_an_action(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    f = saves.new_fight("toy", path, seed=3)
    f.do(Note(text="kept"))
    from tracker import AddCombatant

    f.do(AddCombatant(name="Goblin", count=3, sheet={"hp": 4}))
    f.close()
    lines = [x for x in records(path) if x and not x.startswith(b'{"checkpoint"')]
    path.write_bytes(b"\n".join(lines[:3]) + b"\n")  # header, the note, the first goblin of three: whole lines
    loaded = saves.load(path)
    assert [type(e.event).__name__ for e in loaded.entries] == ["NoteAdded"]
    assert any("action 2 was cut short (1 of its 3 events)" in w for w in loaded.warnings)
    again = saves.open_fight(path)
    assert again.path == path  # repaired in place: the goblin's line set aside, the fight goes on in the file
    assert [type(e.event).__name__ for e in again.entries] == ["NoteAdded"]
    (aside,) = tmp_path.glob("f.jsonl.torn-*")
    assert aside.read_bytes() == lines[2] + b"\n"
    again.close()
    assert saves.load(path).warnings == ()


# -- 4: checksums and strict decoding; older files keep loading ----------------------------------------


def facts(s: Any) -> dict[str, Any]:
    return {
        "round": s.round,
        "turn": s.turn,
        "current": s.current,
        "order": list(s.order),
        "started": s.started,
        "ended": s.ended,
        "prompts": [[p.kind, p.combatant] for p in s.prompts],
        "combatants": [
            [c.id, c.name, c.kind, c.group, c.removed, c.initiative, [x.name for x in c.conditions]]
            for c in s.combatants
        ],
    }


@pytest.mark.parametrize("system_id", ["bnb", "blackjack", "zludge", "twod6", "toy"])
def test_files_of_the_previous_format_load_to_the_same_state(system_id: str, tmp_path: Path) -> None:
    """Files written by the previous tracker (format 1) load, check good and continue.

    ``facts.json`` holds what the previous tracker's own code folded from these files (order, round, turn,
    prompts, every combatant's core record): the new code folds the same.  The plug-ins' records have grown
    fields since, so a whole-state digest could not stay the same.
    """
    expected = json.loads((FIXTURES / "facts.json").read_text())[system_id]
    src = FIXTURES / f"{system_id}.jsonl"
    state = saves.load(src).fight().state
    assert facts(state) == expected
    assert check(src).good
    copy = tmp_path / src.name  # continuing one appends checked lines and no checkpoint
    copy.write_bytes(src.read_bytes())
    f = saves.open_fight(copy)
    f.do(Note(text="written by the new tracker"))
    f.close()
    assert saves.load(copy).fight().state == f.state
    assert not any(x.startswith(b'{"checkpoint"') for x in records(copy))


def test_a_changed_value_is_caught_by_the_checksum(tmp_path: Path) -> None:
    path = a_fight(tmp_path, "toy", 60)
    lines = records(path)
    lines[5] = lines[5].replace(b'"seq":5', b'"seq":"5"')
    path.write_bytes(b"\n".join(lines))
    with pytest.raises(saves.LoadError, match=r"^line 6: its checksum does not match"):
        saves.load(path)


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (lambda r: r.update(seq=str(r["seq"])), "whole numbers"),
        (lambda r: r.update(of="3"), "whole numbers"),
        (lambda r: r.update(type=[]), "must be a text"),
        (lambda r: r.update(extra=1), "unknown field 'extra'"),
        (lambda r: r["event"].update(id=7), "expected a text"),
        # sealed whole, a field its event lacks: a newer version's line, not damage (test_recovery.py)
        (lambda r: r["event"].update(surplus=True), "with a field this version does not know, 'surplus'"),
    ],
)
def test_strict_decoding_names_the_line(edit, words: str, tmp_path: Path) -> None:
    path = a_fight(tmp_path, "toy", 60)
    lines = records(path)
    record = json.loads(lines[1])
    edit(record)
    lines[1] = reseal(record)
    path.write_bytes(b"\n".join(lines))
    with pytest.raises(saves.LoadError, match=r"^line 2: ") as e:
        saves.load(path)
    assert words in str(e.value)


# -- 5: no traceback, hang or runaway memory from any file ---------------------------------------------------


def crafted(tmp_path: Path) -> dict[str, Path]:
    good = a_fight(tmp_path, "blackjack", 120, "good.jsonl")
    lines = records(good)
    header = json.loads(lines[0])
    out: dict[str, Path] = {}

    def put(name: str, data: bytes) -> None:
        out[name] = tmp_path / f"{name}.jsonl"
        out[name].write_bytes(data)

    def with_line(k: int, record: dict) -> bytes:
        copy = list(lines)
        copy[k] = reseal(record)
        return b"\n".join(copy)

    put("nested", b"[" * 100_000 + b"\n")
    put("nested_event", b"\n".join([lines[0], seal_raw(b'{"seq":' + b"[" * 100_000 + b"}"), *lines[1:]]))
    deep = b"[" * 300_000 + b"]" * 300_000  # a valid JSON value, sealed: orjson 3.8 crashed the process on it
    put("deep_event", b"\n".join([lines[0], seal_raw(b'{"seq":' + deep + b"}"), *lines[1:]]))
    put("bignum", b"\n".join([lines[0], seal_raw(b'{"seq":' + b"9" * 5000 + b"}"), *lines[2:]]))
    rec = json.loads(lines[1])
    put("of_text", with_line(1, {**rec, "of": "3"}))
    put("type_list", with_line(1, {**rec, "type": []}))
    put("system_list", with_line(0, {**header, "system": ["bnb"]}))
    put("seed_text", with_line(0, {**header, "seed": "abc"}))
    head = {k: v for k, v in header.items() if k != "crc"}
    long_seed = json.dumps({**head, "seed": 0}, separators=(",", ":")).replace('"seed":0', '"seed":' + "7" * 5000)
    put("seed_long", b"\n".join([seal_raw(long_seed.encode()), *lines[1:]]))
    body = lines[1][: lines[1].rindex(b',"crc"')] + b"}"
    put("infinity", b"\n".join([lines[0], seal_raw(body[:-1] + b',"x":Infinity}'), *lines[2:]]))
    put("nan", b"\n".join([lines[0], seal_raw(body.replace(b'"seq":1', b'"seq":NaN')), *lines[2:]]))
    weapon = next(i for i, x in enumerate(lines) if b'"weapons":[{' in x)
    wrec = json.loads(lines[weapon])
    wrec["event"]["sheet"]["weapons"][0] = {"kind": 5}
    put("weapon", with_line(weapon, wrec))
    fifo = tmp_path / "fifo.jsonl"
    os.mkfifo(fifo)
    out["fifo"] = fifo
    zero = tmp_path / "zero.jsonl"
    zero.symlink_to("/dev/zero")
    out["zero"] = zero
    put("empty_lines", b"\n\n\n")
    put("binary", os.urandom(5000))
    return out


def test_crafted_files_give_one_line_errors_in_bounded_time_and_memory(tmp_path: Path) -> None:
    files = crafted(tmp_path)
    for name, path in files.items():
        t0 = time.monotonic()
        with pytest.raises(saves.LoadError):
            saves.load(path)
        assert time.monotonic() - t0 < 5, name
    for name in (
        "nested",
        "nested_event",
        "deep_event",
        "fifo",
        "zero",
        "seed_long",
        "bignum",
        "system_list",
        "weapon",
    ):  # and the CLI, in a fresh process
        for args in (["check"], ["replay", "--text"], ["export"]):
            r = run_cli(*args, str(files[name]), timeout=30, memory=1 << 30)
            assert r.returncode == 1, (name, args, r.stdout, r.stderr)
            assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1, (name, r.stderr)


def test_a_last_line_nested_too_deep_is_dropped_as_damaged_not_a_crash(tmp_path: Path) -> None:
    """The last line is read too (a torn last write is dropped with a warning): nested 300,000 deep, sealed,
    it crashed orjson 3.8 and the whole process with it.  In a fresh process, so a crash cannot hide."""
    path = a_fight(tmp_path, "bnb", 60)
    good = saves.load(path).fight().state
    with path.open("ab") as f:
        f.write(seal_raw(b'{"x":' + b"[" * 300_000 + b"]" * 300_000 + b"}") + b"\n")
    probe = (
        "import sys, saves; f = saves.load(sys.argv[1]); print(f.warnings); "
        "print(f.fight().state == saves.load(sys.argv[2]).fight().state)"
    )
    same = tmp_path / "same.jsonl"
    same.write_bytes(b"".join(path.read_bytes().splitlines(keepends=True)[:-1]))
    r = subprocess.run([sys.executable, "-c", probe, str(path), str(same)], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr[-500:]
    assert "the last, is damaged" in r.stdout and r.stdout.strip().endswith("True"), r.stdout
    assert "did not finish" not in r.stdout, "a whole line with a bad content is damage, not a torn write"
    assert saves.load(same).fight().state == good


def test_infinity_in_a_sheet_is_refused_at_the_command(tmp_path: Path) -> None:
    from tracker import AddCombatant
    from tracker.errors import Refused

    f = saves.new_fight("toy", tmp_path / "f.jsonl")
    with pytest.raises(Refused):
        f.do(AddCombatant(name="X", sheet={"hp": 3, "luck": float("inf")}))
    f.close()


# -- 6: check is good only when replay, export and continue all work -------------------------------------------


def edited(tmp_path: Path, system_id: str, kind: str, change) -> Path:
    path = a_fight(tmp_path, system_id, 400, f"{system_id}-{kind}.jsonl")
    lines = records(path)
    k = next((i for i, x in enumerate(lines) if f'"type":"{kind}"'.encode() in x), None)
    assert k is not None, f"the seeded {system_id} fight has no {kind} line: did its commands change? try another seed"
    record = json.loads(lines[k])
    change(record["event"])
    lines[k] = reseal(record)
    path.write_bytes(b"\n".join(lines))
    return path


def _negative_face(ev: dict) -> None:
    ev["attack"].update(expr="4dF", faces=[-7, 0, 0, 0], kept=[-7, 0, 0, 0])


@pytest.mark.parametrize(
    ("system_id", "kind", "change"),
    [
        ("bnb", "bnb.attack_rolled", lambda ev: ev.update(hit=True, damage=None)),
        ("bnb", "bnb.attack_rolled", _negative_face),
        ("zludge", "zludge.wound_marked", lambda ev: ev.update(box=10**9)),
    ],
)
def test_check_fails_a_file_that_replay_or_export_cannot_show(
    system_id: str, kind: str, change, tmp_path: Path
) -> None:
    path = edited(tmp_path, system_id, kind, change)
    r = run_cli("check", str(path))
    assert r.returncode == 1 and "Traceback" not in r.stderr, (r.stdout, r.stderr)
    for args in (["replay", "--text"], ["export"]):  # and these never crash on it either
        r = run_cli(*args, str(path))
        assert "Traceback" not in r.stderr, r.stderr


# -- 7: the start screen's list never raises or hangs --------------------------------------------------------


def test_recent_lists_bad_files_as_damaged_and_reads_the_rest_cheaply(tmp_path: Path) -> None:
    folder = tmp_path / "fights"
    folder.mkdir()
    good = a_fight(folder, "bnb", 3000, "good.jsonl")
    f = saves.open_fight(good)
    from tracker import NameFight

    f.do(NameFight(name="Showdown at the mill"))
    f.close()
    (folder / "nested.jsonl").write_bytes(b"[" * 100_000 + b"\n")
    (folder / "huge.jsonl").write_bytes(b"x" * (3 << 20))
    os.mkfifo(folder / "fifo.jsonl")
    (folder / "zero.jsonl").symlink_to("/dev/zero")
    t0 = time.monotonic()
    infos = {i.path.name: i for i in saves.recent(folder)}
    assert time.monotonic() - t0 < 5
    assert set(infos) == {"good.jsonl", "nested.jsonl", "huge.jsonl", "fifo.jsonl", "zero.jsonl"}
    for name in ("nested.jsonl", "huge.jsonl", "fifo.jsonl", "zero.jsonl"):
        assert infos[name].damaged and infos[name].problem
    g = infos["good.jsonl"]
    state = saves.load(good).fight().state
    assert (g.title, g.system, g.round, g.combatants) == (
        "Showdown at the mill",
        "bnb",
        state.round,
        len(state.present),
    )
    assert g.phase == f"round {state.round}" and g.created


# -- 11: export never harms a file --------------------------------------------------------------------------


def test_export_never_writes_onto_the_fight_through_a_link_or_over_a_file(tmp_path: Path) -> None:
    path = a_fight(tmp_path, "bnb", 60)
    before = path.read_bytes()
    r = run_cli("export", str(path), "-o", str(path))
    assert r.returncode == 1 and path.read_bytes() == before
    r = run_cli("export", str(path), "-o", str(path), "--force")
    assert r.returncode == 1 and path.read_bytes() == before
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    link = tmp_path / "f-recap.md"
    link.symlink_to(victim)
    r = run_cli("export", str(path), "-o", str(link))
    assert r.returncode == 1 and victim.read_text() == "precious"
    out = tmp_path / "recap.md"
    assert run_cli("export", str(path), "-o", str(out)).returncode == 0
    assert run_cli("export", str(path), "-o", str(out)).returncode == 1  # exists: not without --force
    assert run_cli("export", str(path), "-o", str(out), "--force").returncode == 0
    assert fresh_recap_path(path) == tmp_path / "f-recap-2.md"  # the replay key: the planted link is left alone


# -- 13: private files; listing systems imports none --------------------------------------------------------


def test_new_fight_files_and_folders_are_private(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        path = tmp_path / "deep" / "er" / "f.jsonl"
        saves.new_fight("toy", path).close()
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE((tmp_path / "deep").stat().st_mode) == 0o700


def test_listing_systems_imports_no_plugin() -> None:
    code = "import sys; from screens.cli import main; main(['systems']); print(sorted(m for m in sys.modules if m.startswith('systems.')))"
    r = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert r.returncode == 0 and r.stdout.strip().endswith("[]"), r.stdout + r.stderr
    assert "bnb" in r.stdout and "twod6" in r.stdout


def test_a_link_or_a_fifo_in_the_fights_folder_is_listed_as_no_fight_file_not_as_damaged(tmp_path: Path) -> None:
    """A link to a good fight was listed "damaged: unreadable: not a regular file": the fight is fine."""
    from screens.start import save_label

    folder = tmp_path / "fights"
    folder.mkdir()
    good = a_fight(folder, "bnb", 60, "good.jsonl")
    (folder / "link.jsonl").symlink_to(good)
    os.mkfifo(folder / "fifo.jsonl")
    labels = {i.path.name: save_label(i).plain for i in saves.recent(folder)}
    assert (
        labels["link.jsonl"] == "link.jsonl · not a fight file: a link (the app opens a fight file, not a link to one)"
    )
    assert labels["fifo.jsonl"] == "fifo.jsonl · not a fight file: a FIFO (a named pipe)"
    assert "damaged" not in labels["link.jsonl"] + labels["fifo.jsonl"]
