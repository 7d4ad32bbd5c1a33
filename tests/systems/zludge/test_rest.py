"""Letting time pass in Zludge (l.135–136): the core Rest command, by the book's rates and the rules healing, healed_box, fatigue_rest."""

from __future__ import annotations

import json

import pytest

from saves.format import Codec
from systems.zludge import system
from systems.zludge.commands import RollSkill
from tests.systems.zludge.helpers import add, data, new_fight
from tracker import Adjust, EndFight, Entry, Fight, Refused, Rest, SetInitiative, StartFight


def _log(f: Fight) -> str:
    """The whole log in the GM's words."""
    return "\n".join(f.describe(i) for i in range(len(f.entries)))


def _hurt(track: str = "00.|1.|2|.|.", fatigue: str = "") -> tuple[Fight, str]:
    f = new_fight()
    cid = add(f, "Alice")
    if track != "...|..|.|.|.":
        f.do(Adjust(id=cid, field="wound_track", value=track))
    if fatigue:
        f.do(Adjust(id=cid, field="fatigue_track", value=fatigue))
    return f, cid


def test_a_week_heals_each_wound_one_level():
    """l.135: each wound heals one level a week: a Scratch heals away, a Hurt becomes a Scratch, a Very Hurt a Hurt."""
    f, a = _hurt("00.|1.|2|.|.")
    f.do(Rest(days=6))
    assert data(f, a).wound_track == "00.|1.|2|.|."  # not a full week
    (ev,) = f.do(Rest(days=7))
    assert data(f, a).wound_track == "0..|1.|.|.|."
    assert "a Very Hurt becomes a Hurt" in ev.why and "a Scratch heals away" in ev.why
    f.do(Rest(days=14))
    assert data(f, a).wound_track == "...|..|.|.|."


def test_days_of_rest_add_up_to_a_week():
    """Ruling: seven one-day rests heal as a week does (each rest's days counted alone: day-by-day time healed
    nothing, though the log said "1 day of a 7-day week"); the days so far are said; an unhurt track keeps none."""
    f, a = _hurt("...|1.|2|.|.")
    for n in range(1, 7):
        (ev,) = f.do(Rest(days=1))
        assert data(f, a).wound_track == "...|1.|2|.|." and data(f, a).healing_days == n
        assert ("1 day of a 7-day week" if n == 1 else f"1 more day: {n} of a 7-day week") in ev.why, ev.why
    (ev,) = f.do(Rest(days=1))
    assert data(f, a).wound_track == "0..|1.|.|.|." and data(f, a).healing_days == 0, ev.why
    f.do(Rest(days=10, quality="caregiver Medical +2"))  # two 5-day weeks: the Scratch heals away, then the Hurt
    assert data(f, a).wound_track == "...|..|.|.|." and data(f, a).healing_days == 0
    f.do(Rest(days=3))
    assert data(f, a).healing_days == 0  # nothing to heal: no days kept for a wound taken later


def test_a_caregiver_shortens_the_week():
    """l.136: each week is shortened by one day per point of the caregiver's Medical bonus."""
    f, a = _hurt("...|..|2|.|.")
    (ev,) = f.do(Rest(days=5, quality="caregiver Medical +2"))
    assert data(f, a).wound_track == "...|1.|.|.|." and "5-day weeks" in ev.why
    with pytest.raises(Refused, match="not one of"):
        f.do(Rest(days=5, quality="a good doctor"))


def test_a_healed_wound_moves_to_a_free_box_of_its_new_level_or_stays():
    """Rule healed_box (ruling on l.135): a healed wound moves to the lowest free box of its new level, else stays put."""
    f, a = _hurt("...|..|2|2|2")
    (ev,) = f.do(Rest(days=7))
    assert data(f, a).wound_track == "...|11|.|.|1~"  # (~: healed in place)
    assert "stays in its Comatose box" in ev.why
    # it counts as the level it healed to: Hurt -1, awake (the row, the detail and the players' view said
    # "comatose -4, unconscious", the box's level)
    d = data(f, a)
    assert (d.wound_state, d.wound_penalty, d.comatose, d.unconscious) == (1, -1, False, False)
    assert "comatose" not in f.system.standing(f.state, f.state.get(a)).word
    f.do(Adjust(id=a, field="wound_track", value="...|11|.|.|1"))  # typed without ~: an escalated Hurt
    assert data(f, a).comatose
    f.do(Adjust(id=a, field="wound_track", value="...|11|.|.|1~"))  # and with it: healed in place
    assert not data(f, a).comatose and data(f, a).wound_track == "...|11|.|.|1~"


def test_physical_fatigue_heals_by_ten_minutes_other_by_nights():
    """l.136: physical fatigue heals one level per 10 minutes of rest; other fatigue two levels per night's sleep."""
    f, a = _hurt("...|..|.|.|.", fatigue="P0.|1.|.|.|.")
    f.do(Rest(hours=1))
    assert data(f, a).fatigue_track == "0..|1.|.|.|."
    (ev,) = f.do(Rest(hours=8))
    assert data(f, a).fatigue_track == "...|..|.|.|." and "fatigue heals 2 levels" in ev.why


def test_the_dead_stay_dead():
    """All systems: recovery never raises the dead nor heals them."""
    f, a = _hurt("00.|1.|2|.|.")
    f.do(Adjust(id=a, field="dead", value=True))
    (ev,) = f.do(Rest(days=30))
    assert data(f, a).dead and data(f, a).wound_track == "00.|1.|2|.|." and "dead" in ev.why


def test_rest_refused_in_the_fight_one_undoable_action_after():
    """All systems: no rest during a fight; after it one logged, undoable action."""
    f, a = _hurt("00.|1.|2|.|.")
    b = add(f, "Bob", kind="npc")
    f.do(Adjust(id=b, field="wound_track", value="0..|..|.|.|."))
    f.do(SetInitiative(values={a: 1, b: 2}))
    f.do(StartFight())
    with pytest.raises(Refused, match="time passes only by turns"):
        f.do(Rest(days=7))
    f.do(EndFight())
    before = f.state
    f.do(Rest(days=7))
    assert data(f, b).wound_track == "...|..|.|.|." and "Alice: " in _log(f)
    f.undo()
    assert f.state == before


def test_the_log_counts_like_wounds_and_says_an_incapacitated():
    """A badly hurt PC's week of rest reads as one line: like healings counted, the article right."""
    f, a = _hurt("000|11|2|3|.")
    (ev,) = f.do(Rest(days=7))
    assert ev.why.startswith(
        "a Scratch heals away (×3); a Hurt becomes a Scratch (×2); a Very Hurt becomes a Hurt; "
        "an Incapacitated becomes a Very Hurt (1 week of 7-day weeks, no caregiver): now wounds Very Hurt"
    )
    assert data(f, a).wound_track == "00.|1.|2|.|."


def test_the_dead_have_no_penalty_in_their_detail():
    f, a = _hurt("00.|1.|2|.|.")
    f.do(Adjust(id=a, field="dead", value=True))
    detail = f.system.detail(f.state, f.state.get(a))
    assert "dead" in detail and "Penalty" not in detail, detail


# -- aspects refresh once per game-world day (l.38; ruling in systems/zludge/rules/rest.py) -------------------


def _invoked(*aspects: str) -> tuple[Fight, str]:
    """Alice with the aspects, each invoked once on a check outside the fight (checked off)."""
    f = new_fight()
    a = add(f, "Alice", skills="Athletics 1", aspects="Ranger, Star Pilot, Medic")
    for aspect in aspects:
        f.roller.add(0, 0, 0, 0)
        f.do(RollSkill(actor=a, skill="Athletics", aspect=aspect))
    assert data(f, a).aspects_used == aspects
    return f, a


@pytest.mark.parametrize("rest", [Rest(days=1), Rest(days=7), Rest(hours=8), Rest(hours=30)])
def test_a_day_or_a_night_of_rest_refreshes_aspects(rest: Rest):
    """l.38: "Aspects refresh once per game-world day (usually after your character has had a good night's
    rest)."  A day of rest, a week, or a night's sleep (8 hours or more) brings them back, and the line says so."""
    f, a = _invoked("Ranger", "Medic")
    (ev,) = f.do(rest)
    assert data(f, a).aspects_used == ()
    assert "aspects refresh ('Ranger', 'Medic')" in ev.why, ev.why
    assert "Alice's aspects refresh" not in ev.why and "unhurt and rested; aspects refresh" in ev.why
    assert "[ ] Ranger" in f.system.detail(f.state, f.state.get(a))
    i = len(f.entries) - 1
    reasons = f.system.explain(f.log.before(i), f.entries[i].event, f.log.state_at(i + 1))
    refresh = [r for r in reasons if r.rule == "Aspects refresh"]
    assert [list(r.terms) for r in refresh] == [
        ["Alice: aspects refresh ('Ranger', 'Medic') after a day or a night's rest"]
    ]
    assert all("aspects refresh" not in t for r in reasons if r.rule != "Aspects refresh" for t in r.terms)


def test_a_short_rest_refreshes_no_aspect():
    f, a = _invoked("Ranger")
    (ev,) = f.do(Rest(hours=7))
    assert data(f, a).aspects_used == ("Ranger",) and "aspects refresh" not in ev.why
    (ev,) = f.do(Rest(days=1))
    assert data(f, a).aspects_used == () and ev.refreshed
    (ev,) = f.do(Rest(days=1))  # nothing checked off: nothing said
    assert "aspects refresh" not in ev.why and not ev.refreshed


def test_an_old_rest_event_refreshes_no_aspect():
    """Files written before the ruling have no ``refreshed`` field: their rests left the aspects checked off,
    and replay the same."""
    f, a = _invoked("Ranger")
    (ev,) = f.do(Rest(days=7))
    assert ev.refreshed
    codec = Codec(system)
    record = json.loads(codec.encode(Entry(1, 1, ev)))
    del record["crc"], record["event"]["refreshed"]
    old = codec.decode(record, 1).event
    f2, _ = _invoked("Ranger")
    after = system.evolve(f2.state, old)
    assert after.get(a).data.aspects_used == ("Ranger",)
    assert system.evolve(f2.state, ev).get(a).data.aspects_used == ()
