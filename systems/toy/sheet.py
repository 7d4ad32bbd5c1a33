"""The toy combatant: hit points and an initiative bonus."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.commands import INT, Param
from tracker.model import Combatant
from tracker.record import Record, record


@record(kw_only=True, repr=False, eq=False)
class ToyData(Record):
    hp: int
    max_hp: int
    init_bonus: int = 0


SHEET_FIELDS = (
    Param(name="hp", kind=INT, label="HP", min=1, max=999, default=10),
    Param(name="init_bonus", kind=INT, label="Initiative bonus", default=0),
)


def make_data(sheet: Mapping[str, Any]) -> ToyData:
    return ToyData(hp=sheet["hp"], max_hp=sheet["hp"], init_bonus=sheet.get("init_bonus", 0))


def data(c: Combatant) -> ToyData:
    """The typed record of a toy combatant (``Combatant.data`` is untyped in the core)."""
    record: ToyData = c.data
    return record
