"""Why? round 3 (w3 finding 6): the "do the treated wounds reopen?" prompt names its rule, Reopened wounds
(l.133), not only the core's "Prompt"."""

from __future__ import annotations

from systems.zludge import system
from systems.zludge.commands import FirstAid, MarkWound, RollSkill
from systems.zludge.contest import Contest
from systems.zludge.table import R
from tests.systems.zludge.helpers import F, add, new_fight, script
from tracker import Fight
from tracker.events import Event, PromptRaised
from tracker.reasons import Reason


def why(f: Fight, event: Event) -> tuple[Reason, ...]:
    i = next(n for n, e in enumerate(f.entries) if e.event is event)
    return system.explain(f.log.state_at(i), event, f.log.state_at(i + 1))


def treated_alice() -> tuple[Fight, str, str]:
    """Alice (Medical 2, Athletics 1) with a Very Hurt wound treated by her own first aid; Bob (Athletics 3)."""
    f = new_fight()
    a = add(f, "Alice", skills="Medical 2, Athletics 1")
    b = add(f, "Bob", kind="npc", skills="Athletics 3")
    f.do(MarkWound(target=a, level=2))
    script(f, F(0))
    f.do(FirstAid(actor=a, target=a))
    return f, a, b


def reopen_reason(f: Fight, events: list) -> Reason:
    (p,) = [e for e in events if isinstance(e, PromptRaised)]
    assert p.prompt.kind == "reopen"
    rs = why(f, p)
    (r,) = [r for r in rs if r.rule_id == R.reopen.id]
    assert (r.rule, r.source) == ("Reopened wounds", "zludge l.133")
    return r


def test_the_reopen_prompt_after_a_failed_physical_skill_roll_names_its_rule() -> None:
    f, a, _b = treated_alice()
    script(f, F(-4))
    r = reopen_reason(f, f.do(RollSkill(actor=a, skill="Athletics")))
    assert r.terms == (
        "Alice failed a physical check (a skill roll, or a lost physical contest: a contest is a check, l.21)",
        "1 treated wound: penalty −1 now",
        "reopened: full penalties again, −2",
    )


def test_the_reopen_prompt_after_a_lost_physical_contest_names_its_rule() -> None:
    f, a, b = treated_alice()
    script(f, F(-2), F(1))
    r = reopen_reason(f, f.do(Contest(actor=a, target=b, skill="Athletics")))
    assert r.terms[1:] == ("1 treated wound: penalty −1 now", "reopened: full penalties again, −2")
