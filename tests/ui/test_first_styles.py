"""The fight screen, once shown, is styled as a restyle of the whole screen would style it (issue #13).

Textual restyles a screen when it is resumed; the first resume, which shows the fight screen, skips that restyle (its
widgets were styled as they were mounted, a moment before: about 3 ms of the launch).  If anything set between
the mounting and the first frame (a class, the theme) were left unstyled by that, a restyle would change it:
this test restyles the whole screen and finds every rule of every widget, and of its parts (the list's cursor,
the footer's keys), as it was.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from textual.dom import DOMNode

from screens.app import TrackerApp
from screens.fight import FightScreen
from tests.ui.drive import build_fight
from tests.ui.test_table_jobs import SYSTEMS


def styled(node: DOMNode) -> list[Any]:
    """Every rule of ``node`` and of its parts (its component classes), as CSS lines."""
    parts = sorted(getattr(node, "COMPONENT_CLASSES", ()))
    return [node.styles.base.css_lines, *[node.get_component_styles(part).base.css_lines for part in parts]]


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
@pytest.mark.parametrize("system_id", SYSTEMS)
def test_the_first_frame_is_styled_as_a_restyle_would_style_it(
    system_id: str, size: tuple[int, int], tmp_path: Path
) -> None:
    asyncio.run(_first_frame_styles(system_id, size, tmp_path))


async def _first_frame_styles(system_id: str, size: tuple[int, int], tmp_path: Path) -> None:
    fight = build_fight(system_id, tmp_path / "fight.jsonl")
    fight.close()
    app = TrackerApp(open_path=fight.path)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, FightScreen) and screen.ready
        nodes = list(screen.walk_children(with_self=True))
        assert len(nodes) > 8
        shown = [styled(node) for node in nodes]
        app.stylesheet.update_nodes(nodes, animate=False)
        again = [styled(node) for node in nodes]
        for node, before, after in zip(nodes, shown, again, strict=True):
            assert before == after, f"{node!r} was styled differently by a restyle"
