"""The combat tracker's core: dice, state, events, the engine and the plug-in protocol.

This package imports no Textual and no rules plug-in.
"""

from tracker.commands import (
    ActNow,
    AddCombatant,
    AddCondition,
    Adjust,
    CommandSpec,
    Delay,
    DismissPrompt,
    EndFight,
    Modifier,
    MoveInOrder,
    NextTurn,
    Note,
    Param,
    RemoveCombatant,
    RemoveCondition,
    RenameCombatant,
    RollInitiative,
    SetInitiative,
    StartFight,
)
from tracker.dice import Roll, ScriptedRoller, SeededRoller, TypedRoller
from tracker.engine import Entry, Fight, Step, decide, evolve, fold
from tracker.errors import Refused, TrackerError
from tracker.model import Combatant, Condition, FightState, Prompt

__version__ = "0.1.0"

__all__ = [
    "ActNow",
    "AddCombatant",
    "AddCondition",
    "Adjust",
    "Combatant",
    "CommandSpec",
    "Condition",
    "Delay",
    "DismissPrompt",
    "EndFight",
    "Entry",
    "Fight",
    "FightState",
    "Modifier",
    "MoveInOrder",
    "NextTurn",
    "Note",
    "Param",
    "Prompt",
    "Refused",
    "RemoveCombatant",
    "RemoveCondition",
    "RenameCombatant",
    "Roll",
    "RollInitiative",
    "ScriptedRoller",
    "SeededRoller",
    "SetInitiative",
    "StartFight",
    "Step",
    "TrackerError",
    "TypedRoller",
    "decide",
    "evolve",
    "fold",
]
