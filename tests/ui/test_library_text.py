"""The GM's presets read as text in the app: a kept preset's sheet in the add dialog as a GM reads it (not
Python lists and records), the toast names the preset as the GM named it, an NPC made a PC says so."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input

from saves import library
from screens.app import TrackerApp
from screens.dialogs.add import AddDialog
from screens.fight import FightScreen
from screens.testing import press, type_text
from tests.ui.drive import build_fight
from tests.view.helpers import screen_text, sync
from tracker import commands as C
from tracker import registry

SYSTEMS = ["bnb", "blackjack", "zludge", "twod6"]


@pytest.fixture(autouse=True)
def _forget_gm_presets() -> object:
    yield
    for sid in SYSTEMS:
        registry.use_presets(sid, ())


@sync
async def test_a_kept_presets_sheet_reads_as_text(data_dir: Path) -> None:
    """blackjack keeps weapons as records and injuries as lists: "preset: [{'name': 'Machete', 'kind': …",
    "preset: [[], [], []]"; and the toast said "as 'my-outlaw'"."""
    path = data_dir / "bj.jsonl"
    build_fight("blackjack", path, start=False).close()
    app = TrackerApp(open_path=path)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, FightScreen)
        await press(pilot, "home", "M", "ctrl+a", "ctrl+k")
        await type_text(pilot, "My outlaw")
        await press(pilot, "enter")
        assert isinstance(app.screen, FightScreen)
        said = " ".join(str(n.message) for n in app._notifications)
        assert "kept in your presets as 'My outlaw'" in said, said
        await press(pilot, "A")
        assert isinstance(app.screen, AddDialog)
        await type_text(pilot, "my outlaw")
        await pilot.pause()
        shown = screen_text(app)
        assert "Preset: My outlaw" in shown, shown
        assert "preset: Machete, 2 Revolvers" in shown, shown  # the weapons as the book's preset gives them
        assert "preset: 2/2/1" in shown, shown
        dialog = app.screen
        hints = [str(w.placeholder) for w in dialog._sheet_widgets() if isinstance(w, Input)]
        kept = [h for h in hints if h.startswith("preset:")]
        assert kept and not [h for h in kept if set(h) & set("[]{}'") or h == "preset: "], hints


@sync
async def test_a_preset_of_an_npc_made_a_pc_says_so_in_the_list(data_dir: Path) -> None:
    path = data_dir / "f.jsonl"
    fight = build_fight("bnb", path, start=False)
    fight.do(C.Adjust(id="c1", field="kind", value="pc"))
    library.save_preset("bnb", fight, "c1", "Hired gun")
    fight.close()
    app = TrackerApp(open_path=path)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await press(pilot, "A")
        assert isinstance(app.screen, AddDialog)
        shown = screen_text(app)
        assert "mine: Hired gun (NPC made PC)" in shown, shown
        await type_text(pilot, "hired")
        await press(pilot, "enter", "ctrl+s")
        screen = app.screen
        assert isinstance(screen, FightScreen), screen_text(app)
        new = screen.fight.state.combatants[-1]
        assert (new.name, new.kind) == ("Hired gun", "pc")
        assert new.data.hd == screen.fight.state.get("c1").data.hd
