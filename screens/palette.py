"""Command palette provider: every action of the fight screen, once, searchable by name."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from textual import events, on
from textual.binding import Binding
from textual.command import CommandList, CommandPalette, DiscoveryHit, Hit, Hits, Provider
from textual.content import Content
from textual.markup import escape
from textual.widgets import Input

from screens.widgets.paging import page


class FightCommands(Provider):
    """The fight screen's keys and the system's actions; titles and help shown literally."""

    def _entries(self) -> list[tuple[str, str, Callable[[], Any]]]:
        entries = getattr(self.screen, "palette_entries", None)
        return entries() if entries else []

    async def discover(self) -> Hits:
        for title, help_text, callback in self._entries():
            yield DiscoveryHit(Content(title), partial(_call, callback), text=title, help=escape(help_text))

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, help_text, callback in self._entries():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), partial(_call, callback), text=title, help=escape(help_text))


def _call(callback: Callable[[], Any]) -> None:
    callback()


class Palette(CommandPalette):
    """Textual's command palette, with page keys that never reach into a list still being laid out.

    (Textual's own PageUp on a list whose options were just replaced can fail
    before the list is drawn; this moves the highlight by the list's height.)
    """

    BINDINGS = [
        Binding("pageup", "page(-1)", "Previous page", show=False, priority=True),
        Binding("pagedown", "page(1)", "Next page", show=False, priority=True),
    ]

    def action_page(self, direction: int) -> None:
        found = self.query(CommandList)
        if found:
            page(found.first(CommandList), direction)

    _dismissed = False

    def dismiss(self, result: Any = None) -> Any:
        """Close once: a second Enter queued before the palette is gone must not close the screen under it."""
        if self._dismissed or not self.is_active:
            return None
        self._dismissed = True
        return super().dismiss(result)

    def on_mount(self, event: events.Mount) -> None:
        """Closed by a key typed right after the one that opened it, before it was mounted: Textual's own
        mounting (which starts a search in a list already gone) is skipped."""
        if self._dismissed or self not in self.app.screen_stack:
            event.prevent_default()

    @on(Input.Changed)
    def _closed_to_search(self, event: Input.Changed) -> None:
        """Text typed before an Escape (or Enter) that closed the palette reaches its field after the close: no
        search is started then (Textual's would look for its list, already gone)."""
        if self._dismissed:
            event.prevent_default()
