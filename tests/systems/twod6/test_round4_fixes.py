"""Round 4 fixes (r2 audit, twod6 finding 2): a doubled knock-out's prompt said "'unconscious' has landed" while
only its resolve check (DC = the attack total) was open; it now says the result waits on that check."""

from __future__ import annotations

from systems.twod6.commands import ChooseDouble, Resolve
from systems.twod6.events import EffectApplied
from systems.twod6.table import R
from tests.systems.twod6.helpers import DUMMY, FIGHTER, attack, data, of, prompts, setup, sheet
from tests.systems.twod6.test_why_round3 import rule, why
from tracker.events import PromptRaised

DEF = sheet(skills="Resolve 1")


def _double(events: list) -> PromptRaised:
    (p,) = [e for e in events if isinstance(e, PromptRaised) and e.prompt.kind == "double"]
    return p


def test_a_doubled_knock_out_prompt_says_only_its_check_is_raised() -> None:
    """r2 T12: 4+4+4 = 12 against 3+3 = 6, doubled, declared 'unconscious': Bob is not out until he fails."""
    f, roller = setup(("Ann", FIGHTER), ("Bob", DEF))
    events = attack(f, roller, (4, 4, 3, 3), "c1", "c2", result="unconscious")
    text = _double(events).prompt.text
    assert "has landed" not in text
    assert text.startswith(
        "Ann doubled Bob's defense and 'unconscious' waits on Bob's DC 12 resolve check "
        "(it lands only if the check fails): choose a second result"
    )
    assert not data(f, "c2").unconscious and sorted(prompts(f)) == [("double", "c2"), ("resolve", "c2")]
    rs = why(f, _double(events))
    assert rule(rs, R.DOUBLE_LANDS).terms == (
        "'unconscious' raised its resolve check at once, DC 12 (the attack's total): Bob falls only if it fails; "
        "only the extra choice waits",
    )
    assert "the defender falls only if it fails" in R.DOUBLE_LANDS.text
    # only a failed check puts Bob out
    f.do(ChooseDouble(actor="c1", target="c2", choice="disarm"))
    roller.add(6, 4)  # 10 + 1 Resolve = 11 < 12: fails
    f.do(Resolve(actor="c2", stakes="unconscious"))
    assert data(f, "c2").unconscious


def test_a_tripled_knock_out_prompt_says_it_comes_with_the_tripled_check() -> None:
    f, roller = setup(("Ann", FIGHTER), ("Bob", DEF))
    events = attack(f, roller, (5, 5, 1, 2), "c1", "c2", result="unconscious")  # 14 vs 3: tripled
    text = _double(events).prompt.text
    assert text.startswith(
        "Ann tripled Bob's defense and 'unconscious' lands with the tripled blow's resolve check, pass or fail "
        "(Bob is out either way): choose a second result"
    )
    rs = why(f, _double(events))
    assert rule(rs, R.DOUBLE_LANDS).terms == (
        "'unconscious' comes with the tripled blow's resolve check: Bob is out, pass or fail",
    )


def test_results_that_land_at_once_still_say_they_have_landed() -> None:
    for result, effect in (("trip", "trip"), ("disarm", "disarm"), ("distract", "distract"), ("shove", "shove")):
        f, roller = setup(("Ann", FIGHTER), ("Bob", DUMMY))
        events = attack(f, roller, (4, 4, 3, 3), "c1", "c2", result=result)
        assert [e.effect for e in of(events, EffectApplied)] == [effect]
        assert f"Ann doubled Bob's defense and '{result}' has landed: " in _double(events).prompt.text
    f, roller = setup(("Ann", FIGHTER), ("Bob", DUMMY))
    events = attack(f, roller, (4, 4, 3, 3), "c1", "c2")
    assert "Ann doubled Bob's defense and 'wound' has landed: choose a second result (wound again" in (
        _double(events).prompt.text
    )
