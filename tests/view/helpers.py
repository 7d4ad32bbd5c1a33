"""Helpers for the players' view tests."""

from __future__ import annotations

import asyncio
import functools
import io
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from rich.console import Console
from textual.app import App

import saves
from tracker import commands as C
from tracker import registry
from tracker.errors import Refused
from tracker.model import NPC, PC


def sync(fn: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """Run an async test body with asyncio.run (the project has no async pytest plug-in)."""

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> None:
        asyncio.run(fn(*args, **kwargs))

    return run


def screen_text(app: App) -> str:
    """The text on the app's screen, as a viewer reads it."""
    width, height = app.size
    console = Console(
        width=width, height=height, file=io.StringIO(), force_terminal=True, record=True, legacy_windows=False
    )
    console.print(app.screen._compositor.render_update(full=True))
    return console.export_text(styles=False)


def sample_value(p: C.Param) -> str:
    if p.kind == C.INT:
        return str(p.min if p.min is not None else 1)
    if p.kind == C.CHOICE:
        return p.choices[0]
    if p.kind == C.BOOL:
        return "no"
    return "x"


def sheet(system_id: str, kind: str) -> dict[str, str]:
    system = registry.load(system_id)
    return {p.name: sample_value(p) for p in system.sheet_fields(kind) if p.default is None and p.required}


def npc_preset(system_id: str) -> str | None:
    npcs = [p for p in registry.load(system_id).presets() if p.kind == NPC]
    return npcs[0].id if npcs else None


def add_npc(fight: saves.SavedFight, name: str, *, hidden: bool = False, alias: str = "") -> str:
    """Add one NPC (from the system's first NPC preset, else a custom sheet); its id."""
    preset = npc_preset(fight.system.id)
    try:
        if preset is None:
            raise Refused("no preset")
        fight.do(C.AddCombatant(name=name, preset=preset, hidden=hidden, alias=alias))
    except Refused:
        fight.do(C.AddCombatant(name=name, kind=NPC, sheet=sheet(fight.system.id, NPC), hidden=hidden, alias=alias))
    return fight.state.combatants[-1].id


def add_pc(fight: saves.SavedFight, name: str) -> str:
    fight.do(C.AddCombatant(name=name, kind=PC, sheet=sheet(fight.system.id, PC)))
    return fight.state.combatants[-1].id


def new(system_id: str, path: Path, seed: int = 3) -> saves.SavedFight:
    return saves.new_fight(system_id, path, seed=seed)
