"""Fixing a mistake as the GM meant (review gm3): a core value adjusted to itself, an initiative adjust that leaves
the order, the undo of a removal named by the turn it moved on, damage named at the wrong line, a forged kind."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import saves
from saves.checker import check
from saves.format import seal
from tests.ui.drive import build_fight
from tracker import commands as C
from tracker import events as E
from tracker.engine import fold
from tracker.errors import Refused
from tracker.fight import Fight
from tracker.log import describe_action

FIXTURES = Path(__file__).parent.parent / "fixtures"


def _with_redo(tmp_path: Path) -> Fight:
    """A bnb fight (Bear, Black 1 and 2 at 19, Hero at 3) with two actions to redo."""
    f = build_fight("bnb", tmp_path / "bnb.jsonl")
    f.do(C.NextTurn())
    f.do(C.NextTurn())
    f.undo()
    f.undo()
    assert f.can_redo
    return f


def _refused_and_kept(f: Fight, command: object, words: str) -> None:
    before = len(f.log)
    with pytest.raises(Refused, match=words):
        f.do(command)
    assert len(f.log) == before  # nothing logged
    assert f.can_redo  # and the undone actions can still be redone


def test_a_core_value_adjusted_to_itself_is_refused_and_keeps_redo(tmp_path: Path) -> None:
    f = _with_redo(tmp_path)
    hero = f.state.by_name("Hero")
    assert hero is not None
    _refused_and_kept(f, C.Adjust(id=hero.id, field="name", value="Hero"), "Hero's name is already 'Hero'")
    _refused_and_kept(f, C.Adjust(id=hero.id, field="group", value=""), "Hero's group is already None")
    _refused_and_kept(f, C.Adjust(id=hero.id, field="initiative", value="3"), "Hero's initiative is already 3")
    _refused_and_kept(f, C.Adjust(id=hero.id, field="kind", value="pc"), "Hero is already a PC")
    f.do(C.Adjust(id=hero.id, field="group", value="Posse"))
    assert f.state.get(hero.id).group == "Posse"
    f.undo()


def test_a_rename_to_the_same_name_is_refused_and_keeps_redo(tmp_path: Path) -> None:
    f = _with_redo(tmp_path)
    bear = f.state.by_name("Bear, Black 1")
    assert bear is not None
    # the same name, or one that only looks the same (a joiner, a fullwidth letter, spaces): refused
    for same in ("Bear, Black 1", "  Bear,  Black 1 ", "Bear, Black 1\u200d", "Ｂear, Black 1"):
        _refused_and_kept(f, C.RenameCombatant(id=bear.id, name=same), "name is already 'Bear, Black 1'")
        _refused_and_kept(f, C.Adjust(id=bear.id, field="name", value=same), "name is already 'Bear, Black 1'")
    # a change of case is a change the GM can see
    f.do(C.RenameCombatant(id=bear.id, name="bear, black 1"))
    assert f.state.get(bear.id).name == "bear, black 1"


def test_an_initiative_adjust_reslots_the_order_as_e_does(tmp_path: Path) -> None:
    f = build_fight("bnb", tmp_path / "bnb.jsonl")
    s = f.state
    hero = s.by_name("Hero")
    assert hero is not None and hero.initiative == 3 and s.order[-1] == hero.id and s.round == 1
    by_e = fold(f.system, f.decide(C.SetInitiative(values={hero.id: 25})), s)
    f.do(C.Adjust(id=hero.id, field="initiative", value="25"))
    assert f.state.get(hero.id).initiative == 25
    assert f.state.order == by_e.order == (hero.id, *s.order[:-1])  # Hero before the two bears at 19
    assert f.state.ties == by_e.ties and f.state.current == s.current  # the turn stays with the bear
    # E with the same number is refused: there is nothing left to put right
    with pytest.raises(Refused, match="no initiative changed"):
        f.do(C.SetInitiative(values={hero.id: 25}))
    # round 1's turn for Hero has passed (as E has it); in round 2 Hero acts first
    while f.state.round == 1:
        f.do(C.NextTurn())
    assert f.state.current == hero.id


def test_an_initiative_adjust_keeps_the_gms_why(tmp_path: Path) -> None:
    f = build_fight("bnb", tmp_path / "bnb.jsonl")
    hero = f.state.by_name("Hero")
    assert hero is not None
    f.do(C.Adjust(id=hero.id, field="initiative", value=25, note="typo"))
    events = [e.event for e in f.log.loaded[-2:]]
    assert isinstance(events[0], E.InitiativeSet) and events[0].note == "set by GM: typo"
    assert isinstance(events[1], E.OrderSet)


def test_undo_of_removing_the_current_combatant_names_it(tmp_path: Path) -> None:
    f = build_fight("bnb", tmp_path / "bnb.jsonl")
    current = f.state.current
    assert current is not None
    name = f.state.name(current)
    f.do(C.RemoveCombatant(id=current, reason="removed by the GM"))
    step = f.log.last_step()
    assert step is not None
    # the log keeps its order (the turn moves on, then the removal) ...
    assert isinstance(step.events[0], E.TurnEnded) and isinstance(step.events[-1], E.CombatantRemoved)
    # ... but the action is named by the removal
    words = f"{name} leaves the fight: removed by the GM; {name} ends the turn"
    assert step.describe().startswith(words)
    action = step.action
    f.undo()
    assert f.describe_action(action).startswith(words)
    undo_line = len(f.log) - 1
    assert f.log.describe(undo_line).startswith(f"undone: {words}")


def test_actions_without_a_removal_are_named_as_before(tmp_path: Path) -> None:
    f = build_fight("bnb", tmp_path / "bnb.jsonl")
    f.do(C.NextTurn())
    step = f.log.last_step()
    assert step is not None
    assert describe_action(step.before, step.events) == "; ".join(ev.describe(step.before) for ev in step.events)


def _lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


def _write(path: Path, records: list[dict]) -> None:
    out = []
    for r in records:
        r = {k: v for k, v in r.items() if k != "crc"}
        out.append(seal(json.dumps(r, separators=(",", ":"), ensure_ascii=False)))
    path.write_text("\n".join(out) + "\n", encoding="utf-8")


def _long_bnb(tmp_path: Path) -> list[dict]:
    """The lines of a bnb fight six turns on."""
    f = build_fight("bnb", tmp_path / "long.jsonl")
    for _ in range(6):
        f.do(C.NextTurn())
    path = Path(f.path)
    f.close()
    return _lines(path)


def _second_of_an_action(records: list[dict], event_type: str | None = None) -> int:
    """The index (line - 1) of the second or later event of an action of several events."""
    for i in range(2, len(records)):
        a, b = records[i - 1], records[i]
        if "seq" in a and "seq" in b and a["action"] == b["action"] and (event_type in (None, b["type"])):
            return i
    raise AssertionError("no action of several events")


def test_an_event_out_of_sequence_inside_an_action_is_named_at_its_line(tmp_path: Path) -> None:
    records = _long_bnb(tmp_path)
    i = _second_of_an_action(records)
    records[i]["seq"] += 40
    bad = tmp_path / "bad_seq.jsonl"
    _write(bad, records)
    with pytest.raises(saves.LoadError) as caught:
        saves.load(bad)
    assert caught.value.line == i + 1
    assert f"event {records[i]['seq']} out of sequence" in str(caught.value)


def test_an_event_that_does_not_apply_inside_an_action_is_named_at_its_line(tmp_path: Path) -> None:
    records = _long_bnb(tmp_path)
    i = _second_of_an_action(records, "turn_started")
    records[i]["event"]["id"] = "c99"
    bad = tmp_path / "bad_turn.jsonl"
    _write(bad, records)
    with pytest.raises(saves.LoadError) as caught:
        saves.load(bad)
    assert caught.value.line == i + 1
    assert f"event {records[i]['seq']} does not apply" in str(caught.value)


def test_a_forged_kind_is_refused_at_its_line(tmp_path: Path) -> None:
    records = _long_bnb(tmp_path)
    i = next(n for n, r in enumerate(records) if r.get("type") == "combatant_added" and r["event"]["kind"] == "pc")
    records[i]["event"]["kind"] = "\u202egm"
    bad = tmp_path / "bad_kind.jsonl"
    _write(bad, records)
    for read in (saves.load, check):
        with pytest.raises(saves.LoadError, match="kind must be one of pc, npc") as caught:
            read(bad)
        assert caught.value.line == i + 1
        assert "\u202e" not in str(caught.value)
    with pytest.raises(ValueError, match="kind must be one of"):
        E.CombatantAdded(id="c9", name="X", kind="gm")


@pytest.mark.parametrize("fixture", sorted((FIXTURES / "format1").glob("*.jsonl")), ids=lambda p: p.stem)
def test_every_kind_the_app_writes_still_loads(fixture: Path) -> None:
    kinds = {r["event"]["kind"] for r in _lines(fixture) if r.get("type") == "combatant_added"}
    assert kinds and kinds <= {"pc", "npc"}
    assert saves.load(fixture).fight().state.combatants


def test_a_new_place_across_the_turn_says_so(tmp_path: Path) -> None:
    """bnb: Hero (3) moved to 25 while a bear at 19 has the turn has no turn left this round; moved back to 1 in
    round 2 after acting, Hero comes up a second time.  Both happened without a word; the order line says so."""
    f = build_fight("bnb", tmp_path / "bnb.jsonl")
    hero = f.state.by_name("Hero")
    assert hero is not None and f.state.current != hero.id
    f.do(C.Adjust(id=hero.id, field="initiative", value="25"))
    order_line = f.log.describe(len(f.log) - 1)
    assert "Hero now acts before the turn in play: no turn left this round" in order_line, order_line
    while f.state.current != hero.id:  # round 2: Hero first
        f.do(C.NextTurn())
    f.do(C.NextTurn())  # Hero has acted; a bear has the turn
    f.do(C.Adjust(id=hero.id, field="initiative", value="1"))
    order_line = f.log.describe(len(f.log) - 1)
    said = "Hero now comes after the turn in play: a turn this round (a second if it has acted)"
    assert said in order_line, order_line
    f.do(C.Adjust(id=hero.id, field="initiative", value="30"))  # back before the turn: Hero had not acted again
    assert "turn in play" in f.log.describe(len(f.log) - 1)


def test_a_place_moved_before_the_turn_and_back_claims_no_turn_taken(tmp_path: Path) -> None:
    """Audit g2: a bear moved before the turn in play (18 -> 25) and back (25 -> 18) read "has acted and now comes
    after the turn in play: a second turn this round"; it had not acted, and its first turn came next."""
    f = build_fight("bnb", tmp_path / "bnb.jsonl")
    cur = f.state.current
    assert cur is not None and f.state.order.index(cur) < len(f.state.order) - 1
    bear = f.state.get(f.state.order[f.state.order.index(cur) + 1])  # its turn still to come this round
    was = bear.initiative
    f.do(C.Adjust(id=bear.id, field="initiative", value=str(max(c.initiative or 0 for c in f.state.present) + 5)))
    f.do(C.Adjust(id=bear.id, field="initiative", value=str(was)))
    line = f.log.describe(len(f.log) - 1)
    assert f"{bear.name} now comes after the turn in play: a turn this round" in line, line
    assert "has acted" not in line.replace("if it has acted", ""), line
