"""Registration, a second round of an outside author's findings: a hook overridden with parameters the core does not
give it, or with something that is not called; ``name`` or ``version`` other than ``about`` says; an event the
plug-in's Evolver has no function for. Each is refused by name, and the built-ins and the toy still pass."""

from __future__ import annotations

from typing import Any, ClassVar

import attrs
import pytest

from tests.core.test_plugin_check import Struck, Tiny, problems_of
from tracker import registry
from tracker.errors import UnknownEvent
from tracker.events import Event
from tracker.kit import Evolver
from tracker.model import Combatant, FightState
from tracker.plugin import About
from tracker.plugin_check import check_system
from tracker.testing import check_plugin

# -- hooks: what the core gives them ---------------------------------------------------------------------------------


def test_a_hook_overridden_with_the_wrong_parameters_or_not_callable_is_refused() -> None:
    class WrongParameters(Tiny):
        def status(self, c: Combatant) -> str:  # type: ignore[override]
            return "x"

    class NotCalled(Tiny):
        status = "HP"  # type: ignore[assignment]

    class KeywordNeeded(Tiny):
        def detail(self, state: FightState, combatant: Combatant, *, long: bool) -> str:
            return "x"

    assert "status takes (state, combatant), as System.status does; this one takes (c)" in problems_of(
        WrongParameters()
    )
    assert "status is a hook to call, status(state, combatant), as System.status is; this one is 'HP'" in problems_of(
        NotCalled()
    )
    assert "detail takes (state, combatant), as System.detail does; this one takes (state, combatant, long)" in (
        problems_of(KeywordNeeded())
    )


def test_a_base_system_hook_and_one_set_on_the_instance_are_checked_too() -> None:
    class WrongRest(Tiny):
        def rest(self, state: FightState, command: Any) -> list[Event]:  # type: ignore[override]
            return []

    system = Tiny()
    system.help = "read the book"  # type: ignore[method-assign,assignment]
    assert "rest takes (state, command, dice), as BaseSystem.rest does; this one takes (state, command)" in (
        problems_of(WrongRest())
    )
    assert "help is a hook to call, help(), as System.help is; this one is 'read the book'" in problems_of(system)


def test_a_hook_taking_more_with_defaults_or_star_args_passes() -> None:
    class Roomy(Tiny):
        def status(self, state: FightState, c: Combatant, long: bool = False) -> str:  # (another name: fine)
            return "x"

        def detail(self, *args: Any, **kwargs: Any) -> str:
            return "x"

        @staticmethod
        def public(state: FightState, combatant: Combatant) -> str:
            return "x"

        @classmethod
        def awards(cls, state: FightState) -> tuple[str, ...]:
            return ()

    check_system(Roomy())


# -- about -----------------------------------------------------------------------------------------------------------


class Told(Tiny):
    about = About(id="tiny", name="Tiny", version="1", summary="A small one")


def test_a_name_or_version_other_than_about_says_is_refused() -> None:
    class Renamed(Told):
        name = "Other"
        version = "9"

    said = problems_of(Renamed())
    assert "name is 'Other' but about says 'Tiny' (the start screen lists about: set it in ABOUT only)" in said
    assert "version is '9' but about says '1'" in said
    check_system(Told())  # (about sets them)

    class Reided(Told):  # another system, as tests make one of the toy: its inherited about lists nothing
        id = "other"
        name = "Other"
        event_types = ()  # (Tiny's are tagged "tiny.")

    check_system(Reided())


# -- evolve functions ------------------------------------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class Swung(Event):
    TYPE = "tiny.swung"
    actor: str


EVOLVE = Evolver("tiny.")


@EVOLVE.on(Struck)
def _struck(state: FightState, event: Struck) -> FightState:
    return state


class Evolving(Tiny):
    """The guide's layout: evolve hands each event to the Evolver of evolve.py."""

    event_types: ClassVar[tuple[type[Event], ...]] = (Struck, Swung)

    def evolve(self, state: FightState, event: Event) -> FightState:
        return EVOLVE(state, event)


def test_an_event_with_no_evolve_function_is_said_at_play_time_by_name() -> None:
    """Not checked at registration (an evolve's code is not read to find its Evolver): the first action that logs
    the event is refused naming the function to write."""
    with pytest.raises(UnknownEvent, match=r"no function for Swung \(@evolve.on\(Swung\)\)"):
        EVOLVE(FightState(system="tiny"), Swung(actor="c1"))
    check_system(Evolving())  # registers: the check is the play-time refusal above


# -- the wording of a tag left out, and the built-ins --------------------------------------------------------------


def test_an_event_without_a_tag_is_told_the_form_of_one() -> None:
    @attrs.frozen(kw_only=True)
    class Untagged(Event):
        pass

    class Tagged(Tiny):
        event_types = (Struck, Untagged)

    assert "the event Untagged says no TYPE tag of its own (give it TYPE = 'tiny.<name>')" in problems_of(Tagged())


@pytest.mark.parametrize("system_id", ["bnb", "blackjack", "zludge", "twod6", "toy"])
def test_every_built_in_system_and_the_toy_register_and_pass_check_plugin(system_id: str) -> None:
    if system_id == "toy":
        from systems.toy.plugin import system
    else:
        system = registry.load(system_id)
    check_plugin(system)
    registry.register(system)
    if system_id != "toy":  # (the toy stays registered for every test: tests/conftest.py)
        registry.unregister(system_id)  # the next load finds it by its entry point again
