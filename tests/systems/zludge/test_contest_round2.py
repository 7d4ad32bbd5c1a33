"""Zludge contests in the fight: a prone side allowed by the GM (l.118, l.128), the first side's action (l.104).

Repros /tmp/a11/rules3/z3.py (Z17) and z2.py (Z19); rulings in systems/zludge/rules/contests.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import saves
from saves.format import seal
from systems.zludge import system
from systems.zludge.commands import Attack, MarkFatigue, MarkWound
from systems.zludge.contest import Contest, ContestRolled
from tests.systems.zludge.helpers import F, add, data, duel, new_fight, script
from tracker.commands import AddCombatant, SetInitiative, StartFight
from tracker.dice import ScriptedRoller
from tracker.errors import Refused
from tracker.fight import Fight

ATHLETE = {"skills": "Athletics 2"}  # Athletics +1


def _spec():
    return next(s for s in system.commands() if s.name == "contest")


# ---------------------------------------------------------------------------
# a prone side: the GM's tick, as the skill roll has it


def test_a_prone_side_of_a_contest_rolls_at_minus_3_when_the_gm_allows_it() -> None:
    """Bob Incapacitated: the contest is refused naming the tick, which the form now has for each side; ticked, Bob
    rolls with his -3 (the same Athletics as a skill roll: "Athletics +1, Incapacitated -3 → -2 Bad")."""
    f = duel(ATHLETE, ATHLETE)
    f.do(MarkWound(target="c2", level=3))
    with pytest.raises(Refused, match="tick 'GM allows it though prone'"):
        f.do(Contest(actor="c1", target="c2", skill="Athletics"))
    labels = {p.name: p.label for p in _spec().params}
    assert "GM allows it though prone" in labels["target_gm_allows"]
    assert "GM allows it though prone" in labels["gm_allows"]
    script(f, F(0), F(1))
    (ev,) = f.do(Contest(actor="c1", target="c2", skill="Athletics", target_gm_allows=True))
    assert isinstance(ev, ContestRolled)
    assert [(m.label, m.value) for m in ev.second.mods] == [("Athletics", 1), ("Incapacitated", -3)]
    assert (ev.first.total, ev.second.total, ev.winner) == (1, -1, "c1")
    assert "Bob Athletics 4dF [+,0,0,0] = 1, Athletics +1, Incapacitated -3 → -1 Poor" in ev.describe(f.state)


def test_an_exhausted_first_side_needs_its_own_tick() -> None:
    """Z17: Alice Exhausted (fatigue) starts the contest: refused until the first's tick; then -3 on her roll.  The
    one against's tick does not allow the first."""
    f = duel(ATHLETE, ATHLETE)
    f.do(MarkFatigue(target="c1", level=3))
    with pytest.raises(Refused, match="Alice is Exhausted"):
        f.do(Contest(actor="c1", target="c2", skill="Athletics", target_gm_allows=True))
    script(f, F(2), F(0))
    (ev,) = f.do(Contest(actor="c1", target="c2", skill="Athletics", gm_allows=True))
    assert ("Exhausted", -3) in [(m.label, m.value) for m in ev.first.mods] and ev.first.total == 0
    assert ev.winner == "c2"


def test_the_contest_form_builds_both_ticks() -> None:
    built = _spec().make({"actor": "c1", "target": "c2", "skill": "Athletics", "target_gm_allows": True})
    assert built == Contest(actor="c1", target="c2", skill="Athletics", target_gm_allows=True)


# ---------------------------------------------------------------------------
# the first side's action


def test_a_contest_in_the_fight_is_the_first_sides_action() -> None:
    """Z19: on Alice's turn Bob's contest is refused (untick to make it cost nothing); Alice's contest is her action,
    so a second contest and an attack after it are refused ("one action per turn")."""
    f = duel(ATHLETE, ATHLETE)
    with pytest.raises(Refused, match=r"it is Alice's turn.*untick 'Is the turn's action'"):
        f.do(Contest(actor="c2", target="c1", skill="Athletics"))
    script(f, F(1), F(0))
    (ev,) = f.do(Contest(actor="c1", target="c2", skill="Athletics"))
    assert ev.counts_as_action and data(f, "c1").spent and not data(f, "c2").spent
    with pytest.raises(Refused, match="already taken its action this turn"):
        f.do(Contest(actor="c1", target="c2", skill="Athletics"))
    with pytest.raises(Refused, match="already taken its action this turn"):
        f.do(Attack(actor="c1", target="c2"))
    script(f, F(0), F(1))
    (ev,) = f.do(Contest(actor="c2", target="c1", skill="Athletics", as_action=False))  # Bob's reaction: no action
    assert not ev.counts_as_action and not data(f, "c2").spent


def test_the_contest_form_is_the_turns_action_only_for_the_one_whose_turn_it_is() -> None:
    """As the skill roll's form (skill_defaults): ticked for Alice on her turn, unticked for Bob."""
    f = duel(ATHLETE, ATHLETE)
    spec = _spec()
    assert spec.defaults_for(f.state, "c1") == {"as_action": True}
    assert spec.defaults_for(f.state, "c2") == {"as_action": False}


def test_a_contest_ends_the_first_sides_clip() -> None:
    """l.115 clipped: -1 "until your next action": the contest is Alice's action, so a defense after it is clean."""
    f = duel(ATHLETE, {"skills": "Melee 2", "weapon": "knife"})
    f.do(MarkWound(target="c1", level=0))  # 0-level: Scratched and clipped
    assert data(f, "c1").clipped
    script(f, F(0), F(0), F(-1))
    (ev, *_) = f.do(Contest(actor="c1", target="c2", skill="Athletics"))
    assert ("clipped", -1) in [(m.label, m.value) for m in ev.first.mods]  # the contest itself takes the clip
    assert not data(f, "c1").clipped


def test_a_contest_before_the_fight_costs_no_action() -> None:
    f = new_fight(*F(1), *F(0))
    add(f, "Ann", **ATHLETE), add(f, "Bo", kind="npc", **ATHLETE)
    (ev,) = f.do(Contest(actor="c1", target="c2", skill="Athletics"))
    assert not ev.counts_as_action and not data(f, "c1").acted


def _without_action(line: str) -> str:
    """The line as a file written before contests cost an action has it (no counts_as_action), sealed again."""
    if '"counts_as_action"' not in line:
        return line
    body = line[: line.rindex(',"crc":')] + "}"
    return seal(body.replace(',"counts_as_action":true', ""))


def test_an_old_contest_round_folds_as_before(tmp_path: Path) -> None:
    """A contest written before it cost an action (no counts_as_action in its line) leaves the first side as it
    was: loaded again, Alice has not spent her action; the same file as written now has."""
    path = tmp_path / "c.jsonl"
    g = saves.new_fight("zludge", path, seed=1, roller=ScriptedRoller())
    g.do(AddCombatant(name="Ann", kind="pc", sheet=ATHLETE))
    g.do(AddCombatant(name="Bo", kind="npc", sheet=ATHLETE))
    g.do(SetInitiative(values={"c1": 2, "c2": 1}))
    g.do(StartFight())
    script(g, F(1), F(0))
    g.do(Contest(actor="c1", target="c2", skill="Athletics"))
    assert data(g, "c1").spent
    loaded = saves.load(path)
    assert loaded.warnings == () and loaded.fight().state == g.state
    lines = path.read_text().splitlines()
    assert sum('"counts_as_action":true' in line for line in lines) == 1
    path.write_text("".join(f"{_without_action(line)}\n" for line in lines))
    old = saves.load(path).fight()
    assert not old.state.get("c1").data.spent


def test_a_reopen_prompt_closes_after_the_roll_that_won_not_after_the_tie() -> None:
    """A plot point after a lost physical contest makes a tie; the roll after it wins.  The reopen prompt was
    resolved ("the check succeeds after all") between the tie and the deciding roll, and Why? named the tie."""
    from systems.zludge.commands import FirstAid, InvokeAfter
    from tracker.commands import Adjust

    def before(f: Fight) -> None:
        f.do(MarkWound(target="c1", level=1))
        script(f, F(4))
        f.do(FirstAid(actor="c1", target="c1"))
        f.do(Adjust(id="c1", field="plot_points", value=1))

    f = duel(before=before)
    script(f, F(0), F(1))
    f.do(Contest(actor="c1", target="c2", skill="Athletics"))  # Alice loses by 1: the reopen prompt
    assert f.state.prompts
    script(f, F(1), F(0))
    f.do(InvokeAfter(actor="c1", plot_points=1))  # a tie, then roll 2: Alice wins
    kinds = [type(e.event).__name__ for e in f.log.loaded if e.action == f.log.loaded[-1].action]
    assert kinds[-2:] == ["ContestRolled", "PromptResolved"], kinds
    assert not f.state.prompts
    # the roll stays open to one more invoke after the prompt closed
    assert f.state.data.last_roll is not None
