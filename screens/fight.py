"""The fight screen: setup and play of one live fight.

Before the fight starts it is the setup (add combatants from presets, a custom
sheet or a party file, roll or enter initiative, start); afterwards the same
screen runs the fight.  This module is the layout and what is shown; the keys
are declared in :mod:`screens.keys` (the system's own on a subclass made once
per system), what they do is in :mod:`screens.actions` (one module per family
of actions, called by the one-line ``action_*`` methods at the end of the
screen), the forms in :mod:`screens.forms`, and doing an action in
:mod:`screens.doing`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any, ClassVar

from rich.cells import cell_len
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Grid, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Static

from screens import doing, keys, logic, space
from screens.actions import combatants, commands, conditions, guide, harm, history, library, party, players, turns
from screens.dialogs.base import forget_dialogs
from screens.palette import FightCommands
from screens.widgets.detail import DetailPane, detail_text
from screens.widgets.footer import KeysFooter
from screens.widgets.initiative import InitiativeList
from screens.widgets.log import LogView
from tracker import Fight
from tracker import commands as C
from tracker.dice import TypedRoller
from tracker.events import Event
from tracker.plugin import System
from tracker.text import visible

WIDE = 110  # columns from which the detail pane sits beside the list, not below it
DETAIL = (34, 48)  # the detail pane's width beside the list: it gives columns to the list's Status first
BELOW = 9  # narrow: the fewest lines the detail pane and the log get under the list
NOTES = {"#prompts": 2, "#reminder": 3, "#fallen": 1}  # the lines above the list, and the most each takes
CHECK_AFTER = 0.25  # seconds after the screen is mounted before the checkpoint it opened from is checked
WARNINGS_SHOWN = 3  # the notices of what opening the fight recovered, the last saying how many more


def shorten(path: Path) -> str:
    home, text = str(Path.home()), str(path)
    return "~" + text[len(home) :] if text.startswith(home + "/") else text


_SCREENS: dict[str, type[FightScreen]] = {}


def _for_system(base: type[FightScreen], system: System) -> type[FightScreen]:
    """The fight screen with the system's own keys declared (made once per system)."""
    made = _SCREENS.get(system.id)
    if made is None:
        made = _SCREENS[system.id] = type(
            f"FightScreen_{system.id}", (base,), {"BINDINGS": keys.system_bindings(system)}
        )
    return made


class FightScreen(Screen[None]):
    CSS_PATH = Path(__file__).with_name("fight.tcss")
    COMMANDS = {FightCommands}
    BINDINGS: ClassVar[list[BindingType]] = list(keys.CORE)
    serving: Any = None  # screens.serve.Serving while the players' view of this fight is served

    class Closed(Message):
        """The GM goes back to the start screen (the fight stays saved)."""

    def __new__(cls, fight: Fight, *args: Any, **kwargs: Any) -> FightScreen:
        """``FightScreen(fight)`` is the screen of that fight's system, with its keys bound."""
        if cls is FightScreen:
            cls = _for_system(FightScreen, fight.system)
        return super().__new__(cls)

    def __init__(self, fight: Fight) -> None:
        super().__init__()
        self.fight = fight
        self.system = fight.system
        self.typed = TypedRoller()
        self.system_keys = keys.system_keys(self.system)
        self.marked: tuple[str, ...] = ()
        self.ready = False  # composed and mounted, not closing: its actions may run
        self._last_current: str | None = None
        self._phase: tuple[bool, bool] | None = None
        self._said: dict[str, str] = {}  # what each line of the screen shows now
        self.undo_note = ""  # "Undone: ..." above the list, until the next action
        self._lost = ""  # the name of the fight's file once it was lost under the app (see say_file_lost)
        self._lost_at = 0  # how many events the fight had saved then (one more saved: the file is its own again)

    # -- layout ------------------------------------------------------------
    def compose(self) -> ComposeResult:
        # before the widgets are styled (setting it later restyles them all), and without restyling the screen
        # itself: its own rules do not depend on it (only its widgets' do), and it was 0.4 ms of the launch
        self._arrange(self.app.size.width, restyle=False)
        yield Static("", id="bar", markup=False)
        with Grid(id="main"):
            # docked at the grid's top, not above it: when a line appears the grid keeps its size (its own
            # lines, 4 ms to draw anew at a new size, stay as drawn); only the panes under them are laid out again
            with Vertical(id="notes"):
                yield Static("", id="prompts", markup=False)
                yield Static("", id="reminder", markup=False)
                yield Static("", id="fallen", markup=False)
            yield InitiativeList(self.system, id="order")
            yield DetailPane(self.system, id="detail")
            yield LogView(id="log")
        yield Static(self.keys_line(self.app.size.width), id="keys", markup=False)
        yield KeysFooter(tight=(keys.fight_tight(self.system),))

    def keys_line(self, width: int) -> str:
        """The second row of keys: marks and the palette, then the system's own actions, whole, as many as fit in
        one line (all of them under x)."""
        own = [f"{k} {self._title(n)}" for k, n in self.system_keys.items()]
        return space.keys_line(["space mark", "^p palette", "x all actions", *own], width - 2)

    def on_mount(self) -> None:
        log = self.query_one(LogView)
        self._say_saved_to()  # (as text: "[reverse]d.jsonl" is no markup)
        log.add(logic.entry_lines(self.fight, limit=logic.LOG_OPEN))
        self._mark_undone()
        self.refresh_view()
        table = self.query_one(InitiativeList)
        table.select(self.fight.state.current)
        self.set_focus(table)
        warnings = list(getattr(self.fight, "warnings", ()))
        if len(warnings) > WARNINGS_SHOWN:  # (60 damaged checkpoints stacked 60 toasts over the fight)
            more = len(warnings) - WARNINGS_SHOWN + 1
            warnings[WARNINGS_SHOWN - 1 :] = [f"… and {more} more of the kind (tracker check FILE lists them)"]
        for warning in warnings:
            self.notify(visible(warning), title="Recovered", severity="warning", timeout=15, markup=False)
        if getattr(self.fight, "needs_check", False):  # once the first frame is out (it must not wait for the check)
            self.set_timer(CHECK_AFTER, self.check_checkpoint)
        self.ready = True
        self.refresh_bindings()

    # -- the checkpoint this fight was opened from, checked against its events ------------------
    @work(thread=True, exclusive=True, group="checkpoint-check", exit_on_error=False)
    def check_checkpoint(self) -> None:
        """Wait, off the UI thread, for the check of the checkpoint the fight was opened from (see
        ``saves.SavedFight``: nothing is written until it is over), then act on it on the UI thread."""
        fight = self.fight
        wait = getattr(fight, "wait_checked", None)
        if wait is None:
            return
        wait()
        with contextlib.suppress(RuntimeError):  # the app closed meanwhile
            self.app.call_from_thread(self.checked, fight)

    def checked(self, fight: Fight) -> None:
        """The check is over: say what it found (a checkpoint that lied, a damaged line) and show the fight as its
        events have it.  (A first action taken during the check may have settled it already: then the action's
        refusal said so, and only the view is brought up to date here.)"""
        if getattr(self, "fight", None) is not fight:
            return  # this screen is gone, or shows another fight
        saved: Any = fight
        said_now = saved.needs_check
        result = saved.settle_check()
        if result is not None and result.good and result.warnings and said_now:
            # (opened from its last checkpoint, a damaged one before it was said by check only)
            self.notify(visible("\n".join(result.warnings)), title="Checked", severity="warning", timeout=15)
        if result is None or result.good:
            return
        if said_now:
            self.notify(
                visible(result.message),
                title="Saved by a newer version"
                if result.newer
                else "Damaged file"
                if result.damaged
                else "Checkpoint",
                severity="error",
                timeout=30,
                markup=False,
            )
        if result.log is not None:  # the fight is now the fold of the events: shown anew
            log = self.query_one(LogView)
            log.add(["── the fight as its events have it (a checkpoint disagreed) ──"], style="bold")
            log.add(logic.entry_lines(self.fight, limit=logic.LOG_OPEN))
            self.refresh_view()
            self.query_one(InitiativeList).select(self.fight.state.current)
        if result.damaged and said_now:
            offer = getattr(self.app, "offer_continue_before", None)
            if offer is not None:
                offer(saved.path, result.line, result.message)

    def on_unmount(self) -> None:
        self.ready = False
        players.stop_serving(self)  # the players' view this screen started ends with it
        forget_dialogs(self.app)  # the dialogs kept for opening again hold this fight
        # and the screen lets go of the fight itself: Textual keeps the app's first screen to the end (the fight
        # given at launch is that screen), and the fight's states are tens of megabytes in a long fight
        del self.fight

    def on_resize(self, event: events.Resize) -> None:
        self._arrange(event.size.width)
        self._say_saved_to()
        if self.ready:
            self._fit_detail(self.query_one(InitiativeList).wanted)
        self._say("#keys", self.keys_line(event.size.width))
        if self.ready:
            self._say("#bar", self.bar_text(), layout=False)
            self._say("#prompts", self.prompts_text())
            self._fit_rows()

    def _arrange(self, width: int, restyle: bool = True) -> None:
        """Wide: the detail pane beside the list; narrow (80 columns): below it, beside the log."""
        wide = width >= WIDE
        self.set_class(wide, "wide", update=restyle)
        self.set_class(not wide, "narrow", update=restyle)

    def _fit_detail(self, wanted: int) -> None:
        """Wide: the detail pane as narrow as it must be for the list to show its rows uncut (within DETAIL);
        narrow (the pane under the list, beside the log), as fight.tcss has it."""
        screen = self.app.size.width
        columns = f"1fr {max(DETAIL[0], min(DETAIL[1], screen - wanted))}" if screen >= WIDE else "30 1fr"
        if self._said.get("grid") != columns:
            self._said["grid"] = columns
            self.query_one("#main").styles.grid_columns = columns

    def say_file_lost(self, name: str) -> None:
        """The log's border says the fight is not saved, once its file was lost under the app (it went on saying
        "autosaved to PATH" after the GM left the rescue for later: tests/ui/test_rescue_round4.py).

        Ruling: it says so until an action (or an undo, a redo) is saved in the fight's file again (the file put
        back as it was: every action is written there once more), then "autosaved to PATH" again.  The red line
        stayed while each action was written (tests/ui/test_rescue_round5.py::
        test_the_not_saved_line_goes_once_an_action_is_saved_again)."""
        self._lost = name
        self._lost_at = len(self.fight.log)
        self._say_saved_to()

    def _saved_again(self) -> None:
        """The "not saved" line goes once the fight has saved an event since its file was lost: only a write
        the file took adds one (:class:`~tracker.fight.Fight` takes an action only after its sink saved it)."""
        if self._lost and len(self.fight.log) != self._lost_at:
            self._lost = ""
            self._say_saved_to()

    def _say_saved_to(self) -> None:
        """The log's "autosaved to PATH", fitted to the log's width as fight.tcss lays it out (its whole width;
        narrow, beside the detail's 30 columns): known before the log has its size, at the first frame."""
        width = self.app.size.width
        width = width if width >= WIDE else width - 30
        if self._lost:
            self.query_one(LogView).say_not_saved(self._lost, width)
        elif self.save_path is not None:
            self.query_one(LogView).say_saved_to(shorten(self.save_path), width)

    def _fit_rows(self) -> None:
        """Narrow: the list as tall as its rows, and the detail pane and the log under it get the lines it leaves
        (at least BELOW): at 80×24, a short list left a long detail cut at 7 lines under empty rows."""
        width, height = self.app.size
        rows = ""  # wide: fight.tcss's
        if width < WIDE:
            notes = sum(
                min(most, sum(max(1, -(-cell_len(line) // max(width - 2, 1))) for line in text.split("\n")))
                for selector, most in NOTES.items()
                if (text := self._said.get(selector, ""))
            )
            free = height - 3 - notes  # (the bar, the keys line and the footer)
            listed = len(self.query_one(InitiativeList).ids) + 1  # (its header)
            rows = f"1fr {max(BELOW, free - listed)}"
        if self._said.get("rows") != rows:
            self._said["rows"] = rows
            self.query_one("#main").styles.grid_rows = rows or None

    def _title(self, name: str) -> str:
        spec = logic.find_spec(self.system, name)
        return spec.title if spec else name

    @property
    def save_path(self) -> Path | None:
        return getattr(self.fight, "path", None)

    def bar_text(self) -> str:
        s = self.fight.state
        if s.ended:
            phase = "the fight is over"
        elif not s.started:
            phase = f"setup: A add, I {keys.initiative_words(self.system)[0]}, S start"
        else:
            phase = ("surprise round" if s.round == 0 else f"round {s.round}") + f" · turn: {s.name(s.current)}"
        dice = "typed in" if s.typed_dice else "rolled"
        width = self.app.size.width - 2  # (its padding)
        return space.bar_line(visible(s.title), visible(self.system.name), visible(phase), f"dice {dice}", width)

    def prompts_text(self) -> str:
        """The open prompts in one line (! lists them all)."""
        return space.prompts_line([p.text for p in self.fight.state.prompts], self.app.size.width - 2)

    def reminder_text(self) -> str:
        """What an undo or redo just took back or did again; the conditions on the combatant whose turn it is."""
        s = self.fight.state
        c = s.find(s.current) if s.current else None
        # the undo note in one line (the log has it whole): three lines of it pushed rows off the list at 80×24
        lines = [space.cut(self.undo_note, self.app.size.width - 2)] if self.undo_note else []
        if c is not None and c.conditions:
            lines.append(visible(f"{c.name}'s turn · remember: " + ", ".join(x.describe(s) for x in c.conditions)))
        return "\n".join(lines)

    def clear_undo_note(self) -> None:
        """The undo note goes once the GM goes on to something else (a dialog opening: its line leaves
        behind the dialog, not in the frame that shows the dialog's result)."""
        if self.undo_note:
            self.undo_note = ""
            self._say("#reminder", self.reminder_text())
            self._fit_rows()  # (its line gone, a blank row stayed above the detail pane at 80×24)

    def refresh_view(self) -> None:
        self._saved_again()  # (after every action, undo and redo)
        s = self.fight.state
        table = self.query_one(InitiativeList)
        table.marked = tuple(m for m in self.marked if s.find(m) and not s.get(m).removed)
        self.marked = table.marked
        table.show(s)
        self._fit_detail(table.wanted)
        if s.current != self._last_current:
            table.select(s.current)
            self._last_current = s.current
        self.show_detail()
        self._say("#bar", self.bar_text(), layout=False)  # one line, always
        self._say("#prompts", self.prompts_text())
        self._say("#reminder", self.reminder_text())
        self._say("#fallen", space.folded_line(table.folded, self.app.size.width - 2))
        self._fit_rows()
        self.back_to_table()  # (an action was done)
        phase = (s.started, s.ended)
        if phase != self._phase:
            self._phase = phase
            self.refresh_bindings()
        self.refresh(repaint=False, layout=True)  # see _say

    def _say(self, selector: str, text: str, layout: bool = True) -> None:
        """Show ``text`` in a line of the screen (hidden when empty); nothing is redrawn if it says the same."""
        if self._said.get(selector) == text:
            return
        self._said[selector] = text
        line = self.query_one(selector, Static)
        line.update(text, layout=layout)
        line.display = bool(text)
        if layout:
            # laid out with the frame that shows it: left to the line, the layout came a frame (30-40 ms) later;
            # a layout draws what it moves: no repaint of the whole screen (a second, full frame after each action)
            self.refresh(repaint=False, layout=True)

    def show_detail(self) -> None:
        table = self.query_one(InitiativeList)
        text = detail_text(self.system, self.fight.state, table.selected, len(self.marked))
        if self._said.get("#detail") != text:
            self._said["#detail"] = text
            self.query_one(DetailPane).update(text)

    def show_done(self, events: list[Event]) -> None:
        step = self.fight.last_step()
        before = step.before if step is not None else self.fight.state
        first_seq = self.fight.entries[-len(events)].seq if events else None
        self.query_one(LogView).add(logic.action_lines(self.fight, events, before, first_seq))
        self.undo_note = ""
        self.refresh_view()

    def add_log(self, lines: list[str], style: str = "") -> None:
        self.query_one(LogView).add(lines, style=style)

    def mark_log(self, seqs: Collection[int], style: str) -> None:
        self.query_one(LogView).mark(seqs, style)

    def _mark_undone(self) -> None:
        """The lines of actions taken back (and not redone) struck through, as the replay draws them."""
        log = self.fight.log
        seqs: set[int] = set()
        for action in log.undone_actions:
            span = log.action_seqs(action)
            if span is not None:
                seqs.update(range(span[0], span[1] + 1))
        if seqs:
            self.query_one(LogView).mark(seqs, history.UNDONE_STYLE)

    def on_click(self, event: events.Click) -> None:
        """A double click on a log line: why (the first click selected that line)."""
        if event.chain >= 2 and isinstance(event.widget, LogView):
            self.action_why()

    def on_key(self, event: events.Key) -> None:
        """A phase key pressed out of its phase (see :meth:`check_action`) reaches the screen unused: say when it
        acts (L during a fight did nothing, and said nothing)."""
        if not self.ready:
            return
        s = self.fight.state
        for binding in keys.CORE:
            if event.key in (k.strip() for k in binding.key.split(",")):
                action = binding.action.split("(")[0]
                why_not = keys.out_of_phase(action, s.started, s.ended)
                if why_not is not None:
                    event.stop()
                    self.refuse(f"{keys.TITLES.get(action, binding.description)}: {why_not}")
                    return

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Setup keys only before the start, turn keys only while the fight runs; Esc in the log is the log's
        (back to the table)."""
        if not self.ready:  # still opening, or closing: its widgets may not be there, keys do nothing
            return False
        if action == "clear_marks" and isinstance(self.focused, LogView):
            return False
        s = self.fight.state
        if action in keys.SETUP_ONLY:
            return not s.started
        if action in keys.PLAY_ONLY:
            return s.started and not s.ended
        if action in keys.OUTSIDE_PLAY:
            return not s.started or s.ended
        return True

    # -- focus: the table's, unless the GM is reading the log -----------------------------------------
    def back_to_table(self) -> None:
        """Focus on the table again: every action key acts on its highlighted row (a key bound on the screen runs
        wherever the focus is), and once it has, the focus is back where that row is shown as selected."""
        table = self.query(InitiativeList)
        if isinstance(self.focused, LogView) and table:  # (a screen being taken down may have lost its list)
            self.set_focus(table.first())

    def on_screen_suspend(self) -> None:
        self.back_to_table()  # a dialog opened by a key: it comes back to the table

    @on(InitiativeList.Highlighted)
    def _highlighted(self, event: InitiativeList.Highlighted) -> None:
        self.show_detail()

    @on(InitiativeList.Chosen)
    def _row_chosen(self, event: InitiativeList.Chosen) -> None:
        commands.actions(self)

    # -- selection -----------------------------------------------------------
    @property
    def selected(self) -> str | None:
        found = self.query(InitiativeList)
        return found.first().selected if found else None

    def set_marks(self, marked: tuple[str, ...]) -> None:
        self.marked = marked
        self.query_one(InitiativeList).set_marked(marked)
        self.marked = self.query_one(InitiativeList).marked
        self.show_detail()

    # -- the GM's actions (the keys of screens.keys), each done by its family's module of screens.actions ----------
    def action_next_turn(self) -> None:
        turns.next_turn(self)

    def action_roll_initiative(self) -> None:
        turns.roll_initiative(self)

    def action_initiative_running(self) -> None:
        turns.initiative_running(self)

    def action_set_initiative(self) -> None:
        turns.set_initiative(self)

    def action_start(self) -> None:
        turns.start(self)

    def action_delay(self) -> None:
        turns.delay(self)

    def action_act_now(self) -> None:
        turns.act_now(self)

    def action_move(self, step: int) -> None:
        turns.move(self, step)

    def action_end_fight(self) -> None:
        turns.end_fight(self)

    def action_rest(self) -> None:
        turns.rest(self)

    def action_summary(self) -> None:
        turns.summary(self)

    def action_damage(self) -> None:
        harm.damage(self)

    def action_heal(self) -> None:
        harm.heal(self)

    def action_add(self) -> None:
        combatants.add(self)

    def action_remove(self) -> None:
        combatants.remove(self)

    def action_toggle_mark(self) -> None:
        combatants.toggle_mark(self)

    def action_clear_marks(self) -> None:
        combatants.clear_marks(self)

    def action_note(self) -> None:
        combatants.note(self)

    def action_adjust(self) -> None:
        combatants.adjust(self)

    def action_add_condition(self) -> None:
        conditions.add_condition(self)

    def action_remove_condition(self) -> None:
        conditions.remove_condition(self)

    def action_run_command(self, name: str) -> None:
        commands.run_command(self, name)

    def action_actions(self) -> None:
        commands.actions(self)

    def action_resolve_prompt(self) -> None:
        commands.resolve_prompt(self)

    def action_list_prompts(self) -> None:
        commands.list_prompts(self)

    def action_dismiss_prompt(self) -> None:
        commands.dismiss_prompt(self)

    def action_undo(self) -> None:
        history.undo(self)

    def action_redo(self) -> None:
        history.redo(self)

    def action_fold_fallen(self) -> None:
        players.fold_fallen(self)

    def action_toggle_hidden(self) -> None:
        players.toggle_hidden(self)

    def action_view_options(self) -> None:
        players.view_options(self)

    def action_name_fight(self) -> None:
        players.name_fight(self)

    def action_serve(self) -> None:
        players.serve(self)

    def action_save_party(self) -> None:
        party.save_party(self)

    def action_load_party(self) -> None:
        party.load_party(self)

    def action_save_preset(self) -> None:
        library.save_selected(self)

    def action_manage_presets(self) -> None:
        library.manage(self)

    def action_toggle_dice(self) -> None:
        history.toggle_dice(self)

    def action_why(self) -> None:
        from screens import why  # imported on first use, with the rules' explanations (see screens/launch.py)

        why.why_live(self)

    def action_help(self) -> None:
        guide.help(self)

    def action_close_fight(self) -> None:
        turns.close_fight(self)

    def close(self) -> None:
        """Back to the start screen (the fight stays saved)."""
        self.ready = False  # keys typed after this one do nothing here
        self.post_message(self.Closed())

    def perform(self, command: Any, after: Callable[[], None] | None = None) -> None:
        """Do one GM action (a command, or a list of them as one step) and show it (see :mod:`screens.doing`)."""
        doing.perform(self, command, after)

    def probe(self, command: Any) -> Any:
        """``command``, unless the rules would refuse it (Refused shows in the form)."""
        return doing.probe(self, command)

    def refuse(self, message: str) -> None:
        self.back_to_table()
        doing.refuse(self, message)

    def run_spec(self, spec: C.CommandSpec, values: dict[str, Any] | None = None) -> None:
        """The system's action ``spec``: at once when it asks nothing, else through its form."""
        commands.run_spec(self, spec, values)

    def palette_entries(self) -> list[tuple[str, str, Callable[[], Any]]]:
        """The command palette's entries (see :class:`screens.palette.FightCommands`)."""
        return guide.palette_entries(self)
