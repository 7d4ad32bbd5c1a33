"""What a plug-in author outside this repository gets from the installed package: the core's types (py.typed,
checked by mypy against a plug-in of their own), tracker.testing (scripted fights, the registry's checks; no
Textual) and screens.testing (the Pilot driver)."""

from __future__ import annotations

import subprocess
import sys
import venv
from pathlib import Path

import pytest

from systems.toy.commands import Hit
from systems.toy.plugin import ToySystem, system
from systems.toy.sheet import data
from tests.support import in_new_interpreter
from tracker import AddCombatant
from tracker.reasons import Rule
from tracker.testing import PluginError, check_plugin, check_rules, scripted_fight

ROOT = Path(__file__).resolve().parents[2]

OUTSIDE_PLUGIN = """\
from tracker.model import Combatant, FightState
from tracker.plugin import BaseSystem


class Odd(BaseSystem[int]):
    id = "odd"

    def status(self, state: FightState, combatant: Combatant) -> str:
        return combatant.hit_points  # no such attribute: mypy must say so


system: int = Odd()  # not an int: mypy must say so
"""


def built_package(into: Path) -> Path:
    """The files a wheel of this project ships (setuptools' build_py, as ``pip install .`` builds them)."""
    code = "import setuptools; setuptools.setup(script_args=['-q', 'build_py', '-d', __import__('sys').argv[1]])"
    subprocess.run([sys.executable, "-c", code, str(into)], cwd=ROOT, check=True, capture_output=True)
    return into


def test_the_core_ships_py_typed_and_the_testing_modules(tmp_path: Path) -> None:
    lib = built_package(tmp_path / "lib")
    assert (lib / "tracker" / "py.typed").exists()
    assert (lib / "tracker" / "testing.py").exists() and (lib / "screens" / "testing.py").exists()


def test_mypy_checks_a_plugin_outside_this_repository_against_the_installed_core(tmp_path: Path) -> None:
    lib = built_package(tmp_path / "lib")
    env = tmp_path / "env"
    venv.create(env, system_site_packages=True, with_pip=False)
    python = env / "bin" / "python"
    site = Path(
        subprocess.run(
            [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    (lib / "tracker").rename(site / "tracker")  # installed as pip installs it: the venv's own, before any other
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "odd_plugin.py").write_text(OUTSIDE_PLUGIN)
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--python-executable", str(python), "--cache-dir", str(tmp_path / "cache")]
        + ["--no-incremental", "odd_plugin.py"],
        cwd=outside,
        capture_output=True,
        text=True,
    )
    said = run.stdout
    assert "missing library stubs or py.typed marker" not in said, said
    assert '"Combatant" has no attribute "hit_points"' in said, said
    assert 'expression has type "Odd", variable has type "int"' in said, said


def test_a_scripted_fight_adds_the_combatants_starts_and_rolls_the_faces_given() -> None:
    f = scripted_fight(
        system, AddCombatant(name="Alice", kind="pc"), AddCombatant(name="Goblin", preset="goblin"), faces=[15, 4]
    )
    assert [c.name for c in f.state.combatants] == ["Alice", "Goblin"] and not f.state.started
    f = scripted_fight(
        system,
        AddCombatant(name="Alice", kind="pc"),
        AddCombatant(name="Goblin", preset="goblin"),
        faces=[15, 4],
        start=True,
    )
    assert f.state.started and f.state.current == "c1"
    f.do(Hit(actor="c1", target="c2"))
    assert data(f.state.get("c2")).hp == 0 and [p.kind for p in f.state.prompts] == ["down"]
    assert f.roller.exhausted  # type: ignore[attr-defined]


def test_check_plugin_makes_every_check_the_registry_makes() -> None:
    check_plugin(system)

    class Misspelt(ToySystem):
        def standings(self) -> None: ...

    with pytest.raises(PluginError, match=r"standings is not a hook; did you mean standing\?"):
        check_plugin(Misspelt())


class Reruled(ToySystem):
    """The toy with a rule given twice (over two lines, at a page number), and one its code never names."""

    def rules(self) -> tuple[Rule, ...]:
        return (
            *super().rules(),
            Rule(id="attack", name="Attack again", source="toy p.99", text="two\nlines"),
            Rule(id="unused", name="Never named", source="The Toy, page 3", text="x"),
            Rule(id="far", name="Far away", source="ruling on toy l.999", text="x"),
        )


def test_check_plugin_checks_the_rules_table_s_ids_statements_and_sources() -> None:
    """The guide said "the tests check that each source points inside the book and that the system's code names
    each rule", but only this repository's own tests did: a repeated id and malformed sources passed."""
    with pytest.raises(PluginError) as caught:
        check_plugin(Reruled())
    said = str(caught.value)
    assert "the rules table gives the rule 'attack' twice" in said
    assert "the rule 'attack''s statement is more than one line" in said
    assert (
        "the rule 'attack''s source 'toy p.99' is not 'toy l.N', 'toy l.N–M' or 'toy @N' (or 'ruling on' one)" in said
    )
    assert "the rule 'unused''s source 'The Toy, page 3' is not" in said
    assert "'far'" not in said  # (the form is right; without the book, not where it points)


def test_check_rules_checks_the_book_and_that_the_code_names_each_rule() -> None:
    book = (ROOT / "systems" / "toy" / "book.md").read_text(encoding="utf-8")
    check_rules(system, book)
    with pytest.raises(PluginError) as caught:
        check_rules(Reruled(), book, package="systems.toy")
    said = str(caught.value)
    assert "the rule 'far''s source toy l.999: line 999 is not a line of text in the book" in said
    assert "no code of the system names the rules unused, far (outside its rules table)" in said
    assert "the rules table gives the rule 'attack' twice" in said


def test_tracker_testing_imports_no_textual_and_screens_testing_drives_the_app() -> None:
    loaded = in_new_interpreter(
        "import sys, tracker.testing; print(any(m == 'textual' or m.startswith('textual.') for m in sys.modules))"
    )
    assert loaded == ["False"]
    from screens import testing

    assert {"new_fight", "press", "type_text", "fill", "submit_form", "error_text", "answer_faces", "sync"} <= set(
        testing.__all__
    )
