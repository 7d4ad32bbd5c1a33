"""What the GM and the players see of a Blood & Bullets combatant (issues #11 and #17)."""

from __future__ import annotations

import re

import pytest

from systems.bnb import system
from systems.bnb.commands import DeathSave
from tracker import AddCombatant, Adjust, Damage, RemoveCombatant
from tracker.events import CombatantAdded
from tracker.plugin import FIT, Standing

from .helpers import add_npc, add_pc, data, new_fight


def _standing(f, cid):
    return system.standing(f.state, f.state.get(cid))


def _roll_adds_up(text: str) -> None:
    """``4d6+4 (CON +1 a die) [1,2,3,6] = 16``: the faces plus the shown modifier make the total."""
    m = re.search(r"\d+d\d+([+-]\d+)?[^[]*\[([\d,]+)\] = (-?\d+)", text)
    assert m, text
    mod = int(m[1] or 0)
    assert sum(int(x) for x in m[2].split(",")) + mod == int(m[3]), text


# -- standing: the one word a GM must never miss -------------------------------------------------


def test_standing_words_for_each_out_state():
    f, dice = new_fight()
    fit = add_pc(f, "Fit", hp=10)
    dying = add_pc(f, "Dying", hp=4)
    out = add_pc(f, "Out", hp=4)
    dead = add_pc(f, "Dead", hp=4)
    (ko,) = add_npc(f, "outlaw", name="Ko", hp=4)
    f.do(Damage(targets=(dying, out, dead), amount="5"))
    dice.add(19, 1)
    f.do(DeathSave(actor=out))
    f.do(DeathSave(actor=dead))
    f.do(Damage(targets=(ko,), amount="4", temporary=True))
    assert _standing(f, fit) == FIT
    assert _standing(f, dying) == Standing(word="dying", out=True)
    assert _standing(f, out) == Standing(word="unconscious", out=True)
    assert _standing(f, dead) == Standing(word="dead", out=True)
    assert _standing(f, ko) == Standing(word="knocked out", out=True)
    f.do(RemoveCombatant(id=fit))
    assert _standing(f, fit).word == "gone"


def test_status_puts_hp_first_and_never_repeats_the_standing():
    """Status: HP first, then DC, short flags, guns last; the standing word has its own column."""
    f, _ = new_fight()
    doc = add_pc(f, "Doc", cls="Gambler", hp=7, weapons="derringer, knife")
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=7, minor=False)
    f.do(Damage(targets=(lefty,), amount="13"))
    f.do(Damage(targets=(doc,), amount="2", temporary=True))
    line = system.status(f.state, f.state.get(lefty))
    assert line.startswith("HP -6/7 · DC 11") and "dying" not in line.lower()
    assert line.index("belt pistol") > line.index("DC")
    assert system.status(f.state, f.state.get(doc)) == "HP 5/7 (temp 2) · DC 10 · luck 1 · derringer 2/2"


def test_detail_names_the_standing_and_everything_else_once():
    f, _ = new_fight()
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=7, dex=14)
    f.do(Damage(targets=(lefty,), amount="8"))
    text = system.detail(f.state, f.state.get(lefty))
    assert text.startswith("Dying: at or below 0 HP, the death save still to roll.")
    assert "DEX 14 (initiative ties, DEX saves; attacks at HD)" in text
    assert text.count("HP -1/7") == 1 and "HP lost in this fight: 8" in text


# -- every modifier shows in the log -------------------------------------------------------------


def test_the_hp_roll_shows_the_con_bonus_per_die():
    """A level 5 Shootist with CON 13 rolls 4d6 [1,2,3,6] +1 a die = 16: the log shows the +4."""
    f, _ = new_fight(1, 2, 3, 6)
    f.do(AddCombatant(name="Dusty", kind="pc", sheet={"cls": "Shootist", "level": 5, "con": 13}))
    ev = f.entries[-1].event
    assert isinstance(ev, CombatantAdded) and ev.rolls[0].total == 16 == data(f, "c1").max_hp
    text = ev.describe(f.state)
    assert "4d6+4 (CON +1 a die) [1,2,3,6] = 16" in text
    _roll_adds_up(text)


@pytest.mark.parametrize(
    "sheet, faces, shown",
    [
        ({"cls": "Gambler", "level": 4, "con": 3}, (2, 5), "2d6-3 (CON -3 a die, at least 1 a die, HD +1)"),
        ({"cls": "Trailblazer", "level": 1}, (4,), "1d6+1 [4] = 5"),
        ({"cls": "Shootist", "level": 1}, (4,), "1d6 [4] = 4"),
    ],
)
def test_the_hp_roll_names_every_modifier(sheet, faces, shown):
    f, _ = new_fight(*faces)
    f.do(AddCombatant(name="Kid", kind="pc", sheet=sheet))
    text = f.entries[-1].event.describe(f.state)
    assert shown in text
    _roll_adds_up(text)


def test_an_npc_hp_roll_shows_its_plus_and_its_least_1():
    f, _ = new_fight(3, 4, 1, 1)
    f.do(AddCombatant(name="", preset="cougar"))  # 3+1 HD
    f.do(AddCombatant(name="", preset="dandy"))  # 1-1 HD rolling 1: at least 1 HP
    cougar, dandy = (e.event.describe(f.state) for e in f.entries[-2:])
    assert "3d6+1 [3,4,1] = 9" in cougar
    assert "1d6 (HD -1, at least 1 HP) [1] = 1" in dandy
    _roll_adds_up(cougar)
    _roll_adds_up(dandy)


# -- the players' view -----------------------------------------------------------------------------


def test_public_descriptor_unhurt_hurt_badly_hurt_down_dead_never_a_number():
    f, dice = new_fight()
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=8)
    seen = [system.public(f.state, f.state.get(lefty))]
    for hp in (5, 4, 1, 0):
        f.do(Adjust(id=lefty, field="hp", value=hp))
        seen.append(system.public(f.state, f.state.get(lefty)))
    dice.add(1)
    f.do(DeathSave(actor=lefty))
    seen.append(system.public(f.state, f.state.get(lefty)))
    assert seen == ["unhurt", "hurt", "badly hurt", "badly hurt", "down", "dead"]
    assert not any(ch.isdigit() for word in seen for ch in word)


def test_public_knocked_out_and_unconscious_are_down():
    f, _ = new_fight()
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=4)
    f.do(Damage(targets=(lefty,), amount="4", temporary=True))
    assert system.public(f.state, f.state.get(lefty)) == "down"
    f.do(Adjust(id=lefty, field="status", value="unconscious"))
    assert system.public(f.state, f.state.get(lefty)) == "down"


def test_standing_of_one_dropped_by_a_simultaneous_actor_is_not_out_until_its_turn_passes():
    """Ties still tied act simultaneously: the one dropped still takes this round's turn, so it is not out yet."""
    from systems.bnb.commands import Attack
    from tracker import NextTurn

    from .helpers import start

    f, dice = new_fight()
    dusty = add_pc(f, "Dusty", hp=4, weapons="belt pistol")
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=4)
    start(f, {dusty: 12, lefty: 12})
    dice.add(15, 5)  # 5 + Sure Shot 1 = 6: Lefty at -2
    f.do(Attack(actor=dusty, target=lefty))
    assert _standing(f, lefty) == Standing(word="dying", out=False)
    dice.add(20)  # 20 - 2 ≥ 18
    f.do(DeathSave(actor=lefty))
    assert _standing(f, lefty) == Standing(word="unconscious", out=False)
    f.do(NextTurn())
    f.do(NextTurn())
    assert f.state.round == 2 and _standing(f, lefty) == Standing(word="unconscious", out=True)
