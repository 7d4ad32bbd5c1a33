"""The tracker's Textual app: a start screen, then one live fight (or a replay).

Screens ask the app for what changes screens by posting messages (a new fight,
continue, replay, back to the start); the app owns the open fight file.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.app import App
from textual.binding import Binding
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.theme import ThemeProvider

import saves
from screens import collector
from screens.dialogs.base import ask
from screens.dialogs.form import FormDialog
from screens.dialogs.pick import PickDialog
from screens.fight import FightScreen
from screens.palette import Palette
from screens.signals import ending_on_signals
from screens.start import StartScreen
from tracker import commands as C
from tracker.errors import TrackerError
from tracker.plugin import System
from tracker.text import visible, visible_lines

# The app's screen stacks (Textual's modes).  LAUNCH is the first, whose first screen is the fight given to
# continue (see TrackerApp.get_default_screen); START takes over if that fight is closed.
LAUNCH, START = "launch", "start"


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

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Every notice, with any control character shown as an escape: a message may quote a file's name or
        its content (a damaged file's header, a sheet's text), and an Escape in it reached the terminal."""
        super().notify(visible_lines(message), title=visible(title), severity=severity, timeout=timeout, markup=markup)

    def __init__(
        self,
        open_path: Path | None = None,
        replay_path: Path | None = None,
        seed: int | None = None,
        fights_dir: Path | None = None,
    ) -> None:
        super().__init__()
        self.fights_dir: Path = fights_dir or saves.default_dir()
        # the folder of the fight file given at launch, listed on the start screen too: after ctrl+w it said "No
        # saved fights yet" of the data folder, right after the GM played the fight
        self.launch_dir: Path | None = open_path.parent if open_path is not None else None
        self.open_path = open_path
        self.replay_path = replay_path
        self.seed = seed
        self.fight: saves.SavedFight | None = None
        self.new_path: Path | None = None
        self.last_fight: Path | None = None  # named by the CLI if the app crashes
        self.rescued: list[tuple[Path, Path]] = []  # (the lost file, where the fight was saved) on closing
        self.unsaved: list[tuple[Path, str]] = []  # (the lost file, why its fight could be saved nowhere) on closing
        self._lose_anyway = False  # the GM chose to close or quit with the fight saved nowhere
        self._first_frame = False
        if open_path is not None and not open_path.exists():
            self.new_path, self.open_path = open_path, None

    # -- after the first frame ------------------------------------------------
    def post_display_hook(self) -> None:
        if not self._first_frame and type(self.screen) is not Screen:  # a frame of a screen of ours is written
            self._first_frame = True
            self.set_timer(0.05, self._settle)  # once the writer thread has it on the terminal

    def _settle(self) -> None:
        """The start is over: what saving needs is made (the first action does not wait for it)."""
        if self.fight is not None:
            self.fight.prepare()

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
                return FightScreen(fight)
        return super().get_default_screen()

    _not_opened: TrackerError | None = None  # why the fight given could not be opened at the start
    _launched = False

    def on_mount(self) -> None:
        """The start screen is pushed once the app's start is over: Textual mounts the app inside a batch update,
        and a screen pushed from here would lay out and paint its first frame inside that batch, where the frame
        is thrown away; only later partial frames would reach the terminal, with parts of the screen missing until
        a layout repaints all of it (the continued fight's top bar came ~120 ms after its list, bench)."""
        self.call_later(self._first_screen)

    def on_ready(self) -> None:
        """The first frame is shown: the garbage collector, held since the command started, runs again."""
        collector.release()

    def _first_screen(self) -> None:
        """The start screen, unless the fight given is the first screen (get_default_screen); if it could not
        be opened, the start screen says why."""
        if isinstance(self.screen, FightScreen):
            if self.fight is not None:
                self.offer_where_it_went_on(self.fight)
            return
        self.push_screen(StartScreen(self.fights_dir, also=self.launch_dir))
        if self._not_opened is not None and self.open_path is not None:
            self._cannot_open(self.open_path, self._not_opened)
        if self.open_path is None and self.replay_path is not None:
            self.replay(self.replay_path)

    def on_start_screen_new_fight(self, message: StartScreen.NewFight) -> None:
        self.new_fight(message.system)

    def on_start_screen_continue(self, message: StartScreen.Continue) -> None:
        self.continue_fight(message.path)

    def on_start_screen_replay(self, message: StartScreen.Replay) -> None:
        self.replay(message.path)

    def on_fight_screen_closed(self, message: FightScreen.Closed) -> None:
        """Back to the start screen; the fight stays saved (first under "continue")."""
        if not self.screen_stack or not isinstance(self.screen, FightScreen):  # (no screen: the app is closing)
            return
        if not self.is_running or self.return_code is not None:  # the app is ending: its screens are being
            return  # closed (no new stack of screens now: Textual goes through them)
        fight = self.fight
        if fight is not None and self._next_fight is None and not self._kept_before(fight, "close"):
            return  # (asked first: the fight is saved nowhere)
        self._lose_anyway = False  # (asked for this fight only)
        if self.current_mode == LAUNCH and len(self.screen_stack) == 1:
            # the fight given at launch, the first screen (Textual replaces no first screen): the start screen
            # gets a stack of its own, and the launch's stack is removed, the fight's screen with it
            fights_dir, also = self.fights_dir, self.launch_dir
            self.add_mode(START, lambda: StartScreen(fights_dir, also=also))
            self.switch_mode(START)
            self.add_mode(LAUNCH, Screen)  # known to Textual as a mode only now, so that it can be removed
            self.remove_mode(LAUNCH)
        elif not any(isinstance(s, StartScreen) for s in self.screen_stack):
            self.switch_screen(StartScreen(self.fights_dir, also=self.launch_dir))
        else:
            self.pop_screen()
        if self.fight is not None:
            self.let_go(self.fight)
            self.fight = None
        following, self._next_fight = self._next_fight, None
        if following is not None:
            self._show(following)

    _next_fight: saves.SavedFight | None = None  # the fight to show once the one on screen is closed

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
        elif isinstance(e, saves.NewerVersion):  # no damage: nothing to go on from in a new file
            words = visible_lines(saves.loading.damaged_words(path, e))
            self.notify(words, title="Saved by a newer version", severity="error", timeout=30, markup=False)
        elif isinstance(e, saves.LoadError) and e.line is not None and e.line > 1:
            words = visible_lines(saves.loading.damaged_words(path, e))  # (it quotes the file)
            self.notify(words, title="Damaged file", severity="error", timeout=30, markup=False)
            self.offer_continue_before(path, e.line, words)
        else:
            self.notify(str(e), title="Cannot open", severity="error", timeout=10, markup=False)

    def offer_continue_before(self, path: Path, line: int | None, why: str) -> None:
        """A fight damaged at ``line`` (not its last action): offer to go on from the last good action before it
        in a new file (``saves.continue_before``; the damaged file is left as it is)."""
        if line is None or line < 2:
            return
        went_on = saves.continuation_of(path)
        if went_on is not None:  # recovery happens once: the fight goes on there, not in one more new file
            options = [(f"Open {went_on.name}, where this fight goes on", "open"), ("Leave it", "")]
            why += f"\n\nIt was continued already, in {went_on.name}."
        else:
            options = [("Continue from the last good action, in a new file", "continue"), ("Leave it", "")]

        def chosen(what: str | None) -> None:
            if what == "open" and went_on is not None:
                self._open_instead(path, went_on)
                return
            if what != "continue":
                return
            try:
                fight = saves.continue_before(path, line)
            except TrackerError as e:
                self.notify(str(e), title="Cannot continue", severity="error", timeout=10, markup=False)
                return
            self._show_instead(path, fight)

        self.call_later(ask, self, PickDialog(f"{path.name} is damaged", options, help=visible_lines(why)), chosen)

    def offer_rescue(self, fight: saves.SavedFight, why: str, *, unwritable: bool = False) -> None:
        """The fight's file was deleted, moved, replaced or changed by another program, or (``unwritable``) it takes
        no more writes (each action is refused as not saved): offer to save the fight as this app has it to a new
        file and go on there.

        Ruling: a fight file the system no longer lets the app write (a full disk, a file made read-only or
        immutable, a share gone read-only) gets the same way on as a lost one: "Save the fight as it is here to a
        new file, and go on there" (beside it, else the fights folder, else a path the GM types).  The fight in
        memory is whole and the file holds every action shown (the refused one was not taken, and the file was
        cut back to its last action); each action was only refused, "could not save…", with no way on.  Leaving
        it changes nothing: the next action is refused and offers it again, and quitting loses nothing.  Test:
        tests/ui/test_rescue_round5.py::test_an_unwritable_fight_file_offers_to_go_on_in_a_new_file.

        Ruling: one rescue dialog per fight at a time.  While one is open (or the path form after it, or the "saved
        nowhere" question of :meth:`_kept_before`), another refused action, ``q`` or ``ctrl+q`` opens no second one;
        a fight saved on already is not offered again.  Two quick keys on a lost file stacked two dialogs, each
        made a copy, and the fight forked.  Test: tests/ui/test_rescue_round6.py::
        test_two_quick_keys_on_a_lost_file_open_one_rescue_dialog."""
        if fight.rescued_to is not None or not self._ask_rescue(fight):
            return
        refused = saves.rescue_refused(fight)
        name = fight.path.name
        if refused:  # (it offered to save, then said what was saved was gone)
            options = [("Leave it", "")]
            help_text = visible_lines(
                f"{refused}.\nNothing more is written to it. Put the file back as it was (a backup, the sync "
                "tool's history) and open it again."
            )
        elif unwritable:
            options = [("Save the fight as it is here to a new file, and go on there", "rescue"), ("Leave it", "")]
            help_text = visible_lines(
                f"{why}.\nNothing done here is lost: every action shown is saved in {name}, which takes no more. "
                "To go on, the fight as it is on this screen can be saved to a new file."
            )
        else:
            options = [("Save the fight as it is here to a new file, and go on there", "rescue"), ("Leave it", "")]
            help_text = visible_lines(
                f"{why}.\nNothing done here is lost: the fight as it is on this screen can be saved."
            )

        def chosen(what: str | None) -> None:
            if what != "rescue" or fight.rescued_to is not None:
                self._asked_rescue(fight)
                return
            try:
                rescued = saves.rescue(fight, elsewhere=(self.fights_dir,))
            except TrackerError as e:
                self.offer_rescue_path(
                    fight,
                    str(e),
                    lambda copy: self._going_on(fight, copy, unwritable=unwritable),
                    unwritable=unwritable,
                    asked=True,
                )
                return
            self._asked_rescue(fight)
            self._going_on(fight, rescued, unwritable=unwritable)

        title = f"{name} cannot be written" if unwritable else f"{name} is no longer this fight's file"
        self.call_later(ask, self, PickDialog(title, options, help=help_text), chosen)

    _asking: frozenset[int] = frozenset()  # the fights (by id) a rescue dialog is open for (see offer_rescue)

    def _ask_rescue(self, fight: saves.SavedFight) -> bool:
        """Whether a rescue dialog may be opened for ``fight`` (none is open for it); if so, one is open from now."""
        if id(fight) in self._asking:
            return False
        self._asking = self._asking | {id(fight)}
        return True

    def _asked_rescue(self, fight: saves.SavedFight) -> None:
        """The rescue dialogs for ``fight`` are over (chosen, or left)."""
        self._asking = self._asking - {id(fight)}

    def _going_on(self, fight: saves.SavedFight, rescued: saves.SavedFight | None, *, unwritable: bool = False) -> None:
        """The fight rescued to ``rescued``: shown there, saying where; not rescued (the GM gave no path): said that
        it is saved nowhere (its file lost: under the log too), or (``unwritable``) that it stays in its file."""
        if rescued is None and unwritable:
            self.notify(
                visible(
                    f"No new file was made: the fight stays in {fight.path.name}, which holds every action shown "
                    "but takes no more. The next action offers a new file again."
                ),
                title="Not saved",
                severity="warning",
                timeout=15,
                markup=False,
            )
            return
        if rescued is None:
            self._say_lost(fight)
            self.notify(
                visible(
                    f"The fight is saved nowhere now: {fight.path.name} was lost and no new file was made. It is "
                    "still here; closing or quitting asks first."
                ),
                title="Not saved",
                severity="warning",
                timeout=15,
                markup=False,
            )
            return
        self._show_instead(fight.path, rescued)
        if rescued.unnoted is not None:  # (a typed path, and no note could be left for the old file: said long)
            self.call_later(
                self.notify,
                visible(
                    f"The fight goes on in {rescued.path}. No note of it could be left beside {fight.path.name} or "
                    f"in the fights folder: open {rescued.path} from now on, not {fight.path.name}."
                ),
                title="Saved to a new file",
                severity="warning",
                timeout=60,
                markup=False,
            )
            return
        self.call_later(
            self.notify,
            visible(f"The fight goes on in {rescued.path}"),
            title="Saved to a new file",
            timeout=10,
            markup=False,
        )

    def offer_rescue_path(
        self,
        fight: saves.SavedFight,
        why: str,
        then: Callable[[saves.SavedFight | None], None],
        *,
        unwritable: bool = False,
        asked: bool = False,
    ) -> None:
        """The rescue could not be written beside the lost file nor in the fights folder (a folder made read-only,
        a full disk): ask the GM for a place, until one takes it or the GM gives up; ``then`` gets the fight going
        on in the new file (None: none was made).

        Ruling: a rescue that cannot be written is not the end of the fight.  The app tries the file beside the
        lost one, then the fights folder, then asks for a path (a folder, or a file), the error shown under it for
        each one that fails.  It said "Cannot save" once, and ``q`` then quit at once with the fight in memory only
        (tests/ui/test_rescue_round4.py::test_a_rescue_nowhere_to_write_offers_a_path_then_asks_before_quitting).

        ``asked``: a rescue dialog for the fight is open already (this form follows it; see :meth:`offer_rescue`).

        Ruling: what Escape leaves is said per case.  A file that takes no more writes (``unwritable``) holds every
        action shown: Escape stays in it.  Only a lost file leaves the fight unsaved.  The form told the GM of a
        full disk to "leave it unsaved", though nothing was unsaved.  Test: tests/ui/test_rescue_round6.py::
        test_the_path_form_of_an_unwritable_file_says_escape_stays_in_it."""
        if not asked and (fight.rescued_to is not None or not self._ask_rescue(fight)):
            return
        param = C.Param(name="path", label="Save to", help="a folder, or a file's path (~ is your home folder)")

        def check(raw: dict[str, Any]) -> saves.SavedFight:
            typed = str(param.parse(raw.get("path")))
            return saves.rescue(fight, typed)  # (as typed: a trailing "/" says a folder, which Path drops)

        def done(copy: saves.SavedFight | None) -> None:
            self._asked_rescue(fight)
            then(copy)

        name = fight.path.name
        if unwritable:
            escape = (
                f"The fight is still here, whole, and every action shown is saved in {name}, which takes no more. "
                f"Type where to save it (another folder or disk) to go on there, or Escape to stay in {name} for now."
            )
        else:
            escape = (
                "The fight is still here, whole. Type where to save it (another folder or disk), or Escape to leave "
                "it unsaved for now."
            )
        help_text = visible_lines(f"{why}.\n{escape}")
        dialog = FormDialog("Save the fight somewhere else", (param,), check, help=help_text)
        self.call_later(ask, self, dialog, done)

    def _only_in_memory(self, fight: saves.SavedFight) -> bool:
        """Whether ``fight``'s file was lost under the app and the fight not saved on elsewhere since."""
        if fight.rescued_to is not None or fight.writer.fd is None:
            return False
        try:
            return bool(fight.writer.lost())
        except Exception:
            return True

    def _say_lost(self, fight: saves.SavedFight) -> None:
        """The log's border of ``fight``'s screen says it is not saved (its file lost, the fight saved nowhere)."""
        for screen in self.screen_stack:
            if isinstance(screen, FightScreen) and getattr(screen, "fight", None) is fight:
                screen.say_file_lost(fight.path.name)

    def _why_lost(self, fight: saves.SavedFight) -> str:
        try:
            return fight.writer.lost() or "was lost"
        except Exception:
            return "was lost"

    def _kept_before(self, fight: saves.SavedFight, what: str) -> bool:
        """Whether ``fight`` may be let go now (``what``: "close" or "quit"): its file is its own, or the fight was
        saved on in a new file just now (beside the lost one, or in the fights folder).  If not, the GM is asked
        first, with the fight kept on screen; what the GM chooses is done from the dialog (saved to a typed path,
        then let go; or let go anyway, the fight lost).

        Ruling: a fight that exists only in this app (its file lost, nowhere else to save it) is never let go
        without asking: quitting or closing says the fight would be lost, and offers a path to type first.  If the
        app ends all the same, the terminal says so and the exit code is 1 (see :func:`run`).  Tests:
        tests/ui/test_rescue_round4.py.

        Ruling: the loss found here (no action tried first) is said under the log as after a refused action, "not
        saved: NAME was lost" in red, from the moment it is asked, whatever the GM chooses ("Stay in the fight" left
        "autosaved to NAME" there).  Test: tests/ui/test_rescue_round5.py::
        test_a_loss_found_by_quitting_says_not_saved_under_the_log."""
        if self._lose_anyway or not self._only_in_memory(fight):
            return True
        if id(fight) in self._asking:  # (a rescue dialog for it is open: it asks, not a second one)
            return False
        try:
            copy = saves.rescue(fight, elsewhere=(self.fights_dir,))
        except TrackerError as e:
            why = str(e)
        else:
            copy.close()
            self._saved_to(fight, copy.path)
            return True
        screen = self.screen
        if isinstance(screen, FightScreen):
            screen.ready = True  # (closing set it: its keys work again while the GM decides)
            screen.refresh_bindings()
        self._say_lost(fight)
        self._ask_rescue(fight)
        go = "Quit" if what == "quit" else "Close it"
        refused = saves.rescue_refused(fight)
        options = [] if refused else [("Save it to a place I type", "path")]
        options += [("Stay in the fight", ""), (f"{go} anyway, and lose the fight", "lose")]
        lost = (
            f"{refused}."
            if refused
            else f"{fight.path.name} {self._why_lost(fight)}, and no new file could be made for the fight "
            "(beside it, or in the fights folder)."
        )
        help_text = visible_lines(
            f"{lost}\nIt exists only in this app now: if it {'quits' if what == 'quit' else 'closes'}, the fight is "
            "lost."
        )

        def let_go() -> None:
            self._lose_anyway = True
            if what == "quit":
                self.exit()
            elif isinstance(self.screen, FightScreen):
                self.screen.close()

        def saved(copy: saves.SavedFight | None) -> None:
            if copy is None:
                self._going_on(fight, None)
                return
            copy.close()
            self._saved_to(fight, copy.path)
            if what == "quit":
                self.exit()
            elif isinstance(self.screen, FightScreen):
                self.screen.close()

        def chosen(answer: str | None) -> None:
            if answer == "path":
                self.offer_rescue_path(fight, why, saved, asked=True)
                return
            self._asked_rescue(fight)
            if answer == "lose":
                let_go()

        self.call_later(ask, self, PickDialog("The fight is saved nowhere", options, help=help_text), chosen)
        return False

    async def action_quit(self) -> None:
        """Quit, unless the fight on screen exists only in this app (see :meth:`_kept_before`)."""
        fight = self.fight
        if fight is not None and not self._kept_before(fight, "quit"):
            return
        self.exit()

    def _open_instead(self, path: Path, other: Path) -> None:
        """Open ``other`` in place of the fight at ``path`` (damaged, or lost once; its screen, if shown, closes
        first)."""
        try:
            fight = saves.open_fight(other)
        except TrackerError as e:
            self._cannot_open(other, e)
            return
        self._show_instead(path, fight)

    def _show_instead(self, path: Path, fight: saves.SavedFight) -> None:
        """Show ``fight`` in place of the damaged one at ``path`` (the damaged file's notice goes: it stayed over
        the continued fight, over its own "Recovered" notice)."""
        self.clear_notifications()
        screen = self.screen
        if isinstance(screen, FightScreen) and self.fight is not None and self.fight.path == path:
            self._next_fight = fight  # shown once the damaged fight's screen is closed (and its file let go)
            screen.post_message(FightScreen.Closed())
        else:
            self._show(fight)

    def offer_read_only(self, path: Path, why: str) -> None:
        """A fight open for writing elsewhere: say so, and offer to replay it read-only (or show it to players)."""
        options = [("Replay it, read-only", "replay"), ("Leave it", "")]
        command = f"tracker table {shlex.quote(str(path))}"  # (to paste into a shell: a space split the path)
        help_text = visible_lines(f"{why}.\nTo show it to the players as it goes on, run: {command}")

        def chosen(what: str | None) -> None:
            if what == "replay":
                self.replay(path)

        # after the start screen is up (at launch it is pushed once this returns)
        self.call_later(ask, self, PickDialog("This fight is open in another tracker", options, help=help_text), chosen)

    def _show(self, fight: saves.SavedFight) -> None:
        if any(isinstance(s, FightScreen) for s in self.screen_stack):  # a double Enter while opening
            fight.close()
            return
        if self.fight is not None:
            self.let_go(self.fight)
        self.fight = fight
        self.last_fight = fight.path
        self.push_screen(FightScreen(fight))
        self.offer_where_it_went_on(fight)

    def offer_where_it_went_on(self, fight: saves.SavedFight) -> None:
        """The fight's file was lost under the app once and the fight saved on in another (``saves.rescue``): say
        so, and offer that one (the stale file went on as if nothing had happened, and the record forked)."""
        went_on = saves.rescued_in(fight.path, (self.fights_dir, saves.default_dir()))
        if went_on is None:
            return
        path = fight.path
        where = went_on.name if went_on.parent == path.parent else str(went_on)
        options = [(f"Open {went_on.name}, where this fight goes on", "open"), ("Stay in this file", "")]
        why = (
            f"{path.name} was lost under the app once (another program replaced, moved or changed it) or could not "
            f"be written, and the fight was saved on in {where}: what was done there is not in this file."
        )

        def chosen(what: str | None) -> None:
            if what == "open":
                self._open_instead(path, went_on)

        self.call_later(
            ask, self, PickDialog(f"{path.name} was saved on elsewhere", options, help=visible_lines(why)), chosen
        )

    def replay(self, path: Path) -> None:
        # Imported here, not at the top: with its summary (plotext) it is 34-46 ms of the launch (-X importtime,
        # 3 runs), which took figure 1 of bench/bench_speed.py ("continue a 2,500-event fight") from within
        # its target to 1.59x the bare app (bnb, 294 ms against 185; target <= 1.5x, issue #43).
        from screens.replay import ReplayScreen

        try:
            self.push_screen(ReplayScreen(path))
        except TrackerError as e:
            self.notify(str(e), title="Cannot replay", severity="error", markup=False)

    def action_command_palette(self) -> None:
        if self.use_command_palette and not any(isinstance(s, Palette) for s in self.screen_stack):
            self.push_screen(Palette(id="--command-palette"))

    def search_themes(self) -> None:
        self.push_screen(Palette(providers=[ThemeProvider], placeholder="Search for themes…"))

    def action_toggle_theme(self) -> None:
        self.theme = "textual-light" if self.current_theme.dark else "textual-dark"

    def let_go(self, fight: saves.SavedFight) -> None:
        """Close ``fight``; its file lost under the app, what it held was saved to a new file: said now, and again
        when the app has ended (quitting let the actions written into a replaced file go, unsaid).  Saved nowhere
        (``fight.unsaved``): said now, and on the terminal, with exit code 1."""
        rescued = fight.close(elsewhere=(self.fights_dir,))
        if rescued is not None:
            self._saved_to(fight, rescued)
        if fight.unsaved:
            self.unsaved.append((fight.path, fight.unsaved))
            self.notify(fight.unsaved, title="The fight is lost", severity="error", timeout=30, markup=False)

    def _saved_to(self, fight: saves.SavedFight, rescued: Path) -> None:
        self.rescued.append((fight.path, rescued))
        self.notify(
            visible(f"{fight.path.name} was no longer this fight's file: the fight is saved in {rescued}"),
            title="Saved to a new file",
            severity="warning",
            timeout=15,
            markup=False,
        )

    def on_unmount(self) -> None:
        if self.fight is not None:
            self.let_go(self.fight)


def run(open_path: Path | None = None, replay_path: Path | None = None, fights_dir: Path | None = None) -> int:
    """Run the app in the terminal (the CLI's entry); after a crash, one line names the fight file and the code is 1.

    A fight that ended saved nowhere (its file lost, no rescue could be written) is said too, and the code is 1.
    Every line goes through :func:`~tracker.text.visible`: a file's name may hold an Escape, which reached the
    terminal raw (it set the terminal's title; tests/ui/test_rescue_round4.py)."""
    app = TrackerApp(open_path=open_path, replay_path=replay_path, fights_dir=fights_dir)
    with ending_on_signals(app):
        app.run()
    code = app.return_code or 0
    for lost, rescued in app.rescued:
        _say(
            f"tracker: {lost} was replaced, moved or changed by another program; the fight as the app had it is "
            f"saved in {rescued}"
        )
    for lost, why in app.unsaved:
        _say(f"tracker: the fight in {lost} is lost: {why}")
    if code:
        where = app.last_fight
        if where and not app.unsaved:
            _say(f"tracker: the app crashed; every action is saved in {where}")
        else:
            _say("tracker: the app crashed")
    return code or (1 if app.unsaved else 0)


def _say(line: str) -> None:
    """One line on the terminal's error stream, any control character in it shown as an escape; none if the
    terminal is gone (SIGHUP, its window closed: see screens/signals.py), so the lines after it and the exit code
    are still the fight's."""
    from contextlib import suppress  # (here: the rest of this module has no use for it)

    with suppress(OSError):
        print(visible(line), file=sys.stderr, flush=True)


if __name__ == "__main__":
    raise SystemExit(run())
