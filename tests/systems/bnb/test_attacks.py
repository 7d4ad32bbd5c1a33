"""Blood & Bullets attacks, exploding damage, Gun-play and firearms, as scenarios with scripted dice."""

from __future__ import annotations

import pytest

from systems.bnb import system
from systems.bnb.commands import Attack, Blast, GunPlay, Reload
from systems.bnb.events import AttackRolled, HeldFire, Reloaded, ShotsFired
from tracker import EndFight, Refused
from tracker.commands import Modifier

from .helpers import add_npc, add_pc, data, gunfight, new_fight, next_round, start


def _attacks(events):
    return [e for e in events if isinstance(e, AttackRolled)]


def _one(events):
    (ev,) = _attacks(events)
    return ev


def _refused(f, command, words):
    n, state = len(f.entries), f.state
    with pytest.raises(Refused, match=words):
        f.do(command)
    assert len(f.entries) == n and f.state == state


# -- the attack roll --------------------------------------------------------


def test_missile_attack_adds_to_hit_dex_sure_shot_and_range():
    """d20 + to-hit + DEX + Sure Shot + range (+1 medium, up to 2× range) ≥ DC; damage 1d6 + Sure Shot."""
    f, _dice = new_fight(8, 3)
    dusty = add_pc(f, "Dusty", dex=13, weapons="belt pistol", favoured="belt pistol")
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=6)
    start(f)
    ev = _one(f.do(Attack(actor=dusty, target=lefty, distance=60)))
    labels = {m.label: m.value for m in ev.parts}
    assert labels == {"to-hit": 0, "DEX": 1, "Sure Shot": 1, "medium range": 1}
    assert (ev.total, ev.dc, ev.hit, ev.amount) == (11, 11, True, 4) and False is not ev.hit
    assert data(f, lefty).hp == 2
    text = ev.describe(f.steps[-1].before)
    assert "1d20 [8]" in text and "1d6+1 [3] = 4" in text and "vs DC 11" in text


def test_a_total_under_dc_misses():
    f, _dice = new_fight(7)
    dusty = add_pc(f, "Dusty", dex=13, weapons="belt pistol", favoured="belt pistol")
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=6)
    start(f)
    ev = _one(f.do(Attack(actor=dusty, target=lefty, distance=60)))
    assert not ev.hit and ev.damage is None and data(f, lefty).hp == 6


def test_natural_20_always_hits_for_maximum_damage_that_explodes():
    """A natural 20 counts the first damage die as a rolled 6, which then explodes (level 4: up to 2 more)."""
    f, dice = new_fight(20, 6, 3)
    dusty = add_pc(f, "Dusty", level=4, weapons="belt pistol")
    (wall,) = add_npc(f, "outlaw", name="Ironside", hp=40, dc=30)
    start(f)
    ev = _one(f.do(Attack(actor=dusty, target=wall)))
    assert ev.hit and ev.damage.faces == (6,) and ev.damage.extra == (6, 3)
    assert ev.amount == 6 + 6 + 3 + 1  # Sure Shot: the belt pistol is Dusty's first firearm
    assert dice.exhausted


def test_natural_1_always_misses():
    f, _dice = new_fight(1)
    dusty = add_pc(f, "Dusty", weapons="belt pistol")
    (lefty,) = add_npc(f, "outlaw", name="Lefty")
    start(f)
    ev = _one(f.do(Attack(actor=dusty, target=lefty, modifiers=(Modifier(label="GM", value=30),))))
    assert ev.total >= ev.dc and not ev.hit


def test_melee_adds_str_to_hit_and_damage_and_close_fighter():
    """Melee: STR modifier to hit and damage; Close Fighter +1 to hit and damage with the chosen weapon."""
    f, _dice = new_fight(8, 2)
    jed = add_pc(f, "Jed", cls="Trailblazer", str=16, weapons="wood axe", favoured="wood axe")
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=10)
    start(f)
    ev = _one(f.do(Attack(actor=jed, target=lefty)))
    assert {m.label: m.value for m in ev.parts} == {"to-hit": 0, "STR": 2, "Close Fighter": 1}
    assert ev.total == 11 and ev.amount == 2 + 1 + 2 + 1


def test_a_thrown_knife_is_a_missile_attack():
    """Ruling: a ‡ weapon beyond 5 ft is thrown — DEX to hit, range bonus, no STR on damage."""
    f, _dice = new_fight(10, 4)
    doc = add_pc(f, "Doc", cls="Gambler", str=16, dex=13, weapons="knife")
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=10)
    start(f)
    ev = _one(f.do(Attack(actor=doc, target=lefty, distance=10)))
    assert {m.label: m.value for m in ev.parts} == {"to-hit": 0, "DEX": 1, "short range": 2}
    assert ev.amount == 3


def test_the_spear_two_handed_adds_one_and_only_the_spear():
    f, _dice = new_fight(15, 3)
    jed = add_pc(f, "Jed", cls="Trailblazer", weapons="spear, club", favoured="club")
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=10)
    start(f)
    ev = _one(f.do(Attack(actor=jed, target=lefty, weapon="spear", two_hands=True)))
    assert ev.amount == 4
    next_round(f)
    _refused(f, Attack(actor=jed, target=lefty, weapon="club", two_hands=True), "only the spear")


def test_range_bands_and_out_of_range():
    """+2 up to the listed range, +1 up to 2×, +0 up to 3×; beyond is refused."""
    f, _dice = new_fight(2)
    dusty = add_pc(f, "Dusty", weapons="belt pistol")
    (lefty,) = add_npc(f, "outlaw", name="Lefty")
    start(f)
    _refused(f, Attack(actor=dusty, target=lefty, distance=151), "out of range: the belt pistol reaches 150 ft")
    ev = _one(f.do(Attack(actor=dusty, target=lefty, distance=150)))
    assert Modifier(label="long range", value=0) in ev.parts


def test_a_melee_weapon_cannot_reach_beyond_5_ft():
    f, _dice = new_fight()
    jed = add_pc(f, "Jed", cls="Trailblazer", weapons="club")
    (lefty,) = add_npc(f, "outlaw", name="Lefty")
    start(f)
    _refused(f, Attack(actor=jed, target=lefty, distance=10), "melee weapon.*out of reach")


def test_cover_is_minus_1_to_4():
    f, _dice = new_fight(2)
    dusty = add_pc(f, "Dusty", weapons="belt pistol")
    (lefty,) = add_npc(f, "outlaw", name="Lefty")
    start(f)
    _refused(f, Attack(actor=dusty, target=lefty, cover=5), "cover is a penalty of 1 to 4")
    ev = _one(f.do(Attack(actor=dusty, target=lefty, cover=2)))
    assert Modifier(label="cover", value=-2) in ev.parts


def test_a_weapon_not_carried_is_refused():
    f, _dice = new_fight()
    dusty = add_pc(f, "Dusty", weapons="belt pistol")
    (lefty,) = add_npc(f, "outlaw", name="Lefty")
    start(f)
    _refused(f, Attack(actor=dusty, target=lefty, weapon="buffalo rifle"), "carries no 'buffalo rifle'")


def test_attacks_by_the_dead_or_unconscious_and_at_the_dead_are_refused():
    f, _dice = new_fight(15, 6)
    dusty = add_pc(f, "Dusty", weapons="belt pistol")
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=2, minor=True)
    (slim,) = add_npc(f, "outlaw", name="Slim")
    start(f)
    f.do(Attack(actor=dusty, target=lefty))
    assert data(f, lefty).status == "dead"
    _refused(f, Attack(actor=lefty, target=dusty), "Lefty is dead: the dead, the dying and the unconscious")
    _refused(f, Attack(actor=dusty, target=lefty), "Lefty is already dead")
    from tracker import Adjust

    f.do(Adjust(id=slim, field="status", value="unconscious"))
    _refused(f, Attack(actor=slim, target=dusty), "Slim is unconscious")


def test_attacks_need_a_started_fight():
    f, _dice = new_fight()
    dusty = add_pc(f, "Dusty", weapons="belt pistol")
    (lefty,) = add_npc(f, "outlaw", name="Lefty")
    _refused(f, Attack(actor=dusty, target=lefty), "the fight has not started")
    start(f)
    f.do(EndFight())
    _refused(f, Attack(actor=dusty, target=lefty), "the fight is over")


# -- exploding damage -------------------------------------------------------


def test_book_example_level_5_trailblazer_buffalo_rifle_deals_16():
    """Book's worked example: level 5 Trailblazer, buffalo rifle (2d6+2*) rolls 5 and 6, keeps 6,
    explodes into 6, explodes again into 2: 6+6+2 = 14, +2 = 16."""
    f, dice = new_fight(15, 5, 6, 6, 2)
    jed = add_pc(f, "Jed", cls="Trailblazer", level=5, weapons="buffalo rifle, bowie knife", hp=20)
    (bison,) = add_npc(f, "bison", hp=30)
    start(f)
    ev = _one(f.do(Attack(actor=jed, target=bison, weapon="buffalo rifle", distance=100)))
    assert ev.damage.faces == (5, 6) and ev.damage.kept == (6,) and ev.damage.extra == (6, 2)
    assert ev.amount == 16 and data(f, bison).hp == 14
    assert dice.exhausted
    assert "2d6kh1+2 [5,6] kept 6 exploded +6+2 = 16" in ev.describe(f.steps[-1].before)


@pytest.mark.parametrize("level, faces, total", [(1, (6,), 6), (2, (6, 6), 12), (3, (6, 6), 12), (4, (6, 6, 6), 18)])
def test_explosions_are_limited_to_half_the_level(level, faces, total):
    """Each 6 rolls one more d6 (no modifiers), at most ⌊level ÷ 2⌋ times per damage roll."""
    f, dice = new_fight(15, *faces)
    dusty = add_pc(f, "Dusty", level=level, weapons="derringer:2, belt pistol", favoured="belt pistol")
    (wall,) = add_npc(f, "outlaw", name="Lefty", hp=40)
    start(f)
    ev = _one(f.do(Attack(actor=dusty, target=wall, weapon="derringer")))
    assert ev.amount == total - 1 and dice.exhausted  # derringer 1d6-1


def test_a_critters_level_for_explosions_is_its_hd():
    """Ruling: a critter's "level" for exploding damage is its HD (Bear, Grizzly 5+6 → 2 extra dice)."""
    f, dice = new_fight(15, 6, 6, 6)
    jed = add_pc(f, "Jed", cls="Trailblazer", hp=40)
    (griz,) = add_npc(f, "grizzly", hp=40)
    start(f, {griz: 20, jed: 10})
    ev = _one(f.do(Attack(actor=griz, target=jed, weapon="claws")))
    assert ev.damage.extra == (6, 6) and ev.amount == 18 and dice.exhausted


def test_d3_damage_never_explodes_and_a_natural_20_makes_it_3():
    """Ruling: d3 dice (fists, Hoof d3) never explode; a natural 20 makes them 3."""
    f, _dice = new_fight(20)
    doc = add_pc(f, "Doc", cls="Gambler", level=6)
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=10)
    start(f)
    ev = _one(f.do(Attack(actor=doc, target=lefty, weapon="fists")))
    assert ev.damage.faces == (3,) and ev.damage.extra == () and ev.amount == 3 and ev.temporary


def test_a_hit_deals_at_least_1():
    """Ruling: a hit always deals at least 1 damage (a derringer's 1d6−1 rolling 1)."""
    f, _dice = new_fight(15, 1)
    doc = add_pc(f, "Doc", cls="Gambler", weapons="derringer")
    (lefty,) = add_npc(f, "outlaw", name="Lefty", hp=10)
    start(f)
    ev = _one(f.do(Attack(actor=doc, target=lefty)))
    assert ev.damage.total == 0 and ev.amount == 1 and data(f, lefty).hp == 9


# -- Gun-play ---------------------------------------------------------------


def test_gunplay_one_action_several_attacks_repeats_allowed_shots_spent():
    """Ruling: Gun-play attacks may be spread over eligible targets, several at one target; each spends a shot."""
    f, dice, dusty, (o1, o2, _o3), _gun = gunfight(level=3)
    dice.add(15, 2, 3, 12, 5)
    events = f.do(GunPlay(actor=dusty, targets=(o1, o1, o2)))
    shots = [e for e in events if isinstance(e, ShotsFired)]
    assert [(s.gun, s.count, s.gunplay) for s in shots] == [("heavy pistol", 3, True)]
    a1, a2, a3 = _attacks(events)
    assert (a1.target, a1.hit, a1.amount) == (o1, True, 4)
    assert (a2.target, a2.hit) == (o1, False)
    assert (a3.target, a3.hit, a3.amount) == (o2, True, 7)
    assert all(a.gunplay for a in (a1, a2, a3))
    assert data(f, dusty).carried("heavy pistol").shots == 3
    assert data(f, o1).hp == 2 and data(f, o2).hp == -1 and data(f, o2).status == "dying"
    assert [p.id for p in f.state.prompts] == [f"death_save:{o2}"]
    assert dice.exhausted


def test_gunplay_refuses_a_one_plus_one_hd_foe():
    """Ruling: "1 HD or fewer" means 1, 1−1 or ½; a 1+1 HD Gunfighter cannot be chosen."""
    f, _dice, dusty, (o1, *_), gun = gunfight()
    _refused(f, GunPlay(actor=dusty, targets=(o1, gun)), "only against foes of 1 HD or fewer: Gunfighter has 1\\+1 HD")


def test_gunplay_against_half_and_one_minus_one_hd():
    f, dice = new_fight()
    dusty = add_pc(f, "Dusty", level=2, weapons="belt pistol")
    (snake,) = add_npc(f, "rattler", hp=2)
    (dandy,) = add_npc(f, "dandy", hp=2)
    start(f)
    dice.add(1, 1)
    events = f.do(GunPlay(actor=dusty, targets=(snake, dandy)))
    assert [a.target for a in _attacks(events)] == [snake, dandy]


def test_gunplay_is_the_shootists():
    f, _dice = new_fight()
    doc = add_pc(f, "Doc", cls="Gambler", weapons="derringer")
    (lefty,) = add_npc(f, "outlaw", name="Lefty")
    start(f)
    _refused(f, GunPlay(actor=doc, targets=(lefty,)), "Gun-play is the Shootist's: Doc is a Gambler")


def test_gunplay_one_attack_per_level():
    f, _dice, dusty, (o1, o2, _o3), _gun = gunfight(level=1)
    _refused(f, GunPlay(actor=dusty, targets=(o1, o2)), "one attack per level: Dusty is level 1")


def test_gunplay_never_more_than_loaded_shots_and_not_with_an_empty_gun():
    f, _dice, dusty, (o1, o2, o3), _gun = gunfight(level=3, weapons="heavy pistol:2")
    _refused(f, GunPlay(actor=dusty, targets=(o1, o2, o3)), "2 loaded shot.*fewer than the 3 attacks")
    f2, _, dusty2, (p1, *_), _ = gunfight(level=3, weapons="heavy pistol:0")
    _refused(f2, GunPlay(actor=dusty2, targets=(p1,)), "empty: reload first")


def test_gunplay_with_two_guns_spends_the_first_then_the_second():
    """Two guns wielded: the attacks draw on the loaded shots of both; Sure Shot only with the chosen type."""
    f, dice, dusty, (o1, o2, _), _ = gunfight(level=3, weapons="heavy pistol:1, belt pistol:6")
    dice.add(2, 2)
    events = f.do(GunPlay(actor=dusty, targets=(o1, o2), guns="heavy pistol, belt pistol"))
    assert [(e.gun, e.count) for e in events if isinstance(e, ShotsFired)] == [("heavy pistol", 1), ("belt pistol", 1)]
    a1, a2 = _attacks(events)
    assert (a1.weapon, a2.weapon) == ("heavy pistol", "belt pistol")
    assert any(m.label == "Sure Shot" for m in a1.parts) and not any(m.label == "Sure Shot" for m in a2.parts)
    assert [g.shots for g in data(f, dusty).weapons] == [0, 5]


def test_gunplay_holds_fire_at_a_foe_already_down_and_spends_no_shot():
    """Ruling: a later Gun-play attack at a foe who dropped earlier in the same volley is not made."""
    f, dice, dusty, (o1, *_), _ = gunfight(level=3)
    dice.add(15, 6, 1)
    events = f.do(GunPlay(actor=dusty, targets=(o1, o1)))
    assert isinstance(events[-1], HeldFire)
    assert [(e.count) for e in events if isinstance(e, ShotsFired)] == [1]
    assert data(f, dusty).carried("heavy pistol").shots == 5 and dice.exhausted


def test_gunplay_takes_the_round():
    """Ruling: Gun-play replaces the weapon's rate of fire for the round; once a round, nothing after or before."""
    f, dice, dusty, (o1, o2, _), _ = gunfight(level=3)
    dice.add(2)
    f.do(GunPlay(actor=dusty, targets=(o1,)))
    _refused(f, GunPlay(actor=dusty, targets=(o2,)), "Gun-play this round already")
    _refused(f, Attack(actor=dusty, target=o2), "made Gun-play this round")
    next_round(f)
    dice.add(2)
    f.do(Attack(actor=dusty, target=o2))
    _refused(f, GunPlay(actor=dusty, targets=(o2,)), "already attacked this round")


def test_gunplay_target_out_of_range_is_refused():
    f, _dice, dusty, (o1, o2, _), _ = gunfight(level=3)
    _refused(f, GunPlay(actor=dusty, targets=(o1, o2), distance="30, 300"), "out of range")


# -- firearms ---------------------------------------------------------------


def test_rate_of_fire_2_then_refused_until_next_round():
    f, dice, dusty, (o1, *_), _ = gunfight(level=1)
    dice.add(2, 2)
    f.do(Attack(actor=dusty, target=o1))
    f.do(Attack(actor=dusty, target=o1))
    _refused(f, Attack(actor=dusty, target=o1), "2 attacks a round \\(rate of fire 2\\)")
    next_round(f)
    dice.add(2)
    f.do(Attack(actor=dusty, target=o1))
    assert data(f, dusty).carried("heavy pistol").shots == 3


def test_rate_of_fire_half_fires_every_other_round_and_reload_takes_the_action():
    """Ruling: RoF ½ = one shot every other round; reloading takes the combatant's action for the round."""
    f, dice = new_fight()
    jed = add_pc(f, "Jed", cls="Trailblazer", weapons="long rifle, club")
    (lefty,) = add_npc(f, "outlaw", name="Lefty")
    start(f)
    dice.add(2)
    f.do(Attack(actor=jed, target=lefty, weapon="long rifle", distance=100))
    assert data(f, jed).carried("long rifle").shots == 0
    _refused(f, Reload(actor=jed), "already attacked this round")
    next_round(f)
    _refused(f, Attack(actor=jed, target=lefty, weapon="long rifle"), "fired in round 1, next in round 3")
    (ev,) = f.do(Reload(actor=jed))
    assert isinstance(ev, Reloaded) and (ev.before, ev.after) == (0, 1)
    _refused(f, Attack(actor=jed, target=lefty, weapon="club"), "reloading took Jed's action")
    next_round(f)
    dice.add(2)
    f.do(Attack(actor=jed, target=lefty, weapon="long rifle"))


def test_reload_fills_one_gun_and_a_full_gun_is_refused():
    f, _dice, dusty, (_o1, *_), _ = gunfight(level=1, weapons="heavy pistol:2, belt pistol:6")
    _refused(f, Reload(actor=dusty, gun="belt pistol"), "already full")
    (ev,) = f.do(Reload(actor=dusty))
    assert (ev.gun, ev.after) == ("heavy pistol", 6)
    _refused(f, Reload(actor=dusty), "all full")


def test_an_empty_gun_cannot_fire():
    f, _dice, dusty, (o1, *_), _ = gunfight(level=1, weapons="heavy pistol:0")
    _refused(f, Attack(actor=dusty, target=o1), "the heavy pistol is empty")


def test_scattergun_blast_one_shot_attacks_every_target():
    """Scattergun: one shot attacks every target within 5 ft either side of the aimed point."""
    f, _dice = new_fight(15, 3, 4, 14, 2, 2)
    jed = add_pc(f, "Jed", cls="Trailblazer", weapons="scattergun")
    o1, o2 = add_npc(f, "outlaw", count=2, hp=10)
    start(f)
    events = f.do(Blast(actor=jed, targets=(o1, o2), distance=20))
    assert [(e.gun, e.count) for e in events if isinstance(e, ShotsFired)] == [("scattergun", 1)]
    a1, a2 = _attacks(events)
    assert (a1.amount, a2.amount) == (7, 4) and a1.save is None
    assert data(f, jed).carried("scattergun").shots == 1 and data(f, jed).used == ("scattergun",)


def test_scattergun_beyond_30_ft_targets_save_for_half():
    """Beyond 30 ft each target makes a saving throw (DEX modifier applies) for half damage."""
    f, _dice = new_fight(15, 3, 4, 18, 14, 2, 2, 5)
    jed = add_pc(f, "Jed", cls="Trailblazer", weapons="scattergun")
    o1, o2 = add_npc(f, "outlaw", count=2, hp=10)
    start(f)
    a1, a2 = _attacks(f.do(Blast(actor=jed, targets=(o1, o2), distance=40)))
    assert (a1.saved, a1.amount) == (True, 3) and (a2.saved, a2.amount) == (False, 4)
    assert Modifier(label="medium range", value=1) in a1.parts
    assert data(f, o1).hp == 7 and data(f, o2).hp == 6


def test_blast_needs_a_scattergun():
    f, _dice, dusty, (o1, o2, _), _ = gunfight()
    _refused(f, Blast(actor=dusty, targets=(o1, o2)), "needs a scattergun")


def test_status_line_shows_hp_dc_and_shots():
    f, dice, dusty, (o1, *_), _ = gunfight(level=1)
    dice.add(2)
    f.do(Attack(actor=dusty, target=o1))
    line = system.status(f.state, f.state.get(dusty))
    assert line == "HP 12/12 · DC 11 · acted · heavy pistol 5/6, belt pistol 6/6"  # (acted: its attack this round)
    assert "heavy pistol: 1d6+1" in system.detail(f.state, f.state.get(dusty))


def test_a_gamblers_attack_in_his_surprise_round_starts_as_a_sneak_attack():
    """bnb l.57: a Gambler's attack by surprise deals ×2. In the surprise round the form left "By surprise"
    unticked, and a GM who forgot it recorded a plain hit; in round 1 it starts unticked."""
    from screens import logic
    from tracker import NextTurn

    f, _dice = new_fight()
    doc = add_pc(f, "Doc", cls="Gambler", weapons="derringer")
    (lefty,) = add_npc(f, "outlaw", name="Lefty")
    start(f, {doc: 15, lefty: 10}, surprise=(doc,))
    spec = next(s for s in f.system.commands() if s.name == "attack")
    values = logic.prefill(spec, f.state, lefty, turn_commands=f.system.turn_commands)
    assert values["actor"] == doc and values["sneak"] is True
    f.do(NextTurn())  # round 1
    values = logic.prefill(spec, f.state, lefty, turn_commands=f.system.turn_commands)
    assert values["actor"] == doc and values["sneak"] is False
