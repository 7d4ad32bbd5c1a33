"""Quick damage (-) and quick healing (+) for the selected or marked combatants."""

from __future__ import annotations

from typing import Any

from screens import forms
from screens.actions.base import ask_for_marked, context, need_chosen
from screens.dialogs.base import Dialog
from screens.host import FightHost


def damage(screen: FightHost) -> None:
    if need_chosen(screen):
        ask_for_marked(screen, harm_dialog(screen, heal=False))


def heal(screen: FightHost) -> None:
    if need_chosen(screen):
        ask_for_marked(screen, harm_dialog(screen, heal=True))


def harm_dialog(screen: FightHost, heal: bool) -> Dialog[Any]:
    return forms.harm_form(context(screen), heal=heal)
