"""The players' view of a zludge contest (repro /tmp/a11/view/z4.py): a PC against a seen NPC gave no line in
the default view; a hidden side is never named.  Ruling in systems/zludge/plugin.py:_contest_tally."""

from __future__ import annotations

import re

from screens.table import public_log
from systems.zludge.commands import InvokeAfter
from systems.zludge.contest import Contest
from tests.systems.zludge.helpers import F, add, new_fight, script
from tracker import Fight
from tracker import commands as C

RUNNER = {"skills": "Athletics 1, Stealth 1", "aspects": "Quick"}  # Athletics +0
THUG = {"skills": "Athletics 2, Stealth 2", "aspects": "Mean"}  # Athletics +1
NUMBERS = re.compile(r"[+-]\d|Fair|Decent|Good|Poor|4dF")


def _fight() -> Fight:
    f = new_fight()
    add(f, "Ann", **RUNNER)
    add(f, "Grunk", kind="npc", **THUG)
    f.do(C.AddCombatant(name="Lurker", kind="npc", sheet=THUG, hidden=True))
    f.do(C.SetInitiative(values={"c1": 3, "c2": 2, "c3": 1}))
    f.do(C.StartFight())
    return f


def _log(f: Fight) -> list[str]:
    return list(public_log(f.system, f.steps, f.state))


def test_a_contest_with_a_seen_npc_says_who_contested_and_who_won_without_numbers() -> None:
    f = _fight()
    script(f, F(0), F(0))  # Ann +0 Fair vs Grunk +1 Decent: Grunk wins
    f.do(Contest(actor="c1", target="c2", skill="Athletics"))
    lines = _log(f)
    assert lines[-1] == "Ann and Grunk contest Athletics: Grunk wins", lines
    assert not NUMBERS.search(lines[-1])


def test_an_aspect_after_a_contests_roll_is_said_and_the_rolls_again() -> None:
    f = _fight()
    script(f, F(0), F(0), F(1), F(0))  # Grunk wins; Ann's Quick +1 makes a tie; roll 2: 2 vs 1, Ann wins
    f.do(Contest(actor="c1", target="c2", skill="Athletics"))
    f.do(InvokeAfter(actor="c1", aspect="Quick"))
    lines = _log(f)
    assert lines[-2:] == [
        "Ann invokes 'Quick' after the roll: Ann and Grunk's Athletics contest is worked out again: a tie, both "
        "roll again",
        "Ann and Grunk contest Athletics, roll 2: Ann wins",
    ], lines


def test_an_npcs_aspect_after_the_roll_is_not_named() -> None:
    f = _fight()
    script(f, F(2), F(0))  # Ann +2 vs Grunk +1: Ann wins
    f.do(Contest(actor="c1", target="c2", skill="Athletics"))
    script(f, F(2))  # Grunk's reroll: +3, Grunk wins
    f.do(InvokeAfter(actor="c2", aspect="Mean", aspect_use="reroll"))
    text = "\n".join(_log(f))
    assert "Mean" not in text and "Grunk invokes an aspect after the roll" in text, text


def test_different_skills_are_named_each() -> None:
    f = _fight()
    script(f, F(0), F(0))
    f.do(Contest(actor="c1", target="c2", skill="Stealth", target_skill="Alertness"))
    assert _log(f)[-1] == "Ann Stealth against Grunk Alertness: Ann wins"


def test_a_contest_with_a_hidden_combatant_names_no_one() -> None:
    """Ann against the hidden Lurker, and an aspect after the roll: no line names Lurker, none says a contest."""
    f = _fight()
    before = _log(f)
    script(f, F(0), F(0))
    f.do(Contest(actor="c1", target="c3", skill="Athletics"))
    script(f, F(1), F(0))
    f.do(InvokeAfter(actor="c1", aspect="Quick"))
    after = _log(f)
    assert after == before, after


def test_an_npcs_stealth_against_a_pc_is_no_line() -> None:
    """As twod6's NPC sneak: how it went is what the PCs missed."""
    f = _fight()
    f.do(C.NextTurn())  # Grunk's turn
    script(f, F(0), F(0))
    before = _log(f)
    f.do(Contest(actor="c2", target="c1", skill="Stealth", target_skill="Alertness"))
    assert _log(f) == before


def test_npc_numbers_shown_give_the_full_line() -> None:
    f = _fight()
    f.do(C.SetView(npc_numbers=True, npc_names=True, dice=True))
    script(f, F(0), F(0))
    f.do(Contest(actor="c1", target="c2", skill="Athletics"))
    assert _log(f)[-1].startswith("contest, roll 1: Ann Athletics 4dF"), _log(f)
