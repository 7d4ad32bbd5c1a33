"""Help (?) and the command palette (ctrl+p): every key and every action of the system, listed once."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from textual.binding import Binding

from screens import keys, logic
from screens.actions.commands import run_spec
from screens.dialogs.base import ask
from screens.dialogs.help import HelpDialog
from screens.guard import call
from screens.host import FightHost
from tracker import commands as C
from tracker.text import visible_lines

MORE_KEYS = [
    "  ↑ ↓    Select a combatant (PgUp/PgDn a page, Home/End the first or the last; a click selects,",
    "         a click on the selected one: its actions)",
    "  tab    Log (then PgUp/PgDn, Home/End scroll it; tab again: the list)",
    "  ctrl+p Command palette",
    "  ctrl+t Light/dark theme",
    "  q      Quit (the fight is already saved)",
]


def help(screen: FightHost) -> None:
    ask(screen.app, HelpDialog(f"Help: {screen.system.name}", help_text(screen)))


def help_text(screen: FightHost) -> str:
    """Every key, the system's actions and the system's own help."""
    system = screen.system
    lines = []
    for b in keys.offered(system):
        shown = b.key_display or b.key.split(",")[0]
        lines.append(f"  {shown:<6} {b.description}" + (f" — {b.tooltip}" if b.tooltip else ""))
    for key, name in screen.system_keys.items():
        spec = logic.find_spec(system, name)
        lines.append(f"  {key:<6} {spec.title if spec else name}")
    actions = []
    for spec in call(logic.specs, system, default=C.CORE_SPECS, what="its actions"):
        actions.append(f"  {spec.title}: {spec.help}" if spec.help else f"  {spec.title}")
    rules = call(system.help, default=system.summary, what="its help")
    saved = f"Every action is saved as it happens to {screen.save_path}" if screen.save_path else ""
    return "\n".join(
        [saved, "", "Keys", *lines, *MORE_KEYS, "", f"Actions in {system.name}", *actions, "", visible_lines(rules)]
    )


def palette_entries(screen: FightHost) -> list[tuple[str, str, Callable[[], Any]]]:
    """Every action once: the screen's keys, then the system's actions that have no key of their own."""
    out: list[tuple[str, str, Callable[[], Any]]] = []
    seen: set[str] = set()
    for b in keys.offered(screen.system):
        if b.action in seen:
            continue
        seen.add(b.action)
        name, _, arg = b.action.partition("(")
        method = getattr(screen, f"action_{name}")
        call_it = partial(method, int(arg.rstrip(")"))) if arg else method
        title = keys.title(screen.system, name, b)
        out.append((title, _key(b), partial(_in_phase, screen, name, title, call_it)))
    core = {s.name for s in C.CORE_SPECS}
    for spec in call(logic.specs, screen.system, default=(), what="its actions"):
        if spec.name in core:
            continue
        key = next((k for k, n in screen.system_keys.items() if n == spec.name), "")
        out.append(
            (spec.title, f"key {key}" if key else (spec.help or screen.system.name), partial(run_spec, screen, spec))
        )
    return out


def _in_phase(screen: FightHost, action: str, title: str, call_it: Callable[[], Any]) -> None:
    """A palette entry does what its key does: a key of another phase of the fight says when it acts (the
    palette called the action itself, past the screen's check: quick damage was dealt during the setup)."""
    s = screen.fight.state
    why_not = keys.out_of_phase(action, s.started, s.ended)
    if why_not is not None:
        screen.refuse(f"{title}: {why_not}")
        return
    call_it()


def _key(binding: Binding) -> str:
    return f"key {binding.key_display or binding.key.split(',')[0]}"
