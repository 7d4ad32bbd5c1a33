"""A plug-in whose ``ABOUT`` imports but whose system does not (its rules are missing): listed, refused when chosen."""

from __future__ import annotations

from tracker.plugin import About

ABOUT = About(id="halfbroken", name="Half Broken", version="1", summary="says what it is, fails to load")


def __getattr__(name: str) -> object:
    if name == "system":
        raise ImportError("No module named 'half_broken_rules'")
    raise AttributeError(name)
