"""Zludge 1.0 Alpha: 4dF on the ladder, attack against defense rolls, wound boxes by damage level, fatigue.

The plug-in itself (its rules, events, commands and rulings) is in
:mod:`systems.zludge.plugin`; this module is what listing the installed systems
imports: ``ABOUT``, and ``system`` (the entry point) made on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from systems.zludge.about import ABOUT
from tracker.plugin import made_on_first_use

if TYPE_CHECKING:
    from systems.zludge.plugin import system


__getattr__ = made_on_first_use("systems.zludge.plugin")  # ``system``, the entry point

__all__ = ["ABOUT", "system"]
