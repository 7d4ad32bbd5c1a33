"""What the GM's keys do on the fight screen, one module per family of actions.

Each action is a plain function taking the fight screen; the screen's
``action_*`` methods (:mod:`screens.fight`) call them, one line each, so every
key, binding id and palette entry stays an action of the screen as Textual
knows it.  Actions that ask something open a dialog with
:func:`screens.dialogs.base.ask` and do what it returns; every command goes
through the screen's ``perform`` (see :mod:`screens.doing`).  The subject of an
action is the selected combatant, or the marked ones for actions that take
several (:mod:`screens.actions.base`).

- :mod:`~screens.actions.commands`: the system's own actions, the actions list (x), prompts
- :mod:`~screens.actions.turns`: turns, initiative and the order; the start, the end, time passing, leaving
- :mod:`~screens.actions.harm`: quick damage and healing
- :mod:`~screens.actions.combatants`: adding, removing, marking, notes, GM adjust
- :mod:`~screens.actions.conditions`: putting conditions on and taking them off
- :mod:`~screens.actions.history`: undo and redo, the dice mode
- :mod:`~screens.actions.players`: what the players see (hidden combatants, view options, the fight's name,
  the players' view served to browsers)
- :mod:`~screens.actions.party`: party files (F5, F6)
- :mod:`~screens.actions.guide`: help and the command palette
"""
