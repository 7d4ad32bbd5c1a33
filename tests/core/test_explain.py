"""#47: ``tracker.explain(fight, seq)`` — every core event explains itself (the core's rules table), then the
system's reasons; live fights, replayed logs, fights opened from a checkpoint and files saved before reasons
existed all explain the same way, read from the events (nothing rolled)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

import saves
import tracker
from tests.support import toy
from tracker import Fight
from tracker import commands as C
from tracker.core_rules import core_rule
from tracker.dice import SeededRoller
from tracker.events import CORE_EVENTS
from tracker.explain import CORE_RULES, explain, standing_seq
from tracker.reasons import Reason
from tracker.replay import Timeline

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "format1"


def played() -> Fight:
    """A toy fight whose log holds every core event type (given these commands, then these events)."""
    f = Fight(toy.system, roller=SeededRoller(7))
    f.do(C.NameFight(name="Bridge"))
    f.do(C.AddCombatant(name="Ann", kind="pc", sheet={"hp": 10}))
    f.do(C.AddCombatant(name="Gob", kind="npc", sheet={"hp": 4}, hidden=True))
    f.do(C.AddCombatant(name="Bob", kind="pc", sheet={"hp": 8}))
    f.do(C.RenameCombatant(id="c3", name="Bert"))
    f.do(C.RollInitiative(ids=()))
    f.do(C.SetInitiative(values={"c1": 12, "c3": 12}))  # a tie
    f.do(C.MoveInOrder(id="c2", position=0))
    f.do(C.Reveal(ids=("c2",)))
    f.do(C.Hide(ids=("c2",)))
    f.do(C.SetDiceMode(typed=False) if f.state.typed_dice else C.SetDiceMode(typed=True))
    f.do(C.SetDiceMode(typed=False))
    f.do(C.SetView(npc_numbers=True, npc_names=False, dice=True))
    f.do(C.StartFight())
    f.do(C.AddCombatant(name="Dan", kind="npc", sheet={"hp": 5}))
    f.do(C.RollInitiative(ids=("c4",)))  # a newcomer takes its place by initiative
    f.do(C.AddCondition(id="c1", name="Dazed", rounds=1))
    f.do(C.AddCondition(id="c3", name="Blessed"))
    f.do(C.RemoveCondition(id="c3", name="Blessed"))
    f.do(C.Adjust(id="c1", field="hp", value=7, note="potion spilled"))
    f.do(C.Note(text="the bridge creaks", id="c1"))
    f.do(C.Damage(targets=("c1", "c3"), amount="1d2", one_roll=True))  # the bridge's rail: one roll for both
    f.do(C.Damage(targets=("c2",), amount="2d6+4"))  # Gob drops: the down prompt
    pid = f.state.prompts[0].id
    f.do(C.DismissPrompt(prompt_id=pid, outcome="stays down", note="he fell in the river"))
    while f.state.current == "c1" or f.system.takes_turns(f.state, f.state.get(f.state.current)) is False:
        f.do(C.NextTurn())  # (not the down Gob: the fallen cannot act now; not Ann: her word stays as she joined)
    f.do(C.Delay(id=f.state.current))
    held = next(c.id for c in f.state.combatants if c.held)
    f.do(C.ActNow(id=held))
    for _ in range(6):
        f.do(C.NextTurn())
    f.do(C.RollInitiative(ids=(), reroll=True))
    f.do(C.NextTurn())
    f.do(C.RemoveCombatant(id="c2", reason="swept away"))
    f.undo()
    f.redo()
    f.do(C.EndFight(note="they cross"))
    return f


@pytest.fixture(scope="module")
def fight() -> Fight:
    return played()


def seqs(fight: Fight, type_: type) -> list[int]:
    return [e.seq for e in fight.entries if type(e.event) is type_]


def text(reasons: tuple[Reason, ...]) -> str:
    return "\n".join(f"{r.rule} | {r.source} | {r.text} | {' ; '.join(r.terms)}" for r in reasons)


def test_the_package_exports_explain() -> None:
    assert tracker.explain is explain


def test_every_core_event_type_is_logged_and_explained_by_a_core_rule(fight: Fight) -> None:
    seen = {type(e.event) for e in fight.entries}
    assert set(CORE_EVENTS) <= seen, [t.__name__ for t in CORE_EVENTS if t not in seen]
    for entry in fight.entries:
        if type(entry.event) in CORE_EVENTS:
            reasons = explain(fight, entry.seq)
            assert any(r.source == "core" and r.terms for r in reasons), (entry, reasons)


def test_every_core_rule_is_reached_by_the_scenario(fight: Fight) -> None:
    used = {r.rule_id for e in fight.entries for r in explain(fight, e.seq) if r.source == "core"}
    missing = {r.id for r in CORE_RULES} - used - {"rest"}  # rest: the test below (the toy has no rest rules)
    assert not missing


def test_rest_and_quick_harm_are_the_cores_reasons_a_plugin_gives() -> None:
    from tracker.dice import Roll
    from tracker.explain import quick_harm, rest

    r = rest(hours=8, days=1, note="camp")
    assert (r.rule, r.source) == ("Rest", "core") and r.terms == ("time passed: 1 day and 8 hours", "GM's note: camp")
    roll = Roll(expr="2d6+1", label="x", faces=(3, 4), kept=(3, 4), modifier=1, total=8)
    h = quick_harm(roll, "Gob", amount=8)
    assert h.terms == ("harm to Gob (the GM's)", "amount: 2d6+1, faces 3, 4", "modifier +1", "total 8")


def test_an_undo_names_the_action_it_took_back_and_the_undone_action_says_so(fight: Fight) -> None:
    (undo,) = seqs(fight, tracker.events.Undone)
    got = text(explain(fight, undo))
    assert "Undo | core |" in got and "Gob leaves the fight: swept away" in got
    (redo,) = seqs(fight, tracker.events.Redone)
    assert "Redo | core |" in text(explain(fight, redo))


def test_a_gm_adjustment_is_the_gms_with_its_note(fight: Fight) -> None:
    (seq,) = seqs(fight, tracker.events.Adjusted)
    (r,) = explain(fight, seq)
    assert r.rule == "GM adjustment" and r.text == core_rule("gm-adjust").text  # the rule's reading; the note once
    assert r.terms == ("Ann's HP: 10 → 7", "set by the GM", "GM's note: potion spilled")  # the log line's words


def test_a_settled_prompt_is_the_gms_ruling_with_the_outcome_and_note(fight: Fight) -> None:
    (seq,) = seqs(fight, tracker.events.PromptResolved)
    got = text(explain(fight, seq))
    assert "GM's ruling | core | The GM's ruling: he fell in the river" in got
    assert "outcome picked: stays down" in got and "GM's note: he fell in the river" in got


def test_quick_damage_gives_the_gms_harm_with_the_amount_and_its_dice(fight: Fight) -> None:
    seq = seqs(fight, toy.HpChanged)[-1]  # (the first two: the one roll for Ann and Bert)
    got = text(explain(fight, seq))
    assert re.search(r"Quick damage and healing \| core \| .*harm to Gob \(the GM's\) ; amount: 2d6\+4, faces", got)


def test_a_condition_that_runs_out_says_when_and_why(fight: Fight) -> None:
    (seq,) = [
        e.seq for e in fight.entries if type(e.event) is tracker.events.ConditionRemoved and e.event.reason == "expired"
    ]
    got = text(explain(fight, seq))
    assert "Condition expiry | core |" in got and "Ann: Dazed" in got and "it lasted 1 round: to the end of" in got


def test_order_and_initiative_give_each_roll_and_each_place(fight: Fight) -> None:
    first = seqs(fight, tracker.events.InitiativeSet)[0]
    got = text(explain(fight, first))
    assert "Initiative | core |" in got and re.search(r"faces \d+", got) is not None and "Initiative | toy l.5 |" in got
    moved = [e.seq for e in fight.entries if type(e.event) is tracker.events.OrderSet and "GM moved" in e.event.note]
    assert "The GM's order | core |" in text(explain(fight, moved[0]))


def test_the_system_reasons_follow_the_cores(fight: Fight) -> None:
    (seq,) = [e.seq for e in fight.entries if type(e.event) is tracker.events.PromptRaised]
    reasons = explain(fight, seq)
    assert [r.source for r in reasons] == ["core", "toy l.8"]


def test_a_replayed_log_explains_as_the_live_fight(fight: Fight, tmp_path: Path) -> None:
    timeline = Timeline(toy.system, list(fight.entries))
    for entry in fight.entries:
        assert explain(timeline, entry.seq) == explain(fight, entry.seq)


def test_an_unknown_seq_is_a_key_error(fight: Fight) -> None:
    with pytest.raises(KeyError):
        explain(fight, 10_000)


def test_a_fight_saved_before_reasons_existed_explains(tmp_path: Path) -> None:
    """The format-1 toy file (written before #47): every line explains, its attacks with the toy's rules."""
    path = tmp_path / "old.jsonl"
    shutil.copy(FIXTURES / "toy.jsonl", path)
    timeline = saves.load(path).timeline()
    explained = [explain(timeline, e.seq) for e in timeline.entries]
    assert all(explained)
    hits = [r for rs in explained for r in rs if r.rule == "Attack roll"]
    assert hits and all(r.source == "toy l.6" and r.terms[0].startswith("d20: 1d20, faces ") for r in hits)


def test_a_fight_opened_from_a_checkpoint_explains_its_oldest_lines(tmp_path: Path) -> None:
    from bench.fights import make_fight

    path = tmp_path / "long.jsonl"
    make_fight("toy", 700, path, seed=3).close()  # long enough for a checkpoint (every 200 actions)
    opened = saves.open_fight(path)
    try:
        whole = saves.load(path).timeline()
        for seq in (1, 2, 350, len(whole)):
            assert explain(opened, seq) == explain(whole, seq)
    finally:
        opened.close()


def test_the_event_that_set_a_standing_word_is_found(fight: Fight) -> None:
    """Gob went down to quick damage (his 'down' word); Ann never changed hers after she joined."""
    f = played()
    seq = standing_seq(f, "c1")
    assert seq == 2  # Ann joined (fit) and stayed so
    g = Fight(toy.system, roller=SeededRoller(1))
    g.do(C.AddCombatant(name="Gob", kind="npc", sheet={"hp": 4}))
    g.do(C.Damage(targets=("c1",), amount="9"))
    g.do(C.Note(text="later"))
    down = standing_seq(g, "c1")
    assert down is not None and type(g.entries[down - 1].event) is toy.HpChanged
    g.undo()
    g.undo()
    # an undo is no cause, nor the action it took back: he is fit as he joined (it pointed at the undo)
    assert standing_seq(g, "c1") == 1
    assert standing_seq(g, "nobody") is None


def test_a_standing_word_is_explained_by_its_cause_not_by_an_undo() -> None:
    """Rook went comatose to a shot, died to a later blow, and the GM undid the death, redid, undid it again:
    "Why is Rook comatose?" showed the undo of the blow that killed him."""
    g = Fight(toy.system, roller=SeededRoller(1))
    g.do(C.AddCombatant(name="Gob", kind="npc", sheet={"hp": 4}))
    g.do(C.Damage(targets=("c1",), amount="9"))  # down
    shot = max(e.seq for e in g.entries if type(e.event) is toy.HpChanged)
    g.do(C.Adjust(id="c1", field="hp", value=4))  # up again
    g.do(C.Damage(targets=("c1",), amount="9"))  # down again
    again = max(e.seq for e in g.entries if type(e.event) is toy.HpChanged)
    g.undo()
    g.redo()
    assert standing_seq(g, "c1") == again  # redone: it stands
    g.undo()
    g.undo()  # the adjust too: down, as the first damage left him
    assert standing_seq(g, "c1") == shot
    assert type(g.entries[shot - 1].event) is toy.HpChanged


def test_the_first_surprise_turn_names_everyone_passed_over_before_it() -> None:
    """ "passed over: Doc (not in the surprise round)" left out Slim, first in the order: the first turn of the
    fight counts from the top of the order."""
    from tracker import AddCombatant, Fight, SetInitiative, StartFight, explain
    from tracker.events import TurnStarted

    f = Fight(toy.system)
    for name in ("Slim", "Doc", "Tex"):
        f.do(AddCombatant(name=name, kind="pc", sheet={"hp": 5}))
    f.do(SetInitiative(values={"c1": 20, "c2": 15, "c3": 10}))
    f.do(StartFight(surprise=("c3",)))
    seq = next(e.seq for e in f.entries if isinstance(e.event, TurnStarted))
    (turn,) = [r for r in explain(f, seq) if r.rule_id == "turn-order"]
    passed = [t for t in turn.terms if t.startswith("passed over")]
    assert passed == ["passed over: Slim (not in the surprise round)", "passed over: Doc (not in the surprise round)"]


def test_round_one_says_the_fight_started_or_the_surprise_round_ended() -> None:
    """Round 1's Why said "the turn passed the bottom of the order" when no turn had been taken."""
    from tracker import AddCombatant, Fight, NextTurn, SetInitiative, StartFight, explain
    from tracker.events import RoundStarted

    def round_terms(surprise: tuple[str, ...]) -> dict[int, list[str]]:
        f = Fight(toy.system)
        for name in ("Slim", "Doc"):
            f.do(AddCombatant(name=name, kind="pc", sheet={"hp": 5}))
        f.do(SetInitiative(values={"c1": 20, "c2": 15}))
        f.do(StartFight(surprise=surprise))
        for _ in range(4):
            f.do(NextTurn())
        return {
            e.event.round: list(next(r for r in explain(f, e.seq) if r.rule_id == "round").terms)
            for e in f.entries
            if isinstance(e.event, RoundStarted)
        }

    plain = round_terms(())
    assert plain[1] == ["the fight starts", "round 1"]
    assert plain[2] == ["the turn passed the bottom of the order", "round 2"]
    surprised = round_terms(("c2",))
    assert surprised[0][:2] == ["the surprise round", "round 0"]
    assert surprised[1] == ["the surprise round is over", "round 1"]


def test_an_undone_line_names_the_undo_that_stands_and_undo_names_lines_by_event() -> None:
    """An action undone, redone and undone again was said taken back by the first undo (one later redone), and
    undo and redo named "action 13", a number no screen shows."""
    from tracker import AddCombatant, Damage, Fight, explain
    from tracker.events import Redone, Undone

    f = Fight(toy.system)
    f.do(AddCombatant(name="Slim", kind="pc", sheet={"hp": 9}))
    f.do(Damage(targets=("c1",), amount="2"))
    hit = f.entries[-1].seq
    f.undo()
    f.redo()
    f.undo()
    undos = [e.seq for e in f.entries if isinstance(e.event, Undone)]
    (said,) = [r for r in explain(f, hit) if r.rule_id == "undo"]
    assert said.terms == (f"this action was taken back later (event {undos[-1]}), after it was done again",)
    (took,) = [r for r in explain(f, undos[0]) if r.rule_id == "undo"]
    assert took.terms[0].startswith(f"took back event {hit}: ") and "action" not in took.terms[0]
    redo = next(e.seq for e in f.entries if isinstance(e.event, Redone))
    (again,) = [r for r in explain(f, redo) if r.rule_id == "redo"]
    assert again.terms[0].startswith(f"did again event {hit}: ")
