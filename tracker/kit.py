"""The rules kit: the few pieces every rules plug-in needs, written once.

- :func:`need` finds a combatant by id or name, or refuses with the reason.
- :class:`Draft` holds the events decided so far in one GM action and the state
  they lead to, folded through the engine's whole ``evolve`` (core events
  included), so a later rule in the same action sees what an earlier one did.
- :class:`Rules` maps each command type to its decider; :class:`Evolver` maps
  each event type to the function that applies it (and refuses an event of the
  system's own it does not know).
- :func:`spec` derives a command's form from its attrs fields.
- :func:`prompt`, :func:`open_prompt` and :func:`resolve` handle prompts by
  kind and combatant, never by parsing an id string.
- :func:`amount` rolls a harm amount typed as a number, arithmetic or dice.

See ``docs/PLUGINS.md`` for a walk through a whole plug-in built with it.
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

import attrs

from tracker import engine
from tracker.commands import BOOL, COMBATANT, COMBATANTS, INT, MODIFIERS, STR, CommandSpec, Modifier, Param
from tracker.dice import Roller, amount
from tracker.errors import Refused, UnknownEvent
from tracker.events import Event, PromptRaised, PromptResolved
from tracker.model import Combatant, FightState, Prompt
from tracker.plugin import System

__all__ = [
    "Draft",
    "Evolver",
    "Rules",
    "amount",
    "need",
    "open_prompt",
    "prompt",
    "resolve",
    "spec",
]

# ---------------------------------------------------------------------------
# lookups


def need(state: FightState, cid: str | None, what: str = "combatant") -> Combatant:
    """The combatant with this id (or name) still in the fight, or Refused saying what is missing."""
    return engine.need(state, cid, what)


# ---------------------------------------------------------------------------
# one action's events and the state they lead to


class Draft:
    """Events decided so far in one GM action, and the state they lead to.

    ``before`` is the state the action started from; ``state`` the state after
    every event added so far (folded through the engine, so core events such as
    a prompt raised are in it too).
    """

    def __init__(self, system: System, state: FightState) -> None:
        self.system = system
        self.before = state
        self.state = state
        self.events: list[Event] = []

    def add(self, *events: Event | None) -> None:
        """Append events (``None`` is skipped) and fold them into ``state``."""
        for ev in events:
            if ev is None:
                continue
            self.state = engine.evolve(self.system, self.state, ev)
            self.events.append(ev)

    def get(self, cid: str) -> Combatant:
        """A combatant as the events so far leave it."""
        return self.state.get(cid)


CommandT = TypeVar("CommandT")
Decider = Callable[[Draft, Any, Roller], None]


class Rules:
    """A system's deciders, one per command type.

    A decider takes the draft, the command and the dice; it refuses with
    :class:`~tracker.errors.Refused` or adds events to the draft::

        rules = Rules()

        @rules.on(Shoot)
        def shoot(d: Draft, cmd: Shoot, dice: Roller) -> None: ...
    """

    def __init__(self) -> None:
        self._deciders: dict[type, Decider] = {}

    def on(self, *command_types: type) -> Callable[[Callable[[Draft, Any, Roller], None]], Callable[..., None]]:
        def register(fn: Callable[[Draft, Any, Roller], None]) -> Callable[..., None]:
            for t in command_types:
                if t in self._deciders:
                    raise TypeError(f"{t.__name__} already has a decider")
                self._deciders[t] = fn
            return fn

        return register

    def knows(self, command: Any) -> bool:
        return type(command) in self._deciders

    @property
    def command_types(self) -> tuple[type, ...]:
        return tuple(self._deciders)

    def decide(self, system: System, state: FightState, command: Any, dice: Roller) -> list[Event]:
        """The events of ``command`` (Refused if no decider knows it or the rules refuse it)."""
        fn = self._deciders.get(type(command))
        if fn is None:
            raise Refused(f"{system.name} does not know the command {type(command).__name__}")
        d = Draft(system, state)
        fn(d, command, dice)
        return d.events


Apply = Callable[[FightState, Any], FightState]


class Evolver:
    """A system's evolve, one function per event type; pure, never rolls, never decides.

    ``prefix`` is the system's event tag prefix (``"bnb."``): an event of the
    system's own with no function raises UnknownEvent; any other event (the
    core's) passes unchanged unless a function is registered for it.
    """

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self._fns: dict[type, Apply] = {}

    def on(self, *event_types: type[Event]) -> Callable[[Apply], Apply]:
        def register(fn: Apply) -> Apply:
            for t in event_types:
                if t in self._fns:
                    raise TypeError(f"{t.__name__} already has an evolve function")
                self._fns[t] = fn
            return fn

        return register

    def __call__(self, state: FightState, event: Event) -> FightState:
        fn = self._fns.get(type(event))
        if fn is not None:
            return fn(state, event)
        if event.TYPE.startswith(self.prefix):
            raise UnknownEvent(
                f"no rule applies the event {event.TYPE}: the plug-in's evolve has no function for "
                f"{type(event).__name__} (@evolve.on({type(event).__name__}))"
            )
        return state


# ---------------------------------------------------------------------------
# command forms from attrs fields

_COMBATANT_NAMES = frozenset({"actor", "target", "id", "caster", "attacker", "defender", "subject", "leader"})


def _kind_of(name: str, tp: Any) -> str | None:
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is typing.Union or type(tp).__name__ == "UnionType":
        inner = [a for a in args if a is not type(None)]
        return _kind_of(name, inner[0]) if len(inner) == 1 else None
    if tp is bool:
        return BOOL
    if tp is int:
        return INT
    if tp is str:
        return COMBATANT if name in _COMBATANT_NAMES else STR
    if origin is tuple and args and args[0] is Modifier:
        return MODIFIERS
    if origin is tuple and args and args[0] is str:
        return COMBATANTS
    return None


def spec(
    command: type,
    *,
    name: str,
    title: str,
    key: str | None = None,
    help: str = "",
    actor: str | None = "actor",
    subject: str | None = None,
    fields: Mapping[str, Param] | None = None,
    labels: Mapping[str, str] | None = None,
    hide: Iterable[str] = (),
    defaults: Callable[[FightState, str], Mapping[str, Any]] | None = None,
    choices: Callable[[FightState, str], Mapping[str, tuple[str, ...]]] | None = None,
    in_fight: bool = False,
    focus: str | None = None,
) -> CommandSpec:
    """A :class:`~tracker.commands.CommandSpec` whose params come from ``command``'s attrs fields (worked out
    when first asked for).

    Each field gives a Param of the kind its type says (``str`` named actor,
    target, id… is a combatant; ``tuple[str, ...]`` several combatants;
    ``tuple[Modifier, ...]`` modifiers), its default, and required when it has
    none.  ``fields`` replaces the Param of a field (choices, ranges, help),
    ``labels`` only its label; ``hide`` leaves fields out of the form (they keep
    their defaults).  ``actor`` names the field that starts on the current
    combatant (None for a GM action), ``subject`` the one that starts on the
    GM's selected (or marked) combatants.  ``in_fight``: an action of the
    running fight only (its form does not open before the start or after the end).  ``focus`` names the field
    the form's cursor starts in.
    """
    given = dict(fields or {})
    names = dict(labels or {})
    hidden = frozenset(hide)

    def params() -> tuple[Param, ...]:
        attrs.resolve_types(command)
        left = dict(given)
        out: list[Param] = []
        for f in attrs.fields(command):
            if f.name in hidden:
                continue
            if f.name in left:
                out.append(left.pop(f.name))
                continue
            kind = _kind_of(f.name, f.type)
            if kind is None:
                raise TypeError(f"{command.__name__}.{f.name}: say how to ask for it (fields=...)")
            has_default = f.default is not attrs.NOTHING
            default = None
            if has_default and not isinstance(f.default, attrs.Factory):  # type: ignore[arg-type]
                default = f.default
            out.append(
                Param(name=f.name, kind=kind, label=names.get(f.name, ""), default=default, required=not has_default)
            )
        if left:
            raise TypeError(f"{command.__name__} has no field(s) {sorted(left)}")
        return tuple(out)

    return CommandSpec(
        name=name,
        title=title,
        build=command,
        params=params,
        key=key,
        help=help,
        actor=actor,
        subject=subject,
        defaults=defaults,
        choices=choices,
        in_fight=in_fight,
        focus=focus,
    )


# ---------------------------------------------------------------------------
# prompts by kind and combatant


def prompt(
    kind: str,
    text: str,
    combatant: str | None = None,
    *,
    command: str | None = None,
    params: Mapping[str, Any] | None = None,
    outcomes: Sequence[str] = (),
) -> PromptRaised:
    """A prompt the GM must resolve; one per (kind, combatant) is open at a time.  ``outcomes``: what a GM's
    ruling may settle it as (the system's ``react`` applies the chosen one, from the ``PromptResolved``)."""
    pid = f"{kind}:{combatant}" if combatant else kind
    return PromptRaised(
        prompt=Prompt(
            id=pid,
            kind=kind,
            text=text,
            combatant=combatant,
            command=command,
            params=dict(params or {}),
            outcomes=tuple(outcomes),
        )
    )


def open_prompt(state: FightState, kind: str, combatant: str | None = None) -> Prompt | None:
    """The open prompt of this kind (for this combatant, if given)."""
    for p in state.prompts:
        if p.kind == kind and (combatant is None or p.combatant == combatant):
            return p
    return None


def resolve(state: FightState, kind: str, combatant: str | None = None, note: str = "") -> PromptResolved | None:
    """The event that closes the open prompt of this kind, or None when none is open."""
    p = open_prompt(state, kind, combatant)
    return None if p is None else PromptResolved(prompt_id=p.id, note=note)
