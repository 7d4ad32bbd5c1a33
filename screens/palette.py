"""Command palette provider: every action of the fight screen, once, searchable by name."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from textual.binding import Binding
from textual.command import CommandList, CommandPalette, DiscoveryHit, Hit, Hits, Provider
from textual.content import Content
from textual.markup import escape

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
        if self._dismissed or not self.is_current:
            return None
        self._dismissed = True
        return super().dismiss(result)
