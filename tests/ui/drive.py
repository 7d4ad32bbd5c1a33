"""Keyboard helpers for driving the app in Pilot tests."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Input, Static

import saves
from screens.app import TrackerApp
from screens.dialogs.faces import FacesDialog
from screens.fight import FightScreen


async def new_fight(pilot: Pilot, system_id: str) -> FightScreen:
    """From the start screen: choose the system with the arrow keys and Enter."""
    app = pilot.app
    await pilot.pause()
    ids = [s.id for s in app.screen.systems]  # type: ignore[attr-defined]
    for _ in range(ids.index(system_id)):
        await pilot.press("down")
    await pilot.press("enter")
    await pilot.pause()
    assert isinstance(app.screen, FightScreen), app.screen
    return app.screen


async def type_text(pilot: Pilot, text: str) -> None:
    await pilot.press(*[{" ": "space", "+": "plus", "-": "minus", ",": "comma"}.get(ch, ch) for ch in text])


async def fill(pilot: Pilot, widget_id: str, text: str) -> None:
    """Focus an input in the open dialog, clear it and type ``text``."""
    box = pilot.app.screen.query_one(f"#{widget_id}", Input)
    box.focus()
    await pilot.pause()
    box.value = ""
    await type_text(pilot, text)


async def answer_faces(pilot: Pilot, pick: str = "lo", limit: int = 60) -> int:
    """Answer every typed-in dice request with the lowest (or highest) faces; returns how many."""
    n = 0
    while isinstance(pilot.app.screen, FacesDialog) and n < limit:
        req = pilot.app.screen.request
        face = req.lo if pick == "lo" else req.hi
        await type_text(pilot, " ".join([str(face)] * req.count))
        await pilot.press("enter")
        await pilot.pause()
        n += 1
    return n


async def submit_form(pilot: Pilot) -> None:
    await pilot.press("ctrl+s")
    await pilot.pause()


def error_text(app: TrackerApp) -> str:
    found = app.screen.query("#error")
    return str(found.first(Static).content) if found else ""


def saved_state_matches(app: TrackerApp) -> bool:
    fight = app.fight
    assert fight is not None
    path: Path = fight.path
    return saves.load(path).fight().state == fight.state
