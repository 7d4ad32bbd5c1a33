"""What counts in turns ends with the fight and when time passes (rule ``turn_flags_end``; ruling flag by flag in
systems/twod6/rules/turn_flags.py).

A distraction ("one half-round action fewer next turn") stayed on the table after the fight ended and after 8 hours'
rest ("Wounds 3/3 · distracted"); so did Negate, an unused aim and a cinematic's extra turn, which kept the actions
left in the status of an ended fight.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import saves
from systems.twod6 import system
from systems.twod6.commands import Sneak, SpendCinematic
from systems.twod6.table import R
from tests.systems.twod6.helpers import DUMMY, FIGHTER, attack, data, setup, sheet
from tracker.commands import AddCombatant, Adjust, EndFight, Rest, SetInitiative, StartFight
from tracker.dice import ScriptedRoller
from tracker.fight import Fight
from tracker.model import FightState


def status(f: Fight, cid: str) -> str:
    return system.status(f.state, f.state.get(cid))


def ended_lines(f: Fight) -> list[str]:
    """The log's lines of the flags that ended, as the GM reads them."""
    out = []
    for i, e in enumerate(f.entries):
        if type(e.event).__name__ == "TurnFlagsEnded":
            out.append(e.event.describe(f.log.state_at(i)))
    return out


def distracted_bob() -> tuple[Fight, ScriptedRoller]:
    """Ann hits Bob declaring "distract" (11 vs 6: a hit, not doubled); the GM also sets Bob negated, aiming +2."""
    f, roller = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    attack(f, roller, (4, 3, 3, 3), "c1", "c2", result="distract")
    f.do(Adjust(id="c2", field="negated", value=True))
    f.do(Adjust(id="c2", field="aim", value=2))
    assert status(f, "c2") == "Wounds 3/3 · negated · distracted · aim +2"
    return f, roller


def test_distracted_negated_and_aim_end_with_the_fight():
    f, _ = distracted_bob()
    f.do(EndFight())
    d = data(f, "c2")
    assert (d.distracted, d.negated, d.aim, d.aim_sniper) == (0, False, 0, False)
    assert status(f, "c2") == "Wounds 3/3"
    assert "Now:" not in system.detail(f.state, f.state.get("c2"))
    assert ended_lines(f) == ["Bob: no longer distracted, powers no longer negated, aim +2 unused (the fight ended)"]
    # Why? names the ruling (its book place) and the rule of each flag that ended
    i = next(n for n, e in enumerate(f.entries) if type(e.event).__name__ == "TurnFlagsEnded")
    reasons = system.explain(f.log.state_at(i), f.entries[i].event, f.log.state_at(i + 1))
    assert [r.rule_id for r in reasons] == [R.TURN_FLAGS_END.id, R.DISTRACT.id, R.NEGATE.id, R.AIM.id]
    assert "@48822" in reasons[0].source
    # nothing more with a rest: no line, nothing set
    f.do(Rest(hours=8))
    assert len(ended_lines(f)) == 1 and status(f, "c2") == "Wounds 3/3"


def test_an_extra_turn_ends_with_the_fight_and_shows_no_actions_left():
    f, _ = setup(("Ann", FIGHTER), ("Bob", sheet(cinematics=1)))
    f.do(SpendCinematic(actor="c2", use="extra turn"))
    assert status(f, "c2") == "Wounds 3/3 · 2 quick, 2 half · extra turn"
    f.do(EndFight())
    assert not data(f, "c2").extra_turn
    assert status(f, "c2") == "Wounds 3/3" and status(f, "c1") == "Wounds 3/3"
    assert "Actions left" not in system.detail(f.state, f.state.get("c2"))
    assert ended_lines(f) == ["Bob: extra turn over (the fight ended)"]


def test_hiding_stays_at_the_end_and_ends_with_rest():
    f, roller = setup(("Ann", sheet(agi=1, skills="Stealth 2")), ("Bob", DUMMY))
    roller.add(4, 4, 1, 2)  # Stealth 8 + 3 = 11 vs Notice 3: hides
    f.do(Sneak(actor="c1", targets=("c2",)))
    f.do(EndFight())
    assert data(f, "c1").hidden_from == ("c2",)  # a fight may end with the hider unseen
    assert status(f, "c1") == "Wounds 3/3 · hiding"
    f.do(Rest(hours=8))
    assert data(f, "c1").hidden_from == ()
    assert status(f, "c1") == "Wounds 3/3"
    assert ended_lines(f) == ["Ann: no longer hiding (time passed)"]


def test_undoing_the_end_brings_the_flags_back():
    f, _ = distracted_bob()
    f.do(EndFight())
    f.undo()
    assert not f.state.ended
    assert status(f, "c2") == "Wounds 3/3 · negated · distracted · aim +2"


def test_prone_disarmed_and_limbs_stay():
    """No flag of a turn: the state of the body and the weapons, the GM's to end."""
    f, _ = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    f.do(Adjust(id="c2", field="prone", value=True))
    f.do(Adjust(id="c2", field="disarmed", value=True))
    f.do(Adjust(id="c2", field="useless_limbs", value="left arm -2"))
    f.do(EndFight())
    f.do(Rest(hours=8))
    assert status(f, "c2") == "Wounds 3/3 · prone · disarmed · left arm -2"
    assert ended_lines(f) == []


def _older_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, FightState]:
    """A fight file as the earlier version wrote it: the end and a rest logged, no flag ended by either."""
    path = tmp_path / "old.jsonl"
    roller = ScriptedRoller()
    fight = saves.new_fight(system, path, seed=1, roller=roller)
    with monkeypatch.context() as m:
        m.setattr("systems.twod6.rules.react_to_the_end", lambda events, after: [])
        m.setattr("systems.twod6.rules.rest.ended", lambda *a: [])
        fight.do(AddCombatant(name="Ann", sheet=FIGHTER))
        fight.do(AddCombatant(name="Bob", sheet=DUMMY))
        fight.do(SetInitiative(values={"c1": 20, "c2": 19}))
        fight.do(StartFight())
        attack(fight, roller, (4, 3, 3, 3), "c1", "c2", result="distract")
        fight.do(EndFight())
        fight.do(Rest(hours=8))
    live = fight.state
    fight.close()
    return path, live


def test_an_older_files_end_and_rest_fold_as_before(tmp_path, monkeypatch):
    path, live = _older_file(tmp_path, monkeypatch)
    assert "turn_flags_ended" not in path.read_text(encoding="utf-8")
    f = saves.load(path).fight(roller=ScriptedRoller())
    assert f.state == live
    assert data(f, "c2").distracted == 1  # its FightEnded and Rested clear nothing, as when it was written


def test_rest_ends_the_flags_an_older_file_kept_after_its_end(tmp_path, monkeypatch):
    path, _ = _older_file(tmp_path, monkeypatch)
    f = saves.load(path).fight(roller=ScriptedRoller())
    f.do(Rest(hours=8))
    assert data(f, "c2").distracted == 0 and status(f, "c2") == "Wounds 3/3"
    assert ended_lines(f) == ["Bob: no longer distracted (time passed)"]
