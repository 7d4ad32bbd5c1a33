"""Two core events got a field today (initiative_set's ``word``, fight_ended's ``closes_round``): their version is
2, so yesterday's install, reading a fight written now, says it was saved by a newer version (it called the file
damaged at the first such line and offered to go on from before it).  A line of version 1, without the field,
reads with the field's default (tracker/events.py CORE_UPCASTERS)."""

from __future__ import annotations

import json
from pathlib import Path

import saves
from tests.reliability.support import reseal
from tests.ui.drive import build_fight
from tracker import commands as C
from tracker import events as E


def _lines(path: Path) -> list[bytes]:
    return path.read_bytes().rstrip(b"\n").split(b"\n")


def test_the_events_with_a_new_field_are_written_as_version_2(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    fight = build_fight("bnb", path)
    fight.do(C.EndFight())
    fight.close()
    versions = {}
    for raw in _lines(path)[1:]:
        record = json.loads(raw)
        if record.get("type") in ("initiative_set", "fight_ended"):
            versions[record["type"]] = record["v"]
    assert versions == {"initiative_set": 2, "fight_ended": 2}


def test_a_version_1_line_without_the_field_reads_with_its_default(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    fight = build_fight("blackjack", path, start=False)
    c = fight.state.present[0]
    fight.do(C.SetInitiative(values={c.id: 17}))
    fight.do(C.StartFight())
    fight.do(C.EndFight())
    fight.close()
    lines = _lines(path)
    for n, raw in enumerate(lines):
        record = json.loads(raw)
        if record.get("type") in ("initiative_set", "fight_ended"):
            record["v"] = 1
            record["event"].pop("word", None)
            record["event"].pop("closes_round", None)
            lines[n] = reseal(record)
    path.write_bytes(b"\n".join(lines) + b"\n")
    loaded = saves.load(path)
    events = [x.event for x in loaded.entries]
    assert [e.word for e in events if isinstance(e, E.InitiativeSet)] == ["initiative"]
    assert [e.closes_round for e in events if isinstance(e, E.FightEnded)] == [False]
