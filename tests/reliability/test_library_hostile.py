"""A preset library file from another GM is hostile input: every text of it is shown escaped, never passed to the
terminal.  Found by the t3 audit (F4): a preset's summary or category, and a bad key quoted in the "damaged library"
message, reached the terminal raw (an OSC sequence retitled the terminal, a colour sequence and the text after it
misdrew the add dialog's list)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Static

from saves import library
from screens.app import TrackerApp
from screens.dialogs.add import AddDialog
from screens.dialogs.pick import PickDialog
from screens.fight import FightScreen
from screens.testing import press, type_text
from tests.ui.drive import build_fight
from tests.view.helpers import screen_text, sync
from tracker import registry
from tracker.text import CONTROLS, visible

pytestmark = pytest.mark.reliability

# an OSC title, a colour, a C1 CSI, a bidi override, a carriage return, a bell, a NUL
HOSTILE = "\x1b]0;PWNED\x07\x1b[42mgreen\x9b2J\u202eevil\rX\x00"
RAW = CONTROLS - {"\n"}  # (the screen's own lines)


@pytest.fixture(autouse=True)
def _forget_gm_presets() -> object:
    yield
    registry.use_presets("bnb", ())


def _write_library(body: object) -> Path:
    path = library.library_file("bnb")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(body), encoding="utf-8")  # (json.dumps writes the controls as \u escapes)
    return path


def _gunman(**more: object) -> dict[str, object]:
    return {"id": "my:gunman", "name": "Gunman", "kind": "npc", "sheet": {"weapons": f"Colt {HOSTILE}"}, **more}


def _raw_in(text: str) -> set[str]:
    return set(text) & RAW


def test_a_presets_summary_and_category_are_kept_escaped() -> None:
    _write_library({"presets": [_gunman(summary=f"tough {HOSTILE}", category=f"mine{HOSTILE}")]})
    (p,) = library.presets("bnb")
    assert p.summary == f"tough {visible(HOSTILE)}" and p.category == f"mine{visible(HOSTILE)}"
    assert not _raw_in(p.summary + p.category)
    assert "\\x1b]0;PWNED\\x07" in p.summary


DAMAGED = {
    "a bad key": {"presets": [], HOSTILE: 1},
    "a bad key in a preset": {"presets": [_gunman(**{f"x{HOSTILE}": 1})]},
    "another system's presets": {"system": f"bnb{HOSTILE}", "presets": []},
    "a name, a summary, a category and a bad key": {
        "presets": [
            _gunman(name=f"Gun{HOSTILE}", summary=f"tough {HOSTILE}", category=f"mine{HOSTILE}", **{f"x{HOSTILE}": 1})
        ]
    },
    "a name": {"presets": [_gunman(name=f"Gun{HOSTILE}", summary=HOSTILE)]},
}


@pytest.mark.parametrize("what", list(DAMAGED))
def test_a_damaged_librarys_message_quotes_it_escaped(what: str) -> None:
    _write_library(DAMAGED[what])
    with pytest.raises(library.LibraryError) as caught:
        library.presets("bnb")
    said = str(caught.value)
    assert not _raw_in(said), repr(said)
    assert registry.gm_presets("bnb") == ()


async def _add_dialog(pilot: Pilot[None], app: TrackerApp) -> str:
    await press(pilot, "A")
    assert isinstance(app.screen, AddDialog), screen_text(app)
    return screen_text(app)


@sync
async def test_the_add_dialog_shows_a_shared_presets_text_escaped(tmp_path: Path) -> None:
    _write_library({"presets": [_gunman(summary=f"tough {HOSTILE}", category=f"mine{HOSTILE}")]})
    path = tmp_path / "f.jsonl"
    build_fight("bnb", path, start=False).close()
    app = TrackerApp(open_path=path)
    async with app.run_test(size=(160, 40)) as pilot:
        await pilot.pause()
        shown = await _add_dialog(pilot, app)
        assert not _raw_in(shown), repr(shown)
        assert "mine\\x1b]0;PWNED\\x07\\x1b[42mgreen" in shown, shown  # the list's row
        await type_text(pilot, "gunman")
        await press(pilot, "enter")
        await pilot.pause()
        shown = screen_text(app)
        assert not _raw_in(shown), repr(shown)
        assert "Preset: Gunman — tough" in shown and "preset: Colt" in shown, shown
        dialog = app.screen
        assert isinstance(dialog, AddDialog)
        said = str(dialog.query_one("#preset", Static).content)  # (wrapped on the screen)
        assert said == f"Preset: Gunman — tough {visible(HOSTILE)}", said
        hint = str(dialog.query_one("#s-weapons", Input).placeholder)  # its sheet's text, as the field's hint
        assert hint == f"preset: Colt {visible(HOSTILE)}", hint
        await press(pilot, "escape")
        assert isinstance(app.screen, FightScreen)
        await press(pilot, "K")  # the library's own list: rename or delete
        assert isinstance(app.screen, PickDialog), screen_text(app)
        shown = screen_text(app)
        assert "Gunman (NPC)" in shown and not _raw_in(shown), repr(shown)


@sync
@pytest.mark.parametrize("what", ["a bad key", "a name, a summary, a category and a bad key"])
async def test_the_add_dialog_says_a_damaged_library_escaped(tmp_path: Path, what: str) -> None:
    _write_library(DAMAGED[what])
    path = tmp_path / "f.jsonl"
    build_fight("bnb", path, start=False).close()
    app = TrackerApp(open_path=path)
    async with app.run_test(size=(200, 40)) as pilot:
        await pilot.pause()
        shown = await _add_dialog(pilot, app)
        assert "bnb.json" in shown and "mended" in shown, shown
        assert not _raw_in(shown), repr(shown)
        dialog = app.screen
        assert isinstance(dialog, AddDialog)
        said = str(dialog.query_one("#error", Static).content)  # (wrapped on the screen)
        assert said.endswith("your presets are skipped until it is mended") and not _raw_in(said), repr(said)
        if what == "a bad key":
            assert f'unknown field "{visible(HOSTILE)}"' in said, said
            assert "\\x1b]0;PWNED" in shown, shown
        await press(pilot, "escape", "K")  # the library's list says it too (a toast)
        said = " ".join(str(n.message) for n in app._notifications)
        assert "bnb.json" in said and not _raw_in(said), repr(said)
