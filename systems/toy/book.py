"""The toy's rules table: every rule its deciders apply, by id, with its place in the book (``book.md``).

``docs/rules/toy.md`` is made from it; the deciders and :mod:`systems.toy.why` name the rules by id.
"""

from __future__ import annotations

from tracker.reasons import Rule

RULES: tuple[Rule, ...] = (
    Rule(id="initiative", name="Initiative", source="toy l.5", text="Initiative is 1d20 plus the initiative bonus."),
    Rule(id="attack", name="Attack roll", source="toy l.6", text="A d20 of 10 or more hits."),
    Rule(id="damage", name="Damage", source="toy l.7", text="A hit deals its damage dice in HP (1d6 unless given)."),
    Rule(id="down", name="Down", source="toy l.8", text="At 0 HP or fewer a combatant is down; the GM decides."),
    Rule(id="shrug", name="Shrugging it off", source="toy l.9", text="A downed combatant may get up at 1 HP."),
    Rule(
        id="hit-points",
        name="Hit points",
        source="toy l.10",
        text="Harm takes HP away; healing gives them back, never above the most.",
    ),
    Rule(id="no-attack-down", name="Down: no attacks", source="toy l.11", text="A downed combatant cannot attack."),
)
_BY_ID = {r.id: r for r in RULES}


def rule(rule_id: str) -> Rule:
    """The toy's rule ``rule_id``."""
    return _BY_ID[rule_id]
