"""Replay: a saved fight, read-only, at any point of its log.

The fight screen's layout (initiative list, detail pane, log) shows the state
after the first ``position`` entries of the log.  The position moves one event,
one GM action or one round at a time, to the start or the end, or to any log
line chosen in the log.  Undone actions stay in the log, struck through; event
steps go into them, and with "skip undone" (z) steps pass over them as if the
mistake had never been made.  From any point the fight can go on in a new
file (the original is never changed), and the summary and the Markdown recap
are one key away.

Whatever the file says is shown as text: names, notes, conditions and the
fight's name never reach markup (widgets get :class:`~rich.text.Text` or
``markup=False``) and any control character is shown as an escape
(:func:`tracker.text.visible`), even in a file whose checksums hold.
"""

from __future__ import annotations

from pathlib import Path

from rich.style import Style
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Vertical
from textual.geometry import Size
from textual.message import Message
from textual.screen import Screen
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widgets import Static

import saves
from saves.export import fresh_recap_path, recap, write_recap
from saves.writing import FightInUse, writer_elsewhere
from screens import space, why
from screens.dialogs.confirm import ConfirmDialog
from screens.dialogs.help import HelpDialog
from screens.fight import WIDE, FightScreen
from screens.summary import SummaryScreen
from screens.widgets.detail import DetailPane
from screens.widgets.footer import KeysFooter
from screens.widgets.initiative import InitiativeList
from tracker.errors import TrackerError
from tracker.events import Redone, TurnEnded, Undone
from tracker.model import FightState
from tracker.replay import Timeline
from tracker.summary import summarize
from tracker.text import visible

LOG_LINES = 11  # the fewest lines the log gets under the list (its height, wide)
NOW_LINES = 3  # the most lines the strip under the log gives the event at the position


def _b(key: str, action: str, description: str, show: bool = False, display: str | None = None) -> Binding:
    return Binding(key, action, description, show=show, key_display=display, priority=True, id=f"replay.{action}")


# The key bar when the screen's keys do not fit (80 columns: the palette's key hid "? Help", and nothing said how
# to go back a round or to the end, the hint line beside the detail pane being left out there): the ways to step
# and Help, in 68 columns; Summary, Export, Start and the rest are under ? and in the palette.  Test:
# tests/ui/test_keys_round3.py.
TIGHT_KEYS = (
    ("step(1)", "Step"),
    ("step(-1)", "Back"),
    ("action(1)", "Action"),
    ("round(1)", "Round"),
    ("round(-1)", "Back"),
    ("end", ""),
    ("continue_here", "Continue"),
    ("help", "Help"),
)
# Ruling: below WIDE (the hint line "→ ← event · ] [ action · PgDn PgUp round · Home End" is left out with the
# detail pane) the bar is the tight one even where the screen's own keys fit (88 to 109 columns showed them, with
# no PgUp, Home, End or [ anywhere); where there is room, Summary and Export too (from 96 columns), and Home
# (from 101).  Test: tests/ui/test_replay_keys_widths.py.
TIGHT_ROOMY = (*TIGHT_KEYS[:7], ("summary", "Summary"), ("export", "Export"), TIGHT_KEYS[7])
TIGHT_WIDER = (*TIGHT_ROOMY[:5], ("start", ""), *TIGHT_ROOMY[5:])


class ReplayLog(ScrollView, can_focus=True, inherit_bindings=False):
    """Every line of the log, drawn line by line (the log may hold 100,000 events).

    Lines after the position are dimmed, the last line applied is marked ▶,
    undone actions are struck through.  Up and down move the cursor; Enter or a
    click jumps the replay to the chosen line.
    """

    COMPONENT_CLASSES = {"replay-log--cursor", "replay-log--future", "replay-log--now", "replay-log--meta"}
    DEFAULT_CSS = """
    ReplayLog { border: round $primary-muted; border-title-color: $text-muted; background: $surface; overflow-x: hidden; }
    ReplayLog:focus { border: round $primary; }
    ReplayLog > .replay-log--cursor { background: $block-cursor-blurred-background; }
    ReplayLog:focus > .replay-log--cursor { background: $block-cursor-background; color: $block-cursor-foreground; }
    ReplayLog > .replay-log--future { color: $text-muted; text-style: dim; }
    ReplayLog > .replay-log--now { text-style: bold; color: $text-accent; }
    ReplayLog > .replay-log--meta { text-style: italic; color: $text-muted; }
    """
    BINDINGS = [
        Binding("up", "cursor(-1)", "Line up", show=False),
        Binding("down", "cursor(1)", "Line down", show=False),
        Binding("ctrl+up", "cursor(-10)", "10 lines up", show=False),
        Binding("ctrl+down", "cursor(10)", "10 lines down", show=False),
        Binding("enter", "choose", "Jump to line", show=False, id="replay.jump_line"),
    ]

    class Chosen(Message):
        """The GM chose log line ``index``: show the state after it."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, timeline: Timeline, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.timeline = timeline
        self.position = 0
        self.cursor = 0
        self._texts: dict[int, str] = {}
        self.border_title = "Log"
        self.virtual_size = Size(1, len(timeline))

    # -- what a line says ------------------------------------------------------
    def line_text(self, i: int) -> str:
        text = self._texts.get(i)
        if text is None:
            text = self._describe(i)
            if len(self._texts) > 5000:
                self._texts.clear()
            self._texts[i] = text
        return text

    def _describe(self, i: int) -> str:
        t = self.timeline
        ev = t.entries[i].event
        try:
            text = visible(t.describe(i))
        except Exception as e:  # a plug-in's describe must not take the screen down
            return f"{type(ev).__name__} ({type(e).__name__} while describing it)"
        if isinstance(ev, Undone | Redone):
            return text
        # the mark first: a line is cut to the log's width, and its end (the outcome, the mark) with it
        if t.is_undone(i):
            text = "(undone) " + text
        elif t.entries[i].action in t.ever_undone:
            text = "(undone, then redone) " + text
        return text

    def render_line(self, y: int) -> Strip:
        scroll_y = self.scroll_offset.y
        i = scroll_y + y
        width = self.scrollable_content_region.width
        base = self.rich_style
        if i >= len(self.timeline) or width <= 0:
            return Strip.blank(width, base)
        t = self.timeline
        entry = t.entries[i]
        now = i == self.position - 1
        style = Style()
        if i >= self.position:
            style += self.get_component_rich_style("replay-log--future")
        elif now:
            style += self.get_component_rich_style("replay-log--now")
        if isinstance(entry.event, Undone | Redone | TurnEnded):
            style += self.get_component_rich_style("replay-log--meta")
        if t.is_undone(i):
            style += Style(strike=True)
        line = Text(f"{'▶' if now else ' '}{entry.seq:>6} ", style=style)
        line.append(self.line_text(i), style=style)
        line.truncate(width, overflow="ellipsis", pad=True)
        if i == self.cursor:
            line.stylize(self.get_component_rich_style("replay-log--cursor", partial=True))
        return Strip(line.render(self.app.console), width).apply_style(base)

    # -- moving ----------------------------------------------------------------
    def show_position(self, position: int) -> None:
        """Mark the last line applied and bring it to the middle, so the lines to come show too."""
        self.position = position
        self.move_cursor(max(position - 1, 0), center=True)

    def move_cursor(self, index: int, center: bool = False) -> None:
        n = len(self.timeline)
        self.cursor = max(0, min(index, n - 1)) if n else 0
        height = self.scrollable_content_region.height or 1
        top = self.scroll_offset.y
        if center:
            self.scroll_to(y=max(0, self.cursor - height // 2), animate=False, immediate=True)
        elif self.cursor < top:
            self.scroll_to(y=self.cursor, animate=False, immediate=True)
        elif self.cursor >= top + height:
            self.scroll_to(y=self.cursor - height + 1, animate=False, immediate=True)
        self.refresh()

    def on_resize(self) -> None:
        self.virtual_size = Size(1, len(self.timeline))
        self.move_cursor(self.cursor, center=True)

    def action_cursor(self, by: int) -> None:
        self.move_cursor(self.cursor + by)

    def action_choose(self) -> None:
        if len(self.timeline):
            self.post_message(self.Chosen(self.cursor))

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        i = self.scroll_offset.y + offset.y
        if 0 <= i < len(self.timeline):
            self.move_cursor(i)
            self.post_message(self.Chosen(i))


class ReplayScreen(Screen[None]):
    """``ReplayScreen(path)`` loads the fight at once; a bad file raises TrackerError (the app shows it)."""

    CSS_PATH = Path(__file__).with_name("replay.tcss")
    BINDINGS = [
        _b("right,l", "step(1)", "Step", True, "→"),
        _b("left,h", "step(-1)", "Back", True, "←"),
        _b("right_square_bracket,shift+right", "action(1)", "Action", True, "]"),
        _b("left_square_bracket,shift+left", "action(-1)", "Back action", False, "["),
        _b("pagedown,greater_than_sign", "round(1)", "Round", True, "PgDn"),
        _b("pageup,less_than_sign", "round(-1)", "Back round", False, "PgUp"),
        _b("home,g", "start", "Start", False, "Home"),
        _b("end,G", "end", "End", False, "End"),
        _b("z", "toggle_skip", "Skip undone", False),
        _b("c", "continue_here", "Continue here", True),
        _b("s", "summary", "Summary", True),
        _b("e", "export", "Export", True),
        _b("Y", "why", "Why? (the rules behind the log line)", False),
        _b("escape", "back", "Back to start", False, "esc"),
        _b("f1,question_mark", "help", "Help", True, "?"),
    ]

    def __init__(self, path: Path | str, position: int | None = None) -> None:
        super().__init__()
        self.path = Path(path)
        try:
            self.loaded = saves.load(self.path)
            self.timeline = self.loaded.timeline()
        except TrackerError:
            raise
        except Exception as e:  # a plug-in or a file the loader did not expect: still a clear message
            raise TrackerError(f"cannot replay {self.path.name}: {type(e).__name__}: {e}") from None
        self.system = self.loaded.system
        self.skip_undone = False
        self.position = 0 if position is None else max(0, min(position, len(self.timeline)))
        self._summary_shown_at_end = False
        self._rows = ""  # the grid's rows as last set (narrow: as tall as the list's rows)

    # -- layout ------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static("", id="bar", markup=False)
        yield Static("", id="notice", markup=False)
        yield Static("", id="prompts", markup=False)
        # a grid: wide, the detail pane beside the list and the log under both; narrow (80 columns), the list
        # across and the log across under it (beside the list, the detail pane cut every name to 13 columns)
        with Grid(id="main"):
            yield InitiativeList(self.system, id="order")
            with Vertical(id="side"):
                yield DetailPane(self.system, id="detail")
                yield Static(
                    "→ ← event · ] [ action · PgDn PgUp round · Home End · Enter on a log line jumps there",
                    id="keys",
                    markup=False,
                )
            yield ReplayLog(self.timeline, id="log")
        yield Static("", id="now", markup=False)
        yield KeysFooter(palette=True, tight=(TIGHT_WIDER, TIGHT_ROOMY, TIGHT_KEYS))

    def on_resize(self, event: events.Resize) -> None:
        narrow = event.size.width < WIDE
        self.set_class(narrow, "narrow")
        self.query_one(KeysFooter).prefer_tight(narrow)  # (the hint line is left out: the bar names the ways back)
        self.query_one("#bar", Static).update(self.bar_text())
        self._show_now()
        self._fit_rows()

    def _fit_rows(self) -> None:
        """Narrow: the list as tall as its rows, the detail pane and the log under it the lines it leaves (at least
        LOG_LINES): a short list left them 11 lines under empty rows.

        Run again after every layout of the screen (``screen_layout_refresh_signal``, subscribed in on_mount): the
        lines above (the notice, the prompt line) and the strip under the log (#now) are measured as laid out.
        Read only at once after ``goto`` set the prompt, its height was still 0 (or the last one), so the step that
        raised a prompt hid the list's bottom rows, the one who must save among them (and End, whose summary came
        over the screen before any layout, the same).  ``call_after_refresh`` was not enough: it could run before
        the screen learnt that the prompt line needed a layout.  Test: tests/ui/test_replay_prompt_rows.py.

        The strip (#now) repeats the log's ▶ line in full, so the log's fewest lines are LOG_LINES less the
        strip's: the list keeps the rows it had.  Test: tests/ui/test_replay_now_line.py.
        """
        width, height = self.app.size
        rows = ""  # wide: replay.tcss's
        if width < WIDE:
            taken = sum(w.outer_size.height for w in self.query("#notice, #prompts, #now").results(Static) if w.display)
            free = height - 2 - taken  # (the bar and the footer)
            listed = len(self.query_one(InitiativeList).ids) + 1  # (its header)
            now = self.query_one("#now", Static)
            fewest = LOG_LINES - (now.outer_size.height if now.display else 0)
            rows = f"1fr {max(fewest, free - listed)}"
        if self._rows != rows:
            self._rows = rows
            self.query_one("#main").styles.grid_rows = rows or None

    def on_mount(self) -> None:
        log = self.query_one(ReplayLog)
        log.border_subtitle = Text(visible(f"replay of {self.path.name} (read-only)"))  # Text: never markup
        notice = self.query_one("#notice", Static)
        if self.loaded.warnings:
            notice.update(visible("⚠ Damaged file: " + "; ".join(self.loaded.warnings)))
            for w in self.loaded.warnings:
                self.notify(visible(w), title="Damaged file", severity="warning", timeout=10, markup=False)
        notice.display = bool(self.loaded.warnings)
        self.screen_layout_refresh_signal.subscribe(self, lambda _screen: self._fit_rows())
        self.goto(self.position)
        log.focus()

    @property
    def state(self) -> FightState:
        return self.timeline.state_at(self.position)

    def bar_text(self) -> str:
        s = self.state
        n = len(self.timeline)
        if s.ended:
            phase = "the fight is over"
        elif not s.started:
            phase = "setup"
        else:
            phase = ("surprise round" if s.round == 0 else f"round {s.round}") + f" · turn: {s.name(s.current)}"
        where = "start" if self.position == 0 else ("end" if self.position == n else f"event {self.position}")
        skip = " · skipping undone" if self.skip_undone else ""
        # the fight's name and the system's cut first: whose turn it is stays whole ("turn: Town Guard" said not
        # which of three)
        width = self.app.size.width - 2 - len("REPLAY · ")  # (its padding)
        where_now = visible(f"{where} of {n} · {phase}{skip}")
        return "REPLAY · " + space.bar_line(visible(s.title), visible(self.system.name), where_now, "", width)

    # -- showing a point of the log --------------------------------------------
    def goto(self, position: int) -> None:
        """Show the state after the first ``position`` entries (O(1) in the length of the log)."""
        n = len(self.timeline)
        arrived = position >= n and self.position < n
        self.position = max(0, min(position, n))
        s = self.state
        table = self.query_one(InitiativeList)
        table.show(s)
        if s.current is not None:
            table.select(s.current)
        self.query_one(DetailPane).show(s, table.selected)
        self.query_one("#bar", Static).update(self.bar_text())
        prompts = self.query_one("#prompts", Static)
        if s.prompts:
            prompts.update(space.prompts_line([p.text for p in s.prompts], self.app.size.width - 2, keys=False))
        prompts.display = bool(s.prompts)
        self.query_one(ReplayLog).show_position(self.position)
        self._show_now()
        self._fit_rows()  # and again once the prompt line is laid out (subscribed in on_mount)
        if arrived and n and not self._summary_shown_at_end:
            self._summary_shown_at_end = True
            self.action_summary()

    def now_text(self) -> Text:
        """The event at the position (the log's ▶ line) in full, wrapped to at most NOW_LINES lines.

        A log line is one row cut to the log's width, and an attack's outcome ("— hit", "— defended (tie goes to
        the defender)") comes after its dice: cut at 80 and at 120 columns, and at 80 the detail pane is hidden,
        so only Y told whether the attack hit.  Empty at the start (no event applied).  Test:
        tests/ui/test_replay_now_line.py.
        """
        if self.position == 0 or not len(self.timeline):
            return Text("")
        i = self.position - 1
        log = self.query_one(ReplayLog)
        text = Text(f"▶ {self.timeline.entries[i].seq} {log.line_text(i)}")  # Text: never markup
        width = max(self.app.size.width - 2, 10)  # (the strip's padding)
        lines = text.wrap(self.app.console, width)
        if len(lines) <= NOW_LINES:
            return text
        kept = list(lines)[:NOW_LINES]
        last = kept[-1]
        last.rstrip()
        last.truncate(width - 1)
        last.append("…")  # more than fits: Y shows the rest
        return Text("\n").join(kept)

    def _show_now(self) -> None:
        now = self.query_one("#now", Static)
        now.update(self.now_text())
        now.display = self.position > 0

    @on(InitiativeList.Highlighted)
    def _highlighted(self, event: InitiativeList.Highlighted) -> None:
        self.query_one(DetailPane).show(self.state, event.cid)

    @on(ReplayLog.Chosen)
    def _chosen(self, event: ReplayLog.Chosen) -> None:
        self.goto(event.index + 1)

    # -- navigation --------------------------------------------------------------
    def action_step(self, by: int) -> None:
        p = self.position
        t = self.timeline
        if self.skip_undone:
            p = t.skip_forward(p) if by > 0 else t.skip_back(p)
            p = max(0, min(p + by, len(t)))
            if by < 0:
                p = t.skip_back(p)
            elif p > 0:
                # landed inside an action a later undo takes back: past that undo (the action ahead of the
                # position is another step: skipping it from here passed over the event just before it)
                p = max(p, t.skip_forward(p - 1))
        else:
            p += by
        self._move(p)

    def action_action(self, by: int) -> None:
        t = self.timeline
        p = self.position
        if self.skip_undone:
            p = self.timeline.skip_forward(p) if by > 0 else self.timeline.skip_back(p)
        p = t.next_action(p) if by > 0 else t.prev_action(p)
        if self.skip_undone:
            p = self.timeline.skip_forward(p) if by > 0 else self.timeline.skip_back(p)
        self._move(p)

    def action_round(self, by: int) -> None:
        t = self.timeline
        skip = self.skip_undone
        self._move(t.next_round(self.position, skip) if by > 0 else t.prev_round(self.position, skip))

    def action_start(self) -> None:
        self._move(0)

    def action_end(self) -> None:
        self._move(len(self.timeline))

    def _move(self, position: int) -> None:
        position = max(0, min(position, len(self.timeline)))
        if position == self.position:
            self.app.bell()
            return
        self.goto(position)

    def action_toggle_skip(self) -> None:
        self.skip_undone = not self.skip_undone
        self.notify(
            "Steps pass over undone actions." if self.skip_undone else "Steps go into undone actions.",
            title="Undone actions",
        )
        self.query_one("#bar", Static).update(self.bar_text())

    # -- review ------------------------------------------------------------------
    def action_summary(self) -> None:
        title = self.state.title or self.loaded.header.title
        self.app.push_screen(SummaryScreen(summarize(self.timeline, self.position), self.system.name, title))

    def recap_path(self) -> Path:
        """A fresh name beside the save: ``<stem>-recap.md``, or ``-recap-2.md``… (nothing is overwritten)."""
        return fresh_recap_path(self.path)

    def action_export(self) -> None:
        target = self.recap_path()
        try:
            write_recap(recap(self.loaded, self.timeline), target, source=self.path)
        except TrackerError as e:
            self.notify(visible(str(e)), title="Not exported", severity="error", markup=False)
            return
        except Exception as e:  # a plug-in failing to describe its events
            message = visible(f"the recap failed: {type(e).__name__}: {e}")
            self.notify(message, title="Not exported", severity="error", markup=False)
            return
        self.notify(visible(f"Recap written to {target}"), title="Export", timeout=8, markup=False)

    def action_continue_here(self) -> None:
        """c: go on from here in a new file, once confirmed.

        Ruling: refused at once, before any question, while a tracker holds the fight open for writing (the
        replay "Replay it, read-only" offers for a fight open in another tracker): a branch made then was a
        second live copy of a fight still being played (saves.writing.continue_from refuses it too).  Test:
        tests/ui/test_replay_branch_lock.py.
        """
        busy = writer_elsewhere(self.path)
        if busy is not None:
            refused = FightInUse(busy.path, busy.pid, branching=True)
            self.notify(visible(str(refused)), title="Cannot continue", severity="error", timeout=12, markup=False)
            return
        n = len(self.timeline)
        upto = self.timeline.end_of_action(self.position)
        where = "the end" if upto >= n else f"event {upto} of {n}"

        def answer(yes: bool | None) -> None:
            if yes:
                self.continue_from(self.position)

        self.app.push_screen(
            ConfirmDialog(visible(f"Go on playing from {where} in a new file? ({self.path.name} is not changed)")),
            answer,
        )

    def continue_from(self, position: int) -> None:
        """A new fight file with the log up to ``position`` (to the end of its action), played on in the fight screen."""
        try:
            fight = saves.continue_from(self.path, position)
        except TrackerError as e:
            self.notify(visible(str(e)), title="Cannot continue", severity="error", timeout=8, markup=False)
            return
        app = self.app
        old = getattr(app, "fight", None)
        if old is not None:
            old.close()
        app.fight = fight  # type: ignore[attr-defined]
        app.switch_screen(FightScreen(fight))
        app.notify(
            visible(f"Continuing in {fight.path.name}; {self.path.name} is unchanged."),
            title="New file",
            timeout=8,
            markup=False,
        )

    def action_back(self) -> None:
        self.app.pop_screen()

    # -- why ---------------------------------------------------------------------
    def action_why(self) -> None:
        """Y: the rules behind the log line under the cursor; on the initiative list, the event that gave the
        selected combatant its standing word (up to the position shown)."""
        table = self.query_one(InitiativeList)
        if table.has_focus and why.show_standing(self, self.timeline, self.state, table.selected, self.position):
            return
        log = self.query_one(ReplayLog)
        if len(self.timeline):
            why.show(self, self.timeline, self.timeline.entries[log.cursor].seq)

    def on_click(self, event: events.Click) -> None:
        """A double click on a log line: why (the first click moved the cursor there)."""
        if event.chain >= 2 and isinstance(event.widget, ReplayLog):
            self.action_why()

    def help_text(self) -> str:
        keys = [
            "  →  l        one event forward        ←  h        one event back",
            "  ]  shift+→  one GM action forward    [  shift+←  one GM action back",
            "  PgDn  >     one round forward        PgUp  <     one round back",
            "  Home  g     the start                End  G      the end",
            "  ↑ ↓         choose a log line        Enter       show the state after it (a click too)",
            "  z           skip undone actions (steps pass over them) / step into them",
            "  tab         the initiative list: ↑ ↓ show a combatant in the detail pane",
            "  c           continue from here in a new file (the original stays as it is)",
            "  s           summary of the fight up to here (also shown at the end)",
            "  e           export the Markdown recap next to the save",
            "  Y           why: the rules behind the log line (a double click too); on the list, a standing",
            "  esc         back to the start screen    ctrl+t theme    q quit",
        ]
        marks = [
            "In the log: ▶ marks the last event shown; later lines are dimmed;",
            "struck-through lines belong to actions the GM undid (and did not redo).",
        ]
        head = visible(f"Replay of {self.path} — read-only: nothing here changes the file.")
        warn = [f"Warning: {visible(w)}" for w in self.loaded.warnings]
        return "\n".join([head, *warn, "", "Keys", *keys, "", *marks])

    def action_help(self) -> None:
        self.app.push_screen(HelpDialog(f"Help: replay ({self.system.name})", self.help_text()))
