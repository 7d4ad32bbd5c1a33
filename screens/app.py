"""The tracker's Textual app: a start screen, then one live fight (or a replay).

Screens ask the app for what changes screens by posting messages (a new fight,
continue, replay, back to the start); the app owns the open fight file.

Keys are read in order: while a dialog opens, or while the screen under a closed
dialog takes its result, the app holds the keys that arrive and lets them on
once the dialog (or screen) is ready, so a fast "-", "7", Enter lands in the
damage form, and an Enter typed before a name is never lost.
"""

from __future__ import annotations

import gc
import importlib
import sys
import time
from collections import deque
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import events
from textual.app import App
from textual.binding import Binding
from textual.dom import DOMNode
from textual.message import Message
from textual.message_pump import MessagePump
from textual.screen import Screen
from textual.timer import Timer

import saves
from screens import collector
from screens.fight import FightScreen
from tracker.errors import TrackerError
from tracker.plugin import System

if TYPE_CHECKING:
    from screens.start import StartScreen

# Imported when first needed (the first frame of a continued fight needs none of them):
# screens.start, screens.palette, screens.replay.

HOLD_LIMIT = 2.0  # seconds: a dialog that never opens must not swallow the keyboard
# The app's screen stacks (Textual's modes).  LAUNCH is the first, whose first screen is the fight given to
# continue (see TrackerApp.get_default_screen); START takes over if that fight is closed.
LAUNCH, START = "launch", "start"
# How long the main thread may keep the interpreter before a thread waiting for it gets it (Python's default:
# 5 ms).  Textual's writer thread puts each frame on the terminal; when the main thread goes on working after a
# frame (the fight screen's first frame is followed by Textual's second layout of the new screen and the log's
# older lines), the writer waited for it twice, once to write and once after the write: half the launches showed
# the fight 9 ms after it was drawn, the other half at once (bench; issue #13).  At 0.5 ms it waits at most ~1 ms.
SWITCH_INTERVAL = 0.0005


class TrackerApp(App[None]):
    """``open_path`` continues that fight at once, or, if there is no such file yet, the next new
    fight is saved there; ``replay_path`` opens it in the replay screen."""

    TITLE = "GM combat tracker"
    DEFAULT_MODE = LAUNCH  # (not declared as a mode: Textual asks get_default_screen for its first screen)
    # the fight screen's sheet too: read with the app's, so pushing the fight screen reparses no stylesheet (and
    # restyles no widget of a screen already open)
    CSS_PATH = [Path(__file__).with_name("app.tcss"), Path(__file__).with_name("fight.tcss")]
    BINDINGS = [
        Binding("q", "quit", "Quit", show=False, id="app.quit"),
        Binding("ctrl+t", "toggle_theme", "Theme", show=False, id="app.theme"),
    ]

    class KeysFree(Message):
        """Nothing holds the keys any more: let the held ones on, in order."""

    def __init__(
        self,
        open_path: Path | None = None,
        replay_path: Path | None = None,
        seed: int | None = None,
        fights_dir: Path | None = None,
    ) -> None:
        super().__init__()
        self.last_key = 0.0  # time.monotonic() of the last key typed
        self.fights_dir: Path = fights_dir or saves.default_dir()
        self.open_path = open_path
        self.replay_path = replay_path
        self.seed = seed
        self.fight: saves.store.SavedFight | None = None
        self.new_path: Path | None = None
        self.last_fight: Path | None = None  # named by the CLI if the app crashes
        self._holds = 0
        self._held: deque[events.Key] = deque()
        self._hold_timer: Timer | None = None
        self._first_frame = False
        self.collector = collector.IdleCollector(lambda: self.last_key)
        if open_path is not None and not open_path.exists():
            self.new_path, self.open_path = open_path, None

    # -- keys in order -----------------------------------------------------
    def hold_keys(self) -> None:
        self._holds += 1
        if self._hold_timer is None:
            self._hold_timer = self.set_timer(HOLD_LIMIT, self._unstick)

    def release_keys(self) -> None:
        self._holds = max(self._holds - 1, 0)
        if self._holds == 0:
            if self._hold_timer is not None:
                self._hold_timer.stop()
                self._hold_timer = None
            if self._held:
                self.post_message(self.KeysFree())

    def _unstick(self) -> None:
        self._hold_timer = None
        if self._holds:
            self._holds = 0
            self.post_message(self.KeysFree())

    async def on_event(self, event: events.Event) -> None:
        if not isinstance(event, events.Key) or event.is_forwarded:
            await super().on_event(event)
            return
        self.last_key = time.monotonic()
        if self._holds or self._held:
            self._held.append(event)
            return
        await self._take_key(event)

    async def _take_key(self, event: events.Key) -> None:
        if not self.screen_stack:  # the app is closing (no screen left): keys still held go nowhere
            self._held.clear()
            return
        target = self.focused or self.screen
        await super().on_event(event)
        if event.is_forwarded:  # not a priority key: it goes to the focused widget and may bubble back up here
            self.hold_keys()
            self._follow(target)

    def _follow(self, node: DOMNode) -> None:
        """Release the keys once a forwarded key has been handled: a callback takes the path the key
        bubbles up (each node's queue, from the focused widget to the app), so it runs after the key."""

        def hop(at: DOMNode) -> None:
            parent = at.parent
            if parent is None or parent is self or not isinstance(parent, MessagePump):
                self.call_later(self.release_keys)
            elif not parent.call_later(hop, parent):
                self.release_keys()

        if not node.call_later(hop, node):
            self.release_keys()

    async def on_tracker_app_keys_free(self, message: KeysFree) -> None:
        while self._held and not self._holds:
            await self._take_key(self._held.popleft())

    # -- after the first frame ------------------------------------------------
    def post_display_hook(self) -> None:
        if not self._first_frame and type(self.screen) is not Screen:  # a frame of a screen of ours is written
            self._first_frame = True
            self.set_timer(0.05, self._settle)  # once the writer thread has it on the terminal

    def _settle(self) -> None:
        """The start is over: what saving needs is made (the first action does not wait for it); if the CLI
        held the garbage collector off (see ``screens.cli``), collect once, freeze what lives on (the modules,
        classes and the screen: later collections skip them) and turn it on; from then on it collects while the GM
        is idle (:mod:`screens.collector`)."""
        if self.fight is not None:
            self.fight.prepare()
        if not gc.isenabled():
            gc.collect()
            gc.freeze()
            gc.enable()
            self._frozen = True
        self.collector.start()  # from now on the collector runs while the GM is idle (see screens.collector)
        self.set_interval(collector.EVERY, self.collector.tick)

    _frozen = False  # what lived at the first frame is frozen (see _settle)

    def thaw(self) -> None:
        """Back on the start screen: what the first frame froze may hold a fight or a replay now closed (its
        screen, its states: a long fight's are tens of megabytes); frozen, the collector would never free it."""
        if self._frozen:
            self._frozen = False
            gc.unfreeze()

    # -- screens -----------------------------------------------------------
    def get_default_screen(self) -> Screen[Any]:
        """A fight given to continue is the app's first screen: no empty screen under it is composed, styled and
        laid out first (5-6 ms of the launch, issue #13).  Opened here, as the app starts (nothing is drawn yet;
        Textual lays this screen out once its start is over, as it does an app's own first screen); if it cannot
        be, an empty screen, with the start screen pushed on it once the start is over, which says what went
        wrong (see :meth:`_first_screen`)."""
        if self.open_path is not None and not self._launched:
            self._launched = True  # (asked once: the launch's stack is never made again)
            try:
                fight = saves.open_fight(self.open_path)
            except TrackerError as e:
                self._not_opened = e
            else:
                self.fight = fight
                self.last_fight = fight.path
                self.hold_keys()  # released by the fight screen once mounted
                return FightScreen(fight)
        return super().get_default_screen()

    _not_opened: TrackerError | None = None  # why the fight given could not be opened at the start
    _launched = False

    def on_mount(self) -> None:
        """The start screen is pushed once the app's start is over: Textual mounts the app inside a batch update,
        and a screen pushed from here would lay out and paint its first frame inside that batch, where the frame
        is thrown away; only later partial frames would reach the terminal, with parts of the screen missing until
        a layout repaints all of it (the continued fight's top bar came ~120 ms after its list, bench).  Keys
        typed meanwhile wait for it."""
        self.hold_keys()
        self.call_later(self._first_screen)

    def _first_screen(self) -> None:
        """The start screen, with its imports, unless the fight given is the first screen (get_default_screen);
        if it could not be opened, the start screen says why."""
        try:
            if isinstance(self.screen, FightScreen):
                return
            from screens.start import StartScreen

            self.hold_keys()  # released by the start screen once mounted
            self.push_screen(StartScreen(self.fights_dir))
            if self._not_opened is not None and self.open_path is not None:
                self._cannot_open(self.open_path, self._not_opened)
            if self.open_path is None and self.replay_path is not None:
                self.replay(self.replay_path)
        finally:
            self.release_keys()  # the screen pushed holds them now, until it is mounted

    def on_start_screen_shown(self, message: StartScreen.Shown) -> None:
        self.thaw()

    def on_start_screen_new_fight(self, message: StartScreen.NewFight) -> None:
        try:
            self.new_fight(message.system)
        finally:
            self.release_keys()  # held by the start screen's Enter

    def on_start_screen_continue(self, message: StartScreen.Continue) -> None:
        try:
            self.continue_fight(message.path)
        finally:
            self.release_keys()

    def on_start_screen_replay(self, message: StartScreen.Replay) -> None:
        self.replay(message.path)

    def on_fight_screen_closed(self, message: FightScreen.Closed) -> None:
        """Back to the start screen; the fight stays saved (first under "continue")."""
        if not self.screen_stack or not isinstance(self.screen, FightScreen):  # (no screen: the app is closing)
            return
        if not self.is_running or self.return_code is not None:  # the app is ending: its screens are being
            return  # closed (no new stack of screens now: Textual goes through them)
        from screens.start import StartScreen

        if self.current_mode == LAUNCH and len(self.screen_stack) == 1:
            # the fight given at launch, the first screen (Textual replaces no first screen): the start screen
            # gets a stack of its own, and the launch's stack is removed, the fight's screen with it
            fights_dir = self.fights_dir
            self.add_mode(START, lambda: StartScreen(fights_dir))
            self.switch_mode(START)
            self.add_mode(LAUNCH, Screen)  # known to Textual as a mode only now, so that it can be removed
            self.remove_mode(LAUNCH)
        elif not any(isinstance(s, StartScreen) for s in self.screen_stack):
            self.switch_screen(StartScreen(self.fights_dir))
        else:
            self.pop_screen()
        if self.fight is not None:
            self.fight.close()
            self.fight = None

    def new_fight(self, system: System) -> None:
        try:
            fight = saves.new_fight(system, self.new_path, seed=self.seed, directory=self.fights_dir)
            self.new_path = None  # the next new fight gets a file of its own
        except TrackerError as e:
            self.notify(str(e), title="Cannot start", severity="error", markup=False)
            return
        self._show(fight)

    def continue_fight(self, path: Path) -> bool:
        try:
            fight = saves.open_fight(path)
        except TrackerError as e:
            self._cannot_open(path, e)
            return False
        self._show(fight)
        return True

    def _cannot_open(self, path: Path, e: TrackerError) -> None:
        if isinstance(e, saves.FightInUse):
            self.offer_read_only(path, str(e))
        else:
            self.notify(str(e), title="Cannot open", severity="error", timeout=10, markup=False)

    def offer_read_only(self, path: Path, why: str) -> None:
        """A fight open for writing elsewhere: say so, and offer to replay it read-only (or show it to players)."""
        from screens.dialogs.base import ask
        from screens.dialogs.pick import PickDialog

        options = [("Replay it, read-only", "replay"), ("Leave it", "")]
        help_text = f"{why}.\nTo show it to the players as it goes on, run: tracker table {path}"

        def chosen(what: str | None) -> None:
            if what == "replay":
                self.replay(path)

        # after the start screen is up (at launch it is pushed once this returns)
        self.call_later(ask, self, PickDialog("This fight is open in another tracker", options, help=help_text), chosen)

    def _show(self, fight: saves.store.SavedFight) -> None:
        if any(isinstance(s, FightScreen) for s in self.screen_stack):  # a double Enter while opening
            fight.close()
            return
        if self.fight is not None:
            self.fight.close()
        self.fight = fight
        self.last_fight = fight.path
        self.hold_keys()  # released by the fight screen once mounted
        self.push_screen(FightScreen(fight))

    def replay(self, path: Path) -> None:
        from screens.start import replay_available

        if not replay_available():
            self.notify("Replay is not available yet.", severity="warning")
            return
        try:
            module = importlib.import_module("screens.replay")
            self.push_screen(module.ReplayScreen(path))
        except TrackerError as e:
            self.notify(str(e), title="Cannot replay", severity="error", markup=False)

    def action_command_palette(self) -> None:
        from screens.palette import Palette

        if self.use_command_palette and not any(isinstance(s, Palette) for s in self.screen_stack):
            self.push_screen(Palette(id="--command-palette"))

    def search_themes(self) -> None:
        from textual.theme import ThemeProvider

        from screens.palette import Palette

        self.push_screen(Palette(providers=[ThemeProvider], placeholder="Search for themes…"))

    def action_toggle_theme(self) -> None:
        self.theme = "textual-light" if self.current_theme.dark else "textual-dark"

    def on_unmount(self) -> None:
        self.collector.stop()
        if self.fight is not None:
            self.fight.close()


def run(open_path: Path | None = None, replay_path: Path | None = None, fights_dir: Path | None = None) -> int:
    """Run the app in the terminal (the CLI's entry); after a crash, one line names the fight file and the code is 1."""
    app = TrackerApp(open_path=open_path, replay_path=replay_path, fights_dir=fights_dir)
    interval = sys.getswitchinterval()
    sys.setswitchinterval(min(interval, SWITCH_INTERVAL))  # frames reach the terminal when drawn (see above)
    try:
        app.run()
    finally:
        sys.setswitchinterval(interval)
    code = app.return_code or 0
    if code:
        where = app.last_fight
        print(
            f"tracker: the app crashed; every action is saved in {where}" if where else "tracker: the app crashed",
            file=sys.stderr,
        )
    return code


if __name__ == "__main__":
    raise SystemExit(run())
