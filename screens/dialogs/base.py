"""The base of every dialog: it opens on the field the GM came to change, and closes once.

``ask`` is the one way a screen opens a dialog for a result; a dialog with a
shape (see :meth:`Dialog.shape`) is kept once built and pushed again next time.
"""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from collections.abc import Callable, Hashable, Iterable
from typing import Any, Self, TypeVar

from rich.console import Console, ConsoleOptions, RenderableType
from rich.segment import Segment
from textual import events
from textual.actions import SkipAction
from textual.app import App, ScreenStackError
from textual.binding import Binding
from textual.geometry import Region
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Input, OptionList, Select, Static

from screens.widgets.fields import TextField
from screens.widgets.paging import page

ResultType = TypeVar("ResultType")


def show(widget: Static, content: Any) -> None:
    """``widget.update(content)`` unless it shows that already: each update lays the dialog out again (a dialog
    opened again, and a field checked at each key, mostly show what they showed)."""
    if widget.content != content:
        widget.update(content)


class Backdrop:
    """The screen under a dialog, dimmed, drawn once for the dialog's life (see :meth:`Dialog.render`)."""

    def __init__(self, dialog: Dialog[Any], made: RenderableType) -> None:
        self.dialog = dialog
        self.made = made

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterable[Segment]:
        key = (options.size, options.max_width, options.height, self.dialog.styles.background, self.dialog.app.theme)
        kept = self.dialog._backdrop
        if kept is None or kept[0] != key:
            kept = self.dialog._backdrop = (key, list(console.render(self.made, options)))
        return kept[1]


class Dialog(ModalScreen[ResultType]):
    """Textual's ``dismiss`` pops whatever screen is on top; a second Enter or Escape
    queued before the dialog is gone would close the screen under it.  This one
    ignores every dismiss after the first.

    Enter submits from any field (an Input, a closed Select, a checkbox); a
    list or an open menu takes Enter itself.

    A dialog's own keys (Enter, ctrl+s, Escape, a yes or a no) are priority
    bindings: they act as the app reads them, so the keys typed after them
    reach whatever has the focus once they are done (the screen under a
    dialog that closed).  Bound the ordinary way, a key comes back up to the
    app through the focused field, behind the keys typed after it.
    """

    BINDINGS = [
        Binding("enter", "enter", "OK", show=False, priority=True, id="dialog.enter"),
        Binding("tab", "next_field", "Next field", show=False, priority=True, id="dialog.tab"),
        Binding("shift+tab", "previous_field", "Previous field", show=False, priority=True, id="dialog.backtab"),
        Binding("pageup", "page_list(-1)", "Page up", show=False, priority=True, id="dialog.pageup"),
        Binding("pagedown", "page_list(1)", "Page down", show=False, priority=True, id="dialog.pagedown"),
    ]

    _dismissing = False
    _backdrop: tuple[Any, list[Segment]] | None = None  # the screen under it as last drawn, and for what size

    def render(self) -> RenderableType:
        """The dimmed screen under the dialog is drawn again only when that screen changes.

        Textual draws it whole (every line of the screen under it, tinted) each
        time the dialog's own background is repainted: several times while a
        dialog opens (mount, focus, layout).  A change on the screen under it
        reaches this screen as a refresh of the regions that changed.

        Kept for figure 5 of bench/bench_speed.py, "dialog open: condition (C)", median (<= 50 ms): opened
        again at 100 combatants (bnb, 8 rounds alternated), 52 ms with it, 87 ms without; the first openings
        were the same with and without it (the slowest, 121-124 ms), so it buys nothing there.
        """
        return Backdrop(self, super().render())

    def refresh(self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False) -> Self:
        if regions:
            self._backdrop = None
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def first_field(self) -> Widget | None:
        """The widget that gets the focus when the dialog opens (the first field the GM is likely to change).

        A dialog that names one sets ``AUTO_FOCUS = ""``: Textual would otherwise focus its first focusable
        widget on the way, and each change of focus restyles the widgets it touches."""
        return None

    def on_mount(self) -> None:
        self._opened()

    def _opened(self, again: bool = False) -> None:
        """Open: the first field focused (opened ``again``, it was focused as the dialog was reused, and the keys
        typed since may have moved the focus on: ``A bear⏎`` sent at once), and in view.

        Opened again after it was shown once, the fields were put in view before it showed.  Otherwise the
        focused field is scrolled into view once laid out, at once: Textual's scroll on focus glides there, a
        dozen frames (a fifth of a second) in a long form."""
        first = self.first_field()
        if first is not None:
            if not (again and self.focused is not None):
                self.set_focus(first, scroll_visible=False)
            if not (again and self._shown):  # else in view already (see _reused)
                self.call_later(self._into_view, first)
        self._shown = True

    def on_key(self, event: events.Key) -> None:
        """A letter (or a text field's own key) that reached the dialog itself, not a field: one sent while the
        dialog opened, before its first field had the focus (``x note⏎hello⏎`` sent at once noted "ello").  It
        goes on to the text field that has the focus now.  A key that came up from that field is never one of
        these: a text field takes them all itself."""
        field = self.focused
        if isinstance(field, TextField) and (event.is_printable or event.key in TextField.OWN_KEYS):
            event.stop()
            event.prevent_default()
            field.post_message(events.Key(event.key, event.character))

    def _into_view(self, field: Widget) -> None:
        if self.focused is field and not self.can_view_entire(field):
            self.scroll_to_center(field, animate=False, origin_visible=True)

    # -- opened again: a kept dialog takes a new one's contents instead of being built again ------------------------

    _reopened = False
    _shown = False  # shown once: laid out, its fields scrolled as they are

    def shape(self) -> Hashable | None:
        """What this dialog's widgets are made from, when a dialog of the same shape can show what this one
        would (see :meth:`reopen_as`); None: it is always built anew."""
        return None

    def reopen_as(self, fresh: Self) -> None:
        """Show what ``fresh`` (a dialog of the same shape, never mounted) would show, in this dialog's widgets:
        its title, its values, the fight as it is now; nothing left of the last time (typed text, an error)."""
        raise NotImplementedError

    def on_screen_resume(self) -> None:
        if self._reopened:
            self._reopened = False
            self._opened(again=True)

    def submits_on_enter(self, widget: Widget | None) -> bool:
        return isinstance(widget, Input | Checkbox | Select) or (isinstance(widget, Button) and widget.id == "ok")

    async def action_enter(self) -> None:
        """Submit once every key typed before Enter has reached the field, and before the app reads the keys
        typed after it (see :func:`taken`)."""
        focused = self.focused
        if not self.submits_on_enter(focused) or isinstance(focused, Button):
            raise SkipAction()
        await self.action_send()

    async def action_send(self) -> None:
        """Submit (Enter, ctrl+s) once every key typed before has reached the focused field (see :func:`taken`)."""
        if self.focused is not None:
            await taken(self.focused)
        if self.is_active and not self._dismissing:
            self.action_submit()

    def action_submit(self) -> None:
        """Overridden by dialogs that return a value."""

    def action_page_list(self, direction: int) -> None:
        """Page keys on any list (a drop-down's too) move by what the list says of itself; elsewhere they scroll."""
        if not isinstance(self.focused, OptionList):
            raise SkipAction()
        page(self.focused, direction)

    def action_next_field(self) -> None:
        """Tab moves the focus at once, so the keys after it land in the next field."""
        self.focus_next()

    def action_previous_field(self) -> None:
        self.focus_previous()

    def dismiss(self, result: Any = None) -> Any:
        """Closes only the dialog on top: Textual pops the top screen, and a dialog under another one (keys typed
        fast open a second one over it) is ``is_current`` too, being visible."""
        if self._dismissing or not self.is_active:
            return None
        self._dismissing = True
        return super().dismiss(result)


async def taken(widget: Widget) -> None:
    """Returns once ``widget`` has handled every message sent to it before this call: the keys typed before an
    Enter, which Textual sends to the focused field as it reads them.

    A dialog's Enter (a priority binding, run by the app as it reads the key) awaits this, then does what Enter
    does.  The app reads no key meanwhile: those typed after Enter wait in its queue, then go where the focus
    is once Enter's work is done; the screen under a dialog that closed, after the dialog's answer was
    recorded.  So keys sent at once (typed on while the app is busy, a paste, SSH) do what the same keys typed
    one by one do: ``-1⏎n`` records the harm, then the next turn.  Sent to the dialog still open, the keys after
    Enter were lost with it.  Bounded (a second), in case the field is gone before it reads its queue.
    """
    done = asyncio.Event()
    if widget.call_later(done.set):
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(done.wait(), 1.0)


_kept: weakref.WeakKeyDictionary[App[Any], dict[Hashable, Dialog[Any]]] = weakref.WeakKeyDictionary()


def _shape(dialog: Dialog[Any]) -> Hashable | None:
    """The dialog's shape as a key of the kept dialogs; None: it is always built anew (no shape, or one that
    cannot be a key)."""
    try:
        shape = dialog.shape()
        hash(shape)
    except TypeError:
        return None
    return shape


def _reused(app: App[Any], dialog: Dialog[ResultType]) -> Dialog[ResultType]:
    """The dialog to open: a kept one of the same shape that took ``dialog``'s contents, else ``dialog`` (kept
    from now on when it has a shape).

    Building a dialog (composing, styling and laying out its widgets) is most of
    the time it takes to open; a dialog opened again (quick damage, a condition,
    an attack) only has its values set.  Kept dialogs are installed screens:
    Textual keeps them when they close.  :func:`forget_dialogs` lets them go.

    Kept as #43 asks ("keep reusing a dialog once built"), for figure 5 of bench/bench_speed.py (dialog medians,
    <= 50 ms; a bare Textual modal's first opening is about 90 ms here, so each opening built anew would miss it).
    A dialog class kept this way copies every attribute its ``__init__`` sets in its ``reopen_as``: one left out
    keeps its value from the last opening.
    """
    shape = _shape(dialog)
    if shape is None:
        return dialog
    kept = _kept.setdefault(app, {})
    old = kept.get(shape)
    if old is not None and old is not dialog and old.is_mounted and old not in app.screen_stack:
        old.reopen_as(dialog)
        old.set_focus(None)  # then the first field again: a field selects its text again as it gets the focus
        first = old.first_field()
        if first is not None:
            # now, not once it shows: the keys typed while it opens go to the focus of the screen on top (the
            # dialog, pushed at once), and with none they were lost (``A bear⏎`` sent at once added nothing)
            old.set_focus(first, scroll_visible=False)
            if old._shown:
                first.scroll_visible(animate=False, immediate=True)  # laid out from last time: in view at once
        old._reopened = True
        old._dismissing = False
        old._backdrop = None
        return old
    if old is None:
        kept[shape] = dialog
        app.install_screen(dialog, f"kept-dialog-{id(dialog)}")
    return dialog


def forget_dialogs(app: App[Any]) -> None:
    """Let the kept dialogs go (they hold the fight they were last opened on); they are built anew next time."""
    for dialog in _kept.pop(app, {}).values():
        with contextlib.suppress(ScreenStackError):  # still open (the app is closing): it goes with the app
            app.uninstall_screen(dialog)
            if dialog.is_mounted:
                dialog.remove()


def ask(app: App[Any], dialog: Dialog[ResultType], then: Callable[[ResultType | None], None] | None = None) -> None:
    """Open ``dialog``; ``then`` gets its result."""
    app.push_screen(_reused(app, dialog), then)
