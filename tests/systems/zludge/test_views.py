"""What the GM sees (issue #11) and what the players see (issue #17)."""

from __future__ import annotations

import re

import pytest

from systems.zludge import system
from systems.zludge.commands import FirstAid, MarkFatigue, MarkWound
from tests.systems.zludge.helpers import F, add, data, duel, end, new_fight, script
from tracker.commands import AddCombatant, Adjust, RemoveCombatant
from tracker.model import NPC, PC


def view(f, cid):
    c = f.state.get(cid)
    return system.standing(f.state, c), system.status(f.state, c), system.public(f.state, c)


def test_weapons_and_armor_are_reference_data_not_combatants():
    """The add list offers only pc/npc presets: the weapon and armor presets have kinds of their own."""
    presets = system.presets()
    combatants = [p for p in presets if p.kind in (PC, NPC)]
    assert [p.id for p in combatants] == ["thug", "gunman", "soldier", "knight", "brawler"]
    kinds = {p.kind for p in presets} - {PC, NPC}
    assert kinds == {"weapon", "armor"}
    assert all(p.id.startswith(p.kind) for p in presets if p.kind in kinds)
    assert len([p for p in presets if p.kind in kinds]) == 24
    f = new_fight()  # still usable by name, as reference data for a sheet
    f.do(AddCombatant(name="Dana", preset="weapon-shotgun-close"))
    assert (data(f, "c1").weapon, data(f, "c1").weapon_level) == ("shotgun (close)", 3)


@pytest.mark.parametrize(
    ("marks", "fatigue", "word", "out"),
    [
        ((), (), "", False),
        ((1, 2), (), "", False),
        ((3,), (), "incapacitated", False),
        ((4,), (), "comatose", True),
        ((), (4,), "unconscious", True),
        ((3,), (4,), "unconscious", True),
        ((4,), (4,), "comatose", True),
    ],
)
def test_standing_word_for_each_state(marks, fatigue, word, out):
    f = new_fight()
    add(f, "Bob", kind="npc")
    for m in marks:
        f.do(MarkWound(target="c1", level=m))
    for m in fatigue:
        f.do(MarkFatigue(target="c1", level=m))
    st, status, _ = view(f, "c1")
    assert (st.word, st.out) == (word, out)
    if word:
        assert word not in status.lower()


def test_standing_dead_and_gone():
    f = new_fight()
    add(f, "Bob", kind="npc")
    add(f, "Cy", kind="npc")
    f.do(Adjust(id="c1", field="dead", value=True))
    f.do(RemoveCombatant(id="c2"))
    assert (view(f, "c1")[0].word, view(f, "c1")[0].out) == ("dead", True)
    assert (view(f, "c2")[0].word, view(f, "c2")[0].out) == ("gone", True)


def test_a_treated_comatose_wound_stands_as_incapacitated():
    """First aid lowers each wound's effect one level: a treated Comatose is conscious, prone."""
    f = end(duel({"skills": "Medical 3"}, {}))  # first aid is given after the fight
    f.do(MarkWound(target="c2", level=4))
    script(f, F(0))
    f.do(FirstAid(actor="c1", target="c2"))
    st, status, public = view(f, "c2")
    assert st.word == "incapacitated" and status.startswith("Comatose treated -3 ")
    assert public == "comatose"
    # a roll's penalty says the wound as the table does ("Incapacitated -3" named a state not on the track)
    assert [(m.label, m.value) for m in data(f, "c2").penalties()] == [("Comatose treated", -3)]


def test_status_puts_the_worst_wound_and_boxes_first_then_fatigue_flags_and_gear():
    f = duel({"plot_points": 2, "weapon": "pistol", "armor": "flak jacket"}, {})
    f.do(MarkWound(target="c1", level=1))
    f.do(MarkWound(target="c1", level=0))
    f.do(MarkFatigue(target="c1", level=1))
    _, status, _ = view(f, "c1")
    assert status == "Hurt -1 0..|1.|.|.|. · Tired -1 · clipped (no extra -1), PP 2 · pistol 2, flak jacket 1"
    add(f, "Cy", kind="npc", weapon="laser cutter 3", armor="scrap 2")
    assert view(f, "c3")[1] == "...|..|.|.|. · flat-footed · laser cutter 3, scrap 2"


def test_detail_is_the_long_form():
    f = duel({"skills": "Melee 2", "weapon": "sword", "armor": "platemail", "armor_penalty": 2}, {})
    f.do(MarkWound(target="c1", level=2))
    text = system.detail(f.state, f.state.get("c1"))
    assert text.splitlines()[0] == "Alice: Very Hurt -2"
    assert "Armor: platemail (level 3, -2 Athletics and Acrobatics)" in text
    assert "Wounds (Durability 0): S[...] H[..] V[2] I[.] C[.]" in text
    assert len(text.splitlines()) == len(set(text.splitlines()))


@pytest.mark.parametrize(
    ("marks", "public"),
    [
        ((), "unhurt"),
        ((0,), "scratched"),
        ((1, 0), "hurt"),
        ((2,), "very hurt"),
        ((3,), "incapacitated"),
        ((4,), "comatose"),
        ((4, 4), "dead"),
    ],
)
def test_public_is_the_wound_levels_name_and_never_a_number(marks, public):
    f = new_fight()
    add(f, "Thug", kind="npc", preset="thug", plot_points=3)
    for m in marks:
        f.do(MarkWound(target="c1", level=m))
    shown = system.public(f.state, f.state.get("c1"))
    assert shown == public
    assert not re.search(r"\d", shown)


def test_public_says_unconscious_when_fatigue_knocks_out_someone_less_hurt():
    f = new_fight()
    add(f, "Thug", kind="npc")
    f.do(MarkWound(target="c1", level=1))
    f.do(MarkFatigue(target="c1", level=4))
    assert system.public(f.state, f.state.get("c1")) == "unconscious"


def test_a_status_is_kept_for_the_same_combatant_object_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """The list asks for every row's status after each action; the text is kept per combatant object
    (immutable), so a wound, an undo or a fatigue box reads anew, and the kept texts stay bounded."""
    from systems.zludge import views

    f = duel()
    before = f.state.get("c1")
    first = system.status(f.state, before)
    assert system.status(f.state, before) is first, "the same object: the kept text"
    f.do(MarkWound(target="c1", level=2))
    hurt = f.state.get("c1")
    assert hurt is not before
    assert system.status(f.state, hurt) == views.status.__wrapped__(hurt, True) != first, "a new object reads anew"
    f.undo()
    assert system.status(f.state, f.state.get("c1")) == first
    f.do(MarkFatigue(target="c1", level=1))
    assert system.status(f.state, f.state.get("c1")) == views.status.__wrapped__(f.state.get("c1"), True)
    monkeypatch.setattr(views, "KEPT", 2)
    seen = [f.state.get(c) for c in ("c1", "c2")]
    for c in seen * 3:
        assert system.status(f.state, c) == views.status.__wrapped__(c, True)


def test_the_detail_says_which_actions_a_penalty_is_on():
    """docs/rules/zludge.md fatigue_penalty: fatigue is on every action, wounds on physical ones.  With fatigue alone the detail said
    "Penalty to physical actions: -2", while a Medical roll took the -2 too."""
    f = duel({"skills": "Melee 2, Medical 1"}, {})

    def penalty() -> str:
        return system.detail(f.state, f.state.get("c1")).splitlines()[1]

    assert penalty() == "No penalty"
    for _ in range(3):
        f.do(MarkFatigue(target="c1", level=1))  # Very Tired -2
    assert penalty() == "Penalty to every action: -2 Bad"
    f.do(MarkWound(target="c1", level=1))  # Hurt -1: physical only
    assert penalty() == "Penalty to physical actions: -3 Terrible, others: -2 Bad"


def test_a_clip_under_a_wound_penalty_does_not_read_as_adding():
    """l.120: "Clipped and wound penalties do not stack with each other; only the highest applies."  Ruling
    (views._flags): under a wound penalty the clip shows "clipped (no extra -1)" (it showed "Hurt -1 … clipped -1",
    read as -2); with no wound penalty it shows its -1."""
    f = new_fight()
    add(f, "P")
    f.do(MarkWound(target="c1", level=1))
    f.do(MarkWound(target="c1", level=0))  # a Scratch: clipped
    d = data(f, "c1")
    assert d.clipped and [(m.label, m.value) for m in d.penalties()] == [("Hurt", -1)]
    status = system.status(f.state, f.state.get("c1"))
    assert status.startswith("Hurt -1 0..|1.|.|.|. · clipped (no extra -1)"), status
    assert "clipped -1" not in status
    detail = system.detail(f.state, f.state.get("c1"))
    assert (
        detail.splitlines()[0].startswith("P: Hurt -1, clipped (no extra -1)")
        and "Penalty to physical actions: -1" in detail
    )
    g = new_fight()
    add(g, "Q")
    g.do(MarkWound(target="c1", level=0))  # a clip alone: its -1 is the penalty
    assert "clipped -1" in system.status(g.state, g.state.get("c1"))
    assert [(m.label, m.value) for m in data(g, "c1").penalties()] == [("clipped", -1)]
