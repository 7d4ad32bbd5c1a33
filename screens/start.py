"""Start: a new fight in one of the installed systems, continue a saved one, or replay it."""

from __future__ import annotations

import contextlib
import importlib.util
from datetime import datetime
from pathlib import Path
from typing import Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Label, OptionList, Static
from textual.widgets.option_list import Option

import saves
from tracker import registry
from tracker.errors import TrackerError
from tracker.plugin import System


def save_label(info: Any, detail: str = "") -> str:
    """One line per saved fight: file, system, date (from its header), and round/combatants when known."""
    if info.header is None:
        return f"{info.path.name} · {info.problem}"
    created = info.header.created
    with contextlib.suppress(ValueError):
        created = datetime.fromisoformat(created).strftime("%Y-%m-%d %H:%M")
    return f"{info.path.stem} · {info.header.system} · {created}" + (f" · {detail}" if detail else "")


def replay_available() -> bool:
    try:
        return importlib.util.find_spec("screens.replay") is not None
    except (ImportError, ValueError):
        return False


class StartScreen(Screen[None]):
    CSS_PATH = Path(__file__).with_name("start.tcss")
    BINDINGS = [
        Binding("n", "focus_new", "New fight", id="start.new"),
        Binding("c", "focus_saves", "Continue", id="start.continue"),
        Binding("v", "replay", "Replay", id="start.replay"),
        Binding("f1,question_mark", "help", "Help", key_display="?", id="start.help"),
    ]

    def __init__(self, fights_dir: Path | None = None) -> None:
        super().__init__()
        self.fights_dir = fights_dir or saves.default_dir()
        self.systems: list[System] = []
        self.problems: list[str] = []
        self.saved: list[Any] = []

    def compose(self) -> ComposeResult:
        yield Static("GM combat tracker", id="banner")
        with Vertical(id="panes"):
            yield Label("New fight: choose a system (n)", classes="heading")
            yield OptionList(id="systems")
            yield Static("", id="problems", markup=False)
            yield Label("Continue a saved fight (c) · replay it (v)", classes="heading")
            yield OptionList(id="saves")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.systems, self.problems = registry.load_all()
        systems = self.query_one("#systems", OptionList)
        for s in self.systems:
            systems.add_option(Option(Text(f"{s.name} — {s.summary}" if s.summary else s.name)))
        if not self.systems:
            systems.add_option(Option("No game system is installed", disabled=True))
        problems = self.query_one("#problems", Static)
        problems.update("\n".join(self.problems))
        problems.display = bool(self.problems)
        self.load_saves()
        systems.highlighted = 0 if self.systems else None
        systems.focus()

    def load_saves(self) -> None:
        box = self.query_one("#saves", OptionList)
        box.clear_options()
        try:
            self.saved = saves.recent(self.fights_dir, limit=20)
        except OSError:
            self.saved = []
        for info in self.saved:
            box.add_option(Option(Text(save_label(info)), disabled=info.header is None))
        if not self.saved:
            box.add_option(Option("No saved fights yet", disabled=True))
        else:
            self.fill_details()

    @work(thread=True, exclusive=True)
    def fill_details(self) -> None:
        """Round and combatants need the whole log: read them off the UI thread."""
        for n, info in enumerate(list(self.saved)):
            if info.header is None:
                continue
            try:
                state = saves.load(info.path).fight().state
            except TrackerError as e:
                detail = f"cannot open: {e}"
            except Exception as e:
                detail = f"cannot open: {type(e).__name__}"
            else:
                phase = "over" if state.ended else (f"round {state.round}" if state.started else "setup")
                detail = f"{phase} · {len(state.present)} combatants"
            self.app.call_from_thread(self._set_detail, n, info, detail)

    def _set_detail(self, n: int, info: Any, detail: str) -> None:
        box = self.query_one("#saves", OptionList)
        if n < box.option_count and n < len(self.saved) and self.saved[n] is info:
            box.replace_option_prompt_at_index(n, Text(save_label(info, detail)))

    def on_screen_resume(self) -> None:
        if self.is_mounted and self.saved is not None:
            self.load_saves()

    @on(OptionList.OptionSelected, "#systems")
    def _new(self, event: OptionList.OptionSelected) -> None:
        if self.is_current and event.option_index < len(self.systems):
            self.app.new_fight(self.systems[event.option_index])  # type: ignore[attr-defined]

    @on(OptionList.OptionSelected, "#saves")
    def _continue(self, event: OptionList.OptionSelected) -> None:
        if self.is_current and event.option_index < len(self.saved):
            self.app.continue_fight(self.saved[event.option_index].path)  # type: ignore[attr-defined]

    def action_focus_new(self) -> None:
        self.query_one("#systems").focus()

    def action_focus_saves(self) -> None:
        box = self.query_one("#saves", OptionList)
        box.focus()
        if box.highlighted is None and self.saved:
            box.highlighted = 0

    def action_replay(self) -> None:
        box = self.query_one("#saves", OptionList)
        if not self.saved or box.highlighted is None or box.highlighted >= len(self.saved):
            self.notify("Choose a saved fight first (c, then arrows).", severity="warning")
            return
        self.app.replay(self.saved[box.highlighted].path)  # type: ignore[attr-defined]

    def action_help(self) -> None:
        from screens.dialogs.help import HelpDialog

        text = "\n".join(
            [
                "n      choose a system for a new fight (Enter starts it)",
                "c      choose a saved fight to continue (Enter opens it)",
                "v      replay the highlighted saved fight",
                "ctrl+t light/dark theme · ctrl+p command palette · q quit",
                "",
                "Installed systems:",
                *[f"  {s.name}: {s.summary}" for s in self.systems],
                f"\nSaved fights live in {self.fights_dir}",
            ]
        )
        self.app.push_screen(HelpDialog("Help", text))
