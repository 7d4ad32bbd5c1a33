"""A plug-in checked as it is registered: each check meets a deliberately broken small plug-in, and says what is
wrong by name; a broken third-party plug-in is reported by the registry, not fatal; the built-ins pass."""

from __future__ import annotations

import sys
import types
from collections.abc import Mapping
from importlib.metadata import EntryPoint
from typing import Any, ClassVar

import attrs
import pytest

from tracker import Fight, registry
from tracker.commands import BOOL, CHOICE, INT, CommandSpec, Param
from tracker.dice import Roller, ScriptedRoller
from tracker.errors import TrackerError
from tracker.events import Event, PromptRaised
from tracker.kit import Rules, prompt, spec
from tracker.model import Combatant, FightState
from tracker.plugin import BaseSystem
from tracker.plugin_check import HOOKS, PluginError, check_system


@attrs.frozen(kw_only=True)
class Struck(Event):
    TYPE = "tiny.struck"
    target: str


@attrs.frozen(kw_only=True)
class Strike:
    actor: str
    target: str
    hard: bool = False


@attrs.frozen(kw_only=True)
class Weigh:
    actor: str
    how: str = "hard"


@attrs.frozen(kw_only=True)
class TinyData:
    hp: int


RULES = Rules()


@RULES.on(Strike)
def _strike(d: Any, cmd: Strike, dice: Roller) -> None:
    d.add(prompt("reel", "reeling", cmd.target, command="strike", params={"actor": cmd.target, "target": cmd.actor}))


class Tiny(BaseSystem[TinyData]):
    """A small plug-in that passes every check; each test breaks one thing of it."""

    id = "tiny"
    name = "Tiny"
    event_types: ClassVar[tuple[type[Event], ...]] = (Struck,)

    def sheet_fields(self, kind: str) -> tuple[Param, ...]:
        return (Param(name="hp", kind=INT, default=5),)

    def make_data(self, kind: str, sheet: Mapping[str, Any]) -> TinyData:
        return TinyData(hp=sheet["hp"])

    def commands(self) -> tuple[CommandSpec, ...]:
        return (spec(Strike, name="strike", title="Strike", subject="target"),)

    def decide(self, state: FightState, command: Any, dice: Roller) -> list[Event]:
        return RULES.decide(self, state, command, dice)

    def adjustable(self, state: FightState, combatant: Combatant) -> tuple[Param, ...]:
        return (Param(name="hp", kind=INT, min=0, max=99),)


def problems_of(system: BaseSystem[Any]) -> str:
    with pytest.raises(PluginError) as caught:
        check_system(system)
    return str(caught.value)


def test_the_small_plugin_passes_every_check() -> None:
    check_system(Tiny())


@pytest.mark.parametrize("system_id", ["bnb", "blackjack", "zludge", "twod6"])
def test_every_built_in_system_passes_every_check(system_id: str) -> None:
    check_system(registry.load(system_id))


def test_the_toy_passes_every_check() -> None:
    from systems.toy.plugin import system

    check_system(system)


# -- hooks -------------------------------------------------------------------------------------------------------


def test_a_misspelt_hook_is_refused_by_name_with_the_hook_it_meant() -> None:
    class Misspelt(Tiny):
        def standings(self, state: FightState, combatant: Combatant) -> Any:
            return None

    assert "standings is not a hook; did you mean standing?" in problems_of(Misspelt())


def test_a_public_helper_or_attribute_that_is_no_hook_is_refused_and_told_to_take_an_underscore() -> None:
    class Helpers(Tiny):
        HELP_TEXT = "x"

        def zzz(self) -> None: ...

        def _private_helper(self) -> None: ...  # fine: the plug-in's own

    said = problems_of(Helpers())
    assert "zzz is not a hook (a helper of the plug-in's own is named with a leading underscore: _zzz)" in said
    assert "HELP_TEXT is not a hook" in said and "_private_helper" not in said


def test_an_attribute_set_on_the_instance_is_checked_too() -> None:
    system = Tiny()
    system.sumary = "typo"  # type: ignore[attr-defined]
    assert "sumary is not a hook; did you mean summary?" in problems_of(system)


def test_every_hook_of_the_protocol_and_of_base_system_is_allowed() -> None:
    assert {"standing", "tally", "harm_params", "roll_initiative", "fight_only", "data", "prompt_data"} <= HOOKS


# -- event tags --------------------------------------------------------------------------------------------------


def test_an_event_tag_without_the_system_id_is_refused() -> None:
    @attrs.frozen(kw_only=True)
    class Wrong(Event):
        TYPE = "other.wrong"

    class Tagged(Tiny):
        event_types = (Struck, Wrong)

    assert "the event Wrong's tag 'other.wrong' does not start with the system's id ('tiny.')" in problems_of(Tagged())


def test_an_event_without_a_tag_of_its_own_or_with_a_tag_taken_is_refused() -> None:
    @attrs.frozen(kw_only=True)
    class Untagged(Struck):
        pass

    @attrs.frozen(kw_only=True)
    class Twin(Event):
        TYPE = "tiny.struck"

    class Tagged(Tiny):
        event_types = (Struck, Untagged, Twin)

    said = problems_of(Tagged())
    assert "the event Untagged says no TYPE tag of its own" in said
    assert "the events Struck and Twin have the same tag 'tiny.struck'" in said


# -- command forms -----------------------------------------------------------------------------------------------


def test_a_form_field_that_names_no_field_of_the_command_is_refused() -> None:
    class Odd(Tiny):
        def commands(self) -> tuple[CommandSpec, ...]:
            params = (Param(name="actor"), Param(name="targt"))
            return (CommandSpec(name="strike", title="Strike", build=Strike, params=params),)

    said = problems_of(Odd())
    assert "the command strike's form asks for 'targt', which Strike has no field for (did you mean target?)" in said
    assert "the command strike's form leaves out target, which Strike needs" in said


def test_a_spec_whose_fields_name_no_field_of_the_command_is_refused() -> None:
    class Odd(Tiny):
        def commands(self) -> tuple[CommandSpec, ...]:
            return (spec(Strike, name="strike", title="Strike", fields={"hardd": Param(name="hardd", kind=BOOL)}),)

    assert "the command strike's form: Strike has no field(s) ['hardd']" in problems_of(Odd())


def test_a_choice_field_with_a_label_too_few_or_too_many_is_refused() -> None:
    class Odd(Tiny):
        def commands(self) -> tuple[CommandSpec, ...]:
            how = Param(name="how", kind=CHOICE, choices=("hard", "soft"), choice_labels=("Hard",))
            return (spec(Weigh, name="weigh", title="Weigh", fields={"how": how}),)

    assert "the command weigh's field 'how' has 1 choice labels for 2 choices" in problems_of(Odd())


def test_an_actor_or_subject_that_names_no_field_of_the_form_is_refused() -> None:
    class Odd(Tiny):
        def commands(self) -> tuple[CommandSpec, ...]:
            return (spec(Strike, name="strike", title="Strike", actor="attacker", subject="targets"),)

    said = problems_of(Odd())
    assert "the command strike's actor 'attacker' is no field of its form" in said
    assert "the command strike's subject 'targets' is no field of its form (did you mean target?)" in said


def test_a_quick_harm_form_may_add_only_what_damage_has() -> None:
    class Odd(Tiny):
        def harm_params(self, heal: bool) -> tuple[Param, ...]:
            return (Param(name="amount"), Param(name="lethal", kind=BOOL))

    said = problems_of(Odd())
    assert (
        "the quick damage and heal forms (harm_params) ask for 'lethal', which neither Damage nor Heal has a field"
        " for (Damage takes amount and temporary; Heal takes only amount)"
    ) in said
    assert said.count("harm_params") == 1 and "nothing" not in said


def test_a_quick_harm_form_may_not_add_the_cores_one_roll() -> None:
    """The form adds "One roll for all" itself: a plug-in's own showed it twice."""

    class Odd(Tiny):
        def harm_params(self, heal: bool) -> tuple[Param, ...]:
            return (Param(name="amount"), Param(name="one_roll", kind=BOOL))

    assert "the quick damage and heal forms (harm_params) ask for 'one_roll'" in problems_of(Odd())


def test_a_command_key_is_one_letter_or_digit_and_no_two_share_one() -> None:
    class Worded(Tiny):
        def commands(self) -> tuple[CommandSpec, ...]:
            return (spec(Strike, name="strike", title="Strike", subject="target", key="st"),)

    assert "the command strike's key 'st' is no single letter or digit" in problems_of(Worded())

    class Twice(Tiny):
        def commands(self) -> tuple[CommandSpec, ...]:
            return (
                spec(Strike, name="strike", title="Strike", subject="target", key="k"),
                spec(Weigh, name="weigh", title="Weigh", key="k"),
            )

    assert "the commands strike and weigh have the same key 'k'" in problems_of(Twice())


def test_a_quick_harm_form_starts_with_the_amount() -> None:
    class Odd(Tiny):
        def harm_params(self, heal: bool) -> tuple[Param, ...]:
            return (Param(name="temporary", kind=BOOL), Param(name="amount"))

    assert "the quick damage and heal forms (harm_params) must start with 'amount', not ['temporary']" in (
        problems_of(Odd())
    )


# -- GM adjust ---------------------------------------------------------------------------------------------------


def test_an_adjust_field_that_names_no_field_of_the_record_is_refused() -> None:
    class Odd(Tiny):
        def adjustable(self, state: FightState, combatant: Combatant) -> tuple[Param, ...]:
            return (Param(name="hp", kind=INT, min=0), Param(name="hit_points", kind=INT, min=0))

    said = problems_of(Odd())
    assert "the GM adjust field 'hit_points' is no field of TinyData that adjust can set" in said
    assert said.count("the GM adjust field 'hit_points'") == 1  # (once, not once for each sample sheet)
    assert "'hp'" not in said


def test_an_adjust_field_a_record_field_begins_with_is_pointed_at_it() -> None:
    """ "str" was pointed at "max_str", the closest by letters, not "strength", the field it begins."""

    @attrs.frozen(kw_only=True)
    class OddData:
        strength: int = 5
        max_str: int = 5

    class Odd(Tiny):
        def make_data(self, kind: str, sheet: Mapping[str, Any]) -> Any:
            return OddData()

        def adjustable(self, state: FightState, combatant: Combatant) -> tuple[Param, ...]:
            return (Param(name="str", kind=INT, min=0),)

    assert "the GM adjust field 'str' is no field of OddData that adjust can set (did you mean strength?)" in (
        problems_of(Odd())
    )


def test_an_adjust_field_the_system_sets_itself_passes() -> None:
    class Own(Tiny):
        def adjustable(self, state: FightState, combatant: Combatant) -> tuple[Param, ...]:
            return (Param(name="wounded", kind=BOOL),)

        def adjust(self, state: FightState, combatant: Combatant, field: str, value: Any) -> Combatant:
            if field == "wounded":
                return attrs.evolve(combatant, data=attrs.evolve(self.data(combatant), hp=1 if value else 5))
            return super().adjust(state, combatant, field, value)

    check_system(Own())


# -- prompts -----------------------------------------------------------------------------------------------------


def test_prompt_data_must_name_a_command_of_the_system() -> None:
    class Odd(Tiny):
        prompt_data = {"strik": ("dc",)}

    assert "prompt_data names the command 'strik', which the system does not offer (did you mean strike?)" in (
        problems_of(Odd())
    )


def test_prompt_data_values_are_tuples_of_names() -> None:
    """("critical") is a string: its every part passed the prompt check for a name."""

    class Odd(Tiny):
        prompt_data = {"strike": ("dc")}  # the comma forgotten, on purpose

    assert "prompt_data['strike'] must be a tuple of names, like ('critical',), not 'dc'" in problems_of(Odd())


def test_an_event_the_system_does_not_list_or_evolve_says_which() -> None:
    from tracker.engine import evolve
    from tracker.errors import UnknownEvent
    from tracker.kit import Evolver

    class Unlisted(Tiny):
        event_types: ClassVar[tuple[type[Event], ...]] = ()

    with pytest.raises(UnknownEvent, match="not in the system 'tiny''s event_types"):
        evolve(Unlisted(), FightState(system="tiny"), Struck(target="c1"))
    with pytest.raises(UnknownEvent, match=r"evolve has no function for Struck \(@evolve.on\(Struck\)\)"):
        Evolver("tiny.")(FightState(system="tiny"), Struck(target="c1"))


def fight_of(system: BaseSystem[Any]) -> Fight:
    from tracker import AddCombatant, StartFight

    f = Fight(system, roller=ScriptedRoller([]))
    f.do(AddCombatant(name="A", kind="pc"))
    f.do(AddCombatant(name="B", kind="npc"))
    f.do(StartFight())
    return f


def stagger(events: Any, params: dict[str, Any], command: str = "strike") -> list[Any]:
    """A second prompt, after a strike's, with these params (none after anything else)."""
    if not any(isinstance(e, PromptRaised) for e in events):
        return []
    return [prompt("stagger", "staggered", "c1", command=command, params=params)]


def test_a_prompt_is_raised_with_fields_of_its_command() -> None:
    f = fight_of(Tiny())
    f.do(Strike(actor="c1", target="c2"))
    assert [p.params for p in f.state.prompts] == [{"actor": "c2", "target": "c1"}]


def test_a_prompt_that_gives_a_field_its_command_has_not_is_refused_as_it_is_raised() -> None:
    class Odd(Tiny):
        def react(self, before: FightState, events: Any, after: FightState) -> list[Any]:
            return stagger(events, {"actor": "c1", "dc": 7})

    f = fight_of(Odd())
    with pytest.raises(PluginError, match="raised a broken prompt: the prompt 'stagger' gives 'dc', which the command"):
        f.do(Strike(actor="c1", target="c2"))
    assert f.state.prompts == ()


def test_a_value_the_system_lists_in_prompt_data_may_ride_on_the_prompt() -> None:
    class Noted(Tiny):
        prompt_data = {"strike": ("dc",)}

        def react(self, before: FightState, events: Any, after: FightState) -> list[Any]:
            return stagger(events, {"actor": "c1", "dc": 7})

    f = fight_of(Noted())
    f.do(Strike(actor="c1", target="c2"))
    assert [p.params for p in f.state.prompts][-1] == {"actor": "c1", "dc": 7}


def test_a_prompt_that_makes_a_command_the_system_does_not_offer_is_refused() -> None:
    class Odd(Tiny):
        def react(self, before: FightState, events: Any, after: FightState) -> list[Any]:
            return stagger(events, {}, command="strikes")

    with pytest.raises(PluginError, match=r"makes the command 'strikes', which .* \(did you mean strike\?\)"):
        fight_of(Odd()).do(Strike(actor="c1", target="c2"))


# -- the registry ------------------------------------------------------------------------------------------------


def test_registering_a_broken_plugin_is_refused() -> None:
    class Misspelt(Tiny):
        def standings(self) -> None: ...

    with pytest.raises(PluginError, match="standings is not a hook; did you mean standing"):
        registry.register(Misspelt())
    with pytest.raises(registry.SystemNotInstalled):
        registry.load("tiny")


def test_a_broken_third_party_plugin_is_reported_by_the_registry_not_fatal(monkeypatch: pytest.MonkeyPatch) -> None:
    class Misspelt(Tiny):
        def standings(self) -> None: ...

    module = types.ModuleType("tiny_plugin_xyz")
    module.system = Misspelt()  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "tiny_plugin_xyz", module)
    monkeypatch.setattr(registry, "_cache", {})
    eps = [
        EntryPoint(name="tiny", value="tiny_plugin_xyz:system", group=registry.GROUP),
        EntryPoint(name="bnb", value="systems.bnb:system", group=registry.GROUP),
    ]
    monkeypatch.setattr(registry, "_scan", lambda group: None)
    monkeypatch.setattr(registry, "entry_points", lambda group: eps)
    with pytest.raises(TrackerError, match="the system 'tiny' breaks the plug-in protocol: standings is not a hook"):
        registry.load("tiny")
    systems, problems = registry.load_all()
    assert "bnb" in {s.id for s in systems} and "tiny" not in {s.id for s in systems}
    assert [p for p in problems if "tiny" in p] == [
        "the system 'tiny' breaks the plug-in protocol: standings is not a hook; did you mean standing?"
    ]


def test_an_entry_point_whose_system_says_another_id_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    module = types.ModuleType("tiny_plugin_xyz")
    module.system = Tiny()  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "tiny_plugin_xyz", module)
    eps = [EntryPoint(name="small", value="tiny_plugin_xyz:system", group=registry.GROUP)]
    monkeypatch.setattr(registry, "_scan", lambda group: None)
    monkeypatch.setattr(registry, "entry_points", lambda group: eps)
    with pytest.raises(PluginError, match="the system 'small' says its id is 'tiny'"):
        registry.load("small")


def test_a_plugin_whose_hook_fails_while_it_is_checked_is_reported_not_fatal(monkeypatch: pytest.MonkeyPatch) -> None:
    class Failing(Tiny):
        def harm_params(self, heal: bool) -> tuple[Param, ...]:
            raise KeyError("amount")

    module = types.ModuleType("tiny_plugin_xyz")
    module.system = Failing()  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "tiny_plugin_xyz", module)
    monkeypatch.setattr(registry, "_cache", {})
    eps = [EntryPoint(name="tiny", value="tiny_plugin_xyz:system", group=registry.GROUP)]
    monkeypatch.setattr(registry, "_scan", lambda group: None)
    monkeypatch.setattr(registry, "entry_points", lambda group: eps)
    systems, problems = registry.load_all()
    assert "tiny" not in {s.id for s in systems}
    assert problems == ["the system 'tiny' failed its checks: KeyError: 'amount'"]
