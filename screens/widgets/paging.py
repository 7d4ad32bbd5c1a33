"""Page keys on a list, from what the list says of itself (its own page keys can fail on options just replaced)."""

from __future__ import annotations

from textual.widgets import OptionList


def page(options: OptionList, direction: int) -> None:
    """Move the highlight by a page using only what the list says of itself (never its layout cache)."""
    count = options.option_count
    if not count:
        return
    here = options.highlighted if options.highlighted is not None else 0
    step = max(options.size.height - 1, 1)
    options.highlighted = min(max(here + direction * step, 0), count - 1)
