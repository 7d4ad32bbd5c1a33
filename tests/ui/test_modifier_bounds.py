"""A situational modifier too large is refused in the form, which stays open with what the GM typed: "luck
+99999999999999999999" closed the attack form with "AttackRolled: a value cannot be saved", and all of it was lost."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from screens.app import TrackerApp
from screens.dialogs.form import FormDialog
from tests.ui.drive import build_fight, error_text, fill, press, submit_form
from tracker.commands import MODIFIER_MAX, parse_modifiers
from tracker.errors import Refused


@pytest.mark.parametrize("text", ["luck +99999999999999999999", f"luck {MODIFIER_MAX + 1}", f"-{MODIFIER_MAX + 1}"])
def test_a_modifier_past_the_most_is_refused(text: str) -> None:
    with pytest.raises(Refused, match=f"at most ±{MODIFIER_MAX}"):
        parse_modifiers(text)
    assert parse_modifiers(f"luck +{MODIFIER_MAX}")[0].value == MODIFIER_MAX


@pytest.mark.parametrize("system_id", ["bnb", "blackjack", "zludge", "twod6"])
def test_the_attack_form_refuses_it_and_stays_open(system_id: str, tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    fight = build_fight(system_id, path)
    fight.close()

    async def run() -> None:
        app = TrackerApp(open_path=path)
        async with app.run_test(size=(120, 36)) as pilot:
            await pilot.pause()
            await press(pilot, "a")
            assert isinstance(app.screen, FormDialog)
            field = next(p.name for p in app.screen.params if p.kind == "modifiers")
            await fill(pilot, f"f-{field}", "luck +99999999999999999999")
            before = len(app.fight.entries)  # type: ignore[union-attr]
            await submit_form(pilot)
            assert isinstance(app.screen, FormDialog)
            assert f"at most ±{MODIFIER_MAX}" in error_text(app)
            assert len(app.fight.entries) == before  # type: ignore[union-attr]

    asyncio.run(run())
