"""The toy system the tests play: the example plug-in in ``systems/toy`` (see docs/PLUGINS.md)."""

from systems.toy import Hit, HitRolled, HpChanged, Shrug, Shrugged, ToyData, ToySystem, system

__all__ = ["Hit", "HitRolled", "HpChanged", "Shrug", "Shrugged", "ToyData", "ToySystem", "system"]
