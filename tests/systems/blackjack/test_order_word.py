"""A number the GM sets in blackjack's order (E, or a GM adjust) is logged in the system's word: "Hero order 17
(set by GM)", not "initiative" (the book has no initiative; the table says "Order", the detail pane "order 17").
Other systems keep "initiative"; an older line, written without the word, reads as it did."""

from __future__ import annotations

from pathlib import Path

import pytest

import saves
from saves.export import recap
from tests.ui.drive import build_fight
from tracker import commands as C
from tracker import events as E


@pytest.mark.parametrize(("sid", "word"), [("blackjack", "order"), ("bnb", "initiative"), ("twod6", "initiative")])
def test_a_set_number_is_logged_in_the_systems_word(tmp_path: Path, sid: str, word: str) -> None:
    path = tmp_path / "f.jsonl"
    fight = build_fight(sid, path, start=False)
    c = fight.state.present[0]
    fight.do(C.SetInitiative(values={c.id: 17}))
    fight.close()
    assert f"{c.name} {word} 17 (set by GM)" in recap(saves.load(path))


def test_an_older_line_without_the_word_reads_initiative() -> None:
    old = saves.load(Path(__file__).parents[2] / "fixtures" / "format1" / "bnb.jsonl")
    rolled = [x.event for x in old.entries if isinstance(x.event, E.InitiativeSet)]
    assert rolled and all(e.word == "initiative" for e in rolled)
    assert "Hero 1 initiative 3 (" in recap(old)


def test_why_says_the_order_number_in_the_systems_word(tmp_path: Path) -> None:
    """Why? on "Hero order 17 (set by GM)" read "Hero: initiative 17" (audit a14 g2, F5)."""
    from tracker.explain import explain

    fight = build_fight("blackjack", tmp_path / "f.jsonl", start=False)
    c = fight.state.present[0]
    fight.do(C.SetInitiative(values={c.id: 17}))
    seq = next(x.seq for x in reversed(fight.entries) if isinstance(x.event, E.InitiativeSet))
    terms = [t for r in explain(fight, seq) for t in r.terms]
    fight.close()
    assert f"{c.name}: order 17" in terms, terms


def test_why_on_the_order_after_e_in_a_running_fight_is_the_gms_numbers_not_newcomers(tmp_path: Path) -> None:
    """The order line after E in a running fight was explained as "Joining a running fight" (audit a14 w2, F4)."""
    from tracker.explain import explain

    fight = build_fight("blackjack", tmp_path / "f.jsonl")
    first, second = fight.state.present[0], fight.state.present[1]
    fight.do(C.SetInitiative(values={first.id: 4, second.id: 17}))
    seq = next(x.seq for x in reversed(fight.entries) if isinstance(x.event, E.OrderSet))
    rules = [r.rule_id for r in explain(fight, seq)]
    fight.close()
    assert "newcomers" not in rules and "initiative" in rules, rules
