"""Zludge contests between two combatants (book l.19–20; rules contest_simple and contest_regular).

Simple: the two ability scores compared with no roll, the higher wins, equal scores become a
regular contest. Regular: both roll their skill with their own penalties; a tie rolls again,
both sides, as many times as needed; every roll is logged.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

import saves
from screens.app import TrackerApp
from screens.dialogs.form import FormDialog
from screens.fight import FightScreen
from systems.zludge import system
from systems.zludge.commands import FirstAid, InvokeAfter, MarkWound, ReopenWounds
from systems.zludge.contest import Contest, ContestRolled
from systems.zludge.events import RollRevised
from tests.systems.zludge.helpers import F, add, new_fight, script
from tests.ui.drive import build_fight, submit_form
from tests.view.helpers import screen_text
from tracker import Fight
from tracker.commands import AddCombatant, parse_modifiers
from tracker.dice import ScriptedRoller
from tracker.errors import Refused
from tracker.events import PromptRaised, PromptResolved

STRONG = {"skills": "Athletics 3"}  # Athletics +2
WEAK = {"skills": "Athletics 1"}  # Athletics +0


def test_simple_contest_compares_scores_without_a_roll() -> None:
    """l.19: compare the two ability scores, the higher one wins; no roll is involved."""
    f = new_fight()  # no faces: any roll would run out of dice
    a, b = add(f, "Ann", **STRONG), add(f, "Bo", kind="npc", **WEAK)
    (ev,) = f.do(Contest(actor=a, target=b, skill="Athletics", kind="simple"))
    assert isinstance(ev, ContestRolled) and ev.winner == a
    assert ev.first.roll is None and ev.second.roll is None
    assert ev.describe(f.state).endswith("Ann wins") and "no roll" in ev.describe(f.state)


def test_equal_scores_become_a_regular_contest() -> None:
    """l.19: if the scores are the same, treat it as a regular contest."""
    f = new_fight()
    a, b = add(f, "Ann", **WEAK), add(f, "Bo", kind="npc", **WEAK)
    script(f, F(1), F(-1))
    events = f.do(Contest(actor=a, target=b, skill="Athletics", kind="simple"))
    assert [(e.kind, e.winner) for e in events] == [("simple", ""), ("regular", a)]
    assert "equal scores" in events[0].describe(f.state)


def test_a_tie_rolls_again_both_sides_until_settled_every_roll_logged() -> None:
    """l.20: each makes the skill roll; if there is a tie, roll again (as many times as needed)."""
    f = new_fight()
    a, b = add(f, "Ann", **STRONG), add(f, "Bo", kind="npc", **STRONG)
    script(f, F(0), F(0), F(2), F(2), F(-1), F(1))
    events = f.do(Contest(actor=a, target=b, skill="Athletics"))
    assert [(e.round, e.first.total, e.second.total, e.winner) for e in events] == [
        (1, 2, 2, ""),
        (2, 4, 4, ""),
        (3, 1, 3, b),
    ]
    assert f.roller.exhausted
    assert "tie: both roll again" in events[0].describe(f.state)
    last = f.entries[-3:]
    assert [e.event for e in last] == events and len({e.action for e in last}) == 1  # one logged action


def test_each_side_rolls_with_its_own_penalties() -> None:
    """Rule contest_regular (l.20): both sides roll their skill with their own penalties (a wound here)."""
    f = new_fight()
    a, b = add(f, "Ann", **STRONG), add(f, "Bo", kind="npc", **STRONG)
    f.do(MarkWound(target=a, level=2))  # Hurt: a penalty on Ann's rolls
    pen = sum(m.value for m in f.state.get(a).data.penalties(True))
    assert pen < 0
    script(f, F(0), F(0))
    (ev,) = f.do(Contest(actor=a, target=b, skill="Athletics"))
    assert ev.first.total == 2 + pen and ev.second.total == 2 and ev.winner == b


def test_a_contest_needs_two_combatants() -> None:
    f = new_fight()
    a = add(f, "Ann", **STRONG)
    with pytest.raises(Refused, match="two different"):
        f.do(Contest(actor=a, target=a))


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
def test_the_contest_form_on_screen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]) -> None:
    """Pilot: the contest form (k) asks for both sides and the kind; a simple contest is logged on screen."""
    monkeypatch.setenv("TRACKER_DATA_DIR", str(tmp_path))
    asyncio.run(_form(build_fight("zludge", tmp_path / "c.jsonl").path, size))


async def _form(path: Path, size: tuple[int, int]) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, FightScreen)
        await pilot.press("k")
        await pilot.pause()
        assert isinstance(app.screen, FormDialog)
        text = screen_text(app)
        assert "Contest" in text and "Against" in text and "regular" in text, text
        app.screen.query_one("#f-kind").focus()
        await pilot.press("right")  # regular → simple
        await submit_form(pilot)
        await pilot.pause()
        assert not isinstance(app.screen, FormDialog), screen_text(app)
        shown = screen_text(app)  # equal scores (both Athletics -1): a regular contest follows
        assert "a regular contest" in shown and "contest, roll 1" in shown and " wins" in shown, shown
        assert system.id == "zludge"


# ---------------------------------------------------------------------------
# situational modifiers, aspects and plot points (a contest is a check: l.21, l.37, l.80)

RUNNER = {"skills": "Athletics 1", "plot_points": 2, "aspects": "Runner"}  # Athletics +0


def test_a_contest_side_takes_situational_modifiers_an_aspect_and_a_plot_point_before_the_roll() -> None:
    """Ruling in contest.Contest: each side takes what a skill roll takes; the contest once took none of them."""
    f = new_fight()
    a, b = add(f, "Ann", **RUNNER), add(f, "Bo", kind="npc", **WEAK)
    script(f, F(0), F(0))
    (ev,) = f.do(
        Contest(
            actor=a, target=b, skill="Athletics", modifiers=parse_modifiers("head start +1"), aspect="runner",
            plot_points=1, target_modifiers=parse_modifiers("mud -1"),
        )
    )  # fmt: skip
    assert isinstance(ev, ContestRolled)
    assert [m.label for m in ev.first.mods] == ["Athletics", "head start", "aspect 'Runner'", "plot point"]
    assert (ev.first.total, ev.second.total, ev.winner) == (3, -1, a)
    assert [m.label for m in ev.second.mods] == ["Athletics", "mud"]
    ann = f.state.get(a).data
    assert ann.aspects_used == ("Runner",) and ann.plot_points == 1
    text = ev.describe(f.state)
    assert "head start +1" in text and "mud -1" in text and "Ann invokes 'Runner'" in text, text
    assert "Ann spends a plot point" in text


def test_a_contest_sides_plus_1_counts_on_every_roll_and_is_spent_once() -> None:
    """A tie rolled again is the same check going on: the plot point's +1 stays, one plot point is spent."""
    f = new_fight()
    a, b = add(f, "Ann", **RUNNER), add(f, "Bo", kind="npc", **{"skills": "Athletics 2"})  # Bo +1
    script(f, F(0), F(0), F(1), F(0))
    events = f.do(Contest(actor=a, target=b, skill="Athletics", plot_points=1))
    assert [(e.first.total, e.second.total, e.winner) for e in events] == [(1, 1, ""), (2, 1, a)]
    assert "plot point" in [m.label for m in events[1].first.mods]
    assert events[0].first.plot_point and not events[1].first.plot_point
    assert f.state.get(a).data.plot_points == 1


def test_a_contest_sides_reroll_before_the_roll_keeps_the_better_and_a_simple_contest_refuses_it() -> None:
    f = new_fight()
    a, b = add(f, "Ann", **RUNNER), add(f, "Bo", kind="npc", **WEAK)
    with pytest.raises(Refused, match="simple contest rolls no dice"):
        f.do(Contest(actor=a, target=b, skill="Athletics", kind="simple", aspect="Runner", aspect_use="reroll"))
    script(f, F(-2), F(2), F(0))
    (ev,) = f.do(Contest(actor=a, target=b, skill="Athletics", aspect="Runner", aspect_use="reroll"))
    assert ev.first.roll is not None and ev.first.roll.total == 2 and ev.first.better
    assert ev.winner == a and "kept over" in ev.describe(f.state)


def test_a_simple_contest_takes_the_modifiers_aspect_and_plot_point_on_the_scores() -> None:
    f = new_fight()  # no faces: no roll
    a, b = add(f, "Ann", **RUNNER), add(f, "Bo", kind="npc", **STRONG)  # 0 vs +2
    (ev,) = f.do(
        Contest(actor=a, target=b, skill="Athletics", kind="simple", aspect="Runner", plot_points=1,
                modifiers=parse_modifiers("downhill +1"))
    )  # fmt: skip
    assert (ev.first.total, ev.second.total, ev.winner) == (3, 2, a)


def test_a_contest_side_refuses_what_a_skill_roll_refuses() -> None:
    f = new_fight()
    a, b = add(f, "Ann", **RUNNER), add(f, "Bo", kind="npc", **WEAK)
    with pytest.raises(Refused, match="only one plot point"):
        f.do(Contest(actor=a, target=b, plot_points=2))
    with pytest.raises(Refused, match="no plot points left"):
        f.do(Contest(actor=a, target=b, target_plot_points=1))
    with pytest.raises(Refused, match="no aspect 'Brave'"):
        f.do(Contest(actor=a, target=b, aspect="Brave"))
    with pytest.raises(Refused, match="situational modifiers are"):
        f.do(Contest(actor=a, target=b, target_modifiers=parse_modifiers("ambush +2")))


def test_invoke_after_a_contest_reads_the_winner_again_and_a_tie_rolls_again() -> None:
    """l.80 "either before or after making a roll": key i after a contest (it refused: "there is no such roll now").
    Repro /tmp/a11/rules2/z14.py: Ann 0 vs Bo +1; Ann's plot point after the roll makes a tie: both roll again."""
    f = new_fight()
    a, b = add(f, "Ann", **RUNNER), add(f, "Bo", kind="npc", **WEAK)
    c = add(f, "Cy", kind="npc", plot_points=1)
    script(f, F(0), F(1))
    (ev,) = f.do(Contest(actor=a, target=b, skill="Athletics"))
    assert ev.winner == b
    script(f, F(1), F(0))
    rr, again = f.do(InvokeAfter(actor=a, plot_points=1))
    assert isinstance(rr, RollRevised) and rr.side == "contest" and rr.winner == "" and rr.follow == 1
    assert "a tie: both roll again" in rr.describe(f.state)
    assert isinstance(again, ContestRolled) and again.round == 2 and again.winner == a
    assert (again.first.total, again.second.total) == (2, 0)  # the plot point's +1 rolls on
    assert f.state.get(a).data.plot_points == 1
    with pytest.raises(Refused, match="only one plot point"):
        f.do(InvokeAfter(actor=a, plot_points=1))
    with pytest.raises(Refused, match="Cy is not in the last contest"):  # the form's "Who" picks the side
        f.do(InvokeAfter(actor=c, plot_points=1))


def test_invoke_after_a_contest_by_the_other_side_and_an_aspect() -> None:
    f = new_fight()
    a, b = add(f, "Ann", **WEAK), add(f, "Bo", kind="npc", **{**RUNNER, "aspects": "Runner, Quick"})
    script(f, F(1), F(0))
    (ev,) = f.do(Contest(actor=a, target=b, skill="Athletics"))
    assert ev.winner == a
    script(f, F(3))
    (rr,) = f.do(InvokeAfter(actor=b, aspect="Runner", aspect_use="reroll"))
    assert rr.winner == b and rr.total == 3 and "Bo wins" in rr.describe(f.state)
    assert f.state.get(b).data.aspects_used == ("Runner",)
    with pytest.raises(Refused, match="one aspect invocation per roll"):
        f.do(InvokeAfter(actor=b, aspect="Quick"))


def test_invoke_after_a_simple_contest_adds_to_the_score() -> None:
    f = new_fight()
    a, b = add(f, "Ann", **RUNNER), add(f, "Bo", kind="npc", **{"skills": "Athletics 2"})  # 0 vs +1
    (ev,) = f.do(Contest(actor=a, target=b, skill="Athletics", kind="simple"))
    assert ev.winner == b
    with pytest.raises(Refused, match="nothing for the aspect to reroll"):
        f.do(InvokeAfter(actor=a, aspect="Runner", aspect_use="reroll"))
    script(f, F(1), F(0))  # +1 ties the scores: a regular contest follows
    rr, roll = f.do(InvokeAfter(actor=a, aspect="Runner"))
    assert rr.winner == "" and roll.kind == "regular" and roll.round == 1 and roll.winner == a


def test_a_contest_revised_after_the_roll_replays_the_same(tmp_path: Path) -> None:
    """The fight file keeps the contest, its spending and its revision: loaded again, the same state."""
    f = saves.new_fight("zludge", tmp_path / "c.jsonl", seed=1, roller=ScriptedRoller())
    f.do(AddCombatant(name="Ann", kind="pc", sheet=RUNNER))
    f.do(AddCombatant(name="Bo", kind="npc", sheet=RUNNER))
    script(f, F(0), F(1), F(1), F(0))
    f.do(Contest(actor="c1", target="c2", skill="Athletics", target_plot_points=1, modifiers=parse_modifiers("x +1")))
    f.do(InvokeAfter(actor="c1", plot_points=1))
    loaded = saves.load(tmp_path / "c.jsonl")
    assert loaded.warnings == () and loaded.fight().state == f.state
    assert f.state.get("c1").data.plot_points == 1 and f.state.get("c2").data.plot_points == 1


# ---------------------------------------------------------------------------
# a lost physical contest and treated wounds (l.133)

MEDIC = {"skills": "Medical 2 +First Aid, Athletics 1"}


def _treated(f: Fight, who: str) -> None:
    f.do(MarkWound(target=who, level=2))
    script(f, F(0))
    f.do(FirstAid(actor=who, target=who))
    assert any(b.treated for b in f.state.get(who).data.wounds)


def test_losing_a_physical_contest_asks_whether_treated_wounds_reopen() -> None:
    """l.133 "A failure on a physical skill check can reopen your wounds"; a contest is a check (l.21).
    Repro /tmp/a11/rules2/z13.py: a lost physical contest asked nothing. Ruling in rules/contests.py."""
    f = new_fight()
    a, b = add(f, "Alice", **MEDIC), add(f, "Bob", kind="npc", **STRONG)
    _treated(f, a)
    script(f, F(-2), F(2))  # Bob 0 vs Alice 2 - 1: Alice wins, no question
    f.do(Contest(actor=b, target=a, skill="Athletics"))
    assert not f.state.prompts
    script(f, F(-2), F(1))
    events = f.do(Contest(actor=a, target=b, skill="Athletics"))
    assert events[0].follow == 1 and isinstance(events[1], PromptRaised)
    (p,) = f.state.prompts
    assert p.combatant == a and "do the treated wounds reopen?" in p.text
    f.do(ReopenWounds(target=a))
    assert not any(b.treated for b in f.state.get(a).data.wounds) and not f.state.prompts


def test_losing_a_contest_that_is_not_physical_asks_nothing() -> None:
    f = new_fight()
    a, b = add(f, "Alice", **MEDIC), add(f, "Bob", kind="npc", **STRONG)
    _treated(f, a)
    script(f, F(-2), F(1))
    f.do(Contest(actor=a, target=b, skill="Athletics", physical=False))
    assert not f.state.prompts


def test_a_contest_revised_after_the_roll_moves_the_reopen_prompt_to_the_loser() -> None:
    """An aspect after the roll turns a loss into a win: the new loser, treated, is asked; the old one's question
    closes ("the check succeeds after all")."""
    f = new_fight()
    a = add(f, "Alice", **MEDIC, aspects="Tough")  # Athletics +0, Very Hurt treated: -1
    b = add(f, "Bob", kind="npc", **RUNNER)  # Athletics +0
    _treated(f, a)
    script(f, F(2), F(0))  # 1 vs 0: Alice wins
    f.do(Contest(actor=a, target=b, skill="Athletics"))
    assert not f.state.prompts
    script(f, F(3))
    rr, raised = f.do(InvokeAfter(actor=b, aspect="Runner", aspect_use="reroll"))  # 1 vs 3: Bob wins
    assert rr.winner == b and isinstance(raised, PromptRaised) and raised.prompt.combatant == a
    script(f, F(4), F(2), F(0))
    rr, again, closed = f.do(InvokeAfter(actor=a, aspect="Tough", aspect_use="reroll"))  # 3 vs 3: a tie, again
    # (the question closes after the roll that won it, not after the tie)
    assert rr.winner == "" and isinstance(closed, PromptResolved) and not f.state.prompts
    assert isinstance(again, ContestRolled) and again.round == 2 and again.winner == a  # 1 vs 0


def test_why_a_contest_revised_after_the_roll() -> None:
    f = new_fight()
    a, b = add(f, "Ann", **RUNNER), add(f, "Bo", kind="npc", **WEAK)
    script(f, F(0), F(1))
    f.do(Contest(actor=a, target=b, skill="Athletics"))
    script(f, F(1), F(0))
    f.do(InvokeAfter(actor=a, plot_points=1))  # 1 vs 1: a tie, rolled again
    i = next(n for n, e in enumerate(f.entries) if isinstance(e.event, RollRevised))
    reasons = f.system.explain(f.log.before(i), f.entries[i].event, f.log.state_at(i + 1))
    assert [t for r in reasons for t in r.terms][-1] == "+1 Decent vs +1 Decent: now a tie: both roll again"
