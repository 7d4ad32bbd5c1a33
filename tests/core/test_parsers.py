"""A fight file's lines are read by one parser, orjson, strictly: no NaN or Infinity, no lone surrogate, no int
past 64 bits read as a whole number, bounded nesting; what it refuses names the line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import saves
from saves.format import DEEPEST, parse, seal


@pytest.mark.parametrize(
    "data",
    [
        b"NaN",
        b"Infinity",
        b"-Infinity",
        b"[NaN]",
        b"1e400",  # infinite as a float
        b'"\\ud800"',  # a lone surrogate
        b'"\xed\xa0\x80"',  # a surrogate encoded in the bytes: not UTF-8
        b"\xef\xbb\xbf{}",  # a byte-order mark
        b'{"seq":1,}',
        b"[" * (DEEPEST + 1) + b"]" * (DEEPEST + 1),
        b"",
    ],
)
def test_what_is_not_strict_json_is_refused_with_the_reason(data: bytes) -> None:
    with pytest.raises(ValueError) as e:
        parse(data)
    assert str(e.value) and len(str(e.value)) < 130


def test_strict_json_reads_as_json_reads_it() -> None:
    for data in (
        b" [1, 2.5, -0.0] ",
        b'{"a":1,"a":2}',
        b'"\\ud83d\\ude00"',
        b"18446744073709551615",
        b"[" * 500 + b"]" * 500,
    ):
        assert parse(data) == json.loads(data)


def test_an_int_past_64_bits_is_no_whole_number() -> None:
    assert type(parse(b"18446744073709551616")) is float
    assert type(parse(b"-9223372036854775809")) is float


def _fight(tmp_path: Path) -> list[bytes]:
    from tracker import commands as C
    from tracker import registry

    fight = saves.new_fight(registry.load("toy"), tmp_path / "f.jsonl", seed=1)
    fight.do(C.AddCombatant(name="Hero", kind="pc", sheet={"hp": "5"}))
    fight.do(C.AddCombatant(name="Orc", kind="npc", sheet={"hp": "5"}))
    fight.close()
    return (tmp_path / "f.jsonl").read_bytes().split(b"\n")


@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        (b'"name":"Hero"', b'"name":NaN', "not valid JSON"),
        (b'"seq":1', b'"seq":18446744073709551616', "whole numbers"),
        (b'"name":"Hero"', b'"name":"\\ud800"', "not valid JSON"),
        (b'"hidden":false', b'"hidden":0', "expected true or false"),
    ],
)
def test_a_line_that_is_not_strict_json_is_refused_naming_it(
    tmp_path: Path, old: bytes, new: bytes, words: str
) -> None:
    lines = _fight(tmp_path)
    assert old in lines[1]
    body = lines[1][:-18] + b"}"
    lines[1] = seal(body.replace(old, new, 1).decode("utf-8", "surrogatepass")).encode("utf-8", "surrogatepass")
    (tmp_path / "f.jsonl").write_bytes(b"\n".join(lines))
    with pytest.raises(saves.LoadError, match=r"^line 2: ") as e:
        saves.load(tmp_path / "f.jsonl")
    assert words in str(e.value)


@pytest.mark.parametrize("value", [float("nan"), float("inf"), [1, {"x": float("-inf")}]])
def test_a_number_a_fight_file_cannot_hold_is_never_written(value: object) -> None:
    """orjson writes NaN and the infinities as null: the converter refuses them first, so a value is never
    written as another one (the fight would replay differently)."""
    from saves.format import Codec
    from tracker import Entry, registry
    from tracker.events import Adjusted

    codec = Codec(registry.load("toy"))
    assert '"value":1.5' in codec.encode(Entry(1, 1, Adjusted(id="c1", field="hp", value=1.5)))
    with pytest.raises(ValueError, match="not a number a fight file can hold"):
        codec.encode(Entry(1, 1, Adjusted(id="c1", field="hp", value=value)))
