"""The records of "Why": a rule as the project reads it, and a rule applied to one event.

A plug-in keeps one rules table (:meth:`~tracker.plugin.BaseSystem.rules`: each :class:`Rule` by id, with
its name, where its book says it and the project's own one-line statement of it) and explains each of its
events (:meth:`~tracker.plugin.BaseSystem.explain`) as :class:`Reason` s: a rule of the table applied to
this event, with the terms that went in (each die face, each modifier and where it came from).  Reasons are
derived from the events themselves, so a fight saved by an earlier version explains too.

:func:`tracker.explain.explain` is the one entry point (``tracker.explain(fight, seq)``).  This module is a
leaf (attrs only), so the errors and the plug-in protocol can name rules without an import cycle.
"""

from __future__ import annotations

import attrs


@attrs.frozen
class Rule:
    """One rule as the project reads it.

    ``source`` names the book and its place: ``"bnb l.138"`` (a line of the line-numbered books),
    ``"twod6 @54545"`` (a character offset of 2d6 Gamma), or ``"ruling: …"`` for a reading the project made
    where the book is unclear (the ruling itself names the book's place it reads, e.g.
    ``"ruling on bnb l.138"``); ``"core"`` for the tracker's own rules (turn order, undo).
    ``text`` is the project's own one-line statement of the rule, never the book's sentences.
    """

    id: str
    name: str
    source: str
    text: str


@attrs.frozen
class Reason:
    """One rule applied to one event: the rule's name, its source, its statement, and the terms that went in."""

    rule: str
    source: str
    text: str
    terms: tuple[str, ...] = ()
    rule_id: str = ""

    @classmethod
    def of(cls, rule: Rule, *terms: str, text: str = "") -> Reason:
        """``rule`` applied with these terms (``text`` replaces the rule's statement when the case needs
        its own words, e.g. the GM's note)."""
        return cls(rule=rule.name, source=rule.source, text=text or rule.text, terms=tuple(terms), rule_id=rule.id)

    def line(self) -> str:
        """One line: ``Rule name (source): text``."""
        return f"{self.rule} ({self.source}): {self.text}"


def cites(rule: Rule | None) -> str:
    """How a refusal names the rule behind it: `` — Rule name, source`` (empty without a rule)."""
    return "" if rule is None else f" — {rule.name}, {rule.source}"
