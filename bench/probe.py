"""An app run in a terminal with a stopwatch inside: when each key arrived, when each frame was written.

Run by ``bench/bench_speed.py`` under a pseudo-terminal (never by hand)::

    python bench/probe.py RECORDS tracker FIGHT.jsonl    # the tracker continuing that fight
    python bench/probe.py RECORDS bare                   # a bare Textual app (a label, a footer, a modal on x)

Each record is one JSON line appended to RECORDS:

* ``{"key": "n", "t": ...}`` -- a key as the app received it; ``t`` is the
  key event's own time, stamped by Textual's input thread once it parsed the
  bytes (so the wait in the event loop counts);
* ``{"frame": ..., "t": ..., "screen": ..., "focused": ...}`` -- a frame
  composed and handed to the terminal's writer (``post_display_hook``, after
  the driver's write and flush), with the screen on top and whether a widget
  has the focus.

Both apps get one extra key, F12, bound to a "no-op" action that only
refreshes one line of the screen: the time from F12 to its frame is the
event loop's and Textual's own (the harness), which the benchmark subtracts.
Times are ``time.monotonic`` (Textual's own clock for events).
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, Label

PROFILE = os.environ.get("BENCH_PROFILE")  # a file: F11 starts cProfile, F11 again writes its stats there
_profiler: Any = None


def _profile() -> None:
    global _profiler
    import cProfile

    if _profiler is None:
        _profiler = cProfile.Profile()
        _profiler.enable()
    else:
        _profiler.disable()
        _profiler.dump_stats(PROFILE)
        _profiler = None


NOOP = Binding("f12", "bench_noop", "no-op", show=False, priority=True)


class Recorder:
    def __init__(self, path: str) -> None:
        self.out = open(path, "a", buffering=1)  # noqa: SIM115 -- kept open for the app's life
        self.frames = 0

    def key(self, event: events.Key) -> None:
        self.out.write(json.dumps({"key": event.key, "t": event.time}) + "\n")

    def frame(self, app: App[Any]) -> None:
        t = time.monotonic()
        self.frames += 1
        try:
            screen = type(app.screen).__name__
        except Exception:
            screen = ""
        focused = app.focused is not None
        self.out.write(json.dumps({"frame": self.frames, "t": t, "screen": screen, "focused": focused}) + "\n")


def probed(base: type[App[Any]], recorder: Recorder, noop_target: str) -> type[App[Any]]:
    class Probed(base):  # type: ignore[valid-type,misc]
        BINDINGS = [*base.BINDINGS, NOOP]

        async def on_event(self, event: events.Event) -> None:
            if isinstance(event, events.Key) and not event.is_forwarded:
                recorder.key(event)
                if PROFILE and event.key == "f11":
                    _profile()
                    return
            await super().on_event(event)

        def post_display_hook(self) -> None:
            recorder.frame(self)
            super().post_display_hook()  # the app's own (after its first frame: saving made ready)

        def action_bench_noop(self) -> None:
            found = self.screen.query(noop_target)
            if found:
                found.first().refresh()

    Probed.__name__ = base.__name__
    return Probed


class BareModal(ModalScreen[None]):
    """A bare Textual modal: a title and one input, focused when it opens (the floor for a dialog)."""

    DEFAULT_CSS = "BareModal { align: center middle; } BareModal > Vertical { width: 76; height: auto; }"
    BINDINGS = [("escape", "dismiss", "Close")]

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("title")
            yield Input(id="a")

    def on_mount(self) -> None:
        self.set_focus(self.query_one("#a"))


class Bare(App[None]):
    BINDINGS = [("x", "open", "Open")]

    def compose(self) -> ComposeResult:
        yield Label("bare-app-ready", id="bar")
        yield Footer()

    def action_open(self) -> None:
        self.push_screen(BareModal())


def main() -> None:
    records, which = sys.argv[1], sys.argv[2]
    recorder = Recorder(records)
    if which == "bare":
        Probed = probed(Bare, recorder, "#bar")
        Probed().run()
        return
    from screens.app import TrackerApp

    Probed = probed(TrackerApp, recorder, "#bar")
    app = Probed(open_path=Path(sys.argv[3]), fights_dir=Path(os.environ.get("TRACKER_DATA_DIR", ".")))
    app.run()


if __name__ == "__main__":
    main()
