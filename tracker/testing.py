"""What a plug-in's own tests need, from the installed package: a plug-in checked whole, and scripted fights.

::

    from tracker import AddCombatant
    from tracker.testing import check_plugin, scripted_fight

    def test_my_plugin_passes_the_registry_checks() -> None:
        check_plugin(system)

    def test_a_hit_drops_the_goblin() -> None:
        f = scripted_fight(system, AddCombatant(name="Alice", kind="pc"), AddCombatant(name="Goblin", preset="goblin"),
                           faces=[15, 4], start=True)
        f.do(Hit(actor="c1", target="c2"))

The faces are the dice, in the order the rules roll them; ``f.roller.add(...)``
gives more.  Driving the app with Textual's Pilot needs Textual, which the core
never imports: that helper is :mod:`screens.testing`.
"""

from __future__ import annotations

from collections.abc import Iterable

from tracker.commands import AddCombatant, StartFight
from tracker.dice import ScriptedRoller
from tracker.fight import Fight
from tracker.plugin import System
from tracker.plugin_check import PluginError, check_system, sample_sheet, sample_value

__all__ = ["PluginError", "ScriptedRoller", "check_plugin", "sample_sheet", "sample_value", "scripted_fight"]


def check_plugin(system: System) -> None:
    """Every check the registry makes of a plug-in (:mod:`tracker.plugin_check`), its command forms and sample
    combatants included: :class:`PluginError` names each problem."""
    check_system(system)


def scripted_fight(system: System, *combatants: AddCombatant, faces: Iterable[int] = (), start: bool = False) -> Fight:
    """A fight of ``system`` whose dice are ``faces`` (a :class:`ScriptedRoller`), with ``combatants`` added in
    order (ids ``c1``, ``c2``… as added) and, with ``start``, the fight started (``StartFight``: no initiative is
    rolled first, so the order is the system's ``default_order``)."""
    fight = Fight(system, roller=ScriptedRoller(list(faces)))
    for add in combatants:
        fight.do(add)
    if start:
        fight.do(StartFight())
    return fight
