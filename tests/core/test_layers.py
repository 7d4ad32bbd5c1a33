"""The core imports no Textual and no plug-in; listing systems imports none of them."""

from __future__ import annotations

import ast
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


def _imports(path: Path, name: str, modules: set[str]) -> set[str]:
    """The modules of ``modules`` that the module ``name`` (at ``path``) imports anywhere: at the top, inside a
    function, under ``TYPE_CHECKING``; ``from pkg import sub`` counts as importing ``pkg.sub``."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parent = ".".join(parts[: len(parts) - node.level + 1])
                base = f"{parent}.{base}" if base else parent
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base)
    return {m for m in found if m in modules and m != name}


def _module_graph(packages: tuple[str, ...]) -> dict[str, set[str]]:
    paths: dict[str, Path] = {}
    for package in packages:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            paths[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return {name: _imports(path, name, set(paths)) for name, path in paths.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle (as a path) through each strongly connected group of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(group)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    out = []
    for group in groups:
        start = min(group)
        path, seen = [start], {start}
        while True:  # walk inside the group until a module comes round again
            nxt = min(w for w in graph[path[-1]] if w in group)
            if nxt in seen:
                out.append([*path[path.index(nxt) :], nxt])
                break
            path.append(nxt)
            seen.add(nxt)
    return out


def test_the_cycle_finder_finds_a_cycle_hidden_in_a_function(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "a.py").write_text("from pkg.b import f\n")
    (tmp_path / "pkg" / "b.py").write_text("def f():\n    from pkg import a\n")
    names = {"pkg", "pkg.a", "pkg.b"}
    graph = {
        "pkg": set(),
        "pkg.a": _imports(tmp_path / "pkg" / "a.py", "pkg.a", names),
        "pkg.b": _imports(tmp_path / "pkg" / "b.py", "pkg.b", names),
    }
    assert _cycles(graph) == [["pkg.a", "pkg.b", "pkg.a"]]


def test_the_cycle_finder_finds_a_cycle_made_only_for_the_type_checker(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.a import x\n"
    )
    (tmp_path / "pkg" / "a.py").write_text("from pkg import y\n")
    names = {"pkg", "pkg.a"}
    graph = {
        "pkg": _imports(tmp_path / "pkg" / "__init__.py", "pkg", names),
        "pkg.a": _imports(tmp_path / "pkg" / "a.py", "pkg.a", names),
    }
    assert _cycles(graph) == [["pkg", "pkg.a", "pkg"]]


def test_no_import_cycle_among_all_the_modules_not_even_inside_a_function_or_for_the_type_checker() -> None:
    """One module imports another only one way round: an import inside a function or under TYPE_CHECKING counts.
    (The fight screen's actions name it by the protocol ``screens.host.FightHost``; a plug-in's ``ABOUT`` is in its
    own ``about.py``, read by the package and by ``plugin.py``.)"""
    graph = _module_graph(("tracker", "saves", "systems", "screens"))
    assert {"tracker.log", "saves.checkpoint", "systems.bnb.plugin", "screens.fight"} <= set(graph)
    assert _cycles(graph) == []
