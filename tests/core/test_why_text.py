"""#47 in words: ``tracker replay FILE --text --why`` prints the reasons under each line, ``tracker export FILE
--why`` puts them in the recap; a plug-in that fails to explain gives a sentence, never a traceback."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

import saves
from saves.export import recap, why_lines
from screens.cli import main
from tests.support import toy

OLD = Path(__file__).resolve().parents[1] / "fixtures" / "format1" / "toy.jsonl"  # saved before #47


@pytest.fixture
def old_file(tmp_path: Path) -> Path:
    path = tmp_path / "old.jsonl"
    shutil.copy(OLD, path)
    return path


def test_replay_text_why_prints_the_reasons_under_each_line(old_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--text", "--why", str(old_file)]) == 0
    out = capsys.readouterr().out.splitlines()
    hit = next(n for n, line in enumerate(out) if " hits " in line and "(undone)" not in line)
    assert out[hit + 1].strip() == "why: Attack roll (toy l.6): A d20 of 10 or more hits."
    assert out[hit + 2].strip().startswith("d20: 1d20, faces ")
    assert out[hit + 3].strip().startswith("why: Damage (toy l.7):")
    undo = next(n for n, line in enumerate(out) if re.match(r" *\d+  undone: ", line))
    assert out[undo + 1].strip().startswith("why: Undo (core): ")
    assert re.match(r"took back events? \d+(–\d+)?: ", out[undo + 2].strip()), out[undo + 2]


def test_replay_text_without_why_prints_no_reasons(old_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--text", str(old_file)]) == 0
    assert "why:" not in capsys.readouterr().out


def test_export_why_puts_the_reasons_in_the_recap(old_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "recap.md"
    assert main(["export", str(old_file), "--why", "-o", str(out)]) == 0
    text = out.read_text()
    assert "    - _Why:_ **Attack roll** (toy l.6): A d20 of 10 or more hits. — d20: 1d20, faces " in text
    plain = tmp_path / "plain.md"
    assert main(["export", str(old_file), "-o", str(plain)]) == 0
    assert "_Why:_" not in plain.read_text()


def test_a_system_that_fails_to_explain_gives_a_sentence(old_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object) -> tuple[()]:
        raise ValueError("no")

    monkeypatch.setattr(toy.system, "explain", broken)
    loaded = saves.load(old_file)
    timeline = loaded.timeline()
    assert why_lines(timeline, 0) == ["       why: the system could not explain it (ValueError)"]
    assert "- _Why:_ the system could not explain it (ValueError)" in recap(loaded, why=True)
