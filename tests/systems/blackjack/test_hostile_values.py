"""A fight file edited by hand and sealed again: a value no blackjack sheet can hold is refused at its line.

One number in a ``combatant_added`` line (an injury track of 10**7 slots) made ``tracker check``, export, the app
and the players' view draw 10**7 boxes: 20 s and a gigabyte (10**8: a minute and 9 GB), and check called the file
good.  Ruling (``systems/blackjack/records.py:check_new``): the record made from a line's sheet holds only what
``check_sheet`` lets through, else its event does not apply and the loader names the line.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import attrs
import pytest

import saves
from saves.format import seal
from systems.blackjack.records import LEVELS, BJData
from systems.blackjack.sheet import check_sheet, make_data
from systems.blackjack.show import track
from tests.ui.drive import build_fight
from tracker.model import NPC, PC


def _fight(tmp_path: Path) -> list[str]:
    """A small blackjack fight's lines (two Outlaws, then Hero, started)."""
    path = tmp_path / "fight.jsonl"
    build_fight("blackjack", path).close()  # type: ignore[attr-defined]
    return path.read_text("utf-8").splitlines()


def _edited(tmp_path: Path, lines: list[str], number: int, change: Any) -> Path:
    """The fight with line ``number``'s event changed by ``change`` and the line sealed again."""
    record = json.loads(lines[number - 1])
    record.pop("crc")
    change(record["event"])
    out = list(lines)
    out[number - 1] = seal(json.dumps(record, separators=(",", ":"), ensure_ascii=False))
    path = tmp_path / "edited.jsonl"
    path.write_text("\n".join(out) + "\n", "utf-8")
    return path


def _sheet_line(lines: list[str], kind: str) -> int:
    return next(
        i + 1
        for i, line in enumerate(lines)
        if json.loads(line).get("type") == "combatant_added" and json.loads(line)["event"]["kind"] == kind
    )


def test_a_track_of_ten_million_slots_is_refused_at_its_line_at_once(tmp_path: Path) -> None:
    lines = _fight(tmp_path)
    assert saves.load(tmp_path / "fight.jsonl").fight().state.combatants  # the fight as written loads
    number = _sheet_line(lines, NPC)

    def huge(event: dict[str, Any]) -> None:
        event["sheet"]["slots"][0] = 10**7

    path = _edited(tmp_path, lines, number, huge)
    start = time.perf_counter()
    with pytest.raises(saves.LoadError) as refused:
        saves.load(path).fight()
    assert time.perf_counter() - start < 5
    assert refused.value.line == number
    assert "does not apply" in str(refused.value) and "10000000" in str(refused.value)


@pytest.mark.parametrize(
    ("kind", "field", "value"),
    [
        (NPC, ("slots",), [2, 2, 1, 1, 1]),  # five levels: the track has four at most
        (NPC, ("slots", 2), 0),
        (NPC, ("threat",), 10**7),
        (NPC, ("morale",), -3),
        (NPC, ("lead",), -1),
        (PC, ("acc",), 10**7),
        (PC, ("body_marks",), 3),
        (PC, ("weapons", 0, "shots"), 10**7),
        (PC, ("weapons", 0, "loaded"), 10**7),
        (PC, ("weapons", 0, "level"), 10**7),
        (PC, ("injuries",), [["cut", "bruised", "shot"], [], []]),  # three lesser injuries in two slots
    ],
)
def test_a_sheet_value_no_form_gives_is_refused_at_its_line(
    tmp_path: Path, kind: str, field: tuple[Any, ...], value: Any
) -> None:
    lines = _fight(tmp_path)
    number = _sheet_line(lines, kind)

    def change(event: dict[str, Any]) -> None:
        at = event["sheet"]
        for key in field[:-1]:
            at = at[key]
        at[field[-1]] = value

    with pytest.raises(saves.LoadError) as refused:
        saves.load(_edited(tmp_path, lines, number, change)).fight()
    assert refused.value.line == number


def test_every_value_the_forms_give_still_makes_a_record() -> None:
    """The bounds are check_sheet's: its edges load, as the presets do."""
    for kind, sheet in (
        (PC, {"acc": 3, "body": 19, "ctrl": 19, "acc_marks": 2, "slots": "9/9/9/9", "lead": 99, "weapons": "Bow 500"}),
        (NPC, {"threat": 1, "morale": 12, "slots": "1", "lead": 0, "weapons": "Colt: firearm 99, Machete"}),
        (NPC, {"threat": 10, "morale": 2, "slots": "2/2/1", "injuries": "lesser a, lesser b, severe c"}),
    ):
        assert isinstance(make_data(kind, check_sheet(kind, sheet)), BJData)


def test_the_track_draws_at_most_nine_boxes_a_level() -> None:
    """A record holding more (a checkpoint edited by hand is not folded when the app opens from it) draws nine."""
    d = attrs.evolve(BJData(), slots=(10**7, 2, 1), injuries=(("cut",), (), ()))
    assert track(d) == "■□□□□□□□□|□□|□"
    assert len(LEVELS) == 4
