"""saves.follow: the players' view follows the fight file as it is written, read-only."""

from __future__ import annotations

import json
import os
from pathlib import Path

import saves
from saves.follow import BAD, WAITING, Follower
from tracker import commands as C


def toy(path: Path) -> saves.SavedFight:
    fight = saves.new_fight("toy", path, seed=5)
    fight.do(C.AddCombatant(name="Dusty", kind="pc", sheet={"hp": 12}))
    fight.do(C.AddCombatant(name="", preset="goblin", count=2))
    return fight


def state_of(follower: Follower):
    follower.poll()
    snap = follower.snapshot
    assert snap.fight is not None, snap.problem
    return snap.fight.state


def test_follows_actions_and_undo(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    fight = toy(path)
    follower = Follower(path)
    assert state_of(follower) == fight.state
    assert follower.poll() is None  # nothing new
    fight.do(C.RollInitiative())
    fight.do(C.StartFight())
    assert state_of(follower) == fight.state
    fight.do(C.Damage(targets=("c2",), amount="3"))
    assert state_of(follower) == fight.state
    fight.undo()
    assert state_of(follower) == fight.state
    fight.redo()
    fight.do(C.NextTurn())
    assert state_of(follower) == fight.state
    assert [s.action for s in follower.snapshot.fight.steps] == [s.action for s in fight.steps]
    fight.close()


def test_torn_line_and_half_action_are_waited_for(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    fight = toy(path)
    fight.close()
    data = path.read_bytes()
    lines = data.splitlines(keepends=True)
    # the last action (two goblins) has two lines: cut inside the second, then after the first
    head = b"".join(lines[:-1])
    follower = Follower(path)
    path.write_bytes(head + lines[-1][:10])
    before = state_of(follower)
    assert [c.name for c in before.combatants] == ["Dusty"]  # the goblins' action is not complete
    assert follower.snapshot.status == ""
    with open(path, "ab") as f:
        f.write(lines[-1][10:])
    after = state_of(follower)
    assert [c.name for c in after.combatants] == ["Dusty", "Goblin 1", "Goblin 2"]


def test_waits_for_a_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "later.jsonl"
    follower = Follower(path)
    assert follower.poll() is None
    assert follower.snapshot.status == WAITING and "later.jsonl" in follower.snapshot.problem
    assert str(tmp_path) not in follower.snapshot.problem  # no local path for the viewers
    fight = toy(path)
    assert state_of(follower) == fight.state
    fight.close()
    path.unlink()
    follower.poll()
    assert follower.snapshot.status == WAITING and follower.snapshot.fight is None


def test_replaced_or_shrunk_file_is_read_again(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    fight = toy(path)
    follower = Follower(path)
    state_of(follower)
    fight.close()
    other = tmp_path / "g.jsonl"
    g = saves.new_fight("toy", other, seed=1)
    g.do(C.AddCombatant(name="Zed", kind="pc", sheet={"hp": 3}))
    g.close()
    os.replace(other, path)
    assert [c.name for c in state_of(follower).combatants] == ["Zed"]
    # shrink: the file is cut back to its header
    path.write_bytes(path.read_bytes().splitlines(keepends=True)[0])
    assert state_of(follower).combatants == ()


def test_bad_files_say_why(tmp_path: Path) -> None:
    foreign = tmp_path / "notes.jsonl"
    foreign.write_text("shopping list\nmilk\n")
    f = Follower(foreign)
    f.poll()
    assert f.snapshot.status == BAD and "not a fight file" in f.snapshot.problem

    unknown = tmp_path / "u.jsonl"
    unknown.write_text(json.dumps({"format": 1, "system": "nosuch"}) + "\n")
    f = Follower(unknown)
    f.poll()
    assert f.snapshot.status == BAD and "nosuch" in f.snapshot.problem

    damaged = tmp_path / "d.jsonl"
    fight = toy(damaged)
    fight.close()
    lines = damaged.read_text().splitlines(keepends=True)
    lines.insert(2, "{oops\n")
    damaged.write_text("".join(lines))
    f = Follower(damaged)
    f.poll()
    assert f.snapshot.status == BAD and "line 3" in f.snapshot.problem and f.snapshot.fight is None
    # fixed: followed again
    del lines[2]
    damaged.write_text("".join(lines))
    assert [c.name for c in state_of(f).combatants] == ["Dusty", "Goblin 1", "Goblin 2"]


def test_never_writes(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    fight = toy(path)
    fight.close()
    before = (path.read_bytes(), os.stat(path).st_mtime_ns)
    follower = Follower(path)
    for _ in range(3):
        follower.poll()
    assert (path.read_bytes(), os.stat(path).st_mtime_ns) == before


def test_a_repeated_tail_is_named_at_its_line(tmp_path: Path) -> None:
    """The players' view of a file whose last lines were written a second time (a sync tool, a merge): damaged at
    the first repeated line, as the loader says (audit t3 F1: it named the good original before it)."""
    path = tmp_path / "f.jsonl"
    fight = toy(path)
    fight.do(C.RollInitiative())
    fight.do(C.StartFight())
    fight.close()
    lines = path.read_bytes().split(b"\n")[:-1]
    last = json.loads(lines[-1])["action"]
    tail = [line for line in lines[1:] if json.loads(line).get("action") == last]  # the last action, whole
    path.write_bytes(b"\n".join([*lines, *tail]) + b"\n")
    first_repeated = len(lines) + 1
    try:
        saves.load(path)
    except saves.LoadError as e:
        assert e.line == first_repeated, e
    else:
        raise AssertionError("a repeated tail loaded")
    follower = Follower(path)
    follower.poll()
    snap = follower.snapshot
    assert snap.status == BAD and f"line {first_repeated}" in snap.problem, snap.problem
