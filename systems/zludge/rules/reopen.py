"""Treated wounds reopened by a failed physical check (l.133; rule ``reopen``): the prompt the GM answers.

A failed physical skill roll, or a lost physical contest (a contest is a check, l.21), by someone with treated
wounds raises the prompt; the GM answers with reopen_wounds, or rules it (the wounds reopen / they hold).
"""

from __future__ import annotations

from tracker.events import PromptRaised
from tracker.kit import prompt
from tracker.model import Combatant

from ..events import SkillRolled
from ..model import ZludgeData
from ..table import R, applies

REOPEN = "reopen"
REOPENS, HOLD = "the wounds reopen", "they hold"  # the reopen prompt settled by ruling


def treated(d: ZludgeData) -> bool:
    return any(b.treated for b in d.wounds)


@applies(R.reopen)
def reopen_due(d: ZludgeData, ev: SkillRolled) -> bool:
    """A failed physical check by someone with treated wounds: the GM says whether they reopen."""
    return ev.physical and not ev.success and treated(d)


def reopen_prompt(actor: Combatant) -> PromptRaised:
    return prompt(
        REOPEN,
        f"{actor.name} failed a physical check: do the treated wounds reopen?",
        actor.id,
        command="reopen_wounds",
        params={"target": actor.id},
        outcomes=(REOPENS, HOLD),
    )
