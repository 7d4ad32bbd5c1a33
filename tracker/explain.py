"""Why: the rules behind every logged event, with their sources and the terms that went in.

The records are :class:`~tracker.reasons.Rule` and :class:`~tracker.reasons.Reason` (re-exported here).
"""

from __future__ import annotations

from tracker.reasons import Reason, Rule, cites

__all__ = ["Reason", "Rule", "cites"]
