"""The detail pane's first line names the combatant in every system (issue: zludge's "Hero: flat-footed" first
line was taken for a title, and the pane's head said only "PC · init -2")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from screens.widgets.detail import detail_text
from tests.ui.drive import build_fight
from tests.ui.test_table_view import SYSTEMS


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_the_detail_pane_begins_with_the_combatant_s_name(system_id: str, tmp_path: Path) -> None:
    fight = build_fight(system_id, tmp_path / "f.jsonl")
    for c in fight.state.present:
        head = detail_text(fight.system, fight.state, c.id).split("\n", 1)[0]
        assert head.startswith(f"{c.name} · {c.kind.upper()}"), head
    fight.close()


class Titled:
    """A system whose detail is titled with the name itself: the pane does not say the name twice."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def detail(self, state: Any, c: Any) -> str:
        return f"{c.name} · the system's own title\nmore"


def test_a_detail_titled_by_the_system_is_not_named_twice(tmp_path: Path) -> None:
    fight = build_fight("toy", tmp_path / "f.jsonl")
    c = fight.state.present[0]
    text = detail_text(Titled(fight.system), fight.state, c.id)  # type: ignore[arg-type]
    assert text.count(c.name) == 1 and text.split("\n")[1] == f"{c.name} · the system's own title", text
    fight.close()
