"""Turns, initiative and the order; starting and ending the fight; letting time pass."""

from __future__ import annotations

from screens import forms, keys
from screens.actions.base import ask_command, ask_for_marked, context, need_selected
from screens.dialogs.base import ask
from screens.dialogs.confirm import ConfirmDialog
from screens.host import FightHost
from tracker import commands as C
from tracker.errors import TrackerError
from tracker.replay import Timeline


def next_turn(screen: FightHost) -> None:
    screen.perform(C.NextTurn())


def roll_initiative(screen: FightHost) -> None:
    screen.perform(C.RollInitiative())


def initiative_running(screen: FightHost) -> None:
    """`I` in a running fight: roll for those without an initiative (reinforcements) and slot them in; with
    none, offer to roll the whole order again from the next round (asked first), or say why not."""
    s = screen.fight.state
    if any(c.initiative is None for c in s.present):
        screen.perform(C.RollInitiative())
        return
    reroll = C.RollInitiative(reroll=True)
    try:
        screen.probe(reroll)
    except TrackerError as e:
        screen.refuse(str(e))
        return

    def answer(yes: bool | None) -> None:
        if yes:
            screen.perform(reroll)

    question = (
        f"Everyone has an initiative. Roll the whole order again? The new order starts with round "
        f"{s.round + 1}; this round goes on as it is."
    )
    ask(screen.app, ConfirmDialog(question), answer)


def set_initiative(screen: FightHost) -> None:
    if not screen.fight.state.present:
        screen.refuse(
            "add combatants before entering initiative"
            if keys.rolls_initiative(screen.system)
            else "add combatants before setting the order"
        )
        return
    ask_command(screen, forms.initiative_form(context(screen)))


def start(screen: FightHost) -> None:
    if screen.fight.state.started:
        screen.refuse("the fight has already started")
        return
    ask_command(screen, forms.start_form(context(screen)))


def delay(screen: FightHost) -> None:
    screen.perform(C.Delay())


def act_now(screen: FightHost) -> None:
    cid = need_selected(screen)
    if cid:
        screen.perform(C.ActNow(id=cid))


def move(screen: FightHost, step: int) -> None:
    """The selected combatant ``step`` places later (earlier when negative) in the order."""
    cid = need_selected(screen)
    if cid is None:
        return
    s = screen.fight.state
    order = list(s.order or tuple(c.id for c in s.present))
    if cid not in order:
        screen.refuse(f"{s.name(cid)} is not in the order yet")
        return
    place = order.index(cid) + step
    if not 0 <= place < len(order):
        screen.refuse(f"{s.name(cid)} is already {'first' if step < 0 else 'last'}")
        return
    screen.perform(C.MoveInOrder(id=cid, position=place))


def end_fight(screen: FightHost) -> None:
    if screen.fight.state.ended:  # (it asked "End the fight?", then said the fight was already over)
        screen.refuse("End the fight: the fight is already over (u undoes its end)")
        return

    def answer(yes: bool | None) -> None:
        if yes:
            screen.perform(
                C.EndFight(),
                after=lambda: screen.notify(
                    "F7 shows its summary; L lets time pass; u undoes its end.", title="The fight is over"
                ),
            )

    ask(screen.app, ConfirmDialog("End the fight? (it stays saved; undo brings it back)"), answer)


def summary(screen: FightHost) -> None:
    """The fight's summary so far (F7; the replay's, from the live log): there was none after ctrl+e."""
    # imported on first use, with its charts (textual-plotext): a launch draws none (see screens/launch.py)
    from screens.summary import SummaryScreen
    from tracker.summary import summarize

    fight = screen.fight
    title = fight.state.title
    timeline = Timeline(fight.system, fight.entries)
    screen.app.push_screen(SummaryScreen(summarize(timeline, len(timeline)), fight.system.name, title))


def rest(screen: FightHost) -> None:
    """Let time pass (L): the rest form, for the marked combatants or everyone."""
    ask_for_marked(screen, forms.rest_form(context(screen)))


def close_fight(screen: FightHost) -> None:
    """Back to the start screen (the fight stays saved)."""
    screen.close()
