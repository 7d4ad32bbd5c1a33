"""Errors the tracker reports to the GM in plain words."""

from __future__ import annotations

from tracker.reasons import Rule, cites


class TrackerError(Exception):
    """Base for every error meant for the GM (shown as one clear line)."""


class Refused(TrackerError):
    """A command the state or the rules do not allow; nothing is logged.

    ``rule``, when given, is the rule that refuses it: the message then names it and its source
    ("… — Reload, bnb l.NN"), so a refusal explains itself as a logged decision does.
    """

    def __init__(self, message: str = "", *, rule: Rule | None = None) -> None:
        super().__init__(message + cites(rule))
        self.message = message  # (without the rule's citation)
        self.rule = rule


class UnknownEvent(TrackerError):
    """An event no part of the engine knows how to apply."""
