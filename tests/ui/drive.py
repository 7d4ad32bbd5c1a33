"""Keyboard helpers for driving the app in Pilot tests: the plain ones are screens.testing's (what a plug-in's
tests use too), the ones that know this suite are here."""

from __future__ import annotations

from pathlib import Path

import saves
from screens.app import TrackerApp
from screens.testing import (
    CHARS,
    KEYS,
    answer_faces,
    error_text,
    fill,
    new_fight,
    post_keys,
    press,
    submit_form,
    type_text,
)
from tracker import commands as C
from tracker import registry
from tracker.errors import Refused
from tracker.model import NPC, PC
from tracker.testing import sample_sheet as custom_sheet
from tracker.testing import sample_value

__all__ = [
    "CHARS",
    "KEYS",
    "answer_faces",
    "build_fight",
    "custom_sheet",
    "error_text",
    "fill",
    "footer_keys",
    "new_fight",
    "post_keys",
    "press",
    "sample_value",
    "saved_state_matches",
    "submit_form",
    "type_text",
]


def footer_keys(app: TrackerApp) -> list[str]:
    """The fight screen's key bar's descriptions, as the GM reads them."""
    from screens.widgets.footer import KeysFooter

    return app.screen.query_one(KeysFooter).descriptions


def saved_state_matches(app: TrackerApp) -> bool:
    fight = app.fight
    assert fight is not None
    path: Path = fight.path
    return saves.load(path).fight().state == fight.state


def build_fight(system_id: str, path: Path, *, start: bool = True, seed: int = 3) -> saves.SavedFight:
    """A small fight made through the core API: a preset group (or a custom NPC), a custom PC, initiative."""
    system = registry.load(system_id)
    fight = saves.new_fight(system, path, seed=seed)
    npcs = [p for p in system.presets() if p.kind == NPC]
    try:
        if not npcs:
            raise Refused("no NPC preset")
        fight.do(C.AddCombatant(name="", preset=npcs[0].id, count=2))
    except Refused:
        fight.do(C.AddCombatant(name="Outlaw", kind=NPC, sheet=custom_sheet(system, NPC), count=2))
    fight.do(C.AddCombatant(name="Hero", kind=PC, sheet=custom_sheet(system, PC)))
    if start:
        fight.do(C.RollInitiative())
        fight.do(C.StartFight())
    return fight
