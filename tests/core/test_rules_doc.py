"""#47: every rules table is well formed and its pages are the code's.

For every installed system (and the toy): ``docs/rules/<id>.md`` is what ``python3 -m tracker.rules_doc``
makes now; each rule's source points inside its book (the seed text in ``../shared/seeds/`` is opened when
present: a line ``l.N`` exists and is not blank, an offset ``@N`` is inside the text; a ``ruling on …``
names such a place); each rule id is named by the system's own code outside the module that holds its table.
(The four built-in systems' tables are written in their own branches: on a branch without them these tests
fail for those systems, by design.)
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tracker import registry, rules_doc
from tracker.explain import CORE_RULES
from tracker.plugin import System
from tracker.reasons import Rule
from tracker.testing import check_rules

ROOT = Path(__file__).resolve().parents[2]
SEEDS = ROOT.parent / "shared" / "seeds"
BOOKS = {"bnb": "000_*.txt", "blackjack": "001_*.txt", "zludge": "002_*.txt", "twod6": "003_*.txt"}
OWN_BOOKS = {"toy": ROOT / "systems" / "toy" / "book.md"}
SYSTEMS = ("toy", *(e.id for e in registry.available()))
PLACE = re.compile(r"(?P<sys>[a-z0-9_]+) (?:l\.(?P<lo>\d+)(?:[–-](?P<hi>\d+))?|@(?P<at>\d+))")


def system(system_id: str) -> System:
    return registry.load(system_id)


def book(system_id: str) -> str | None:
    """The system's book as text, or None when it is not on this machine (CI has no seeds)."""
    if system_id in OWN_BOOKS:
        return OWN_BOOKS[system_id].read_text(encoding="utf-8")
    found = sorted(SEEDS.glob(BOOKS.get(system_id, "-"))) if SEEDS.is_dir() else []
    return found[0].read_text(encoding="utf-8") if found else None


def place_problem(source: str, system_id: str, text: str | None) -> str | None:
    """What is wrong with a book place (``bnb l.138``, ``twod6 @54545``), or None."""
    found = PLACE.fullmatch(source)
    if found is None or found["sys"] != system_id:
        return f"{source!r} is not '{system_id} l.N', '{system_id} l.N–M' or '{system_id} @N'"
    if text is None:
        return None  # the format is checked; the book is not on this machine
    if found["at"] is not None:
        return None if int(found["at"]) < len(text) else f"{source}: the book has {len(text)} characters"
    lines = text.splitlines()
    for n in filter(None, (found["lo"], found["hi"])):
        if not 1 <= int(n) <= len(lines) or not lines[int(n) - 1].strip():
            return f"{source}: line {n} is not a line of text in the book ({len(lines)} lines)"
    return None


def source_problem(rule: Rule, system_id: str, text: str | None) -> str | None:
    if rule.source.startswith("ruling on "):
        return place_problem(rule.source.removeprefix("ruling on "), system_id, text)
    return place_problem(rule.source, system_id, text)


# -- the pages ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("system_id", SYSTEMS)
def test_the_committed_page_is_what_the_generator_makes_now(system_id: str) -> None:
    made = rules_doc.system_page(system(system_id))
    page = ROOT / "docs" / "rules" / f"{system_id}.md"
    assert page.is_file(), f"docs/rules/{system_id}.md is missing: run {rules_doc.MAKER}"
    assert page.read_text(encoding="utf-8") == made, f"docs/rules/{system_id}.md is stale: run {rules_doc.MAKER}"


def test_the_core_page_is_what_the_generator_makes_now_and_lists_every_core_rule() -> None:
    text = (ROOT / "docs" / "rules" / "core.md").read_text(encoding="utf-8")
    assert text == rules_doc.core_page()
    for r in CORE_RULES:
        assert f"| `{r.id}` | {r.name} | core |" in text


def test_the_check_mode_finds_a_stale_page(tmp_path: Path) -> None:
    assert rules_doc.main(["--out", str(tmp_path), "systems.toy.plugin:system"]) == 0
    assert rules_doc.main(["--check", "--out", str(tmp_path), "systems.toy.plugin:system"]) == 0
    page = tmp_path / "toy.md"
    page.write_text(page.read_text().replace("A d20 of 10 or more hits.", "A d20 of 12 or more hits."))
    assert rules_doc.main(["--check", "--out", str(tmp_path), "systems.toy.plugin:system"]) == 1


def test_a_page_lists_each_rule_with_its_source_and_statement() -> None:
    page = rules_doc.system_page(system("toy"))
    assert "| `attack` | Attack roll | toy l.6 | A d20 of 10 or more hits. |" in page
    assert "[core.md](core.md)" in page


# -- the tables ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("system_id", SYSTEMS)
def test_the_rules_table_has_rules_with_unique_ids_and_one_line_statements(system_id: str) -> None:
    rules = system(system_id).rules()
    assert rules, f"{system_id} has no rules table"
    ids = [r.id for r in rules]
    assert len(ids) == len(set(ids)), f"{system_id}: repeated ids"
    for r in rules:
        assert r.id and r.name and r.text and "\n" not in r.text, r


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_each_rules_source_points_inside_its_book(system_id: str) -> None:
    text = book(system_id)
    problems = [f"{r.id}: {p}" for r in system(system_id).rules() if (p := source_problem(r, system_id, text))]
    assert not problems, "\n".join(problems)


def test_the_source_check_can_fail() -> None:
    text = "one\n\nthree\n"
    assert place_problem("toy l.1", "toy", text) is None
    assert place_problem("toy l.2", "toy", text) is not None  # a blank line
    assert place_problem("toy l.9", "toy", text) is not None
    assert place_problem("toy @11", "toy", text) is not None
    assert place_problem("toy @3", "toy", text) is None
    assert place_problem("toy p.3", "toy", None) is not None  # the format is checked without the book
    assert place_problem("bnb l.3", "toy", None) is not None
    rule = Rule(id="x", name="X", source="ruling on toy l.2", text="t")
    assert source_problem(rule, "toy", text) is not None
    assert source_problem(Rule(id="x", name="X", source="ruling: as we like it", text="t"), "toy", None)


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_each_rule_id_is_named_by_the_systems_code_outside_its_table(system_id: str) -> None:
    """What ``tracker.testing.check_rules`` checks for an outside plug-in, for the built-in ones (without the
    book: test_each_rules_source_points_inside_its_book does that here)."""
    assert tuple(system(system_id).rules()), f"{system_id} has no rules table"
    check_rules(system(system_id))
