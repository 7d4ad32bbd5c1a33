"""Blood & Bullets: the fourth audit's findings, each as a scenario with scripted dice."""

from __future__ import annotations

import pytest

from systems.bnb.commands import (
    Attack,
    Blast,
    DeathSave,
    GunPlay,
    LuckyStreak,
    Recover,
    Reload,
    SavingThrow,
    attack_defaults,
)
from systems.bnb.events import AttackRolled, Dropped, HeldFire, ShotsFired
from systems.bnb.evolve import evolve
from systems.bnb.rules.rest import Rested
from systems.bnb.sheet import data as data_of
from tracker import Adjust, Damage, EndFight, NextTurn, Refused, Rest
from tracker.events import PromptRaised
from tracker.explain import explain

from .helpers import add_npc, add_pc, data, new_fight, next_round, start


def _refused(f, command, words):
    n, state = len(f.entries), f.state
    with pytest.raises(Refused, match=words):
        f.do(command)
    assert len(f.entries) == n and f.state == state


def _attacks(events):
    return [e for e in events if isinstance(e, AttackRolled)]


# -- 1. Gun-play walks its plan by position ----------------------------------------


def _two_gun_shootist(*faces: int):
    f, dice = new_fight(*faces)
    dusty = add_pc(f, "Dusty", level=3, dex=10, weapons="derringer, heavy pistol", favoured="heavy pistol", hp=12)
    a, b = add_npc(f, "outlaw", hp=3, count=2)
    start(f)
    return f, dice, dusty, a, b


def test_gunplay_a_foe_dropped_early_leaves_the_later_shots_on_their_planned_guns():
    """Ruling: Gun-play walks its plan by position — the derringer's 2 shots, then the heavy pistol's — so
    each target keeps the gun the plan (and the range check) gave it; a shot held at a foe already down
    spends nothing. Outlaw 2 at 150 ft is in the heavy pistol's range, and the command does not depend
    on the dice (it was refused after the first shot: 'the derringer reaches 30 ft')."""
    f, dice, dusty, a, b = _two_gun_shootist(15, 6, 2, 15, 3)
    events = f.do(GunPlay(actor=dusty, targets=(a, a, b), guns="derringer, heavy pistol", distance="5,5,150"))
    first, last = _attacks(events)
    assert first.target == a and first.weapon == "derringer" and first.hit
    assert [e.target for e in events if isinstance(e, HeldFire)] == [a]
    assert last.target == b and last.weapon == "heavy pistol"
    assert [(p.label, p.value) for p in last.parts][-2:] == [("Sure Shot", 1), ("medium range", 1)]
    shots = {e.gun: e.count for e in events if isinstance(e, ShotsFired)}
    assert shots == {"derringer": 1, "heavy pistol": 1}
    assert [g.shots for g in data(f, dusty).weapons] == [1, 5]
    assert dice.exhausted


def test_gunplay_a_held_shot_does_not_move_the_next_target_to_another_gun():
    """At 20 ft Outlaw 2 is the heavy pistol's (short range +2, Sure Shot +1), as planned, even though the
    derringer still has the shot held at Outlaw 1 (it took the derringer at medium range, no Sure Shot)."""
    f, _dice, dusty, a, b = _two_gun_shootist(15, 6, 2, 15, 3)
    events = f.do(GunPlay(actor=dusty, targets=(a, a, b), guns="derringer, heavy pistol", distance="5,5,20"))
    last = _attacks(events)[-1]
    assert last.weapon == "heavy pistol"
    assert [(p.label, p.value) for p in last.parts][-2:] == [("Sure Shot", 1), ("short range", 2)]


def test_gunplay_checks_every_planned_guns_range_before_any_die():
    """A planned shot out of its gun's range refuses the whole Gun-play before a die is rolled."""
    f, dice, dusty, a, b = _two_gun_shootist(15, 6, 2, 15, 3)
    _refused(
        f,
        GunPlay(actor=dusty, targets=(a, b, b), guns="derringer, heavy pistol", distance="5,150,5"),
        "Outlaw 2 at 150 ft is out of range: the derringer reaches 30 ft",
    )
    assert len(dice.queue) == 5 and not dice.requests


# -- 2. Lucky Streak's uses come back when a day passes ------------------------------


def test_lucky_streak_uses_come_back_when_a_day_passes():
    """l.57 "once per 3 levels per day": a level 1 Gambler who used his Lucky Streak has it again after a day
    of rest (core Rest), and the Rested line and its Why say so; 23 hours are not a day."""
    f, dice = new_fight(3, 20)
    gil = add_pc(f, "Gil", cls="Gambler", level=1, hp=5)
    f.do(SavingThrow(actor=gil, against="falling"))
    f.do(LuckyStreak(actor=gil))
    assert data(f, gil).lucky_used == 1
    (short,) = f.do(Rest(hours=23))
    assert short.lucky == 0 and data(f, gil).lucky_used == 1
    (ev,) = f.do(Rest(days=2))
    assert ev.lucky == 1 and data(f, gil).lucky_used == 0
    assert "Lucky Streak: 1 a day again" in f.describe(len(f.entries) - 1)
    why = [(r.line(), r.terms) for r in explain(f, f.log.entry(len(f.log) - 1).seq)]
    assert any(line.startswith("Lucky Streak (bnb l.57)") and "a day passed: 1 a day again" in t for line, t in why)
    dice.add(2)
    events = f.do(SavingThrow(actor=gil, against="falling"))
    assert any(isinstance(e, PromptRaised) and e.prompt.kind == "lucky_streak" for e in events)
    dice.add(20)
    (used, _closed) = f.do(LuckyStreak(actor=gil))
    assert used.success and data(f, gil).lucky_used == 1
    f.undo()
    f.undo()
    f.undo()
    assert data(f, gil).lucky_used == 1


def test_an_old_rested_line_gives_no_lucky_streak_back():
    """A Rested event logged before it counted Lucky Streak uses (no ``lucky``) changes none."""
    f, _dice = new_fight(3, 20)
    gil = add_pc(f, "Gil", cls="Gambler", level=1, hp=5)
    f.do(SavingThrow(actor=gil, against="falling"))
    f.do(LuckyStreak(actor=gil))
    state = evolve(f.state, Rested(id=gil, why="1 day of uninterrupted rest, level 1; unhurt"))
    assert data_of(state.get(gil)).lucky_used == 1


# -- 3. a scattergun's save for half is the weapon's, not the blast's ------------------


def test_a_scattergun_attack_beyond_30_ft_gives_a_save_for_half():
    """l.121: beyond the first 30 ft a scattergun's targets save (DEX) for half damage — with a one-target
    Attack as with a Blast (the same faces give the same line)."""
    lines = []
    for how in ("attack", "blast"):
        f, dice = new_fight(15, 5, 2, 3)
        dusty = add_pc(f, "Dusty", level=1, dex=10, weapons="scattergun", hp=12)
        (lefty,) = add_npc(f, "outlaw", hp=30)
        start(f)
        if how == "attack":
            events = f.do(Attack(actor=dusty, target=lefty, distance=60, weapon="scattergun"))
        else:
            events = f.do(Blast(actor=dusty, targets=(lefty,), distance=60))
        (ev,) = _attacks(events)
        assert ev.save is not None and not ev.saved and ev.amount == 8 and dice.exhausted
        lines.append(ev.describe(f.state))
    assert lines[0] == lines[1]
    assert "Outlaw saves for half: 1d20 [3] = 3 (DEX +0) = 3 vs ST 18: failed" in lines[0]


def test_a_scattergun_attack_within_30_ft_gives_no_save():
    f, dice = new_fight(15, 5, 2)
    dusty = add_pc(f, "Dusty", level=1, dex=10, weapons="scattergun", hp=12)
    (lefty,) = add_npc(f, "outlaw", hp=30)
    start(f)
    (ev,) = _attacks(f.do(Attack(actor=dusty, target=lefty, distance=30, weapon="scattergun")))
    assert ev.save is None and ev.amount == 8 and dice.exhausted


def test_a_gambler_shot_by_a_scattergun_attack_may_lucky_streak_the_save():
    """The save for half of a plain Attack is offered to Lucky Streak as a Blast's is; a re-roll that
    saves gives back the half not taken."""
    f, dice = new_fight(15, 5, 2, 3)
    (lefty,) = add_npc(f, "outlaw", hp=30, weapons="scattergun")
    gil = add_pc(f, "Gil", cls="Gambler", level=1, hp=20)
    start(f)
    events = f.do(Attack(actor=lefty, target=gil, distance=60, weapon="scattergun"))
    assert _attacks(events)[0].amount == 7 and data(f, gil).hp == 13
    assert any(isinstance(e, PromptRaised) and e.prompt.kind == "lucky_streak" for e in events)
    dice.add(20)
    (used, _closed) = f.do(LuckyStreak(actor=gil))
    assert used.success and used.restored == 4 and data(f, gil).hp == 17


def test_a_gunplay_scattergun_shot_beyond_30_ft_gives_a_save_for_half():
    """A Gun-play shot with the scattergun beyond 30 ft: the target saves for half (18 saves: 8 → 4)."""
    f, dice = new_fight(15, 5, 2, 18)
    dusty = add_pc(f, "Dusty", level=1, dex=10, weapons="scattergun", hp=12)
    (lefty,) = add_npc(f, "outlaw", hp=30)
    start(f)
    (ev,) = _attacks(f.do(GunPlay(actor=dusty, targets=(lefty,), distance="60")))
    assert ev.saved and ev.amount == 4 and dice.exhausted
    assert data(f, lefty).hp == 26


# -- 5. no resting in the middle of a fight ---------------------------------------------


def test_recover_is_refused_during_a_running_fight():
    """RULINGS (letting time pass): during a fight time passes only by turns — bnb's own Rest (Recover) is
    refused as the core Rest is, and the knocked out stay down; after the fight it heals."""
    f, _dice = new_fight(15, 3)
    tex = add_pc(f, "Tex", cls="Trailblazer", level=3, hp=3)
    (row,) = add_npc(f, "rowdy", hp=8)
    start(f, {row: 20, tex: 10})
    f.do(Attack(actor=row, target=tex, weapon="fists"))
    assert data(f, tex).status == "knocked out"
    words = "time passes only by turns during a fight: end the fight first, then rest"
    _refused(f, Rest(hours=1, ids=(tex,)), words)
    _refused(f, Recover(actor=tex, hours=24), words)
    f.do(EndFight())
    (ev,) = f.do(Recover(actor=tex, hours=1))
    assert ev.woke and data(f, tex).status == "ok"


# -- 6. a lower HP maximum falls like damage ---------------------------------------------


def test_gm_adjust_of_the_hp_maximum_to_zero_or_below_falls_like_damage():
    """l.138 "When HP reaches 0, the character gets a saving roll vs. death": Dusty at 3/8 HP whose maximum
    the GM sets to 4 is at -1 HP, dying, with a death save asked; he makes no attack. Ruling (harm.py)."""
    f, dice = new_fight()
    dusty = add_pc(f, "Dusty", level=1, hp=8)
    (lefty,) = add_npc(f, "outlaw", hp=5)
    start(f)
    f.do(Damage(targets=(dusty,), amount="5"))
    events = f.do(Adjust(id=dusty, field="max_hp", value=4))
    assert [e.outcome for e in events if isinstance(e, Dropped)] == ["dying"]
    assert data(f, dusty).hp == -1 and data(f, dusty).status == "dying"
    assert [p.command for p in f.state.prompts] == ["death_save"]
    _refused(f, Attack(actor=dusty, target=lefty, distance=5), "Dusty is dying")
    dice.add(20)
    (save, _resolved) = f.do(DeathSave(actor=dusty))
    assert save.total == 20 + 2 - 1 and save.success  # (Shootist +2, 1 HP below 0)


def test_gm_adjust_of_the_hp_maximum_above_0_hp_raises_nothing():
    f, _dice = new_fight()
    dusty = add_pc(f, "Dusty", level=1, hp=8)
    f.do(Damage(targets=(dusty,), amount="5"))
    assert len(f.do(Adjust(id=dusty, field="max_hp", value=6))) == 1
    assert data(f, dusty).hp == 1 and data(f, dusty).status == "ok" and f.state.prompts == ()


def test_gm_adjust_of_the_hp_maximum_of_one_already_down_asks_no_second_save():
    """Ruling (harm.py): Dusty stable after a death save at 0 HP, the GM corrects his maximum: no second save (he
    was made dying again, with a new death save, for a correction)."""
    f, dice = new_fight()
    dusty = add_pc(f, "Dusty", level=1, hp=8)
    add_npc(f, "outlaw", hp=5)
    start(f)
    f.do(Damage(targets=(dusty,), amount="8"))
    dice.add(20)
    f.do(DeathSave(actor=dusty))
    status = data(f, dusty).status
    events = f.do(Adjust(id=dusty, field="max_hp", value=7))
    assert not [e for e in events if isinstance(e, Dropped)] and f.state.prompts == ()
    assert data(f, dusty).status == status


def test_gm_adjust_of_a_minor_npcs_hp_maximum_to_0_kills_it():
    f, _dice = new_fight()
    (slim,) = add_npc(f, "outlaw", name="Slim", hp=7, minor=True)
    f.do(Damage(targets=(slim,), amount="3"))
    events = f.do(Adjust(id=slim, field="max_hp", value=3))
    assert [e.outcome for e in events if isinstance(e, Dropped)] == ["dead"] and f.state.prompts == ()


# -- 7. the GM's untick of "by surprise" ----------------------------------------------------


def test_a_gamblers_untick_of_by_surprise_in_the_surprise_round_is_honoured():
    """l.59: a Gambler's concealed-weapon hit *by surprise* deals ×2 — the Referee's call. The form starts
    ticked in his surprise round (attack_defaults); a GM who unticks it gets a plain hit (it was doubled)."""
    f, _dice = new_fight(15, 3)
    gil = add_pc(f, "Gil", cls="Gambler", level=1, weapons="derringer", hp=5)
    (lefty,) = add_npc(f, "outlaw", hp=30)
    start(f, {gil: 20, lefty: 10}, surprise=(gil,))
    assert attack_defaults(f.state, gil) == {"sneak": True}
    (ev,) = _attacks(f.do(Attack(actor=gil, target=lefty, distance=5, sneak=False)))
    assert ev.hit and not ev.sneak and ev.amount == 2 and data(f, lefty).hp == 28


# -- 8. Why? on a scattergun's shot ----------------------------------------------------------


def _shot_reasons(f):
    seq = next(e.seq for e in (f.log.entry(i) for i in range(len(f.log))) if isinstance(e.event, ShotsFired))
    return {r.rule: r.terms for r in explain(f, seq)}


def test_why_on_a_scattergun_shot_counts_one_shot_for_a_blast_and_no_spread_for_one_target():
    """A Blast's shot: 'one shot, at every target of the blast' (it said 'one shot for every target of the
    blast', read as a shot per target); a one-target Attack's shot cites no spread at all."""
    f, _dice = new_fight(15, 5, 2, 2)
    dusty = add_pc(f, "Dusty", level=1, weapons="scattergun", hp=12)
    a, b = add_npc(f, "outlaw", hp=30, count=2)
    start(f)
    f.do(Blast(actor=dusty, targets=(a, b), distance=10))
    assert _shot_reasons(f)["Scattergun spread"] == ("one shot, at every target of the blast",)
    f, _dice = new_fight(15, 5, 2)
    dusty = add_pc(f, "Dusty", level=1, weapons="scattergun", hp=12)
    (a,) = add_npc(f, "outlaw", hp=30)
    start(f)
    f.do(Attack(actor=dusty, target=a, distance=10, weapon="scattergun"))
    assert set(_shot_reasons(f)) == {"Shots"}


# -- 9. Gun-play with "Guns wielded" empty ------------------------------------------------------


def test_gunplay_too_few_shots_in_the_first_gun_names_the_guns_he_carries():
    """l.43 "up to the number of shots available in his gun(s)": with Guns wielded empty Gun-play takes the
    first loaded gun (1 shot here); refused, it says to name both loaded guns he carries, and naming them works."""
    f, dice = new_fight()
    dusty = add_pc(f, "Dusty", level=3, weapons="belt pistol:1, heavy pistol:2", hp=12)
    a, b = add_npc(f, "outlaw", hp=9, count=2)
    start(f)
    _refused(
        f,
        GunPlay(actor=dusty, targets=(a, b, b), distance="5"),
        r"Dusty has 1 loaded shot in the belt pistol, fewer than the 3 attacks: Gun-play never makes more attacks "
        r"than loaded shots \(name both guns in Guns wielded: belt pistol, heavy pistol\)",
    )
    dice.add(2, 2, 2)
    events = f.do(GunPlay(actor=dusty, targets=(a, b, b), guns="belt pistol, heavy pistol", distance="5"))
    assert len(_attacks(events)) == 3


def test_gunplay_too_few_shots_in_every_gun_gives_no_hint():
    f, _dice = new_fight()
    dusty = add_pc(f, "Dusty", level=3, weapons="belt pistol:1, heavy pistol:1", hp=12)
    a, b = add_npc(f, "outlaw", hp=9, count=2)
    start(f)
    _refused(f, GunPlay(actor=dusty, targets=(a, b, b), distance="5"), r"than loaded shots — Gun-play")


# -- counts in the GM's words ------------------------------------------------------------------


def test_counts_of_one_are_said_in_the_singular():
    """'1 shots', 'up to 1 attacks', '0 → 1 shots', 'allows 1 attack(s)': a count says its word for that many."""
    from systems.bnb.tables import find_weapon

    rifle = find_weapon("buffalo rifle")
    assert rifle is not None and "; 1 shot" in rifle.describe() and "1 shots" not in rifle.describe()
    f, _dice = new_fight(15, 3)
    dusty = add_pc(f, "Dusty", level=1, dex=10, weapons="horse pistol:0", hp=12)
    (lefty,) = add_npc(f, "outlaw", hp=30)
    start(f)
    f.do(Reload(actor=dusty))
    assert "(0 → 1 shot; the round's action)" in f.describe(len(f.entries) - 1)
    next_round(f)
    _refused(f, Reload(actor=dusty, gun="horse pistol"), r"the horse pistol is already full \(1 shot\)")
    f.do(GunPlay(actor=dusty, targets=(lefty,), distance="5"))
    why = {r.rule: r.terms for r in explain(f, f.log.entry(len(f.log) - 1).seq)}
    assert "level 1: up to 1 attack this round" in why["Gun-play"]


# -- 10. the attack form after a critter's first listed attack -------------------------------------


def test_the_attack_form_starts_on_the_critters_next_listed_attack():
    """A cougar ('Claws, Bite') claws with the attack form (weapon left empty); the form then starts on the
    bite, so Enter makes it (it stayed on the claws, refused 'each listed attack once a round'); in the
    next round it starts afresh."""
    from screens import logic

    f, _dice = new_fight(2, 2)
    dusty = add_pc(f, "Dusty", hp=30)
    (cat,) = add_npc(f, "cougar", hp=12)
    start(f, {cat: 20, dusty: 10})
    spec = next(s for s in f.system.commands() if s.name == "attack")
    form = logic.prefill(spec, f.state, dusty, turn_commands=f.system.turn_commands)
    assert form["actor"] == cat and form["weapon"] == ""
    (claws,) = _attacks(f.do(Attack(actor=cat, target=dusty, weapon=form["weapon"])))
    assert claws.weapon == "claws"
    form = logic.prefill(spec, f.state, dusty, turn_commands=f.system.turn_commands)
    assert form["weapon"] == "bite"
    (bite,) = _attacks(f.do(Attack(actor=cat, target=dusty, weapon=form["weapon"])))
    assert bite.weapon == "bite"
    next_round(f)
    while f.state.current != cat:
        f.do(NextTurn())
    assert logic.prefill(spec, f.state, dusty, turn_commands=f.system.turn_commands)["weapon"] == ""


# -- a Gambler's failed death save, with a Lucky Streak to come ----------------------------------------


def test_a_gamblers_failed_death_save_is_not_recorded_dead_while_his_lucky_streak_may_save_him():
    """The death prompt was settled "dead" at once, and the line stayed in the record (the log, replay --text, the
    recap) after the Lucky Streak re-roll saved him."""
    from tracker.events import PromptResolved

    f, dice = new_fight()
    doc = add_pc(f, "Doc", cls="Gambler", level=1, hp=5)
    add_npc(f, "outlaw", hp=5)
    start(f)
    f.do(Damage(targets=(doc,), amount="8"))
    dice.add(1)
    events = f.do(DeathSave(actor=doc))
    (settled,) = [e for e in events if isinstance(e, PromptResolved)]
    assert settled.note == "failed: dead unless a Lucky Streak re-roll saves him"
    assert [p.kind for p in f.state.prompts] == ["lucky_streak"]
    assert "Settle it (P) as 'failure stands'" in f.state.prompts[0].text
    dice.add(20)
    f.do(LuckyStreak(actor=doc))
    assert data(f, doc).status != "dead"


@pytest.mark.parametrize("reroll", [18, 2], ids=["saves", "fails again"])
def test_a_lucky_streak_on_a_called_save_vs_death_leaves_a_healthy_gambler_standing(reroll: int):
    """A saving throw the GM calls "vs death" (Table 3) at full HP, failed and re-rolled with Lucky Streak, made the
    Gambler unconscious (re-roll saved) or dead (failed again): the death save's outcomes. Only the death save at
    0 HP has them; this one is saved or failed again, his status untouched."""
    f, dice = new_fight(3, reroll)
    gam = add_pc(f, "Gam", cls="Gambler", level=1, hp=8)
    add_npc(f, "outlaw", hp=6)
    start(f)
    f.do(SavingThrow(actor=gam, against="death"))
    (used, _closed) = f.do(LuckyStreak(actor=gam))
    assert used.death_save is False and data(f, gam).status == "ok" and data(f, gam).hp == 8
    said = used.describe(f.state)
    assert ("saved" if reroll == 18 else "failed again") in said and "unconscious" not in said and "dies" not in said
    assert not f.system.standing(f.state, f.state.get(gam)).out and dice.exhausted


def test_a_lucky_streak_on_the_death_save_still_decides_life_and_death():
    """The real death save at 0 HP re-rolled keeps its outcomes (unconscious or dead), said so in the event."""
    f, dice = new_fight(2, 19)
    add_npc(f, "outlaw", hp=30)
    gil = add_pc(f, "Gil", cls="Gambler", level=1, hp=3)
    start(f)
    f.do(Damage(targets=(gil,), amount="4"))
    f.do(DeathSave(actor=gil))
    assert data(f, gil).status == "dead"
    (used, *_rest) = f.do(LuckyStreak(actor=gil))
    assert used.death_save is True and data(f, gil).status == "unconscious" and dice.exhausted


def test_a_lucky_streak_from_an_older_file_reads_vs_death_as_the_death_save():
    """Files written before ``death_save`` was said: its absence reads as before (vs death: the death save)."""
    from saves.format import codec_for
    from systems.bnb import system
    from systems.bnb.events import LuckyStreakUsed

    codec = codec_for(system)
    old = {
        "id": "c1",
        "against": "death",
        "roll": {
            "expr": "1d20",
            "faces": [19],
            "kept": [19],
            "extra": [],
            "modifier": 0,
            "total": 19,
            "label": "",
        },
        "total": 19,
        "st": 15,
        "success": True,
    }
    ev = codec.converter.structure({**old, "type": LuckyStreakUsed.TYPE}, codec.events)
    assert ev.death_save is None and ev.of_death_save


def test_a_lucky_streak_after_healing_gives_back_no_more_than_the_harm_still_taken():
    """Scattergun save for half failed, the Gambler healed in full, then the save re-rolled into a success: the
    half "not taken" came back on top: HP 25/20, lethal damage -5. It comes back only as far as the harm on him."""
    f, dice = new_fight(15, 4, 4, 3, 17)
    sam = add_pc(f, "Sam", level=1, weapons="scattergun", hp=20)
    gam = add_pc(f, "Gam", cls="Gambler", level=1, hp=20)
    start(f)
    f.do(Attack(actor=sam, target=gam, distance=40))
    assert data(f, gam).hp == 11
    from tracker import Heal

    f.do(Heal(targets=(gam,), amount="6"))
    assert data(f, gam).hp == 17
    (used, _closed) = f.do(LuckyStreak(actor=gam))
    assert used.success and used.restored == 3
    assert data(f, gam).hp == 20 and data(f, gam).damage == 0 and dice.exhausted


def test_a_sure_shot_named_short_for_a_type_not_carried_is_refused_naming_the_one_carried():
    """Ruling: "pistol" (Table 12's belt pistol) for a Shootist carrying only a heavy pistol recorded the belt
    pistol: his +1 never applied and nothing showed it. Refused naming both; the full name still chooses a type not
    carried (chosen at outset), and the detail says it is not carried."""
    f, _dice = new_fight()
    with pytest.raises(Refused, match=r"'pistol' is the belt pistol .* write 'heavy pistol' for the one carried"):
        add_pc(f, "Dusty", level=1, weapons="heavy pistol", favoured="pistol", hp=10)
    dusty = add_pc(f, "Dusty", level=1, weapons="heavy pistol", favoured="heavy pistol", hp=10)
    assert data(f, dusty).favoured == "heavy_pistol"
    kid = add_pc(f, "Kid", level=1, weapons="heavy pistol", favoured="belt pistol", hp=10)
    assert data(f, kid).favoured == "belt_pistol"
    assert "Sure Shot: belt pistol (+1, not carried)" in f.system.detail(f.state, f.state.get(kid))
    sam = add_pc(f, "Sam", level=1, weapons="belt pistol", favoured="pistol", hp=10)  # carried: as before
    assert data(f, sam).favoured == "belt_pistol"
