"""The key bar: Textual's footer, rebuilt only when the keys it shows change.

Textual's footer removes and mounts all its keys again whenever the screen's
bindings may have changed: each time a dialog opens over the screen, and again
when it closes.  The keys shown are nearly always the same.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer


class KeysFooter(Footer):
    _shown: Any = None  # what the keys said when they were last built

    def _keys_now(self) -> Any:
        return (
            tuple(
                (binding, enabled, tooltip) for (_, binding, enabled, tooltip) in self.screen.active_bindings.values()
            ),
            self.compact,
            self.show_command_palette,
            self.app.ENABLE_COMMAND_PALETTE,
        )

    def compose(self) -> ComposeResult:
        shown = self._keys_now()
        made = list(super().compose())
        if made:
            self._shown = shown
        yield from made

    def bindings_changed(self, screen: Screen[Any]) -> None:
        if self._shown is not None and screen is self.screen and self._keys_now() == self._shown:
            return
        super().bindings_changed(screen)

    async def recompose(self) -> None:
        """Asked for after each change of the bindings, and done a frame later: a screen that opens changes them
        several times before that (focus, its keys made ready), and once built for the first of those the keys
        are already what the later ones would build (three rebuilds of 13-27 ms each at launch, before)."""
        if self._shown is not None and self.is_attached and self._keys_now() == self._shown:
            return
        await super().recompose()
