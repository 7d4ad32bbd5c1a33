"""2d6 Core Rules Gamma: opposed 2d6 checks with rolling criticals, wounds with resolve
thresholds, and an action economy of quick, half-round and full-round actions.

The plug-in itself (its rules, events, commands and rulings) is in
:mod:`systems.twod6.plugin`; this module is what listing the installed systems
imports: ``ABOUT``, and ``system`` (the entry point) made on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracker.plugin import About, made_on_first_use

if TYPE_CHECKING:
    from systems.twod6.plugin import system

ABOUT = About(
    id="twod6",
    name="2d6 Core Rules Gamma",
    version="1.0",
    summary="2d6 opposed checks, critical 11s that roll again, wounds with resolve thresholds, action economy",
)

__getattr__ = made_on_first_use("systems.twod6.plugin")  # ``system``, the entry point

__all__ = ["ABOUT", "system"]
