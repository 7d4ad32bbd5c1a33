"""Command palette provider: the system's commands and the fight screen's core actions."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from textual.command import DiscoveryHit, Hit, Hits, Provider

if TYPE_CHECKING:
    from screens.fight import FightScreen


class FightCommands(Provider):
    """Every action of the fight screen, searchable by name."""

    def _entries(self) -> list[tuple[str, str, object]]:
        screen: FightScreen = self.screen  # type: ignore[assignment]
        entries = getattr(screen, "palette_entries", None)
        return entries() if entries else []

    async def discover(self) -> Hits:
        for title, help_text, callback in self._entries():
            yield DiscoveryHit(title, partial(_call, callback), help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, help_text, callback in self._entries():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), partial(_call, callback), help=help_text)


def _call(callback: object) -> None:
    callback()  # type: ignore[operator]
