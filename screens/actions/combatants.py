"""Combatants: adding and removing them, marking them for actions on several, notes and GM adjust."""

from __future__ import annotations

from screens import forms
from screens.actions.base import ask_command, context, need_chosen, need_selected, used_marks
from screens.dialogs.add import AddDialog
from screens.dialogs.base import ask
from screens.dialogs.confirm import ConfirmDialog
from screens.dialogs.pick import PickDialog
from screens.host import FightHost
from tracker import commands as C
from tracker.text import visible


def add(screen: FightHost) -> None:
    ask_command(screen, AddDialog(screen.system, screen.probe, folder=getattr(screen.app, "fights_dir", None)))


def remove(screen: FightHost) -> None:
    """The chosen combatants leave the fight (asked first)."""
    ids = need_chosen(screen)
    if not ids:
        return
    names = context(screen).names(ids)

    def answer(yes: bool | None) -> None:
        if yes:
            removals = [C.RemoveCombatant(id=cid, reason="removed by the GM") for cid in ids]
            screen.perform(removals, lambda: used_marks(screen))

    ask(screen.app, ConfirmDialog(f"Remove {names} from the fight?"), answer)


def toggle_mark(screen: FightHost) -> None:
    cid = screen.selected
    if cid is None:
        return
    marked = screen.marked
    screen.set_marks(tuple(m for m in marked if m != cid) if cid in marked else (*marked, cid))


def clear_marks(screen: FightHost) -> None:
    if screen.marked:
        screen.set_marks(())
        screen.notify("Marks cleared.")


def note(screen: FightHost) -> None:
    ask_command(screen, forms.note_form(context(screen)))


def adjust(screen: FightHost) -> None:
    """GM adjust (=): pick a value of the selected combatant, then set it."""
    cid = need_selected(screen)
    if cid is None:
        return
    name = visible(screen.fight.state.name(cid))

    def chosen(field: C.Param | None) -> None:
        if field is not None:
            ask_command(screen, forms.adjust_form(context(screen), cid, field))

    fields = forms.adjust_fields(context(screen), cid)
    ask(screen.app, PickDialog(f"Adjust which value of {name}?", fields), chosen)
