"""The fight screen's keys, declared once: the core's, and each system's own.

Every key is a priority binding of the fight screen, so it is handled the
moment it is read, in order (a dialog it opens is on screen before the next key
is read).  Which keys apply now is the screen's ``check_action``.

Quick harm is ``-`` (damage) and ``+`` (heal), the pair a GM reads as "HP down,
HP up"; adding a combatant moved from ``+`` to ``A`` (and Insert), removing one
from ``-`` to Delete only.
"""

from __future__ import annotations

import dataclasses

from textual.binding import Binding

from screens.guard import call
from tracker.commands import CommandSpec
from tracker.plugin import System


def _b(
    key: str,
    action: str,
    description: str,
    show: bool = False,
    display: str | None = None,
    tooltip: str = "",
) -> Binding:
    name = action.split("(")[0]
    return Binding(
        key, action, description, show=show, key_display=display, priority=True, tooltip=tooltip, id=f"fight.{name}"
    )


# shown in the footer (80 columns hold them all): the table loop first
CORE: list[Binding] = [
    _b("n", "next_turn", "Next", True, tooltip="End this turn, start the next"),
    _b("minus", "damage", "Dmg", True, "-", "Quick damage to the selected (or marked) combatants"),
    _b("plus", "heal", "Heal", True, "+", "Quick healing for the selected (or marked) combatants"),
    _b("x", "actions", "Act", True, tooltip="All actions of the system"),
    _b("C", "add_condition", "Cond", True, tooltip="Put a condition on the selected (or marked)"),
    _b("equals_sign", "adjust", "Adjust", True, "=", "GM adjust of any value of the selected"),
    _b("A,insert", "add", "Add", True, "A", "Add combatants"),
    _b("I", "roll_initiative", "Init", True, tooltip="Roll initiative (setup)"),
    _b("S", "start", "Start", True, tooltip="Start the fight (setup)"),
    _b("u,ctrl+z", "undo", "Undo", True, "u"),
    _b("U,ctrl+y", "redo", "Redo", True, "U"),
    _b("T", "toggle_dice", "Dice", True, tooltip="Dice rolled by the tracker, or typed in"),
    _b("L", "rest", "Rest", True, tooltip="Let time pass: rest and recover (before or after the fight)"),
    _b("question_mark,f1", "help", "Help", True, "?"),
    # in help and the palette
    _b("enter", "actions", "Actions for the selected"),
    _b("space", "toggle_mark", "Mark / unmark the selected", display="space"),
    _b("escape", "clear_marks", "Clear the marks", display="esc"),
    _b("R", "remove_condition", "Remove condition"),
    _b("O", "note", "Note"),
    _b("E", "set_initiative", "Enter initiative"),
    _b("I", "initiative_running", "Initiative in the running fight (newcomers; or the whole order next round)"),
    _b("Y", "why", "Why? The rules behind the log line (log focused) or the selected's standing"),
    _b("D", "delay", "Delay (hold the action)"),
    _b("W", "act_now", "Act now (a held combatant)"),
    _b("left_square_bracket", "move(-1)", "Move up in the order", display="["),
    _b("right_square_bracket", "move(1)", "Move down in the order", display="]"),
    _b("delete", "remove", "Remove from the fight", display="del"),
    _b("p", "resolve_prompt", "Resolve the prompt"),
    _b("P", "dismiss_prompt", "Settle the prompt by ruling"),
    _b("exclamation_mark", "list_prompts", "List the open prompts", display="!"),
    _b("F", "fold_fallen", "Fold the fallen to one line, or show them again"),
    _b("H", "toggle_hidden", "Hide from / show to the players"),
    _b("V", "view_options", "Players' view options"),
    _b("B", "serve", "Show the fight to the players' browsers (players' view)"),
    _b("N", "name_fight", "Name the fight"),
    _b("M", "save_preset", "Keep the selected in my presets (the library)"),
    _b("K", "manage_presets", "My presets: rename or delete one"),
    _b("f5", "save_party", "Save the PCs as a party"),
    _b("f6", "load_party", "Load a party"),
    _b("f7", "summary", "Fight summary (so far): turns, hits, harm by round, who fell"),
    _b("ctrl+e", "end_fight", "End the fight"),
    _b("ctrl+w", "close_fight", "Back to the start screen (the fight stays saved)", display="^w"),
]

# Keys a key bar draws at its end only where every key fits with them (a more important key is never dropped for
# one): binding id -> the bar's word.
#
# Ruling: Why? (Y) is the app's headline key, but its binding stays in the help and palette group: the fight
# screen's bar and the replay's show it from 110 columns in every system and phase, after "? Help" (at 80 the
# bars are full: the detail pane says "more: Y").  Test: tests/ui/test_why_key_shown.py.
SPARE: dict[str, str] = {"fight.why": "Why?", "replay.why": "Why?"}


def fight_tight(system: System) -> tuple[tuple[str, str], ...]:
    """The fight screen's bar where its keys do not fit (the log focused at 80 columns: "Tab/Esc Back to the table"
    before the keys cut the bar mid-word, "… U Re", and "? Help" went): the log's key, the turn's (or the setup's)
    and the fixes'; a key not offered now is left out.  Test:
    tests/ui/test_key_bar.py::test_the_bar_with_the_log_focused_is_whole_at_80_columns."""
    return (
        ("back", "Back to the table"),
        ("next_turn", "Next"),
        ("damage", "Dmg"),
        ("heal", "Heal"),
        ("add", "Add"),
        ("roll_initiative", initiative_words(system)[1]),
        ("start", "Start"),
        ("undo", "Undo"),
        ("redo", "Redo"),
        ("why", "Why?"),
        ("help", "Help"),
    )


# the command palette's names for the actions whose footer word is short
TITLES = {
    "next_turn": "Next turn",
    "damage": "Quick damage",
    "heal": "Quick heal",
    "actions": "Actions of the system",
    "add_condition": "Add condition",
    "adjust": "GM adjust",
    "add": "Add combatants",
    "roll_initiative": "Roll initiative",
    "start": "Start the fight",
    "toggle_dice": "Dice: rolled or typed in",
    "rest": "Let time pass (rest)",
}

SETUP_ONLY = frozenset({"roll_initiative", "start"})
PLAY_ONLY = frozenset({"next_turn", "delay", "act_now", "damage", "heal", "initiative_running"})
OUTSIDE_PLAY = frozenset({"rest"})  # before the start or after the end: during a fight time passes by turns


def out_of_phase(action: str, started: bool, ended: bool) -> str | None:
    """Why a phase key does nothing now (its phase is not this one), in the GM's words; None when it acts."""
    if action in SETUP_ONLY and started:
        return "the fight has started already"
    if action in PLAY_ONLY:
        return not_running(started, ended)
    if action in OUTSIDE_PLAY and started and not ended:
        return "before the fight starts or after it ends; during a fight, time passes by turns (ctrl+e ends it)"
    return None


def not_running(started: bool, ended: bool) -> str | None:
    """Why an action of the running fight does nothing now, in the GM's words; None while the fight runs."""
    if not started:
        return "the fight has not started (S starts it)"
    if ended:
        return "the fight has ended (u undoes its end)"
    return None


# keys the app, Textual or the list already use
RESERVED = frozenset({"q", "ctrl+q", "ctrl+p", "ctrl+t", "up", "down", "tab", "home", "end", "pageup", "pagedown"})


def taken() -> set[str]:
    keys = set(RESERVED)
    for b in CORE:
        keys.update(k.strip() for k in b.key.split(","))
    return keys


def system_specs(system: System) -> tuple[CommandSpec, ...]:
    return tuple(call(system.commands, default=(), what="its actions"))


def system_keys(system: System) -> dict[str, str]:
    """Key -> command name for the system's actions whose key is a free letter or digit."""
    used = taken()
    out: dict[str, str] = {}
    for spec in system_specs(system):
        key = (spec.key or "").strip()
        if key and key not in used and len(key) == 1 and key.isalnum():
            used.add(key)
            out[key] = spec.name
    return out


INITIATIVE_WORDS = ("roll initiative", "Init")  # the core's, for a plug-in that is no BaseSystem


def initiative_words(system: System) -> tuple[str, str]:
    """(what the setup header says ``I`` does, the key bar's word for it): the system's ``initiative_words``
    (checked when it registers), "roll initiative" and "Init" by default (tests/ui/test_keys_round3.py)."""
    says, word = getattr(system, "initiative_words", INITIATIVE_WORDS)
    return says, word


def rolls_initiative(system: System) -> bool:
    """Whether the system's book has initiative: its ``rolls_initiative`` (checked when it registers), True by
    default (tests/ui/test_no_initiative_words.py)."""
    return getattr(system, "rolls_initiative", True) is not False


ORDER_BY_NUMBERS = "Set the order by numbers (higher first)"  # E, in a book with no initiative


def core_bindings(system: System) -> tuple[Binding, ...]:
    """The core's keys, ``I`` in the system's words (the key bar, the help and the palette say them); in a book
    with no initiative, ``E`` sets the order by numbers (the screen binds them all: see :func:`offered`)."""
    says, word = initiative_words(system)
    said = f"{says[:1].upper()}{says[1:]} (setup)"
    rolls = rolls_initiative(system)
    out = []
    for b in CORE:
        if b.action == "roll_initiative" and (says, word) != INITIATIVE_WORDS:
            b = dataclasses.replace(b, description=word, tooltip=said)
        elif b.action == "set_initiative" and not rolls:
            b = dataclasses.replace(b, description=ORDER_BY_NUMBERS)
        out.append(b)
    return tuple(out)


def offered(system: System) -> tuple[Binding, ...]:
    """The core's keys the help (?) and the palette list: :func:`core_bindings`, less the running fight's ``I`` in a
    book with no initiative.

    Ruling: there it always refuses (newcomers join the order's end, and no order is rolled again), so it is not
    offered; pressed, it still says why ("this book has no initiative: the order is the GM's …"), and ``[`` ``]``
    and ``E`` (the order by numbers) are listed (tests/ui/test_no_initiative_words.py)."""
    shown = core_bindings(system)
    if rolls_initiative(system):
        return shown
    return tuple(b for b in shown if b.action != "initiative_running")


def title(system: System, action: str, binding: Binding) -> str:
    """A core action's title in the palette: "Roll initiative", or what the system's ``I`` does; "Enter
    initiative", or in a book with no initiative "Set the order by numbers (higher first)"."""
    if action == "roll_initiative":
        says = initiative_words(system)[0]
        return f"{says[:1].upper()}{says[1:]}"
    if action == "set_initiative" and not rolls_initiative(system):
        return ORDER_BY_NUMBERS
    return TITLES.get(action, binding.description)


def system_bindings(system: System) -> list[Binding]:
    """The system's own keys; and the core's ``I`` again, in the system's words, when it has its own."""
    titles = {s.name: s.title for s in system_specs(system)}
    out = [
        Binding(key, f"run_command({name!r})", titles[name], show=False, priority=True, id=f"system.{name}")
        for key, name in system_keys(system).items()
    ]
    if initiative_words(system) != INITIATIVE_WORDS:
        # a subclass's bindings of a key replace all of the base's for that key (in its place on the key bar)
        out += [b for b in core_bindings(system) if b.key == "I"]
    return out
