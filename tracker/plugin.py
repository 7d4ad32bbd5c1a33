"""The rules plug-in protocol.

The core and the screens talk to a game system only through this protocol.
:class:`BaseSystem` gives sensible defaults so a plug-in overrides only what
its rules need.  A plug-in's ``evolve`` is called after the core's for every
event (so it can react to ``TurnStarted`` and friends) and must raise
:class:`~tracker.errors.UnknownEvent` for an event of its own it does not know.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Generic, Protocol, TypeVar, runtime_checkable

import attrs

from tracker.commands import Damage, Heal, Param
from tracker.dice import Roll, Roller
from tracker.errors import Refused
from tracker.events import Event, InitiativeSet, OrderSet
from tracker.model import NPC, PC, Combatant, FightState, changed
from tracker.reasons import Reason, Rule


@attrs.frozen(kw_only=True)
class Preset:
    """A ready-made sheet from the book: a critter, an NPC type, an archetype.

    ``kind`` "pc" or "npc" makes it a combatant preset (offered when adding
    combatants); any other kind (e.g. "weapon") is reference data of the system.
    """

    id: str
    name: str
    sheet: Mapping[str, Any] = attrs.field(hash=False)
    kind: str = NPC
    summary: str = ""
    category: str = ""
    # a GM's own preset kept "as it was" (see saves.library): GM adjustments applied to each one added
    now: Mapping[str, Any] = attrs.field(factory=dict, hash=False)


@attrs.frozen(kw_only=True)
class BookCondition:
    """A condition the book names: offered as the GM types a condition (see ``BaseSystem.conditions``).

    ``source`` is the book's place (as a :class:`~tracker.explain.Rule`'s); ``effect`` the project's one-line
    account of it; ``rounds`` its default duration when the book gives one (None: until removed);
    ``automated`` true when the plug-in's rules read it themselves (it is then stored under ``name``,
    whatever case or spacing the GM typed).
    """

    name: str
    source: str
    effect: str
    rounds: int | None = None
    automated: bool = False


@attrs.frozen(kw_only=True)
class Tally:
    """What an event meant for the fight summary (hits, misses, harm)."""

    actor: str | None = None
    target: str | None = None
    hit: bool | None = None
    harm: int = 0  # damage, injuries or boxes inflicted; below 0: taken back (a reroll undid a wound)
    fell: bool = False  # the target dropped (dead, unconscious, fled)
    # the actor's last tallied deed is taken back (its hit or miss, and the deed): a roll revised or rerolled after
    # the fact.  ``hit`` is then the outcome that stands in its place (None: a later event tallies it)
    revises: bool = False
    # a deed that is no hit or miss (a sneak past a watcher), for the players' line with no number in it:
    # "{actor}" and "{target}" stand for their public names ("{actor} sneaks past {target}: succeeds"); a deed of
    # the actor alone names no target ("{actor} makes the resolve check against death: lives")
    deed: str = ""


@attrs.frozen(kw_only=True)
class Standing:
    """How a combatant stands in the fight, for the initiative list and the players' view.

    ``word`` is the one word a GM must never miss ("dead", "unconscious",
    "dying", "fled", "broken"; empty when the combatant is fit to fight);
    ``out`` is true when the combatant is out of the fight (its row is dimmed,
    target lists mark it).
    """

    word: str = ""
    out: bool = False


FIT = Standing()


@attrs.frozen(kw_only=True)
class About:
    """What a system says of itself before it is loaded: enough to list it (the start screen) and no more.

    A plug-in's entry-point module may define ``ABOUT = About(...)`` and make its
    system on first use (``__getattr__ = made_on_first_use(...)``), so listing the
    installed systems imports no rules, no events, no commands
    (:func:`tracker.registry.described`).  The system it makes says the same id,
    name, version and summary (its class says ``about = ABOUT``: see
    :class:`BaseSystem`).  A plug-in without ``ABOUT`` is loaded to be listed.
    """

    id: str
    name: str
    version: str = "0"
    summary: str = ""

    @classmethod
    def of(cls, system: System) -> About:
        return cls(id=system.id, name=system.name, version=system.version, summary=system.summary)


def made_on_first_use(module: str, name: str = "system") -> Callable[[str], Any]:
    """A light entry-point module's ``__getattr__``: ``name`` is imported from ``module`` when first asked for
    (the entry point ``pkg:system`` asks for it; listing the systems reads ``ABOUT`` only)."""

    def __getattr__(attr: str) -> Any:
        if attr == name:
            return getattr(importlib.import_module(module), name)
        raise AttributeError(f"module {module.rpartition('.')[0]!r} has no attribute {attr!r}")

    return __getattr__


Upcaster = Callable[[dict[str, Any]], dict[str, Any]]


@runtime_checkable
class Rules(Protocol):
    """The required core of a rules plug-in: what every system must say for itself.

    Subclass :class:`BaseSystem` and write these; every other hook of
    :class:`System` has a documented default there.
    """

    @property
    def id(self) -> str:
        """Stable id, the entry-point name and the prefix of the system's event tags (``"bnb"``)."""
        ...

    @property
    def name(self) -> str:
        """The game's name as players know it."""
        ...

    @property
    def version(self) -> str:
        """The plug-in's version, written into each fight file's header."""
        ...

    @property
    def event_types(self) -> tuple[type[Event], ...]:
        """Every event class the system logs (each with a stable ``TYPE`` tag ``"<id>.<name>"``)."""
        ...

    def sheet_fields(self, kind: str) -> tuple[Param, ...]:
        """The fields of a combatant sheet for ``kind`` ("pc" or "npc"), as form parameters."""
        ...

    def make_data(self, kind: str, sheet: Mapping[str, Any]) -> Any:
        """The system's record for a combatant, from its checked sheet (pure: no dice)."""
        ...

    def commands(self) -> tuple[Any, ...]:
        """The system's own actions, as :class:`~tracker.commands.CommandSpec` (see ``tracker.kit.spec``)."""
        ...

    def decide(self, state: FightState, command: Any, dice: Roller) -> list[Event]:
        """Check a command against the rules and the state: Refused, or the events it produces (with every roll)."""
        ...

    def evolve(self, state: FightState, event: Event) -> FightState:
        """Apply one event (pure; never rolls, never decides). Called for core events too, after the core's part."""
        ...

    def status(self, state: FightState, combatant: Combatant) -> str:
        """One short line for the initiative list: the most important numbers first, equipment last."""
        ...


@runtime_checkable
class System(Rules, Protocol):
    """Everything the core and the screens may ask of a system; :class:`BaseSystem` gives each hook a default."""

    @property
    def summary(self) -> str: ...
    @property
    def upcasters(self) -> Mapping[tuple[str, int], Upcaster]: ...
    @property
    def turn_commands(self) -> tuple[type, ...]: ...

    def presets(self) -> tuple[Preset, ...]: ...
    def new_combatant(
        self, state: FightState, kind: str, sheet: Mapping[str, Any], dice: Roller
    ) -> tuple[dict[str, Any], tuple[Roll, ...]]: ...
    def initial_data(self) -> Any: ...
    def roll_initiative(self, state: FightState, ids: tuple[str, ...], dice: Roller) -> list[Event]: ...
    def default_order(self, state: FightState) -> tuple[str, ...]: ...
    def initiative_tiebreak(self, combatant: Combatant) -> tuple[Any, ...]: ...
    def check_core(self, state: FightState, command: Any) -> None: ...
    def takes_turns(self, state: FightState, combatant: Combatant) -> bool: ...
    def detail(self, state: FightState, combatant: Combatant) -> str: ...
    def adjustable(self, state: FightState, combatant: Combatant) -> tuple[Param, ...]: ...
    def adjust(self, state: FightState, combatant: Combatant, field: str, value: Any) -> Combatant: ...
    def check_adjust(self, state: FightState, combatant: Combatant, field: str, value: Any) -> Any: ...
    def tally(self, state: FightState, event: Event) -> Tally | None: ...
    def help(self) -> str: ...
    def react(self, before: FightState, events: Sequence[Event], after: FightState) -> list[Event]: ...
    def standing(self, state: FightState, combatant: Combatant) -> Standing: ...
    def public(self, state: FightState, combatant: Combatant) -> str: ...
    def harm_params(self, heal: bool) -> tuple[Param, ...]: ...
    def preset(self, preset_id: str) -> Preset: ...
    def rules(self) -> tuple[Rule, ...]: ...
    def explain(self, before: FightState, event: Event, after: FightState) -> tuple[Reason, ...]: ...
    def conditions(self) -> tuple[BookCondition, ...]: ...
    def awards(self, state: FightState) -> tuple[str, ...]: ...
    def surprise(self, state: FightState) -> tuple[str, ...]: ...


DataT = TypeVar("DataT")


class BaseSystem(Generic[DataT]):
    """Defaults for every optional hook of :class:`System`; a plug-in overrides what its rules need.

    Generic over the system's combatant record: ``class Bnb(BaseSystem[BnbData])``
    makes :meth:`data` typed, so mypy checks the rules that read it.

    Optional hooks and their defaults: ``presets`` none; ``new_combatant``
    parses the sheet fields, rolls nothing; ``initial_data`` None;
    ``roll_initiative`` no roll, PCs then NPCs as added; ``initiative_tiebreak``
    none (still tied: simultaneous); ``check_core`` allows every core command;
    ``takes_turns`` everyone; ``detail`` the status; ``adjustable`` nothing;
    ``check_adjust``/``adjust`` parse and set a field of the record; ``tally``
    nothing for the summary; ``help`` the summary; ``react`` no follow-ups;
    ``standing`` from ``takes_turns``; ``public`` the standing word;
    ``harm_params`` one amount field (and ``decide`` refuses Damage/Heal).
    """

    id: ClassVar[str] = "base"
    name: ClassVar[str] = "Base"
    version: ClassVar[str] = "0"
    summary: ClassVar[str] = ""
    # what the plug-in says of itself before it is loaded (its light module's ABOUT): a subclass that sets it
    # takes its id, name, version and summary from it, so what the start screen lists is what loads
    about: ClassVar[About | None] = None
    event_types: ClassVar[tuple[type[Event], ...]] = ()
    upcasters: ClassVar[Mapping[tuple[str, int], Upcaster]] = {}
    # Command types that are actions taken on the actor's own turn: once the
    # fight runs, the core refuses them for anyone but the current combatant
    # (a held PC steps in first with ActNow).  Reactions (saves, checks) are
    # left out so they can be rolled whenever the rules call for them.
    turn_commands: ClassVar[tuple[type, ...]] = ()
    # Adjustable values that belong to this fight only (a turn's actions left,
    # who grapples whom, a weapon on the floor): a party saved "as it is now"
    # does not carry them into the next fight.
    fight_only: ClassVar[tuple[str, ...]] = ()
    # A prompt's params are the starting values of the command form it opens, so each names a field of that
    # form; the values a prompt also carries for the rules to read back (the DC a resolve check is against),
    # which are no field of the form, are listed here by the command's name: {"resolve": ("dc",)}.
    prompt_data: ClassVar[Mapping[str, tuple[str, ...]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        about = cls.__dict__.get("about")
        if isinstance(about, About):
            cls.id, cls.name, cls.version, cls.summary = about.id, about.name, about.version, about.summary

    def data(self, combatant: Combatant) -> DataT:
        """The combatant's record, typed as this system's."""
        result: DataT = combatant.data
        return result

    # -- sheets ------------------------------------------------------------
    def sheet_fields(self, kind: str) -> tuple[Param, ...]:
        return ()

    def presets(self) -> tuple[Preset, ...]:
        return ()

    def preset(self, preset_id: str) -> Preset:
        key = preset_id.strip().lower()
        for p in self.presets():
            if key in (p.id.lower(), p.name.lower()):
                return p
        raise Refused(f"no preset called '{preset_id}' in {self.name}")

    def new_combatant(
        self, state: FightState, kind: str, sheet: Mapping[str, Any], dice: Roller
    ) -> tuple[dict[str, Any], tuple[Roll, ...]]:
        """Check a sheet (raise Refused) and roll what it needs; the result goes in the log."""
        fields = {p.name: p for p in self.sheet_fields(kind)}
        out: dict[str, Any] = {}
        for name, param in fields.items():
            out[name] = param.parse(sheet.get(name))
        for extra in sheet:
            if extra not in fields:
                out[extra] = sheet[extra]
        return out, ()

    def make_data(self, kind: str, sheet: Mapping[str, Any]) -> Any:
        return None

    def initial_data(self) -> Any:
        return None

    # -- order and turns -----------------------------------------------------
    def roll_initiative(self, state: FightState, ids: tuple[str, ...], dice: Roller) -> list[Event]:
        """Default: no initiative roll, the GM's order (PCs as added, then NPCs)."""
        order = self.default_order(state)
        return [OrderSet(order=order, note="PCs, then NPCs, as added")]

    def initiative_tiebreak(self, combatant: Combatant) -> tuple[Any, ...]:
        """Higher sorts first among equal initiative; still tied: simultaneous."""
        return ()

    def default_order(self, state: FightState) -> tuple[str, ...]:
        live = [c for c in state.combatants if not c.removed]
        pcs = [c.id for c in live if c.kind == PC]
        npcs = [c.id for c in live if c.kind != PC]
        return tuple(pcs + npcs)

    def check_core(self, state: FightState, command: Any) -> None:
        """Refuse a core command the rules forbid (e.g. an NPC holding its action)."""

    def takes_turns(self, state: FightState, combatant: Combatant) -> bool:
        return True

    # -- commands ----------------------------------------------------------
    def commands(self) -> tuple[Any, ...]:
        return ()

    def decide(self, state: FightState, command: Any, dice: Roller) -> list[Event]:
        if isinstance(command, Damage):
            raise Refused(f"{self.name} has no quick damage: use GM adjust (=)")
        if isinstance(command, Heal):
            raise Refused(f"{self.name} has no quick healing: use GM adjust (=)")
        raise Refused(f"{self.name} does not know the command {type(command).__name__}")

    # how well the party rests, as the book distinguishes it (the rest form's choices; the first is the default)
    rest_qualities: tuple[str, ...] = ()

    # What ``I`` does in the setup, in the GM's words: the setup header's "I roll initiative" and the key bar's
    # "I Init".  A system whose ``roll_initiative`` rolls none says what its ``I`` does: ("set the order", "Order").
    initiative_words: tuple[str, str] = ("roll initiative", "Init")
    # False for a book with no initiative (``roll_initiative`` rolls none: the GM's order).  The running fight's
    # ``I`` (roll for newcomers, or the whole order again next round) is then left out of the help and the palette
    # (pressed, it says why not), and ``E`` reads "Set the order by numbers (higher first)", not initiative totals
    # rolled on real dice.  (The default ``roll_initiative`` rolls none either: a plug-in keeping it says False.)
    rolls_initiative: bool = True

    def rest(self, state: FightState, command: Any, dice: Roller) -> list[Event]:
        """Let time pass (:class:`~tracker.commands.Rest`, before or after a fight): the book's recovery.

        ``command.ids`` are checked and never empty, ``hours``/``days`` not both 0;
        return one event per combatant saying what it recovered and why.
        Default: refused.
        """
        raise Refused(f"{self.name} has no rules for letting time pass")

    def react(self, before: FightState, events: Sequence[Event], after: FightState) -> list[Event]:
        """Follow-up events the rules call for after any decision, core commands included.

        The engine calls this after every decision with the state before, the
        events decided and the state they lead to; what it returns is logged in
        the same GM action (a death-save prompt after a GM sets HP to 0, a morale
        prompt after a removal).  Decide here, never in ``evolve``.  Default: none.
        """
        return []

    def harm_params(self, heal: bool) -> tuple[Param, ...]:
        """The fields of the quick damage (or heal) form: ``amount`` first, then any the system adds.

        The command is :class:`~tracker.commands.Damage` or
        :class:`~tracker.commands.Heal`; the only extra field a system may add
        is ``temporary`` (a BOOL, on damage).
        """
        return (Param(name="amount", label="Heal" if heal else "Damage", help="in the system's own measure"),)

    def evolve(self, state: FightState, event: Event) -> FightState:
        return state

    # -- showing -----------------------------------------------------------
    def status(self, state: FightState, combatant: Combatant) -> str:
        return ""

    def detail(self, state: FightState, combatant: Combatant) -> str:
        return self.status(state, combatant)

    def standing(self, state: FightState, combatant: Combatant) -> Standing:
        """Dead, down, fled…: the word shown before the status; default from ``takes_turns``."""
        if combatant.removed:
            return Standing(word="gone", out=True)
        if not self.takes_turns(state, combatant):
            return Standing(word="out", out=True)
        return FIT

    def public(self, state: FightState, combatant: Combatant) -> str:
        """What the players may see of the combatant's state (an NPC's descriptor: "hurt").

        Never numbers the GM keeps hidden.  Default: the standing word only.
        """
        return self.standing(state, combatant).word

    def help(self) -> str:
        return self.summary

    # -- GM adjust -----------------------------------------------------------
    def adjustable(self, state: FightState, combatant: Combatant) -> tuple[Param, ...]:
        """The system's own values the GM may set, as typed parameters."""
        return ()

    def check_adjust(self, state: FightState, combatant: Combatant, field: str, value: Any) -> Any:
        """Parse and check a value for ``field``; return it as it will be logged."""
        for p in self.adjustable(state, combatant):
            if p.name == field:
                return p.parse(value)
        raise Refused(f"{combatant.name} has no value '{field}' to adjust")

    def adjust(self, state: FightState, combatant: Combatant, field: str, value: Any) -> Combatant:
        """Apply a checked adjustment (pure); default sets the attribute on the data record."""
        return changed(combatant, data=changed(combatant.data, **{field: value}))

    def rules(self) -> tuple[Rule, ...]:
        """The system's rules table: every rule its deciders apply, by id (``docs/rules/<id>.md`` is made from it)."""
        return ()

    def explain(self, before: FightState, event: Event, after: FightState) -> tuple[Reason, ...]:
        """Why one of the system's events (or a core event its rules shaped) happened: the rules of
        :meth:`rules` it applied and the terms that went in, read from the event and the states around it
        (so fights saved before reasons existed explain too).  Must not roll or decide."""
        return ()

    def conditions(self) -> tuple[BookCondition, ...]:
        """The conditions the book names, suggested when the GM adds a condition."""
        return ()

    def awards(self, state: FightState) -> tuple[str, ...]:
        """What the fight earned, for the summary and the recap (bnb: the XP of the foes overcome and each PC's
        share), in the system's words, one line each; none by default."""
        return ()

    def surprise(self, state: FightState) -> tuple[str, ...]:
        """Who the start form marks for a surprise round before the GM says (zludge: the ambushers declared); the
        GM may unmark any. No one by default."""
        return ()

    def tally(self, state: FightState, event: Event) -> Tally | None:
        return None


def sort_by_initiative(
    state: FightState, values: Mapping[str, int], key: Callable[[Combatant], tuple[Any, ...]] | None = None
) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    """Order ids by initiative (highest first), then by ``key`` (higher first).

    Returns the order and the groups still tied after ``key``: those act
    simultaneously.
    """
    tie_key = key or (lambda c: ())
    ids = list(values)
    full = {i: (values[i], *tie_key(state.get(i))) for i in ids}
    ids.sort(key=lambda i: full[i], reverse=True)
    ties: list[tuple[str, ...]] = []
    seen: dict[tuple[Any, ...], list[str]] = {}
    for i in ids:
        seen.setdefault(full[i], []).append(i)
    for group in seen.values():
        if len(group) > 1:
            ties.append(tuple(group))
    return tuple(ids), tuple(ties)


def initiative_events(
    state: FightState,
    rolled: Mapping[str, tuple[int, Roll | None, str]],
    key: Callable[[Combatant], tuple[Any, ...]] | None = None,
    word: str = "initiative",
) -> list[Event]:
    """InitiativeSet for each rolled id, then the OrderSet of everyone with a value.  ``word`` names the number
    in the log line ("Hero order 17" in blackjack, whose ``initiative_words`` are "set the order", "Order")."""
    events: list[Event] = [
        InitiativeSet(id=i, value=v, roll=r, note=note, word=word) for i, (v, r, note) in rolled.items()
    ]
    values = {c.id: c.initiative for c in state.combatants if not c.removed and c.initiative is not None}
    values.update({i: v for i, (v, _r, _n) in rolled.items()})
    order, ties = sort_by_initiative(state, values, key)
    rest = tuple(c.id for c in state.combatants if not c.removed and c.id not in values)
    events.append(OrderSet(order=order + rest, ties=ties, note="by initiative"))
    return events
