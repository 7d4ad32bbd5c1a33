"""Attacks: one attack, a critter's listed attacks, Gun-play, the scattergun blast, reloading.

Rulings made here (GM defaults; a logged GM adjustment overrides any of them):
- An NPC or critter without a class attacks at its HD bonus (capped at +15)
  plus situational modifiers, never its DEX or STR ("the monster's normal
  'to-hit' bonus is equal to its hit dice"); its DEX breaks initiative ties
  and counts in its DEX saves. An NPC built with a class attacks as that class.
  (test_an_npc_attacks_at_its_hd_never_its_dex)
- A hit always deals at least 1 damage; sneak attack doubles the whole total.
  (test_a_hit_deals_at_least_1, test_gambler_sneak_attack_doubles_damage_in_the_surprise_round)
- d3 damage dice (fists, "Hoof, d3") never explode; a natural 20 makes them 3.
  (test_d3_damage_never_explodes_and_a_natural_20_makes_it_3)
- Thrown weapons are missile attacks: DEX to hit, no STR on damage. (test_a_thrown_knife_is_a_missile_attack)
- Reloading takes the round's action: no attack after it, no reload after an attack.
  (test_rate_of_fire_half_fires_every_other_round_and_reload_takes_the_action)
- Gun-play with "Guns wielded" empty uses the first loaded firearm; when it
  has too few shots and his loaded guns together have enough, the refusal
  names them and says to name them. (test_gunplay_too_few_shots_in_the_first_gun_names_the_guns_he_carries)
- Gun-play takes the Shootist's round: not after another attack that round.
  A Gun-play or critter attack at a foe who dropped earlier in the same action
  is not made (no shot spent). (test_gunplay_takes_the_round,
  test_gunplay_holds_fire_at_a_foe_already_down_and_spends_no_shot)
- Gun-play walks its plan by position: the first gun's loaded shots, then the
  next gun's, one per target in the order named; everything (each planned
  gun's range, the shots) is checked before a die is rolled, and nothing is
  refused after. A shot held at a foe dropped earlier keeps its gun unfired
  (no shot spent) and the next target keeps its own planned gun.
  (test_gunplay_a_foe_dropped_early_leaves_the_later_shots_on_their_planned_guns)
- A scattergun blast makes an attack roll and a damage roll per target; beyond
  30 ft each target struck saves (d20 + DEX ≥ its Saving Throw) for half
  damage, at least 1. A Gambler who fails it may re-roll it with Lucky Streak.
  (test_scattergun_blast_one_shot_attacks_every_target, test_scattergun_beyond_30_ft_targets_save_for_half,
  test_lucky_streak_rerolls_a_failed_scattergun_save_for_half_damage)
  The save is the scattergun's, not the blast's: a one-target Attack or a
  Gun-play shot with it beyond 30 ft gets the same save (spread_save).
  (test_a_scattergun_attack_beyond_30_ft_gives_a_save_for_half)
- Sneak attack is the GM's tick "by surprise": the attack form starts ticked
  for a Gambler in the surprise round his side has (commands.attack_defaults),
  and an untick is honoured (whether a hit is by surprise is the Referee's
  call); the GM can tick it in any other round. "knife" is the knife, not the Bowie.
  (test_a_gamblers_untick_of_by_surprise_in_the_surprise_round_is_honoured)
  (test_gambler_sneak_attack_doubles_damage_in_the_surprise_round,
  test_sneak_attack_only_for_gamblers_with_knife_derringer_or_pocket_pistol)
- Ruling: the spear's two-handed +1 damage (Table 10's † note, l.88) is for wielding it in melee; a spear
  thrown (beyond 5 ft) is Table 11's missile spear, 1d6, and the two-hands tick is refused with the reason.
  (test_a_thrown_spear_gains_nothing_from_two_hands)
- A critter's "level" for exploding damage is its HD; ½ HD counts as 0 HD
  for to-hit (+0) and Saving Throw (19). (test_a_critters_level_for_explosions_is_its_hd)
"""

from __future__ import annotations

import attrs

from systems.bnb.checks import SCATTERGUN_SAVE, half_damage, roll_save, save_parts
from systems.bnb.commands import Attack, Blast, CritterAttacks, GunPlay, Reload
from systems.bnb.events import AttackRolled, HeldFire, Reloaded, ShotsFired
from systems.bnb.rules.common import (
    Use,
    can_act,
    check_rate,
    cover,
    cover_of,
    favoured,
    in_fight,
    mode,
    natural_use,
    resolve_use,
    target,
    weapon_use,
)
from systems.bnb.rules.harm import blow
from systems.bnb.rules.table import R
from systems.bnb.sheet import data
from systems.bnb.tables import GAMBLER, SHOOTIST, Carried
from tracker.commands import Modifier
from tracker.dice import DiceExpr, DiceRequest, Roller, roll
from tracker.errors import Refused
from tracker.kit import Draft, need
from tracker.model import Combatant
from tracker.text import counted, whole_number

APPLIES = (  # the rules these deciders apply (rules/table.py)
    R.to_hit,  # roll_attack
    R.natural,
    R.npc_to_hit,
    R.npc_no_dex,
    R.damage,
    R.exploding,
    R.critter_level,
    R.keep_highest,
    R.small_dice,
    R.at_least_one,
    R.fists,
    R.rowdy,
    R.sneak_attack,  # attack
    R.two_hands,
    R.into_melee,
    R.critter_attacks,  # critter_attacks
    R.critter_held,
    R.held_fire,
    R.gunplay,  # gunplay
    R.gunplay_targets,
    R.scattergun,  # blast
    R.scattergun_save,
    R.reload,  # reload
)

SCATTER_SAVE_BEYOND = 30  # feet: a scattergun's target beyond this saves for half (l.121)

# ---------------------------------------------------------------------------
# one attack roll


def roll_attack(
    actor: Combatant,
    tgt: Combatant,
    use: Use,
    *,
    melee: bool,
    range_mod: Modifier | None,
    cover_value: int,
    modifiers: tuple[Modifier, ...],
    dice: Roller,
    sneak: bool = False,
    two_hands: bool = False,
    gunplay: bool = False,
    using: str | None = None,
) -> AttackRolled:
    """d20 + to-hit (+ STR or DEX for a class) + favoured + range − cover ≥ DC, then the damage on a hit."""
    d = data(actor)
    fav = favoured(actor, use)
    attr = "STR" if melee else "DEX"
    parts = [Modifier(label="to-hit", value=d.to_hit)]
    if d.cls:  # an NPC without a class attacks at its HD alone
        parts.append(Modifier(label=attr, value=d.mod(attr)))
    if fav:
        parts.append(fav)
    if range_mod:
        parts.append(range_mod)
    in_cover = cover_of(tgt, cover_value)
    if in_cover:
        parts.append(in_cover)
    parts.extend(modifiers)
    atk = roll("1d20", dice, f"{actor.name} attacks {tgt.name}")
    face = atk.faces[0]
    total = face + sum(p.value for p in parts)
    dc = data(tgt).dc
    hit = face == 20 or (face != 1 and total >= dc)
    common = AttackRolled(
        actor=actor.id,
        target=tgt.id,
        weapon=use.label,
        using=use.key if using is None else using,
        attack=atk,
        parts=tuple(parts),
        total=total,
        dc=dc,
        hit=False,
        gunplay=gunplay,
        temporary=use.temporary,
    )
    if not hit:
        return common
    strength = d.mod("STR") if melee and d.cls else 0
    plus = use.plus + strength + (1 if fav else 0) + (1 if two_hands else 0)
    explode = max(0, d.level // 2) if use.sides == 6 else 0
    expr = DiceExpr(use.dice, use.sides, 1 if use.keep_high else None, None, explode, plus)
    label = f"{use.label} damage"
    if face == 20:
        rest = dice.faces(DiceRequest(use.dice - 1, 1, use.sides, label)) if use.dice > 1 else ()
        dmg = expr.result((use.sides, *rest), dice, label)
    else:
        dmg = expr.roll(dice, label)
    amount = max(1, dmg.total) * (2 if sneak else 1)
    return attrs.evolve(common, hit=True, damage=dmg, amount=amount, sneak=sneak)


def spread_save(ev: AttackRolled, tgt: Combatant, use: Use, distance: int, dice: Roller) -> AttackRolled:
    """A scattergun's hit beyond its first 30 ft: the one struck saves (d20 + DEX ≥ its Saving Throw) for half
    damage, at least 1 — however the shot was fired (a Blast, an Attack, a Gun-play shot); a Gambler who fails
    it may re-roll it with Lucky Streak (``react``)."""
    if not ev.hit or use.weapon is None or not use.weapon.scatter or distance <= SCATTER_SAVE_BEYOND:
        return ev
    parts = tuple(save_parts(tgt, SCATTERGUN_SAVE, "DEX"))
    s = roll_save(tgt, parts, dice, f"{tgt.name} saves for half")
    hurt = half_damage(ev.amount) if s.success else ev.amount
    return attrs.evolve(ev, save=s.roll, save_total=s.total, save_st=s.st, saved=s.success, amount=hurt)


# ---------------------------------------------------------------------------
# deciders


def attack(d: Draft, cmd: Attack, dice: Roller) -> None:
    state = d.state
    in_fight(state)
    actor = need(state, cmd.actor, "attacker")
    can_act(state, actor)
    tgt = target(state, actor, cmd.target)
    use = resolve_use(actor, cmd.weapon)
    check_rate(state, actor, use)
    melee, range_mod = mode(use, cmd.distance, tgt)
    cover(cmd.cover)
    if cmd.two_hands and (use.weapon is None or not use.weapon.versatile):
        raise Refused(f"only the spear gains +1 damage used two-handed, not the {use.label}", rule=R.two_hands)
    if cmd.two_hands and not melee:
        raise Refused(
            f"a thrown {use.label} gains nothing from two hands: the +1 damage is for a spear wielded with both "
            f"hands in melee (within 5 ft); thrown {cmd.distance} ft it is Table 11's missile spear, 1d6",
            rule=R.two_hands,
        )
    ad = data(actor)
    sneak_ok = ad.cls == GAMBLER and use.weapon is not None and use.weapon.sneak
    sneak = cmd.sneak
    if sneak and not sneak_ok:
        raise Refused("sneak attack is a Gambler's, with a knife, derringer or pocket pistol only", rule=R.sneak_attack)
    intended, pick = None, None
    if cmd.into_melee:
        if melee:
            raise Refused("firing into a melee is for missile attacks: a melee attack picks its foe", rule=R.into_melee)
        crowd = [tgt.id]
        for cid in cmd.into_melee:
            other = target(state, actor, cid)
            if other.id not in crowd:
                crowd.append(other.id)
        if len(crowd) > 1:
            pick = roll(f"1d{len(crowd)}", dice, "who in the melee takes the shot")
            intended, tgt = tgt.id, state.get(crowd[pick.total - 1])
    if use.firearm and use.carried is not None:
        d.add(ShotsFired(actor=actor.id, gun=use.carried.name, count=1))
    ev = roll_attack(
        actor,
        tgt,
        use,
        melee=melee,
        range_mod=range_mod,
        cover_value=cmd.cover,
        modifiers=cmd.modifiers,
        dice=dice,
        sneak=sneak,
        two_hands=cmd.two_hands,
    )
    if intended is not None:
        ev = attrs.evolve(ev, intended=intended, pick=pick)
    blow(d, spread_save(ev, tgt, use, cmd.distance, dice))


def critter_attacks(d: Draft, cmd: CritterAttacks, dice: Roller) -> None:
    state = d.state
    in_fight(state)
    actor = need(state, cmd.actor, "attacker")
    can_act(state, actor)
    tgt = target(state, actor, cmd.target)
    ad = data(actor)
    if not ad.natural:
        raise Refused(f"{actor.name} has no listed attacks: use Attack with a weapon", rule=R.critter_attacks)
    uses = [natural_use(n) for n in ad.natural]
    for u in uses:
        check_rate(state, actor, u)
    cover(cmd.cover)
    for u in uses:
        if data(d.get(tgt.id)).status != data(tgt).status:
            d.add(HeldFire(actor=actor.id, target=tgt.id, reason=f"{tgt.name} is down"))
            continue
        ev = roll_attack(
            actor,
            d.get(tgt.id),
            u,
            melee=True,
            range_mod=None,
            cover_value=cmd.cover,
            modifiers=cmd.modifiers,
            dice=dice,
        )
        blow(d, ev)


def _guns(actor: Combatant, names: str) -> list[Carried]:
    ad = data(actor)
    if not names.strip():
        loaded = [g for g in ad.firearms if g.shots > 0]
        if loaded:
            return loaded[:1]
        if ad.firearms:
            return list(ad.firearms[:1])
        raise Refused(f"Gun-play needs a firearm: {actor.name} carries none", rule=R.gunplay)
    out: list[Carried] = []
    for name in names.split(","):
        if not name.strip():
            continue
        g = ad.carried(name)
        if g is None or not g.spec.firearm:
            raise Refused(
                f"Gun-play is made with firearms: {actor.name} carries no firearm '{name.strip()}'", rule=R.gunplay
            )
        if g.name in [x.name for x in out]:
            raise Refused(f"the {g.name} is named twice: name a second gun as '{g.spec.name} 2'")
        out.append(g)
    return out


def _distances(text: str, n: int) -> list[int]:
    parts = [p.strip() for p in str(text).split(",") if p.strip()] or ["0"]
    try:
        values = [whole_number(p) for p in parts]
    except ValueError:
        raise Refused(f"distance '{text}' must be feet: one number, or one per target") from None
    if len(values) == 1:
        return values * n
    if len(values) != n:
        raise Refused(f"give one distance for all targets or one per target ({n}), not {len(values)}")
    return values


def gunplay(d: Draft, cmd: GunPlay, dice: Roller) -> None:
    state = d.state
    in_fight(state)
    actor = need(state, cmd.actor, "Shootist")
    ad = data(actor)
    if ad.cls != SHOOTIST:
        what = f"a {ad.cls}" if ad.cls else "not a Shootist"
        raise Refused(f"Gun-play is the Shootist's: {actor.name} is {what}", rule=R.gunplay)
    can_act(state, actor)
    if not cmd.targets:
        raise Refused("Gun-play: name a target for each attack")
    n = len(cmd.targets)
    if n > ad.level:
        raise Refused(
            f"Gun-play gives one attack per level: {actor.name} is level {ad.level}, "
            f"so {counted(ad.level, 'attack')}, not {n}",
            rule=R.gunplay,
        )
    if ad.gunplay:
        raise Refused(f"{actor.name} has made Gun-play this round already", rule=R.gunplay)
    if ad.reloaded:
        raise Refused(f"reloading took {actor.name}'s action this round: a reload is the round's action", rule=R.reload)
    if ad.used:
        raise Refused(
            f"{actor.name} has already attacked this round: Gun-play takes the whole round", rule=R.gunplay_targets
        )
    guns = _guns(actor, cmd.guns)
    shots = sum(g.shots for g in guns)
    names = ", ".join(g.name for g in guns)
    if shots == 0:
        raise Refused(
            f"the {names} {'is' if len(guns) == 1 else 'are'} empty: reload first (Gun-play needs loaded shots)",
            rule=R.shots,
        )
    if shots < n:
        loaded = [g for g in ad.firearms if g.shots > 0]
        hint = ""
        if not cmd.guns.strip() and len(loaded) > 1 and sum(g.shots for g in loaded) >= n:
            carried = ", ".join(g.name for g in loaded)
            hint = (
                f" (name both guns in Guns wielded: {carried})"
                if len(loaded) == 2
                else f" (name the guns he wields in Guns wielded; loaded: {carried})"
            )
        raise Refused(
            f"{actor.name} has {counted(shots, 'loaded shot')} in the {names}, fewer than the {n} attacks: "
            f"Gun-play never makes more attacks than loaded shots{hint}",
            rule=R.gunplay,
        )
    targets = [target(state, actor, t) for t in cmd.targets]
    for t in targets:
        if not data(t).hd.at_most_one:
            raise Refused(
                f"Gun-play is only against foes of 1 HD or fewer: {t.name} has {data(t).hd} HD", rule=R.gunplay_targets
            )
    distances = _distances(cmd.distance, n)
    cover(cmd.cover)
    planned = [g for g in guns for _ in range(g.shots)][:n]  # the plan: each attack's gun, by position
    ranges = [mode(weapon_use(g), dist, t)[1] for t, dist, g in zip(targets, distances, planned, strict=True)]
    fired: dict[str, int] = {}
    attacks = Draft(d.system, state)  # the attacks, logged after the shots they spend
    for t0, gun, dist, range_mod in zip(targets, planned, distances, ranges, strict=True):
        t = attacks.get(t0.id)
        if data(t).status != data(t0).status:
            attacks.add(HeldFire(actor=actor.id, target=t.id, reason=f"{t.name} is already down"))
            continue
        fired[gun.name] = fired.get(gun.name, 0) + 1
        use = weapon_use(gun)
        ev = roll_attack(
            actor,
            t,
            use,
            melee=False,
            range_mod=range_mod,
            cover_value=cmd.cover,
            modifiers=cmd.modifiers,
            dice=dice,
            gunplay=True,
            using="",
        )
        blow(attacks, spread_save(ev, t, use, dist, dice))
    d.add(*(ShotsFired(actor=actor.id, gun=g, count=k, gunplay=True) for g, k in fired.items()))
    d.add(*attacks.events)


def blast(d: Draft, cmd: Blast, dice: Roller) -> None:
    state = d.state
    in_fight(state)
    actor = need(state, cmd.actor, "shooter")
    can_act(state, actor)
    gun = data(actor).carried(cmd.gun or "scattergun")
    if gun is None or not gun.spec.scatter:
        raise Refused(
            f"a blast at several targets needs a scattergun: {actor.name} carries none called '{cmd.gun}'",
            rule=R.scattergun,
        )
    use = weapon_use(gun)
    check_rate(state, actor, use)
    if not cmd.targets:
        raise Refused("name the targets within 5 ft either side of the point aimed at", rule=R.scattergun)
    if len(set(cmd.targets)) != len(cmd.targets):
        raise Refused("a blast strikes each target once: name each only once", rule=R.scattergun)
    targets = [target(state, actor, t) for t in cmd.targets]
    cover(cmd.cover)
    range_mod = None
    for t in targets:
        _melee, range_mod = mode(use, cmd.distance, t)
    d.add(ShotsFired(actor=actor.id, gun=gun.name, count=1, blast=True))
    for i, t0 in enumerate(targets):
        t = d.get(t0.id)
        ev = roll_attack(
            actor,
            t,
            use,
            melee=False,
            range_mod=range_mod,
            cover_value=cmd.cover,
            modifiers=cmd.modifiers,
            dice=dice,
            using=gun.name if i == 0 else "",
        )
        blow(d, spread_save(ev, t, use, cmd.distance, dice))


def reload(d: Draft, cmd: Reload, dice: Roller) -> None:
    actor = need(d.state, cmd.actor)
    can_act(d.state, actor)
    ad = data(actor)
    if not ad.firearms:
        raise Refused(f"{actor.name} carries no firearm to reload", rule=R.reload)
    gun: Carried | None
    if cmd.gun.strip():
        gun = ad.carried(cmd.gun)
        if gun is None or not gun.spec.firearm:
            raise Refused(f"{actor.name} carries no firearm '{cmd.gun.strip()}'")
        if gun.shots >= gun.spec.shots:
            raise Refused(f"the {gun.name} is already full ({counted(gun.shots, 'shot')})", rule=R.shots)
    else:
        gun = next((g for g in ad.firearms if g.shots < g.spec.shots), None)
        if gun is None:
            raise Refused(f"{actor.name}'s guns are all full", rule=R.shots)
    if ad.reloaded:
        raise Refused(f"{actor.name} has already reloaded this round: a reload takes the round's action", rule=R.reload)
    if ad.used or ad.gunplay:
        raise Refused(f"{actor.name} has already attacked this round: a reload takes the round's action", rule=R.reload)
    d.add(Reloaded(actor=actor.id, gun=gun.name, before=gun.shots, after=gun.spec.shots))
