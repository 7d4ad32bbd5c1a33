"""Letting time pass in blackjack (l.182–184): a good night's rest, and untreated afflictions the GM is asked about."""

from __future__ import annotations

import pytest

from systems.blackjack import system
from systems.blackjack.commands import BY_CAUSE, Injure
from systems.blackjack.commands import Rest as NightsRest
from systems.blackjack.rest import WorsenAffliction
from tests.systems.blackjack.helpers import data, new_fight, pc
from tracker import Adjust, EndFight, Fight, Refused, Rest, SetInitiative, StartFight


def _log(f: Fight) -> str:
    """The whole log in the GM's words."""
    return "\n".join(f.describe(i) for i in range(len(f.entries)))


def _hurt() -> tuple[Fight, str]:
    f = new_fight()
    a = pc(f, "Dusty")
    f.do(Injure(target=a, level="lesser", name="cut"))
    f.do(Injure(target=a, level="moderate", name="bruise"))
    f.do(Injure(target=a, level="severe", name="gunshot"))
    return f, a


def test_a_good_nights_rest_clears_lesser_and_moderate_injuries():
    """l.184: "A good night's rest will clear all lesser or moderate injuries"; a poor rest or a nap clears none."""
    f, a = _hurt()
    f.do(Rest(hours=4))
    assert data(f, a).injuries == (("cut",), ("bruise",), ("gunshot",))
    f.do(Rest(days=1, quality="poor rest"))
    assert data(f, a).injuries == (("cut",), ("bruise",), ("gunshot",))
    (ev,) = f.do(Rest(days=7))
    assert data(f, a).injuries == ((), (), ("gunshot",))
    assert "Dusty: a good night's rest clears lesser cut, moderate bruise" in _log(f)
    assert ev.why


def test_time_passing_asks_about_each_untreated_affliction():
    """l.182: afflictions worsen over time if left untreated; the book gives no rate, so the GM is asked, one by one."""
    f = new_fight()
    a = pc(f, "Dusty")
    f.do(Injure(target=a, level="moderate", name="snake venom"))
    f.do(Injure(target=a, level="moderate", name="hunger"))
    events = f.do(Rest(days=1))
    asked = [p for p in f.state.prompts if p.command == "worsen_affliction"]
    assert [p.params["name"] for p in asked] == ["snake venom", "hunger"]
    assert data(f, a).injuries[1] == ("snake venom", "hunger")  # rest does not clear an affliction
    assert "untreated: moderate snake venom, moderate hunger (the GM is asked)" in events[0].why
    f.do(WorsenAffliction(target=a, name="snake venom", worsens=True))
    assert data(f, a).injuries == ((), ("hunger",), ("snake venom",))
    assert len([p for p in f.state.prompts if p.command == "worsen_affliction"]) == 1
    f.do(WorsenAffliction(target=a, name="hunger", worsens=False))
    assert data(f, a).injuries == ((), ("hunger",), ("snake venom",)) and not f.state.prompts
    assert "it does not worsen" in _log(f) and "moderate → untreated, worsens → severe" in _log(f)


def test_the_dead_stay_dead():
    """Rule ``time`` (ruling on blackjack l.184): recovery never raises the dead."""
    f, a = _hurt()
    f.do(Adjust(id=a, field="dead", value=True))
    (ev,) = f.do(Rest(days=7))
    assert data(f, a).dead and "dead" in ev.why


def test_rest_refused_in_the_fight_and_undone_as_one_action():
    """Rule ``time`` (ruling on blackjack l.184): no rest during a fight; after it one logged, undoable action."""
    f, a = _hurt()
    b = pc(f, "Jo")
    f.do(Injure(target=b, level="moderate", name="disease"))
    f.do(SetInitiative(values={a: 2, b: 1}))
    f.do(StartFight())
    with pytest.raises(Refused, match="time passes only by turns"):
        f.do(Rest(days=1))
    f.do(EndFight())
    before = f.state
    f.do(Rest(days=1))
    assert data(f, a).injuries == ((), (), ("gunshot",)) and f.state.prompts
    f.undo()
    assert f.state == before and not f.state.prompts
    with pytest.raises(Refused, match="not one of"):
        f.do(Rest(days=1, quality="fine"))


def test_a_new_day_makes_the_workings_safe_again():
    """Ruling (l.228, once a day): a night or more passing, whatever the rest's quality, makes every working safe
    to cast again; a few hours do not. The log says so, and undo takes it back."""
    f = new_fight()
    m = pc(f, "Ma", lead=3, workings="Hex 1 (cast)")
    assert data(f, m).workings[0].cast_today
    f.do(Rest(hours=4))
    assert data(f, m).workings[0].cast_today
    f.do(Rest(days=1, quality="poor rest"))
    assert not data(f, m).workings[0].cast_today
    assert "Ma: nothing to clear; a new day: Hex safe to cast again" in _log(f)
    f.undo()
    assert data(f, m).workings[0].cast_today


def test_an_affliction_known_by_its_tags_is_asked_about_not_cleared():
    """A "snakebite" tagged snake venom began as a moderate affliction (its tags), and a night's rest then cleared
    it without a word (time passing asked by the name only).  It keeps its tag in its name."""
    f = new_fight()
    a = pc(f, "Dusty")
    f.do(Injure(target=a, level=BY_CAUSE, name="snakebite", tags="snake venom"))
    assert data(f, a).injuries[1] == ("snakebite (snake venom)",)
    f.do(Rest(days=1))
    asked = [p for p in f.state.prompts if p.command == "worsen_affliction"]
    assert [p.params["name"] for p in asked] == ["snakebite (snake venom)"]
    assert data(f, a).injuries[1] == ("snakebite (snake venom)",)


def test_a_nights_rest_is_a_good_night_passing_afflictions_kept_and_asked() -> None:
    """The plug-in's "A night's rest" cleared snake venom and poison, where letting a night pass (L) kept them and
    asked whether each worsens (rule afflictions, ruling on l.182): it is that night, from its form and its
    command."""
    for make in (lambda: NightsRest(), lambda: next(c for c in system.commands() if c.name == "rest").make({})):
        f = new_fight()
        d = pc(f, "Dusty", injuries="lesser cut, moderate snake venom")
        f.do(make())
        assert data(f, d).injuries == ((), ("snake venom",), ())
        assert [p.text for p in f.state.prompts] == ["Dusty's untreated snake venom (moderate): does it worsen?"]
