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
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

import saves
from saves.listing import NOT_A_FIGHT
from screens.dialogs.base import ask
from screens.dialogs.help import HelpDialog
from screens.widgets.fields import Choices
from screens.widgets.footer import KeysFooter
from tracker import registry
from tracker.errors import TrackerError
from tracker.plugin import About, System
from tracker.text import visible

SAVES_SHOWN = 20


def save_label(info: Any, system_names: dict[str, str] | None = None) -> Text:
    """One line per saved fight: its name, system, date, round and combatants, as ``saves.recent`` read them.

    Nothing here reads the fight's log: ``recent`` took what it shows from the
    header and the last checkpoint, so a fight of any length lists as fast.
    A file it could not read is listed as damaged, with why.
    """
    if info.header is None:
        what = info.problem if info.problem.startswith(NOT_A_FIGHT) else f"damaged: {info.problem or 'unreadable'}"
        return Text(visible(f"{info.path.name} · {what}"), style="dim")
    created = info.created or info.header.created
    with contextlib.suppress(ValueError, TypeError):
        created = datetime.fromisoformat(created).strftime("%Y-%m-%d %H:%M")
    system = info.system or info.header.system
    system = (system_names or {}).get(system, system)
    parts = [system, created]
    if info.phase:
        parts.append(info.phase)
    if info.combatants is not None:
        parts.append("1 combatant" if info.combatants == 1 else f"{info.combatants} combatants")
    out = Text(visible(info.title or info.path.stem), style="bold")
    out.append(visible(" · " + " · ".join(p for p in parts if p)))
    if info.title and info.title != info.path.stem:
        out.append(visible(f"  {info.path.name}"), style="dim")
    return out


def replay_available() -> bool:
    try:
        return importlib.util.find_spec("screens.replay") is not None
    except (ImportError, ValueError):
        return False


def read_saves(folder: Path) -> list[Any]:
    """The newest saved fights (header and last checkpoint only); never raises."""
    try:
        return list(saves.recent(folder, limit=SAVES_SHOWN))
    except Exception:  # a folder the saves code cannot list: none shown
        return []


class StartScreen(Screen[None]):
    CSS_PATH = Path(__file__).with_name("start.tcss")
    BINDINGS = [
        Binding("n", "focus_new", "New fight", priority=True, id="start.new"),  # (priority: see "tab" below)
        Binding("c", "focus_saves", "Continue", priority=True, id="start.continue"),
        Binding("v", "replay", "Replay", id="start.replay"),
        Binding("f1,question_mark", "help", "Help", key_display="?", id="start.help"),
        Binding("q", "app.quit", "Quit", id="start.quit"),
        Binding("enter", "choose", "Open", show=False, priority=True, id="start.choose"),
        # what decides what Enter opens acts as each key is read, as Enter does, so keys sent at once (``c↓⏎``
        # typed on while the app starts, a paste, SSH) open what they would typed one by one (the lists' own
        # keys: see Choices)
        Binding("tab", "app.focus_next", show=False, priority=True, id="start.tab"),
        Binding("shift+tab", "app.focus_previous", show=False, priority=True, id="start.backtab"),
    ]

    class Shown(Message):
        """The start screen shows again: a fight or a replay closed, and what it held may go."""

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

    def __init__(self, fights_dir: Path | None = None, also: Path | None = None) -> None:
        super().__init__()
        self.fights_dir = fights_dir or saves.default_dir()
        self.also = also  # another folder to list (the fight given at launch was there)
        self.systems: list[About] = []  # as they describe themselves: a system is loaded when chosen
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
        yield KeysFooter(palette=True)

    def on_mount(self) -> None:
        self._thaw()
        self.systems, self.problems = registry.described()
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

    @work(thread=True, exclusive=True, group="saves")
    def load_saves(self) -> None:
        """The list, read off the UI thread: a slow disk or a folder of big fights never holds the screen."""
        found = read_saves(self.fights_dir)
        if self.also is not None and self.also.resolve() != self.fights_dir.resolve():
            known = {info.path.resolve() for info in found}
            found += [info for info in read_saves(self.also) if info.path.resolve() not in known]
            found = sorted(found, key=lambda info: info.modified, reverse=True)[:SAVES_SHOWN]
        self.app.call_from_thread(self._show_saves, found)

    def _show_saves(self, found: list[Any]) -> None:
        self.saved = found
        names = {s.id: s.name for s in self.systems}
        box = self.query_one("#saves", OptionList)
        keep = box.highlighted
        box.clear_options()
        here = self.fights_dir.resolve()
        for info in found:
            label = save_label(info, names)
            if self.also is not None and info.path.parent.resolve() != here:  # (two "fight.jsonl" read the same)
                label.append(visible(f"  in {info.path.parent.name or info.path.parent}/"), style="dim italic")
            box.add_option(Option(label, disabled=info.header is None))
        if not found:
            box.add_option(Option("No saved fights yet", disabled=True))
        elif box.has_focus or keep is not None:
            box.highlighted = 0

    def on_screen_resume(self) -> None:
        if self.is_mounted:
            self.load_saves()
        self._thaw()

    def _thaw(self) -> None:
        self.post_message(self.Shown())

    def action_choose(self) -> None:
        """Enter on a list: open what is highlighted before the next key is read (it goes to the fight)."""
        box = self.focused
        if not isinstance(box, OptionList) or box.highlighted is None:
            raise SkipAction()
        n = box.highlighted
        message: Message | None = None
        if box.id == "systems" and n < len(self.systems):
            message = self._new_fight(n)
            if message is None:  # said why; the list must not take the Enter and try again
                return
        elif box.id == "saves" and n < len(self.saved) and self.saved[n].header is not None:
            message = self.Continue(self.saved[n].path)
        if message is None:
            raise SkipAction()
        self.post_message(message)

    def _new_fight(self, n: int) -> Message | None:
        """A new fight in the n-th system, loaded now; one that fails to load is said, and nothing starts."""
        try:
            system = registry.load(self.systems[n].id)
        except TrackerError as e:
            self.notify(str(e), title="Cannot start", severity="error", timeout=10, markup=False)
            return None
        return self.NewFight(system)

    @on(OptionList.OptionSelected, "#systems")
    def _new(self, event: OptionList.OptionSelected) -> None:
        if self.is_current and event.option_index < len(self.systems):
            message = self._new_fight(event.option_index)
            if message is not None:
                self.post_message(message)

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
