"""Errors the tracker reports to the GM in plain words."""


class TrackerError(Exception):
    """Base for every error meant for the GM (shown as one clear line)."""


class Refused(TrackerError):
    """A command the state or the rules do not allow; nothing is logged."""


class UnknownEvent(TrackerError):
    """An event no part of the engine knows how to apply."""
