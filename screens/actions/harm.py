"""Quick damage (-) and quick healing (+) for the selected or marked combatants."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from screens import forms
from screens.actions.base import ask_for_marked, context, need_chosen
from screens.dialogs.base import Dialog

if TYPE_CHECKING:
    from screens.fight import FightScreen


def damage(screen: FightScreen) -> None:
    if need_chosen(screen):
        ask_for_marked(screen, harm_dialog(screen, heal=False))


def heal(screen: FightScreen) -> None:
    if need_chosen(screen):
        ask_for_marked(screen, harm_dialog(screen, heal=True))


def harm_dialog(screen: FightScreen, heal: bool) -> Dialog[Any]:
    return forms.harm_form(context(screen), heal=heal)
