"""Command palette provider: every action of the fight screen, once, searchable by name."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content
from textual.markup import escape


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
