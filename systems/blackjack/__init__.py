"""Blackjack: the weird-west Core Rules with Blackjack saves, injury slots and lead-working.

The plug-in itself (its rules, events, commands and rulings) is in
:mod:`systems.blackjack.plugin`; this module is what listing the installed systems
imports: ``ABOUT``, and ``system`` (the entry point) made on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from systems.blackjack.about import ABOUT
from tracker.plugin import made_on_first_use

if TYPE_CHECKING:
    from systems.blackjack.plugin import system


__getattr__ = made_on_first_use("systems.blackjack.plugin")  # ``system``, the entry point

__all__ = ["ABOUT", "system"]
