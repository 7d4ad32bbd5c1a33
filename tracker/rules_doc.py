"""``docs/rules/<system>.md``: each system's rules table (and the core's) as a page, made from the code.

    python3 -m tracker.rules_doc              # write docs/rules/core.md and a page per installed system
    python3 -m tracker.rules_doc --check      # exit 1 when a committed page differs from what is made now
    python3 -m tracker.rules_doc systems.toy.plugin:system    # a plug-in not installed, by module:attribute

The pages are the repository's own account of how each book is read: the code's tables are the one
source; the tests fail when a committed page differs (``tests/core/test_rules_doc.py``).  Plug-ins are
reached through the registry (or the ``module:attribute`` given), never imported by name here.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Iterable, Sequence
from functools import reduce
from pathlib import Path

from tracker import registry
from tracker.explain import CORE_RULES
from tracker.plugin import BookCondition, System
from tracker.reasons import Rule

OUT = Path("docs") / "rules"
MAKER = "python3 -m tracker.rules_doc"
SOURCES = (
    "A source names the book and its place: `l.N` a line of the book's text (`l.N–M` several), `@N` a "
    "character offset into it, `ruling on …` a reading the project made where the book is unclear (it names "
    "the place it reads), `core` the tracker's own rule."
)


def _cell(text: str) -> str:
    return " ".join(str(text).replace("|", "\\|").split())


def _table(rules: Iterable[Rule]) -> list[str]:
    out = ["| Id | Rule | Source | What the tracker does |", "|---|---|---|---|"]
    out += [f"| `{r.id}` | {_cell(r.name)} | {_cell(r.source)} | {_cell(r.text)} |" for r in rules]
    return out


def _conditions(conditions: Sequence[BookCondition]) -> list[str]:
    out = ["", "## Conditions the book names", "", "| Condition | Source | Effect | Rounds | Automated |"]
    out.append("|---|---|---|---|---|")
    for c in conditions:
        rounds = "-" if c.rounds is None else str(c.rounds)
        auto = "yes" if c.automated else "no (the GM applies it)"
        out.append(f"| {_cell(c.name)} | {_cell(c.source)} | {_cell(c.effect)} | {rounds} | {auto} |")
    return out


def core_page() -> str:
    lines = [
        "# The tracker's own rules",
        "",
        f"Generated from `tracker.explain.CORE_RULES` by `{MAKER}`; do not edit by hand.",
        "",
        "What every system shares: turn order and rounds, initiative and ties, held actions, conditions and "
        "their expiry, the GM's own acts (adjustments, rulings, quick damage, notes) and undo. "
        "`Y` on any log line shows which of these, and which of the system's rules, made it.",
        "",
        *_table(CORE_RULES),
        "",
    ]
    return "\n".join(lines)


def system_page(system: System) -> str:
    rules = tuple(system.rules())
    lines = [
        f"# {system.name}: the rules as this tracker reads them",
        "",
        f"Generated from the rules table of the `{system.id}` plug-in (its `rules()`) by `{MAKER}`; "
        "do not edit by hand.",
        "",
        f"{SOURCES} Each statement is the project's own one-line reading, never the book's words. "
        "The tracker's own rules (turn order, conditions, undo) are in [core.md](core.md); "
        "`Y` on any log line shows the rules that made it, with every term that went in.",
        "",
    ]
    lines += _table(rules) if rules else ["(This system's rules table is empty.)"]
    conditions = tuple(system.conditions())
    if conditions:
        lines += _conditions(conditions)
    lines.append("")
    return "\n".join(lines)


def pages(systems: Iterable[System]) -> dict[str, str]:
    """File name → text: ``core.md`` and one page per system."""
    out = {"core.md": core_page()}
    for s in systems:
        out[f"{s.id}.md"] = system_page(s)
    return out


def _system(name: str) -> System:
    if ":" not in name:
        return registry.load(name)
    module, _, attr = name.partition(":")
    obj = reduce(getattr, attr.split("."), importlib.import_module(module))
    return obj() if isinstance(obj, type) else obj


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog=MAKER, description="Write docs/rules/<system>.md from the rules tables.")
    ap.add_argument("systems", nargs="*", help="ids (default: every installed system) or module:attribute")
    ap.add_argument("--out", type=Path, default=OUT, help=f"the folder (default {OUT})")
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 if a page differs")
    args = ap.parse_args(argv)
    names = args.systems or [e.id for e in registry.available()]
    made = pages(_system(n) for n in names)
    stale = []
    for name, text in made.items():
        path = args.out / name
        if args.check:
            if not path.is_file() or path.read_text(encoding="utf-8") != text:
                stale.append(str(path))
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")
    for path in stale:
        print(f"{path} differs from the rules table: run {MAKER}", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
