"""The fight-log file: JSON Lines, written as it happens, loaded, recovered, upgraded, exported.

Public API::

    fight = saves.new_fight(system, path=None, seed=None)   # file created and locked, header written
    fight.do(command)                                       # appended + fsynced before it returns
    fight = saves.open_fight(path)                          # continue (FightInUse if open elsewhere)
    fight.close()                                           # checkpoint, release the lock (never raises)
    loaded = saves.load(path)                               # header, entries, warnings (read-only)
    report = saves.check(path)                              # everything folded, described, exported
    infos = saves.recent(folder)                            # the start screen's list (never raises)

The modules: ``files`` (where fights live, opening files safely), ``writing``
(the writer and the live saved fight, new and continued files, repair),
``loading`` (reading and checking a file), ``listing`` (the start screen's
list), ``checkpoint`` (the folded state cached in the file), ``format`` (lines,
checksums, the converter).
"""

from saves.files import default_dir
from saves.format import FORMAT_VERSION, Header, LoadError, NewerVersion, SaveError
from saves.listing import SaveInfo, continuation_of, recent, rescued_in
from saves.loading import Loaded, load, load_system
from saves.writing import (
    FightInUse,
    FileLost,
    SavedFight,
    SaveWriter,
    continue_before,
    continue_from,
    new_fight,
    open_fight,
    rescue,
    rescue_refused,
)

__all__ = [
    "FORMAT_VERSION",
    "FightInUse",
    "FileLost",
    "Header",
    "LoadError",
    "Loaded",
    "NewerVersion",
    "SaveError",
    "SaveInfo",
    "SaveWriter",
    "SavedFight",
    "continuation_of",
    "continue_before",
    "continue_from",
    "default_dir",
    "load",
    "load_system",
    "new_fight",
    "open_fight",
    "recent",
    "rescue",
    "rescue_refused",
    "rescued_in",
]
