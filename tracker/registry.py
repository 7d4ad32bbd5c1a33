"""Find rules plug-ins by entry point (group ``tracker.systems``).

Listing systems reads entry-point metadata only and imports none of them; a
plug-in that fails to load is reported, not fatal.
"""

from __future__ import annotations

from importlib.metadata import EntryPoint, entry_points

import attrs

from tracker.errors import TrackerError
from tracker.plugin import System

GROUP = "tracker.systems"


class SystemNotInstalled(TrackerError):
    pass


@attrs.frozen
class SystemEntry:
    id: str
    target: str  # "module:attr"
    distribution: str | None
    version: str = ""  # the distribution's version


def available() -> tuple[SystemEntry, ...]:
    """Installed systems, without importing any of them."""
    out = []
    for ep in entry_points(group=GROUP):
        dist = ep.dist.name if ep.dist is not None else None
        version = ep.dist.version if ep.dist is not None else ""
        out.append(SystemEntry(ep.name, ep.value, dist, version or ""))
    return tuple(sorted(out, key=lambda e: e.id))


_extra: dict[str, System] = {}
_cache: dict[str, System] = {}


def register(system: System) -> None:
    """Register a system object directly (tests, embedding)."""
    _extra[system.id] = system
    _cache.pop(system.id, None)


def unregister(system_id: str) -> None:
    _extra.pop(system_id, None)
    _cache.pop(system_id, None)


def _entry(system_id: str) -> EntryPoint | None:
    for ep in entry_points(group=GROUP):
        if ep.name == system_id:
            return ep
    return None


def load(system_id: str) -> System:
    """The system with this id, or SystemNotInstalled / TrackerError with the reason."""
    if system_id in _extra:
        return _extra[system_id]
    if system_id in _cache:
        return _cache[system_id]
    ep = _entry(system_id)
    if ep is None:
        names = ", ".join(e.id for e in available()) or "none"
        raise SystemNotInstalled(f"the system '{system_id}' is not installed (installed: {names})")
    try:
        obj = ep.load()
    except Exception as e:  # a broken plug-in is reported, never fatal
        raise TrackerError(f"the system '{system_id}' failed to load: {type(e).__name__}: {e}") from e
    system = obj() if isinstance(obj, type) else obj
    if not isinstance(system, System):
        raise TrackerError(f"the system '{system_id}' does not provide the tracker's plug-in protocol")
    _cache[system_id] = system
    return system


def load_all() -> tuple[list[System], list[str]]:
    """Every installed system that loads, and one message per system that does not."""
    systems: list[System] = []
    problems: list[str] = []
    ids = [e.id for e in available()] + [i for i in _extra if i not in {e.id for e in available()}]
    for system_id in ids:
        try:
            systems.append(load(system_id))
        except TrackerError as e:
            problems.append(str(e))
    return systems, problems
