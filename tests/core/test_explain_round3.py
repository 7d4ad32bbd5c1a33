"""Why? round 3 (w3 finding 8): a GM adjustment with a note keeps the rule's reading and says the note once."""

from __future__ import annotations

from tests.support import toy
from tracker import Fight
from tracker import commands as C
from tracker.core_rules import core_rule
from tracker.dice import SeededRoller
from tracker.events import Adjusted
from tracker.explain import explain


def adjusted(note: str) -> Fight:
    f = Fight(toy.system, roller=SeededRoller(7))
    f.do(C.AddCombatant(name="Ann", kind="pc", sheet={"hp": 10}))
    f.do(C.Adjust(id="c1", field="hp", value=7, note=note))
    return f


def adjust_seq(f: Fight) -> int:
    (seq,) = [e.seq for e in f.entries if isinstance(e.event, Adjusted)]
    return seq


def test_a_gm_adjustment_with_a_note_keeps_the_rules_reading_and_says_the_note_once() -> None:
    """The note replaced the rule's reading ("The GM's adjustment: potion spilled") and came again as a term."""
    f = adjusted("potion spilled")
    (r,) = explain(f, adjust_seq(f))
    assert r.rule == "GM adjustment" and r.text == core_rule("gm-adjust").text
    assert r.terms == ("Ann's HP: 10 → 7", "set by the GM", "GM's note: potion spilled")
    assert sum(s.count("potion spilled") for s in (r.text, *r.terms)) == 1


def test_a_gm_adjustment_without_a_note_reads_the_same() -> None:
    f = adjusted("")
    (r,) = explain(f, adjust_seq(f))
    assert r.text == core_rule("gm-adjust").text and r.terms == ("Ann's HP: 10 → 7", "set by the GM")
