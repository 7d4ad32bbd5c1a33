"""Toy: the example rules plug-in of ``docs/PLUGINS.md``, and the system the tests play.

Combatants have hit points; ``Hit`` rolls a d20 against 10 and, on a hit, a
damage expression; quick damage and healing take HP (a number, a sum or
dice); whoever drops to 0 HP, whatever did it, gets a ``down`` prompt that
``Shrug`` resolves.  It is not registered as an entry point (the app does not
offer it); tests register it with ``tracker.registry.register``.

The plug-in itself is in :mod:`systems.toy.plugin`; this module is what listing
the installed systems imports: ``ABOUT``, and ``system`` (the entry point) made
on first use, as in every built-in system.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from systems.toy.about import ABOUT
from tracker.plugin import made_on_first_use

if TYPE_CHECKING:
    from systems.toy.plugin import system


__getattr__ = made_on_first_use("systems.toy.plugin")  # ``system``, the entry point

__all__ = ["ABOUT", "system"]
