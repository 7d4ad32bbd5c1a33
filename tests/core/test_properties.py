"""Properties: replay equals live, undo/redo restore exactly, a damaged file only ever gives LoadError."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import saves
from tests.support import examples
from tests.support.toy import Hit, Shrug
from tests.support.toy import system as toy
from tracker import (
    ActNow,
    AddCombatant,
    AddCondition,
    Adjust,
    Delay,
    DismissPrompt,
    Fight,
    MoveInOrder,
    NextTurn,
    Note,
    RemoveCombatant,
    RollInitiative,
    SeededRoller,
    StartFight,
)
from tracker.errors import Refused

IDS = st.sampled_from(["c1", "c2", "c3", "c4", "c5"])

commands = st.one_of(
    st.builds(
        lambda n, k, c: AddCombatant(name=n, kind=k, count=c, sheet={"hp": 6}),
        st.sampled_from(["Ann", "Bo", "Cy", "Gob"]),
        st.sampled_from(["pc", "npc"]),
        st.integers(1, 3),
    ),
    st.just(RollInitiative()),
    st.just(StartFight()),
    st.just(NextTurn()),
    st.just(NextTurn()),
    st.just(Delay()),
    st.builds(lambda i: ActNow(id=i), IDS),
    st.builds(lambda a, t: Hit(actor=a, target=t), IDS, IDS),
    st.builds(lambda a: Shrug(actor=a), IDS),
    st.builds(lambda i, v: Adjust(id=i, field="hp", value=v), IDS, st.integers(-3, 9)),
    st.builds(lambda i, r: AddCondition(id=i, name="Dazed", rounds=r, ends_on=i), IDS, st.integers(1, 3)),
    st.builds(lambda i, p: MoveInOrder(id=i, position=p), IDS, st.integers(0, 4)),
    st.builds(lambda i: RemoveCombatant(id=i), IDS),
    st.builds(lambda i: DismissPrompt(prompt_id=f"down:{i}"), IDS),
    st.just(Note(text="n")),
    st.just("undo"),
    st.just("redo"),
)


def play(f: Fight, script: list[Any]) -> None:
    for cmd in script:
        try:
            if cmd == "undo":
                f.undo()
            elif cmd == "redo":
                f.redo()
            else:
                f.do(cmd)
        except Refused:
            pass


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(script=st.lists(commands, max_size=40), seed=st.integers(0, 2**16))
def test_replaying_the_saved_log_gives_exactly_the_live_state(script: list[Any], seed: int) -> None:
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "f.jsonl"
        live = saves.new_fight(toy, path, seed=seed)
        play(live, script)
        assert saves.load(path).fight().state == live.state
        live.close()


@settings(max_examples=examples(60), deadline=None)
@given(
    script=st.lists(commands, max_size=30),
    last=commands.filter(lambda c: c not in ("undo", "redo")),
    seed=st.integers(0, 2**16),
)
def test_undo_after_any_action_restores_the_state_and_redo_restores_it_again(
    script: list[Any], last: Any, seed: int
) -> None:
    f = Fight(toy, roller=SeededRoller(seed))
    play(f, script)
    before = f.state
    try:
        f.do(last)
    except Refused:
        return
    after = f.state
    f.undo()
    assert f.state == before
    f.redo()
    assert f.state == after


def _a_saved_fight(directory: Path) -> bytes:
    f = saves.new_fight(toy, directory / "base.jsonl", seed=5)
    play(
        f,
        [
            AddCombatant(name="Ann", kind="pc"),
            AddCombatant(name="Gob", count=2, sheet={"hp": 3}),
            RollInitiative(),
            StartFight(),
            Hit(actor="c1", target="c2"),
            "undo",
            "redo",
            NextTurn(),
            NextTurn(),
        ],
    )
    f.close()
    return (directory / "base.jsonl").read_bytes()


_BASE: dict[str, bytes] = {}


def base_bytes() -> bytes:
    if "b" not in _BASE:
        with tempfile.TemporaryDirectory() as d:
            _BASE["b"] = _a_saved_fight(Path(d))
    return _BASE["b"]


def _load_is_clean(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "f.jsonl"
        path.write_bytes(data)
        try:
            loaded = saves.load(path)
        except saves.LoadError as e:
            assert str(e), "a LoadError always says what is wrong"
            return
        loaded.fight()  # what loads, replays
        assert path.read_bytes() == data, "loading never changes the file"


@settings(max_examples=examples(150), deadline=None)
@given(cut=st.integers(0, 10_000))
def test_a_truncated_save_loads_or_gives_a_clear_error(cut: int) -> None:
    data = base_bytes()
    _load_is_clean(data[: cut % (len(data) + 1)])


@settings(max_examples=examples(200), deadline=None)
@given(
    pos=st.integers(0, 100_000),
    junk=st.binary(min_size=1, max_size=8),
    mode=st.sampled_from(["replace", "insert", "delete"]),
)
def test_a_fuzzed_save_loads_or_gives_a_clear_error(pos: int, junk: bytes, mode: str) -> None:
    data = base_bytes()
    i = pos % len(data)
    if mode == "replace":
        damaged = data[:i] + junk + data[i + len(junk) :]
    elif mode == "insert":
        damaged = data[:i] + junk + data[i:]
    else:
        damaged = data[:i] + data[i + len(junk) :]
    _load_is_clean(damaged)
