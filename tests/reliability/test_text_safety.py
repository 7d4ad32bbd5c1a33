"""Text stays text in every output, and a recap or a party file harms nothing (issue #42, items 5 and 9).

A fight whose names, notes, conditions and fight name hold terminal escapes (a title change, a screen clear,
an 8-bit CSI), in a file whose checksums hold, through every command that writes it out: ``replay --text``,
``export`` to standard output and to a file, the replay screen and ``tracker table`` in a real terminal, and
the browser view (the page and what its websocket sends).  No raw control character may be written.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import stat
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import aiohttp
import pytest

import saves
from saves import parties
from saves.export import is_fight_file, write_recap
from saves.format import SaveError
from tests.reliability.support import run_cli
from tests.support.hostile import RAW, SHOWN, SYSTEMS, forged_fight, raw_controls
from tests.ui.terminal import Terminal
from tests.view.serving import free_port, tracker_serve

pytestmark = pytest.mark.reliability


def assert_text_only(output: str | bytes, what: str) -> None:
    assert not raw_controls(output), f"{what} wrote raw control characters: {raw_controls(output)}"
    assert SHOWN in (output if isinstance(output, str) else output.decode("utf-8", "replace")), (
        f"{what} did not show the hostile names at all"
    )


# -- the commands that print ----------------------------------------------------------------------------------


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_replay_text_and_export_write_no_raw_control_character(system_id: str, tmp_path: Path) -> None:
    path = forged_fight(system_id, tmp_path / "f.jsonl")
    text = run_cli("replay", "--text", str(path))
    assert text.returncode == 0, text.stderr
    assert_text_only(text.stdout, "replay --text")
    assert "\\x1b]0;PWNED\\x07" in text.stdout  # shown as the escape it is

    out = run_cli("export", str(path))
    assert out.returncode == 0, out.stderr
    assert_text_only(out.stdout, "export to standard output")

    recap = tmp_path / "recap.md"
    written = run_cli("export", str(path), "-o", str(recap))
    assert written.returncode == 0, written.stderr
    assert_text_only(recap.read_bytes(), "export to a file")
    assert recap.read_text("utf-8") == out.stdout


def test_an_error_quoting_the_file_writes_no_raw_control_character(tmp_path: Path) -> None:
    """A header naming a system that is not installed: the one-line error quotes it, escaped."""
    path = forged_fight("bnb", tmp_path / "f.jsonl")
    lines = path.read_bytes().split(b"\n")
    head = json.loads(lines[0])
    head["system"] = "nosuch\x1b]0;PWNED\x07"
    from tests.reliability.support import reseal

    lines[0] = reseal(head)
    path.write_bytes(b"\n".join(lines))
    for args in (("replay", "--text"), ("export",), ("check",)):
        done = run_cli(*args, str(path))
        assert done.returncode == 1
        assert "nosuch" in done.stderr
        assert_text_only(done.stderr, f"{args[0]}'s error")


def test_a_file_named_with_escapes_is_named_as_text(tmp_path: Path) -> None:
    """``tracker check`` printed a file's name raw (a window title changed, the screen cleared): every command
    shows it as the escape it is."""
    path = forged_fight("bnb", tmp_path / "f.jsonl")
    named = tmp_path / "n\x1b]0;PWNED\x07\x1b[2J.jsonl"
    named.write_bytes(path.read_bytes())
    for args in (("check",), ("replay", "--text"), ("export",)):
        done = run_cli(*args, str(named))
        assert done.returncode == 0, done.stderr
        assert_text_only(done.stdout + done.stderr, f"{args[0]} of a file so named")
    missing = run_cli("check", str(tmp_path / "gone\x1b[2J.jsonl"))
    assert missing.returncode == 1 and not raw_controls(missing.stdout + missing.stderr), missing


def test_a_file_name_that_is_no_utf8_is_checked_under_a_strict_output(tmp_path: Path) -> None:
    """Under ``PYTHONIOENCODING=utf-8:strict`` check and export failed on a good file whose name is no UTF-8."""
    path = forged_fight("zludge", tmp_path / "f.jsonl")
    named = os.fsencode(tmp_path) + b"/bad\xff.jsonl"
    with open(named, "wb") as out:
        out.write(path.read_bytes())
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict", "PYTHONPATH": str(Path(__file__).parents[2])}
    for args in (["check"], ["export"]):
        done = subprocess.run(
            [sys.executable, "-m", "screens", *args, os.fsdecode(named)], capture_output=True, env=env, timeout=60
        )
        assert done.returncode == 0, done.stderr
        assert b"\xff" not in done.stdout + done.stderr
        assert b"\\udcff" in done.stdout or args == ["export"]  # (the recap is titled by the fight's name)


# -- the screens, in a real terminal ---------------------------------------------------------------------------


def test_the_app_names_a_file_and_quotes_its_errors_as_text(tmp_path: Path) -> None:
    """The fight screen's "autosaved to" named the file raw, and as markup ("[reverse]d.jsonl" showed as
    "d.jsonl"); "Cannot open" and "Damaged file" quoted the file's header or sheet raw."""
    path = forged_fight("bnb", tmp_path / "f.jsonl")
    named = tmp_path / "[reverse]d|\x1b[2J|.jsonl"  # (short: its name is shown whole at 80 columns)
    named.write_bytes(path.read_bytes())
    out = _in_terminal(["--save", str(named)], tmp_path, "autosaved")
    for raw in RAW:
        assert raw not in out, f"the fight screen wrote {raw!r} raw"
    at = out.rfind(b"autosaved")
    assert b"[reverse]d|\\x1b[2J|.jsonl" in out, out[at - 20 : at + 200]  # the name as it is, not as markup

    lines = path.read_bytes().split(b"\n")
    head = json.loads(lines[0])
    head["system"] = "nosuch\x1b]0;PWNED\x07"
    from tests.reliability.support import reseal

    lines[0] = reseal(head)
    forged = tmp_path / "g.jsonl"
    forged.write_bytes(b"\n".join(lines))
    out = _in_terminal(["--save", str(forged)], tmp_path, "Cannot open")
    for raw in RAW:
        assert raw not in out, f"'Cannot open' wrote {raw!r} raw"
    assert b"nosuch\\x1b]0;PWNED" in out


def _in_terminal(args: list[str], data_dir: Path, until: str, keys: tuple[str, ...] = ()) -> bytes:
    term = Terminal(args, data_dir, cols=120, rows=36)
    try:
        term.wait_for(until)
        if keys:
            term.press(*keys, gap=1.0)
        term.quiet()
        return term.out
    finally:
        term.close()


@pytest.mark.parametrize("system_id", ["bnb", "twod6"])
def test_the_replay_screen_and_its_summary_write_no_raw_control_character(system_id: str, tmp_path: Path) -> None:
    path = forged_fight(system_id, tmp_path / "f.jsonl")
    out = _in_terminal(["replay", str(path)], tmp_path, "REPLAY", keys=("G",))  # the end: the summary shows
    assert b"Fight summary" in out
    for raw in RAW:
        assert raw not in out, f"the replay wrote {raw!r} raw"
    assert SHOWN.encode() in out


@pytest.mark.parametrize("system_id", ["blackjack", "zludge"])
def test_tracker_table_writes_no_raw_control_character(system_id: str, tmp_path: Path) -> None:
    path = forged_fight(system_id, tmp_path / "f.jsonl")
    out = _in_terminal(["table", str(path)], tmp_path, "Round")
    for raw in RAW:
        assert raw not in out, f"tracker table wrote {raw!r} raw"
    assert SHOWN.encode() in out


# -- the browser view ------------------------------------------------------------------------------------------


async def _websocket_bytes(port: int, until: bytes) -> bytes:
    data = b""
    async with (
        aiohttp.ClientSession() as session,
        session.ws_connect(f"http://127.0.0.1:{port}/ws?width=120&height=36") as ws,
    ):
        await ws.send_str(json.dumps(["resize", {"width": 120, "height": 36}]))
        deadline = time.monotonic() + 40
        while until not in data and time.monotonic() < deadline:
            with contextlib.suppress(asyncio.TimeoutError):
                msg = await ws.receive(timeout=0.5)
                if msg.type == aiohttp.WSMsgType.BINARY:
                    data += msg.data
                elif msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR):
                    break
    return data


def test_the_browser_view_writes_no_raw_control_character(tmp_path: Path) -> None:
    path = forged_fight("bnb", tmp_path / "f.jsonl")
    port = free_port()
    with tracker_serve(path, port) as proc:
        assert_text_only(proc.banner, "tracker serve's banner")  # type: ignore[attr-defined]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=20) as page:
            html = page.read()
        assert_text_only(html, "the served page")  # its title is the fight's name
        data = asyncio.run(_websocket_bytes(port, SHOWN.encode()))
    for raw in RAW:
        assert raw not in data, f"the browser view was sent {raw!r} raw"
    assert SHOWN.encode() in data


# -- item 9: a recap never replaces a fight; party files are private ------------------------------------------


@pytest.mark.parametrize("force", [False, True])
def test_export_never_writes_over_a_fight_file(force: bool, tmp_path: Path) -> None:
    fight = forged_fight("bnb", tmp_path / "a.jsonl")
    other = forged_fight("zludge", tmp_path / "b.jsonl")
    disguised = tmp_path / "notes.md"  # a fight under another name: told by its first line
    disguised.write_bytes(other.read_bytes())
    for target in (other, disguised):
        before = target.read_bytes()
        done = run_cli("export", str(fight), "-o", str(target), *(["--force"] if force else []))
        assert done.returncode == 1, done.stdout
        assert "fight file" in done.stderr and str(target) in done.stderr
        assert target.read_bytes() == before
        assert saves.load(target).entries  # still the fight it was
    fresh = tmp_path / "new.jsonl"  # a recap is never given a fight's name either
    done = run_cli("export", str(fight), "-o", str(fresh), *(["--force"] if force else []))
    assert done.returncode == 1 and ".md" in done.stderr
    assert not fresh.exists()
    recap = tmp_path / "recap.md"  # what may be replaced still is
    recap.write_text("old recap\n")
    done = run_cli("export", str(fight), "-o", str(recap), *(["--force"] if force else []))
    assert (done.returncode == 0) is force
    assert (recap.read_text() != "old recap\n") is force


def test_a_fight_file_is_told_by_its_header(tmp_path: Path) -> None:
    fight = forged_fight("twod6", tmp_path / "f.jsonl")
    assert is_fight_file(fight)
    damaged = tmp_path / "damaged.txt"
    data = bytearray(fight.read_bytes())
    data[data.index(b'"seed"') + 1] ^= 0x01  # its header's checksum no longer holds: still a fight's log
    damaged.write_bytes(bytes(data))
    assert is_fight_file(damaged)
    for text in (b"", b"# A recap\n", b'{"format": 2}\n', b"[1, 2]\n"):
        plain = tmp_path / "plain.md"
        plain.write_bytes(text)
        assert not is_fight_file(plain)
    with pytest.raises(SaveError, match="fight file"):
        write_recap("x", damaged, source=fight, force=True)
    assert damaged.read_bytes() == bytes(data)


def test_party_files_and_their_folder_are_private(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    old = os.umask(0o022)
    try:
        fight = saves.open_fight(forged_fight("bnb", tmp_path / "f.jsonl"))
        members = parties.party_members(fight)
        fight.close()
        fresh = tmp_path / "fresh" / "parties"
        saved = parties.save_party("Posse", "bnb", members, fresh)
        assert stat.S_IMODE(saved.stat().st_mode) == 0o600
        assert stat.S_IMODE(fresh.stat().st_mode) == 0o700
        assert stat.S_IMODE(fresh.parent.stat().st_mode) == 0o700  # a folder made for it is private too

        older = tmp_path / "older"  # made by an older tracker: 0755, a 0644 party in it
        older.mkdir(mode=0o755)
        (older / "Posse.json").write_text('{"name": "Posse", "system": "bnb", "members": []}')
        os.chmod(older / "Posse.json", 0o644)
        saved = parties.save_party("Posse", "bnb", members, older, replace=True)
        assert stat.S_IMODE(saved.stat().st_mode) == 0o600
        assert stat.S_IMODE(older.stat().st_mode) == 0o700
        assert parties.list_parties("bnb", older) == [("Posse", saved, len(members))]
        assert [p.name for p in older.iterdir()] == ["Posse.json"]  # no temporary file left
    finally:
        os.umask(old)
