"""``tracker check`` of a fight saved on elsewhere after its file was lost under the app (``FILE-rescued.jsonl``),
and ``tracker export FILE -o -``.  Found by the t3 audit (F3 and a note): check said "good" of the stale file and
nothing of where the fight went on, while the app and the players' view both say it; ``-o -`` wrote a file named
``-``."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import saves
from saves import export
from screens.cli import main
from tracker import Note


def _rescued(tmp_path: Path) -> tuple[Path, Path]:
    """A fight whose file a sync tool replaced under the app, saved on in ``g-rescued.jsonl`` with two more notes:
    (the stale file, the rescued one)."""
    path = tmp_path / "g.jsonl"
    fight = saves.new_fight("bnb", path, seed=1)
    for text in ("first", "second", "before"):
        fight.do(Note(text=text))
    copy = tmp_path / "copy"
    copy.write_bytes(path.read_bytes())
    os.replace(copy, path)  # a sync tool puts its copy in place
    with pytest.raises(saves.FileLost):
        fight.do(Note(text="refused"))
    rescued = saves.rescue(fight)
    rescued.do(Note(text="on in the new file"))
    rescued.do(Note(text="and more"))
    rescued.close()
    fight.close()
    return path, rescued.path


def _said_where(out: str, rescued: Path) -> None:
    assert f"the fight was saved on in {rescued} after g.jsonl was lost under the app" in out, out
    assert "or could not be written: what was done there is not in this file" in out, out  # (the app's words too)


def test_check_names_where_a_rescued_fight_goes_on(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, rescued = _rescued(tmp_path)
    assert main(["check", str(path)]) == 0  # the file itself reads well
    out = capsys.readouterr().out
    assert f"{path}: good — " in out, out
    _said_where(out, rescued)
    # the rescued file is where the fight is: nothing more to say of it
    assert main(["check", str(rescued)]) == 0
    out = capsys.readouterr().out
    assert "saved on in" not in out and f"{rescued}: good — " in out, out


def test_check_of_a_torn_rescued_file_does_not_say_it_goes_on_in_the_same_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Another program appended a whole line to the file under the app (so it was rescued): check said
    "continuing it … goes on in the same file"."""
    path, rescued = _rescued(tmp_path)
    with open(path, "ab") as f:
        f.write(b'{"junk":1}\n')
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert "goes on in the same file" not in out, out
    _said_where(out, rescued)


def test_check_of_a_damaged_rescued_file_names_where_it_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, rescued = _rescued(tmp_path)
    lines = path.read_bytes().split(b"\n")
    lines[1] = lines[1].replace(b'"', b"'", 1)  # the second line damaged, the last one good
    path.write_bytes(b"\n".join(lines))
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"{path}: damaged at line 2" in out, out
    _said_where(out, rescued)


def test_check_of_a_file_never_lost_says_nothing_of_a_rescue(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "g.jsonl"
    fight = saves.new_fight("bnb", path, seed=1)
    fight.do(Note(text="before"))
    fight.close()
    (tmp_path / "g-rescued.jsonl").write_bytes(b"not a fight of this file\n")  # a file of that name, not its rescue
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert (
        "saved on in" not in out and out.strip() == f"{path}: good — Blood & Bullets, 1 events, round 0, 0 combatants"
    )


def test_export_to_a_dash_prints_the_recap(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path, _rescued_path = _rescued(tmp_path)
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    assert main(["export", str(path), "-o", "-"]) == 0
    out = capsys.readouterr().out
    assert out == export.recap(saves.load(path)), out
    assert not (work / "-").exists()
    # a file of that name is still written when asked by its path
    assert main(["export", str(path), "-o", "./-"]) == 0
    assert (work / "-").read_text(encoding="utf-8") == out
