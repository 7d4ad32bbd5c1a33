"""Why: the rules behind one log line, as the GM reads them (``Y`` on a log line, live or in a replay).

The dialog shows the event's line, then each reason: the rule's name and its source (the book's place, a
ruling, or ``core``), the project's one-line statement, and the terms that went in (each die, each
modifier).  Its body scrolls, so a long explanation reads at 80×24; the title and the key hint are docked
to the box's top and bottom, so they stay in it (the hint was pushed out of the box at 80×24, and the box
scrolled too: tests/ui/test_why_layout.py).  On the initiative list the same key explains
a combatant's standing word as the table shows it (dead, down, fled, held, gone…): the event that last set it.

Reasons come from :func:`tracker.explain`; a plug-in that fails to explain gives a sentence, not a crash.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Label, Static

from screens.dialogs.base import Dialog, ask
from screens.widgets.detail import detail_text
from screens.widgets.initiative import standing
from screens.widgets.log import LogView
from tracker.explain import explain, standing_seq
from tracker.reasons import Reason
from tracker.text import visible

KEY = "Y"  # "whY": free on the fight and replay screens and in every system's keys


def reasons_or_problem(fight: Any, seq: int) -> tuple[Reason, ...] | str:
    """The reasons behind event ``seq``, or a sentence saying why there are none."""
    try:
        return explain(fight, seq)
    except KeyError:
        return f"there is no event {seq} in this fight's log"
    except Exception as e:  # a plug-in's explain must not take the screen down
        return f"the system could not explain it ({type(e).__name__}: {e})"


def why_text(line: str, reasons: tuple[Reason, ...] | str, heading: str = "", after: str = "") -> Text:
    """What the dialog shows: the heading, the event's line, then each reason with its source and terms; then
    ``after`` (a combatant's whole detail)."""
    out = Text()
    if heading:
        out.append(visible(heading) + "\n", style="bold")
    out.append(visible(line) + "\n", style="bold")
    if isinstance(reasons, str):
        out.append("\n" + visible(reasons) + "\n", style="italic")
        reasons = ()
    elif not reasons:
        out.append("\nNo rule is recorded for this event.\n", style="italic")
    for r in reasons:
        out.append("\n")
        out.append(visible(r.rule), style="bold")
        out.append(" — " + visible(r.source) + "\n", style="italic")
        out.append("  " + visible(r.text) + "\n")
        for term in r.terms:
            out.append("  · " + visible(term) + "\n")
    if after:
        out.append("\n" + after + "\n")
    return out


class WhyDialog(Dialog[None]):
    """The reasons behind one logged event (read-only; Escape or Y closes it)."""

    DEFAULT_CSS = """
    WhyDialog { align: center middle; }
    WhyDialog > #why-box {
        width: 100; max-width: 96%; height: auto; max-height: 90%;
        border: thick $primary; background: $surface; padding: 0 1;
    }
    WhyDialog #why-title { dock: top; text-style: bold; }
    WhyDialog #why-body { height: auto; max-height: 100%; }
    WhyDialog #why-hint { dock: bottom; color: $text-muted; }
    """
    BINDINGS = [Binding(f"escape,q,{KEY},enter", "close", "Close", priority=True, id="why.close")]

    def __init__(self, text: Text, *, rules_page: str = "") -> None:
        super().__init__()
        self.text = text
        self.rules_page = rules_page

    def compose(self) -> ComposeResult:
        with Vertical(id="why-box"):
            yield Label("Why?", id="why-title")
            with VerticalScroll(id="why-body"):
                yield Static(self.text, id="why-text", markup=False)
            page = f" · the rules: {self.rules_page}" if self.rules_page else ""
            yield Label(f"↑↓ PgUp PgDn scroll · Escape closes{page}", id="why-hint", markup=False)

    def first_field(self) -> Widget | None:
        return self.query_one("#why-body")

    def action_close(self) -> None:
        self.dismiss(None)


def rules_page(system: Any) -> str:
    """How a GM reads the system's rules page (``pip install .`` ships no docs folder: the command prints it)."""
    return f"tracker rules {getattr(system, 'id', '')}"


def line_of(fight: Any, seq: int) -> str:
    """Event ``seq``'s line as the log shows it (its number, then its words)."""
    log = getattr(fight, "log", fight)
    try:
        index = next(i for i in range(min(seq - 1, len(log) - 1), -1, -1) if log.entry(i).seq == seq)
        words = log.describe(index)
    except Exception as e:  # a plug-in's describe must not take the screen down
        words = f"({type(e).__name__} while describing it)"
    return f"{seq:>5}  {words}"


def show(
    screen: Screen[Any],
    fight: Any,
    seq: int,
    heading: str = "",
    then: Callable[[None], None] | None = None,
    after: str = "",
) -> None:
    """Open the Why dialog for event ``seq`` of ``fight`` (a live fight or a replay's timeline); ``then`` runs as
    it closes."""
    text = why_text(line_of(fight, seq), reasons_or_problem(fight, seq), heading, after)
    ask(screen.app, WhyDialog(text, rules_page=rules_page(getattr(fight, "system", None))), then)


def show_standing(screen: Screen[Any], fight: Any, state: Any, cid: str | None, upto: int | None = None) -> bool:
    """Open the Why dialog on the event that gave combatant ``cid`` its standing word, then the combatant's whole
    detail (the detail pane's text, whole: at 80×24 the pane may cut it); False if there is no such combatant.

    Ruling: when the event cannot be found (a log whose older part cannot be read, a plug-in failing), the dialog
    says so under the same question, and shows no other line as its answer: it showed the last log line, another
    combatant's, under a bare "Why?" (tests/core/test_why_reopened.py).
    """
    c = state.find(cid) if cid else None
    if c is None:
        return False
    system = getattr(fight, "system", None)
    word = standing(system, state, c).word if system is not None else ""  # the table's word ("held", "gone" too)
    heading = f"Why is {c.name} {word}?" if word else f"{c.name} is fit to fight: the last event that changed that"
    after = detail_text(system, state, c.id) if system is not None else ""
    problem = ""
    try:
        seq = standing_seq(fight, c.id, upto)
    except Exception as e:  # the older part of the log unreadable, a plug-in's standing failing
        seq, problem = None, f" ({type(e).__name__}: {e})"
    if seq is None:
        made = f"made {c.name} {word}" if word else f"last changed whether {c.name} can fight"
        text = Text()
        text.append(visible(heading) + "\n", style="bold")
        text.append(f"\nThe event that {visible(made)} cannot be found in this fight's log{visible(problem)}.\n")
        text.stylize("italic", len(visible(heading)) + 1)
        if after:
            text.append("\n" + after + "\n")
        ask(screen.app, WhyDialog(text, rules_page=rules_page(system)))
        return True
    show(screen, fight, seq, heading, after=after)
    return True


def log_focused(screen: Screen[Any]) -> bool:
    found = screen.query(LogView)
    return bool(found) and found.first().has_focus


def live_log_seq(screen: Screen[Any]) -> int | None:
    """The seq of the live log's selected line, when the log has the focus and a line is selected."""
    found = screen.query(LogView)
    if not found:
        return None
    log = found.first()
    return log.selected_seq if log.has_focus else None


def why_live(screen: Any) -> None:
    """``Y`` on the fight screen: with the log focused, its selected line (the last one until the log says
    which is selected); otherwise the selected combatant's standing word (or a sentence saying its cause cannot
    be found); else, nobody selected, the last event logged, headed as such."""
    fight = screen.fight
    in_log = log_focused(screen)
    # back in the log as the dialog closes (the screen gives the table the focus under any dialog): the GM
    # reading the log goes on to another line and asks again, as ``Tab`` had put it
    back = (lambda _: screen.set_focus(screen.query_one(LogView))) if in_log else None
    seq = live_log_seq(screen)
    if seq is not None:
        show(screen, fight, seq, then=back)
        return
    if not in_log and show_standing(screen, fight, fight.state, screen.selected):
        return
    entries = fight.entries
    if not entries:
        screen.notify("Nothing is logged yet.", title="Why", markup=False)
        return
    # the log focused, no line selected yet: its last line is the one under the GM's eye; otherwise (nobody
    # selected on the table) the heading says what this line is, not an answer to a question never asked
    heading = "" if in_log else "The last event logged (no combatant is selected)"
    show(screen, fight, entries[-1].seq, heading, then=back)
