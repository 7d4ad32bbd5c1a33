"""``quick_loads`` (json first, orjson for what json might read differently) gives orjson's verdict, always.

Opening a fight reads a handful of lines with the standard library's json so
the launch does not import orjson; a whole log is read by orjson.  The two
must never disagree: a line the launch takes and ``tracker check`` refuses
(or the other way round) would be a fight that opens differently each way.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from saves.format import bulk_loads, parse, quick_loads
from tests.support import opened_in_new_interpreter


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON values, telling 1 from 1.0 and 0.0 from -0.0 (without recursion: some are deep)."""
    todo = [(a, b)]
    while todo:
        x, y = todo.pop()
        if type(x) is not type(y):
            return False
        if isinstance(x, dict):
            if list(x) != list(y):
                return False
            todo.extend((x[k], y[k]) for k in x)
        elif isinstance(x, list):
            if len(x) != len(y):
                return False
            todo.extend(zip(x, y, strict=True))
        elif isinstance(x, float):
            if x != y or math.copysign(1, x) != math.copysign(1, y):
                return False
        elif x != y:
            return False
    return True


def _verdict(fn: Any, data: bytes) -> tuple[str, Any]:
    try:
        return "value", fn(data)
    except ValueError as e:
        return "refused", str(e)


def _agree(data: bytes) -> None:
    quick, bulk = _verdict(quick_loads, data), _verdict(bulk_loads(), data)
    assert quick[0] == bulk[0], (data, quick, bulk)
    if quick[0] == "value":
        assert _same(quick[1], bulk[1]), (data, quick, bulk)
    else:
        assert quick[1] == bulk[1]  # the same words for the GM: orjson's


# JSON texts with what the two parsers could read differently: ints past 64 bits, long floats, exponents,
# escapes (lone surrogates among them), control characters, unicode, nesting.
_numbers = st.one_of(
    st.integers(min_value=-(1 << 70), max_value=1 << 70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(["1e400", "-1e400", "1e-400", "-0", "-0.0", "0.1e1", "1E+2", "01", "1.", ".5", "2e308"]),
)
_strings = st.one_of(
    st.text(max_size=12),
    st.sampled_from(['"\\ud800"', '"\\uDBFF\\uDFFF"', '"\\ud83d\\ude00"', '"\\u0000"', '"\\x41"', '"\x01"', '"\\/"']),
)


def _scalar(value: Any) -> str:
    if isinstance(value, str) and value[:1] == '"':
        return value  # already a JSON text (or meant not to be one)
    if isinstance(value, float):
        return repr(value)
    if (
        isinstance(value, str)
        and not value.lstrip("-").replace(".", "").replace("e", "").replace("E", "").replace("+", "").isdigit()
    ):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


_texts = st.recursive(
    st.one_of(_numbers, _strings, st.sampled_from(["true", "false", "null", "NaN", "Infinity", "-Infinity"])).map(
        _scalar
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4).map(lambda xs: "[" + ",".join(xs) + "]"),
        st.dictionaries(st.text(max_size=5).map(json.dumps), inner, max_size=4).map(
            lambda d: "{" + ",".join(f"{k}:{v}" for k, v in d.items()) + "}"
        ),
    ),
    max_leaves=12,
)


@settings(max_examples=600, deadline=None)
@given(_texts)
def test_a_json_text_reads_the_same_quick_and_in_bulk(text: str) -> None:
    _agree(text.encode("utf-8", "surrogatepass"))


@settings(max_examples=400, deadline=None)
@given(_texts, st.integers(min_value=0, max_value=200), st.binary(min_size=1, max_size=3))
def test_a_damaged_text_is_refused_or_read_alike_both_ways(text: str, at: int, junk: bytes) -> None:
    data = text.encode("utf-8", "surrogatepass")
    at %= len(data) + 1
    _agree(data[:at] + junk + data[at:])


@pytest.mark.parametrize(
    "data",
    [
        b"18446744073709551615",  # the largest int orjson reads as an int
        b"18446744073709551616",  # one more: orjson makes it a float, json an int
        b"-9223372036854775808",
        b"-9223372036854775809",
        b"1e400",  # json: inf; orjson refuses
        b"NaN",
        b'"\\ud800"',  # a lone surrogate: json takes it, orjson refuses
        b'"\\uD800"',
        b'"\\ud83d\\ude00"',  # a pair: both read one character
        b'"\xed\xa0\x80"',  # a surrogate encoded in the bytes: not UTF-8
        b"\xef\xbb\xbf{}",  # a byte-order mark
        b'{"a":1,"a":2}',  # the last of two keys, both ways
        b" [1, 2.5, -0.0] ",
        b"[" * 2000 + b"]" * 2000,  # past the standard library's recursion limit
        b"1" * 5000,  # past Python's digits limit for int()
    ],
)
def test_the_texts_the_two_parsers_read_differently_get_orjsons_verdict(data: bytes) -> None:
    _agree(data)


@pytest.mark.parametrize("system_id", ["bnb", "blackjack", "zludge", "twod6"])
def test_opening_a_fight_from_its_checkpoint_imports_no_orjson(tmp_path: Path, system_id: str) -> None:
    """The point of the quick reader: a fight opened from its checkpoint and its tail (the launch) never imports
    orjson (about 3 ms of the app's launch: it brings zoneinfo and sysconfig); reading the whole log does."""
    then = (
        "print(f.log.partial, 'orjson' in sys.modules); f.close(); saves.load(Path(sys.argv[1])); "
        "print('orjson' in sys.modules)"
    )
    assert opened_in_new_interpreter(tmp_path / "f.jsonl", system_id, 600, then) == ["True", "False", "True"]


def test_parse_says_what_orjson_says_of_a_bad_line() -> None:
    with pytest.raises(ValueError) as quick:
        parse(b'{"seq":1,}')
    with pytest.raises(ValueError) as bulk:
        bulk_loads()(b'{"seq":1,}')
    assert str(quick.value).startswith(str(bulk.value).split(":")[0])
    assert orjson.loads(b"[1]") == quick_loads(b"[1]") == [1]
