"""What registering checks of the names and types a plug-in gives (the outside author's report: F-union,
F-checks, F-turn, F-text): an event field a fight file cannot read back, a ``fight_only`` or ``GM_WORDS`` name
that names nothing, ``rest_qualities`` or ``turn_commands`` of the wrong kind.  Each passed, then lost a fight's
record, leaked a fight-only value into a party, offered single letters, dropped a players' view line or made
every command crash."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import attrs
import pytest

from tests.core.test_plugin_check import Strike, Struck, Tiny, Weigh, problems_of
from tracker.commands import BOOL, INT, CommandSpec, Param
from tracker.dice import Roll
from tracker.events import Event
from tracker.kit import spec
from tracker.model import Combatant, FightState
from tracker.plugin_check import check_system

# -- F-union: field types a fight file reads back ---------------------------------------------------------------


@attrs.frozen(kw_only=True)
class Attacked(Event):
    TYPE = "tiny.attacked"
    target: str
    bonus: int | str = 0


@attrs.frozen(kw_only=True)
class Rolled(Event):
    TYPE = "tiny.rolled"
    roll: Roll | int
    anything: object = None


@attrs.frozen(kw_only=True)
class Gathered(Event):
    TYPE = "tiny.gathered"
    names: frozenset[str] = frozenset()
    by_round: dict[int, int] = attrs.field(factory=dict)


@attrs.frozen(kw_only=True)
class Mark:
    label: str | int = ""


@attrs.frozen(kw_only=True)
class Marked(Event):
    TYPE = "tiny.marked"
    marks: tuple[Mark, ...] = ()


@pytest.mark.parametrize(
    ("event", "said"),
    [
        (Attacked, "the event Attacked's field bonus (int | str) cannot be read back from a fight file"),
        (Rolled, "the event Rolled's field roll (Roll | int) cannot be read back from a fight file"),
        (Rolled, "the event Rolled's field anything (object) cannot be read back from a fight file"),
        (Gathered, "the event Gathered's field names (frozenset[str]) cannot be read back from a fight file"),
        (Gathered, "the event Gathered's field by_round (dict[int, int]) cannot be read back"),
        (Marked, "the event Marked's field marks (tuple[Mark, ...]) cannot be read back from a fight file: Mark's"),
    ],
)
def test_an_event_field_a_fight_file_cannot_read_back_is_refused_by_class_and_field(
    event: type[Event], said: str
) -> None:
    class Odd(Tiny):
        event_types: ClassVar[tuple[type[Event], ...]] = (Struck, event)

    assert said in problems_of(Odd())


def test_the_field_types_a_fight_file_reads_back_pass() -> None:
    @attrs.frozen(kw_only=True)
    class Fine(Event):
        TYPE = "tiny.fine"
        roll: Roll | None = None
        rolls: tuple[Roll, ...] = ()
        pair: tuple[int, str] = (0, "")
        sheet: dict[str, Any] = attrs.field(factory=dict)
        many: list[float] = attrs.field(factory=list)
        note: str = ""
        hit: bool = False

    class Odd(Tiny):
        event_types: ClassVar[tuple[type[Event], ...]] = (Struck, Fine)

    check_system(Odd())


@attrs.frozen(kw_only=True)
class OddData:
    hp: int
    wound: int | str = 0


def test_a_record_or_command_field_a_fight_file_cannot_read_back_is_refused() -> None:
    @attrs.frozen(kw_only=True)
    class Aim:
        actor: str
        at: int | str = 0

    class Odd(Tiny):
        def make_data(self, kind: str, sheet: Mapping[str, Any]) -> OddData:
            return OddData(hp=sheet["hp"])

        def commands(self) -> tuple[CommandSpec, ...]:
            return (*super().commands(), CommandSpec(name="aim", title="Aim", build=Aim, params=(Param(name="actor"),)))

    said = problems_of(Odd())
    assert "the record OddData's field wound (int | str) cannot be read back from a fight file" in said
    assert "the command Aim's field at (int | str) cannot be read back from a fight file" in said


# -- F-checks: fight_only, rest_qualities, GM_WORDS -------------------------------------------------------------


class Critical(Tiny):
    """A GM adjust field of the combatant's own ("critical"), set by the plug-in's adjust."""

    def adjustable(self, state: FightState, combatant: Combatant) -> tuple[Param, ...]:
        return (*super().adjustable(state, combatant), Param(name="critical", kind=BOOL))

    def adjust(self, state: FightState, combatant: Combatant, field: str, value: Any) -> Combatant:
        return combatant if field == "critical" else super().adjust(state, combatant, field, value)


def test_a_fight_only_name_adjustable_does_not_offer_is_refused() -> None:
    """The misspelt "critcal" let a critical PC's flag be saved in a party "as they are now"."""

    class Odd(Critical):
        fight_only = ("critcal",)

    assert "fight_only names 'critcal', which adjustable does not offer (did you mean critical?)" in problems_of(Odd())

    class Right(Critical):
        fight_only = ("critical", "hp")  # (a record field not offered for the sample passes too)

    check_system(Right())


def test_fight_only_and_rest_qualities_are_tuples_of_names() -> None:
    """``rest_qualities = "short rest"`` offered s, h, o, r, t as the rest form's choices."""

    class Odd(Critical):
        fight_only = "critical"  # type: ignore[assignment]
        rest_qualities = "short rest"  # type: ignore[assignment]

    said = problems_of(Odd())
    assert "rest_qualities must be a tuple of names, like ('short rest', 'long rest'), not 'short rest'" in said
    assert "fight_only must be a tuple of names, like ('acted',), not 'critical'" in said


@pytest.mark.parametrize("junk", ["Order", ("set the order",), ("", "Order"), ("set the order", 3)])
def test_initiative_words_are_two_words_to_show(junk: Any) -> None:
    """The setup header ("I set the order") and the key bar ("I Order") show them: a text, one word, an empty one
    or a number is refused by name when the system registers."""

    class Odd(Critical):
        initiative_words = junk

    assert f"initiative_words must be two words to show, like ('set the order', 'Order'), not {junk!r}" in problems_of(
        Odd()
    )

    class Right(Critical):
        initiative_words = ("set the order", "Order")

    check_system(Right())


@pytest.mark.parametrize("junk", ["no", 0, None])
def test_rolls_initiative_is_true_or_false(junk: Any) -> None:
    """The help, the palette and E's form read it (tests/ui/test_no_initiative_words.py): a text ("no" is true),
    a number or None is refused by name when the system registers."""

    class Odd(Critical):
        rolls_initiative = junk

    assert f"rolls_initiative must be True or False (False: the book has no initiative), not {junk!r}" in problems_of(
        Odd()
    )

    class Right(Critical):
        rolls_initiative = False

    check_system(Right())


@attrs.frozen(kw_only=True)
class Noted(Event):
    TYPE = "tiny.noted"
    note: str = ""
    GM_WORDS = ("notes",)


@attrs.frozen(kw_only=True)
class Said(Event):
    TYPE = "tiny.said"
    note: str = ""
    GM_WORDS = "note"  # type: ignore[assignment]


def test_gm_words_that_name_no_field_of_the_event_are_refused() -> None:
    """The players' view made the event with ``notes=""``: TypeError, and the line was dropped."""

    class Odd(Tiny):
        event_types: ClassVar[tuple[type[Event], ...]] = (Struck, Noted, Said)

    said = problems_of(Odd())
    assert "the event Noted's GM_WORDS names 'notes', which is no field of it (did you mean note?)" in said
    assert "the event Said's GM_WORDS must be a tuple of its field names, like ('note',), not 'note'" in said


# -- F-turn: turn_commands --------------------------------------------------------------------------------------


def test_turn_commands_given_as_names_are_refused_with_the_class_meant() -> None:
    """``("strike",)`` passed, then every command crashed in the engine's isinstance."""

    class Odd(Tiny):
        turn_commands = ("strike",)  # type: ignore[assignment]

    assert "turn_commands must be command classes (Strike), not 'strike'" in problems_of(Odd())


def test_turn_commands_of_no_form_of_the_system_are_refused() -> None:
    class Odd(Tiny):
        turn_commands = (Weigh,)

    assert "turn_commands holds Weigh, which no command form of the system builds" in problems_of(Odd())

    class Base:
        pass

    @attrs.frozen(kw_only=True)
    class Swing(Base):
        actor: str

    class Right(Tiny):
        turn_commands = (Strike, Base)  # (a class of the commands built passes)

        def commands(self) -> tuple[CommandSpec, ...]:
            return (*super().commands(), spec(Swing, name="swing", title="Swing"))

    check_system(Right())


# -- F-text: harm_params ----------------------------------------------------------------------------------------


def test_a_quick_harm_form_that_both_refuse_is_said_once() -> None:
    """ "(it may add only nothing)", and the one harm_params named twice."""

    class Odd(Tiny):
        def harm_params(self, heal: bool) -> tuple[Param, ...]:
            return (Param(name="amount"), Param(name="armour_piercing", kind=INT))

    said = problems_of(Odd())
    assert said.endswith(
        "the quick damage and heal forms (harm_params) ask for 'armour_piercing', which neither Damage nor Heal has"
        " a field for (Damage takes amount and temporary; Heal takes only amount)"
    )
    assert said.count("harm_params") == 1 and "nothing" not in said

    class Temporary(Tiny):
        def harm_params(self, heal: bool) -> tuple[Param, ...]:
            return (Param(name="amount"), Param(name="temporary", kind=BOOL))

    assert problems_of(Temporary()).endswith(
        "the quick heal form (harm_params) asks for 'temporary', which Heal has no field for (Heal takes only amount)"
    )
