"""Events: past-tense facts, each with a stable type tag.

An event carries every random outcome as the faces rolled, so folding the log
with ``evolve`` reproduces the fight without a roller.  Systems define their
own events by subclassing :class:`Event` with a ``TYPE`` of ``"<system>.<name>"``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import attrs

from tracker.dice import Roll
from tracker.model import KINDS, Condition, FightState, Prompt
from tracker.text import counted


@attrs.frozen(kw_only=True)
class Event:
    TYPE: ClassVar[str] = ""
    VERSION: ClassVar[int] = 1
    GM_WORDS: ClassVar[tuple[str, ...]] = ()  # text fields the GM typed (notes, causes): not for the players

    def describe(self, state: FightState) -> str:
        """One line for the log, in the GM's words (``state`` is the state before it)."""
        return type(self).__name__

    def describe_public(self, state: FightState) -> str | None:
        """One line for the players' view, or None when the event is the GM's alone.

        The event's own text without what is addressed to the GM: no instruction,
        no prompt, no note the GM typed.  Default: :meth:`describe` with the fields
        named in ``GM_WORDS`` left empty; an event whose GM text carries
        instructions overrides it (``state`` is the state before it, with
        combatants under their public names).
        """
        if not self.GM_WORDS:
            return self.describe(state)
        return attrs.evolve(self, **dict.fromkeys(self.GM_WORDS, "")).describe(state)

    def all_rolls(self) -> tuple[Roll, ...]:
        """Every roll this event carries, also inside nested records and tuples.

        (Not ``rolls``: several events have a field of that name.)
        """
        out: list[Roll] = []
        _collect_rolls(self, out, 0)
        return tuple(out)


def _collect_rolls(value: Any, out: list[Roll], depth: int) -> None:
    if isinstance(value, Roll):
        out.append(value)
    elif depth > 6:
        return
    elif isinstance(value, tuple):
        for item in value:
            _collect_rolls(item, out, depth + 1)
    elif attrs.has(type(value)):
        for f in attrs.fields(type(value)):
            _collect_rolls(getattr(value, f.name), out, depth + 1)


def _rolls_text(rolls: tuple[Roll, ...]) -> str:
    return "; ".join(r.describe() for r in rolls)


def _a_kind(_event: Any, _field: Any, value: Any) -> None:
    if value not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, not {str(value)[:40]!r}")


@attrs.frozen(kw_only=True)
class CombatantAdded(Event):
    TYPE = "combatant_added"
    id: str
    name: str
    # Ruling: a kind other than the core's (pc, npc) is refused when the event is read, naming its line: a hand-edited
    # "\u202egm" passed check as good (tests/core/test_gm3_fixes.py::test_a_forged_kind_is_refused_at_its_line)
    kind: str = attrs.field(validator=_a_kind)
    group: str | None = None
    sheet: dict[str, Any] = attrs.field(factory=dict, hash=False)
    rolls: tuple[Roll, ...] = ()
    hidden: bool = False
    alias: str = ""
    # the sheet as the GM or the preset gave it, when the rules' checked ``sheet`` differs (what they rolled into
    # it: bnb's HP from its Hit Dice; what they read: blackjack's "Revolver 4"); a preset kept "fresh" is made of
    # it, so each one added from it rolls again.  None: the same, or a file written before it was kept
    given: dict[str, Any] | None = attrs.field(default=None, hash=False)

    def describe(self, state: FightState) -> str:
        grp = f" [{self.group}]" if self.group else ""
        extra = f" ({_rolls_text(self.rolls)})" if self.rolls else ""
        secret = ", hidden from the players" if self.hidden else ""
        return f"{self.name}{grp} joins the fight as {self.kind.upper()}{extra}{secret}"


@attrs.frozen(kw_only=True)
class CombatantRemoved(Event):
    TYPE = "combatant_removed"
    id: str
    reason: str = ""

    def describe(self, state: FightState) -> str:
        why = f": {self.reason}" if self.reason else ""
        return f"{state.name(self.id)} leaves the fight{why}"


@attrs.frozen(kw_only=True)
class CombatantRenamed(Event):
    TYPE = "combatant_renamed"
    id: str
    name: str

    def describe(self, state: FightState) -> str:
        return f"{state.name(self.id)} is renamed {self.name}"


@attrs.frozen(kw_only=True)
class InitiativeSet(Event):
    TYPE = "initiative_set"
    VERSION = 2  # 2: ``word`` (an older install says "saved by a newer version", not "damaged": CORE_UPCASTERS)
    id: str
    value: int | None
    roll: Roll | None = None
    note: str = ""
    word: str = "initiative"  # the system's word for the number (blackjack's "order"); older lines: "initiative"

    def describe(self, state: FightState) -> str:
        how = f" ({self.roll.describe()}{', ' + self.note if self.note else ''})" if self.roll else ""
        if not self.roll and self.note:
            how = f" ({self.note})"
        return f"{state.name(self.id)} {self.word} {self.value}{how}"


@attrs.frozen(kw_only=True)
class OrderSet(Event):
    TYPE = "order_set"
    order: tuple[str, ...]
    ties: tuple[tuple[str, ...], ...] = ()
    note: str = ""

    def describe(self, state: FightState) -> str:
        names = ", ".join(state.name(i) for i in self.order)
        tie = ""
        if self.ties:
            tie = "; simultaneous: " + "; ".join(" & ".join(state.name(i) for i in g) for g in self.ties)
        why = f" ({self.note})" if self.note else ""
        return f"Order: {names}{tie}{why}"


@attrs.frozen(kw_only=True)
class FightStarted(Event):
    TYPE = "fight_started"
    surprise: tuple[str, ...] = ()

    def describe(self, state: FightState) -> str:
        if self.surprise:
            return "The fight begins with a surprise round for " + ", ".join(state.name(i) for i in self.surprise)
        return "The fight begins"


@attrs.frozen(kw_only=True)
class RerollPlanned(Event):
    """The GM chose to roll the whole initiative order again: it is rolled when the next round starts."""

    TYPE = "reroll_planned"
    round: int  # the round the new order starts

    def describe(self, state: FightState) -> str:
        return f"Initiative will be rolled again for everyone at the start of round {self.round}"


@attrs.frozen(kw_only=True)
class RoundStarted(Event):
    TYPE = "round_started"
    round: int

    def describe(self, state: FightState) -> str:
        text = "Surprise round" if self.round == 0 else f"Round {self.round}"
        held = [c.name for c in state.combatants if c.held and not c.removed]  # a new round ends every hold
        return text + (f" — held action lapses: {', '.join(held)}" if held else "")


@attrs.frozen(kw_only=True)
class TurnStarted(Event):
    TYPE = "turn_started"
    id: str
    index: int
    resumed: bool = False  # the turn goes on after a held action stepped in

    def describe(self, state: FightState) -> str:
        return f"{state.name(self.id)}'s turn"


@attrs.frozen(kw_only=True)
class TurnEnded(Event):
    TYPE = "turn_ended"
    id: str

    def describe(self, state: FightState) -> str:
        return f"{state.name(self.id)} ends the turn"


@attrs.frozen(kw_only=True)
class TurnDelayed(Event):
    TYPE = "turn_delayed"
    id: str

    def describe(self, state: FightState) -> str:
        return f"{state.name(self.id)} holds the action"


@attrs.frozen(kw_only=True)
class HeldActionTaken(Event):
    """A held combatant steps in now, before whoever is current."""

    TYPE = "held_action_taken"
    id: str

    def describe(self, state: FightState) -> str:
        cur = state.current
        before = f", before {state.name(cur)}" if cur and cur != self.id else ""
        return f"{state.name(self.id)} acts now{before}"


@attrs.frozen(kw_only=True)
class ConditionAdded(Event):
    TYPE = "condition_added"
    id: str
    condition: Condition

    def describe(self, state: FightState) -> str:
        """Without a turn to end on (put on before the fight started) a timed condition ends at the end of its last
        round, whatever start or end an older file holds (tracker.engine._end_point): the line says so
        (tests/core/test_gm2_fixes.py::test_a_timed_condition_before_the_fight_says_the_round_it_ends)."""
        c = self.condition
        dur = ""
        if c.rounds is not None and c.ends_on is None and c.expires_round is not None:
            dur = f" for {counted(c.rounds, 'round')}, to the end of round {c.expires_round}"
        elif c.rounds is not None:
            dur = f" for {counted(c.rounds, 'round')}, to the {c.ends_at} of {state.name(c.ends_on)}'s turn"
        return f"{state.name(self.id)} is {c.describe().split(' (')[0]}{dur}"


@attrs.frozen(kw_only=True)
class ConditionRemoved(Event):
    TYPE = "condition_removed"
    id: str
    name: str
    reason: str = ""

    def describe(self, state: FightState) -> str:
        why = f" ({self.reason})" if self.reason else ""
        return f"{state.name(self.id)} is no longer {self.name}{why}"


@attrs.frozen(kw_only=True)
class Adjusted(Event):
    """A GM adjustment of any tracked value."""

    TYPE = "adjusted"
    id: str
    field: str
    value: Any
    old: Any = None
    note: str = ""
    label: str = ""  # the value's name as the GM picked it ("Injuries"; files before it: the field's name)

    def describe(self, state: FightState) -> str:
        why = f" ({self.note})" if self.note else ""
        old, new = (_named(state, v) for v in (self.old, self.value))
        return f"GM sets {state.name(self.id)}'s {self.label or self.field}: {shown(old)} → {shown(new)}{why}"


def _named(state: FightState, value: Any) -> Any:
    """A combatant's id as its name (twod6's "Grappled by: none → c2" showed the id)."""
    if isinstance(value, str) and value and state.find(value) is not None:
        return state.name(value)
    return value


def shown(value: Any) -> str:
    """A value as the GM reads it in the log: words and numbers as they are, yes or no, a track's parts between
    bars (it printed Python's own: "'ok' → 'dead'", "(('cut',), (), ())")."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return value or "(empty)"
    if isinstance(value, tuple | list):
        if value and all(isinstance(v, tuple | list) for v in value):
            return " | ".join(", ".join(map(shown, v)) or "-" for v in value)
        return ", ".join(map(shown, value)) or "none"
    return str(value)


@attrs.frozen(kw_only=True)
class NoteAdded(Event):
    TYPE = "note_added"
    text: str
    id: str | None = None

    def describe(self, state: FightState) -> str:
        who = f" [{state.name(self.id)}]" if self.id else ""
        return f"Note{who}: {self.text}"

    def describe_public(self, state: FightState) -> str | None:
        return None  # the GM's own words


@attrs.frozen(kw_only=True)
class HarmRolled(Event):
    """One roll of quick damage for several targets (``Damage(one_roll=True)``): the total each of them takes."""

    TYPE = "harm_rolled"
    roll: Roll
    targets: tuple[str, ...]

    def describe(self, state: FightState) -> str:
        return f"One roll for {', '.join(state.name(t) for t in self.targets)}: {self.roll.describe()}"


@attrs.frozen(kw_only=True)
class PromptRaised(Event):
    TYPE = "prompt_raised"
    prompt: Prompt

    def describe(self, state: FightState) -> str:
        return f"! {self.prompt.text}"

    def describe_public(self, state: FightState) -> str | None:
        return None  # prompts are the GM's: what to roll or choose next


@attrs.frozen(kw_only=True)
class PromptResolved(Event):
    TYPE = "prompt_resolved"
    prompt_id: str
    note: str = ""
    outcome: str = ""  # the outcome a GM's ruling chose (one of the prompt's outcomes); "" before they were named

    def describe(self, state: FightState) -> str:
        text = next((p.text for p in state.prompts if p.id == self.prompt_id), self.prompt_id)
        how = f": {self.note}" if self.note else ""
        ruled = f" — ruled: {self.outcome}" if self.outcome else ""
        return f"Resolved: {text}{ruled}{how}"

    def describe_public(self, state: FightState) -> str | None:
        return None  # the prompt and the GM's note on it; what it led to has events of its own


@attrs.frozen(kw_only=True)
class FightEnded(Event):
    """The fight is over.

    ``closes_round``: the end closes the round in progress as a new round would (tracker.engine._end): every held
    action lapses, and a system clears what it records for the round (bnb: the round's action). False in the
    files written before, whose end cleared neither (they fold as they did).
    """

    TYPE = "fight_ended"
    VERSION = 2  # 2: ``closes_round`` (see InitiativeSet.VERSION)
    note: str = ""
    closes_round: bool = False

    def describe(self, state: FightState) -> str:
        text = "The fight ends" + (f": {self.note}" if self.note else "")
        held = [c.name for c in state.combatants if c.held and not c.removed] if self.closes_round else []
        return text + (f" — held action lapses: {', '.join(held)}" if held else "")


@attrs.frozen(kw_only=True)
class CombatantsHidden(Event):
    TYPE = "combatants_hidden"
    ids: tuple[str, ...]

    def describe(self, state: FightState) -> str:
        return "Hidden from the players: " + ", ".join(state.name(i) for i in self.ids)


@attrs.frozen(kw_only=True)
class CombatantsRevealed(Event):
    TYPE = "combatants_revealed"
    ids: tuple[str, ...]

    def describe(self, state: FightState) -> str:
        return "Revealed to the players: " + ", ".join(state.name(i) for i in self.ids)


@attrs.frozen(kw_only=True)
class FightNamed(Event):
    TYPE = "fight_named"
    name: str

    def describe(self, state: FightState) -> str:
        return f"The fight is called {self.name}" if not state.title else f"The fight is renamed {self.name}"


@attrs.frozen(kw_only=True)
class DiceModeSet(Event):
    TYPE = "dice_mode_set"
    typed: bool

    def describe(self, state: FightState) -> str:
        return "Dice typed in by the GM from now on" if self.typed else "Dice rolled by the tracker from now on"


@attrs.frozen(kw_only=True)
class ViewSet(Event):
    """What the players' view shows."""

    TYPE = "view_set"
    npc_numbers: bool = False
    npc_names: bool = True
    dice: bool = True

    def describe(self, state: FightState) -> str:
        shown = [
            w for w, on in (("NPC numbers", self.npc_numbers), ("NPC names", self.npc_names), ("dice", self.dice)) if on
        ]
        hidden = [
            w
            for w, on in (("NPC numbers", self.npc_numbers), ("NPC names", self.npc_names), ("dice", self.dice))
            if not on
        ]
        parts = []
        if shown:
            parts.append("shows " + ", ".join(shown))
        if hidden:
            parts.append("hides " + ", ".join(hidden))
        return "Players' view " + "; ".join(parts)


@attrs.frozen(kw_only=True)
class Undone(Event):
    """The GM took back one whole action (all of its events)."""

    TYPE = "undone"
    action: int

    def describe(self, state: FightState) -> str:
        return f"Undo of action {self.action}"


@attrs.frozen(kw_only=True)
class Redone(Event):
    TYPE = "redone"
    action: int

    def describe(self, state: FightState) -> str:
        return f"Redo of action {self.action}"


# Upcasters of the core's events (tag, version read) -> the fields of the next version.  A field added with a
# default raises its event's VERSION, so an older install reading the new line says the file was saved by a newer
# version (it called it damaged and offered to cut the fight there); a line of the older version reads as it did.
CORE_UPCASTERS: dict[tuple[str, int], Callable[[dict[str, Any]], dict[str, Any]]] = {
    ("initiative_set", 1): dict,  # word: "initiative", its default
    ("fight_ended", 1): dict,  # closes_round: False, its default (an end logged before closed nothing)
}

CORE_EVENTS: tuple[type[Event], ...] = (
    CombatantAdded,
    CombatantRemoved,
    CombatantRenamed,
    InitiativeSet,
    OrderSet,
    FightStarted,
    RoundStarted,
    RerollPlanned,
    TurnStarted,
    TurnEnded,
    TurnDelayed,
    HeldActionTaken,
    ConditionAdded,
    ConditionRemoved,
    Adjusted,
    NoteAdded,
    HarmRolled,
    PromptRaised,
    PromptResolved,
    FightEnded,
    CombatantsHidden,
    CombatantsRevealed,
    FightNamed,
    DiceModeSet,
    ViewSet,
    Undone,
    Redone,
)
