"""The toy combatant: hit points and an initiative bonus."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from tracker.commands import INT, Param
from tracker.model import Combatant


@attrs.frozen(kw_only=True)
class ToyData:
    hp: int
    max_hp: int
    init_bonus: int = 0


SHEET_FIELDS = (
    Param(name="hp", kind=INT, label="HP", min=1, max=999, default=10),
    Param(name="init_bonus", kind=INT, label="Initiative bonus", default=0),
)


def whole_numbers(sheet: Mapping[str, Any]) -> None:
    """Raise ValueError unless each whole-number field the sheet holds is a whole number, as ``Param.parse`` wrote
    it.  Ruling: a sheet read from a fight file is not coerced; 7.5, "7" or true for HP was edited by hand (HP "7"
    was kept as a text), so its event does not apply and the loader names its line.  Test:
    tests/reliability/test_sheet_strict.py::test_a_sheet_value_of_the_wrong_json_type_is_refused_at_its_line."""
    for p in SHEET_FIELDS:
        value = sheet.get(p.name, 0)
        if p.kind == INT and type(value) is not int:  # (not isinstance: True is an int to Python)
            raise ValueError(f"the sheet's {p.name} must be a whole number, not {value!r}"[:120])


def make_data(sheet: Mapping[str, Any]) -> ToyData:
    whole_numbers(sheet)
    return ToyData(hp=sheet["hp"], max_hp=sheet["hp"], init_bonus=sheet.get("init_bonus", 0))


def data(c: Combatant) -> ToyData:
    """The typed record of a toy combatant (``Combatant.data`` is untyped in the core)."""
    record: ToyData = c.data
    return record
