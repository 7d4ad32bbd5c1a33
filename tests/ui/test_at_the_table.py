"""Issue #44 (at the table, third pass): what the GM enters is what gets recorded.

Each test drives the real app with Pilot at 80×24 and 120×36 and asserts on
what the screen shows, in every system where the item applies.
"""

from __future__ import annotations

import asyncio
import re
import shutil
from pathlib import Path

import attrs
import pytest
from textual.pilot import Pilot

import saves
from screens.app import TrackerApp
from screens.dialogs.add import AddDialog
from screens.dialogs.form import FormDialog
from screens.dialogs.pick import PickDialog
from screens.fight import FightScreen
from screens.widgets.initiative import InitiativeList
from tests.ui.drive import (
    KEYS,
    build_fight,
    custom_sheet,
    error_text,
    post_keys,
    press,
    saved_state_matches,
    type_text,
)
from tests.view.helpers import screen_text
from tracker import commands as C
from tracker import registry
from tracker.errors import Refused
from tracker.model import FightState

SIZES = [(80, 24), (120, 36)]


def log_said(screen: FightScreen, last: int = 8) -> str:
    """The log's last lines as drawn (wrapped at its width), joined into one text."""
    return " ".join(" ".join(s.text.split()) for s in screen.query_one("#log").lines[-last:])


def saved(system_id: str, path: Path, start: bool = True) -> Path:
    """A fight of that system built and closed at ``path`` (for an app to open)."""
    build_fight(system_id, path, start=start).close()
    return path


async def opened(pilot: Pilot) -> FightScreen:
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, FightScreen)
    return screen


# -- item 2: settle by ruling records the outcome the GM picks ---------------------------------------------------

# system: (who is harmed, how much, the outcome to pick by its first letters, its word in the log, the state after)
RULINGS = {
    "bnb": ("Hero", "50", "d", "dies by the GM's ruling", lambda c: c.data.status == "dead"),
    "twod6": ("Hero", "3", "f", "against death by the GM's ruling: dies", lambda c: c.data.dead),
    "blackjack": (None, "fatal", "breaks: s", "breaks (surrendered)", None),
    "toy": ("Hero", "50", "g", "shrugs it off", lambda c: c.data.hp == 1),
}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("system_id", list(RULINGS))
def test_a_ruling_records_the_outcome_the_gm_picks(system_id: str, size: tuple[int, int], data_dir: Path) -> None:
    """`P`, pick the outcome, a note, Enter: the log says the ruling and its outcome, the state follows it; undo
    restores.  Enter with no outcome picked names what is missing and logs nothing."""
    fight = build_fight(system_id, data_dir / "r.jsonl")
    who, amount, keys, said, after = RULINGS[system_id]
    target = fight.state.by_name(who).id if who else next(c.id for c in fight.state.present if not c.is_pc)
    fight.do(C.Damage(targets=(target,), amount=amount))
    assert fight.state.prompts
    path = fight.path
    fight.close()
    asyncio.run(_ruling(path, system_id, size, target, keys, said, after))


async def _ruling(path, system_id, size, target, keys, said, after) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=size) as pilot:
        screen = await opened(pilot)
        log = screen.fight.log
        before = len(log)
        prompt = screen.fight.state.prompts[0]
        await press(pilot, "P")
        assert isinstance(app.screen, FormDialog)
        text = screen_text(app)
        assert "Outcome" in text and "choose: ← → or type" in text, text
        await type_text(pilot, "no save for mooks")  # the ruling typed at once is the note
        await press(pilot, "enter")  # no outcome picked: Enter names what is missing, logs nothing
        assert isinstance(app.screen, FormDialog) and len(log) == before
        assert "Outcome: a value is needed" in screen_text(app)
        assert app.focused is app.screen.query_one("#f-outcome")
        await type_text(pilot, keys)
        picked = app.screen.query_one("#f-outcome").value
        assert picked in prompt.outcomes and (picked != prompt.outcomes[0] or system_id == "blackjack")
        await press(pilot, "enter")
        assert isinstance(app.screen, FightScreen), error_text(app)
        await pilot.pause()
        text = log_said(screen)
        assert said in text and "no save for mooks" in text, text
        if after is not None:
            assert after(screen.fight.state.get(target))
        else:
            outs = [c.data.out for c in screen.fight.state.present if not c.is_pc and c.id != target]
            assert outs and set(outs) == {"surrendered"}  # the side's standing members, as ruled
        assert saved_state_matches(app)
        await press(pilot, "u")
        assert screen.fight.state.prompts[0] == prompt


# -- item 1 (and #43's add-dialog item): the add dialog's preset, kind and fields always agree --------------------

BURSTS = {  # system: (an NPC preset typed in one burst, a PC preset typed in one burst)
    "bnb": ("outlaw", "gambler"),
    "blackjack": ("outlaw", "gunslinger"),
    "twod6": ("bandit", "knife fighter"),
}


async def _burst(pilot: Pilot, text: str) -> None:
    """Keys as a paste or SSH sends them: all in the queue at once, none waited for."""
    post_keys(pilot, *[KEYS.get(ch, ch) for ch in text])
    for _ in range(6):
        await pilot.pause()


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("system_id", ["bnb", "blackjack", "twod6"])
def test_a_preset_typed_in_one_burst_adds_that_presets_kind(system_id: str, size: tuple[int, int], data_dir) -> None:
    fight = build_fight(system_id, data_dir / "a.jsonl", start=False)
    path = fight.path
    fight.close()
    asyncio.run(_bursts(path, system_id, size))


async def _bursts(path: Path, system_id: str, size: tuple[int, int]) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=size) as pilot:
        screen = await opened(pilot)
        for typed, kind in zip(BURSTS[system_id], ("npc", "pc"), strict=True):
            await press(pilot, "A")
            assert isinstance(app.screen, AddDialog)
            await _burst(pilot, typed)
            post_keys(pilot, "enter")  # at once: the first match taken, on to its name
            await _burst(pilot, "")
            text = screen_text(app)
            shown = app.screen.preset
            assert shown is not None and shown.kind == kind and typed.split()[0] in shown.name.lower(), text
            assert ("Player character (space): yes" in text) == (kind == "pc"), text  # the preset's kind, shown
            await press(pilot, "ctrl+s")
            assert isinstance(app.screen, FightScreen), error_text(app)
            added = screen.fight.state.combatants[-1]
            assert added.kind == kind and added.name.lower().startswith(typed.split()[0]), added
            assert (f"{added.name} (PC)" in screen_text(app)) == (kind == "pc")


@pytest.mark.parametrize("again", [False, True], ids=["first", "again"])
def test_a_filter_and_its_enter_in_one_burst_take_the_first_match(again: bool, data_dir) -> None:
    """``bear⏎`` sent at once (a fast typist, a paste, SSH): Enter takes the first preset the typed filter lists,
    not the row that was first before the filter reached the list (the custom sheet); the same in a dialog
    opened again."""
    fight = build_fight("bnb", data_dir / "b.jsonl", start=False)
    path = fight.path
    fight.close()

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=(80, 24)) as pilot:
            await opened(pilot)
            if again:
                await press(pilot, "A")
                await press(pilot, "escape")
            await press(pilot, "A")
            assert isinstance(app.screen, AddDialog)
            post_keys(pilot, "b", "e", "a", "r", "enter")  # all in the queue at once
            await _burst(pilot, "")
            text = screen_text(app)
            assert app.screen.preset is not None and app.screen.preset.name == "Bear, Black", text
            assert "Preset: Bear, Black" in text and app.focused is not None and app.focused.id == "a-count", text

    asyncio.run(run())


GROUPS = {"bnb": "cougar", "blackjack": "outlaw", "twod6": "bandit", "zludge": "thug"}


@pytest.mark.parametrize("system_id", sorted(GROUPS))
def test_a_preset_its_count_and_enter_sent_at_once_add_what_was_typed(system_id: str, data_dir) -> None:
    """``A cougar⏎2⏎`` sent at once (keys typed on while the dialog opens, a paste, SSH) adds two cougars, as
    typed key by key: the count typed after the first Enter lands in the count field its take went to, and the
    second Enter adds.  It used to leave a custom sheet named "cougar2" open, nothing added.  ``A cougar⏎⏎``
    adds one; ``A zzz⏎⏎`` (no preset) a custom one named zzz, as typed slowly."""
    path = saved(system_id, data_dir / "g.jsonl", start=False)
    typed = GROUPS[system_id]

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await opened(pilot)
            for burst, name, count in ((f"{typed}⏎2⏎", typed, 2), (f"{typed}⏎⏎", typed, 1), ("zzz⏎⏎", "zzz", 1)):
                before = len(screen.fight.state.combatants)
                post_keys(pilot, "A", *[{"⏎": "enter"}.get(ch, KEYS.get(ch, ch)) for ch in burst])
                await _burst(pilot, "")
                assert app.screen is screen, f"{burst!r}: {screen_text(app)}"
                added = screen.fight.state.combatants[before:]
                assert len(added) == count and all(c.name.lower().startswith(name) for c in added), f"{burst!r}"
                assert len({c.name for c in added}) == count, added  # (a group: Cougar 1, Cougar 2)
                assert all(c.name in screen_text(app) for c in added), screen_text(app)
            assert saved_state_matches(app)

    asyncio.run(run())


@pytest.mark.parametrize("system_id", ["bnb", "twod6"])
def test_quick_damage_sent_at_once_is_recorded_each_time(system_id: str, data_dir) -> None:
    """``-1⏎`` sent at once, three times: each records 1 damage, the kept dialog too.  The dialog opened again
    used to have no focus until it showed, and the keys typed meanwhile were lost: it stayed open, nothing
    recorded."""
    path = saved(system_id, data_dir / "q.jsonl")

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await opened(pilot)
            for n in range(3):
                post_keys(pilot, "minus", "1", "enter")
                await _burst(pilot, "")
                assert app.screen is screen, f"time {n + 1}: {screen_text(app)}"
                said = log_said(screen, 40)
                assert len(re.findall(r"(loses|takes) 1 (HP|wound)", said)) == n + 1, f"time {n + 1}: {said}"
            assert saved_state_matches(app)

    asyncio.run(run())


@attrs.frozen
class Typed:
    """What keys typed into a saved fight left: its state, the row selected, the log's last lines as drawn."""

    state: FightState
    row: int
    said: str = attrs.field(eq=False)


async def typed(path: Path, keys: tuple[str, ...], at_once: bool) -> Typed:
    """``keys`` typed into the fight at ``path``, sent at once (a paste, SSH, keys typed on while the app is
    busy) or one by one; the fight screen is on top after them, and the file says what the screen does."""
    app = TrackerApp(open_path=path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened(pilot)
        if at_once:
            post_keys(pilot, *keys)
            await _burst(pilot, "")
        else:
            for key in keys:  # each once the app has done what the last one asked
                await press(pilot, key)
        assert app.screen is screen, screen_text(app)
        assert saved_state_matches(app)
        return Typed(screen.fight.state, screen.query_one(InitiativeList).cursor_row, log_said(screen, 40))


HARM_KEYS = {"bnb": "1", "twod6": "1", "blackjack": "right", "zludge": "right"}  # an amount, or the next level


@pytest.mark.parametrize("system_id", sorted(HARM_KEYS))
def test_keys_sent_at_once_record_what_they_record_typed_one_by_one(system_id: str, data_dir) -> None:
    """Arrows on the list, then quick harm with arrows in its field (an amount's cursor, or a level picker's
    value), sent at once (typed on while the screen is busy, a paste, SSH), record what the same keys typed one
    by one record.  It harmed the row selected before the arrow, and
    recorded the level shown before the arrow: the list's and the picker's keys acted after Enter."""
    shutil.copy(saved(system_id, data_dir / "one.jsonl"), data_dir / "burst.jsonl")
    keys = ("down", "down", "up", "minus", HARM_KEYS[system_id], "right", "left", HARM_KEYS[system_id], "enter")

    before = saves.load(data_dir / "one.jsonl").fight().state
    one_by_one = asyncio.run(typed(data_dir / "one.jsonl", keys, False))
    at_once = asyncio.run(typed(data_dir / "burst.jsonl", keys, True))
    assert one_by_one.state != before
    assert at_once.state == one_by_one.state


@pytest.mark.parametrize("system_id", sorted(HARM_KEYS))
def test_an_action_typed_and_chosen_at_once_opens_its_form(system_id: str, data_dir) -> None:
    """``x note⏎`` with ``note⏎`` sent at once opens the note's form, as typed one by one.  It opened the first
    action of the whole list (an attack): Enter ran before the filter's changes had reached the list."""
    path = saved(system_id, data_dir / "x.jsonl")

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=(80, 24)) as pilot:
            await opened(pilot)
            await press(pilot, "x")
            assert not str(app.screen.shown_options[0][0]).startswith("Note"), "(the note is not first anyway)"
            post_keys(pilot, "n", "o", "t", "e", "enter")
            await _burst(pilot, "")
            assert isinstance(app.screen, FormDialog), screen_text(app)
            title = str(app.screen.query_one("#title").render())
            assert title.startswith("Note"), title

    asyncio.run(run())


@pytest.mark.parametrize("size", SIZES)
def test_the_kind_follows_the_preset_taken_and_can_be_changed_in_the_form(size: tuple[int, int], data_dir) -> None:
    fight = build_fight("twod6", data_dir / "k.jsonl", start=False)
    path = fight.path
    fight.close()
    asyncio.run(_kind_changed(path, size))


async def _kind_changed(path: Path, size: tuple[int, int]) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=size) as pilot:
        screen = await opened(pilot)
        await press(pilot, "A")
        await _burst(pilot, "knife fighter")
        post_keys(pilot, "enter")
        await _burst(pilot, "")
        assert "Player character (space): yes" in screen_text(app)
        app.screen.query_one("#a-kind").focus()
        await press(pilot, "space")  # the GM makes the preset an NPC
        assert "Player character (space): no" in screen_text(app)
        await press(pilot, "ctrl+s")
        added = screen.fight.state.combatants[-1]
        assert added.kind == "npc" and added.name == "Knife Fighter"
        assert "Knife Fighter (PC)" not in screen_text(app)


SHEET_PICKS = {  # system: the kind whose sheet has a choice or a yes/no field, and the fields to set
    "bnb": ("npc", {"minor": True}),
    "blackjack": ("npc", {"dead": True}),
    "zludge": ("npc", {"weapon_skill": "+", "high_powered": True}),
    "twod6": ("pc", {"armor": "+", "fine_armor": True}),
}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("system_id", list(SHEET_PICKS))
def test_the_add_dialog_shows_choice_and_yes_no_sheet_fields_as_pickers_and_toggles(
    system_id: str, size: tuple[int, int], data_dir
) -> None:
    """#43: as command forms do: a choice is a picker (‹ value ›), a yes/no a toggle that draws nothing when off."""
    fight = build_fight(system_id, data_dir / "s.jsonl", start=False)
    path = fight.path
    fight.close()
    asyncio.run(_sheet_pickers(path, system_id, size))


async def _sheet_pickers(path: Path, system_id: str, size: tuple[int, int]) -> None:
    from screens.widgets.fields import Cycle, YesNo

    kind, picks = SHEET_PICKS[system_id]
    app = TrackerApp(open_path=path)
    async with app.run_test(size=size) as pilot:
        screen = await opened(pilot)
        await press(pilot, "A")
        dialog = app.screen
        assert isinstance(dialog, AddDialog)
        if (kind == "pc") != dialog.query_one("#a-kind").value:
            dialog.query_one("#a-kind").focus()
            await press(pilot, "space")
        dialog.query_one("#a-name").focus()
        await pilot.pause()
        await type_text(pilot, "Zed")
        assert dialog.query_one("#a-name").value == "Zed"
        expected = {}
        for name, how in picks.items():
            widget = dialog.query_one(f"#s-{name}")
            widget.focus()
            await pilot.pause()
            if how == "+":
                assert isinstance(widget, Cycle)
                before = widget.value
                await press(pilot, "right")
                assert widget.value != before
                expected[name] = widget.value
                assert f"‹ {widget.value} ›" in screen_text(app)
            else:
                assert isinstance(widget, YesNo) and not widget.value
                await press(pilot, "space")
                expected[name] = True
        for name in expected:
            row = dialog.query_one(f"#s-{name}").render_line(0).text
            assert "X" in row or "‹" in row, row
        await press(pilot, "ctrl+s")
        assert isinstance(app.screen, FightScreen), error_text(app)
        added = screen.fight.state.combatants[-1]
        assert added.name == "Zed" and added.kind == kind
        entry = screen.fight.entries[-1].event
        for name, value in expected.items():  # the sheet the rules kept, or the combatant's record
            got = getattr(added.data, name) if hasattr(added.data, name) else entry.sheet[name]
            assert {"yes": "true"}.get(str(got).lower(), str(got).lower()) == str(value).lower(), (name, got)


# -- item 3: maxima and kind corrected afterwards with `=` ------------------------------------------------------


async def _adjust(pilot: Pilot, screen: FightScreen, cid: str, field: str, keys: list[str]) -> None:
    from screens.widgets.initiative import InitiativeList

    screen.query_one(InitiativeList).select(cid)
    await press(pilot, "equals_sign")
    await type_text(pilot, field)
    await press(pilot, "enter")
    assert isinstance(pilot.app.screen, FormDialog), screen_text(pilot.app)
    await press(pilot, *keys)
    await press(pilot, "enter")
    assert isinstance(pilot.app.screen, FightScreen), error_text(pilot.app)


@pytest.mark.parametrize("size", SIZES)
def test_a_bnb_hp_maximum_is_corrected_with_adjust_and_undone(size: tuple[int, int], data_dir) -> None:
    fight = build_fight("bnb", data_dir / "m.jsonl")
    fight.do(C.AddCombatant(name="Kid", kind="pc", preset="shootist"))
    kid = fight.state.combatants[-1]
    rolled = kid.data.max_hp
    path = fight.path
    fight.close()
    asyncio.run(_max_hp(path, kid.id, rolled, size))


async def _max_hp(path: Path, kid: str, rolled: int, size: tuple[int, int]) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=size) as pilot:
        screen = await opened(pilot)
        assert f"HP {rolled}/{rolled}" in screen_text(app)
        want = rolled + 5
        await _adjust(pilot, screen, kid, "hp max", [*str(want)])
        assert f"HP {want}/{want}" in screen_text(app), screen_text(app)
        assert screen.fight.state.get(kid).data.max_hp == want and saved_state_matches(app)
        await press(pilot, "u")
        assert f"HP {rolled}/{rolled}" in screen_text(app)


@pytest.mark.parametrize("size", SIZES)
def test_a_plus_sign_in_a_gm_adjust_is_refused_not_set(size: tuple[int, int], data_dir) -> None:
    """Ruling (screens/forms.py adjust_form): "+3" typed for HP 18 was taken as "set to 3" (18 → 3), where a GM
    means 3 more; it is refused in words, nothing logged, and the form stays open to type the value."""
    fight = build_fight("bnb", data_dir / "p.jsonl")
    fight.do(C.AddCombatant(name="Kid", kind="pc", preset="shootist"))
    kid = fight.state.combatants[-1]
    hp = kid.data.hp
    path = fight.path
    fight.close()

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=size) as pilot:
            screen = await opened(pilot)
            n = len(screen.fight.entries)
            screen.query_one(InitiativeList).select(kid.id)
            await press(pilot, "equals_sign")
            await type_text(pilot, "hp (0")
            await press(pilot, "enter")
            assert isinstance(app.screen, FormDialog), screen_text(app)
            await press(pilot, "ctrl+u", "plus", "3", "enter")
            assert isinstance(app.screen, FormDialog), "the form closed on '+3'"
            said = " ".join(screen_text(app).split())
            assert "'+3' — type the value it should be" in said and f"(now {hp})" in said, said
            assert len(screen.fight.entries) == n and screen.fight.state.get(kid.id).data.hp == hp
            await press(pilot, "ctrl+u", *str(hp - 2), "enter")
            assert app.screen is screen, error_text(app)
            assert screen.fight.state.get(kid.id).data.hp == hp - 2 and saved_state_matches(app)

    asyncio.run(run())


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("system_id", ["bnb", "zludge", "twod6"])
def test_a_kind_is_corrected_with_adjust_and_undone(system_id: str, size: tuple[int, int], data_dir) -> None:
    fight = build_fight(system_id, data_dir / "k.jsonl")
    hero = fight.state.by_name("Hero").id
    path = fight.path
    fight.close()
    asyncio.run(_kind(path, hero, size))


async def _kind(path: Path, hero: str, size: tuple[int, int]) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=size) as pilot:
        screen = await opened(pilot)
        assert "Hero (PC)" in screen_text(app)
        await _adjust(pilot, screen, hero, "kind", ["n"])
        assert "Hero (PC)" not in screen_text(app) and not screen.fight.state.get(hero).is_pc
        assert "kind" in log_said(screen, 3).lower(), log_said(screen, 3)
        await press(pilot, "u")
        assert "Hero (PC)" in screen_text(app)


# -- item 4: initiative in a running fight ----------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("system_id", ["bnb", "zludge", "twod6", "blackjack"])
def test_i_in_a_running_fight_slots_in_a_newcomer_then_asks_before_a_reroll(
    system_id: str, size: tuple[int, int], data_dir
) -> None:
    fight = build_fight(system_id, data_dir / "i.jsonl")
    fight.do(C.NextTurn())
    fight.do(C.AddCombatant(name="Late", kind="pc", sheet=custom_sheet(registry.load(system_id), "pc")))
    path = fight.path
    fight.close()
    asyncio.run(_initiative(path, system_id, size))


async def _initiative(path: Path, system_id: str, size: tuple[int, int]) -> None:
    from screens.dialogs.confirm import ConfirmDialog

    app = TrackerApp(open_path=path)
    async with app.run_test(size=size) as pilot:
        screen = await opened(pilot)
        s = screen.fight.state
        late = s.by_name("Late").id
        others = {c.id: c.initiative for c in s.present if c.id != late}
        turn, current, order = (s.round, s.turn), s.current, [i for i in s.order if i != late]
        await press(pilot, "I")
        s = screen.fight.state
        if system_id == "blackjack":  # no initiative in the book: said, nothing logged
            said = " ".join(n.message for n in app._notifications)  # (the toast: as test_fight_actions reads it)
            assert "no initiative" in said and s.order[-1] == late
            return
        assert s.get(late).initiative is not None and "Late initiative" in log_said(screen)
        assert {c.id: c.initiative for c in s.present if c.id != late} == others  # everyone else's roll
        assert [i for i in s.order if i != late] == order and s.current == current and s.round == turn[0]
        await press(pilot, "I")  # everyone has one: asked first
        assert isinstance(app.screen, ConfirmDialog)
        assert f"starts with round {turn[0] + 1}" in screen_text(app)
        await press(pilot, "n")
        assert not screen.fight.state.reroll_next_round
        await press(pilot, "I", "y")
        assert screen.fight.state.reroll_next_round and screen.fight.state.current == current
        assert f"at the start of round {turn[0] + 1}" in log_said(screen, 4)
        for _ in range(len(screen.fight.state.order) + 1):
            if screen.fight.state.round > turn[0]:
                break
            if screen.fight.state.prompts:
                break
            await press(pilot, "n")
        if screen.fight.state.round > turn[0]:
            assert not screen.fight.state.reroll_next_round


# -- item 5 (forms): focus that cannot mislead --------------------------------------------------------------------


def _row_of(app: TrackerApp, label: str) -> str:
    return next(line for line in screen_text(app).splitlines() if label in line)


@pytest.mark.parametrize("size", SIZES)
def test_a_form_marks_its_focused_field_and_starts_on_what_the_gm_came_to_change(size, data_dir) -> None:
    """zludge's mark-fatigue form starts on the level (not on "Cause"); the focused row carries a mark."""
    path = build_fight("zludge", data_dir / "f.jsonl").path
    asyncio.run(_fatigue_form(path, size))


async def _fatigue_form(path: Path, size: tuple[int, int]) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=size) as pilot:
        await opened(pilot)
        await press(pilot, "t")
        assert isinstance(app.screen, FormDialog)
        assert app.focused is not None and app.focused.id == "f-level", app.focused
        assert "▌Fatigue level" in _row_of(app, "Fatigue level")
        assert "▌" not in _row_of(app, "Cause").split("Cause")[0].split("█")[-1]
        await press(pilot, "tab")
        assert "▌" not in _row_of(app, "Fatigue level").split("Fatigue level")[0].split("█")[-1]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("system_id", ["bnb", "blackjack", "zludge", "twod6"])
def test_enter_in_a_form_submits_or_names_what_is_missing_never_cancels(system_id, size, data_dir) -> None:
    path = build_fight(system_id, data_dir / "c.jsonl").path
    asyncio.run(_never_cancel(path, size))


async def _never_cancel(path: Path, size: tuple[int, int]) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=size) as pilot:
        screen = await opened(pilot)
        before = len(screen.fight.log)
        await press(pilot, "C")  # the condition form: name, rounds, ends…, on
        await type_text(pilot, "dazed")
        for _ in range(12):  # Tab through every field and past the end: never onto OK or Cancel
            await press(pilot, "tab")
            assert app.focused is not None and app.focused.id not in ("ok", "cancel"), app.focused
        await press(pilot, "enter")
        assert not isinstance(app.screen, FormDialog) or error_text(app), "Enter submits or says what is missing"
        assert isinstance(app.screen, FormDialog) or len(screen.fight.log) > before


@pytest.mark.parametrize("size", SIZES)
def test_a_check_box_draws_nothing_when_off(size, data_dir) -> None:
    path = build_fight("bnb", data_dir / "v.jsonl").path
    asyncio.run(_boxes(path, size))


async def _boxes(path: Path, size: tuple[int, int]) -> None:
    app = TrackerApp(open_path=path)
    async with app.run_test(size=size) as pilot:
        await opened(pilot)
        await press(pilot, "A")
        hidden = _row_of(app, "Hidden from the players")
        assert "▐ ▌ Hidden from the players: no" in hidden and "X" not in hidden, hidden
        app.screen.query_one("#a-hidden").focus()
        await press(pilot, "space")
        assert "▐X▌ Hidden from the players: yes" in _row_of(app, "Hidden from the players")


# -- item 8: targets ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("system_id", ["bnb", "twod6"])
def test_an_npcs_attack_form_starts_on_its_last_target_else_on_the_first_foe(system_id, size, data_dir) -> None:
    system = registry.load(system_id)
    fight = build_fight(system_id, data_dir / "t.jsonl", start=False)
    fight.do(C.AddCombatant(name="Doc", kind="pc", sheet=custom_sheet(system, "pc")))
    fight.do(C.RollInitiative())
    fight.do(C.StartFight())
    while fight.state.get(fight.state.current).is_pc:
        fight.do(C.NextTurn())
    path = fight.path
    fight.close()
    asyncio.run(_last_target(path, system_id, size))


async def _last_target(path: Path, system_id: str, size: tuple[int, int]) -> None:
    from screens.widgets.initiative import InitiativeList

    app = TrackerApp(open_path=path)
    async with app.run_test(size=size) as pilot:
        screen = await opened(pilot)
        s = screen.fight.state
        npc = s.current
        hero, doc = [c.id for c in s.present if c.is_pc]  # the first foe in the order, and the other PC
        screen.query_one(InitiativeList).select(npc)  # the selection on the NPC whose turn it is
        await press(pilot, "a")
        assert isinstance(app.screen, FormDialog)
        field = "target" if system_id == "bnb" else "targets"
        first = app.screen.query_one(f"#f-{field}").value
        assert first in (hero, (hero,)), first  # no last target yet: the first foe
        await press(pilot, "escape")
        if system_id == "bnb":
            from systems.bnb.commands import Attack as BnbAttack

            screen.perform(BnbAttack(actor=npc, target=doc))
        else:
            from systems.twod6.commands import Attack as TwoAttack

            screen.perform(TwoAttack(actor=npc, targets=(doc,)))
        await pilot.pause()
        screen.query_one(InitiativeList).select(npc)
        await press(pilot, "a")
        assert isinstance(app.screen, FormDialog)
        assert app.screen.query_one(f"#f-{field}").value in (doc, (doc,))  # its last target
        assert s.name(doc) in app.screen.title_line().plain
        await press(pilot, "escape")
        screen.query_one(InitiativeList).select(hero)  # the GM picks an enemy: that one
        await press(pilot, "a")
        assert app.screen.query_one(f"#f-{field}").value in (hero, (hero,))


@pytest.mark.parametrize("system_id", sorted(HARM_KEYS))
@pytest.mark.parametrize("after", ["n", "u", "down"])
def test_the_keys_after_a_dialogs_enter_reach_the_fight(system_id: str, after: str, data_dir) -> None:
    """``- <amount> ⏎ n`` (or ``u``, ``↓``) sent at once (typed on while the screen is busy, a paste, SSH) records
    what the same keys typed one by one record: the harm, then the next turn (or its undo, or the next row).
    The keys after Enter reached the dialog, still open until its submit ran, and were lost with it."""
    shutil.copy(saved(system_id, data_dir / "one.jsonl"), data_dir / "burst.jsonl")
    keys = ("minus", HARM_KEYS[system_id], "enter", after)

    before = saves.load(data_dir / "one.jsonl")
    one_by_one = asyncio.run(typed(data_dir / "one.jsonl", keys, False))
    at_once = asyncio.run(typed(data_dir / "burst.jsonl", keys, True))
    assert (one_by_one.state == before.fight().state) == (after == "u")  # harmed, and undone by u
    assert len(saves.load(data_dir / "burst.jsonl").entries) > len(before.entries)
    assert at_once == one_by_one


@pytest.mark.parametrize("system_id", ["bnb", "twod6"])
def test_a_fields_own_keys_sent_with_enter_act_before_it(system_id: str, data_dir) -> None:
    """``-12⌫⏎`` sent at once records 1, as typed one by one: Backspace (an Input's binding, which Textual runs
    in the app once the key has come back up from the field) could act after the Enter behind it: the test
    failed before the field took its own keys."""
    shutil.copy(saved(system_id, data_dir / "one.jsonl"), data_dir / "burst.jsonl")
    keys = ("minus", "1", "2", "backspace", "enter")

    at_once = asyncio.run(typed(data_dir / "burst.jsonl", keys, True))
    assert re.search(r"(loses|takes) 1 (HP|wound)", at_once.said), at_once.said
    assert at_once == asyncio.run(typed(data_dir / "one.jsonl", keys, False))


@pytest.mark.parametrize("system_id", sorted(HARM_KEYS))
def test_the_keys_after_a_pick_reach_the_form_it_opens(system_id: str, data_dir) -> None:
    """``x``, then ``note⏎hello⏎`` sent at once, notes "hello", as typed one by one: the keys typed while the
    note's form opened reached the form before its field had the focus, and the first was lost ("ello")."""
    path = saved(system_id, data_dir / "x.jsonl")

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await opened(pilot)
            await press(pilot, "x")
            post_keys(pilot, *"note", "enter", *"hello", "enter")
            await _burst(pilot, "")
            assert app.screen is screen, screen_text(app)
            assert "Note: hello" in log_said(screen), log_said(screen)
            assert saved_state_matches(app)

    asyncio.run(run())


@pytest.mark.parametrize("system_id", sorted(HARM_KEYS))
@pytest.mark.parametrize("keys", [("delete", "y", "n"), ("delete", "n", "n"), ("delete", "escape", "down")])
def test_the_keys_after_a_yes_or_no_reach_the_fight(system_id: str, keys: tuple[str, ...], data_dir) -> None:
    """Remove, answered yes or no (or Escape), then a fight key, sent at once: the answer, then the key, as typed
    one by one.  The answer's key came back up through the dialog to the app, behind the keys after it, which
    the dialog still open took and lost."""
    shutil.copy(saved(system_id, data_dir / "one.jsonl"), data_dir / "burst.jsonl")
    before = saves.load(data_dir / "one.jsonl")
    one_by_one = asyncio.run(typed(data_dir / "one.jsonl", keys, False))
    at_once = asyncio.run(typed(data_dir / "burst.jsonl", keys, True))
    assert len(one_by_one.state.present) == len(before.fight().state.present) - (keys[1] == "y")
    assert at_once == one_by_one


@pytest.mark.parametrize("system_id", sorted(HARM_KEYS))
@pytest.mark.parametrize(
    "keys",
    [
        ("minus", "1", "ctrl+s", "n"),  # a form sent by ctrl+s (1: an amount, or no option on a level picker)
        ("minus", "1", "escape", "n"),  # a form cancelled
        ("x", "escape", "n"),  # the actions list
        ("A", "escape", "n"),  # the add dialog
        ("question_mark", "escape", "n"),  # help
        ("question_mark", "q", "n"),
    ],
)
def test_the_keys_after_a_dialogs_own_keys_reach_the_fight(system_id: str, keys: tuple[str, ...], data_dir) -> None:
    """A dialog sent (ctrl+s) or closed (Escape, q), then a fight key, sent at once: as typed one by one, the
    dialog's answer and then the key.  The dialog's key came back up through it to the app, behind the keys
    after it, which the dialog, still open, took and lost."""
    shutil.copy(saved(system_id, data_dir / "one.jsonl"), data_dir / "burst.jsonl")
    turn = saves.load(data_dir / "one.jsonl").fight().state.turn
    one_by_one = asyncio.run(typed(data_dir / "one.jsonl", keys, False))
    at_once = asyncio.run(typed(data_dir / "burst.jsonl", keys, True))
    assert one_by_one.state.turn != turn or one_by_one.state.prompts, "n passed the turn (or a prompt waits)"
    assert at_once == one_by_one


@pytest.mark.parametrize("size", SIZES)
def test_a_pick_list_moved_in_one_burst_takes_the_row_moved_to(size: tuple[int, int], data_dir) -> None:
    """``↓↓⏎`` sent at once in a pick list (K, F6, x) took the first row: the keys reached the filter before the
    first ↓ moved the focus to the list, so the second ↓ did nothing and Enter took row 1 (the wrong preset to
    rename or delete, a party loaded "as saved" for "fresh"). The burst takes the row the same keys typed one by
    one take."""
    fight = build_fight("bnb", data_dir / "p.jsonl")
    path = fight.path
    fight.close()

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=size) as pilot:
            await opened(pilot)

            async def taken(keys: list[str], burst: bool) -> str:
                """The form the keys open from the actions list, sent one by one or at once."""
                await press(pilot, "x")
                assert isinstance(app.screen, PickDialog)
                if burst:
                    post_keys(pilot, *keys)
                    await _burst(pilot, "")
                else:
                    await press(pilot, *keys)
                assert isinstance(app.screen, FormDialog), screen_text(app)
                title = app.screen.title_text
                await press(pilot, "escape")
                return title

            for downs in (2, 3):
                keys = [*["down"] * downs, "enter"]
                expected = ("Gun-play", "Critter attacks")[downs - 2]
                assert [await taken(keys, False), await taken(keys, True)] == [expected] * 2
            # letters that filter the list, then the arrows, in one burst ("her↓↓⏎" took a row of the whole list)
            keys = [*"re", "down", "down", "enter"]
            assert await taken(keys, False) == await taken(keys, True)

    asyncio.run(run())


@pytest.mark.parametrize("system_id", ["bnb", "blackjack", "zludge", "twod6"])
def test_the_add_dialogs_sheet_hints_name_no_empty_default(system_id: str, data_dir) -> None:
    """A sheet field whose default is empty hinted "default:  — natural attacks: …": the hint is the help alone."""
    from textual.widgets import Input

    fight = build_fight(system_id, data_dir / "a.jsonl", start=False)
    path = fight.path
    fight.close()

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=(120, 36)) as pilot:
            await opened(pilot)
            await press(pilot, "A")
            assert isinstance(app.screen, AddDialog)
            hints = [box.placeholder for box in app.screen.query(Input)]
            assert hints and not [h for h in hints if "default:  " in h or h.startswith("default: —")], hints

    asyncio.run(run())


@pytest.mark.parametrize("system_id", ["bnb", "blackjack", "zludge", "twod6"])
def test_preset_categories_read_as_labels(system_id: str) -> None:
    """The add dialog listed "npc: Outlaw" (blackjack) and "book example: …", "foes: …" (twod6): ids, not words."""
    from tracker import registry

    categories = {p.category for p in registry.load(system_id).presets() if p.category}
    assert categories and all(c[0].isupper() for c in categories), categories


@pytest.mark.parametrize("change", ["preset", "kind"])
def test_a_refusal_in_the_add_form_goes_when_the_gm_picks_another_sheet(change: str, data_dir) -> None:
    """A refusal said of one preset's sheet ("Count: '1x' is not a whole number") stayed beside the next preset
    or kind the GM picked, as if it were said of that one; it goes with the sheet it was said of."""
    path = saved("bnb", data_dir / "r.jsonl", start=False)

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=(80, 24)) as pilot:
            await opened(pilot)
            await press(pilot, "A")
            dialog = app.screen
            assert isinstance(dialog, AddDialog)
            await type_text(pilot, "cougar")
            await press(pilot, "enter")  # taken: on to its count
            await type_text(pilot, "x")
            await press(pilot, "ctrl+s")
            assert "is not a whole number" in error_text(app), screen_text(app)
            if change == "preset":
                while app.focused is None or app.focused.id != "filter":
                    await press(pilot, "shift+tab")
                await press(pilot, *["backspace"] * 6)
                await type_text(pilot, "bear")
                await press(pilot, "enter")
                assert dialog.preset is not None and dialog.preset.name.startswith("Bear")
            else:
                while app.focused is None or app.focused.id != "a-kind":
                    await press(pilot, "tab")
                await press(pilot, "space")
                assert "Player character (space): yes" in screen_text(app)
            assert "whole number" not in error_text(app), screen_text(app)
            assert "whole number" not in screen_text(app)

    asyncio.run(run())


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("unmark", [False, True], ids=["kept", "unmarked"])
def test_the_start_form_marks_the_ambushers_declared_for_the_surprise_round(unmark: bool, size, data_dir) -> None:
    """Ruling (zludge): after ``b`` declares Thug 1 an ambusher, the start form opened with no one marked, and the
    GM's ``S`` ⏎ started with no surprise round the ambush was declared for; it marks the ambushers (saying so)
    and the GM unmarks one the victims saw.  A system without the hook marks no one (bnb)."""
    path = saved("zludge", data_dir / "z.jsonl", start=False)

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=size) as pilot:
            screen = await opened(pilot)
            await press(pilot, "b")
            assert isinstance(app.screen, FormDialog)
            await press(pilot, "space")  # (no one is ticked at first: the list's first row, Thug 1)
            await press(pilot, "enter")
            assert app.screen is screen and screen.fight.state.data.ambushers == ("c1",)
            await press(pilot, "S")
            text = screen_text(app)
            assert "[x] Thug 1" in text and "[ ] Thug 2" in text and "[ ] Hero" in text, text
            assert "Marked by the system's rules: Thug 1" in " ".join(text.split()), text
            if unmark:
                await press(pilot, "tab")  # from the fight's name to the surprise list, on its first row
                await press(pilot, "space")
                assert "[ ] Thug 1" in screen_text(app), screen_text(app)
            await press(pilot, "ctrl+s")
            assert app.screen is screen, error_text(app)
            state = screen.fight.state
            assert state.surprise == (() if unmark else ("c1",))
            assert state.round == (1 if unmark else 0)
            assert saved_state_matches(app)

    asyncio.run(run())


def test_a_system_without_surprise_marks_no_one_in_the_start_form(data_dir) -> None:
    path = saved("bnb", data_dir / "b.jsonl", start=False)

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=(80, 24)) as pilot:
            await opened(pilot)
            await press(pilot, "S")
            text = screen_text(app)
            assert "Surprise round for" in text and "[x]" not in text and "Marked by" not in text, text

    asyncio.run(run())


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("system_id", ["bnb", "zludge", "twod6", "blackjack"])
@pytest.mark.parametrize("roll", [True, False], ids=["rolled", "unticked"])
def test_the_start_form_offers_to_roll_the_initiative_no_one_has_rolled(
    system_id: str, roll: bool, size, data_dir
) -> None:
    """``S`` ⏎ with no initiative rolled started the fight in the order PCs, then NPCs, as added, without a word
    (twod6's PC, added last, acted first).  The form now says so and rolls it first (a toggle, on); unticked, the
    order is as before.  blackjack rolls no initiative: nothing is offered."""
    path = saved(system_id, data_dir / "s.jsonl", start=False)

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=size) as pilot:
            screen = await opened(pilot)
            await press(pilot, "S")
            text = " ".join(screen_text(app).split())
            offered = system_id != "blackjack"
            assert ("Roll initiative first" in text) == offered, text
            assert ("No one has an initiative yet" in text) == offered, text
            if offered and not roll:
                await press(pilot, "tab", "tab", "space")  # past the name and the surprise list, to the toggle
            await press(pilot, "ctrl+s")
            assert app.screen is screen, error_text(app)
            state = screen.fight.state
            assert state.started
            rolled = [c.initiative is not None for c in state.present]
            assert all(rolled) if offered and roll else not any(rolled), rolled
            assert saved_state_matches(app)

    asyncio.run(run())


@pytest.mark.parametrize("system_id", ["bnb", "twod6"])
def test_the_start_form_rolls_for_one_who_joined_after_the_roll(system_id: str, data_dir) -> None:
    """Regression check: initiative rolled, then one more added before ``S``: the form offered nothing (some had an
    initiative), and the fight began with the late one last, its initiative blank.  It names the one without and
    rolls for it alone; the others' rolls stand."""
    fight = build_fight(system_id, data_dir / "late.jsonl", start=False)
    fight.do(C.RollInitiative())
    rolled = {c.id: c.initiative for c in fight.state.present}
    fight.do(
        C.AddCombatant(
            name="Latecomer", kind="npc", preset=next(p.id for p in fight.system.presets() if p.kind == "npc")
        )
    )
    late = fight.state.combatants[-1].id
    path = fight.path
    fight.close()

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await opened(pilot)
            await press(pilot, "S")
            text = " ".join(screen_text(app).split())
            assert "Latecomer has no initiative yet" in text and "Roll initiative first" in text, text
            await press(pilot, "ctrl+s")
            assert app.screen is screen, error_text(app)
            state = screen.fight.state
            assert state.started and state.get(late).initiative is not None
            assert {cid: state.get(cid).initiative for cid in rolled} == rolled
            assert saved_state_matches(app)

    asyncio.run(run())


def test_a_superscript_digit_naming_a_combatant_is_no_place_in_the_list(data_dir) -> None:
    """ "²" typed for a combatant passed ``isdigit`` and failed in ``int``: refused as no such combatant; "2" is
    still the second in the list."""
    from screens.logic import resolve_one

    fight = build_fight("bnb", data_dir / "s.jsonl")
    state = fight.state
    fight.close()
    assert resolve_one(state, "2") == state.present[1].id
    with pytest.raises(Refused, match="there is no combatant '²'"):
        resolve_one(state, "²")
