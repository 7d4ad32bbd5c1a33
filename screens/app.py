"""The tracker's Textual app: a start screen, then one live fight (or a replay)."""

from __future__ import annotations

import importlib
from pathlib import Path

from textual.app import App
from textual.binding import Binding

import saves
from screens.fight import FightScreen
from screens.start import StartScreen, replay_available
from tracker.errors import TrackerError
from tracker.plugin import System


class TrackerApp(App[None]):
    """``open_path`` continues that fight at once, or, if there is no such file yet, the next new
    fight is saved there; ``replay_path`` opens it in the replay screen."""

    TITLE = "GM combat tracker"
    CSS_PATH = Path(__file__).with_name("app.tcss")
    BINDINGS = [
        Binding("q", "quit", "Quit", id="app.quit"),
        Binding("ctrl+t", "toggle_theme", "Theme", show=False, id="app.theme"),
    ]

    def __init__(
        self,
        open_path: Path | None = None,
        replay_path: Path | None = None,
        seed: int | None = None,
        fights_dir: Path | None = None,
    ) -> None:
        super().__init__()
        self.fights_dir: Path = fights_dir or saves.default_dir()
        self.open_path = open_path
        self.replay_path = replay_path
        self.seed = seed
        self.fight: saves.store.SavedFight | None = None
        self.new_path: Path | None = None
        if open_path is not None and not open_path.exists():
            self.new_path, self.open_path = open_path, None

    def on_mount(self) -> None:
        """Straight to the fight when given one (the start screen, with its imports, only if it fails)."""
        if self.open_path is not None and self.continue_fight(self.open_path):
            return
        self.push_screen(StartScreen(self.fights_dir))
        if self.open_path is None and self.replay_path is not None:
            self.replay(self.replay_path)

    def new_fight(self, system: System) -> None:
        try:
            fight = saves.new_fight(system, self.new_path, seed=self.seed, directory=self.fights_dir)
            self.new_path = None  # the next new fight gets a file of its own
        except TrackerError as e:
            self.notify(str(e), title="Cannot start", severity="error")
            return
        self._show(fight)

    def continue_fight(self, path: Path) -> bool:
        try:
            fight = saves.open_fight(path)
        except TrackerError as e:
            self.notify(str(e), title="Cannot open", severity="error", timeout=10)
            return False
        self._show(fight)
        return True

    def _show(self, fight: saves.store.SavedFight) -> None:
        if any(isinstance(s, FightScreen) for s in self.screen_stack):  # a double Enter while opening
            fight.close()
            return
        if self.fight is not None:
            self.fight.close()
        self.fight = fight
        self.push_screen(FightScreen(fight))

    def replay(self, path: Path) -> None:
        if not replay_available():
            self.notify("Replay is not available yet.", severity="warning")
            return
        try:
            module = importlib.import_module("screens.replay")
            self.push_screen(module.ReplayScreen(path))
        except TrackerError as e:
            self.notify(str(e), title="Cannot replay", severity="error")

    def action_toggle_theme(self) -> None:
        self.theme = "textual-light" if self.current_theme.dark else "textual-dark"

    def on_unmount(self) -> None:
        if self.fight is not None:
            self.fight.close()


def run(open_path: Path | None = None, replay_path: Path | None = None, fights_dir: Path | None = None) -> None:
    """Run the app in the terminal (the CLI's entry)."""
    TrackerApp(open_path=open_path, replay_path=replay_path, fights_dir=fights_dir).run()


if __name__ == "__main__":
    run()
