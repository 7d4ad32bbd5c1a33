"""A contest's Physical follows each side's own skill, as a skill roll's does (rule ``physical``; ruling in
``systems.zludge.contest.Contest``).

rg2 F4: the contest form stood ticked Physical for both sides whatever the skill, so a Hurt PC's Alertness or
Persuasion took Hurt -1 in a contest (not in a skill roll of the same skill), and a lost Persuasion contest asked
whether treated wounds reopen.  Events already in files keep their plain yes or no and fold as before.
"""

from __future__ import annotations

import json
from pathlib import Path

import attrs
import pytest

import saves
from saves.format import seal
from screens import logic
from systems.zludge import system
from systems.zludge.commands import FirstAid, InvokeAfter, MarkWound, RollSkill
from systems.zludge.contest import Contest, ContestRolled
from systems.zludge.model import PHYSICAL_SKILLS
from tests.systems.zludge.helpers import F, add, new_fight, script
from tracker import Fight
from tracker.commands import AddCombatant
from tracker.dice import ScriptedRoller
from tracker.events import PromptRaised

MARA = {"skills": "Alertness 2, Persuasion 2, Athletics 2, Stealth 2, Medical 2 +First Aid"}
THUG = {"skills": "Stealth 1, Persuasion 1, Alertness 1, Athletics 1"}


def _hurt(mods: tuple[object, ...]) -> bool:
    return any("Hurt" in getattr(m, "label", "") for m in mods)


def _both_hurt() -> Fight:
    """Mara (c1) and the Thug (c2), each with a Hurt box (-1 on physical actions)."""
    f = new_fight()
    add(f, "Mara", **MARA)
    add(f, "Thug", kind="npc", **THUG)
    f.do(MarkWound(target="c1", level=1))
    f.do(MarkWound(target="c2", level=1))
    return f


def test_a_hurt_pcs_alertness_takes_no_wound_penalty_in_a_contest_as_in_a_skill_roll() -> None:
    f = _both_hurt()
    script(f, F(0))
    (roll,) = f.do(RollSkill(actor="c1", skill="Alertness"))
    assert not _hurt(roll.mods)
    script(f, F(0), F(3))
    ev = f.do(Contest(actor="c1", target="c2", skill="Alertness", target_skill="Stealth"))[0]
    assert isinstance(ev, ContestRolled)
    # each side by its own skill: the watcher's Alertness is not physical, the sneak's Stealth is
    assert not _hurt(ev.first.mods) and ev.first.total == 1  # Alertness +1
    assert _hurt(ev.second.mods) and ev.second.total == 3 + 0 - 1  # Stealth +0, Hurt -1
    assert (ev.first.physical, ev.second.physical, ev.physical) == (False, True, None)


@pytest.mark.parametrize("kind", ["regular", "simple"])
def test_a_persuasion_contest_takes_no_wound_penalty_on_either_side(kind: str) -> None:
    f = _both_hurt()
    script(f, F(0), F(0))
    ev = f.do(Contest(actor="c1", target="c2", skill="Persuasion", kind=kind))[0]
    assert not _hurt(ev.first.mods) and not _hurt(ev.second.mods)
    assert (ev.first.total, ev.second.total) == (1, 0)


def test_an_athletics_contest_still_takes_the_wound_penalty_on_both_sides() -> None:
    f = _both_hurt()
    script(f, F(0), F(0))
    ev = f.do(Contest(actor="c1", target="c2", skill="Athletics"))[0]
    assert _hurt(ev.first.mods) and _hurt(ev.second.mods)
    assert (ev.first.total, ev.second.total) == (0, -1)


def _treated_mara() -> Fight:
    f = new_fight()
    add(f, "Mara", **MARA)
    add(f, "Thug", kind="npc", **THUG)
    f.do(MarkWound(target="c1", level=2))
    script(f, F(0))
    f.do(FirstAid(actor="c1", target="c1"))
    assert any(b.treated for b in f.state.get("c1").data.wounds)
    return f


def test_losing_a_persuasion_contest_does_not_ask_whether_treated_wounds_reopen() -> None:
    f = _treated_mara()
    script(f, F(-3), F(2))
    events = f.do(Contest(actor="c1", target="c2", skill="Persuasion"))
    assert events[0].winner == "c2" and not f.state.prompts
    assert not any(isinstance(e, PromptRaised) for e in events)


def test_losing_with_a_physical_skill_against_a_watchers_alertness_asks() -> None:
    """Mara's Stealth against the Thug's Alertness: her side is physical (the Thug's is not), so losing asks."""
    f = _treated_mara()
    script(f, F(-3), F(2))
    events = f.do(Contest(actor="c1", target="c2", skill="Stealth", target_skill="Alertness"))
    assert events[0].winner == "c2" and isinstance(events[1], PromptRaised)
    (p,) = f.state.prompts
    assert p.combatant == "c1" and "do the treated wounds reopen?" in p.text


def test_the_gm_says_yes_or_no_on_the_form_for_both_sides() -> None:
    f = _both_hurt()
    spec = next(s for s in system.commands() if s.name == "contest")
    param = next(p for p in spec.params if p.name == "physical")
    roll = next(p for p in next(s for s in system.commands() if s.name == "roll_skill").params if p.name == "physical")
    assert (param.choices, param.default) == (("by the skill", "yes", "no"), "by the skill")
    assert (roll.choices, roll.default) == (param.choices, param.default)
    assert all(skill in param.help and skill in roll.help for skill in PHYSICAL_SKILLS)  # the one list
    for skill, said, physical in (("Alertness", "yes", True), ("Athletics", "no", False), ("Alertness", "", False)):
        script(f, F(0), F(0))
        values = logic.form_values(
            f.state, spec.params, {"actor": "c1", "target": "c2", "skill": skill, "physical": said}
        )
        ev = f.do(spec.make(values))[0]
        assert isinstance(ev, ContestRolled)
        assert (_hurt(ev.first.mods), _hurt(ev.second.mods)) == (physical, physical), (skill, said)
        assert ev.physical is (None if said == "" else physical)
    assert Contest(actor="c1", target="c2", physical=True).physical is True


def test_a_contest_saved_before_folds_and_reads_as_it_did(tmp_path: Path) -> None:
    """A contest written before each side had its own Physical (the contest's plain yes, both sides Hurt -1 on
    Alertness) loads to the same state, and an aspect turning its loss closes the loser's reopen prompt as then."""
    path = tmp_path / "old.jsonl"
    f = saves.new_fight("zludge", path, seed=1, roller=ScriptedRoller())
    f.do(AddCombatant(name="Mara", kind="pc", sheet={**MARA, "aspects": "Keen"}))
    f.do(AddCombatant(name="Thug", kind="npc", sheet=THUG))
    f.do(MarkWound(target="c1", level=2))
    script(f, F(0))
    f.do(FirstAid(actor="c1", target="c1"))
    script(f, F(0), F(1))
    f.do(Contest(actor="c1", target="c2", skill="Alertness", physical=True))  # the old form's default
    assert len(f.state.prompts) == 1
    lines = path.read_text(encoding="utf-8").splitlines()
    old = []
    for line in lines:
        rec = json.loads(line)
        rec.pop("crc", None)
        if rec.get("type") == "zludge.contest_rolled":
            for side in ("first", "second"):
                del rec["event"][side]["physical"]  # as written before
        old.append(seal(json.dumps(rec, separators=(",", ":"))) if "crc" in line else line)
    path.write_text("\n".join(old) + "\n", encoding="utf-8")
    loaded = saves.load(path)
    assert loaded.warnings == ()
    g = loaded.fight(ScriptedRoller())
    assert g.state == _as_written_before(f)
    ev = g.state.data.last_roll.event
    assert isinstance(ev, ContestRolled) and ev.first.physical is None and ev.physical is True
    assert ev.physical_of("c1") and ev.physical_of("c2")
    assert _hurt(ev.first.mods)
    script(g, F(0), F(0))
    g.do(InvokeAfter(actor="c1", aspect="Keen"))  # a tie (1 against 1), then Mara wins: her question closes
    assert not g.state.prompts


def _as_written_before(f: Fight) -> object:
    """The state with each contest side's own Physical as a file from before has it (None)."""
    s = f.state
    last = s.data.last_roll
    ev = last.event
    old = attrs.evolve(ev, first=attrs.evolve(ev.first, physical=None), second=attrs.evolve(ev.second, physical=None))
    return attrs.evolve(s, data=attrs.evolve(s.data, last_roll=attrs.evolve(last, event=old)))


def test_why_says_which_side_is_not_physical() -> None:
    f = _both_hurt()
    script(f, F(0), F(3))
    f.do(Contest(actor="c1", target="c2", skill="Alertness", target_skill="Stealth"))
    i = len(f.entries) - 1
    reasons = f.system.explain(f.log.before(i), f.entries[i].event, f.log.state_at(i + 1))
    said = [t for r in reasons if r.rule == "Regular contest" for t in r.terms]
    assert "Mara's Alertness is not physical: wound and clip penalties do not weigh on it" in said
    assert not any(t.startswith("not physical") for t in said)
