"""The tracker command: one clear line and a non-zero exit on error, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import saves
from screens.cli import main
from tests.support.toy import Hit
from tests.support.toy import system as toy
from tracker import AddCombatant, NextTurn, ScriptedRoller, SetInitiative, StartFight


@pytest.fixture
def fight_file(tmp_path: Path) -> Path:
    path = tmp_path / "saloon.jsonl"
    f = saves.new_fight(toy, path, seed=1, roller=ScriptedRoller([15, 5, 3]))
    f.do(AddCombatant(name="Alice", kind="pc", sheet={"hp": 8}))
    f.do(AddCombatant(name="Goblin", sheet={"hp": 9}))
    f.do(SetInitiative(values={"c1": 12, "c2": 8}))
    f.do(StartFight())
    f.do(Hit(actor="c1", target="c2"))
    f.do(NextTurn())
    f.do(Hit(actor="c2", target="c1"))
    f.undo()
    f.close()
    return path


def test_check_a_good_file(fight_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(fight_file)]) == 0
    out = capsys.readouterr().out
    assert "good" in out and "round 1" in out and "2 combatants" in out


def test_check_a_damaged_file_names_the_line(fight_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = fight_file.read_text().splitlines()
    lines[2] = "{oops"
    fight_file.write_text("\n".join(lines) + "\n")
    assert main(["check", str(fight_file)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("tracker: line 3:")
    assert "Traceback" not in err


def test_export_writes_a_markdown_recap(fight_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "recap.md"
    assert main(["export", str(fight_file), "-o", str(out)]) == 0
    text = out.read_text()
    assert text.startswith("# Fight recap: saloon")
    assert "| Alice | PC |" in text
    assert "### Round 1" in text
    assert "Alice hits Goblin (1d20 [15] = 15) for 5 (1d6 [5] = 5)" in text
    assert "~~Goblin misses Alice (1d20 [3] = 3)~~ (undone)" in text
    assert "Goblin: HP 4/9" in text


def test_replay_as_text_prints_the_fight_turn_by_turn(fight_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--text", str(fight_file)]) == 0
    out = capsys.readouterr().out
    assert "Alice's turn" in out and "Goblin's turn" in out
    assert "(undone)" in out


def test_systems_lists_what_is_installed(capsys: pytest.CaptureFixture[str]) -> None:
    main(["systems"])
    out = capsys.readouterr().out
    for sid in ("bnb", "blackjack", "zludge", "twod6"):
        assert sid in out


def test_errors_are_one_line_without_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"format": 99, "system": "toy"}) + "\n")
    for args in (["check", str(tmp_path / "missing.jsonl")], ["export", str(bad)], ["replay", "--text", str(bad)]):
        r = subprocess.run([sys.executable, "-m", "screens", *args], capture_output=True, text=True)
        assert r.returncode == 1
        assert "Traceback" not in r.stderr
        assert len(r.stderr.strip().splitlines()) == 1, r.stderr


# -- the collector held from the command's start to the first frame (screens.collector, a kept speed trick) ----


def test_the_installed_tracker_command_starts_with_the_collector_held() -> None:
    from importlib.metadata import entry_points

    (script,) = entry_points(group="console_scripts", name="tracker")
    assert script.value == "screens.launch:main"


def test_release_turns_on_only_a_collector_that_hold_turned_off() -> None:
    import gc

    from screens import collector

    assert gc.isenabled()
    try:
        collector.hold()
        assert not gc.isenabled()
        collector.release()
        assert gc.isenabled() and gc.get_freeze_count() > 0
        collector.release()  # a second release changes nothing
        assert gc.isenabled()
        gc.disable()  # an embedding program that keeps it off: held and released, it stays off
        collector.hold()
        collector.release()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_short_command_runs_to_its_end_with_the_collector_held(tmp_path: Path) -> None:
    """``python -m screens`` is the command (screens.launch): a short command runs and ends with it held, and its
    output is the command's own."""
    r = subprocess.run(
        [
            sys.executable,
            "-c",
            "import gc, sys\nfrom screens import launch\nsys.argv = ['tracker', 'systems']\n"
            "code = launch.main()\nprint('held' if not gc.isenabled() else 'on')",
        ],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr
    assert "bnb" in r.stdout and r.stdout.strip().endswith("held")


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda b: b.replace(b"\n", b"\r\n"), "its lines end with CR LF (Windows line ends"),
        (lambda b: b"\xef\xbb\xbf" + b, "it starts with a byte order mark"),
    ],
    ids=["crlf", "bom"],
)
def test_a_file_an_editor_resaved_is_said_for_what_it_is(
    fight_file: Path, capsys: pytest.CaptureFixture[str], change: object, said: str
) -> None:
    """A fight file saved again with Windows line ends (an editor, git's autocrlf) was "line 1: the header has
    no checksum", one with a byte order mark "its checksum does not match": both say what happened and how to
    mend it.  The file is left as it is."""
    resaved = change(fight_file.read_bytes())  # type: ignore[operator]
    fight_file.write_bytes(resaved)
    assert main(["check", str(fight_file)]) == 1
    out = capsys.readouterr()
    assert f"line 1: {said}" in out.out + out.err, out
    assert fight_file.read_bytes() == resaved


def test_replay_text_into_a_reader_that_stops_says_nothing(tmp_path: Path) -> None:
    """``tracker replay --text FILE | head`` printed "tracker: Broken pipe:" as the reader went."""
    from bench.fights import make_fight

    path = tmp_path / "long.jsonl"
    make_fight("bnb", 3000, path, seed=4)
    shell = f"{sys.executable} -m screens replay --text {path} | head -1"
    done = subprocess.run(shell, shell=True, capture_output=True, text=True, timeout=120)
    assert done.stdout.count("\n") == 1 and "Broken pipe" not in done.stderr, done.stderr


def test_rules_prints_a_systems_rules_page_and_the_cores() -> None:
    """The help and Why? pointed at docs/rules/<system>.md, which pip install . does not ship: the command prints
    the page as docs/rules has it."""
    from tracker import registry, rules_doc

    out = subprocess.run(
        [sys.executable, "-m", "screens", "rules", "zludge"], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == rules_doc.system_page(registry.load("zludge")).strip()
    core = subprocess.run([sys.executable, "-m", "screens", "rules"], capture_output=True, text=True, check=True)
    assert core.stdout.startswith("# The tracker's own rules")
    bad = subprocess.run([sys.executable, "-m", "screens", "rules", "nosuch"], capture_output=True, text=True)
    assert bad.returncode == 1 and "not installed" in bad.stderr and "Traceback" not in bad.stderr
