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


def make_data(sheet: Mapping[str, Any]) -> ToyData:
    return ToyData(hp=sheet["hp"], max_hp=sheet["hp"], init_bonus=sheet.get("init_bonus", 0))


def data(c: Combatant) -> ToyData:
    """The typed record of a toy combatant (``Combatant.data`` is untyped in the core)."""
    record: ToyData = c.data
    return record
