"""The combat tracker's core: dice, state, events, the engine and the plug-in protocol.

This package imports no Textual and no rules plug-in.
"""

from tracker.commands import (
    ActNow,
    AddCombatant,
    AddCondition,
    Adjust,
    CommandSpec,
    Damage,
    Delay,
    DismissPrompt,
    EndFight,
    Heal,
    Hide,
    Modifier,
    MoveInOrder,
    NameFight,
    NextTurn,
    Note,
    Param,
    RemoveCombatant,
    RemoveCondition,
    RenameCombatant,
    Rest,
    Reveal,
    RollInitiative,
    SetDiceMode,
    SetInitiative,
    SetView,
    StartFight,
)
from tracker.dice import Roll, ScriptedRoller, SeededRoller, TypedRoller
from tracker.engine import decide, evolve, fold
from tracker.errors import Refused, TrackerError
from tracker.explain import explain
from tracker.fight import Fight
from tracker.log import Entry, Step
from tracker.model import Combatant, Condition, FightState, Prompt, ViewOptions
from tracker.plugin import BaseSystem, Standing
from tracker.reasons import Reason, Rule

__version__ = "0.1.0"

__all__ = [
    "ActNow",
    "AddCombatant",
    "AddCondition",
    "Adjust",
    "BaseSystem",
    "Combatant",
    "CommandSpec",
    "Condition",
    "Damage",
    "Delay",
    "DismissPrompt",
    "EndFight",
    "Entry",
    "Fight",
    "FightState",
    "Heal",
    "Hide",
    "Modifier",
    "MoveInOrder",
    "NameFight",
    "NextTurn",
    "Note",
    "Param",
    "Prompt",
    "Reason",
    "Refused",
    "RemoveCombatant",
    "RemoveCondition",
    "RenameCombatant",
    "Rest",
    "Reveal",
    "Roll",
    "RollInitiative",
    "Rule",
    "ScriptedRoller",
    "SeededRoller",
    "SetDiceMode",
    "SetInitiative",
    "SetView",
    "Standing",
    "StartFight",
    "Step",
    "TrackerError",
    "TypedRoller",
    "ViewOptions",
    "decide",
    "evolve",
    "explain",
    "fold",
]
