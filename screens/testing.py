"""Driving the app with Textual's Pilot, for a plug-in's own tests (the core never imports Textual: the scripted
fights and the plug-in checks are :mod:`tracker.testing`).

::

    from screens.app import TrackerApp
    from screens.testing import new_fight, press, sync
    from tracker import registry

    @sync  # plain pytest runs no async test: this runs it with asyncio.run
    async def test_my_system_opens_a_fight(tmp_path) -> None:
        registry.register(system)  # or installed by its entry point
        app = TrackerApp(fights_dir=tmp_path, seed=1)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await new_fight(pilot, "mine")
            await press(pilot, "A")  # the add dialog
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Coroutine
from typing import Any, ParamSpec

from textual import events
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Input, Static

from screens.dialogs.faces import FacesDialog
from screens.fight import FightScreen

__all__ = [
    "CHARS",
    "KEYS",
    "answer_faces",
    "error_text",
    "fill",
    "new_fight",
    "post_keys",
    "press",
    "submit_form",
    "sync",
    "type_text",
]

P = ParamSpec("P")


def sync(test: Callable[P, Coroutine[Any, Any, None]]) -> Callable[P, None]:
    """An async test (a Pilot drives the app with ``await``) as a plain test function, run with ``asyncio.run``:
    plain pytest runs no ``async def`` test (pytest 8 fails it as "not natively supported"), and this needs no
    async plug-in (pytest-asyncio, anyio) or setting.  Its parameters stay the test's, so fixtures such as
    ``tmp_path`` are given as before."""

    @functools.wraps(test)
    def run(*args: P.args, **kwargs: P.kwargs) -> None:
        asyncio.run(test(*args, **kwargs))

    return run


async def new_fight(pilot: Pilot, system_id: str) -> FightScreen:
    """From the start screen: choose the system with the arrow keys and Enter."""
    app = pilot.app
    await pilot.pause()
    ids = [s.id for s in app.screen.systems]  # type: ignore[attr-defined]
    await press(pilot, *["down"] * ids.index(system_id), "enter")
    assert isinstance(app.screen, FightScreen), app.screen
    return app.screen


# the character each named key types (any other name, e.g. "enter", "right", types none)
CHARS = {
    "space": " ",
    "plus": "+",
    "minus": "-",
    "comma": ",",
    "full_stop": ".",
    "equals_sign": "=",
    "question_mark": "?",
    "slash": "/",
    "left_square_bracket": "[",
    "right_square_bracket": "]",
}
KEYS = {char: key for key, char in CHARS.items()}


def post_keys(pilot: Pilot, *keys: str) -> None:
    """Put ``keys`` in the app's queue, one after the other, as a terminal sends them (no wait between)."""
    for key in keys:
        pilot.app.post_message(events.Key(key, CHARS.get(key, key if len(key) == 1 else None)))


async def press(pilot: Pilot, *keys: str) -> None:
    """Press ``keys`` one after the other, as a quick typist does: each once the screen on top has handled what
    the last one asked (a dialog it opened is mounted and focused), then let the app catch up.  ``Pilot.press``
    also waits for the CPU to be idle after every key (40 ms or more a key): in the suite, 2,000 keys pressed so
    waited 100 s of the workers' time."""
    for key in keys:
        post_keys(pilot, key)
        await pilot.pause(0)
    await pilot.pause()


async def type_text(pilot: Pilot, text: str) -> None:
    """Type ``text`` key by key."""
    await press(pilot, *[KEYS.get(ch, ch) for ch in text])


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
        await press(pilot, "enter")
        n += 1
    return n


async def submit_form(pilot: Pilot) -> None:
    """Send the open form (ctrl+s)."""
    await press(pilot, "ctrl+s")


def error_text(app: App[object]) -> str:
    """What the open dialog says is wrong (empty when nothing is)."""
    found = app.screen.query("#error")
    return str(found.first(Static).content) if found else ""
