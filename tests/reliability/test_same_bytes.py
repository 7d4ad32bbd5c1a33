"""Loading gives again the event of a line whose type, version and fields are the bytes of one met before
(saves.loading._decode): whatever a line holds, the outcome is the one of reading every event anew (the same
fight, the same warnings, the same refusal)."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

import saves
import saves.loading
from bench.fights import make_fight
from tests.reliability.support import SCALE, figure, seal_raw

pytestmark = pytest.mark.reliability

NEVER = re.compile(rb"(?!)")  # matches no line: every event is read anew


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> list[bytes]:
    path = tmp_path_factory.mktemp("same") / "base.jsonl"
    make_fight("bnb", 400, path, seed=5)  # (at 300 the bnb fight of today repeats just under half its events)
    return path.read_bytes().split(b"\n")


def outcome(path: Path) -> tuple[Any, ...]:
    try:
        loaded = saves.load(path)
    except saves.LoadError as e:
        return ("refused", str(e))
    t = loaded.timeline()
    return ("loaded", repr(loaded.entries), list(loaded.lines), loaded.warnings, repr(t.state_at(len(t))))


def both(path: Path, data: bytes, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, ...]:
    path.write_bytes(data)
    fast = outcome(path)
    with monkeypatch.context() as m:
        m.setattr(saves.loading, "EVENT_HEAD", NEVER)
        full = outcome(path)
    assert fast == full, data
    return fast


def repeated(lines: list[bytes]) -> list[int]:
    """The lines whose type, v and fields an earlier line has too (the ones read by their bytes)."""
    seen: set[bytes] = set()
    out = []
    for k, line in enumerate(lines[1:], 1):
        rest = line[line.find(b'"type":') : -18]
        if line.startswith(b'{"seq"') and rest in seen:
            out.append(k)
        seen.add(rest)
    return out


EDITS = [
    (b'"seq":', b'"seq":0'),  # a leading zero: not JSON
    (b'"seq":', b'"seq":-'),
    (b'"seq":', b'"seq": '),  # a space: JSON, not as written
    (b'"seq":', b'"seq":1000000000000000000000'),  # beyond what the parser reads
    (b'"of":', b'"of":0'),
    (b'"action":', b'"action":"'),
    (b'"v":1', b'"v":2'),
    (b'"v":1', b'"v":0'),
    (b'"v":1', b'"v":1.0'),
    (b'"type":"', b'"type":"x'),
    (b'"type":"', b'"type":"B'),
    (b',"event":{', b',"seq":1,"event":{'),
    (b',"event":{', b',"event":{"x":1,'),
    (b',"event":{', b',"event":['),
    (b',"event":{', b',"event":{},"e":{'),
]


def test_edited_repeats_read_as_the_whole_line_reads(base, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A repeated event's line edited where the bytes are not read (its head, its checksum) or around its fields,
    resealed so that only the decoding can catch it: refused, read or dropped exactly as a full reading does."""
    lines = base
    rng = random.Random(21)
    spots = repeated(lines)
    assert len(spots) > len(lines) // 2, "a fight repeats most of its events"
    counts: dict[str, int] = {}
    path = tmp_path / "e.jsonl"
    for n in range(len(EDITS) * 4 * SCALE):
        old, new = EDITS[n % len(EDITS)]
        k = rng.choice([s for s in spots if old in lines[s]])
        body = lines[k][:-18] + b"}"
        edited = list(lines)
        edited[k] = seal_raw(body.replace(old, new, 1))
        if n % 4 == 3:  # the last line: a bad one there is dropped, not refused
            edited = edited[: k + 1] + [b""]
        kind = both(path, b"\n".join(edited), monkeypatch)[0]
        counts[kind] = counts.get(kind, 0) + 1
    figure("repeated events edited", **counts)


def test_checksums_read_as_the_whole_line_reads(base, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A checksum of the right value written otherwise (capitals, a sign, a space, a tab, an escape), or wrong:
    refused, both ways (a checksum is read as written, eight lowercase hex digits, as the header's is)."""
    lines = base
    k = next(s for s in repeated(lines) if lines[s][-10:-9] == b"0" and any(c in lines[s][-9:-2] for c in b"abcdef"))
    good = lines[k][-10:-2]
    path = tmp_path / "c.jsonl"
    kinds = set()
    for crc in (
        good.upper(),
        b"+" + good[1:],
        b" " + good[1:],
        b"\t" + good[1:],  # a raw tab in a JSON text: not JSON
        b"\\u0030" + good[1:],
        b"0x" + good[2:],
        b"00000000",
    ):
        edited = list(lines)
        edited[k] = lines[k][:-10] + crc + b'"}'
        kinds.add(both(path, b"\n".join(edited), monkeypatch)[0])
    assert kinds == {"refused"}


def test_random_flips_of_repeated_lines_resealed(base, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = base
    rng = random.Random(22)
    spots = repeated(lines)
    path = tmp_path / "f.jsonl"
    counts: dict[str, int] = {}
    for _ in range(150 * SCALE):
        k = rng.choice(spots)
        body = bytearray(lines[k][:-18] + b"}")
        i = rng.randrange(len(body) - 1)
        body[i] ^= 1 << rng.randrange(8)
        edited = list(lines)
        edited[k] = seal_raw(bytes(body))
        kind = both(path, b"\n".join(edited), monkeypatch)[0]
        counts[kind] = counts.get(kind, 0) + 1
    figure("repeated events flipped (resealed)", **counts)


def test_deep_fields_are_refused_as_the_parser_refuses_them(
    base, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An adjustment's value may be any JSON, nested deep: read or refused as the whole line is (a parser that
    refuses deep nesting refuses a line one level deeper than its event's fields)."""
    lines = base
    k = next((i for i, line in enumerate(lines) if b'"type":"adjusted"' in line and b'"value":' in line), None)
    assert k is not None, "the seeded fight has no adjustment with a value: did its commands change? try another seed"
    for depth in (500, 1000, 1021, 1022, 1023, 1024, 1100):
        deep = b"[" * depth + b"]" * depth
        body = re.sub(rb'"value":(-?\d+|true|false|null|"[^"]*")', b'"value":' + deep, lines[k][:-18] + b"}", count=1)
        assert deep in body
        edited = list(lines)
        edited[k] = seal_raw(body)
        both(tmp_path / "d.jsonl", b"\n".join(edited), monkeypatch)
