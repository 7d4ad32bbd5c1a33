"""An NPC's "Deficient in" counts in every save it makes (audit r2, finding 1).

Book l.239: "When the NPC must make a save (including shooting a firearm), they must save under or equal to their
Threat + 8. If an NPC would be deficient in something, divide their Threat in half first (rounding up) before
adding 8." The sheet's phrases were matched only when the NPC attacked; resisting a working, the save form,
Arguin's keep-face save and a save against another NPC's special rolled at Threat + 8 whatever the sheet said.
Ruling (``systems/blackjack/checks.py:deficient_in``): a phrase counts when its words are among what the save
tests: the stat, the weapon or special and its tags, "working" and the working, the purpose typed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import saves
from saves.format import seal
from systems.blackjack import system
from systems.blackjack.commands import Argue, Attack, CastWorking, IngestLead, MakeSave
from systems.blackjack.events import ArguinRound, AttackMade, SaveRolled
from systems.blackjack.show import detail
from systems.blackjack.table import R
from tests.systems.blackjack.helpers import data, new_fight, npc, of_type, pc
from tracker import Fight
from tracker.commands import AddCombatant
from tracker.model import NPC


def _saves(events: list[Any]) -> list[tuple[int, str, bool]]:
    """Each save logged: its limit, the sheet's phrase that halved it, and whether it succeeded."""
    out = []
    for e in events:
        s = e.save if isinstance(e, (SaveRolled, AttackMade)) else None
        if s is not None:
            out.append((s.limit, s.deficient, s.success))
    return out


def _why(f: Fight, since: int, type_name: str) -> list[dict[str, list[str]]]:
    """The reasons of each logged event of ``type_name`` since entry ``since``: rule id → its terms."""
    out = []
    for i in range(since, len(f.entries)):
        ev = f.entries[i].event
        if type(ev).__name__ == type_name:
            reasons = system.explain(f.log.state_at(i), ev, f.log.state_at(i + 1))
            out.append({r.rule_id: list(r.terms) for r in reasons})
    return out


def _hex_fight(deficiencies: str) -> tuple[Fight, str, str]:
    """Witchy (1 lead ingested) and a Threat 4 Brute; the dice: the working's d6 1, then the Brute's d20 11."""
    f = new_fight(1, 11)
    w = pc(f, "Witchy", ctrl=14, workings="Hex 1", lead=4)
    b = npc(f, "Brute", threat=4, deficiencies=deficiencies)
    f.do(IngestLead(actor=w, amount=1))
    return f, w, b


@pytest.mark.parametrize("deficiencies", ["CTRL", "Control", "working", "Hex", "workings, firearm"])
def test_an_npc_deficient_in_ctrl_or_the_working_resists_it_at_half_threat(deficiencies: str) -> None:
    """Threat 4 deficient: ⌈4 ÷ 2⌉ + 8 = 10, so the 11 is over and the Hex takes effect (it was resisted at 12)."""
    f, w, b = _hex_fight(deficiencies)
    ev = f.do(CastWorking(actor=w, working="Hex", target=b))
    phrase = deficiencies.split(",")[0]
    assert _saves(ev) == [(10, phrase, False)]
    assert f.state.get(b).condition("Hexed") is not None


def test_an_npc_deficient_in_something_else_resists_a_working_at_threat_plus_8() -> None:
    f, w, b = _hex_fight("firearm, BODY, Naming")
    ev = f.do(CastWorking(actor=w, working="Hex", target=b))
    assert _saves(ev) == [(12, "", True)]
    assert f.state.get(b).condition("Hexed") is None


def test_why_says_the_deficiency_came_from_the_sheet() -> None:
    f, w, b = _hex_fight("CTRL")
    since = len(f.entries)
    f.do(CastWorking(actor=w, working="Hex", target=b))
    (why,) = _why(f, since, "SaveRolled")
    assert why[R.NPC_SAVE.id] == ["Threat 4, deficient in CTRL (sheet): saves ≤ 10 (⌈4 ÷ 2⌉ + 8)"]
    assert why[R.WORKING_SAVE.id][0] == "Brute resists Hex: ⌈Threat/2⌉+8"


@pytest.mark.parametrize(
    ("deficiencies", "stat", "purpose", "limit"),
    [
        ("CTRL", "CTRL", "", 10),
        ("control", "CTRL", "resist the stare", 10),
        ("nerve", "CTRL", "keep his nerve", 10),
        ("CTRL", "BODY", "dodge", 12),
        ("nerve", "CTRL", "", 12),
    ],
)
def test_the_save_form_reads_the_sheet_without_the_tick(deficiencies: str, stat: str, purpose: str, limit: int) -> None:
    """A save of the stat, or whose purpose names the deficiency, goes at ⌈Threat ÷ 2⌉ + 8 with no tick."""
    f = new_fight(11)
    b = npc(f, "Brute", threat=4, deficiencies=deficiencies)
    ev = f.do(MakeSave(actor=b, stat=stat, purpose=purpose))
    assert [s[0] for s in _saves(ev)] == [limit]
    assert _saves(ev)[0][2] is (limit == 12)


def test_the_save_forms_tick_still_halves_it_and_why_reads_as_before() -> None:
    """The tick with no phrase matched: ⌈Threat ÷ 2⌉ + 8, and Why? says so as it did (no '(sheet)')."""
    f = new_fight(11)
    b = npc(f, "Brute", threat=4, deficiencies="firearm")
    since = len(f.entries)
    ev = f.do(MakeSave(actor=b, stat="CTRL", deficient=True))
    assert _saves(ev) == [(10, "", False)]
    (why,) = _why(f, since, "SaveRolled")
    assert why[R.NPC_SAVE.id] == ["deficient: ⌈4 ÷ 2⌉ + 8 = 10"]


def test_a_social_save_tests_social() -> None:
    f = new_fight(11)
    o = npc(f, "Outlaw", "outlaw")
    b = npc(f, "Brute", threat=4, deficiencies="social")
    ev = f.do(MakeSave(actor=b, stat="CTRL", against=o, dv=-3, social=True, purpose="haggle"))
    assert _saves(ev) == [(10, "social", False)]


@pytest.mark.parametrize("deficiencies", ["CTRL", "face", "social", "Arguin'"])
def test_an_npc_deficient_in_ctrl_keeps_face_at_half_threat(deficiencies: str) -> None:
    """Defend beats attack: the NPC loses the round and its keep-face CTRL save goes at ⌈4 ÷ 2⌉ + 8 = 10."""
    f = new_fight(11)
    d = pc(f, "Dusty", ctrl=12)
    b = npc(f, "Brute", threat=4, deficiencies=deficiencies)
    since = len(f.entries)
    ev = f.do(Argue(actor=d, npc=b, pc_move="defend", npc_move="attack"))
    assert of_type(ev, ArguinRound)[0].losers == (b,)
    assert _saves(ev) == [(10, deficiencies, False)]
    assert data(f, b).injuries[0] == ("lose face",)
    (why,) = _why(f, since, "SaveRolled")
    assert why[R.NPC_SAVE.id] == [f"Threat 4, deficient in {deficiencies} (sheet): saves ≤ 10 (⌈4 ÷ 2⌉ + 8)"]


def test_a_pc_losing_arguin_saves_its_own_ctrl() -> None:
    """Deficiencies are an NPC's: the PC's keep-face save is its CTRL, whatever the NPC's sheet says."""
    f = new_fight(11)
    d = pc(f, "Dusty", ctrl=12)
    b = npc(f, "Brute", threat=4, deficiencies="CTRL")
    ev = f.do(Argue(actor=d, npc=b, pc_move="attack", npc_move="defend"))
    assert _saves(ev) == [(12, "", True)]


@pytest.mark.parametrize("deficiencies", ["BODY", "fire", "breath"])
def test_an_npc_caught_by_another_npcs_special_saves_at_half_threat(deficiencies: str) -> None:
    """The Fire Dragon's breath (BODY, DV its Threat 10) over an Outlaw (Threat 3): deficient, it needs ≤ 10,
    so the 11 that saved at Threat + 8 = 11 now burns it."""
    f = new_fight(11)
    o = npc(f, "Outlaw", "outlaw", deficiencies=deficiencies)
    dragon = npc(f, "Fire Dragon", "fire_dragon")
    since = len(f.entries)
    ev = f.do(Attack(actor=dragon, targets=(o,), weapon="Fire breath"))
    assert _saves(ev) == [(10, deficiencies, False)]
    assert of_type(ev, AttackMade)[0].hit
    assert data(f, o).injuries[2] == ("horribly burned",)
    (why,) = _why(f, since, "AttackMade")
    assert why[R.NPC_SAVE.id] == [f"Threat 3, deficient in {deficiencies} (sheet): saves ≤ 10 (⌈3 ÷ 2⌉ + 8)"]


def test_an_npc_target_deficient_in_something_else_saves_at_threat_plus_8() -> None:
    f = new_fight(11)
    o = npc(f, "Outlaw", "outlaw", deficiencies="CTRL, firearm")
    dragon = npc(f, "Fire Dragon", "fire_dragon")
    ev = f.do(Attack(actor=dragon, targets=(o,), weapon="Fire breath"))
    assert _saves(ev) == [(11, "", True)]


def test_the_attack_forms_tick_halves_the_npc_target_that_saves() -> None:
    """Ruling (checks.py): the attack form's "NPC deficient" tick counts for whichever NPC rolls: with the risk
    on the target, the NPC target (a PC target is untouched)."""
    f = new_fight(11, 11)
    d = pc(f, body=12)
    o = npc(f, "Outlaw", "outlaw")
    dragon = npc(f, "Fire Dragon", "fire_dragon")
    ev = f.do(Attack(actor=dragon, targets=(d, o), weapon="Fire breath", deficient=True))
    assert [(s[0], s[2]) for s in _saves(ev)] == [(12, True), (10, False)]


def test_an_npc_deficient_in_acc_shoots_at_half_threat() -> None:
    """The stat counts in an attack too: an NPC deficient in ACC (Accuracy) shoots at ⌈Threat ÷ 2⌉ + 8."""
    f = new_fight(11)
    d = pc(f)
    o = npc(f, "Outlaw", "outlaw", deficiencies="Accuracy")
    ev = f.do(Attack(actor=o, targets=(d,), weapon="Revolver"))
    assert _saves(ev) == [(10, "Accuracy", False)]


def test_the_detail_pane_names_the_deficiencies_and_their_limit() -> None:
    f = new_fight()
    b = npc(f, "Brute", threat=4, deficiencies="CTRL, working, Hex")
    text = detail(f.state, f.state.get(b))
    assert "Threat 4, Morale 7: saves ≤ 12 (deficient ≤ 10); size medium" in text
    assert "Deficient in: CTRL, working, Hex (a save testing one: ≤ 10)" in text.splitlines()


def test_a_save_written_before_the_phrase_was_kept_loads_and_explains_as_before(tmp_path: Path) -> None:
    """A fight file whose deficient save has no "deficient" field folds to the same state and reads as the tick."""
    path = tmp_path / "fight.jsonl"
    fight = saves.new_fight(system, path, seed=3)
    fight.do(AddCombatant(name="Brute", kind=NPC, sheet={"threat": 4, "deficiencies": "CTRL"}))
    b = fight.state.combatants[-1].id
    fight.do(MakeSave(actor=b, stat="CTRL"))
    now = fight.state
    fight.close()  # type: ignore[attr-defined]
    lines = path.read_text("utf-8").splitlines()
    n = next(i for i, line in enumerate(lines) if json.loads(line).get("type") == "blackjack.save_rolled")
    record = json.loads(lines[n])
    assert record["event"]["save"]["deficient"] == "CTRL"
    record.pop("crc")
    del record["event"]["save"]["deficient"]
    lines[n] = seal(json.dumps(record, separators=(",", ":"), ensure_ascii=False))
    old = tmp_path / "old.jsonl"
    old.write_text("\n".join(lines) + "\n", "utf-8")
    loaded = saves.load(old).fight()
    assert loaded.state == now
    (why,) = _why(loaded, 0, "SaveRolled")
    assert why[R.NPC_SAVE.id] == ["deficient: ⌈4 ÷ 2⌉ + 8 = 10"]
