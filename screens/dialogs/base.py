"""The base of every dialog: it closes once, however fast the keys come."""

from __future__ import annotations

from typing import Any, TypeVar

from textual.screen import ModalScreen

ResultType = TypeVar("ResultType")


class Dialog(ModalScreen[ResultType]):
    """Textual's ``dismiss`` pops whatever screen is on top; a second Enter or Escape
    queued before the dialog is gone would close the screen under it.  This one
    ignores every dismiss after the first.
    """

    _dismissing = False

    def dismiss(self, result: Any = None) -> Any:
        if self._dismissing or not self.is_current:
            return None
        self._dismissing = True
        return super().dismiss(result)
