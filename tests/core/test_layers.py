"""The core imports no Textual and no plug-in; listing systems imports none of them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

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
