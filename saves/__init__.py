"""The fight-log file: JSON Lines, written as it happens, loaded, recovered, upgraded, exported.

Public API::

    fight = saves.new_fight(system, path=None, seed=None)   # file created and locked, header written
    fight.do(command)                                       # appended + fsynced before it returns
    fight = saves.open_fight(path)                          # continue (FightInUse if open elsewhere)
    fight.close()                                           # checkpoint, release the lock (never raises)
    loaded = saves.load(path)                               # header, entries, warnings (read-only)
    report = saves.check(path)                              # everything folded, described, exported
    infos = saves.recent(folder)                            # the start screen's list (never raises)
"""

from saves.format import FORMAT_VERSION, Header, LoadError, SaveError
from saves.store import (
    FightInUse,
    Loaded,
    SavedFight,
    SaveInfo,
    SaveWriter,
    continue_before,
    continue_from,
    default_dir,
    load,
    load_system,
    new_fight,
    open_fight,
    recent,
)

__all__ = [
    "FORMAT_VERSION",
    "FightInUse",
    "Header",
    "LoadError",
    "Loaded",
    "SaveError",
    "SaveInfo",
    "SaveWriter",
    "SavedFight",
    "continue_before",
    "continue_from",
    "default_dir",
    "load",
    "load_system",
    "new_fight",
    "open_fight",
    "recent",
]
