"""GM adjust of a zludge combatant's skills says the numbers are ranks, and what each rank reads as.

The adjust list showed "Skills (now Melee 1, Acrobatics 0)" and its help "'Melee 2 @Agility, Ranged 3 +Pistols'
(unnamed skills are -1 Poor)", where the detail pane of the same Thug says "Melee +0 Fair, Acrobatics -1 Poor": a
GM who read "Acrobatics 0" as the ladder's Fair typed "Melee 2" for +2 Good and got +1 Decent (audit g1, F4).
The add sheet's help says "ranks 0-3"; the adjust field now says it in its label and names each rank's modifier.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from screens import forms
from screens.actions.base import context
from screens.app import TrackerApp
from screens.dialogs.form import FormDialog
from screens.fight import FightScreen
from screens.widgets.initiative import InitiativeList
from systems.zludge.model import MAX_RANKS, Skill, ZludgeData, ladder
from tests.ui.drive import build_fight, press, type_text
from tests.view.helpers import screen_text
from tracker.events import Adjusted
from tracker.model import NPC


def test_the_skills_field_says_ranks_and_what_each_rank_reads_as(tmp_path: Path) -> None:
    """The label says ranks 0-3; the help names every rank's modifier and ladder word, as the rules count them."""
    fight = build_fight("zludge", tmp_path / "f.jsonl")
    thug = next(c for c in fight.state.combatants if c.kind == NPC)
    param = next(p for p in fight.system.adjustable(fight.state, thug) if p.name == "skills_text")
    assert "ranks 0-3" in param.label
    for rank in range(MAX_RANKS + 1):
        mod = ZludgeData(skills=(Skill(name="Melee", ranks=rank),)).skill_mod("Melee")
        said = re.search(rf"\b{rank}(?: is)? ([+-]\d \w+)", param.help)
        assert said is not None, (rank, param.help)
        assert said.group(1) == ladder(mod), (rank, param.help)
    fight.close()  # type: ignore[attr-defined]


def test_the_adjust_list_line_and_the_form_say_ranks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """At 80x24: `=` on Thug 1, `skill`, Enter: the list line says ranks, the form's hint what each rank reads as;
    the log line still names the value "Skills" (the label up to its explanation in brackets)."""
    monkeypatch.setenv("TRACKER_DATA_DIR", str(tmp_path))
    path = tmp_path / "f.jsonl"
    fight = build_fight("zludge", path)
    thug = next(c for c in fight.state.combatants if c.kind == NPC)
    fight.close()  # type: ignore[attr-defined]

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, FightScreen)
            line = next(label for label, p in forms.adjust_fields(context(screen), thug.id) if p.name == "skills_text")
            assert line.startswith("Skills (ranks 0-3) (now "), line
            screen.query_one(InitiativeList).select(thug.id)
            await press(pilot, "equals_sign")
            await type_text(pilot, "skill")
            await press(pilot, "enter")
            assert isinstance(app.screen, FormDialog), screen_text(app)
            shown = " ".join(re.sub("[█│]", " ", screen_text(app)).split())  # (the hint wraps in the dialog)
            assert "rank 0 is -1 Poor, 1 is +0 Fair, 2 +1 Decent, 3 +2 Good" in shown, shown
            await press(pilot, "ctrl+u")
            await type_text(pilot, "Melee 3")
            await press(pilot, "enter")
            assert isinstance(app.screen, FightScreen), screen_text(app)
            got = screen.fight.state.get(thug.id)
            assert got.data.skill_mod("Melee") == 2  # rank 3: +2 Good, as the help said
            adjusted = [e.event for e in screen.fight.entries if isinstance(e.event, Adjusted)]
            assert [(e.field, e.label) for e in adjusted] == [("skills_text", "Skills")]

    asyncio.run(run())
