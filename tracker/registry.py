"""Find rules plug-ins by entry point (group ``tracker.systems``).

Listing systems reads entry-point metadata only and imports none of them; a
plug-in that fails to load, or that breaks the protocol (see
:func:`tracker.plugin_check.check_system`, run on every system loaded or
registered), is reported, not fatal.  Loading checks what the plug-in
declares; registering one directly also makes its command forms and sample
combatants to check them.

Listing them with their names (the start screen, :func:`described`) imports
each entry point's module for its ``ABOUT`` (see :class:`tracker.plugin.About`)
and loads only a plug-in that has none.

Loading one system (what opening a fight does) first reads the installed
distributions' ``entry_points.txt`` files itself, in the order
``importlib.metadata`` would (the folders of ``sys.path``, first distribution
of a name wins): importing ``importlib.metadata`` and building its objects for
every distribution costs more than starting the plug-in.  Anything it does not
find (or a ``sys.path`` it cannot read as plain folders) goes the standard way.

Speed, kept by issue #43's rule: figures 1 and 2 of bench/bench_speed.py ("1. continue a 2,500-event fight:
launch to first frame", "2. open a 100,000-event fight", <= 1.5x the bare app; both miss at 1.7x).
Importing ``importlib.metadata`` and asking it for the group took 44-60 ms in a fresh process in the bench's
venv (31 distributions, 3 runs), the scan 0.7-1.2 ms: some 10-14% of either launch.
"""

from __future__ import annotations

import importlib
import os
import re
import sys
from collections.abc import Iterable
from functools import reduce
from typing import TYPE_CHECKING, Any

import attrs

from tracker.errors import TrackerError
from tracker.plugin import About, Preset, System
from tracker.plugin_check import PluginError, check_system

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

GROUP = "tracker.systems"


def entry_points(group: str) -> Iterable[EntryPoint]:
    """``importlib.metadata.entry_points(group=...)``, imported here: a launch that finds its system by
    :func:`_scan` never imports it (figures 1 and 2, see the module's docstring)."""
    from importlib.metadata import entry_points as found

    return found(group=group)


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
    """Register a system object directly (tests, embedding); :class:`PluginError` if it breaks the protocol."""
    check_system(system)
    _extra[system.id] = system
    _cache.pop(system.id, None)


def unregister(system_id: str) -> None:
    _extra.pop(system_id, None)
    _cache.pop(system_id, None)


class _Found:
    """An entry point read from an ``entry_points.txt`` (``module:attr``): what ``load`` needs of one."""

    def __init__(self, name: str, value: str) -> None:
        self.name = name
        self.value = value

    def load(self) -> Any:
        module, _, attr = self.value.partition(":")
        return reduce(getattr, filter(None, attr.strip().split(".")), importlib.import_module(module.strip()))


def _normalized(dist_folder: str) -> str:
    name = dist_folder.lower().rpartition(".")[0].partition("-")[0]
    return re.sub(r"[-_.]+", "-", name).replace("-", "_")


def _scan(group: str) -> list[_Found] | None:
    """The group's entry points as ``importlib.metadata`` orders them, read from plain folders; None if it can't."""
    seen: set[str] = set()
    out: list[_Found] = []
    for entry in sys.path:
        folder = entry or "."
        if not os.path.isdir(folder):
            if os.path.exists(folder):
                return None  # a zip or an egg file on the path: the standard lookup knows them
            continue
        try:
            names = os.listdir(folder)
        except OSError:
            return None
        for child in names:
            low = child.lower()
            if not low.endswith((".dist-info", ".egg-info")):
                continue
            dist = _normalized(child)
            if dist in seen:
                continue
            seen.add(dist)
            try:
                with open(os.path.join(folder, child, "entry_points.txt"), encoding="utf-8") as f:
                    text = f.read()
            except FileNotFoundError:
                continue
            except OSError:
                return None
            if f"[{group}]" not in text:
                continue
            section = None
            for raw in text.splitlines():
                line = raw.strip()
                if not line or line.startswith(("#", ";")):
                    continue
                if line.startswith("[") and line.endswith("]"):
                    section = line[1:-1].strip()
                elif section == group and "=" in line:
                    name, _, value = line.partition("=")
                    out.append(_Found(name.strip(), value.strip()))
    return out


def _entries() -> list[EntryPoint | _Found]:
    """The group's entry points, one per name (the first, as ``importlib.metadata`` orders them)."""
    scanned = _scan(GROUP)
    found: list[EntryPoint | _Found] = list(scanned) if scanned is not None else list(entry_points(group=GROUP))
    out: dict[str, EntryPoint | _Found] = {}
    for ep in found:
        out.setdefault(ep.name, ep)
    return list(out.values())


def _about(ep: EntryPoint | _Found) -> About:
    """The entry's ``ABOUT`` (its module imported, not its attribute), or the system loaded and asked."""
    module = ep.value.partition(":")[0].strip()
    try:
        about = getattr(importlib.import_module(module), "ABOUT", None)
    except Exception as e:  # a broken plug-in is reported, never fatal
        raise TrackerError(f"the system '{ep.name}' failed to load: {type(e).__name__}: {e}") from e
    if isinstance(about, About) and about.id == ep.name:
        return about
    return About.of(load(ep.name))


def described() -> tuple[list[About], list[str]]:
    """Every installed system as it describes itself, sorted by id, and one message per system that cannot say.

    No plug-in that has an ``ABOUT`` is loaded: :func:`load` it when it is chosen."""
    abouts: list[About] = []
    problems: list[str] = []
    listed = set()
    for ep in sorted(_entries(), key=lambda e: e.name):
        listed.add(ep.name)
        if ep.name in _extra:  # registered over the installed one (tests, embedding): as load() gives it
            abouts.append(About.of(_extra[ep.name]))
            continue
        try:
            abouts.append(_about(ep))
        except TrackerError as e:
            problems.append(str(e))
    abouts += [About.of(s) for i, s in _extra.items() if i not in listed]
    return abouts, problems


def _entry(system_id: str) -> EntryPoint | _Found | None:
    for found in _scan(GROUP) or ():
        if found.name == system_id:
            return found
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
    if system.id != system_id:
        raise PluginError(f"the system '{system_id}' says its id is '{system.id}': the entry point's name is its id")
    try:
        check_system(system, made=False)  # its forms and sample combatants: tracker.testing.check_plugin
    except PluginError:
        raise
    except Exception as e:  # a hook that fails while it is checked: reported like a plug-in that fails to import
        raise TrackerError(f"the system '{system_id}' failed its checks: {type(e).__name__}: {e}") from e
    _cache[system_id] = system
    return system


def load_all() -> tuple[list[System], list[str]]:
    """Every installed system that loads, and one message per system that does not (listed as
    :func:`described` lists them)."""
    abouts, problems = described()
    systems: list[System] = []
    for about in abouts:
        try:
            systems.append(load(about.id))
        except TrackerError as e:
            problems.append(str(e))
    return systems, problems


# -- the GM's own presets ---------------------------------------------------------------------------------------
# Loaded from the GM's library by ``saves.library`` (the core reads no files): ``AddCombatant(preset=...)``
# finds them exactly as it finds the book's, by id or name, any case.  The events a preset adds carry the whole
# sheet, so a fight replays without the library.

_gm_presets: dict[str, tuple[Preset, ...]] = {}


def use_presets(system_id: str, presets: Iterable[Preset]) -> None:
    """Make ``presets`` the GM's own presets of ``system_id`` (replacing those used before)."""
    _gm_presets[system_id] = tuple(presets)


def gm_presets(system_id: str) -> tuple[Preset, ...]:
    """The GM's own presets of a system in use, as last given to :func:`use_presets`."""
    return _gm_presets.get(system_id, ())


def find_preset(system: System, preset_id: str) -> Preset:
    """A preset by id or name, any case: the GM's own first, then the book's (Refused if neither has it)."""
    key = preset_id.strip().lower()
    for p in gm_presets(system.id):
        if key in (p.id.lower(), p.name.lower()):
            return p
    return system.preset(preset_id)
