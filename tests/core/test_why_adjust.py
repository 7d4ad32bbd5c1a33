"""Why? in the log's own words: a GM adjustment reads as its log line (labels, yes/no, "none", a combatant's
name, not "grappled_by: None → 'c1'"), and a prompt closed by something other than the action it asked for
names what closed it (a heal closing a death save was "resolved by Death save")."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tracker import Fight, registry
from tracker import commands as C
from tracker import events as E
from tracker.dice import ScriptedRoller, SeededRoller
from tracker.explain import explain
from tracker.model import NPC, PC
from tracker.testing import sample_sheet


def fight(system_id: str) -> tuple[Fight, str]:
    """Two NPCs (Outlaw 1 is c1) and a PC, Hero, whose id is returned; the fight started."""
    system = registry.load(system_id)
    f = Fight(system, roller=SeededRoller(3))
    f.do(C.AddCombatant(name="Outlaw", kind=NPC, sheet=sample_sheet(system, NPC), count=2))
    f.do(C.AddCombatant(name="Hero", kind=PC, sheet=sample_sheet(system, PC)))
    f.do(C.RollInitiative())
    f.do(C.StartFight())
    hero = next(c.id for c in f.state.combatants if c.name == "Hero")
    return f, hero


def terms(f: Fight, seq: int) -> list[str]:
    return [t for r in explain(f, seq) for t in r.terms]


def line(f: Fight, seq: int) -> str:
    index = next(i for i in range(len(f.log)) if f.log.entry(i).seq == seq)
    return f.log.describe(index)


ADJUSTS: list[tuple[str, str, Any, str]] = [
    ("bnb", "hp", 1, "Hero's HP: 5 → 1"),
    ("bnb", "acted", True, "Hero's Has acted this round: no → yes"),
    ("twod6", "grappled_by", "c1", "Hero's Grappled by: none → Outlaw 1"),
    ("twod6", "prone", True, "Hero's Prone: no → yes"),
    ("zludge", "wound_track", "0..|..|.|.|.", "Hero's Wound boxes: ...|..|.|.|. → 0..|..|.|.|."),
    ("zludge", "weapon_skill", "Melee", "Hero's Weapon skill: Unarmed → Melee"),
    ("blackjack", "injury_list", "moderate", "Hero's Injuries: (empty) → moderate injury"),
    ("blackjack", "acc_marks", 1, "Hero's ACC marks: 0 → 1"),
]


@pytest.mark.parametrize(("system_id", "field", "value", "said"), ADJUSTS, ids=[f"{a[0]}-{a[1]}" for a in ADJUSTS])
def test_a_gm_adjustment_reads_as_its_log_line_in_every_system(
    system_id: str, field: str, value: Any, said: str
) -> None:
    """It read "Hero's grappled_by: None → 'c1'" beside the log's "GM sets Hero's Grappled by: none → Bandit 1"."""
    f, hero = fight(system_id)
    f.do(C.Adjust(id=hero, field=field, value=value, note="the GM's call"))
    seq = f.entries[-1].seq
    assert isinstance(f.entries[-1].event, E.Adjusted)
    got = terms(f, seq)
    assert got == [said, "set by the GM", "GM's note: the GM's call"]
    assert line(f, seq) == f"GM sets {said} (the GM's call)"  # the same words as the log line
    text = " ".join(got)
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), text  # no snake_case at all
    raw = r"\bc\d+\b|(?<![A-Za-z])'|\bNone\b|\bTrue\b|\bFalse\b"  # a combatant's id, a Python value
    assert not re.search(raw, text), text


def test_a_core_field_adjustment_reads_as_its_log_line() -> None:
    f, hero = fight("bnb")
    f.do(C.Adjust(id=hero, field="group", value="Posse"))  # (initiative is set as E sets it: its own line)
    seq = f.entries[-1].seq
    assert terms(f, seq)[0] == line(f, seq).removeprefix("GM sets ") == "Hero's group: none → Posse"


def resolved(f: Fight) -> int:
    return next(e.seq for e in reversed(f.entries) if isinstance(e.event, E.PromptResolved))


def test_a_prompt_closed_by_healing_names_the_healing_not_the_death_save() -> None:
    """bnb: Hero at -9 HP (a death-save prompt), then healed above 0: the prompt closes with no death save.  It was
    explained "resolved by Death save" then "healed above 0 HP: no death save"."""
    f, hero = fight("bnb")
    f.do(C.Damage(targets=(hero,), amount="10"))
    assert [p.command for p in f.state.prompts] == ["death_save"]
    f.do(C.Heal(targets=(hero,), amount="10"))
    assert not f.state.prompts
    seq = resolved(f)
    heal = next(e.seq for e in f.entries if e.action == f.entries[-1].action)
    got = terms(f, seq)
    assert not any("Death save" in t or "death_save" in t for t in got), got
    assert f"closed by event {heal}: {line(f, heal)}" in got
    assert "Hero regains 10 HP" in line(f, heal)
    assert got[-1] == "healed above 0 HP: no death save"


def test_a_prompt_closed_by_a_removal_names_the_removal() -> None:
    f, hero = fight("bnb")
    f.do(C.Damage(targets=(hero,), amount="10"))
    f.do(C.RemoveCombatant(id=hero, reason="carried off"))
    got = terms(f, resolved(f))
    assert not any("resolved by" in t for t in got), got
    assert any(t.startswith("closed by event ") and "Hero" in t for t in got), got


def test_a_prompt_its_own_action_closed_is_resolved_by_that_action() -> None:
    """The death save made: the prompt names it by its log line, with the event that made it."""
    f, hero = fight("bnb")
    f.do(C.Damage(targets=(hero,), amount="10"))
    (prompt,) = f.state.prompts
    spec = next(s for s in f.system.commands() if s.name == prompt.command)
    f.do(spec.build(**prompt.params), ScriptedRoller([15]))
    seq = resolved(f)
    save = next(e.seq for e in f.entries if e.action == f.entries[-1].action)
    got = terms(f, seq)
    assert f"closed by event {save}: {line(f, save)}" in got, got
    assert "saves vs death" in line(f, save), line(f, save)


def test_a_gms_ruling_on_a_prompt_is_still_the_gms_ruling() -> None:
    f, hero = fight("bnb")
    f.do(C.Damage(targets=(hero,), amount="10"))
    (prompt,) = f.state.prompts
    f.do(C.DismissPrompt(prompt_id=prompt.id, outcome="lives", note="a miracle"))
    (r,) = [r for r in explain(f, resolved(f)) if r.rule == "GM's ruling"]
    assert r.terms[1:] == ("outcome picked: lives", "GM's note: a miracle")
