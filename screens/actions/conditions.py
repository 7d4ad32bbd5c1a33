"""Conditions put on (C) and taken off (R) the selected or marked combatants."""

from __future__ import annotations

from screens import forms
from screens.actions.base import ask_for_marked, context, need_chosen
from screens.host import FightHost


def add_condition(screen: FightHost) -> None:
    if need_chosen(screen):
        ask_for_marked(screen, forms.condition_form(context(screen)))


def remove_condition(screen: FightHost) -> None:
    if not need_chosen(screen):
        return
    made = forms.remove_condition_form(context(screen))
    if isinstance(made, str):
        screen.refuse(made)
        return
    ask_for_marked(screen, made)
