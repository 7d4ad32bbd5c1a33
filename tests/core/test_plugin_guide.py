"""docs/PLUGINS.md matches the code: every python block of it runs (and the tests it shows pass), a block that
names a file of the toy is that file's code, the layout it lists is the toy's and every built-in system's, its
table lists every hook and every field kind, and the toy is light the way the built-ins are."""

from __future__ import annotations

import asyncio
import inspect
import os
import re
import subprocess
import sys
import tomllib
import types
from pathlib import Path

import pytest

from tests.support import in_new_interpreter
from tracker.commands import PARAM_KINDS
from tracker.plugin_check import HOOKS

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "PLUGINS.md"
TEXT = GUIDE.read_text()
SYSTEMS = ("toy", "bnb", "blackjack", "zludge", "twod6")


def blocks(lang: str) -> list[str]:
    return re.findall(rf"^```{lang}\n(.*?)^```$", TEXT, flags=re.M | re.S)


PYTHON = blocks("python")


def test_the_guide_has_code_to_run() -> None:
    assert len(PYTHON) >= 10 and len(blocks("toml")) >= 3


@pytest.mark.parametrize("number", range(len(PYTHON)))
def test_every_python_block_runs_and_the_tests_it_shows_pass(
    number: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each block is run as a module of its own; the test functions it defines are called (async ones too)."""
    module = types.ModuleType(f"plugin_guide_block_{number}")
    monkeypatch.setitem(sys.modules, module.__name__, module)  # attrs and typing look annotations up there
    code = compile(PYTHON[number], f"{GUIDE}:block {number}", "exec")
    exec(code, module.__dict__)  # the guide's own code, run as the tests' subject
    for name, fn in list(vars(module).items()):
        if not (name.startswith("test_") and callable(fn) and fn.__module__ == module.__name__):
            continue
        kwargs = {"tmp_path": tmp_path} if "tmp_path" in inspect.signature(fn).parameters else {}
        result = fn(**kwargs)
        if inspect.iscoroutine(result):
            asyncio.run(result)


def test_the_guides_pilot_test_passes_under_plain_pytest_as_an_outside_author_has_it(tmp_path: Path) -> None:
    """The guide's Pilot test was an undecorated ``async def``: copied into a plug-in's tests and run by plain
    pytest (no async plug-in, none configured), it was not run ("async def functions are not natively
    supported").  Copied as it is, it runs and passes."""
    (pilot,) = [block for block in PYTHON if "run_test" in block]
    (tmp_path / "test_pilot.py").write_text(pilot, encoding="utf-8")
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")  # none of this repository's settings
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TRACKER_DATA_DIR": str(tmp_path / "data")}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", "test_pilot.py"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout + done.stderr


def test_a_block_that_names_a_file_of_the_toy_is_that_files_code_in_order() -> None:
    named = 0
    for block in PYTHON:
        first, _, rest = block.partition("\n")
        found = re.fullmatch(r"# (systems/toy/\S+\.py)", first)
        if not found:
            continue
        named += 1
        lines = (ROOT / found.group(1)).read_text().splitlines()
        at = 0
        for line in filter(str.strip, rest.splitlines()):
            assert line in lines[at:], f"{found.group(1)}: not in the file (in this order): {line!r}"
            at = lines.index(line, at) + 1
    assert named >= 9


def test_the_toml_blocks_are_toml() -> None:
    for block in blocks("toml"):
        tomllib.loads(block)


def listed_layout() -> list[str]:
    section = TEXT.split("## 2. The layout", 1)[1]
    tree = re.search(r"```\nsystems/toy/\n(.*?)```", section, flags=re.S)
    assert tree is not None
    return re.findall(r"^  (\S+)", tree.group(1), flags=re.M)


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_the_layout_the_guide_lists_is_every_systems(system_id: str) -> None:
    listed = listed_layout()
    assert listed == [
        "__init__.py",
        "about.py",
        "plugin.py",
        "sheet.py",
        "events.py",
        "commands.py",
        "checks.py",
        "rules/",
        "evolve.py",
        "presets.py",
    ]
    folder = ROOT / "systems" / system_id
    for name in listed:
        assert (folder / name).exists(), f"systems/{system_id}/{name}"
    assert (folder / "rules" / "__init__.py").exists()


def table_rows(heading: str) -> list[str]:
    section = TEXT.split(heading, 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\| `([^`]+)` \|", section, flags=re.M)


def test_the_reference_table_lists_every_hook_once_and_nothing_else() -> None:
    rows = table_rows("## 10. Every hook")
    assert sorted(rows) == sorted(HOOKS)
    assert len(rows) == len(set(rows))


def test_the_reference_table_gives_each_hook_a_signature_a_default_a_time_and_a_limit_column() -> None:
    section = TEXT.split("## 10. Every hook", 1)[1].split("\n## ", 1)[0]
    header = next(line for line in section.splitlines() if line.startswith("| Hook"))
    assert [c.strip() for c in header.strip("|").split("|")] == [
        "Hook",
        "Signature",
        "Default (`BaseSystem`)",
        "When it is called",
        "It must not",
    ]
    tally = next(line for line in section.splitlines() if line.startswith("| `tally`"))
    assert "**before** the event" in tally and "players' view's log lines" in tally


def test_the_field_kinds_table_lists_every_kind() -> None:
    section = TEXT.split("| Kind (`tracker.commands`)", 1)[1].split("\n\n", 1)[0]
    kinds = re.findall(r"^\| `([A-Z]+)` \|", section, flags=re.M)
    assert sorted(kind.lower() for kind in kinds) == sorted(PARAM_KINDS)


def test_the_guide_has_no_page_on_record_internals() -> None:
    assert "tracker.record" not in TEXT and "@record" not in TEXT and "lazy" not in TEXT.lower()


def test_the_toy_is_light_the_way_the_built_ins_are() -> None:
    """Importing the entry point's module imports none of the plug-in but what it says of itself (``about``);
    asking for ``system`` loads it."""
    for system_id in SYSTEMS:
        code = (
            f"import sys, systems.{system_id} as light\n"
            f"print(','.join(sorted(m for m in sys.modules if m.startswith('systems.{system_id}'))))\n"
            "print(light.ABOUT.id == light.system.id, type(light.system).__module__)\n"
        )
        before, same, module = in_new_interpreter(code)
        assert (
            before == f"systems.{system_id},systems.{system_id}.about"
            and same == "True"
            and module == f"systems.{system_id}.plugin"
        )
