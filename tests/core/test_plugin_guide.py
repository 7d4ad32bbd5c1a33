"""docs/PLUGINS.md's example test, and the toy system as the guide describes it."""

from __future__ import annotations

import re
from pathlib import Path

from systems.toy import Hit, system
from systems.toy.sheet import data
from tracker import AddCombatant, Fight, ScriptedRoller, StartFight
from tracker.plugin import Rules, System

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "PLUGINS.md"


def test_a_hit_that_drops_the_target_raises_the_down_prompt() -> None:
    f = Fight(system, roller=ScriptedRoller([15, 4]))
    f.do(AddCombatant(name="Alice", kind="pc"))
    f.do(AddCombatant(name="Goblin", preset="goblin"))
    f.do(StartFight())
    f.do(Hit(actor="c1", target="c2"))
    assert data(f.state.get("c2")).hp == 0
    assert [p.kind for p in f.state.prompts] == ["down"]


def test_the_guide_shows_this_very_test() -> None:
    text = GUIDE.read_text()
    assert "def test_a_hit_that_drops_the_target_raises_the_down_prompt" in text
    assert "ScriptedRoller([15, 4])" in text


def test_the_toy_is_a_full_system_and_the_layout_the_guide_lists_exists() -> None:
    assert isinstance(system, Rules) and isinstance(system, System)
    listed = re.findall(r"^  (\w+\.py)", GUIDE.read_text(), flags=re.M)
    toy = GUIDE.parent.parent / "systems" / "toy"
    assert {"__init__.py", "commands.py", "events.py", "rules.py", "evolve.py", "sheet.py", "presets.py"} <= set(listed)
    assert all((toy / name).exists() for name in listed if name != "checks.py")
