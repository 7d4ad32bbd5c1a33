"""A plug-in checked as it is registered: what can be told wrong about it before a fight is played.

:func:`check_system` raises :class:`PluginError` listing every problem it finds.
What the plug-in declares is checked whenever :mod:`tracker.registry` loads a
system (opening a fight, listing one without ``ABOUT``):

- every public method or attribute of the plug-in is a hook of
  :class:`~tracker.plugin.System` (or ``data``, ``about``, ``fight_only``,
  ``prompt_data`` of :class:`~tracker.plugin.BaseSystem`): a misspelt hook is
  refused by name, with the closest hook ("standings is not a hook; did you
  mean standing?"); a helper of the plug-in's own is named with a leading
  underscore;
- every event class in ``event_types`` says its own ``TYPE`` tag, prefixed by
  the system's id (``"toy.hit_rolled"``), and no two say the same;
- the quick damage and heal forms (``harm_params``) start with ``amount`` and
  add only what :class:`~tracker.commands.Damage` has (``temporary``);
- ``prompt_data`` names commands the system offers.

What needs the plug-in to make things is checked too by
:func:`tracker.registry.register` and by :func:`tracker.testing.check_plugin`
(what a plug-in's own tests run), not at every launch (``made=True``):

- every command form (``commands()``) asks only for fields of the command it
  builds, and leaves out none the command needs; its ``actor`` and ``subject``
  name fields of the form;
- every value ``adjustable`` offers for a sample combatant (the first preset
  of each kind, or a sheet of sample values) is one ``adjust`` can set: the
  default ``adjust`` sets a field of the combatant's record, so each name must
  be one.

Prompts are made while a fight is played, so their parameters are checked as
they are raised (:func:`check_prompts`, called by the engine for every
decision): a prompt that names a command gives only fields of that command's
form, or values its system lists in ``prompt_data``.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

import attrs

from tracker.commands import BOOL, CHOICE, INT, CommandSpec, Damage, Heal, Param
from tracker.dice import SeededRoller
from tracker.errors import Refused, TrackerError
from tracker.events import Event, PromptRaised
from tracker.model import NPC, PC, Combatant, FightState, Prompt
from tracker.plugin import BaseSystem, System

__all__ = ["HOOKS", "PluginError", "check_prompts", "check_system", "sample_sheet", "sample_value"]


class PluginError(TrackerError):
    """A plug-in that breaks the protocol: the message names the system and every problem found."""


def _public(names: Iterable[str]) -> set[str]:
    return {n for n in names if not n.startswith("_")}


HOOKS: frozenset[str] = frozenset(_public(dir(System)) | _public(dir(BaseSystem)))
"""Every public name a plug-in may have: the hooks of :class:`~tracker.plugin.System` and ``BaseSystem``'s
``data``, ``about`` and ``fight_only``."""

# classes whose members are the protocol's own, not the plug-in's
_NOT_THE_PLUGINS = (BaseSystem, System, Protocol, object)


def check_system(system: System, *, made: bool = True) -> None:
    """Raise :class:`PluginError` naming every problem found in ``system`` (nothing when it passes).

    ``made=False`` checks only what the plug-in declares (what loading it checks): not its command forms
    and sample combatants, which it must make to be checked."""
    problems = [*_hooks(system), *_event_tags(system), *_harm_forms(system), *_prompt_data(system)]
    if made:
        problems += [*_command_forms(system), *_adjust_fields(system)]
    if problems:
        raise PluginError(f"the system '{system.id}' breaks the plug-in protocol: " + "; ".join(problems))


def check_prompts(system: System, events: Sequence[Event]) -> None:
    """Raise :class:`PluginError` when a prompt raised among ``events`` gives a field its command has not."""
    specs: dict[str, CommandSpec] | None = None
    for event in events:
        if not isinstance(event, PromptRaised) or event.prompt.command is None:
            continue
        if specs is None:
            specs = {spec.name: spec for spec in system.commands()}
        problem = _prompt_problem(event.prompt, specs, _prompt_data_of(system))
        if problem:
            raise PluginError(f"the system '{system.id}' raised a broken prompt: {problem}")


# -- hooks ---------------------------------------------------------------------------------------------------------


def _hooks(system: System) -> list[str]:
    names: set[str] = set()
    for cls in type(system).__mro__:
        if cls in _NOT_THE_PLUGINS or cls.__module__ == "typing":
            continue
        names |= _public(vars(cls))
    names |= _public(getattr(system, "__dict__", {}))
    return [_not_a_hook(name) for name in sorted(names - HOOKS)]


def _not_a_hook(name: str) -> str:
    close = difflib.get_close_matches(name, HOOKS, n=1)
    if close:
        return f"{name} is not a hook; did you mean {close[0]}?"
    return f"{name} is not a hook (a helper of the plug-in's own is named with a leading underscore: _{name})"


# -- event tags ------------------------------------------------------------------------------------------------------


def _event_tags(system: System) -> list[str]:
    problems: list[str] = []
    prefix = f"{system.id}."
    seen: dict[str, str] = {}
    for cls in system.event_types:
        if not (isinstance(cls, type) and issubclass(cls, Event)):
            problems.append(f"event_types holds {cls!r}, which is no Event class")
            continue
        tag = cls.__dict__.get("TYPE")
        if not isinstance(tag, str):
            problems.append(f"the event {cls.__name__} says no TYPE tag of its own (give it TYPE = '{prefix}...')")
            continue
        if not tag.startswith(prefix) or tag == prefix:
            problems.append(f"the event {cls.__name__}'s tag '{tag}' does not start with the system's id ('{prefix}')")
        if tag in seen:
            problems.append(f"the events {seen[tag]} and {cls.__name__} have the same tag '{tag}'")
        seen[tag] = cls.__name__
    return problems


# -- command forms ---------------------------------------------------------------------------------------------------


def _init_names(cls: type) -> tuple[set[str], set[str]]:
    """The keywords an attrs class takes, and those of them it needs (no default)."""
    fields = [f for f in attrs.fields(cls) if f.init]
    return {f.alias for f in fields}, {f.alias for f in fields if f.default is attrs.NOTHING}


def _suggest(name: str, names: Iterable[str]) -> str:
    """ " (did you mean X?)": a name ``name`` begins ("str": strength), else the closest."""
    names = sorted(names)
    begun = [n for n in names if n.startswith(name) and n != name]
    close = begun[:1] or difflib.get_close_matches(name, names, n=1)
    return f" (did you mean {close[0]}?)" if close else ""


def _command_forms(system: System) -> list[str]:
    problems: list[str] = []
    keys: dict[str, str] = {}
    for spec in system.commands():
        if not isinstance(spec, CommandSpec):
            problems.append(f"commands() holds {spec!r}, which is no CommandSpec")
            continue
        try:
            params = spec.params
        except TypeError as e:  # tracker.kit.spec: a field it cannot ask for, or fields=... naming no field
            problems.append(f"the command {spec.name}'s form: {e}")
            continue
        if spec.key is not None and not (len(spec.key) == 1 and spec.key.isascii() and spec.key.isalnum()):
            problems.append(f"the command {spec.name}'s key '{spec.key}' is no single letter or digit")
        elif spec.key is not None and spec.key in keys:
            problems.append(f"the commands {keys[spec.key]} and {spec.name} have the same key '{spec.key}'")
        elif spec.key is not None:
            keys[spec.key] = spec.name
        asked = [p.name for p in params]
        for p in params:
            if p.choice_labels and len(p.choice_labels) != len(p.choices):
                problems.append(
                    f"the command {spec.name}'s field '{p.name}' has {len(p.choice_labels)} choice labels"
                    f" for {len(p.choices)} choices"
                )
        if spec.actor is not None and spec.actor not in asked:
            problems.append(
                f"the command {spec.name}'s actor '{spec.actor}' is no field of its form{_suggest(spec.actor, asked)}"
            )
        if spec.subject is not None and spec.subject not in asked:
            problems.append(
                f"the command {spec.name}'s subject '{spec.subject}' is no field of its form{_suggest(spec.subject, asked)}"
            )
        if not (isinstance(spec.build, type) and attrs.has(spec.build)):
            continue  # a function builds it: what it takes is its own affair
        takes, needs = _init_names(spec.build)
        for name in asked:
            if name not in takes:
                problems.append(
                    f"the command {spec.name}'s form asks for '{name}', which {spec.build.__name__} has no field for"
                    + _suggest(name, takes)
                )
        missing = sorted(needs - set(asked))
        if missing:
            problems.append(
                f"the command {spec.name}'s form leaves out {', '.join(missing)}, which {spec.build.__name__} needs"
            )
    return problems


def _harm_forms(system: System) -> list[str]:
    problems: list[str] = []
    for heal, command in ((False, Damage), (True, Heal)):
        names = [p.name for p in system.harm_params(heal)]
        what = "heal" if heal else "damage"
        if not names or names[0] != "amount":
            problems.append(f"the quick {what} form (harm_params) must start with 'amount', not {names[:1]}")
        takes = _init_names(command)[0] - {"targets", "note", "one_roll"}  # (the core's own: the form adds them)
        for name in names:
            if name not in takes:
                problems.append(
                    f"the quick {what} form (harm_params) asks for '{name}', which {command.__name__} has no field for"
                    f" (it may add only {', '.join(sorted(takes - {'amount'})) or 'nothing'})"
                )
    return problems


# -- GM adjust -------------------------------------------------------------------------------------------------------


def sample_value(p: Param) -> str:
    """A value, as the GM would type it, that a sheet field without a default accepts."""
    if p.kind == INT:
        return str(p.min if p.min is not None else 1)
    if p.kind == CHOICE and p.choices:
        return p.choices[0]
    if p.kind == BOOL:
        return "no"
    return "x"


def sample_sheet(system: System, kind: str) -> dict[str, str]:
    """A sheet of ``kind`` ("pc" or "npc") with a sample value for each field that needs one."""
    return {p.name: sample_value(p) for p in system.sheet_fields(kind) if p.default is None and p.required}


def _sample_sheets(system: System, kind: str) -> Iterable[tuple[str, Mapping[str, Any], bool]]:
    """(what it is, sheet, the plug-in's own): the first preset of ``kind``, else sample values of its fields."""
    for preset in system.presets():
        if preset.kind == kind:
            yield f"its preset '{preset.id}'", preset.sheet, True
            return
    yield f"a sample {kind.upper()}", sample_sheet(system, kind), False


def _adjust_fields(system: System) -> list[str]:
    problems: list[str] = []
    state = FightState(system=system.id, data=system.initial_data())
    for kind in (PC, NPC):
        for what, sheet, own in _sample_sheets(system, kind):
            try:
                checked, _rolls = system.new_combatant(state, kind, sheet, SeededRoller(0))
                c = Combatant(id="c1", name="Sample", kind=kind, data=system.make_data(kind, checked))
            except Refused as e:
                if own:
                    problems.append(f"{what} is refused: {e}")
                continue
            for p in system.adjustable(state, c):
                try:
                    value = system.check_adjust(
                        state,
                        c,
                        p.name,
                        getattr(c.data, p.name, p.default if p.default is not None else sample_value(p)),
                    )
                    system.adjust(state, c, p.name, value)
                except Refused:
                    continue  # the rules refuse the sample value: not the plug-in's fault
                except (TypeError, AttributeError) as e:
                    record = type(c.data).__name__
                    fields = _init_names(type(c.data))[0] if attrs.has(type(c.data)) else set()
                    problem = (
                        f"the GM adjust field '{p.name}' is no field of {record} that adjust can set"
                        f"{_suggest(p.name, fields)}: {e}"
                    )
                    if problem not in problems:  # (said once, not once for each sample sheet)
                        problems.append(problem)
    return problems


def _prompt_data_of(system: System) -> Mapping[str, tuple[str, ...]]:
    """``BaseSystem.prompt_data`` (like ``fight_only``, not required of a plug-in that is no BaseSystem)."""
    data: Mapping[str, tuple[str, ...]] = getattr(system, "prompt_data", {})
    return data


def _prompt_data(system: System) -> list[str]:
    offered = [spec.name for spec in system.commands()]
    problems = [
        f"prompt_data names the command '{name}', which the system does not offer{_suggest(name, offered)}"
        for name in _prompt_data_of(system)
        if name not in offered
    ]
    for name, kept in _prompt_data_of(system).items():
        if not isinstance(kept, tuple | list) or not all(isinstance(k, str) for k in kept):
            # ("critical") is a string, not a tuple: every part of it passed for a name
            problems.append(f"prompt_data['{name}'] must be a tuple of names, like ('critical',), not {kept!r}")
    return problems


def _prompt_problem(prompt: Prompt, specs: Mapping[str, CommandSpec], data: Mapping[str, tuple[str, ...]]) -> str:
    spec = specs.get(prompt.command or "")
    if spec is None:
        return f"the prompt '{prompt.kind}' makes the command '{prompt.command}', which the system does not offer" + (
            _suggest(prompt.command or "", specs)
        )
    asked = [p.name for p in spec.params]
    kept = data.get(spec.name, ())
    kept = (kept,) if isinstance(kept, str) else kept
    wrong = [name for name in prompt.params if name not in asked and name not in kept]
    if not wrong:
        return ""
    return (
        f"the prompt '{prompt.kind}' gives {', '.join(repr(n) for n in wrong)}, which the command {spec.name} has no"
        f" field for{_suggest(wrong[0], asked)} (values the rules read back are listed in prompt_data)"
    )
