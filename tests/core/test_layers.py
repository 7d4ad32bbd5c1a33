"""The core imports no Textual and no plug-in; listing systems imports none of them; the no-cycle contract holds
every package and sees cycles however hidden."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _modules_after(code: str) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-c", code + "\nimport sys; print('\\n'.join(sys.modules))"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    ).stdout
    return set(out.split())


def test_the_core_and_saves_import_no_textual_no_screens_no_systems() -> None:
    mods = _modules_after("import tracker, tracker.engine, tracker.replay, tracker.registry, saves, saves.export")
    leaked = {m for m in mods if m.split(".")[0] in ("textual", "screens", "systems", "rich")}
    assert leaked == set()


def test_listing_systems_imports_none_of_them() -> None:
    mods = _modules_after("from tracker import registry; assert registry.available()")
    assert not any(m.startswith("systems.") for m in mods)


def test_no_core_module_names_a_system_or_textual() -> None:
    bad = []
    for path in (ROOT / "tracker").rglob("*.py"):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            s = line.strip()
            if s.startswith(("import ", "from ")) and s.split()[1].split(".")[0] in ("textual", "screens", "systems"):
                bad.append(f"{path.name}:{number}: {s}")
    assert bad == []


CYCLES = {  # a package whose two modules import each other, each way round hidden in its own way
    "in a function": ("from pkg.b import f\n", "def f():\n    from pkg import a\n"),
    "for the type checker": (
        "from pkg.b import f\n",
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import a\ndef f(): ...\n",
    ),
}


def _contract(name: str) -> dict[str, Any]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    return next(c for c in config["contracts"] if c["name"] == name)


def test_the_no_cycle_contract_covers_every_package() -> None:
    """``lint-imports`` (run by tests/test_quality.py) keeps it: no module imports another both ways round, not
    even through their packages (siblings, at every depth)."""
    contract = _contract("No import cycles")
    assert contract["type"] == "acyclic_siblings"
    assert sorted(contract["ancestors"]) == ["saves", "screens", "systems", "tracker"]
    assert "depth" not in contract and "ignore_imports" not in contract


@pytest.mark.parametrize("how", sorted(CYCLES))
def test_the_no_cycle_contract_sees_a_cycle_hidden(how: str, tmp_path: Path) -> None:
    a, b = CYCLES[how]
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "a.py").write_text(a)
    (tmp_path / "pkg" / "b.py").write_text(b)
    contract = {**_contract("No import cycles"), "ancestors": ["pkg"]}
    lines = ['[tool.importlinter]\nroot_packages = ["pkg"]\n\n[[tool.importlinter.contracts]]']
    lines += [f"{key} = {value!r}".replace("'", '"') for key, value in contract.items()]
    (tmp_path / "li.toml").write_text("\n".join(lines) + "\n")
    exe = shutil.which("lint-imports") or str(Path(sys.executable).with_name("lint-imports"))
    r = subprocess.run(
        [exe, "--no-cache", str(tmp_path / "li.toml")],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
    )
    assert r.returncode == 1 and "No import cycles BROKEN" in r.stdout, r.stdout + r.stderr
    assert ".b -> .a" in r.stdout
