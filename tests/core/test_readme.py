"""The README's promises: its scripting example runs, and CI runs exactly its test command."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

import saves

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()


def test_the_scripting_example_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    block = re.search(r"## Scripting a fight.*?```python\n(.*?)```", README, re.S)
    assert block, "the README has a scripting example"
    monkeypatch.chdir(tmp_path)
    exec(compile(block.group(1), "README.md", "exec"), {})  # the README's own code, run as a user would
    assert (tmp_path / "saloon.jsonl").exists()
    printed = capsys.readouterr().out
    # the shot's line tells the shots left after it, as the saved fight has them (not one low)
    shots = re.search(r"fires 1 shot from the heavy pistol \((\d+) left\)", printed)
    assert shots, printed
    dusty = saves.load(tmp_path / "saloon.jsonl").fight().state.get("c1")
    assert int(shots.group(1)) == dusty.data.weapons[0].shots


def test_ci_runs_exactly_the_readme_test_command() -> None:
    section = README.split("## Install and run the tests", 1)[1]
    command = re.search(r"```sh\n(.*?)\n```", section, re.S).group(1).strip()
    ci = (ROOT / ".ci" / "run").read_text()
    assert command in ci.splitlines()
    assert os.access(ROOT / ".ci" / "run", os.X_OK)
