"""What a plug-in's own tests need, from the installed package: a plug-in checked whole, and scripted fights.

::

    from tracker import AddCombatant
    from tracker.testing import check_plugin, scripted_fight

    def test_my_plugin_passes_the_registry_checks() -> None:
        check_plugin(system)

    def test_a_hit_drops_the_goblin() -> None:
        f = scripted_fight(system, AddCombatant(name="Alice", kind="pc"), AddCombatant(name="Goblin", preset="goblin"),
                           faces=[15, 4], start=True)
        f.do(Hit(actor="c1", target="c2"))

The faces are the dice, in the order the rules roll them; ``f.roller.add(...)``
gives more.  Driving the app with Textual's Pilot needs Textual, which the core
never imports: that helper is :mod:`screens.testing`.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable
from pathlib import Path

from tracker.commands import AddCombatant, StartFight
from tracker.dice import ScriptedRoller
from tracker.fight import Fight
from tracker.plugin import System
from tracker.plugin_check import PluginError, check_system, rule_problems, sample_sheet, sample_value
from tracker.reasons import Rule

__all__ = [
    "PluginError",
    "ScriptedRoller",
    "check_plugin",
    "check_rules",
    "sample_sheet",
    "sample_value",
    "scripted_fight",
]


def check_plugin(system: System) -> None:
    """Every check the registry makes of a plug-in (:mod:`tracker.plugin_check`), its command forms and sample
    combatants included, and its rules table's ids, statements and sources (:func:`check_rules` without the
    book): :class:`PluginError` names each problem."""
    try:
        check_system(system)
    except PluginError as e:
        rules = rule_problems(system)
        raise PluginError("; ".join((str(e), *rules))) from None
    rules = rule_problems(system)
    if rules:
        raise PluginError(f"the system '{system.id}' breaks the plug-in protocol: " + "; ".join(rules))


def check_rules(system: System, book: str | None = None, *, package: str | None = None) -> None:
    """The rules table checked as this repository's tests check the built-in systems' (:class:`PluginError` names
    each problem): what :func:`check_plugin` checks of it (no rule id twice, one-line statements, each ``source``
    in the form ``"<id> l.N"``, ``"<id> l.N–M"``, ``"<id> @N"`` or ``"ruling on "`` one of them); with ``book``,
    the book's text, that each source points inside it (a line of text, not a blank one; an offset inside it);
    and that the system's own code names each rule outside the module that holds its table (the id in quotes,
    or a name the table's module binds the rule to, or ``R.attr`` of a class there), its code being the ``.py``
    files of ``package`` (by default the package the plug-in's class is in; a plug-in of one module, in no
    package, is not searched)."""
    problems = rule_problems(system, book)
    rules = tuple(r for r in system.rules() if isinstance(r, Rule))
    unnamed = _unnamed(package or type(system).__module__.rpartition(".")[0], rules)
    if unnamed:
        problems.append(f"no code of the system names the rules {', '.join(unnamed)} (outside its rules table)")
    if problems:
        raise PluginError(f"the system '{system.id}''s rules table: " + "; ".join(problems))


def _unnamed(package: str, rules: tuple[Rule, ...]) -> list[str]:
    """The ids of ``rules`` that ``package`` names nowhere but in the modules that make Rules."""
    module = importlib.import_module(package) if package else None
    if module is None or not getattr(module, "__file__", None):
        return []
    folder = Path(str(module.__file__)).parent
    ways: dict[str, set[str]] = {r.id: {f'"{r.id}"', f"'{r.id}'"} for r in rules}
    code = []
    for path in sorted(folder.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if "Rule(" not in text:
            code.append(text)
            continue
        name = ".".join((package, *path.relative_to(folder).with_suffix("").parts)).removesuffix(".__init__")
        table = importlib.import_module(name)
        for name, value in vars(table).items():
            if isinstance(value, Rule) and value.id in ways:
                ways[value.id].add(name)
            if isinstance(value, type):  # a namespace of rules (``R.exploding``)
                for attr, rule in vars(value).items():
                    if isinstance(rule, Rule) and rule.id in ways:
                        ways[rule.id].add(f"{name}.{attr}")
    every = "\n".join(code)
    return [
        rule_id
        for rule_id, names in ways.items()
        if not any(re.search(rf"(?<![\w.]){re.escape(n)}(?!\w)", every) for n in names)
    ]


def scripted_fight(system: System, *combatants: AddCombatant, faces: Iterable[int] = (), start: bool = False) -> Fight:
    """A fight of ``system`` whose dice are ``faces`` (a :class:`ScriptedRoller`), with ``combatants`` added in
    order (ids ``c1``, ``c2``… as added) and, with ``start``, the fight started (``StartFight``: no initiative is
    rolled first, so the order is the system's ``default_order``)."""
    fight = Fight(system, roller=ScriptedRoller(list(faces)))
    for add in combatants:
        fight.do(add)
    if start:
        fight.do(StartFight())
    return fight
