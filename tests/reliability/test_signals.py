"""SIGTERM and SIGHUP end the app as quitting does (ruling in screens/signals.py).

The real ``tracker --save FILE`` in a pseudo-terminal: a few actions, then (as a sync tool does) an older copy of
the file put in its place, then the signal.  The signal ended the process at once (exit 143, or killed by SIGHUP):
the actions held only in the replaced file were lost, and the terminal was left in the alternate screen with
mouse tracking on.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import time
from pathlib import Path

import pytest

import saves
from tests.reliability.support import run_cli
from tests.ui.drive import build_fight
from tests.ui.terminal import Terminal

pytestmark = pytest.mark.reliability

LEAVE_ALT_SCREEN, MOUSE_OFF = b"\x1b[?1049l", b"\x1b[?1000l"


def _events(path: Path) -> int:
    return len(saves.load(path).entries)


def _playing(tmp_path: Path) -> tuple[Terminal, Path, int]:
    """The app on a small fight (its older copy kept in old.jsonl), after three turns, each saved."""
    path = tmp_path / "j.jsonl"
    build_fight("bnb", path).close()
    shutil.copy(path, tmp_path / "old.jsonl")
    before = _events(path)
    term = Terminal(["--save", str(path)], tmp_path / "data", cols=100, rows=32)
    term.wait_for("autosaved")
    term.quiet()
    for _ in range(3):
        count = _events(path)
        term.press("n")
        end = time.monotonic() + 20
        while _events(path) == count:
            assert time.monotonic() < end, f"the turn was not saved: {term.out[-300:]!r}"
            term.quiet(0.1, timeout=0.3)
    after = _events(path)
    assert after > before
    return term, path, after


def _replace_with_old(path: Path) -> None:
    """What a sync tool does: an older copy written beside, then moved over the fight's file."""
    shutil.copy(path.with_name("old.jsonl"), path.with_name("tmp.jsonl"))
    os.replace(path.with_name("tmp.jsonl"), path)


def _signal(term: Terminal, sig: int, *, hang_up: bool = False) -> tuple[int, bytes]:
    """Send ``sig`` (``hang_up``: the terminal gone first, as when its window is closed); the exit code, and
    what the app wrote to the terminal from then on."""
    mark = len(term.out)
    if hang_up:
        os.close(term.master)
        term.master = os.open(os.devnull, os.O_RDONLY)  # (for term.close)
    os.kill(term.proc.pid, sig)
    end = time.monotonic() + 30
    while term.proc.poll() is None:
        assert time.monotonic() < end, "the app did not end"
        if hang_up:
            time.sleep(0.1)
        else:
            with contextlib.suppress(AssertionError):  # (the app ended: read what is left below)
                term.quiet(0.1, timeout=0.3)
    if not hang_up:
        with contextlib.suppress(AssertionError, OSError):
            term.quiet(0.2, timeout=2)
    return term.proc.returncode, term.out[mark:]


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_after_the_file_was_replaced_saves_the_fight_to_a_new_file(sig: int, tmp_path: Path) -> None:
    term, path, played = _playing(tmp_path)
    try:
        _replace_with_old(path)
        code, tail = _signal(term, sig)
    finally:
        term.close()
    assert code == 0, tail[-400:]
    rescued = tmp_path / "j-rescued.jsonl"
    assert rescued.exists(), sorted(p.name for p in tmp_path.iterdir())
    assert _events(rescued) == played  # every action the GM was shown as done
    done = run_cli("check", str(rescued))
    assert done.returncode == 0 and f"{played} events" in done.stdout, done.stdout + done.stderr
    assert LEAVE_ALT_SCREEN in tail and MOUSE_OFF in tail, tail[-400:]  # the terminal is put back
    said = tail[tail.rfind(LEAVE_ALT_SCREEN) :]
    assert b"saved in " + str(rescued).encode() in said, said  # and told where the fight is


def test_a_hang_up_with_the_terminal_gone_still_saves_the_fight(tmp_path: Path) -> None:
    """The terminal window closed: nothing can be written to it, and the rescue is made all the same (the line
    saying where, which no one can read, fails quietly: the code stays the fight's, 0)."""
    term, path, played = _playing(tmp_path)
    try:
        _replace_with_old(path)
        code, _ = _signal(term, signal.SIGHUP, hang_up=True)
    finally:
        term.close()
    assert code == 0
    assert _events(tmp_path / "j-rescued.jsonl") == played


def test_a_plain_sigterm_ends_cleanly_with_every_action_in_the_file(tmp_path: Path) -> None:
    term, path, played = _playing(tmp_path)
    try:
        code, tail = _signal(term, signal.SIGTERM)
    finally:
        term.close()
    assert code == 0, tail[-400:]
    assert LEAVE_ALT_SCREEN in tail and MOUSE_OFF in tail, tail[-400:]
    assert b"tracker:" not in tail  # nothing to say: the fight is in its file
    assert not list(tmp_path.glob("j-rescued*"))
    done = run_cli("check", str(path))
    assert done.returncode == 0 and f"good — Blood & Bullets, {played} events" in done.stdout, done.stdout


def test_a_signal_before_the_app_runs_ends_the_process_as_before() -> None:
    """No event loop yet (nothing is open): the signal ends the process with 128 + its number, as the shell has
    it for a process a signal ended; the handlers before are put back after."""
    from textual.app import App

    from screens.signals import ending_on_signals

    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(SystemExit) as ended, ending_on_signals(App()):
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(1)  # (the handler runs at once, in this thread)
    assert ended.value.code == 128 + signal.SIGTERM
    assert signal.getsignal(signal.SIGTERM) is before


def test_a_signal_after_the_app_has_ended_is_left_to_the_lines_after_it() -> None:
    """The app over (its fight let go): the signal is ignored, so that what ``run`` prints next (where the fight
    is) is still printed."""
    from textual.app import App
    from textual.pilot import Pilot

    from screens.signals import ending_on_signals

    async def leave(pilot: Pilot[None]) -> None:
        pilot.app.exit()

    app: App[None] = App()
    with ending_on_signals(app):
        app.run(headless=True, auto_pilot=leave)
        os.kill(os.getpid(), signal.SIGHUP)
        time.sleep(0.2)
    assert app.return_code == 0


def test_the_players_view_ends_on_a_signal_with_the_terminal_put_back(tmp_path: Path) -> None:
    """``tracker table`` died on SIGTERM or SIGHUP with the terminal left in the alternate screen."""
    path = tmp_path / "j.jsonl"
    build_fight("bnb", path).close()
    term = Terminal(["table", str(path)], tmp_path / "data", cols=100, rows=32)
    try:
        term.wait_for("Round")
        term.quiet()
        code, tail = _signal(term, signal.SIGTERM)
    finally:
        term.close()
    assert code == 0, tail[-400:]
    assert LEAVE_ALT_SCREEN in tail and MOUSE_OFF in tail, tail[-400:]
