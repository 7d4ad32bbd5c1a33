"""#46 in the app: M keeps the selected combatant in the GM's presets, the add dialog lists them first (marked
"mine"), a damaged library is said with its line while the book's presets stay; the condition form suggests
what the GM typed before; the damage form offers one roll for all.  Every system, 80x24 and 120x36, asserted on
the rendered screen."""

from __future__ import annotations

from pathlib import Path

import pytest

from saves import library
from screens.app import TrackerApp
from screens.dialogs.add import AddDialog
from screens.dialogs.form import FormDialog
from screens.fight import FightScreen
from screens.testing import press, type_text
from tests.ui.drive import build_fight
from tests.view.helpers import screen_text, sync
from tracker import registry

SYSTEMS = ["bnb", "blackjack", "zludge", "twod6"]
SIZES = [(80, 24), (120, 36)]


@pytest.fixture(autouse=True)
def _forget_gm_presets() -> object:
    yield
    for sid in SYSTEMS:
        registry.use_presets(sid, ())


async def _open(pilot: object, app: TrackerApp) -> FightScreen:
    await pilot.pause()  # type: ignore[attr-defined]
    assert isinstance(app.screen, FightScreen)
    return app.screen


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("sid", SYSTEMS)
@sync
async def test_keep_a_combatant_then_add_it_from_my_presets(sid: str, size: tuple[int, int], data_dir: Path) -> None:
    path = data_dir / "f.jsonl"
    build_fight(sid, path).close()
    app = TrackerApp(open_path=path)
    async with app.run_test(size=size) as pilot:
        screen = await _open(pilot, app)
        cid = screen.selected
        assert cid is not None
        name = screen.fight.state.get(cid).name
        await press(pilot, "M")
        assert isinstance(app.screen, FormDialog)
        assert f"Keep {name} in your presets" in screen_text(app)
        await press(pilot, "ctrl+a", "ctrl+k")
        await type_text(pilot, "Gang boss")
        await press(pilot, "enter")
        assert isinstance(app.screen, FightScreen)
        assert [p.name for p in library.presets(sid)] == ["Gang boss"]
        said = " ".join(n.message for n in app._notifications)  # the toast, as test_fight_actions reads it
        assert "kept in your presets as 'Gang boss'" in said, said  # (by its name, not its id)
        await press(pilot, "A")
        assert isinstance(app.screen, AddDialog)
        shown = screen_text(app)
        book = next(p for p in registry.load(sid).presets() if p.kind in ("pc", "npc"))
        assert "mine: Gang boss" in shown and book.name in shown, shown
        assert shown.index("mine: Gang boss") < shown.index(f"{book.name} ("), shown  # the GM's own first, marked
        await type_text(pilot, "gang")
        await press(pilot, "enter")
        assert isinstance(app.screen, AddDialog)  # the preset is chosen; the count and fields can still change
        await press(pilot, "ctrl+s")
        assert isinstance(app.screen, FightScreen)
        assert "Gang boss" in screen_text(app)
        assert [c.name for c in screen.fight.state.combatants].count("Gang boss") == 1


@pytest.mark.parametrize("sid", SYSTEMS)
@sync
async def test_a_damaged_library_is_said_and_the_book_presets_stay(sid: str, data_dir: Path) -> None:
    path = data_dir / "f.jsonl"
    build_fight(sid, path).close()
    bad = library.library_file(sid)
    bad.parent.mkdir(parents=True, exist_ok=True)
    text = '{\n  "presets": [\n    {"id": "my:x", "name": "X", "colour": "red"}\n  ]\n}\n'
    bad.write_text(text)
    app = TrackerApp(open_path=path)
    async with app.run_test(size=SIZES[0]) as pilot:
        await _open(pilot, app)
        await press(pilot, "A")
        assert isinstance(app.screen, AddDialog)
        shown = screen_text(app)
        assert "line 3" in shown and "colour" in shown, shown
        book = [p for p in registry.load(sid).presets() if p.kind in ("pc", "npc")]
        assert book[0].name in shown
    assert bad.read_text() == text


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("sid", SYSTEMS)
@sync
async def test_the_condition_form_suggests_what_the_gm_typed_before(
    sid: str, size: tuple[int, int], data_dir: Path
) -> None:
    path = data_dir / "f.jsonl"
    build_fight(sid, path).close()
    library.remember_condition(sid, "Soaked in lamp oil")
    app = TrackerApp(open_path=path)
    async with app.run_test(size=size) as pilot:
        screen = await _open(pilot, app)
        cid = screen.selected
        await press(pilot, "C")
        assert isinstance(app.screen, FormDialog)
        await type_text(pilot, "soak")
        assert "soaked in lamp oil" in screen_text(app).lower()  # the rest of the suggestion, drawn in the field
        await press(pilot, "right", "enter")
        assert isinstance(app.screen, FightScreen)
        assert screen.fight.state.get(cid).condition("Soaked in lamp oil") is not None


@pytest.mark.parametrize("sid", ["bnb", "twod6"])
@sync
async def test_the_damage_form_offers_one_roll_for_all(sid: str, data_dir: Path) -> None:
    path = data_dir / "f.jsonl"
    build_fight(sid, path).close()
    app = TrackerApp(open_path=path)
    async with app.run_test(size=SIZES[1]) as pilot:
        screen = await _open(pilot, app)
        await press(pilot, "space", "down", "space")
        await press(pilot, "minus")
        assert isinstance(app.screen, FormDialog)
        assert "One roll for all" in screen_text(app)
        await type_text(pilot, "1d3")
        await press(pilot, "enter")
        assert isinstance(app.screen, FightScreen)
        shown = screen_text(app)
        assert "One roll for" in shown, shown
        assert sum(type(e.event).__name__ == "HarmRolled" for e in screen.fight.entries) == 1


HURT = {"bnb": "3", "blackjack": "moderate", "zludge": "2", "twod6": "1"}  # quick damage each system takes


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("sid", SYSTEMS)
@sync
async def test_a_preset_kept_as_it_was_is_named_in_the_live_log(
    sid: str, size: tuple[int, int], data_dir: Path
) -> None:
    """Added from a preset kept as it was, the lines that set its kept state said its id ("GM sets c4's HP"):
    the live log described them against the state before it joined.  They name it, as the replay does."""
    from tracker import commands as C

    path = data_dir / "f.jsonl"
    fight = build_fight(sid, path)
    hurt = fight.state.by_name("Hero").id
    fight.do(C.Damage(targets=(hurt,), amount=HURT[sid]))
    for p in list(fight.state.prompts):
        fight.do(C.DismissPrompt(prompt_id=p.id, note="setup"))
    library.save_preset(sid, fight, hurt, "Hurt hero", now=True)
    fight.close()
    app = TrackerApp(open_path=path)
    async with app.run_test(size=size) as pilot:
        screen = await _open(pilot, app)
        await press(pilot, "A")
        await type_text(pilot, "hurt")
        await press(pilot, "enter", "ctrl+s")
        assert isinstance(app.screen, FightScreen), screen_text(app)
        new = screen.fight.state.combatants[-1]
        log = " ".join(" ".join(line.text.split()) for line in screen.query_one("#log").lines)
        assert f"GM sets {new.name}'s" in log, log
        assert f"GM sets {new.id}'s" not in log, log


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("sid", SYSTEMS)
@sync
async def test_keeping_under_a_name_kept_before_asks_to_replace(
    sid: str, size: tuple[int, int], data_dir: Path
) -> None:
    """M with the name of a preset kept before replaced it without a word; the form now says so, on the name,
    and the GM ticks "Replace" to keep the new one in its place."""
    from tests.ui.drive import error_text

    path = data_dir / "f.jsonl"
    build_fight(sid, path).close()
    app = TrackerApp(open_path=path)
    async with app.run_test(size=size) as pilot:
        screen = await _open(pilot, app)
        for _ in range(2):
            await press(pilot, "M", "ctrl+a", "ctrl+k")
            await type_text(pilot, "Gang boss")
            await press(pilot, "enter")
        assert isinstance(app.screen, FormDialog), "the second keeping is not done"
        said = error_text(app)
        assert "already have a preset called 'Gang boss'" in said and "Replace a preset of that name" in said, said
        assert "already have a preset called 'Gang boss'" in " ".join(screen_text(app).split())
        await press(pilot, "tab", "tab", "space", "enter")  # Replace: yes
        assert isinstance(app.screen, FightScreen), error_text(app)
        assert [p.name for p in library.presets(sid)] == ["Gang boss"]
        assert screen.fight.state.combatants  # (the fight is untouched)


@pytest.mark.parametrize("sid", ["blackjack", "zludge"])
@sync
async def test_a_damage_form_of_levels_offers_no_one_roll(sid: str, data_dir: Path) -> None:
    """An injury or damage level rolls nothing: "One roll for all [X] yes" ticked did nothing."""
    path = data_dir / "f.jsonl"
    build_fight(sid, path).close()
    app = TrackerApp(open_path=path)
    async with app.run_test(size=SIZES[1]) as pilot:
        await _open(pilot, app)
        await press(pilot, "minus")
        assert isinstance(app.screen, FormDialog)
        assert "One roll for all" not in screen_text(app)
