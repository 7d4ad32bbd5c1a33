"""The GM's small files (parties, presets, the conditions typed before) never crash, freeze or flood the app: a
conditions line too long or holding NUL bytes crashed it on C; a FIFO among the party files froze it on F6, and a
link to /dev/zero there ran it out of memory."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from saves import library, parties
from tracker.errors import TrackerError

pytestmark = pytest.mark.reliability


def within(seconds: float, fn: Callable[[], Any]) -> Any:
    """``fn()``'s result, failing the test if it takes longer (a blocking open on a FIFO never returns)."""
    out: list[Any] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            out.append(fn())
        except BaseException as e:
            failed.append(e)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), "it blocked"
    if failed:
        raise failed[0]
    return out[0] if out else None


def test_a_conditions_line_the_gm_could_not_have_typed_is_left_out(tmp_path: Path) -> None:
    folder = tmp_path / "fights"
    path = library.library_dir(folder) / "bnb-conditions.txt"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"Blinded\nOn fire and really very angry about it all the time today\n\0\0\0\0\nStunned\n")
    assert library.typed_conditions("bnb", folder) == ["Stunned", "Blinded"]
    library.remember_condition("bnb", "Dazed", folder)
    assert library.typed_conditions("bnb", folder)[0] == "Dazed"


def test_a_fifo_or_a_device_among_the_gms_files_is_passed_over(tmp_path: Path) -> None:
    folder = tmp_path / "fights"
    party_dir = parties.parties_dir(folder)
    party_dir.mkdir(parents=True)
    (party_dir / "good.json").write_text('{"system": "bnb", "name": "Posse", "members": []}')
    os.mkfifo(party_dir / "evil.json")
    (party_dir / "zero.json").symlink_to("/dev/zero")
    assert [name for name, _, _ in within(5, lambda: parties.list_parties("bnb", party_dir))] == ["Posse"]
    assert within(5, lambda: parties.keeps_now(party_dir / "evil.json")) is False
    with pytest.raises(TrackerError, match=r"cannot read the party file zero\.json"):
        within(5, lambda: parties.party_commands(party_dir / "zero.json"))
    conditions = library.library_dir(folder) / "bnb-conditions.txt"
    conditions.parent.mkdir(parents=True)
    os.mkfifo(conditions)
    assert within(5, lambda: library.typed_conditions("bnb", folder)) == []
    within(5, lambda: library.remember_condition("bnb", "Dazed", folder))
    presets = library.library_file("bnb", folder)
    presets.symlink_to("/dev/zero")
    with pytest.raises(library.LibraryError, match="not a regular file"):
        within(5, lambda: library.presets("bnb", folder))
