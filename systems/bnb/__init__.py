"""Blood & Bullets (Simon Washbourne, 2012): d20 vs Defence Class, exploding d6 damage, Gun-play, death saves.

The plug-in itself (its rules, events, commands and rulings) is in
:mod:`systems.bnb.plugin`; this module is what listing the installed systems
imports: ``ABOUT``, and ``system`` (the entry point) made on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from systems.bnb.about import ABOUT
from tracker.plugin import made_on_first_use

if TYPE_CHECKING:
    from systems.bnb.plugin import system


__getattr__ = made_on_first_use("systems.bnb.plugin")  # ``system``, the entry point

__all__ = ["ABOUT", "system"]
