"""The system's own actions (their keys, the actions list on x) and the prompts they resolve."""

from __future__ import annotations

from typing import Any

from screens import forms, keys, logic
from screens.actions.base import ask_command, ask_for_marked, context
from screens.dialogs.base import Dialog, ask
from screens.dialogs.help import HelpDialog
from screens.dialogs.pick import PickDialog
from screens.guard import call
from screens.host import FightHost
from tracker import commands as C
from tracker.text import visible


def run_spec(screen: FightHost, spec: C.CommandSpec, values: dict[str, Any] | None = None) -> None:
    """Do the action: at once when it asks nothing, else through its form. An action of the running fight only
    is refused before its form opens when the fight is not running (the form opened after the fight's end, and
    refused what the GM filled in)."""
    why_not = _not_now(screen, spec)
    if why_not:
        screen.refuse(f"{spec.title}: {why_not}")
        return
    if not spec.params:
        screen.perform(spec.make({}))
        return
    _actor, subject = logic.roles(spec, forms.turn_commands(screen.system))
    ask_for_marked(screen, spec_dialog(screen, spec, values), subject)


def _not_now(screen: FightHost, spec: C.CommandSpec) -> str | None:
    s = screen.fight.state
    return keys.not_running(s.started, s.ended) if spec.in_fight else None


def spec_dialog(screen: FightHost, spec: C.CommandSpec, values: dict[str, Any] | None = None) -> Dialog[Any]:
    key = next((k for k, n in screen.system_keys.items() if n == spec.name), "")
    return forms.spec_form(context(screen), spec, values, key)


def run_command(screen: FightHost, name: str) -> None:
    """The system's action ``name`` (its key, or picked from the list)."""
    spec = logic.find_spec(screen.system, name)
    if spec is None:
        screen.refuse(f"{screen.system.name} has no action '{name}'")
        return
    run_spec(screen, spec)


def actions(screen: FightHost) -> None:
    """Every action of the system, with its key, to pick from (x)."""

    def chosen(name: str | None) -> None:
        if name:
            run_command(screen, name)

    ask(screen.app, actions_dialog(screen), chosen)


def actions_dialog(screen: FightHost) -> Dialog[str]:
    system = screen.system
    options = []
    for spec in call(logic.specs, system, default=C.CORE_SPECS, what="its actions"):
        key = next((k for k, n in screen.system_keys.items() if n == spec.name), None)
        label = spec.title + (f" [{key}]" if key else "") + (f" — {spec.help}" if spec.help else "")
        options.append((label, spec.name))
    who = screen.selected
    title = f"Actions ({system.name})" + (f" · selected: {visible(screen.fight.state.name(who))}" if who else "")
    return PickDialog(title, options)


def resolve_prompt(screen: FightHost) -> None:
    """The first open prompt, resolved by the action it names (its form filled in from the prompt)."""
    s = screen.fight.state
    if not s.prompts:
        screen.refuse("there is no open prompt")
        return
    prompt = s.prompts[0]
    spec = logic.find_spec(screen.system, prompt.command)
    if spec is None:
        screen.refuse(f"no action resolves '{prompt.text}' here: settle it by ruling with P")
        return
    run_spec(screen, spec, logic.prompt_prefill(spec, s, prompt))


def list_prompts(screen: FightHost) -> None:
    """All the open prompts (!), the first one first: p resolves it, P settles it by ruling."""
    prompts = screen.fight.state.prompts
    if not prompts:
        screen.refuse("there is no open prompt")
        return
    lines = [f"{n}. {visible(p.text)}" for n, p in enumerate(prompts, 1)]
    lines += ["", "p resolves the first one, P settles it by ruling."]
    ask(screen.app, HelpDialog(f"Open prompts ({len(prompts)})", "\n".join(lines)))


def dismiss_prompt(screen: FightHost) -> None:
    """The first open prompt, settled by the GM's ruling."""
    if not screen.fight.state.prompts:
        screen.refuse("there is no open prompt")
        return
    ask_command(screen, forms.ruling_form(context(screen)))
