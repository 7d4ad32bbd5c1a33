"""A whole Zludge fight, saved and replayed; every event type through the codec; forms and tallies."""

from __future__ import annotations

import json

import saves
from saves.format import Codec
from systems.zludge import system
from systems.zludge.commands import (
    AmbushInitiative,
    Attack,
    ClearBox,
    FirstAid,
    MarkFatigue,
    RefreshAspects,
    RollSkill,
    TakeAction,
)
from systems.zludge.contest import ContestRolled, ContestSide
from systems.zludge.events import (
    ActionTaken,
    AmbushDeclared,
    AspectsRefreshed,
    AttackResolved,
    BoxCleared,
    FatigueMarked,
    HarmTakenBack,
    RollRevised,
    SkillRolled,
    TieRerolled,
    WoundMarked,
    WoundsReopened,
    WoundsTreated,
)
from systems.zludge.model import Box
from tests.systems.zludge.helpers import F
from tracker import Entry
from tracker.commands import AddCombatant, EndFight, NextTurn, StartFight, parse_modifiers
from tracker.dice import ScriptedRoller
from tracker.errors import Refused


def spec(name):
    return next(s for s in system.commands() if s.name == name)


def test_a_whole_ambush_fight_replays_to_the_same_end_state(tmp_path):
    """Story: bandits ambush two rangers; a surprise shot, a melee, first aid after the fight."""
    roller = ScriptedRoller()
    path = tmp_path / "f.jsonl"
    f = saves.new_fight(system, path, seed=1, roller=roller)
    f.do(
        AddCombatant(
            name="Mara",
            kind="pc",
            sheet={
                "skills": "Ranged 3 +Pistols, Acrobatics 2, Reflexes 2, Alertness 1, Medical 2",
                "weapon": "pistol",
                "armor": "flak jacket",
                "aspects": "Star Ranger",
                "plot_points": 2,
                "durability": 1,
            },
        )
    )
    f.do(
        AddCombatant(
            name="Tomas",
            kind="pc",
            sheet={"skills": "Melee 2, Acrobatics 1, Reflexes 1, Alertness 2", "weapon": "sword", "fortitude": 1},
        )
    )
    f.do(AddCombatant(name="Bandit", kind="npc", count=2, preset="thug"))
    assert [c.id for c in f.state.combatants] == ["c1", "c2", "c3", "c4"]
    # ambush: Mara (+1+0)/2 -> 1; Tomas (0+1)/2 -> 1; Bandits Stealth -1 (no ranks)
    roller.add(*F(1), *F(0), *F(2), *F(1))  # Mara 2, Tomas 1, Bandit 1 +1, Bandit 2 0
    roller.add(*F(1), *F(0))  # Tomas and Bandit 1 tied at 1: Tomas 2, Bandit 0
    f.do(AmbushInitiative(ambushers=("c3", "c4")))
    assert f.state.order == ("c1", "c2", "c3", "c4")
    f.do(StartFight(surprise=("c3",)))
    # surprise round: Bandit 1 clubs the flat-footed Tomas: 0 vs fixed -1 -> hit, club 1 - armor 0
    roller.add(*F(0))
    ev = f.do(Attack(actor="c3", target="c2"))
    assert ev[0].outcome == "hit" and ev[0].defense is None and ev[1].box == 1
    f.do(NextTurn())
    assert (f.state.round, f.state.current) == (1, "c1")
    # Mara shoots Bandit 1 with her pistol specialization (+3) and her aspect (+1): 4 vs Acrobatics -1 + 2
    roller.add(*F(0), *F(2))
    ev = f.do(Attack(actor="c1", target="c3", specialty="pistols", aspect="Star Ranger"))
    assert (ev[0].attack_total, ev[0].defense_total, ev[0].outcome, ev[0].damage_level) == (4, 1, "hit", 2)
    f.do(NextTurn())
    # Tomas (Hurt -1) swings at Bandit 2 who has not acted: fixed defense -1
    roller.add(*F(0))
    ev = f.do(Attack(actor="c2", target="c4", modifiers=parse_modifiers("higher ground +1")))
    assert ev[0].attack_total == 1 and ev[0].outcome == "hit" and ev[1].box == 2
    # oops, the GM undoes it and Tomas shouts instead
    f.undo()
    f.do(TakeAction(actor="c2", text="shouts a warning", physical=False))
    f.do(NextTurn())
    assert f.state.current == "c3"
    # Bandit 1 is Very Hurt: -2 on his club; Mara dodges with Acrobatics +1 but rolls badly
    roller.add(*F(2), *F(-2))
    ev = f.do(Attack(actor="c3", target="c1"))
    assert ev[0].attack_total == 0 and ev[0].defense_total == -1
    assert ev[0].damage_level == 0 and ev[1].box == 0  # club 1 - flak jacket 1: a scratch and a clip
    assert f.state.get("c1").data.clipped
    f.do(NextTurn())
    roller.add(*F(-1), *F(1))  # Bandit 2 vs Tomas: -1 + 0 = -1 vs +1: miss
    ev = f.do(Attack(actor="c4", target="c2"))
    assert ev[0].outcome == "miss"
    f.do(NextTurn())
    assert (f.state.round, f.state.current) == (2, "c1")
    assert not f.state.get("c1").data.clipped  # her turn: the clip is gone
    roller.add(*F(1), *F(-1))  # Mara Ranged +2, +1, plot point +1 = 4 vs -1 - 1 - 2 = -4: critical
    ev = f.do(Attack(actor="c1", target="c3", plot_points=1))
    assert ev[1].box == 3 and system.tally(f.state, ev[1]) is not None
    f.do(MarkFatigue(target="c1", level=0, physical=True, note="running"))
    f.do(EndFight(note="Bandit 2 flees"))
    roller.add(*F(0))  # Mara patches Tomas up after the fight: Medical +1
    ev = f.do(FirstAid(actor="c1", target="c2"))
    assert ev[0].success
    f.do(RefreshAspects())
    f.do(ClearBox(target="c1", track="fatigue", level=0, note="ten minutes' rest"))
    f.close()
    assert roller.exhausted

    live = f.state
    loaded = saves.load(path)
    assert loaded.warnings == ()
    assert loaded.fight().state == live
    lines = path.read_text(encoding="utf-8").splitlines()
    assert any('"zludge.attack_resolved"' in line for line in lines)
    assert any('"undone"' in line for line in lines)
    mara, tomas, b1 = (live.get(i).data for i in ("c1", "c2", "c3"))
    assert mara.plot_points == 1 and mara.aspects_used == ()
    assert tomas.wound_penalty == 0 and [b.treated for b in tomas.wounds] == [True]
    assert b1.prone and not b1.dead


def _all_events():
    from systems.zludge.rules.rest import Rested

    roll = F
    from tracker.dice import parse

    r4 = parse("4dF").result(roll(2))
    d6 = parse("1d6").result([3])
    mod = parse_modifiers("cover +1")
    return [
        TieRerolled(ids=("c1", "c2"), rolls=(r4, r4), modifiers=(1, -1)),
        AmbushDeclared(ambushers=("c2",)),
        AttackResolved(
            actor="c1",
            target="c2",
            skill="Melee",
            attack=r4,
            attack_rerolled=r4,
            attack_mods=mod,
            attack_total=3,
            defense_skill="Acrobatics",
            defense=r4,
            defense_mods=mod,
            defense_total=1,
            outcome="hit",
            weapon_level=2,
            armor_level=1,
            damage_level=1,
            location="torso",
            location_roll=d6,
            aspect="A",
            plot_point=True,
        ),
        WoundMarked(target="c2", wound=1, box=2, full=(1,), source="sword"),
        HarmTakenBack(target="c2", wounds=(Box(level=1, wound=1, treated=True),), dead=False, clipped=True),
        RollRevised(
            who="c2",
            side="defense",
            aspect="Brawler",
            reroll=r4,
            plot_point=True,
            mods=mod,
            total_before=-1,
            total=3,
            against=2,
            outcome="miss",
            opponent="c1",
        ),
        FatigueMarked(target="c2", level=0, box=None, full=(0, 1, 2, 3, 4), physical=True),
        SkillRolled(actor="c1", skill="Medical", roll=r4, mods=mod, total=2, purpose="first aid", target="c2"),
        WoundsTreated(target="c2", boxes=2),
        WoundsReopened(target="c2", note="fell"),
        BoxCleared(target="c2", track="fatigue", level=0),
        AspectsRefreshed(ids=("c1",)),
        ActionTaken(actor="c1", text="reloads"),
        Rested(id="c2", wounds=(Box(level=0, wound=0),), why="a Hurt becomes a Scratch"),
        ContestRolled(
            kind="regular",
            first=ContestSide(id="c1", skill="Athletics", roll=r4, mods=mod, total=3),
            second=ContestSide(id="c2", skill="Athletics", mods=mod, total=1),
            winner="c1",
        ),
    ]


def test_every_event_type_round_trips_through_the_codec():
    codec = Codec(system)
    evs = _all_events()
    assert {type(e) for e in evs} == set(system.event_types)
    for ev in evs:
        back = codec.decode(json.loads(codec.encode(Entry(1, 1, ev))), 2).event
        assert back == ev


def test_attack_form_builds_the_command_and_refuses_two_plot_points():
    s = spec("attack")
    cmd = s.make({"actor": "c1", "target": "c2", "modifiers": "higher ground +1", "plot_points": "1"})
    assert cmd == Attack(actor="c1", target="c2", modifiers=parse_modifiers("higher ground +1"), plot_points=1)
    s2 = spec("roll_skill")
    assert s2.make({"actor": "c1", "skill": "Athletics"}) == RollSkill(actor="c1", skill="Athletics")
    try:
        spec("mark_wound").make({"target": "c1", "level": "5"})
    except Refused as e:
        assert "above the most allowed, 4" in str(e)
    else:
        raise AssertionError("a 5-level wound was accepted")


def test_attack_tally_for_the_summary():
    evs = _all_events()
    from tests.systems.zludge.helpers import add, new_fight

    f = new_fight()
    add(f, "A")
    add(f, "B")
    t = system.tally(f.state, evs[2])
    assert (t.actor, t.target, t.hit) == ("c1", "c2", True)
    t = system.tally(f.state, evs[3])
    assert (t.target, t.harm, t.fell) == ("c2", 1, False)
