"""The fight screen's key bar (KeysFooter) draws what Textual's compact footer drew, as one widget.

The bar replaced ``Footer(compact=True, show_command_palette=False)``.  A real
footer on an app with the same keys is drawn beside it (its key widgets put at
their places on its background), and every cell of both is compared: text,
colour, background, bold and dim, in the dark, the light, an ANSI and a solarized theme (its own footer colours), a
key the screen refuses dimmed, a key under the mouse lit, a bar too narrow for
its keys.  Then the real app: the bar's line in every system at 80x24 and
120x36, a click on a key presses it, the key under the mouse says its tooltip.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from rich.segment import Segment
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import Footer, Label

from screens.app import TrackerApp
from screens.fight import FightScreen
from screens.widgets.footer import KeysFooter
from tests.ui.drive import build_fight
from tests.ui.test_table_view import SYSTEMS

SIZES = [(80, 24), (120, 36)]
THEMES = ["textual-dark", "textual-light", "ansi-dark", "solarized-light"]  # (solarized: its own footer colours)


class Keys(App[None]):
    """An app with keys of each kind: shown, hidden, refused (dimmed), with a tooltip; and one footer."""

    BINDINGS = [
        Binding("n", "noop('next')", "Next"),
        Binding("minus", "noop('damage')", "Dmg"),
        Binding("h", "noop('hidden')", "Hidden", show=False),
        Binding("r", "refused", "Refused"),
        Binding("T", "noop('dice')", "Dice", tooltip="Dice rolled, or typed in"),
        Binding("question_mark", "noop('help')", "Help"),
        Binding("ctrl+w", "noop('back')", "Back to the start"),
    ]

    def __init__(self, ours: bool, palette: bool = False) -> None:
        super().__init__()
        self.ours, self.palette = ours, palette
        self.done: list[str] = []
        self.bells = 0

    def compose(self) -> ComposeResult:
        yield Label("keys")
        if self.ours:
            yield KeysFooter(palette=self.palette)
        else:
            yield Footer(compact=True, show_command_palette=self.palette)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return None if action == "refused" else True

    def action_noop(self, what: str) -> None:
        self.done.append(what)

    def bell(self) -> None:
        self.bells += 1


def cells(strip: Strip) -> list[tuple[str, Any, Any, bool, bool]]:
    """Cell by cell: the character, its colour and background, bold and dim (how segments are cut apart, and
    the offsets Textual gives each key widget's text for selecting it, draw nothing)."""
    out = []
    for seg in strip:
        assert isinstance(seg, Segment)
        style = seg.style
        for ch in seg.text:
            out.append(
                (
                    ch,
                    style.color if style else None,
                    style.bgcolor if style else None,
                    bool(style and style.bold),
                    bool(style and style.dim),
                )
            )
    return out


def textuals_line(app: Keys) -> Strip:
    """The footer's line as the screen shows it: its background, and each key widget drawn at its place."""
    footer = app.query_one(Footer)
    line = footer.render_lines(Region(0, 0, footer.size.width, 1))[0]
    for key in footer.children:
        x = key.region.x - footer.region.x
        if key.region.width <= 0 or x >= footer.size.width:
            continue
        drawn = key.render_lines(Region(0, 0, key.region.width, 1))[0].crop(0, footer.size.width - x)
        line = Strip.join([line.crop(0, x), drawn, line.crop(x + drawn.cell_length)])
    return line


async def drawn(ours: bool, theme: str, width: int, hover: str | None, palette: bool = False) -> Strip:
    app = Keys(ours, palette)
    async with app.run_test(size=(width, 6)) as pilot:
        app.theme = theme
        for _ in range(4):
            await pilot.pause()
        if hover is not None:
            if ours:
                bar = app.query_one(KeysFooter)
                key = next(k for k in bar.placed() if k.description == hover)
                await pilot.hover(KeysFooter, offset=(key.x + 1, 0))
            else:
                widget = next(k for k in app.query_one(Footer).children if getattr(k, "description", "") == hover)
                await pilot.hover(widget, offset=(1, 0))
            for _ in range(3):
                await pilot.pause()
        if ours:
            bar = app.query_one(KeysFooter)
            return bar.render_lines(Region(0, 0, bar.size.width, 1))[0]  # (as the screen draws it)
        return textuals_line(app)


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize(
    ("width", "hover", "palette"),
    [
        (100, None, False),
        (100, "Dmg", False),
        (100, "Refused", False),
        (30, None, False),
        (100, None, True),
        (100, "palette", True),
        (50, "Dmg", True),
    ],
)
def test_the_bar_draws_what_textuals_footer_drew(theme: str, width: int, hover: str | None, palette: bool) -> None:
    async def run() -> None:
        theirs = await drawn(False, theme, width, hover, palette)
        ours = await drawn(True, theme, width, hover, palette)
        assert "Hidden" not in ours.text and "n Next - Dmg" in ours.text
        assert cells(ours) == cells(theirs), f"\n ours:   {ours.text!r}\n theirs: {theirs.text!r}"

    asyncio.run(run())


def test_a_key_refused_is_dimmed_and_a_key_lit_is_not_the_others() -> None:
    """The comparison above holds only if the looks differ where they should: check that they do."""

    async def run() -> None:
        plain = await drawn(True, "textual-dark", 100, None)
        lit = await drawn(True, "textual-dark", 100, "Dmg")
        by_char_plain, by_char_lit = cells(plain), cells(lit)
        text = plain.text
        dmg, refused = text.index("- Dmg"), text.index("r Refused")
        # dimmed (the screen draws a dim key in a colour nearer its background), the others not
        assert by_char_plain[refused][1] != by_char_plain[dmg][1] and by_char_plain[refused][0:1] == ("r",)
        assert by_char_lit[dmg][2] != by_char_plain[dmg][2], "the key under the mouse is lit"
        assert by_char_lit[refused] == by_char_plain[refused], "only the key under the mouse"

    asyncio.run(run())


def test_a_click_presses_the_key_and_a_refused_key_rings() -> None:
    async def run() -> None:
        app = Keys(True)
        async with app.run_test(size=(100, 6)) as pilot:
            await pilot.pause()
            bar = app.query_one(KeysFooter)
            at = {k.description: k for k in bar.keys}
            await pilot.click(KeysFooter, offset=(at["Dice"].x + 2, 0))
            await pilot.click(KeysFooter, offset=(at["Back to the start"].x, 0))
            await pilot.pause()
            assert app.done == ["dice", "back"] and app.bells == 0
            await pilot.click(KeysFooter, offset=(at["Refused"].x + 1, 0))
            await pilot.click(KeysFooter, offset=(at["Dmg"].x + at["Dmg"].width, 0))  # between two keys
            await pilot.pause()
            assert app.done == ["dice", "back"] and app.bells == 1

    asyncio.run(run())


def test_the_key_under_the_mouse_says_its_tooltip() -> None:
    async def run() -> None:
        app = Keys(True)
        async with app.run_test(size=(100, 6)) as pilot:
            await pilot.pause()
            bar = app.query_one(KeysFooter)
            dice = next(k for k in bar.keys if k.description == "Dice")
            await pilot.hover(KeysFooter, offset=(dice.x, 0))
            assert bar.tooltip == "Dice rolled, or typed in" and bar.has_class("-pointing")
            await pilot.hover(KeysFooter, offset=(0, 0))  # "n Next": no tooltip of its own
            assert bar.tooltip is None and bar.has_class("-pointing")
            await pilot.hover(Label)
            assert bar.tooltip is None and bar.hover == -1 and not bar.has_class("-pointing")

    asyncio.run(run())


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("system_id", SYSTEMS)
def test_the_fight_screen_shows_its_keys_on_one_line(system_id: str, size: tuple[int, int], data_dir: Path) -> None:
    """The bar in every system and at both sizes: the core keys, each whole within the width, on the last line;
    after a turn the same; a click on Undo takes the turn back."""
    path = data_dir / "fight.jsonl"
    build_fight(system_id, path).close()

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=size) as pilot:
            for _ in range(4):
                await pilot.pause()
            screen = app.screen
            assert isinstance(screen, FightScreen)
            bar = screen.query_one(KeysFooter)
            assert bar.region.y == size[1] - 1 and bar.region.width == size[0]
            line = bar.render_line(0).text
            words = "n Next - Dmg + Heal x Act C Cond = Adjust A Add u Undo U Redo T Dice ? Help"
            if size[0] >= 110:  # Why? where it fits (tests/ui/test_why_key_shown.py)
                words += " Y Why?"
            assert line == words.ljust(size[0]), line
            before = screen.fight.state.current
            await pilot.press("n")
            await pilot.pause()
            assert screen.fight.state.current != before and bar.render_line(0).text == line
            undo = next(k for k in bar.keys if k.description == "Undo")
            await pilot.click(KeysFooter, offset=(undo.x, 0))
            for _ in range(3):
                await pilot.pause()
            assert screen.fight.state.current == before, "the click on Undo took the turn back"

    asyncio.run(run())


@pytest.mark.parametrize("size", SIZES)
def test_the_start_and_replay_screens_show_their_keys_and_the_palette_at_the_right(
    size: tuple[int, int], data_dir: Path
) -> None:
    """The other screens' bars (Textual's footer before, with its command palette key docked right): their keys
    from the first frame, the palette's key at the right end, a click on it opens the palette."""
    from textual.command import CommandPalette

    path = data_dir / "fight.jsonl"
    build_fight("bnb", path).close()

    async def run(app: TrackerApp, first: str) -> None:
        async with app.run_test(size=size) as pilot:
            for _ in range(4):
                await pilot.pause()
            bar = app.screen.query_one(KeysFooter)
            line = bar.render_line(0).text
            assert line.startswith(first) and line.endswith("▏^p palette "), line
            palette = bar.placed()[-1]
            assert palette.description == "palette" and palette.x + palette.width == size[0] - 1
            await pilot.click(KeysFooter, offset=(palette.x + 1, 0))
            for _ in range(3):
                await pilot.pause()
            assert isinstance(app.screen, CommandPalette)

    asyncio.run(run(TrackerApp(fights_dir=data_dir), "n New fight c Continue v Replay"))
    asyncio.run(run(TrackerApp(replay_path=path), ""))


@pytest.mark.parametrize("system_id", ["bnb", "blackjack", "zludge", "twod6"])
def test_every_key_a_system_names_is_bound(system_id: str) -> None:
    """zludge's Ambush initiative named "A", the core's add: the app skipped it and the action had no key."""
    from screens import keys
    from tracker import registry

    system = registry.load(system_id)
    named = {spec.name: spec.key for spec in keys.system_specs(system) if spec.key}
    bound = keys.system_keys(system)
    assert {name: key for name, key in named.items() if bound.get(key) != name} == {}


@pytest.mark.parametrize("started", [True, False])
@pytest.mark.parametrize("system_id", SYSTEMS)
def test_the_bar_with_the_log_focused_is_whole_at_80_columns(system_id: str, started: bool, data_dir: Path) -> None:
    """The log focused at 80×24: "Tab/Esc Back to the table" before the fight's keys ran past the edge, cut mid-word
    ("… U Re") with "? Help" gone.  The bar then draws the tight keys (screens/keys.py fight_tight), each whole; at
    120 columns the screen's own keys, after the log's."""
    path = data_dir / "fight.jsonl"
    build_fight(system_id, path, start=started).close()

    async def run(size: tuple[int, int]) -> str:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=size) as pilot:
            for _ in range(4):
                await pilot.pause()
            screen = app.screen
            assert isinstance(screen, FightScreen)
            screen.query_one("#log").focus()
            for _ in range(3):
                await pilot.pause()
            return screen.query_one(KeysFooter).render_line(0).text

    narrow = asyncio.run(run((80, 24)))
    middle = (
        "n Next - Dmg + Heal A Add" if started else f"A Add I {'Order' if system_id == 'blackjack' else 'Init'} S Start"
    )
    assert narrow.rstrip() == f"Tab/Esc Back to the table {middle} u Undo U Redo Y Why? ? Help", narrow
    wide = asyncio.run(run((120, 36)))
    assert wide.startswith("Tab/Esc Back to the table n Next") or wide.startswith("Tab/Esc Back to the table x Act"), (
        wide
    )
    assert "? Help" in wide, wide
