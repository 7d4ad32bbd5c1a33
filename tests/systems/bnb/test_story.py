"""A whole Blood & Bullets gunfight, saved and replayed; event round-trips; undo; the command forms."""

from __future__ import annotations

import json

import attrs
import pytest

import saves
from saves.format import Codec
from systems.bnb import system
from systems.bnb.commands import SPECS, Attack, BindWounds, DeathSave, GunPlay, Reload, SavingThrow
from systems.bnb.events import (
    EVENT_TYPES,
    AttackRolled,
    DeathRuled,
    DeathSaveRolled,
    DeathSaveWaived,
    Dropped,
    HeldFire,
    HpHealed,
    HpLost,
    LoyaltyChecked,
    LuckyStreakUsed,
    Reloaded,
    Revived,
    SaveRolled,
    ShotsFired,
    StillDead,
    TemporaryHealed,
    WoundsBound,
)
from tracker import AddCombatant, EndFight, Entry, NextTurn, RollInitiative, StartFight
from tracker.commands import Modifier
from tracker.dice import Roll, ScriptedRoller

from .helpers import add_npc, add_pc, data, gunfight, new_fight


def test_three_round_gunfight_replays_from_its_saved_log(tmp_path):
    """A Shootist, a Gambler and a Trailblazer against an Outlaw gang and a Gunfighter, three rounds."""
    dice = ScriptedRoller()
    path = tmp_path / "f.jsonl"
    fight = saves.new_fight(system, path, seed=1, roller=dice)
    do = fight.do

    def cid(name: str) -> str:
        return fight.state.by_name(name).id

    do(
        AddCombatant(
            name="Dusty",
            kind="pc",
            sheet={
                "cls": "Shootist",
                "level": 3,
                "dex": 15,
                "hp": 14,
                "weapons": "heavy pistol, knife",
                "favoured": "heavy pistol",
            },
        )
    )
    do(
        AddCombatant(
            name="Doc",
            kind="pc",
            sheet={"cls": "Gambler", "level": 2, "dex": 13, "hp": 9, "weapons": "derringer, knife"},
        )
    )
    do(
        AddCombatant(
            name="Jed",
            kind="pc",
            sheet={
                "cls": "Trailblazer",
                "level": 2,
                "hp": 12,
                "weapons": "buffalo rifle, wood axe",
                "favoured": "wood axe",
            },
        )
    )
    dice.add(3, 4, 5, 2)
    do(AddCombatant(name="", preset="outlaw", count=4))
    dice.add(4)
    do(AddCombatant(name="", preset="gunfighter"))  # fmt: skip
    dusty, doc, jed, gunfighter = cid("Dusty"), cid("Doc"), cid("Jed"), cid("Gunfighter")
    o1, o2, o3, o4 = (cid(f"Outlaw {i}") for i in range(1, 5))
    assert [data(fight, o).max_hp for o in (o1, o2, o3, o4)] == [3, 4, 5, 2] and data(fight, gunfighter).max_hp == 5

    dice.add(14, 9, 11, 12, 13)  # Dusty, Doc, Jed, the Outlaw group, the Gunfighter (+1)
    do(RollInitiative())
    assert fight.state.order == (dusty, gunfighter, o1, o2, o3, o4, jed, doc)  # Dusty wins the 14-14 tie on DEX
    do(StartFight())

    # round 1
    dice.add(12, 2, 3)
    ev = do(GunPlay(actor=dusty, targets=(o1, o1, o2), distance="30"))
    assert any(isinstance(e, HeldFire) for e in ev) and data(fight, dusty).carried("heavy pistol").shots == 4
    dice.add(5)
    do(DeathSave(actor=o1))
    assert data(fight, o1).status == "dead"
    do(NextTurn())
    dice.add(11, 3)
    do(Attack(actor=gunfighter, target=dusty, distance=30))
    assert data(fight, dusty).hp == 10
    do(NextTurn())
    assert fight.state.current == o2  # dead Outlaw 1 is skipped
    dice.add(9, 5)
    do(Attack(actor=o2, target=jed, distance=30))
    do(NextTurn())
    dice.add(1)
    do(Attack(actor=o3, target=doc, distance=30))
    do(NextTurn())
    dice.add(14, 6)
    do(Attack(actor=o4, target=doc, distance=30))
    assert data(fight, doc).hp == 3 and data(fight, jed).hp == 7
    do(NextTurn())
    dice.add(15, 6, 2, 4)
    ev = do(Attack(actor=jed, target=gunfighter, weapon="buffalo rifle", distance=100))
    assert [e.amount for e in ev if isinstance(e, AttackRolled)] == [6 + 4 + 2]
    dice.add(20)
    do(DeathSave(actor=gunfighter))
    assert data(fight, gunfighter).status == "dead"
    do(NextTurn())
    dice.add(10, 5, 19)
    do(Attack(actor=doc, target=o2, distance=10))
    do(DeathSave(actor=o2))
    assert data(fight, o2).status == "unconscious"

    # round 2
    do(NextTurn())
    assert (fight.state.round, fight.state.current) == (2, dusty)
    dice.add(8, 4, 13, 1)
    do(GunPlay(actor=dusty, targets=(o3, o4), distance="30"))
    dice.add(2, 3)
    do(DeathSave(actor=o3))
    do(DeathSave(actor=o4))
    do(NextTurn())
    assert fight.state.current == jed
    do(Reload(actor=jed, gun="buffalo rifle"))
    do(NextTurn())
    do(Reload(actor=doc))

    # round 3: a mistake taken back
    do(NextTurn())
    assert (fight.state.round, fight.state.current) == (3, dusty)
    before = fight.state
    dice.add(4)
    do(SavingThrow(actor=dusty, against="ambush"))
    fight.undo()
    assert fight.state == before
    do(Reload(actor=dusty))
    do(NextTurn())
    do(NextTurn())
    do(EndFight())
    dice.add(2, 3, 1)
    for who in (doc, jed, dusty):
        do(BindWounds(actor=who))

    end = fight.state
    assert [data(fight, c).hp for c in (dusty, doc, jed)] == [11, 5, 10]
    assert [data(fight, c).status for c in (o1, o2, o3, o4, gunfighter)] == [
        "dead",
        "unconscious",
        "dead",
        "dead",
        "dead",
    ]
    assert data(fight, dusty).carried("heavy pistol").shots == 6
    assert data(fight, doc).carried("derringer").shots == 2 and data(fight, jed).carried("buffalo rifle").shots == 1
    assert dice.exhausted
    fight.close()

    loaded = saves.load(path)
    assert loaded.warnings == ()
    assert loaded.fight().state == end
    lines = path.read_text(encoding="utf-8").splitlines()
    assert any('"bnb.attack_rolled"' in line for line in lines)


def _samples() -> list:
    r = Roll("1d20", "x", (12,), (12,), (), 0, 12)
    dmg = Roll("2d6kh1!2+2", "y", (5, 6), (6,), (6, 2), 2, 16)
    mods = (Modifier(label="DEX", value=1), Modifier(label="cover", value=-2))
    return [
        AttackRolled(actor="c1", target="c2", weapon="buffalo rifle", using="buffalo rifle", attack=r, parts=mods,
                     total=11, dc=11, hit=True, damage=dmg, amount=16, sneak=True, gunplay=False, intended="c3",
                     pick=Roll("1d2", "z", (1,), (1,), (), 0, 1), save=r, save_total=12, saved=False),
        Dropped(id="c2", hp=-3, outcome="dying", by="c1"),
        ShotsFired(actor="c1", gun="belt pistol 2", count=3, gunplay=True),
        HeldFire(actor="c1", target="c2", reason="down"),
        Reloaded(actor="c1", gun="scattergun", before=0, after=2),
        DeathSaveRolled(id="c2", roll=r, parts=mods, total=11, st=16, success=False),
        SaveRolled(id="c2", against="rockfall", roll=r, parts=mods, total=11, st=16, success=False),
        LuckyStreakUsed(id="c2", against="death", roll=r, parts=mods, total=11, st=16, success=True, left=1),
        LoyaltyChecked(id="c2", leader=None, roll=Roll("3d6", "l", (1, 2, 3), (1, 2, 3), (), 0, 6), parts=(),
                       total=6, result="-1 on next loyalty check", next_mod=-1),
        WoundsBound(id="c2", roll=Roll("1d3", "b", (2,), (2,), (), 0, 2), healed=2),
        TemporaryHealed(id="c2", hours=2, healed=2, woke=True),
        LuckyStreakUsed(id="c2", against="scattergun (half damage)", roll=r, parts=mods[:1], total=13, st=12,
                        success=True, left=0, restored=4, revived=True),
        HpLost(id="c2", roll=Roll("2d6+1", "q", (3, 4), (3, 4), (), 1, 8), amount=8, temporary=True, note="fall"),
        HpHealed(id="c2", roll=Roll("3+4", "h", (), (), (), 7, 7), temporary=2, lethal=5, revived=True, note="doc"),
        DeathSaveWaived(id="c2"),
        DeathRuled(id="c2"),
        Revived(id="c2"),
        StillDead(id="c2"),
    ]  # fmt: skip


def test_every_event_type_round_trips_through_the_codec():
    codec = Codec(system)
    samples = _samples()
    assert {type(s) for s in samples} == set(EVENT_TYPES)
    for ev in samples:
        back = codec.decode(json.loads(codec.encode(Entry(1, 1, ev))), 2)
        assert back.event == ev


def test_every_event_describes_itself_with_its_dice():
    f, _d, dusty, gang, _g = gunfight()
    state = f.state
    for ev in _samples():
        ev = attrs.evolve(ev, **{k: v for k, v in {"actor": dusty, "id": gang[0], "target": gang[0]}.items()
                                 if hasattr(ev, k)})  # fmt: skip
        text = ev.describe(state)
        assert text and "c1" not in text
        for r in ev.all_rolls():
            assert r.describe() in text or isinstance(ev, AttackRolled)


def test_undo_of_an_attack_restores_the_state_exactly():
    f, dice, dusty, (o1, *_), _ = gunfight()
    before, n = f.state, len(f.steps)
    dice.add(15, 6, 6)
    f.do(Attack(actor=dusty, target=o1))
    assert f.state != before
    f.undo()
    assert f.state == before and len(f.steps) == n
    f.redo()
    assert data(f, o1).status == "dying"


def test_command_forms_build_the_commands():
    specs = {s.name: s for s in system.commands()}
    assert set(specs) == {s.name for s in SPECS}
    gp = specs["gunplay"].make({"actor": "c1", "targets": "c2, c2, c3", "distance": "30"})
    assert gp == GunPlay(actor="c1", targets=("c2", "c2", "c3"), distance="30")
    atk = specs["attack"].make({"actor": "c1", "target": "c2", "cover": "2", "modifiers": "high ground +1"})
    assert atk.cover == 2 and atk.modifiers == (Modifier(label="high ground", value=1),) and atk.into_melee == ()
    assert specs["death_save"].make({"actor": "c2"}) == DeathSave(actor="c2")
    for spec in SPECS:
        assert spec.help and spec.title
    assert "Gun-play" in system.help()


def test_the_death_save_prompt_resolves_through_its_command():
    f, _dice = new_fight(15, 6, 1)
    dusty = add_pc(f, "Dusty", weapons="belt pistol")
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=2)
    from .helpers import start

    start(f)
    f.do(Attack(actor=dusty, target=lefty))
    (prompt,) = f.state.prompts
    spec = {s.name: s for s in system.commands()}[prompt.command]
    f.do(spec.make(prompt.params))
    assert f.state.prompts == () and data(f, lefty).status == "dead"


def test_tally_counts_hits_and_falls():
    f, dice, dusty, (o1, *_), _ = gunfight()
    dice.add(15, 6, 6)
    events = f.do(Attack(actor=dusty, target=o1))
    tallies = [system.tally(f.state, e) for e in events]
    hit = next(t for t in tallies if t and t.hit)
    fell = next(t for t in tallies if t and t.fell)
    assert (hit.actor, hit.target, hit.harm) == (dusty, o1, 6 + 6 + 2) and fell.target == o1


@pytest.mark.parametrize("kind", ["pc", "npc"])
def test_sheet_fields_have_defaults(kind):
    for p in system.sheet_fields(kind):
        assert p.default is not None or not p.required


def test_fights_saved_with_the_old_prompt_ids_replay_as_before():
    """Old fight files keep loading: a dismissed ``death:<id>`` prompt left the combatant unconscious, a closed
    ``lucky:<id>`` forfeited the re-roll; a death save still settles an old-format prompt left open."""
    from tracker import Adjust, fold
    from tracker.engine import decide_full
    from tracker.events import PromptRaised, PromptResolved
    from tracker.model import Prompt

    f, dice = new_fight()
    dusty = add_pc(f, "Dusty", hp=10)
    doc = add_pc(f, "Doc", cls="Gambler")
    f.do(Adjust(id=dusty, field="status", value="dying"))
    dice.add(2)
    f.do(SavingThrow(actor=doc, against="falling"))
    old = [
        PromptRaised(prompt=Prompt(id=f"death:{dusty}", kind="death_save", text="save", combatant=dusty)),
        PromptResolved(prompt_id=f"death:{dusty}", note="settled by GM ruling"),
        PromptResolved(prompt_id=f"lucky_streak:{doc}"),
        PromptRaised(prompt=Prompt(id=f"lucky:{doc}", kind="lucky_streak", text="re-roll?", combatant=doc)),
        PromptResolved(prompt_id=f"lucky:{doc}"),
    ]
    state = fold(system, old, f.state)
    assert data_of(state, dusty).status == "unconscious" and data_of(state, doc).last_save is None
    assert state.prompts == ()
    f2, dice2 = new_fight()
    kid = add_pc(f2, "Kid", hp=10)
    f2.do(Adjust(id=kid, field="status", value="dying"))
    left_open = fold(system, old[:1], f2.state)  # an old-format prompt left open
    dice2.add(19)
    events, after = decide_full(system, left_open, DeathSave(actor=kid), dice2)
    assert [e.prompt_id for e in events if isinstance(e, PromptResolved)] == [f"death:{kid}"]
    assert after.prompts == ()


def data_of(state, cid):
    return state.get(cid).data
