"""Letting time pass in 2d6 Gamma (@54545): the core Rest command, by the book's rates."""

from __future__ import annotations

import pytest

from systems.twod6 import system
from systems.twod6.commands import Resolve
from tests.systems.twod6.helpers import DUMMY, FIGHTER, setup
from tracker import (
    AddCombatant,
    Adjust,
    Damage,
    DismissPrompt,
    EndFight,
    Fight,
    Refused,
    Rest,
    SetInitiative,
    StartFight,
)
from tracker.dice import ScriptedRoller


def _log(f: Fight) -> str:
    """The whole log in the GM's words."""
    return "\n".join(f.describe(i) for i in range(len(f.entries)))


def _party(wounds: int = 1, max_wounds: int = 6) -> tuple[Fight, str, str]:
    f = Fight(system, roller=ScriptedRoller())
    f.do(AddCombatant(name="Ash", kind="pc", sheet={"tou": max_wounds - 3}))
    f.do(AddCombatant(name="Bo", kind="pc", sheet={}))
    ash, bo = (c.id for c in f.state.combatants)
    f.do(Adjust(id=ash, field="wounds", value=wounds))
    for p in list(f.state.prompts):
        f.do(DismissPrompt(prompt_id=p.id, note="setup"))
    return f, ash, bo


def _w(f: Fight, cid: str) -> int:
    return f.state.get(cid).data.wounds


def test_a_fed_and_rested_day_heals_one_wound():
    """@54545: with eight hours' rest a day and proper food, 1 wound per day; never above the maximum."""
    f, ash, _ = _party(wounds=1)
    top = f.state.get(ash).data.max_wounds
    (ev, _bo) = f.do(Rest(days=2))
    assert ev.wounds == 2 and _w(f, ash) == 3
    f.do(Rest(days=7))
    assert _w(f, ash) == top
    assert f"Ash regains {top - 3} wound" in _log(f)


def test_underfed_or_short_of_sleep_heals_one_wound_per_two_days():
    """@54545: underfed or short of sleep, 1 wound per 2 days."""
    f, _ash, _ = _party(wounds=1)
    (ev, _) = f.do(Rest(days=5, quality="underfed or short of sleep"))
    assert ev.wounds == 2 and "1 wound per 2 days" in ev.why


def test_underfed_days_one_at_a_time_heal_as_the_days_together():
    """Ruling: four underfed days let pass one at a time healed nothing (each day's half wound dropped), four
    together healed 2; the half is carried, and said, while a wound is missing."""
    f, ash, _ = _party(wounds=1)
    said = []
    for _day in range(4):
        (ev,) = f.do(Rest(ids=(ash,), days=1, quality="underfed or short of sleep"))
        said.append(ev.why)
    assert _w(f, ash) == 3 and not f.state.get(ash).data.rest_half
    assert "half a wound's rest carried to the next" in said[0] and "with the half day carried" in said[1]
    f.do(Rest(ids=(ash,), days=1, quality="underfed or short of sleep"))
    assert f.state.get(ash).data.rest_half
    f.do(Rest(ids=(ash,), days=1))  # fed: a wound, and the half day makes another half
    assert _w(f, ash) == 4 and f.state.get(ash).data.rest_half


def test_a_half_day_is_not_carried_by_one_unhurt():
    f, ash, _ = _party(wounds=5, max_wounds=6)
    f.do(Rest(ids=(ash,), days=3, quality="underfed or short of sleep"))  # 1 wound and a half: full, none kept
    assert _w(f, ash) == 6 and not f.state.get(ash).data.rest_half


def test_a_successful_healing_check_doubles_the_rate():
    """@54545: a successful Trade (Healing) check by a carer doubles the rate (quality "… with a healer")."""
    f, ash, _ = _party(wounds=1)
    (ev, _) = f.do(Rest(days=2, quality="fed and rested, with a healer"))
    assert ev.wounds == 4 and _w(f, ash) == 5
    f2, _ash2, _ = _party(wounds=1)
    (ev2, _) = f2.do(Rest(days=3, quality="underfed or short of sleep, with a healer"))
    assert ev2.wounds == 3 and "doubled" in ev2.why


def test_hours_short_of_a_day_heal_nothing():
    """@54545: the rate is per day: 20 hours heal no wound."""
    f, ash, _ = _party(wounds=1)
    (ev, _) = f.do(Rest(hours=20))
    assert ev.wounds == 0 and _w(f, ash) == 1


def test_at_zero_wounds_regaining_one_wakes():
    """@54545: a character at 0 wounds who regains one wakes."""
    f, ash, _ = _party(wounds=0)
    assert f.state.get(ash).data.unconscious  # 0 wounds: out
    (ev, _) = f.do(Rest(days=1))
    assert ev.wakes and _w(f, ash) == 1 and not f.state.get(ash).data.unconscious
    assert "and wakes" in _log(f)


def test_the_dead_stay_dead():
    """RULINGS (all systems): recovery never raises the dead."""
    f, ash, _ = _party(wounds=0)
    f.do(Adjust(id=ash, field="dead", value=True))
    for p in list(f.state.prompts):
        f.do(DismissPrompt(prompt_id=p.id, note="setup"))
    (ev, _) = f.do(Rest(days=7))
    assert ev.wounds == 0 and f.state.get(ash).data.dead and _w(f, ash) == 0


def test_rest_refused_during_the_fight_and_undone_as_one_action():
    """RULINGS (all systems): no rest during a fight; after it, one undoable action for everyone."""
    f, ash, bo = _party(wounds=1)
    f.do(SetInitiative(values={ash: 10, bo: 5}))
    f.do(StartFight())
    with pytest.raises(Refused, match="time passes only by turns"):
        f.do(Rest(days=1))
    f.do(EndFight())
    before = f.state
    f.do(Rest(days=3))
    assert _w(f, ash) == 4
    f.undo()
    assert f.state == before
    with pytest.raises(Refused, match="not one of"):
        f.do(Rest(days=1, quality="well"))


def test_a_full_days_rest_wakes_one_knocked_out_with_wounds_left():
    """Ruling ``slept_off`` (the book says how long a knock-out lasts only at 0 wounds, @54116): knocked out
    with wounds left (a failed resolve check at 2 or 1 left), a full day's rest wakes the character, at full
    wounds or not; hours short of a day do not; Why? names the ruling."""
    from tracker.explain import explain

    f, ash, bo = _party(wounds=2)
    f.do(Adjust(id=ash, field="unconscious", value=True))
    f.do(Adjust(id=bo, field="unconscious", value=True))  # unhurt, knocked out
    (ev, ev_bo) = f.do(Rest(hours=20))
    assert not ev.wakes and f.state.get(ash).data.unconscious  # less than a day
    (ev, ev_bo) = f.do(Rest(days=1))
    assert ev.wakes and ev_bo.wakes and not f.state.get(ash).data.unconscious
    assert not f.state.get(bo).data.unconscious and _w(f, ash) == 3
    assert "and wakes" in _log(f)
    reasons = explain(f, f.entries[-2].seq)
    assert any(r.rule_id == "slept_off" for r in reasons), reasons


def test_rest_is_refused_while_a_death_check_is_due():
    """@54043: at 0 wounds the DC 7 check against death comes before any recovery: a day's rest does not replace
    it (it healed the wound, woke the character and closed the check as moot), as quick healing is refused."""
    f, r = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    f.do(Damage(targets=("c2",), amount="3"))  # Bob at 0 wounds: DC 7 resolve check or die
    f.do(EndFight())
    before, entries = f.state, list(f.entries)
    for cmd in (Rest(days=1), Rest(days=1, ids=("c2",))):
        with pytest.raises(Refused, match="resolve first: Bob's DC 7 check against death is still due") as e:
            f.do(cmd)
        assert e.value.rule is not None and e.value.rule.id == "at_zero"
        assert f.state == before and f.entries == entries
    f.do(Rest(days=1, ids=("c1",)))  # one not at 0 rests
    r.add(5, 5)
    f.do(Resolve(actor="c2", stakes="death"))  # 10 − 3 = 7: lives, unconscious
    f.do(Rest(days=1))
    assert _w(f, "c2") == 1 and not f.state.get("c2").data.unconscious
