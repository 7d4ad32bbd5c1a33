"""The real ``tracker`` command in a pseudo-terminal, frame by frame, as a terminal gets it.

Pilot runs the app headless: it never writes a frame, so what reaches the terminal,
and in which frame, is beyond its reach.  Here the command runs in a pseudo-terminal
that says it supports synchronized output (mode 2026), so Textual brackets each frame
it writes once it has the answer; the test reads the frames one by one.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Sequence
from pathlib import Path

BEGIN, END = b"\x1b[?2026h", b"\x1b[?2026l"
ASKS_SYNC, HAS_SYNC = b"\x1b[?2026$p", b"\x1b[?2026;2$y"  # DECRQM for mode 2026, and "set" as the answer
KEYS = {"enter": b"\r", "escape": b"\x1b", "minus": b"-"}


class Terminal:
    """``tracker ARGS`` in a ``cols`` x ``rows`` pseudo-terminal; ``frames`` is every frame written so far."""

    def __init__(self, args: Sequence[str], data_dir: Path, cols: int = 100, rows: int = 32) -> None:
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        env = {**os.environ, "TERM": "xterm-256color", "TRACKER_DATA_DIR": str(data_dir)}
        env.pop("TEXTUAL", None)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "screens", *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            start_new_session=True,
        )
        os.close(slave)
        self.out = b""

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return False
        try:
            chunk = os.read(self.master, 1 << 16)
        except OSError:
            raise AssertionError(f"the app ended: {self.out[-300:]!r}") from None
        if ASKS_SYNC in chunk and ASKS_SYNC not in self.out:
            os.write(self.master, HAS_SYNC)
        self.out += chunk
        return True

    @property
    def frames(self) -> list[bytes]:
        """The frames written whole so far, in order.  The first is all that came before the app knew the
        terminal brackets frames (the app asks at its start; its first frame may come before the answer)."""
        before, *parts = self.out.split(BEGIN)
        if not parts:  # what came before is whole only once a bracketed frame follows it
            return []
        return [before, *(part.split(END, 1)[0] for part in parts if END in part)]

    def wait_for(self, text: str, timeout: float = 60) -> int:
        """Wait for a frame that writes ``text``; the number of the first such frame."""
        word = text.encode()
        end = time.monotonic() + timeout
        while True:
            found = next((n for n, f in enumerate(self.frames) if word in f), None)
            if found is not None:
                return found
            if time.monotonic() > end:
                raise AssertionError(f"no frame wrote {text!r}: {self.out[-300:]!r}")
            self._read(0.2)

    def quiet(self, for_: float = 0.5, timeout: float = 20) -> None:
        """Read until nothing is written for ``for_`` seconds."""
        end = time.monotonic() + timeout
        while time.monotonic() < end and self._read(for_):
            pass

    def press(self, *keys: str, gap: float = 0.0) -> None:
        """Type ``keys`` (the app takes them in order, whatever it is doing meanwhile), ``gap`` seconds apart."""
        for key in keys:
            os.write(self.master, KEYS.get(key, key.encode()))
            end = time.monotonic() + gap
            while time.monotonic() < end:
                self._read(end - time.monotonic())

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()
        os.close(self.master)
