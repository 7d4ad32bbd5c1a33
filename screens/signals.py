"""SIGTERM and SIGHUP end the app as quitting does (see :func:`ending_on_signals`).

Ruling: SIGTERM (``kill``, a shutdown) and SIGHUP (the terminal window closed, ``tmux kill-session``) end the
app the way ``q`` does, through Textual's own exit: the terminal is put back (the alternate screen left, mouse
tracking off) and the fight's close path runs (``TrackerApp.on_unmount`` → ``SavedFight.close``), with the same
check as quitting: a fight whose file was replaced, moved or deleted under the app is saved to a new file (beside
it, else in the fights folder) without asking, since no one may be there to answer, and the terminal is told
where (``run`` prints it on the error stream, if a terminal is still there to take it).  The exit code is
quitting's: 0 when every action is saved (in its file, or in the new one), 1 when the fight could be saved
nowhere (said on the terminal).  A signal ended the process at once (exit 143, or killed by SIGHUP): the actions
held only in a replaced file were lost and the terminal was left in the alternate screen with mouse tracking on.
Tests: tests/reliability/test_signals.py.

A signal that comes before the app's event loop runs (nothing opened yet) ends the process as before, with exit
code 128 + the signal's number; one that comes after the loop has ended (the fight already let go) is ignored:
the app is ending anyway, and what it prints next says where the fight is.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Iterator
from types import FrameType
from typing import Any

from textual.app import App

ENDING = (signal.SIGTERM, signal.SIGHUP)


@contextlib.contextmanager
def ending_on_signals(app: App[Any]) -> Iterator[None]:
    """While the block runs ``app`` (``app.run()``), SIGTERM and SIGHUP call ``app.exit()`` in its event loop.

    The handler is Python's (:func:`signal.signal`, run in the main thread, where Textual's loop runs): it hands
    the exit to the loop with :meth:`asyncio.AbstractEventLoop.call_soon_threadsafe`, as asyncio's own runner
    does for Ctrl+C, so the exit is taken between two of the loop's callbacks, never in the middle of one."""

    def handler(signum: int, frame: FrameType | None) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop running: not started yet (nothing opened), or over (the fight let go)
            if app.return_code is None and not app.is_running:
                raise SystemExit(128 + signum) from None
            return
        with contextlib.suppress(RuntimeError):  # (the loop closing meanwhile: the app is ending anyway)
            loop.call_soon_threadsafe(app.exit)

    old = {s: signal.signal(s, handler) for s in ENDING}
    try:
        yield
    finally:
        for s, previous in old.items():
            signal.signal(s, previous)
