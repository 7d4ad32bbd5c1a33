"""A line the writer appends reads back: an event whose value the fight file cannot read again is refused before
it is written ("the action was not taken"), never written and found "damaged" when the fight is opened again.

The outside author's report (F-union): an event field typed ``int | str`` passed every check; the attack was
accepted, logged and saved, then ``tracker check`` and reopening said "damaged at line 10 ... Unsupported type:
int | str", and every action from there was lost."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import attrs
import pytest

import saves
from systems.toy.plugin import ToySystem
from tracker import AddCombatant, StartFight, registry
from tracker.dice import Roller
from tracker.events import Event
from tracker.model import FightState

pytestmark = pytest.mark.reliability


@attrs.frozen(kw_only=True)
class Tallied(Event):
    TYPE = "toy.tallied"
    actor: str
    by_round: int | str  # the reader cannot tell which: refused by the registry, and by the writer


@attrs.frozen(kw_only=True)
class Counted(Event):
    TYPE = "toy.counted"
    actor: str
    count: int
    seen: tuple[str, ...] = ()


@attrs.frozen(kw_only=True)
class Tally:
    actor: str
    value: Any = 7  # what decide puts in the event's field


class Tallying(ToySystem):
    """The toy with a command that logs one more event of the kind the test gives."""

    event_types: ClassVar[tuple[type[Event], ...]] = (*ToySystem.event_types, Tallied, Counted)

    def decide(self, state: FightState, command: Any, dice: Roller) -> list[Event]:
        if isinstance(command, Tally):
            if isinstance(command.value, list):
                return [Counted(actor=command.actor, count=1, seen=command.value)]  # type: ignore[arg-type]
            if command.value == "count":
                return [Counted(actor=command.actor, count="7")]  # type: ignore[arg-type]  # a text in an int field
            return [Tallied(actor=command.actor, by_round=command.value)]
        return super().decide(state, command, dice)

    def evolve(self, state: FightState, event: Event) -> FightState:
        return state if isinstance(event, Tallied | Counted) else super().evolve(state, event)


@pytest.fixture
def tallying(monkeypatch: pytest.MonkeyPatch) -> Iterator[Tallying]:
    """Known to the registry without its checks (which refuse it, see test_plugin_check2): a plug-in loaded from
    an entry point is checked only for what it declares.  The toy registered for every test comes back after."""
    system = Tallying()
    monkeypatch.setitem(registry._extra, "toy", system)
    monkeypatch.delitem(registry._cache, "toy", raising=False)
    yield system
    registry._cache.pop("toy", None)  # (the Tallying cached under the toy's id: the toy is found again)


def started(system: Tallying, path: Path) -> saves.SavedFight:
    f = saves.new_fight(system, path, seed=1)
    f.do(AddCombatant(name="Alice", kind="pc"))
    f.do(StartFight())
    return f


@pytest.mark.parametrize(("value", "why"), [(7, "reads no value of the type int | str"), ("count", "expected a whole")])
def test_an_event_that_would_not_read_back_is_refused_before_it_is_written(
    tallying: Tallying, tmp_path: Path, value: Any, why: str
) -> None:
    path = tmp_path / "f.jsonl"
    f = started(tallying, path)
    written = path.read_bytes()
    with pytest.raises(
        saves.SaveError, match=f"cannot be read back from a fight file.*{why}.*the action was not taken"
    ):
        f.do(Tally(actor="c1", value=value))
    assert path.read_bytes() == written  # nothing half-written
    f.close()
    again = saves.load(path).fight()  # opens whole, not "damaged at line N"
    assert [c.name for c in again.state.combatants] == ["Alice"]


def test_a_list_where_the_class_says_tuple_is_written_and_reads_back(tallying: Tallying, tmp_path: Path) -> None:
    """Not refused: the line reads back to an event that writes the same line (the tuple it declares)."""
    path = tmp_path / "f.jsonl"
    f = started(tallying, path)
    f.do(Tally(actor="c1", value=["x", "y"]))
    f.close()
    last = saves.load(path).entries[-1].event
    assert last == Counted(actor="c1", count=1, seen=("x", "y"))
