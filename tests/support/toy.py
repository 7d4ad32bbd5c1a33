"""The toy system the tests play: the example plug-in in ``systems/toy`` (see docs/PLUGINS.md)."""

from systems.toy.commands import Hit, Shrug
from systems.toy.events import HitRolled, HpChanged, Shrugged
from systems.toy.plugin import ToySystem, system
from systems.toy.sheet import ToyData

__all__ = ["Hit", "HitRolled", "HpChanged", "Shrug", "Shrugged", "ToyData", "ToySystem", "system"]
