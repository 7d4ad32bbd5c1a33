"""Records keep outcomes (#44 item 7): the recap, the replay and its summary say who died.

A fight in each system where the PC dies and an NPC dies and is then removed:
the recap's "Condition at the end" and its outcome lead with the state word
("dead · …"), the removed NPC says both ("dead, then removed"), the replay's
table at its end shows the word whole at 80x24 and 120x36 (with a long
condition and a long name beside it), and the summary's Fell column says the
NPC fell, then left.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.widgets import DataTable

import saves
from saves.export import recap
from screens.app import TrackerApp
from screens.replay import ReplayScreen
from screens.summary import SummaryScreen
from screens.widgets.initiative import InitiativeList
from tests.ui.drive import build_fight
from tests.ui.test_table_view import DEAD, SIZES, drawn_row
from tracker import commands as C

SYSTEMS = ["bnb", "blackjack", "zludge", "twod6"]


def dead_pc_and_removed_npc(system_id: str, path: Path) -> tuple[str, str, str]:
    """The fight: the PC and the first NPC killed by GM adjustment, the NPC then removed; their names."""
    f = build_fight(system_id, path)
    first, second = [c for c in f.state.present if not c.is_pc][:2]
    pc = next(c for c in f.state.present if c.is_pc)
    f.do(C.RenameCombatant(id=second.id, name="Sergeant Bartholomew Longname"))
    f.do(C.AddCondition(id=pc.id, name="Pinned under the collapsed stagecoach"))
    field, value = DEAD[system_id]
    for cid in (pc.id, first.id):
        f.do(C.Adjust(id=cid, field=field, value=value))
    for p in list(f.state.prompts):
        f.do(C.DismissPrompt(prompt_id=p.id))
    f.do(C.RemoveCombatant(id=first.id))
    f.close()
    return pc.name, first.name, "Sergeant Bartholomew Longname"


def rows(text: str) -> dict[str, str]:
    """The recap's combatants table: name -> condition at the end."""
    table = text.split("## Combatants", 1)[1].split("## The fight", 1)[0]
    out = {}
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip("|").split(" | ")]
        if len(cells) == 5 and cells[0] not in ("Name", "---|---|---|---|---"):
            out[cells[0]] = cells[4]
    return out


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_the_recap_leads_with_the_state_word(system_id: str, tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    pc, npc, alive = dead_pc_and_removed_npc(system_id, path)
    text = recap(saves.load(path))
    ends = rows(text)
    assert ends[pc].startswith("dead · "), ends[pc]
    assert "Pinned under the collapsed stagecoach" in ends[pc]  # the conditions still follow
    assert ends[npc] == "dead, then removed", ends[npc]
    assert not ends[alive].startswith("dead"), ends[alive]
    outcome = text.split("## Outcome", 1)[1]
    assert f"- {pc}: dead · " in outcome


def test_a_dying_pc_in_bnb_says_dying_before_the_hp(tmp_path: Path) -> None:
    """The issue's own case: a PC shot below 0 HP is "dying · HP -3/…", not "HP -3/… · DC 10" alone."""
    path = tmp_path / "f.jsonl"
    f = build_fight("bnb", path)
    pc = next(c for c in f.state.present if c.is_pc)
    hp = f.state.get(pc.id).data.hp
    f.do(C.Damage(targets=(pc.id,), amount=str(hp + 3)))
    f.close()
    ends = rows(recap(saves.load(path)))
    assert ends[pc.name].startswith("dying · HP -3/"), ends[pc.name]


def test_a_combatant_removed_while_fit_is_only_removed(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    f = build_fight("twod6", path)
    npc = next(c for c in f.state.present if not c.is_pc)
    f.do(C.RemoveCombatant(id=npc.id))
    f.close()
    assert rows(recap(saves.load(path)))[npc.name] == "removed from the fight"


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_the_replay_shows_the_state_word_whole_and_the_summary_both(system_id: str, data_dir: Path) -> None:
    asyncio.run(_replay(system_id, data_dir / "f.jsonl"))


async def _replay(system_id: str, path: Path) -> None:
    pc, npc, _alive = dead_pc_and_removed_npc(system_id, path)
    for size in SIZES:
        app = TrackerApp(replay_path=path)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await pilot.press("end")  # the summary comes up at the end of the log
            await pilot.pause()
            assert isinstance(app.screen, SummaryScreen)
            table = app.screen.query_one("#fighters", DataTable)
            fell = {str(table.get_row(k)[0]): str(table.get_row(k)[-1]) for k in table.rows}
            assert fell[npc].endswith(", left") and fell[npc].startswith("R"), fell
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, ReplayScreen)
            row = drawn_row(app, pc)
            state_at = app.screen.query_one(InitiativeList).widths
            assert " dead " in row + " ", (size, row, state_at)


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
def test_the_summarys_experience_is_one_award_a_line(size: tuple[int, int], tmp_path: Path) -> None:
    """bnb's awards (the foes overcome, then the PCs' shares) were joined and then escaped: the screen showed a
    literal "\\n" between them.  Each is a line of its own."""
    from textual.geometry import Region

    from tracker import AddCombatant, Adjust, EndFight, Fight, StartFight, registry
    from tracker.replay import Timeline
    from tracker.summary import summarize

    f = Fight(registry.load("bnb"))
    f.do(AddCombatant(name="Jake", kind="pc", preset="shootist"))
    f.do(AddCombatant(name="", preset="outlaw", count=2))
    f.do(StartFight())
    f.do(Adjust(id="c2", field="status", value="dead"))
    f.do(EndFight())
    summary = summarize(Timeline(f.system, list(f.entries)))
    assert len(summary.awards) == 2

    async def run() -> None:
        app = TrackerApp(fights_dir=tmp_path)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            app.push_screen(SummaryScreen(summary, "Blood & Bullets", "t"))
            await pilot.pause()
            awards = app.screen.query_one("#awards")
            size_ = awards.outer_size
            drawn = [s.text for s in awards.render_lines(Region(0, 0, size_.width, size_.height))]
            text = " ".join(" ".join(drawn).split())
            assert "\\n" not in text, text
            assert "XP for the foes overcome" in text and "Even share among 1 PC" in text, text
            first = next(n for n, line in enumerate(drawn) if "Even share" in line)
            assert "XP for the foes" not in drawn[first], drawn  # a line of its own

    asyncio.run(run())
