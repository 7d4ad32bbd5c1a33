"""Why? on a combatant's standing in a fight reopened from its checkpoint (only the log after it in memory).

Gob went down before the checkpoint: ``standing_seq`` searched only the loaded tail, found nothing and said
None (so the fight screen's Y explained the last log line instead, another combatant's, under a bare "Why?").
It finds the cause in the whole log, as :func:`tracker.explain` does; when no cause can be found, the dialog
says so and shows no other line.  Asserted on the core and on the app's dialog, drawn at 80×24 and 120×36.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import Static

import saves
from screens.app import TrackerApp
from screens.fight import FightScreen
from screens.why import WhyDialog
from screens.widgets.initiative import InitiativeList
from tests.support import toy
from tests.ui.drive import press
from tests.view.helpers import sync
from tracker import AddCombatant, Damage, Note
from tracker.explain import standing_seq
from tracker.log import ActionLog

NOTES = 260  # more actions than a checkpoint's spacing (saves.checkpoint.EVERY = 200)


def reopened_after_a_fall(tmp_path: Path) -> tuple[Path, int]:
    """A toy fight: Ann and Gob join, Gob goes down, then a long talk; closed (a checkpoint).  The fall's seq."""
    path = tmp_path / "long.jsonl"
    fight = saves.new_fight("toy", path, seed=1)
    fight.do(AddCombatant(name="Ann", kind="pc", sheet={"hp": 10}))
    fight.do(AddCombatant(name="Gob", kind="npc", sheet={"hp": 4}))
    fight.do(Damage(targets=("c2",), amount="9"))
    fall = max(e.seq for e in fight.entries if type(e.event) is toy.HpChanged)
    for n in range(NOTES):
        fight.do(Note(text=f"talk {n}"))
    fight.close()
    return path, fall


def test_a_standing_set_before_the_checkpoint_is_found_in_the_whole_log(tmp_path: Path) -> None:
    path, fall = reopened_after_a_fall(tmp_path)
    whole = saves.load(path).timeline()
    assert standing_seq(whole, "c2") == fall  # (the whole file, read at once)
    again = saves.open_fight(path)
    try:
        assert again.log.partial and again.log.base_entries > fall  # opened from the checkpoint, after the fall
        assert standing_seq(again, "c2") == fall  # it was None
        assert standing_seq(again, "c1") == 1  # Ann joined (fit) and stayed so
        assert standing_seq(again, "nobody") is None
    finally:
        again.close()


def test_a_partial_log_alone_cannot_read_its_older_part_and_says_none(tmp_path: Path) -> None:
    """A bare partial log (no fight to read the file): nothing is found, and nothing wrong is answered."""
    path, _ = reopened_after_a_fall(tmp_path)
    again = saves.open_fight(path)
    try:
        log = again.log
        assert isinstance(log, ActionLog) and log.partial
        assert standing_seq(log, "c2") is None
        assert log.partial  # (it did not load the rest behind the fight's back)
    finally:
        again.close()


# ---------------------------------------------------------------------------
# in the app: the fight reopened, a combatant on the table, Y


SIZES = [(80, 24), (120, 36)]


def drawn(widget: Widget) -> str:
    size = widget.outer_size
    lines = widget.render_lines(Region(0, 0, size.width, size.height))
    return " ".join(" ".join(strip.text for strip in lines).split())


async def why_on(path: Path, cid: str, size: tuple[int, int]) -> str:
    """Open the fight in the app, select ``cid`` on the table, press Y: the dialog's text."""
    app = TrackerApp(open_path=path)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, FightScreen)
        assert screen.fight.log.partial  # opened from its checkpoint
        table = screen.query_one(InitiativeList)
        table.focus()
        table.select(cid)
        await pilot.pause()
        assert screen.selected == cid
        await press(pilot, "Y")
        assert isinstance(app.screen, WhyDialog)
        return drawn(app.screen.query_one("#why-text", Static))


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    folder.mkdir()
    monkeypatch.setenv("TRACKER_DATA_DIR", str(folder))
    return folder


@pytest.mark.parametrize("size", SIZES)
@sync
async def test_y_on_a_combatant_fallen_before_the_checkpoint_explains_the_fall(
    data: Path, tmp_path: Path, size: tuple[int, int]
) -> None:
    path, fall = reopened_after_a_fall(tmp_path)
    text = await why_on(path, "c2", size)
    assert text.startswith(f"Why is Gob down? {fall} Gob"), text  # it was "Why?" on the last note
    assert "talk 259" not in text


@sync
async def test_the_audited_bnb_fight_reopened_explains_hero_2s_death(data: Path, tmp_path: Path) -> None:
    """The audit's repro: bench's bnb fight (300 events, seed 2) reopened; End selects Hero 2 (dead), Y."""
    from bench.fights import make_fight

    path = tmp_path / "g_bnb.jsonl"
    make_fight("bnb", 300, path, seed=2).close()
    whole = saves.load(path).timeline()
    died = standing_seq(whole, "c2")
    assert died is not None and "dies" in whole.describe(died - 1)
    last = whole.entries[-1].seq
    text = await why_on(path, "c2", (80, 24))
    assert text.startswith(f"Why is Hero 2 dead? {died} "), text  # it was "Why?" on event {last}
    assert not text.startswith(f"Why? {last}")


@sync
async def test_a_cause_that_cannot_be_found_is_said_plainly(
    data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No cause to be found (here: the older part of the log unreadable): the dialog asks the question and says
    it cannot answer it, with no other event's line."""
    import screens.why

    path, _ = reopened_after_a_fall(tmp_path)
    monkeypatch.setattr(screens.why, "standing_seq", lambda *a, **k: None)
    text = await why_on(path, "c2", (80, 24))
    assert text.startswith("Why is Gob down? The event that made Gob down cannot be found in this fight's log.")
    assert "talk" not in text  # no log line: not the last note's
