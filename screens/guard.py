"""One guard around calls into a rules plug-in.

The screens call a plug-in to show a combatant, build a form or decide an
action.  A plug-in bug there must never take the fight down: :func:`call`
turns the exception into a message the GM can read (and a fallback value),
:func:`failure` words an exception raised while deciding an action.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")
D = TypeVar("D")

Report = Callable[[str], None]


def failure(error: BaseException, what: str = "the rules") -> str:
    """A plug-in exception in the GM's words: what failed, the error, and that nothing was logged."""
    detail = str(error).strip()
    return f"{what} failed ({type(error).__name__}{': ' + detail if detail else ''}); nothing was logged"


def call(fn: Callable[..., T], *args: Any, default: D, what: str = "", report: Report | None = None) -> T | D:
    """``fn(*args)``, or ``default`` when the plug-in raises; ``report`` gets the GM-readable message."""
    try:
        return fn(*args)
    except Exception as e:  # the one place a plug-in bug is caught
        if report is not None:
            name = what or getattr(fn, "__name__", "the system")
            report(f"the system could not give {name} ({type(e).__name__}: {e})")
        return default
