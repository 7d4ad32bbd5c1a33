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
  the system's id (``"toy.hit_rolled"``), and no two say the same; its
  ``GM_WORDS`` name fields of it;
- the quick damage and heal forms (``harm_params``) start with ``amount`` and
  add only what :class:`~tracker.commands.Damage` has (``temporary``);
- ``prompt_data`` names commands the system offers; it, ``fight_only`` and
  ``rest_qualities`` give tuples of names (``"short rest"`` is no tuple);
- ``turn_commands`` holds command classes the system's forms build, not their
  names;
- a plug-in with ``about`` of its id says the ``name``, ``version`` and
  ``summary`` that ``about`` says: the start screen lists ``ABOUT``.

What needs the plug-in to make things is checked too by
:func:`tracker.registry.register` and by :func:`tracker.testing.check_plugin`
(what a plug-in's own tests run), not at every launch (``made=True``):

- every command form (``commands()``) asks only for fields of the command it
  builds, and leaves out none the command needs; its ``actor`` and ``subject``
  name fields of the form;
- every value ``adjustable`` offers for a sample combatant (the first preset
  of each kind, or a sheet of sample values) is one ``adjust`` can set: the
  default ``adjust`` sets a field of the combatant's record, so each name must
  be one; each ``fight_only`` name is one ``adjustable`` offers (or a field of
  the record);
- every field of an event, a record (``make_data``, ``initial_data``) and a
  command a form builds is of a type a fight file reads back
  (:func:`tracker.shapes.unreadable`: not ``int | str``, ``object``, a set);
- every method hook the plug-in overrides is something to call, taking what
  the core gives it (:func:`_hook_signatures`).

:func:`tracker.testing.check_plugin` also checks the rules table
(:func:`rule_problems`): no id twice, one-line statements, sources in the
documented form (not the registry: a system registered under another id, as
tests do, keeps its sources).

Prompts are made while a fight is played, so their parameters are checked as
they are raised (:func:`check_prompts`, called by the engine for every
decision): a prompt that names a command gives only fields of that command's
form, or values its system lists in ``prompt_data``.
"""

from __future__ import annotations

import difflib
import inspect
import re
import typing
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

import attrs

from tracker.commands import BOOL, CHOICE, INT, CommandSpec, Damage, Heal, Param
from tracker.dice import SeededRoller
from tracker.errors import Refused, TrackerError
from tracker.events import Event, PromptRaised
from tracker.model import NPC, PC, Combatant, FightState, Prompt
from tracker.plugin import About, BaseSystem, System
from tracker.reasons import Rule
from tracker.shapes import type_name, unreadable

__all__ = [
    "HOOKS",
    "PLACE",
    "PluginError",
    "check_prompts",
    "check_system",
    "place_problem",
    "rule_problems",
    "sample_sheet",
    "sample_value",
    "source_problem",
]


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
    problems += [*_names_given(system), *_turn_commands(system), *_about(system)]
    if made:
        problems += [*_hook_signatures(system)]
        problems += [*_field_types(system), *_command_forms(system), *_adjust_fields(system)]
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
    return [_not_a_hook(name) for name in sorted(_overridden(system) - HOOKS)]


def _not_a_hook(name: str) -> str:
    close = difflib.get_close_matches(name, HOOKS, n=1)
    if close:
        return f"{name} is not a hook; did you mean {close[0]}?"
    return f"{name} is not a hook (a helper of the plug-in's own is named with a leading underscore: _{name})"


def _about(system: System) -> list[str]:
    """Ruling: a plug-in whose ``about`` has its id but which says another ``name``, ``version`` or ``summary`` (a
    subclass setting ``name = "Other"`` beside the ``about`` it inherits) is refused by name: the start screen
    lists the ``ABOUT`` it was made from, and the fight's header and titles would say the other. A class with
    another id is another system, whose inherited ``about`` lists nothing (the registry lists a system by its
    entry point's ``ABOUT``, of that entry point's id; tests re-id the toy so)
    (test_a_name_or_version_other_than_about_says_is_refused)."""
    about = getattr(system, "about", None)
    if not isinstance(about, About) or about.id != system.id:
        return []
    return [
        f"{attr} is {getattr(system, attr, None)!r} but about says {getattr(about, attr)!r}"
        f" (the start screen lists about: set it in ABOUT only)"
        for attr in ("name", "version", "summary")
        if getattr(system, attr, None) != getattr(about, attr)
    ]


def _hook_signatures(system: System) -> list[str]:
    """Ruling: a method hook the plug-in overrides is something to call, and it takes what the core gives it, by
    position (the core calls every hook so): as many parameters as the protocol's, their names free (bnb names
    the combatant ``c``); more only with a default, or ``*args``/``**kwargs``. ``status = "HP"`` or
    ``def status(self, c)`` is refused by name, not at the first row drawn
    (test_a_hook_overridden_with_the_wrong_parameters_or_not_callable_is_refused,
    test_a_hook_taking_more_with_defaults_or_star_args_passes)."""
    problems: list[str] = []
    for name in sorted(_overridden(system) & HOOKS):
        owner, expected = _protocol_method(name)
        if expected is None:
            continue  # an attribute hook (id, event_types, fight_only…)
        wanted = list(inspect.signature(expected).parameters)[1:]  # (self)
        shown = f"{name}({', '.join(wanted)})"
        given = getattr(system, name, None)
        if not callable(given):
            problems.append(f"{name} is a hook to call, {shown}, as {owner}.{name} is; this one is {given!r}")
            continue
        try:
            signature = inspect.signature(given)
        except (TypeError, ValueError):
            continue  # (a callable whose parameters cannot be read: not told)
        try:
            signature.bind(*wanted)
        except TypeError:
            problems.append(
                f"{name} takes ({', '.join(wanted)}), as {owner}.{name} does; this one takes ({_parameters(signature)})"
            )
    return problems


def _overridden(system: System) -> set[str]:
    """The public names the plug-in's own classes (not the protocol's) and the instance itself set."""
    names: set[str] = set()
    for cls in type(system).__mro__:
        if cls in _NOT_THE_PLUGINS or cls.__module__ == "typing":
            continue
        names |= _public(vars(cls))
    return names | _public(getattr(system, "__dict__", {}))


def _protocol_method(name: str) -> tuple[str, Any]:
    """(the class, the function) the protocol declares the method hook ``name`` with: ``System``'s, else
    ``BaseSystem``'s (``data``, ``rest``); (``""``, None) for an attribute hook."""
    for owner in (System, BaseSystem):
        fn = inspect.getattr_static(owner, name, None)
        if inspect.isfunction(fn):
            return owner.__name__, fn
    return "", None


def _parameters(signature: inspect.Signature) -> str:
    """ "c", "state, c, *rest, extra=…": the names, without their annotations."""
    shown = []
    for p in signature.parameters.values():
        star = "*" if p.kind == p.VAR_POSITIONAL else "**" if p.kind == p.VAR_KEYWORD else ""
        shown.append(star + p.name + ("=…" if p.default is not p.empty else ""))
    return ", ".join(shown)


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
            problems.append(f"the event {cls.__name__} says no TYPE tag of its own (give it TYPE = '{prefix}<name>')")
            continue
        if not tag.startswith(prefix) or tag == prefix:
            problems.append(f"the event {cls.__name__}'s tag '{tag}' does not start with the system's id ('{prefix}')")
        if tag in seen:
            problems.append(f"the events {seen[tag]} and {cls.__name__} have the same tag '{tag}'")
        seen[tag] = cls.__name__
        problems += _gm_words(cls)
    return problems


def _gm_words(cls: type[Event]) -> list[str]:
    """``GM_WORDS`` names text fields of the event: the players' view makes the event with them empty, so a name
    that is no field raised TypeError there and the line was dropped."""
    words = cls.GM_WORDS
    if not _names(words):
        return [
            f"the event {cls.__name__}'s GM_WORDS must be a tuple of its field names, like ('note',), not {words!r}"
        ]
    fields = _init_names(cls)[0] if attrs.has(cls) else set()
    return [
        f"the event {cls.__name__}'s GM_WORDS names '{word}', which is no field of it{_suggest(word, fields)}"
        for word in words
        if word not in fields
    ]


def _names(value: Any) -> bool:
    """A tuple (or list) of texts: ``("critical")`` is a text, and every letter of it passed for a name."""
    return isinstance(value, tuple | list) and all(isinstance(v, str) for v in value)


# -- what the plug-in names: fight_only, rest_qualities, initiative_words (rolls_initiative), turn_commands --------


def _names_given(system: System) -> list[str]:
    problems = []
    for hook, like in (("fight_only", "('acted',)"), ("rest_qualities", "('short rest', 'long rest')")):
        value = getattr(system, hook, ())
        if not _names(value):
            problems.append(f"{hook} must be a tuple of names, like {like}, not {value!r}")
    words = getattr(system, "initiative_words", ("roll initiative", "Init"))
    if not (isinstance(words, tuple) and len(words) == 2 and _names(words) and all(w.strip() for w in words)):
        problems.append(f"initiative_words must be two words to show, like ('set the order', 'Order'), not {words!r}")
    rolls = getattr(system, "rolls_initiative", True)
    if not isinstance(rolls, bool):
        problems.append(f"rolls_initiative must be True or False (False: the book has no initiative), not {rolls!r}")
    return problems


def _turn_commands(system: System) -> list[str]:
    """Each a command class the system's forms build (or a class of theirs): the engine checks a command with
    ``isinstance`` against them, and a name ("attack") made every command of the system raise TypeError."""
    given = getattr(system, "turn_commands", ())
    specs = [spec for spec in system.commands() if isinstance(spec, CommandSpec)]
    built = [spec.build for spec in specs if isinstance(spec.build, type)]
    if not isinstance(given, tuple | list):
        return [f"turn_commands must be a tuple of command classes, like ({_class_names(built[:1])},), not {given!r}"]
    problems = []
    for item in given:
        if not isinstance(item, type):
            named = [spec.build for spec in specs if spec.name == item and isinstance(spec.build, type)]
            problems.append(f"turn_commands must be command classes ({_class_names(named or built[:1])}), not {item!r}")
        elif len(built) == len(specs) and not any(issubclass(cls, item) for cls in built):
            problems.append(
                f"turn_commands holds {item.__name__}, which no command form of the system builds"
                + _suggest(item.__name__, [cls.__name__ for cls in built])
            )
    return problems


def _class_names(classes: Sequence[Any]) -> str:
    return ", ".join(getattr(cls, "__name__", repr(cls)) for cls in classes) or "Attack"


# -- field types: what a fight file reads back -------------------------------------------------------------------


def _field_types(system: System) -> list[str]:
    """Every field of an event, of the system's records (what ``make_data`` and ``initial_data`` return, kept in
    checkpoints) and of the commands its forms build (their values go into its events) is of a type a fight file
    reads back (:func:`tracker.shapes.unreadable`).  An ``int | str`` field was written, and the fight could not
    be opened again from that line on."""
    problems: list[str] = []
    for cls in system.event_types:
        if isinstance(cls, type) and attrs.has(cls):
            problems += _unreadable_fields(f"the event {cls.__name__}", cls)
    for method in ("make_data", "initial_data"):
        record = _returned(system, method)
        if record is not None:
            problems += _unreadable_fields(f"the record {record.__name__}", record)
    for spec in system.commands():
        build = getattr(spec, "build", None)
        if isinstance(build, type) and attrs.has(build):
            problems += _unreadable_fields(f"the command {build.__name__}", build)
    return list(dict.fromkeys(problems))  # (a command built by two forms: once)


def _unreadable_fields(what: str, cls: type) -> list[str]:
    try:
        fields = attrs.fields(attrs.resolve_types(cls))
    except Exception as e:  # an annotation naming what the class's module does not define
        return [f"{what}'s field types cannot be resolved ({type(e).__name__}: {e})"]
    problems = []
    for f in fields:
        why = unreadable(f.type)
        if why:
            problems.append(
                f"{what}'s field {f.name} ({type_name(f.type)}) cannot be read back from a fight file: {why}"
            )
    return problems


def _returned(system: System, method: str) -> type | None:
    """The attrs class a hook says it returns (as ``saves.format`` reads it for checkpoints), or None."""
    fn = getattr(type(system), method, None)
    try:
        returned = typing.get_type_hints(fn).get("return") if fn is not None else None
    except Exception:
        return None
    return returned if isinstance(returned, type) and attrs.has(returned) else None


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
    """Ruling: the one ``harm_params(heal)`` of a plug-in makes both forms, so a name both refuse is said once,
    naming both, and what each takes is said as it is ("Heal takes only amount", not "it may add only
    nothing"): test_a_quick_harm_form_that_both_refuse_is_said_once."""
    starts: dict[str, list[type]] = {}  # what a form starts with, when not amount -> the forms that do
    wrong: dict[str, list[type]] = {}  # a name asked for -> the commands without a field of that name
    for heal, command in ((False, Damage), (True, Heal)):
        names = [p.name for p in system.harm_params(heal)]
        if not names or names[0] != "amount":
            starts.setdefault(repr(names[:1]), []).append(command)
        takes = _init_names(command)[0] - {"targets", "note", "one_roll"}  # (the core's own: the form adds them)
        for name in names:
            if name not in takes and command not in wrong.setdefault(name, []):
                wrong[name].append(command)
    problems = [
        f"the quick {_harm_forms_named(commands)} (harm_params) must start with 'amount', not {first}"
        for first, commands in starts.items()
    ]
    for name, commands in wrong.items():
        if commands:
            several = len(commands) > 1
            has = (
                f"neither {' nor '.join(c.__name__ for c in commands)} has a"
                if several
                else f"{commands[0].__name__} has no"
            )
            problems.append(
                f"the quick {_harm_forms_named(commands)} (harm_params) {'ask' if several else 'asks'}"
                f" for '{name}', which {has} field for ({'; '.join(_harm_takes(c) for c in commands)})"
            )
    return problems


def _harm_forms_named(commands: Sequence[type]) -> str:
    """ "damage form", "heal form", "damage and heal forms"."""
    return " and ".join(_HARM_FORM[c] for c in commands) + (" forms" if len(commands) > 1 else " form")


_HARM_FORM: dict[type, str] = {Damage: "damage", Heal: "heal"}


def _harm_takes(command: type) -> str:
    """What a quick harm form may ask for: "Damage takes amount and temporary", "Heal takes only amount"."""
    extra = sorted(_init_names(command)[0] - {"targets", "note", "one_roll", "amount"})
    if not extra:
        return f"{command.__name__} takes only amount"
    return f"{command.__name__} takes amount and {', '.join(extra)}"


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
    offered: set[str] | None = None  # what adjustable offers for the sample combatants made
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
            params = system.adjustable(state, c)
            offered = (offered or set()) | {p.name for p in params}
            if attrs.has(type(c.data)):  # (offered in another state, maybe: the record's fields pass too)
                offered |= _init_names(type(c.data))[0]
            for p in params:
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
    # Ruling: a fight_only name that is neither offered by adjustable for a sample combatant nor a field of its
    # record names nothing ("critcal"): refused, as the value it meant was carried into the next fight
    # (test_a_fight_only_name_adjustable_does_not_offer_is_refused).
    fight_only = getattr(system, "fight_only", ())
    if offered is not None and _names(fight_only):
        problems += [
            f"fight_only names '{name}', which adjustable does not offer{_suggest(name, offered)}"
            for name in fight_only
            if name not in offered
        ]
    return problems


# -- the rules table -------------------------------------------------------------------------------------------------

PLACE = re.compile(r"(?P<sys>[a-z0-9_]+) (?:l\.(?P<lo>\d+)(?:[–-](?P<hi>\d+))?|@(?P<at>\d+))")
"""A place in a system's book, as a rule's ``source`` gives it: ``toy l.6``, ``bnb l.138–140``, ``twod6 @54545``."""


def place_problem(source: str, system_id: str, book: str | None = None) -> str | None:
    """What is wrong with a book place (``bnb l.138``, ``twod6 @54545``), or None; with the ``book``'s text, that
    the line is a line of text in it (not blank) or the offset inside it."""
    found = PLACE.fullmatch(source)
    if found is None or found["sys"] != system_id:
        return f"{source!r} is not '{system_id} l.N', '{system_id} l.N–M' or '{system_id} @N'"
    if book is None:
        return None  # the form is checked; the book is not at hand
    if found["at"] is not None:
        return None if int(found["at"]) < len(book) else f"{source}: the book has {len(book)} characters"
    lines = book.splitlines()
    for n in filter(None, (found["lo"], found["hi"])):
        if not 1 <= int(n) <= len(lines) or not lines[int(n) - 1].strip():
            return f"{source}: line {n} is not a line of text in the book ({len(lines)} lines)"
    return None


def source_problem(rule: Rule, system_id: str, book: str | None = None) -> str | None:
    """What is wrong with a rule's ``source`` (a book place, or ``ruling on`` one), or None."""
    return place_problem(rule.source.removeprefix("ruling on "), system_id, book)


def rule_problems(system: System, book: str | None = None) -> list[str]:
    """The rules table's problems: a rule id given twice, a rule without an id, name or statement, a statement of
    more than one line, a source not in the documented form (and, with the ``book``'s text, not inside it)."""
    problems: list[str] = []
    seen: set[str] = set()
    for rule in system.rules():
        if not isinstance(rule, Rule):
            problems.append(f"rules() holds {rule!r}, which is no Rule")
            continue
        if rule.id in seen:
            problems.append(f"the rules table gives the rule '{rule.id}' twice")
        seen.add(rule.id)
        if not (rule.id and rule.name and rule.text):
            problems.append(f"the rule '{rule.id}' has no id, name or statement (each needs all three)")
        elif "\n" in rule.text:
            problems.append(f"the rule '{rule.id}''s statement is more than one line")
        where = source_problem(rule, system.id, book)
        if where:
            problems.append(
                f"the rule '{rule.id}''s source {where}" + (" (or 'ruling on' one)" if book is None else "")
            )
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
        if not _names(kept):
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
