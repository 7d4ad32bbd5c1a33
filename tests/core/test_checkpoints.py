"""Checkpoints are a cache: the state they hold is the fold's, in every system; opening from one is the same fight."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import saves
from bench.fights import GM, make_fight
from saves import checkpoint
from saves.checker import check
from saves.format import seal
from tests.support import examples
from tracker import NextTurn
from tracker.dice import SeededRoller

SYSTEMS = ["bnb", "blackjack", "zludge", "twod6", "toy"]
ROUND_TRIPS = {"bnb", "blackjack", "zludge", "twod6", "toy"}


def checkpoint_lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_bytes().split(b"\n") if x.startswith(b'{"checkpoint"')]


def tail_reaches_back(path: Path, last: dict[str, Any]) -> bool:
    """After the last checkpoint, an undo or redo of an action at or before the checkpoint's (a fight that
    stopped, without its closing checkpoint, just after undoing what the checkpoint had folded in)."""
    cut = last["checkpoint"]["seq"]
    for raw in path.read_bytes().split(b"\n"):
        if not raw.startswith(b'{"seq"'):
            continue
        line = json.loads(raw)
        undoes = line["seq"] > cut and line["type"] in ("undone", "redone")
        if undoes and line["event"]["action"] <= last["checkpoint"]["action"]:
            return True
    return False


@pytest.fixture
def often(monkeypatch: pytest.MonkeyPatch) -> None:
    """Checkpoints every few actions, a short tail: many cut points in a small fight."""
    monkeypatch.setattr(checkpoint, "EVERY", 7)
    monkeypatch.setattr(checkpoint, "TAIL", 5)


@pytest.mark.parametrize("system_id", SYSTEMS)
@settings(max_examples=examples(6), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**16), events=st.integers(40, 260), undos=st.integers(0, 40))
def test_checkpoint_state_is_the_fold_state(often: None, system_id: str, seed: int, events: int, undos: int) -> None:
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "f.jsonl"
        live = make_fight(system_id, events, path, seed=seed)
        cps = checkpoint_lines(path)
        if system_id in ROUND_TRIPS:
            assert cps, "a fight this long has checkpoints"
        report = check(path)
        assert report.good, report.problems  # every checkpoint agrees with the fold
        for cp in cps:  # and their states are exactly the fold's at their point
            timeline = saves.load(path).timeline()
            state = checkpoint.state_codec(live.system).decode(cp["checkpoint"]["state"])
            assert state == timeline.state_at(cp["checkpoint"]["seq"])
        # opening from the last checkpoint is the same fight, undo reaches back to the first action
        again = saves.open_fight(path)
        reference = saves.load(path).fight()
        if not cps or not tail_reaches_back(path, cps[-1]):
            assert again.log.partial == bool(cps)
        # else: the tail undoes (or redoes) an action the checkpoint folded in; opening may need the older
        # steps, and then it folds the whole file (same state, checked below)
        assert again.state == reference.state == live.state
        assert list(again.entries[-10:]) == list(reference.entries[-10:])
        for _ in range(undos):
            if not reference.can_undo:
                assert not again.can_undo
                break
            assert again.undo() == reference.undo()
            assert again.state == reference.state
        again.do(NextTurn()) if again.state.started and not again.state.ended and not again.state.prompts else None
        again.close()
        assert saves.load(path).fight().state == again.state
        assert check(path).good


def test_a_checkpoint_that_disagrees_is_reported_and_the_fold_wins(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    make_fight("toy", 400, path, seed=3)
    lines = path.read_bytes().split(b"\n")
    k = max(i for i, x in enumerate(lines) if x.startswith(b'{"checkpoint"'))
    record = json.loads(lines[k])
    record.pop("crc")
    record["checkpoint"]["state"]["round"] += 5  # a lie, sealed with a good checksum
    lines[k] = seal(json.dumps(record, separators=(",", ":"), ensure_ascii=False)).encode()
    path.write_bytes(b"\n".join(lines))
    report = check(path)
    assert not report.good and not report.problems  # replay, export and continuing work: they use the events
    assert "disagrees with the events" in report.checkpoints[0] and "the events win" in report.checkpoints[0]
    assert report.final == saves.load(path).fight().state  # the fold's state


def test_opening_from_a_checkpoint_reads_only_the_tail(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "f.jsonl"
    live = make_fight("bnb", 3000, path, seed=5)
    calls: list[Path] = []
    real = saves.loading._load
    monkeypatch.setattr(saves.loading, "_load", lambda p: calls.append(p) or real(p))
    again = saves.open_fight(path)
    assert calls == [] and again.log.partial and len(again.log.loaded) < 400
    assert again.state == live.state and len(again.entries) == len(live.entries)
    # the fight screen's first lines and undo need no older entries
    assert again.entries[-60:] == live.entries[-60:]
    assert calls == [] and again.needs_check
    # the checkpoint is checked against the events (folded from the start, in a thread) before the first write
    again.undo()
    assert len(calls) == 1 and not again.needs_check and again.log.partial
    # an older entry is read on demand, once
    assert again.entries[0] == live.entries[0]
    assert len(calls) == 2 and not again.log.partial
    again.close()


def test_a_state_that_does_not_come_back_equal_is_not_checkpointed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A system whose data does not round-trip through cattrs gets no checkpoint: its fights open by folding."""
    real = checkpoint.StateCodec.decode
    monkeypatch.setattr(checkpoint.StateCodec, "decode", lambda self, raw: real(self, raw).__class__(system="lossy"))
    path = tmp_path / "f.jsonl"
    live = make_fight("bnb", 600, path, seed=1)
    assert checkpoint_lines(path) == []
    again = saves.open_fight(path)
    assert not again.log.partial and again.state == live.state
    again.close()


@pytest.mark.parametrize("system_id", sorted(ROUND_TRIPS))
def test_every_state_of_a_fight_comes_back_equal(system_id: str) -> None:
    """Every state a realistic fight passes through can be checkpointed: a state that does not come back
    equal is skipped, which pushes the next checkpoint back and makes opening fold a longer tail (a 2d6
    failed attack's rolls, once typed ``Any``, came back as dicts in a fifth of the states)."""
    fight = make_fight(system_id, 1500, seed=3)
    log = fight.log
    refused = [log._actions[k] for k in range(log.groups) if checkpoint.checkpoint_line(log, k, 0) is None]
    assert refused == []


def test_the_generator_is_deterministic() -> None:
    a = make_fight("blackjack", 300, seed=9)
    b = make_fight("blackjack", 300, seed=9)
    assert a.entries == b.entries and isinstance(GM(a, 1).rng.random(), float)
    assert isinstance(SeededRoller(1).seed, int)


def _paths(x: object, at: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    out = [at]
    if isinstance(x, dict):
        for k, v in x.items():
            out += _paths(v, (*at, k))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            out += _paths(v, (*at, i))
    return out


def _given_as_read(raw: Any, back: Any) -> bool:
    """Every value ``raw`` gives is in ``back`` as it was given: the same JSON type and value (``back`` may have
    more keys: the defaults of fields ``raw`` left out)."""
    if type(raw) is not type(back):
        return False
    if isinstance(raw, dict):
        return all(k in back and _given_as_read(v, back[k]) for k, v in raw.items())
    if isinstance(raw, list):
        return len(raw) == len(back) and all(_given_as_read(a, b) for a, b in zip(raw, back, strict=True))
    return bool(raw == back)


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_the_checkpoint_reader_coerces_nothing(tmp_path: Path, system_id: str) -> None:
    """A checkpoint's state is read strictly: damaged states (a field dropped, added, or of another JSON type)
    are refused with a ValueError, or read as given ("7" is not 7, 1.5 is not 1, true is not 1, an unknown
    field is refused): written back, the state gives every value the damaged one gave, of the same type."""
    import random

    def clone(raw: object) -> Any:  # a JSON tree copied (ten times quicker than copy.deepcopy)
        return json.loads(json.dumps(raw))

    make_fight(system_id, 300, tmp_path / "f.jsonl", seed=2).close()
    timeline = saves.load(tmp_path / "f.jsonl").timeline()
    codec = checkpoint.state_codec(timeline.system)
    states = [json.loads(json.dumps(codec.encode(timeline.state_at(n)))) for n in (len(timeline) // 2, len(timeline))]
    for raw in states:
        assert codec.decode(clone(raw)) in (timeline.state_at(len(timeline) // 2), timeline.state_at(len(timeline)))
    rnd = random.Random(system_id)
    values = [None, 0, 1, 1.5, "", "x", "7", True, [], {}, [1], ["a"], {"a": 1}, [{}], 2**70]
    counts = {"read": 0, "refused": 0}
    paths = [_paths(raw)[1:] for raw in states]  # every copy of a state has its paths
    for _ in range(1500):
        k = rnd.randrange(len(states))
        raw = clone(states[k])
        where = rnd.choice(paths[k])
        parent: dict | list = raw
        for k in where[:-1]:
            parent = parent[k]  # type: ignore[index]
        roll = rnd.random()
        if roll < 0.15 and isinstance(parent, dict):
            del parent[where[-1]]
        elif roll < 0.25 and isinstance(parent, dict):
            parent["unknown"] = 1
        else:
            parent[where[-1]] = rnd.choice(values)  # type: ignore[index]
        try:
            ours = codec.decode(clone(raw))
        except ValueError:
            counts["refused"] += 1
            continue  # refused: the fight opens by folding
        counts["read"] += 1
        assert _given_as_read(raw, json.loads(json.dumps(codec.encode(ours)))), where
    assert counts["read"] > 100 and counts["refused"] > 500, counts


def test_a_tail_that_undoes_what_the_checkpoint_folded_in_opens_the_same_fight(often: None, tmp_path: Path) -> None:
    """The case hypothesis found: the fight stopped just after an undo of the action the last checkpoint was
    taken after (no later checkpoint can be cut then); opening folds the whole file, and the fight goes on."""
    path = tmp_path / "f.jsonl"
    live = make_fight("twod6", 90, path, seed=149, close=False)
    cps = checkpoint_lines(path)
    assert cps
    for _ in range(40):  # undo back across the last checkpoint
        if tail_reaches_back(path, cps[-1]) or not live.can_undo:
            break
        live.undo()
    live.close()  # type: ignore[attr-defined]
    cps = checkpoint_lines(path)
    assert cps and tail_reaches_back(path, cps[-1])
    again = saves.open_fight(path)
    assert again.state == saves.load(path).fight().state == live.state
    assert again.undo() is not None
    again.close()
    assert check(path).good
