"""The fight-log file: JSON Lines, written as it happens, loaded, recovered, upgraded, exported.

Public API::

    fight = saves.new_fight(system, path=None, seed=None)   # file created, header written
    fight.do(command)                                       # appended + fsynced before it returns
    fight = saves.open_fight(path)                          # replay and continue
    loaded = saves.load(path)                               # header, entries, warnings
"""

from saves.format import FORMAT_VERSION, Header, LoadError, SaveError
from saves.store import (
    Loaded,
    SaveWriter,
    continue_from,
    default_dir,
    load,
    new_fight,
    open_fight,
    recent,
)

__all__ = [
    "FORMAT_VERSION",
    "Header",
    "LoadError",
    "Loaded",
    "SaveError",
    "SaveWriter",
    "continue_from",
    "default_dir",
    "load",
    "new_fight",
    "open_fight",
    "recent",
]
