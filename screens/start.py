"""Start: a new fight in one of the installed systems, continue a saved one, or replay it.

The saved fights are read off the UI thread (one bad file, a huge one or a pipe
in the folder never blocks the screen); a file that cannot be read is listed as
damaged.  What the GM chooses is posted to the app as a message.
"""

from __future__ import annotations

import contextlib
import importlib.util
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from rich.text import Text
from textual import on, work
from textual.actions import SkipAction
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Label, OptionList, Static
from textual.widgets.option_list import Option

import saves
from screens.dialogs.base import ask
from screens.dialogs.help import HelpDialog
from screens.widgets.fields import Choices
from tracker import registry
from tracker.errors import TrackerError
from tracker.plugin import System
from tracker.text import visible

SAVES_SHOWN = 20
DETAIL_LIMIT = 20_000_000  # bytes: a bigger log is listed without its round and combatants


def save_label(info: Any, detail: str = "") -> str:
    """One line per saved fight: file, system, date (from its header), and name/round/combatants when known."""
    if info.header is None:
        return f"{visible(info.path.name)} · damaged: {visible(str(info.problem or 'unreadable'))}"
    created = info.header.created
    with contextlib.suppress(ValueError, TypeError):
        created = datetime.fromisoformat(created).strftime("%Y-%m-%d %H:%M")
    text = f"{info.path.stem} · {info.header.system} · {created}" + (f" · {detail}" if detail else "")
    return visible(text)


def replay_available() -> bool:
    try:
        return importlib.util.find_spec("screens.replay") is not None
    except (ImportError, ValueError):
        return False


def read_saves(folder: Path) -> list[Any]:
    """The newest saved fights (headers only); never raises."""
    try:
        return list(saves.recent(folder, limit=SAVES_SHOWN))
    except Exception:  # a folder the saves code cannot list: none shown
        return []


def describe_save(info: Any) -> str:
    """Name, round and combatants of a saved fight (reads the whole log: call off the UI thread)."""
    try:
        stat = info.path.stat()
        if not info.path.is_file():
            return "damaged: not a regular file"
        if stat.st_size > DETAIL_LIMIT:
            return f"{stat.st_size // 1_000_000} MB"
        state = saves.load(info.path).fight().state
    except TrackerError as e:
        return f"damaged: {e}"
    except Exception as e:  # any failure to read it is the file's, shown as damaged
        return f"damaged: {type(e).__name__}"
    phase = "over" if state.ended else (f"round {state.round}" if state.started else "setup")
    title = getattr(state, "title", "")
    return (f"“{title}” · " if title else "") + f"{phase} · {len(state.present)} combatants"


class StartScreen(Screen[None]):
    CSS_PATH = Path(__file__).with_name("start.tcss")
    BINDINGS = [
        Binding("n", "focus_new", "New fight", id="start.new"),
        Binding("c", "focus_saves", "Continue", id="start.continue"),
        Binding("v", "replay", "Replay", id="start.replay"),
        Binding("f1,question_mark", "help", "Help", key_display="?", id="start.help"),
        Binding("q", "app.quit", "Quit", id="start.quit"),
        Binding("enter", "choose", "Open", show=False, priority=True, id="start.choose"),
    ]

    @dataclass
    class NewFight(Message):
        """Start a new fight in this system."""

        system: System

    @dataclass
    class Continue(Message):
        """Go on with this saved fight."""

        path: Path

    @dataclass
    class Replay(Message):
        """Replay this saved fight, read-only."""

        path: Path

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
            yield Choices(id="systems")
            yield Static("", id="problems", markup=False)
            yield Label("Continue a saved fight (c, Enter) · replay it (v)", classes="heading")
            yield Choices(Option("Reading the saved fights…", disabled=True), id="saves")
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
        self.set_focus(systems)
        release = getattr(self.app, "release_keys", None)
        if release is not None:
            release()  # held by the app while this screen opened

    @work(thread=True, exclusive=True, group="saves")
    def load_saves(self) -> None:
        """The list first (headers only), then each fight's name, round and combatants."""
        found = read_saves(self.fights_dir)
        self.app.call_from_thread(self._show_saves, found)
        for n, info in enumerate(found):
            if info.header is not None:
                self.app.call_from_thread(self._set_detail, n, info, describe_save(info))

    def _show_saves(self, found: list[Any]) -> None:
        self.saved = found
        box = self.query_one("#saves", OptionList)
        keep = box.highlighted
        box.clear_options()
        for info in found:
            box.add_option(Option(Text(save_label(info)), disabled=info.header is None))
        if not found:
            box.add_option(Option("No saved fights yet", disabled=True))
        elif box.has_focus or keep is not None:
            box.highlighted = 0

    def _set_detail(self, n: int, info: Any, detail: str) -> None:
        box = self.query_one("#saves", OptionList)
        if n < box.option_count and n < len(self.saved) and self.saved[n] is info:
            box.replace_option_prompt_at_index(n, Text(save_label(info, detail)))

    def on_screen_resume(self) -> None:
        if self.is_mounted:
            self.load_saves()

    def action_choose(self) -> None:
        """Enter on a list: open what is highlighted before the next key is read (it goes to the fight)."""
        box = self.focused
        if not isinstance(box, OptionList) or box.highlighted is None:
            raise SkipAction()
        n = box.highlighted
        message: Message | None = None
        if box.id == "systems" and n < len(self.systems):
            message = self.NewFight(self.systems[n])
        elif box.id == "saves" and n < len(self.saved) and self.saved[n].header is not None:
            message = self.Continue(self.saved[n].path)
        if message is None:
            raise SkipAction()
        hold = getattr(self.app, "hold_keys", None)
        if hold is not None:
            hold()  # released by the app once it has opened the fight
        self.post_message(message)

    @on(OptionList.OptionSelected, "#systems")
    def _new(self, event: OptionList.OptionSelected) -> None:
        if self.is_current and event.option_index < len(self.systems):
            self.post_message(self.NewFight(self.systems[event.option_index]))

    @on(OptionList.OptionSelected, "#saves")
    def _continue(self, event: OptionList.OptionSelected) -> None:
        if self.is_current and event.option_index < len(self.saved):
            self.post_message(self.Continue(self.saved[event.option_index].path))

    def action_focus_new(self) -> None:
        self.set_focus(self.query_one("#systems"))

    def action_focus_saves(self) -> None:
        box = self.query_one("#saves", OptionList)
        self.set_focus(box)
        if box.highlighted is None and self.saved:
            box.highlighted = 0

    def action_replay(self) -> None:
        """Replay the highlighted saved fight, or the newest one."""
        box = self.query_one("#saves", OptionList)
        readable = [n for n, info in enumerate(self.saved) if info.header is not None]
        if not readable:
            self.notify("There is no saved fight to replay yet.", severity="warning")
            return
        n = box.highlighted if box.highlighted in readable else readable[0]
        self.post_message(self.Replay(self.saved[n].path))

    def action_help(self) -> None:
        text = "\n".join(
            [
                "n      choose a system for a new fight (Enter starts it)",
                "c      choose a saved fight to continue (Enter opens it)",
                "v      replay the highlighted saved fight (or the newest)",
                "ctrl+t light/dark theme · ctrl+p command palette · q quit",
                "",
                "Installed systems:",
                *[f"  {s.name}: {s.summary}" for s in self.systems],
                f"\nSaved fights live in {self.fights_dir}",
            ]
        )
        ask(self.app, HelpDialog("Help", text))
