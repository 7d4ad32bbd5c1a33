"""The players' view says what happened, never what the GM is told to do (#44 item 9).

In each system a fight raises a prompt whose text instructs the GM (choose a
second result, roll a save, make a morale check, decide whether wounds reopen)
and the GM types a note on quick damage.  The GM's log has those words; the
players' view, with every option open (NPC numbers, names and dice shown, so
the events' own text is used), has none of them: prompts are the GM's, an
event's line for the players is its public description
(:meth:`tracker.events.Event.describe_public`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

import saves
from screens.table import TableApp, public_log
from systems.twod6.commands import Attack as Twod6Attack
from systems.zludge.commands import FirstAid, MarkWound, RollSkill
from tests.systems.twod6.helpers import FIGHTER
from tests.systems.zludge.helpers import F
from tests.view.helpers import screen_text, sync
from tracker import commands as C
from tracker import evolve
from tracker.dice import ScriptedRoller

NOTE = "GM ONLY the sheriff paid them"  # typed by the GM on quick damage


def _start(f: saves.SavedFight, order: dict[str, int]) -> None:
    f.do(C.SetInitiative(values=order))
    f.do(C.StartFight())
    f.do(C.SetView(npc_numbers=True, npc_names=True, dice=True))  # all open: events speak for themselves


def bnb(path: Path) -> tuple[saves.SavedFight, tuple[str, ...]]:
    """A PC shot to -3 HP: the death-save prompt tells the GM what to roll."""
    f = saves.new_fight("bnb", path, seed=1, roller=ScriptedRoller())
    f.do(C.AddCombatant(name="Dusty", kind="pc", sheet={"cls": "Shootist", "level": 1, "hp": 10}))
    f.do(C.AddCombatant(name="Lefty", kind="npc", preset="gunfighter", sheet={"hp": 6}))
    _start(f, {"c1": 15, "c2": 10})
    f.do(C.Damage(targets=("c1",), amount="3", note=NOTE))
    f.do(C.Damage(targets=("c1",), amount="10"))
    return f, ("save vs death (d20", NOTE)


def blackjack(path: Path) -> tuple[saves.SavedFight, tuple[str, ...]]:
    """An outlaw falls: the morale prompt tells the GM to roll 2d6 against Morale."""
    f = saves.new_fight("blackjack", path, seed=1, roller=ScriptedRoller())
    f.do(C.AddCombatant(name="Dusty", kind="pc", sheet={}))
    f.do(C.AddCombatant(name="Outlaw", kind="npc", preset="outlaw", count=2))
    _start(f, {"c1": 3, "c2": 2, "c3": 1})
    f.do(C.Damage(targets=("c2",), amount="fatal"))
    return f, ("morale check (2d6 against Morale)",)


def zludge(path: Path) -> tuple[saves.SavedFight, tuple[str, ...]]:
    """A PC with treated wounds fails a physical check: the prompt asks the GM whether they reopen."""
    f = saves.new_fight("zludge", path, seed=1, roller=ScriptedRoller())
    f.do(C.AddCombatant(name="Alice", kind="pc", sheet={"skills": "Melee 2, Medical 1", "weapon": "sword"}))
    f.do(C.AddCombatant(name="Bob", kind="npc", sheet={"skills": "Melee 1", "weapon": "knife"}))
    f.do(MarkWound(target="c1", level=1, note=NOTE))
    f.roller.add(*F(0))
    f.do(FirstAid(actor="c1", target="c1"))  # (before the fight: first aid takes minutes)
    _start(f, {"c1": 2, "c2": 1})
    f.do(C.NextTurn())
    f.do(C.NextTurn())
    f.roller.add(*F(-1))
    f.do(RollSkill(actor="c1", skill="Athletics"))
    assert f.state.prompts, "the scenario must raise the reopen prompt"
    return f, ("do the treated wounds reopen?", NOTE)


def twod6(path: Path) -> tuple[saves.SavedFight, tuple[str, ...]]:
    """Bandit 1 doubles Brannoc's defense: the prompt tells the GM to choose a second result."""
    f = saves.new_fight("twod6", path, seed=1, roller=ScriptedRoller())
    f.do(C.AddCombatant(name="Bandit 1", kind="npc", sheet=FIGHTER))
    f.do(C.AddCombatant(name="Brannoc", kind="pc", sheet={"tou": 2}))
    _start(f, {"c1": 20, "c2": 10})
    f.roller.add(5, 5, 2, 3)  # 14 against 5: doubled
    f.do(Twod6Attack(actor="c1", targets=("c2",)))
    f.do(C.Damage(targets=("c2",), amount="1", note=NOTE))
    return f, ("choose a second result", "useless limb", NOTE)


FIGHTS: dict[str, Callable[[Path], tuple[saves.SavedFight, tuple[str, ...]]]] = {
    "bnb": bnb,
    "blackjack": blackjack,
    "zludge": zludge,
    "twod6": twod6,
}


def gm_log(f: saves.SavedFight) -> str:
    lines = []
    for step in f.steps:
        s = step.before
        for ev in step.events:
            lines.append(ev.describe(s))
            s = evolve(f.system, s, ev)
    return "\n".join(lines)


@pytest.mark.parametrize("system_id", list(FIGHTS))
def test_the_public_log_has_no_gm_instructions_or_notes(system_id: str, tmp_path: Path) -> None:
    f, gm_words = FIGHTS[system_id](tmp_path / "f.jsonl")
    gm = gm_log(f)
    public = "\n".join(public_log(f.system, f.steps, f.state))
    for words in gm_words:
        assert words in gm, f"the scenario no longer makes the GM text {words!r}"
        assert words not in public, public
    assert "The fight begins" in public  # the public log is there, only without the GM's words


def test_a_prompt_event_has_no_public_description() -> None:
    from tracker.events import NoteAdded, PromptRaised, PromptResolved
    from tracker.model import FightState, Prompt

    state = FightState(system="toy")
    raised = PromptRaised(prompt=Prompt(id="p", kind="k", text="roll a save"))
    assert raised.describe(state) == "! roll a save" and raised.describe_public(state) is None
    assert PromptResolved(prompt_id="p", note="my ruling").describe_public(state) is None
    assert NoteAdded(text="secret").describe_public(state) is None


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
@pytest.mark.parametrize("system_id", list(FIGHTS))
@sync
async def test_the_players_view_shows_no_gm_instructions(system_id: str, size: tuple[int, int], tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    f, gm_words = FIGHTS[system_id](path)
    app = TableApp(path)
    async with app.run_test(size=size) as pilot:
        snap = app.follower.snapshot
        for _ in range(100):
            snap = app.follower.snapshot
            if snap.fight is not None and snap.fight.state == f.state:
                break
            await pilot.pause(0.05)
        assert snap.fight is not None and snap.fight.state == f.state, "the view never caught up with the fight"
        await pilot.pause(0.1)
        assert app.shown is not None
        text = screen_text(app)
        for words in gm_words:
            assert words not in text and words not in "\n".join(app.shown.log)
        assert app.shown.log[-1][:30] in text  # the log is on the screen, only without the GM's words
