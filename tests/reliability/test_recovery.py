"""Issue #42, recovery: a torn fight is repaired once, in place; a checkpoint is trusted only once checked; a
damaged line is said on opening; readers refuse what is not a fight file at once; memory stays bounded."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest

import saves
from bench.fights import make_fight
from saves.checker import check
from saves.format import MAX_LINE, header_line, seal
from tests.reliability.support import ROOT, figure, run_cli
from tracker import NextTurn, Note
from tracker.errors import Refused

pytestmark = pytest.mark.reliability
SYSTEMS = ["bnb", "blackjack", "zludge", "twod6"]


def a_fight(tmp_path: Path, system_id: str, events: int = 60, name: str = "f.jsonl") -> Path:
    path = tmp_path / name
    make_fight(system_id, events, path, seed=4)
    return path


def act(fight: saves.SavedFight, i: int) -> None:
    """The GM's ``n`` (next turn), or a note once the fight is over."""
    try:
        fight.do(NextTurn())
    except Refused:
        fight.do(Note(text=f"note {i}"))


def reseal_checkpoint(path: Path, change: Callable[[dict[str, Any]], None]) -> int:
    """Rewrite the state of the file's last checkpoint with ``change`` and seal the line anew (a good checksum, as
    ``saves.format.seal`` makes it): only checking it against the events can catch it.  Its line index."""
    lines = path.read_bytes().split(b"\n")
    k = max(i for i, x in enumerate(lines) if x.startswith(b'{"checkpoint"'))
    record = json.loads(lines[k])
    record.pop("crc")
    change(record["checkpoint"]["state"])
    lines[k] = seal(json.dumps(record, separators=(",", ":"), ensure_ascii=False)).encode()
    path.write_bytes(b"\n".join(lines))
    return k


def rename_first(name: str) -> Callable[[dict[str, Any]], None]:
    def change(state: dict[str, Any]) -> None:
        state["combatants"][0]["name"] = name

    return change


# -- 1: a last line that lost only its line end ---------------------------------------------------------------


@pytest.mark.parametrize("actions", [1, 2])
@pytest.mark.parametrize("system_id", SYSTEMS)
def test_a_lost_line_end_is_added_before_anything_is_appended(system_id: str, actions: int, tmp_path: Path) -> None:
    """``truncate -s -1 F``, ``tracker --save F``, ``n n q`` (or one ``n``), twice: every acknowledged action is
    there, ``check`` calls it good, and what ``check`` said beforehand is what continuing did."""
    path = a_fight(tmp_path, system_id)
    size = path.stat().st_size
    os.truncate(path, size - 1)
    before = saves.load(path)
    r = run_cli("check", str(path))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "has no line end" in r.stdout and "adds the missing line end; nothing is lost" in r.stdout, r.stdout
    done = len(before.entries)
    for _round in range(2):
        fight = saves.open_fight(path)
        assert fight.path == path
        for i in range(actions):
            act(fight, i)
        done = len(fight.entries)
        fight.close()
    again = saves.load(path)
    assert len(again.entries) == done and again.warnings == ()
    assert again.entries[: len(before.entries)] == before.entries, "the line that lost its end is kept"
    r = run_cli("check", str(path))
    assert r.returncode == 0 and ": good —" in r.stdout and "warning" not in r.stdout, r.stdout + r.stderr
    assert not list(tmp_path.glob("*.torn-*")) and not list(tmp_path.glob("*-recovered*"))


# -- 2: recovery happens once, in place ----------------------------------------------------------------------


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_a_torn_fight_opened_played_closed_and_opened_again_is_the_same_fight(system_id: str, tmp_path: Path) -> None:
    path = a_fight(tmp_path, system_id)
    whole = path.read_bytes()
    last = whole.rstrip(b"\n").rsplit(b"\n", 1)[1]
    torn = last[: len(last) // 2]
    path.write_bytes(whole + torn)  # a write cut off by a crash
    r = run_cli("check", str(path))
    assert r.returncode == 0 and "sets the unfinished end aside" in r.stdout, r.stdout + r.stderr
    first = saves.open_fight(path)
    assert first.path == path and "kept in f.jsonl.torn-" in first.warnings[0]
    assert path.read_bytes() == whole, "cut back to the last whole action"
    (aside,) = tmp_path.glob("f.jsonl.torn-*")
    assert aside.read_bytes() == torn, "the torn bytes are kept, next to the fight"
    for i in range(3):
        act(first, i)
    shown, count = first.state, len(first.entries)
    first.close()
    second = saves.open_fight(path)
    assert second.path == path and second.warnings == ()
    assert second.state == shown and len(second.entries) == count, "nothing done after the first opening is lost"
    act(second, 9)
    second.close()
    assert list(tmp_path.glob("f.jsonl.torn-*")) == [aside] and aside.read_bytes() == torn
    assert not list(tmp_path.glob("*-recovered*"))
    assert check(path).good


def test_a_fight_left_as_a_recovered_copy_keeps_loading(tmp_path: Path) -> None:
    """Older trackers continued a torn fight in ``F-recovered.jsonl`` (its header names the original): it is an
    ordinary fight file and opens as one."""
    original = a_fight(tmp_path, "bnb")
    loaded = saves.load(original)
    copy = tmp_path / "f-recovered.jsonl"
    header = header_line(__import__("attrs").evolve(loaded.header, parent=str(original)))
    body = original.read_bytes().split(b"\n", 1)[1]
    copy.write_bytes(header.encode() + b"\n" + body)
    fight = saves.open_fight(copy)
    assert fight.path == copy and fight.state == loaded.fight().state and fight.warnings == ()
    act(fight, 0)
    fight.close()
    assert saves.load(copy).fight().state == fight.state


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_a_flipped_byte_in_the_last_complete_line_is_damage_not_a_torn_write(system_id: str, tmp_path: Path) -> None:
    path = a_fight(tmp_path, system_id)
    lines = path.read_bytes().split(b"\n")
    k = len(lines) - 2  # the last line (whole, ended)
    i = lines[k].index(b'"event":') + 3
    lines[k] = lines[k][:i] + bytes([lines[k][i] ^ 0x01]) + lines[k][i + 1 :]
    path.write_bytes(b"\n".join(lines))
    loaded = saves.load(path)
    said = " ".join(loaded.warnings)
    assert "is damaged" in said and "checksum" in said and "did not finish" not in said, said
    r = run_cli("check", str(path))
    assert r.returncode == 1 and "damaged" in r.stdout and "did not finish" not in r.stdout, r.stdout
    assert "sets the damaged last line aside" in r.stdout, r.stdout
    fight = saves.open_fight(path)
    assert "f.jsonl was repaired" in fight.warnings[0] and "is damaged" in fight.warnings[0]
    assert "did not finish" not in fight.warnings[0]
    (aside,) = tmp_path.glob("f.jsonl.torn-*")
    assert aside.read_bytes().endswith(lines[k] + b"\n")  # (with the other lines of its action, if it had any)
    fight.close()
    assert check(path).good


# -- 3: a checkpoint is trusted only once checked ----------------------------------------------------------


def _lying_fight(tmp_path: Path, system_id: str = "bnb") -> tuple[Path, Any, int]:
    path = a_fight(tmp_path, system_id, events=400)
    truth = saves.load(path).fight().state
    k = reseal_checkpoint(path, rename_first("Liar McLie"))
    return path, truth, k


def _checkpoints_after(path: Path, line_index: int) -> list[bytes]:
    return [x for x in path.read_bytes().split(b"\n")[line_index + 1 :] if x.startswith(b'{"checkpoint"')]


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_a_resealed_checkpoint_that_disagrees_is_caught_and_never_carried_forward(
    system_id: str, tmp_path: Path
) -> None:
    path, truth, k = _lying_fight(tmp_path, system_id)
    assert any(c.name == "Liar McLie" for c in saves.open_fight(path).state.combatants), "opened from it at once"
    fight = saves.open_fight(path)  # (the first let go of the lock when it was dropped)
    assert fight.needs_check
    fight.start_check()
    result = fight.wait_checked(timeout=60)
    assert result is not None and not result.good and not result.damaged
    assert "f.jsonl" in result.message and "disagrees with its events" in result.message
    fight.settle_check()
    assert fight.state == truth and not any(c.name == "Liar McLie" for c in fight.state.combatants)
    act(fight, 0)
    fight.close()
    report = check(path)
    # the bad one is replaced by a checkpoint from the events, and no longer reported (a file once corrected
    # failed `tracker check` for ever)
    assert not report.problems and report.checkpoints == ()
    assert _checkpoints_after(path, k), "a checkpoint from the events replaces the bad one"
    assert not any(b"Liar McLie" in x for x in _checkpoints_after(path, k)), "no checkpoint written from the lie"
    again = saves.open_fight(path)
    assert again.state == saves.load(path).fight().state
    again.start_check()
    assert again.wait_checked(timeout=60) == saves.loading.CheckResult(True)
    again.close()


def test_ruling_an_action_taken_during_the_check_waits_for_it_and_is_not_taken_on_a_lie(tmp_path: Path) -> None:
    """The ruling (saves.SavedFight): the first write waits for the check; if the checkpoint lied, the fight
    becomes the fold of the events and that action is not taken (it was decided on the lie); the next one is."""
    path, truth, k = _lying_fight(tmp_path)
    fight = saves.open_fight(path)
    size = path.stat().st_size
    with pytest.raises(saves.SaveError, match=r"disagrees with its events.*This action was not taken"):
        fight.do(Note(text="decided on the lie"))
    assert fight.state == truth
    assert not any(b"decided on the lie" in x for x in path.read_bytes().split(b"\n")[k:])
    assert path.stat().st_size >= size  # (only a checkpoint from the events may have been written)
    fight.do(Note(text="decided on the truth"))
    fight.close()
    assert saves.load(path).fight().state == fight.state


def test_check_says_the_truth_when_only_a_checkpoint_disagrees(tmp_path: Path) -> None:
    path, _truth, _k = _lying_fight(tmp_path)
    r = run_cli("check", str(path))
    assert r.returncode == 1
    assert "a checkpoint disagrees with the events; the events win; replay, export and continuing use the events" in (
        r.stdout
    ), r.stdout
    assert "would fail" not in r.stdout
    for args in (["replay", "--text"], ["export"]):
        out = run_cli(*args, str(path))
        assert out.returncode == 0 and "Liar McLie" not in out.stdout, (args, out.stderr)


# -- the app: the check's result and a damaged line are said on opening ------------------------------------


def _toasts(app: Any) -> str:
    from tests.ui.test_start import drawn_text

    drawn = " ".join(drawn_text(t) for t in app.screen.query("Toast")).replace("▌", " ")
    return " ".join(drawn.split())  # as the GM reads it, whatever the wrapping


async def _settled(pilot: Any, app: Any, want: str, rounds: int = 200) -> str:
    toasts = ""
    for _ in range(rounds):
        await pilot.pause(0.05)
        toasts = _toasts(app)
        if want in toasts:
            for _ in range(12):  # (a toast grows to its size over a few frames)
                await pilot.pause()
            return _toasts(app)
    return toasts


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
@pytest.mark.parametrize("system_id", SYSTEMS)
def test_the_app_checks_the_checkpoint_and_shows_the_events_fight(
    system_id: str, size: tuple[int, int], tmp_path: Path
) -> None:
    from screens.app import TrackerApp
    from screens.fight import FightScreen
    from screens.widgets.initiative import InitiativeList
    from tests.ui.test_start import drawn_text

    path, truth, k = _lying_fight(tmp_path, system_id)

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=size, notifications=True) as pilot:
            toasts = await _settled(pilot, app, "disagrees")
            assert "f.jsonl" in toasts and "disagrees" in toasts and "events win" in toasts, toasts
            assert isinstance(app.screen, FightScreen)
            assert app.fight is not None and app.fight.state == truth
            shown = drawn_text(app.screen.query_one(InitiativeList))
            assert "Liar McLie" not in shown and truth.combatants[0].name[:8] in shown, shown
            await pilot.press("q")

    asyncio.run(run())
    assert not any(b"Liar McLie" in x for x in _checkpoints_after(path, k))


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
@pytest.mark.parametrize("with_checkpoint", [True, False], ids=["from-checkpoint", "folded"])
def test_a_damaged_middle_line_is_said_on_opening_with_what_to_do(
    with_checkpoint: bool, size: tuple[int, int], tmp_path: Path
) -> None:
    from screens.app import TrackerApp
    from screens.fight import FightScreen

    path = a_fight(tmp_path, "bnb", events=400 if with_checkpoint else 60)
    lines = path.read_bytes().split(b"\n")
    n = 30
    lines[n - 1] = lines[n - 1].replace(b'"seq":', b'"seX":', 1)  # line 30: its checksum no longer holds
    path.write_bytes(b"\n".join(lines))
    before = path.read_bytes()
    if with_checkpoint:  # the tail after the checkpoint reads: the fight opens from it at once
        assert saves.loading.from_checkpoint(path) is not None

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=size, notifications=True) as pilot:
            toasts = await _settled(pilot, app, "damaged at line 30")
            assert "f.jsonl is damaged at line 30" in toasts and "new file" in toasts, toasts
            from screens.dialogs.pick import PickDialog

            for _ in range(40):
                await pilot.pause(0.05)
                if isinstance(app.screen, PickDialog):
                    break
            assert isinstance(app.screen, PickDialog), app.screen_stack
            await pilot.press("enter")  # "Continue from the last good action, in a new file"
            for _ in range(40):
                await pilot.pause(0.05)
                if app.fight is not None and app.fight.path.name == "f-continued.jsonl":
                    break
            assert app.fight is not None and app.fight.path.name == "f-continued.jsonl"
            assert isinstance(app.screen, FightScreen)
            await pilot.pause()
            assert "cannot go on in this file" not in _toasts(app), _toasts(app)  # (the damaged file's notice stayed)
            await pilot.press("q")

    asyncio.run(run())
    assert path.read_bytes() == before, "the damaged file is left as it is"
    continued = saves.load(tmp_path / "f-continued.jsonl")
    assert continued.header.parent == str(path) and len(continued.entries) < n - 1 and continued.warnings == ()

    async def again() -> None:
        """Recovery happens once: opened again, the damaged fight offers the file it goes on in (each opening
        made one more continuation from the same action: f-continued2, f-continued3…, a forked record)."""
        app = TrackerApp(open_path=path)
        async with app.run_test(size=size, notifications=True) as pilot:
            from screens.dialogs.pick import PickDialog

            for _ in range(80):
                await pilot.pause(0.05)
                if isinstance(app.screen, PickDialog):
                    break
            assert isinstance(app.screen, PickDialog), app.screen_stack
            offered = [label for label, _ in app.screen.options]
            assert offered[0] == "Open f-continued.jsonl, where this fight goes on", offered
            await pilot.press("enter")
            for _ in range(40):
                await pilot.pause(0.05)
                if app.fight is not None and app.fight.path.name == "f-continued.jsonl":
                    break
            assert app.fight is not None and app.fight.path.name == "f-continued.jsonl"
            await pilot.press("q")

    asyncio.run(again())
    assert not (tmp_path / "f-continued2.jsonl").exists()
    assert path.read_bytes() == before
    said = run_cli("check", str(path))
    assert said.returncode == 1 and "the fight goes on in" in said.stdout and "f-continued.jsonl" in said.stdout


def test_nothing_is_written_to_a_fight_whose_events_do_not_read(tmp_path: Path) -> None:
    path = a_fight(tmp_path, "bnb", events=400)
    lines = path.read_bytes().split(b"\n")
    lines[29] = lines[29].replace(b'"seq":', b'"seX":', 1)
    path.write_bytes(b"\n".join(lines))
    before = path.read_bytes()
    fight = saves.open_fight(path)
    assert fight.needs_check
    with pytest.raises(saves.SaveError, match=r"f\.jsonl is damaged at line 30"):
        fight.do(Note(text="lost"))
    with pytest.raises(saves.SaveError, match="Nothing more is written"):
        fight.do(Note(text="lost"))
    fight.close()
    assert path.read_bytes() == before


# -- 7 and 8: readers open only regular files; errors in the GM's words ------------------------------------


def _specials(tmp_path: Path) -> dict[str, Path]:
    fifo = tmp_path / "fifo.jsonl"
    os.mkfifo(fifo)
    loop = tmp_path / "loop.jsonl"
    loop.symlink_to(loop.name)
    return {"fifo": fifo, "zero": Path("/dev/zero"), "loop": loop}


WORDS = {"fifo": "is a FIFO", "zero": "is a device", "loop": "loops back on itself"}


@pytest.mark.parametrize("args", [["check"], ["replay", "--text"], ["replay"], ["--save"]])
def test_a_fifo_a_device_and_a_link_loop_are_refused_at_once_naming_the_file(args: list[str], tmp_path: Path) -> None:
    for kind, path in _specials(tmp_path).items():
        t0 = time.monotonic()
        r = run_cli(*args, str(path), timeout=20)
        took = time.monotonic() - t0
        assert r.returncode == 1, (kind, args, r.stdout, r.stderr)
        err = r.stderr.strip()
        assert len(err.splitlines()) == 1 and "Traceback" not in err, (kind, err)
        assert path.name in err and WORDS[kind] in err, (kind, args, err)
        figure(f"{' '.join(args)} {kind}", seconds=round(took, 2))
        assert took < 10, (kind, args, took)  # (a fresh interpreter on a busy machine: no wait, no hang)


def test_the_refusal_itself_takes_no_time(tmp_path: Path) -> None:
    """In process, what the CLI does on such a path: under a second, whatever the machine."""
    from screens.cli import main

    for kind, path in _specials(tmp_path).items():
        for args in (["check", str(path)], ["replay", "--text", str(path)]):
            t0 = time.monotonic()
            assert main(args) == 1
            assert time.monotonic() - t0 < 1, (kind, args)
        with pytest.raises(saves.LoadError, match=WORDS[kind]):
            saves.open_fight(path)
        with pytest.raises(saves.SaveError, match=WORDS[kind]):
            saves.files.check_save_path(path)


def test_a_fight_through_a_link_is_refused_with_its_real_path(tmp_path: Path) -> None:
    real = a_fight(tmp_path, "bnb")
    link = tmp_path / "link.jsonl"
    link.symlink_to(real.name)
    r = run_cli("--save", str(link))
    assert r.returncode == 1 and "symbolic link" in r.stderr and str(real) in r.stderr, r.stderr


# -- 7: memory while refusing a bad file -------------------------------------------------------------------

PROBE = """
import resource, sys, tracemalloc
import saves
from saves.format import LoadError
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
tracemalloc.start()
try:
    saves.load(sys.argv[1])
    print("loaded")
except LoadError as e:
    print("refused:", e)
peak = tracemalloc.get_traced_memory()[1]
print(peak, (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base) * 1024)
"""


def test_a_100_mb_file_of_short_lines_is_refused_within_bounded_memory(tmp_path: Path) -> None:
    path = a_fight(tmp_path, "bnb", events=10)
    header = path.read_bytes().split(b"\n", 1)[0] + b"\n"
    with path.open("wb") as f:
        f.write(header)
        block = b"ab\n" * (1 << 20)
        for _ in range(100 * (1 << 20) // len(block)):
            f.write(block)
    assert path.stat().st_size > 100 * 10**6
    t0 = time.monotonic()
    r = subprocess.run([sys.executable, "-c", PROBE, str(path)], capture_output=True, text=True, cwd=ROOT, timeout=120)
    took = time.monotonic() - t0
    assert r.returncode == 0, r.stderr[-500:]
    said, figures = r.stdout.splitlines()
    peak, rss = (int(x) for x in figures.split())
    figure("100 MB of 3-byte lines refused", seconds=round(took, 2), peak_mb=round(peak / 1e6, 1), rss_mb=rss / 1e6)
    assert said.startswith("refused: line 2:"), said
    assert peak < 8 * MAX_LINE, f"peak {peak:,} bytes (the line cap is {MAX_LINE:,})"
    assert rss < 32 * MAX_LINE, f"the process grew by {rss:,} bytes"


def test_a_line_longer_than_the_cap_is_refused_as_soon_as_it_is_seen(tmp_path: Path) -> None:
    path = a_fight(tmp_path, "bnb", events=10)
    header = path.read_bytes().split(b"\n", 1)[0] + b"\n"
    with path.open("wb") as f:
        f.write(header)
        f.write(b"x" * (50 * MAX_LINE))
    r = subprocess.run([sys.executable, "-c", PROBE, str(path)], capture_output=True, text=True, cwd=ROOT, timeout=60)
    said, figures = r.stdout.splitlines()
    assert said.startswith("refused: line 2: the line is too long"), said
    assert int(figures.split()[0]) < 8 * MAX_LINE


def _damaged(tmp_path: Path) -> tuple[Path, int]:
    path = a_fight(tmp_path, "bnb", events=400)
    lines = path.read_bytes().split(b"\n")
    bad = 200
    lines[bad - 1] = lines[bad - 1].replace(b'"seq"', b'"seQ"', 1)
    path.write_bytes(b"\n".join(lines))
    return path, bad


def test_a_fight_continued_by_a_relative_path_is_found_from_any_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The continuation named its parent as the GM typed it ("fork.jsonl"): opened later from another folder, the
    damaged fight was not known as continued, and a second continuation forked the record."""
    path, bad = _damaged(tmp_path)
    monkeypatch.chdir(tmp_path)
    saves.continue_before(Path(path.name), bad).close()
    continued = tmp_path / "f-continued.jsonl"
    assert saves.load(continued).header.parent == str(path)  # absolute now
    monkeypatch.chdir("/")
    assert saves.listing.continuation_of(path) == continued
    old = saves.load(continued)
    header = attrs.evolve(old.header, parent="f.jsonl")  # as files before it wrote it
    raw = continued.read_bytes().split(b"\n", 1)
    continued.write_bytes(header_line(header).encode() + b"\n" + raw[1])
    assert saves.listing.continuation_of(path) == continued


def test_two_windows_on_one_damaged_fight_make_one_continuation(tmp_path: Path) -> None:
    """Two trackers showed the same damaged fight's "Continue … in a new file" at once: each made its own
    continuation (f-continued.jsonl, f-continued2.jsonl), a fork. The second finds the first: open in the other
    window, it is refused as open elsewhere; closed, it is the one opened."""
    path, bad = _damaged(tmp_path)
    first = saves.continue_before(path, bad)
    with pytest.raises(saves.FightInUse):
        saves.continue_before(path, bad)
    first.close()
    again = saves.continue_before(path, bad)
    assert again.path == first.path == tmp_path / "f-continued.jsonl"
    again.close()
    assert sorted(p.name for p in tmp_path.glob("f-continued*")) == ["f-continued.jsonl"]


def test_a_scratch_file_a_kill_left_does_not_block_the_continuation(tmp_path: Path) -> None:
    """A kill while continuing left ".f-continued.jsonl.reading": every later try said it "already exists"."""
    path, bad = _damaged(tmp_path)
    (tmp_path / ".f-continued.jsonl.reading").write_bytes(b"half a fight")
    fight = saves.continue_before(path, bad)
    assert fight.path.name == "f-continued.jsonl" and not (tmp_path / ".f-continued.jsonl.reading").exists()
    fight.close()


CRASH_WHILE_WRITING = """
import os, sys
from pathlib import Path
import saves
from saves import files
real = os.write
def write(fd, data):  # the power goes after the first few hundred bytes of the new file
    real(fd, bytes(data[:300]))
    os._exit(9)
os.write = write
files._write = write
path, what, bad = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
if what == "continue":
    saves.continue_before(path, bad)
else:
    fight = saves.open_fight(path)
    path.write_bytes(path.read_bytes().rsplit(b"\\n", 3)[0] + b"\\n")  # a sync tool puts an older copy back
    fight.close()  # (the rescue)
"""


@pytest.mark.parametrize("what", ["continue", "rescue"])
def test_a_crash_while_a_continuation_or_rescue_is_written_leaves_no_half_fight(what: str, tmp_path: Path) -> None:
    """Written in place, a continuation (or a rescue) cut off after its header line was taken for the whole one:
    the damaged fight said "it was continued already" and pointed to it, and it opened empty (31 actions of the
    fight left out, 42 of a rescue).  Now the new file has its name only once whole: after the crash the damaged
    fight is continued again, in full; the replaced one is not said to be rescued, and is rescued next time."""
    path, bad = _damaged(tmp_path) if what == "continue" else (a_fight(tmp_path, "bnb", events=60), 0)
    twin = tmp_path / "twin" / path.name  # the same file, continued with no crash
    twin.parent.mkdir()
    twin.write_bytes(path.read_bytes())
    if what == "continue":
        made = saves.continue_before(twin, bad)
        want = len(made.entries)
        made.close()
    else:
        want = len(saves.load(path).entries)
    done = subprocess.run(
        [sys.executable, "-c", CRASH_WHILE_WRITING, str(path), what, str(bad)],
        cwd=ROOT,
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == 9, done.stderr.decode()[-2000:]
    word = "continued" if what == "continue" else "rescued"
    assert not list(tmp_path.glob(f"f-{word}*.jsonl")), "a half-written fight under the name of the whole one"
    if what == "continue":
        assert saves.listing.continuation_of(path) is None
        fight = saves.continue_before(path, bad)
        assert len(fight.entries) == want > 0
    else:  # (what the app held was lost with it: only the file's own actions are left, and no rescue)
        assert saves.listing.rescued_in(path) is None
        fight = saves.open_fight(path)
        assert len(fight.entries) == want - 3
        path.write_bytes(path.read_bytes().rsplit(b"\n", 2)[0] + b"\n")
        fight.close()
        assert fight.rescued_to is not None and len(saves.load(fight.rescued_to).entries) == want - 3
        fight = saves.open_fight(fight.rescued_to)
    assert not list(tmp_path.glob(".*.part")), "the part the crash left is removed by the next write"


@pytest.mark.parametrize(
    "edit", [(b'"v":1', b'"v":2'), (b'"type":"', b'"type":"bnb.new_'), (b'"event":{"', b'"event":{"aimed":true,"')]
)
def test_a_fight_a_newer_version_wrote_is_not_called_damaged(edit: tuple[bytes, bytes], tmp_path: Path) -> None:
    """An event of a later version (or of a type this one does not know, or with a field it does not have, added
    by a newer plug-in as docs/PLUGINS.md allows), written whole: it was "damaged", and the app offered to go on
    from before it in a new file, leaving out everything from there on."""
    from tests.reliability.support import seal_raw

    path = a_fight(tmp_path, "bnb", events=400)
    lines = path.read_bytes().split(b"\n")
    k = next(i for i in range(150, len(lines)) if lines[i].startswith(b'{"seq"') and edit[0] in lines[i])
    body = lines[k][: lines[k].rindex(b',"crc"')] + b"}"
    lines[k] = seal_raw(body.replace(*edit, 1))
    path.write_bytes(b"\n".join(lines))
    with pytest.raises(saves.NewerVersion):
        saves.load(path)
    said = run_cli("check", str(path))
    assert said.returncode == 1 and "saved by a newer version" in said.stdout, said.stdout
    assert "damaged" not in said.stdout and "new file" not in said.stdout
    result = saves.loading.check_against_events(path, saves.loading.FightState(system="bnb"))
    assert result.damaged and result.line is None and "newer version" in result.message

    async def opened() -> None:
        from screens.app import TrackerApp
        from screens.dialogs.pick import PickDialog

        app = TrackerApp(open_path=path)
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            for _ in range(20):
                await pilot.pause(0.05)
            assert not isinstance(app.screen, PickDialog)
            assert "Saved by a newer version" in _toasts(app), _toasts(app)

    asyncio.run(opened())


def test_an_older_formats_unknown_event_is_damage_not_a_newer_version(tmp_path: Path) -> None:
    """Its lines have no checksum: an event type garbled in one is damage (no newer version writes format 1)."""
    src = (ROOT / "tests" / "fixtures" / "format1" / "bnb.jsonl").read_text().splitlines()
    k = next(i for i in range(40, len(src)) if '"type":"' in src[i])
    tag = json.loads(src[k])["type"]
    src[k] = src[k].replace(f'"type":"{tag}"', f'"type":"{tag[:-1]}"', 1)
    path = tmp_path / "f1bad.jsonl"
    path.write_text("\n".join(src) + "\n")
    with pytest.raises(saves.LoadError) as e:
        saves.load(path)
    assert not isinstance(e.value, saves.NewerVersion) and e.value.line == k + 1


def test_a_damaged_fight_of_an_older_format_goes_on_in_a_new_file(tmp_path: Path) -> None:
    """A format 1 fight (no checksums) damaged in the middle: the app offered "Continue from the last good action,
    in a new file", then refused "older format: replay it to see what it holds", and replay refused it too: no way
    on. Its lines before the damage are read (and upgraded) as any file of that format, and go on in this one."""
    fixture = Path(__file__).parent.parent / "fixtures" / "format1" / "bnb.jsonl"
    path = tmp_path / "old.jsonl"
    lines = fixture.read_bytes().split(b"\n")
    bad = 8
    lines[bad - 1] = b"x" + lines[bad - 1][1:]
    path.write_bytes(b"\n".join(lines))
    with pytest.raises(saves.LoadError) as e:
        saves.load(path)
    assert e.value.line == bad
    fight = saves.continue_before(path, bad)
    kept = len(fight.entries)
    fight.close()
    again = saves.load(tmp_path / "old-continued.jsonl")
    assert again.header.format == saves.FORMAT_VERSION and len(again.entries) == kept > 0
    assert again.header.parent == str(path)
