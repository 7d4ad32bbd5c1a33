"""Why? round 3 (w3 findings 5 and 6): a tripled blow's extra result says "tripled", and the "choose a second
result" prompt names its rule (Doubled / Tripled attack, the declared result landing at once)."""

from __future__ import annotations

from typing import Any

from systems.twod6 import system
from systems.twod6.commands import ChooseDouble
from systems.twod6.events import EffectApplied, Wounded
from systems.twod6.table import R
from tests.systems.twod6.helpers import DUMMY, FIGHTER, attack, of, setup
from tracker import Fight
from tracker.events import PromptRaised
from tracker.reasons import Reason


def why(f: Fight, event: Any) -> tuple[Reason, ...]:
    i = next(n for n, e in enumerate(f.entries) if e.event is event)
    return system.explain(f.log.state_at(i), event, f.log.state_at(i + 1))


def rule(rs: tuple[Reason, ...], r: Any) -> Reason:
    (found,) = [x for x in rs if x.rule_id == r.id]
    return found


def tripled() -> tuple[Fight, list]:
    """Ann (attacks at +4) against Bob (defends at +0): 5+5+4 = 14 vs 1+2 = 3, tripled; 'wound' lands."""
    f, roller = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    return f, attack(f, roller, (5, 5, 1, 2), "c1", "c2")


def test_the_extra_result_of_a_tripled_blow_is_the_tripled_blows() -> None:
    f, _events = tripled()
    (w,) = of(f.do(ChooseDouble(actor="c1", target="c2", choice="wound")), Wounded)
    rs = why(f, w)
    by = "by Ann's tripled blow (as doubled): its extra result, chosen after the roll"
    assert rule(rs, R.WOUNDS).terms[-1] == by
    assert rule(rs, R.DOUBLE).terms == (by,) and rule(rs, R.TRIPLE).terms == (by,)
    assert not any("doubled blow" in t for r in rs for t in r.terms)

    f, _events = tripled()
    (e,) = of(f.do(ChooseDouble(actor="c1", target="c2", choice="disarm")), EffectApplied)
    rs = why(f, e)
    said = "Bob: disarm by Ann, the tripled blow's extra result (as doubled), chosen after the roll"
    assert rule(rs, R.DOUBLE).terms == (said,) and rule(rs, R.TRIPLE).terms == (said,)


def test_a_doubled_blows_extra_result_still_says_doubled() -> None:
    f, roller = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    attack(f, roller, (5, 5, 2, 3), "c1", "c2", result="distract")  # 14 vs 5: doubled
    (w,) = of(f.do(ChooseDouble(actor="c1", target="c2", choice="wound")), Wounded)
    rs = why(f, w)
    assert rule(rs, R.WOUNDS).terms[-1] == "by Ann's doubled blow: its extra result, chosen after the roll"
    assert R.TRIPLE.id not in {r.rule_id for r in rs}


def test_the_choose_a_second_result_prompt_names_its_rule() -> None:
    """The prompt explained only with the core "Prompt (core)" reason."""
    f, events = tripled()
    (p,) = [e for e in events if isinstance(e, PromptRaised) and e.prompt.kind == "double"]
    rs = why(f, p)
    beat = "Ann's attack 14 is at least three times Bob's defense"
    assert rule(rs, R.TRIPLE).terms == (beat, "as doubled: the extra result is chosen here")
    assert rule(rs, R.DOUBLE).terms[0] == beat
    assert rule(rs, R.DOUBLE_LANDS).terms == ("'wound' has landed at once; only the extra choice waits",)

    f, roller = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    events = attack(f, roller, (5, 5, 2, 3), "c1", "c2")  # 14 vs 5: doubled
    (p,) = [e for e in events if isinstance(e, PromptRaised) and e.prompt.kind == "double"]
    rs = why(f, p)
    assert rule(rs, R.DOUBLE).terms[0] == "Ann's attack 14 is at least twice Bob's defense"
    assert R.TRIPLE.id not in {r.rule_id for r in rs}
