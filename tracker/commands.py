"""Commands (what the GM asks for) and the declarations that let any UI build a form.

A system offers commands through :class:`CommandSpec`: a title, a key hint,
help text and typed :class:`Param` declarations.  ``Param.parse`` turns what the
GM typed into a value or raises :class:`~tracker.errors.Refused` with a message
that names the field.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from tracker.dice import parse as parse_dice
from tracker.errors import Refused, TrackerError
from tracker.model import Condition, FightState
from tracker.text import whole_number

# parameter kinds a UI knows how to ask for
INT = "int"
STR = "str"
BOOL = "bool"
CHOICE = "choice"
COMBATANT = "combatant"  # one combatant id
COMBATANTS = "combatants"  # several ids, repeats allowed (Gun-play at one target twice)
MODIFIERS = "modifiers"  # labelled situational modifiers: "cover -2, high ground +1"
DICE = "dice"  # a dice expression
PARAM_KINDS = (INT, STR, BOOL, CHOICE, COMBATANT, COMBATANTS, MODIFIERS, DICE)


@attrs.frozen(kw_only=True)
class Modifier:
    """A labelled situational modifier; it shows in the log with its label."""

    label: str
    value: int

    def describe(self) -> str:
        return f"{self.label} {self.value:+d}"


MODIFIER_MAX = 999
"""The largest situational modifier (no book gives one past a few dozen): "luck +99999999999999999999" closed the
form with "a value cannot be saved", and everything typed in it was lost."""


# the signs a number may be typed or pasted with (a PDF's minus "−", a dash "–", full-width "＋"/"－"), read as + and -:
# "shaken −2 charge +1" was one modifier worth +1, "shaken −2 charge", as if both counted
SIGNS = str.maketrans(
    {"\u2212": "-", "\u2013": "-", "\u2012": "-", "\ufe63": "-", "\uff0d": "-", "\uff0b": "+", "\ufe62": "+"}
)


def parse_modifiers(text: str) -> tuple[Modifier, ...]:
    """Read ``"cover -2, high ground +1"`` (or ``"-2"``) into modifiers.

    Ruling: a signed number ends a modifier, so modifiers typed without a comma are each counted:
    ``"high ground +1 aim +2"`` is high ground +1 and aim +2 (it was one +2 labelled "high ground +1 aim", as if
    both counted); a number without a sign stays in the label ("rank 2 +1")
    (tests/core/test_gm2_fixes.py::test_modifiers_typed_without_a_comma_are_each_counted).  A minus or a plus as a
    PDF or another keyboard writes it (:data:`SIGNS`) is read as one
    (tests/core/test_gm2_fixes.py::test_a_typographic_minus_is_a_minus).  A number before a label ("+1
    flanking", "+2 high ground -1") is refused saying where the number goes: whose number it is cannot be told
    (tests/core/test_gm2_fixes.py::test_a_number_before_its_label).  A semicolon parts modifiers as a comma does
    ("cover -1; flank +1" was one +1 labelled "cover -1; flank") and a sign typed against its label is the
    number's ("flank+1", "cover-1": tests/core/test_modifiers_typed.py).
    """
    out: list[Modifier] = []
    for part in re.split("[,;]", text.translate(SIGNS)):
        joined = words = _signs_joined(part.split())
        while words:
            cut = next((n + 1 for n, w in enumerate(words[:-1]) if _signed(w)), len(words))
            if cut == 1 and len(words) > 1 and _signed(words[0]) and not _signed(words[1]):
                # "+1 flanking", "cover -1 +1 flanking", "+2 high ground -1": a number before a label, whose
                # number is it? (read as an unlabelled +1 and a 'flanking' with none, or silently as +2 and -1)
                label = " ".join(words[1 : next((n for n, w in enumerate(words) if n and _signed(w)), len(words))])
                taken = joined[: len(joined) - len(words)]  # the ones before it, kept in the hint ("+1 +2 flanking")
                hint = " ".join([*taken, label, words[0]])
                raise Refused(f"modifier '{part.strip()}': the number goes after its label, like '{hint}'")
            out.append(_modifier(words[:cut]))
            words = words[cut:]
    return tuple(out)


_AGAINST_LABEL = re.compile(r"(.*[^\d\s+-])([+-]\d*)")  # "flank+1", "cover-": a label, then a sign (a number)


def _signs_joined(words: list[str]) -> list[str]:
    """A sign typed apart from its number joined to it: "cover - 1" is cover -1 (it was read as a label "cover -"
    worth +1: tests/core/test_gm2_fixes.py::test_a_sign_apart_from_its_number); a signed number typed against its
    label parted from it: "flank+1" is flank +1 (it was refused as not ending with a number), and a sign against
    its label with the number apart too: "cover- 1" is cover -1 (it was a label "cover-" worth +1).  A word so
    made followed by a signed number is a label: "AK-47 +1" is the AK-47's +1 (tests/core/test_modifiers_typed.py)."""
    out: list[str] = []
    for n, typed in enumerate(words):
        against = _AGAINST_LABEL.fullmatch(typed)
        after = words[n + 1] if n + 1 < len(words) else ""
        if against and not (_signed(after) or after in ("+", "-")):  # ("AK-47 +1": the name of a gun, then +1)
            out.extend(against.groups())
        else:
            out.append(typed)
    words, out = out, []
    for word in words:
        if out and out[-1] in ("+", "-") and word[:1].isdigit():
            out[-1] += word
        else:
            out.append(word)
    return out


def _signed(word: str) -> bool:
    if word[:1] not in ("+", "-"):
        return False
    try:
        whole_number(word)
    except ValueError:
        return False
    return True


def _modifier(words: list[str]) -> Modifier:
    part = " ".join(words)
    try:
        value = whole_number(words[-1])
    except ValueError:
        # (an example every system takes: zludge's modifiers are ±1 each, and it refused the 'cover -2' it was shown)
        raise Refused(f"modifier '{part}' must end with a number, like 'cover -1'") from None
    if abs(value) > MODIFIER_MAX:
        raise Refused(f"modifier '{part[:40]}': a situational modifier is at most ±{MODIFIER_MAX}")
    return Modifier(label=" ".join(words[:-1]) or "modifier", value=value)


@attrs.frozen(kw_only=True)
class Param:
    name: str
    kind: str = STR
    label: str = ""
    help: str = ""
    default: Any = None
    choices: tuple[str, ...] = ()
    # what a picker shows for each of ``choices``, in their order ("Willpower" for "wil"); the choice itself when empty
    choice_labels: tuple[str, ...] = ()
    required: bool = True
    min: int | None = None
    max: int | None = None
    # free text with suggestions offered as the GM types (a condition form's book conditions); any text goes
    suggestions: tuple[str, ...] = ()
    # a combatant field's side: "foe" or "ally" of the one who acts (a patient), or a kind, "pc" or "npc"
    # (Arguin' puts a PC against an NPC): the form starts it on one of that side (see screens.logic.prefill)
    side: str = ""

    @property
    def title(self) -> str:
        return self.label or self.name.replace("_", " ").capitalize()

    def choice_label(self, choice: str) -> str:
        """What a picker shows for ``choice``: its label in ``choice_labels``, else the choice itself."""
        if choice in self.choices and len(self.choice_labels) == len(self.choices):
            return self.choice_labels[self.choices.index(choice)]
        return choice

    def parse(self, raw: Any) -> Any:
        """Turn typed text (or an already typed value) into this parameter's value."""
        if raw is None or (isinstance(raw, str) and not raw.strip()):
            if self.default is not None:
                return self.default
            if self.required:
                raise Refused(f"{self.title}: a value is needed")
            return () if self.kind in (COMBATANTS, MODIFIERS) else None
        if self.kind == INT:
            if isinstance(raw, bool):
                raise Refused(f"{self.title}: a whole number is needed")
            if isinstance(raw, int):
                value = raw
            else:
                try:
                    value = whole_number(str(raw))
                except ValueError:
                    raise Refused(f"{self.title}: '{raw}' is not a whole number") from None
            if abs(value) >= 2**63:  # (a fight file holds whole numbers of 64 bits)
                raise Refused(f"{self.title}: {str(raw).strip()[:24]} is too large a number")
            if self.min is not None and value < self.min:
                raise Refused(f"{self.title}: {value} is below the least allowed, {self.min}")
            if self.max is not None and value > self.max:
                raise Refused(f"{self.title}: {value} is above the most allowed, {self.max}")
            return value
        if self.kind == BOOL:
            if isinstance(raw, bool):
                return raw
            text = str(raw).strip().lower()
            if text in ("y", "yes", "true", "1", "on"):
                return True
            if text in ("n", "no", "false", "0", "off"):
                return False
            raise Refused(f"{self.title}: answer yes or no, not '{raw}'")
        if self.kind == CHOICE:
            text = str(raw).strip()
            for c in self.choices:
                if c.lower() == text.lower():
                    return c
            raise Refused(f"{self.title}: '{raw}' is not one of {', '.join(self.choices)}")
        if self.kind == COMBATANTS:
            if isinstance(raw, str):
                return tuple(x.strip() for x in raw.split(",") if x.strip())
            return tuple(raw)
        if self.kind == MODIFIERS:
            if isinstance(raw, str):
                return parse_modifiers(raw)
            return tuple(raw)
        if self.kind == DICE:
            try:
                parse_dice(str(raw))
            except TrackerError as e:
                raise Refused(f"{self.title}: {e}") from None
            return str(raw).strip()
        text = str(raw).strip()
        if self.required and not text:
            raise Refused(f"{self.title}: a value is needed")
        return text


@attrs.frozen(kw_only=True)
class CommandSpec:
    """A command a system offers, declared so the app can build its form."""

    name: str
    title: str
    build: Callable[..., Any]
    # the params; or (see tracker.kit.spec) a function that works them out of the command's fields when first
    # asked for, so that listing a system's actions (the key bar of a fight's first frame) builds no command class
    declared: tuple[Param, ...] | Callable[[], tuple[Param, ...]] = attrs.field(default=(), alias="params")
    key: str | None = None
    help: str = ""
    actor: str | None = "actor"  # the param that defaults to the current combatant (who acts on its turn)
    # the param that defaults to the GM's selected combatant (or the marked ones, for several):
    # the target of an attack, the subject of a GM action (an injury inflicted, a death save);
    # None: the first required combatant param that is not the actor
    subject: str | None = None
    # starting values that depend on the acting combatant (its best attack skill, say);
    # called by a UI with the state and the actor's id once it knows who acts
    defaults: Callable[[FightState, str], Mapping[str, Any]] | None = None
    # choices that depend on the fight: for the form's combatant, choice fields' choices now (the first is
    # where the field starts): the failed checks a cinematic may reroll
    choices: Callable[[FightState, str], Mapping[str, tuple[str, ...]]] | None = None
    # an action of the running fight only (an attack, taken on a turn): its form does not open before the fight
    # starts or after it ends, where the rules would refuse it whatever the form said
    in_fight: bool = False
    # the field the form's cursor starts in (None: the first one the GM is likely to change, as the form finds it)
    focus: str | None = None

    @property
    def params(self) -> tuple[Param, ...]:
        """The form's parameters, in order (worked out once, on first use, when the spec was given a function)."""
        declared = self.declared
        if callable(declared):
            declared = declared()
            object.__setattr__(self, "declared", declared)  # a cache of what the function gives, always the same
        return declared

    def defaults_for(self, state: FightState, actor: str | None) -> dict[str, Any]:
        """The actor-dependent starting values; a failing hook gives none (the form still opens)."""
        if self.defaults is None or not actor:
            return {}
        try:
            return dict(self.defaults(state, actor))
        except Exception:
            return {}

    def params_for(self, state: FightState, who: str | None) -> tuple[Param, ...]:
        """The params with the choices they have now for ``who`` (a failing hook gives the declared ones)."""
        if self.choices is None or not who:
            return self.params
        try:
            now = dict(self.choices(state, who))
        except Exception:
            return self.params
        return tuple(
            attrs.evolve(p, choices=tuple(now[p.name])) if p.kind == CHOICE and now.get(p.name) else p
            for p in self.params
        )

    def make(self, values: Mapping[str, Any], params: tuple[Param, ...] | None = None) -> Any:
        """Parse every parameter (``params``: as :meth:`params_for` gave them) and build the command; Refused
        names the bad field."""
        parsed = {p.name: p.parse(values.get(p.name)) for p in (params or self.params)}
        try:
            return self.build(**parsed)
        except TypeError as e:  # a declaration that does not match its command
            raise Refused(f"{self.title}: {e}") from None


# ---------------------------------------------------------------------------
# core commands, known to every system


@attrs.frozen(kw_only=True)
class AddCombatant:
    """Add one combatant, or ``count`` of them as a group ("4 Outlaws")."""

    name: str = ""  # empty: the preset's name
    kind: str = "npc"
    group: str | None = None
    sheet: Mapping[str, Any] = attrs.field(factory=dict, hash=False)
    preset: str | None = None
    count: int = 1
    hidden: bool = False  # kept from the players' view until revealed
    alias: str = ""  # the players' view's name for it when NPC names are hidden (default: the preset's name)


@attrs.frozen(kw_only=True)
class RemoveCombatant:
    id: str
    reason: str = ""


@attrs.frozen(kw_only=True)
class RenameCombatant:
    id: str
    name: str


@attrs.frozen(kw_only=True)
class RollInitiative:
    """Roll initiative by the system's procedure (all, or just ``ids``).

    In a running fight it rolls only for those without an initiative (reinforcements) and slots them into the
    order, everyone else's roll, the order and the turn left alone; ``reroll``: the whole order is rolled again
    at the start of the next round instead (the GM's explicit choice)."""

    ids: tuple[str, ...] = ()
    reroll: bool = False


@attrs.frozen(kw_only=True)
class SetInitiative:
    """Initiative values the GM gives (e.g. rolled on real dice and added up)."""

    values: Mapping[str, int] = attrs.field(hash=False)


@attrs.frozen(kw_only=True)
class MoveInOrder:
    id: str
    position: int  # 0-based place in the order


@attrs.frozen(kw_only=True)
class StartFight:
    surprise: tuple[str, ...] = ()  # ids that act in a surprise round before round 1


@attrs.frozen(kw_only=True)
class NextTurn:
    pass


@attrs.frozen(kw_only=True)
class Delay:
    """The current combatant holds its action to act later in the round."""

    id: str | None = None


@attrs.frozen(kw_only=True)
class ActNow:
    """A held combatant acts now, before whoever is current."""

    id: str


@attrs.frozen(kw_only=True)
class AddCondition:
    id: str
    name: str
    rounds: int | None = None
    ends_on: str | None = None
    ends_at: str = "end"
    value: int = 0
    note: str = ""


@attrs.frozen(kw_only=True)
class RemoveCondition:
    id: str
    name: str


@attrs.frozen(kw_only=True)
class Adjust:
    """GM adjust of any tracked value (core fields or the system's own).

    ``restore``: a step that brings a party member or a preset kept "as it was" back to how it was; a value that
    already holds is then no change, not refused (one value's step may set another: bnb's temporary damage takes
    HP with it, and "Hero's HP is already 5" refused the whole party), and the system does not react to it as to
    harm (a PC kept knocked out came back dying, asked a death save that never happened), as a preset's steps
    never were reacted to (tests/core/test_parties_now.py)."""

    id: str
    field: str
    value: Any
    note: str = ""
    restore: bool = False


@attrs.frozen(kw_only=True)
class Note:
    text: str
    id: str | None = None


@attrs.frozen(kw_only=True)
class DismissPrompt:
    """The GM settles a prompt by ruling, without the roll: ``outcome`` is one of the prompt's outcomes
    ("dies" on a death save); empty, the prompt closes as it did before prompts named their outcomes."""

    prompt_id: str
    note: str = ""
    outcome: str = ""


@attrs.frozen(kw_only=True)
class EndFight:
    note: str = ""


@attrs.frozen(kw_only=True)
class Damage:
    """Quick harm to one or more combatants, in the system's own measure, through its own harm path.

    ``amount`` is what the system measures harm in: Blood & Bullets HP (a number,
    arithmetic or dice: ``7``, ``3+4``, ``2d6+1``), blackjack an injury level
    (``lesser`` … ``fatal``), Zludge a damage level (0–4), 2d6 Gamma wounds.
    ``temporary`` is non-lethal harm where the system has it (fists in B&B).
    ``one_roll``: an amount with dice is rolled once and that total dealt to
    every target (dynamite, a breath, a roof coming down), each through its own
    rules (armor, thresholds, prompts); otherwise each target gets its own roll.
    """

    targets: tuple[str, ...]
    amount: str
    temporary: bool = False
    note: str = ""
    one_roll: bool = False


@attrs.frozen(kw_only=True)
class Heal:
    """Quick healing, in the system's own measure; a system that cannot heal in combat refuses it."""

    targets: tuple[str, ...]
    amount: str
    note: str = ""


@attrs.frozen(kw_only=True)
class Rest:
    """Let time pass outside the fight: each system applies its book's recovery.

    ``ids`` empty: everyone.  ``hours`` and ``days`` add up (a week is
    ``days=7``); ``quality`` is one of the system's rest qualities (``""``: its
    first, the best).  Refused during a fight: there time passes only by turns.
    """

    ids: tuple[str, ...] = attrs.field(default=())
    hours: int = attrs.field(default=0)
    days: int = attrs.field(default=0)
    quality: str = attrs.field(default="")
    note: str = attrs.field(default="")


@attrs.frozen(kw_only=True)
class Hide:
    """Keep combatants from the players' view."""

    ids: tuple[str, ...]


@attrs.frozen(kw_only=True)
class Reveal:
    """Show hidden combatants in the players' view."""

    ids: tuple[str, ...]


@attrs.frozen(kw_only=True)
class NameFight:
    name: str


@attrs.frozen(kw_only=True)
class SetDiceMode:
    """The GM rolls physical dice and types the faces in (``typed``), or the tracker rolls."""

    typed: bool


@attrs.frozen(kw_only=True)
class SetView:
    """What the players' view shows: NPC numbers, NPC names, dice results."""

    npc_numbers: bool = False
    npc_names: bool = True
    dice: bool = True


def _condition_from(cmd: AddCondition) -> Condition:
    return Condition(
        name=cmd.name,
        rounds=cmd.rounds,
        ends_on=cmd.ends_on,
        ends_at=cmd.ends_at,
        value=cmd.value,
        note=cmd.note,
    )


CORE_SPECS: tuple[CommandSpec, ...] = (
    CommandSpec(
        name="note",
        title="Note",
        build=lambda text, id=None: Note(text=text, id=id),
        params=(
            Param(name="text", label="Note", help="Free text for the log"),
            Param(name="id", kind=COMBATANT, label="About", required=False),
        ),
        actor=None,
        help="Write a free-text note into the fight log.",
    ),
    CommandSpec(
        name="add_condition",
        title="Add condition",
        build=lambda id, name, rounds=None, ends_on=None, ends_at="end", value=0: AddCondition(
            id=id, name=name, rounds=rounds, ends_on=ends_on, ends_at=ends_at, value=value
        ),
        params=(
            Param(name="id", kind=COMBATANT, label="On"),
            Param(name="name", label="Condition"),
            Param(name="rounds", kind=INT, label="Rounds", required=False, min=1, help="Empty: until removed"),
            Param(
                name="ends_on",
                kind=COMBATANT,
                label="Ends on turn of",
                required=False,
                help="Empty: the same point of the order N rounds on",
            ),
            Param(name="ends_at", kind=CHOICE, choices=("end", "start"), default="end", label="At the turn's"),
            Param(name="value", kind=INT, default=0, label="Value", help="A number the system reads (e.g. +2 DV)"),
        ),
        actor="id",
        help="Put a condition on a combatant, optionally for some rounds.",
    ),
    CommandSpec(
        name="remove_condition",
        title="Remove condition",
        build=lambda id, name: RemoveCondition(id=id, name=name),
        params=(Param(name="id", kind=COMBATANT, label="From"), Param(name="name", label="Condition")),
        actor="id",
        help="Clear a condition from a combatant.",
    ),
)
