"""2d6 Core Rules Gamma: opposed 2d6 checks with rolling criticals, wounds with resolve
thresholds, and an action economy of quick, half-round and full-round actions.

The plug-in itself (its rules, events, commands and rulings) is in
:mod:`systems.twod6.plugin`; this module is what listing the installed systems
imports: ``ABOUT``, and ``system`` (the entry point) made on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from systems.twod6.about import ABOUT
from tracker.plugin import made_on_first_use

if TYPE_CHECKING:
    from systems.twod6.plugin import system


__getattr__ = made_on_first_use("systems.twod6.plugin")  # ``system``, the entry point

__all__ = ["ABOUT", "system"]
