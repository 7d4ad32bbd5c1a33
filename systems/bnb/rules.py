"""Blood & Bullets decide and evolve.

Rulings made here where the book and RULINGS.md are silent (GM defaults;
every result can be overridden by a logged GM adjustment):
- A hit always deals at least 1 damage; sneak attack doubles the whole total.
- d3 damage dice (fists, "Hoof, d3") never explode; a natural 20 makes them 3.
- Thrown weapons are missile attacks: DEX to hit, no STR on damage.
- A melee weapon reaches 5 ft ("in melee"); a throwable one (‡) farther is thrown.
- A combatant attacks with one weapon a round, as often as its rate allows:
  melee weapons once, missiles and firearms per Tables 11–12; a critter makes
  each listed attack once. Switching to another weapon in the same round is
  refused (the GM can clear "acted" by an adjustment to allow it).
- A surprise round is for the side granted it: the others make no attack,
  Gun-play, blast or reload in it.
- Reloading takes the round's action: no attack after it, no reload after an attack.
- Gun-play takes the Shootist's round: not after another attack that round.
  A Gun-play or critter attack at a foe who dropped earlier in the same action
  is not made (no shot spent).
- A scattergun blast makes an attack roll and a damage roll per target.
- Sneak attack is automatic for a Gambler in a surprise round he acts in,
  and the GM can tick "by surprise" otherwise; "knife" is the knife, not the Bowie.
- A death save the GM dismisses without a roll leaves the combatant
  unconscious; the death save's HP penalty counts temporary damage too.
- Lucky Streak re-rolls the Gambler's last failed save once; dismissing its
  prompt, or rolling another save, forfeits that re-roll.
- A death save rolled without an open prompt (the GM set "dying" by hand)
  resolves nothing else.
- Binding wounds is once per combatant per fight, after the fight has ended.
- Temporary damage heals 1 HP per level (HD) an hour, as lethal damage
  heals per day; a knocked-out combatant comes to when HP rise above 0.
- A combatant dropped by a simultaneous actor (same initiative, DEX and
  level) still takes that round's turn, and may attack in it.
- NPCs without a listed DEX count as DEX 10 for initiative ties; ½ HD counts
  as 0 HD for to-hit (+0) and Saving Throw (19).
"""

from __future__ import annotations

from typing import Any

import attrs

from systems.bnb import commands as C
from systems.bnb import events as E
from systems.bnb.sheet import DEAD, DYING, KNOCKED_OUT, OK, UNCONSCIOUS, BnbData, Carried, LastSave, Natural
from systems.bnb.tables import (
    CLASS_SAVE_BONUS,
    GAMBLER,
    MELEE,
    SAVES,
    SHOOTIST,
    TRAILBLAZER,
    WEAPON_BY_ID,
    Weapon,
    find_weapon,
    loyalty_result,
    lucky_streaks,
    modifier,
)
from tracker.commands import Modifier
from tracker.dice import DiceExpr, DiceRequest, Roller, roll
from tracker.errors import Refused, UnknownEvent
from tracker.events import Event, PromptRaised, PromptResolved, RoundStarted
from tracker.model import NPC, PC, Combatant, FightState, Prompt

# ---------------------------------------------------------------------------
# what is used for an attack


@attrs.frozen
class Use:
    label: str  # as the log names it
    key: str  # counted against its rate per round
    dice: int
    sides: int
    plus: int = 0
    keep_high: bool = False
    temporary: bool = False
    weapon: Weapon | None = None  # None: a critter's listed attack
    carried: Carried | None = None

    @property
    def firearm(self) -> bool:
        return self.weapon is not None and self.weapon.firearm


def _weapon_use(c: Combatant, carried: Carried) -> Use:
    w = carried.spec
    return Use(carried.name, carried.name, w.dice, w.sides, w.plus, w.keep_high, w.temporary, w, carried)


def _fists(c: Combatant) -> Use:
    w = WEAPON_BY_ID["fists"]
    return Use("fists", "fists", 1, 6 if c.data.rowdy else 3, 0, False, True, w, None)


def _natural_use(n: Natural) -> Use:
    return Use(n.name, n.name, 1, n.sides)


def resolve_use(c: Combatant, name: str) -> Use:
    d: BnbData = c.data
    key = name.strip().lower()
    if not key:
        fav = next((x for x in d.weapons if x.weapon == d.favoured), None)
        if fav is not None:
            return _weapon_use(c, fav)
        if d.weapons:
            return _weapon_use(c, d.weapons[0])
        if d.natural:
            return _natural_use(d.natural[0])
        return _fists(c)
    for n in d.natural:
        if n.name == key:
            return _natural_use(n)
    carried = d.carried(key)
    if carried is not None:
        return _weapon_use(c, carried)
    w = find_weapon(key)
    if w is not None and w.id == "fists":
        return _fists(c)
    has = [x.name for x in d.weapons] + [n.name for n in d.natural] + ["fists"]
    raise Refused(f"{c.name} carries no '{name.strip()}' (has: {', '.join(has)})")


# ---------------------------------------------------------------------------
# checks


def _who(state: FightState, cid: str | None, what: str = "combatant") -> Combatant:
    if not cid:
        raise Refused(f"choose a {what}")
    c = state.find(cid) or state.by_name(cid)
    if c is None or c.removed:
        raise Refused(f"there is no {what} '{cid}' in this fight")
    return c


def simultaneous_drop(state: FightState, c: Combatant) -> bool:
    """Dropped this round by someone acting at exactly the same time: its blow still lands."""
    d: BnbData = c.data
    return (
        d.dropped_round == state.round
        and d.dropped_by is not None
        and d.dropped_by != c.id
        and d.dropped_by in state.tied_with(c.id)
    )


def _in_fight(state: FightState) -> None:
    if not state.started:
        raise Refused("the fight has not started: roll initiative and start it first")
    if state.ended:
        raise Refused("the fight is over")


def _can_act(state: FightState, c: Combatant) -> None:
    if state.round == 0 and state.surprise and c.id not in state.surprise:
        side = ", ".join(state.name(i) for i in state.surprise)
        raise Refused(f"the surprise round is for {side}: {c.name} is caught by surprise and acts from round 1")
    status = c.data.status
    if status != OK and not simultaneous_drop(state, c):
        raise Refused(f"{c.name} is {status}: the dead, the dying and the unconscious make no attacks")
    _npc_on_turn(state, c)


def _npc_on_turn(state: FightState, c: Combatant) -> None:
    """Ruling: an NPC acts on its own turn (or with those tied with it): NPCs may not withhold.

    A PC may act at any later moment of the round, even interrupting another's
    action, as the book allows, so its actions are not tied to the turn.
    """
    cur = state.current
    if cur is None or c.is_pc or c.id == cur or c.id in state.tied_with(cur):
        return
    raise Refused(f"it is {state.name(cur)}'s turn: NPCs act on their own turn (they may not withhold their action)")


def _target(state: FightState, actor: Combatant, cid: str) -> Combatant:
    t = _who(state, cid, "target")
    if t.id == actor.id:
        raise Refused(f"{actor.name} cannot attack themself")
    if t.data.status == DEAD:
        raise Refused(f"{t.name} is already dead")
    return t


def _rate(state: FightState, c: Combatant, use: Use) -> None:
    d: BnbData = c.data
    if d.reloaded:
        raise Refused(f"reloading took {c.name}'s action this round (Ruling: a reload is the round's action)")
    if d.gunplay:
        raise Refused(f"{c.name} made Gun-play this round: it takes the round and replaces the guns' rate of fire")
    count = d.used.count(use.key)
    w = use.weapon
    natural = {n.name for n in d.natural}
    if w is None:
        other = next((k for k in d.used if k not in natural), None)
    else:
        other = next((k for k in d.used if k != use.key), None)
    if other == ACTED:
        raise Refused(f"{c.name} has taken the round's action (set by the GM): the next attack comes next round")
    if other is not None:
        raise Refused(
            f"{c.name} has attacked with the {other} this round: one weapon a round, at its rate of fire (Ruling)"
        )
    if w is None:
        if count:
            raise Refused(f"{c.name} has made the {use.label} attack this round: each listed attack once a round")
        return
    limit = 1 if w.kind == MELEE and not w.range else w.per_round
    if count >= limit:
        rof = "½" if w.rof == "1/2" else w.rof
        raise Refused(f"the {use.label} allows {limit} attack(s) a round (rate of fire {rof}): used {count} this round")
    if w.rof == "1/2" and use.carried is not None and use.carried.last_round is not None:
        last = use.carried.last_round
        if state.round - last < 2:
            raise Refused(
                f"the {use.label} fires every other round (rate of fire ½): it fired in round {last}, "
                f"next in round {last + 2}"
            )
    if use.firearm and use.carried is not None and use.carried.shots <= 0:
        raise Refused(f"the {use.label} is empty: reload it first (it takes the round's action)")


ACTED = "the round's action"  # marks a round's action the GM set as taken (adjust "acted")


def _mode(use: Use, distance: int, target: Combatant) -> tuple[bool, Modifier | None]:
    """Melee or missile, and the range modifier; Refused if out of reach or range."""
    if distance < 0:
        raise Refused("the distance cannot be negative")
    w = use.weapon
    if w is None:
        if distance > 5:
            raise Refused(
                f"the {use.label} is a melee attack: {target.name} at {distance} ft is out of reach "
                "(melee is within 5 ft)"
            )
        return True, None
    if w.kind == MELEE and (distance <= 5 or not w.range):
        if distance > 5:
            raise Refused(
                f"the {use.label} is a melee weapon: {target.name} at {distance} ft is out of reach (melee is within 5 ft)"
            )
        return True, None
    r = w.range
    if distance <= r:
        return False, Modifier(label="short range", value=2)
    if distance <= 2 * r:
        return False, Modifier(label="medium range", value=1)
    if distance <= 3 * r:
        return False, Modifier(label="long range", value=0)
    raise Refused(
        f"{target.name} at {distance} ft is out of range: the {use.label} reaches {3 * r} ft (long range is 3× {r} ft)"
    )


def _cover(cover: int) -> Modifier:
    if not 0 <= cover <= 4:
        raise Refused(f"cover is a penalty of 1 to 4 set by the Referee, not {cover}")
    return Modifier(label="cover", value=-cover)


def _favoured(c: Combatant, use: Use) -> Modifier | None:
    d: BnbData = c.data
    if use.weapon is None or not d.favoured or d.favoured != use.weapon.id:
        return None
    label = {SHOOTIST: "Sure Shot", TRAILBLAZER: "Close Fighter"}.get(d.cls, f"{use.weapon.name} +1")
    return Modifier(label=label, value=1)


# ---------------------------------------------------------------------------
# one attack


def roll_attack(
    state: FightState,
    actor: Combatant,
    target: Combatant,
    use: Use,
    *,
    melee: bool,
    range_mod: Modifier | None,
    cover: int,
    modifiers: tuple[Modifier, ...],
    dice: Roller,
    sneak: bool = False,
    two_hands: bool = False,
    gunplay: bool = False,
    using: str | None = None,
) -> E.AttackRolled:
    d: BnbData = actor.data
    fav = _favoured(actor, use)
    attr = "STR" if melee else "DEX"
    parts = [Modifier(label="to-hit", value=d.to_hit), Modifier(label=attr, value=d.mod(attr))]
    if fav:
        parts.append(fav)
    if range_mod:
        parts.append(range_mod)
    if cover:
        parts.append(_cover(cover))
    parts.extend(modifiers)
    atk = roll("1d20", dice, f"{actor.name} attacks {target.name}")
    face = atk.faces[0]
    total = face + sum(p.value for p in parts)
    dc = target.data.dc
    hit = face == 20 or (face != 1 and total >= dc)
    common = dict(
        actor=actor.id,
        target=target.id,
        weapon=use.label,
        using=use.key if using is None else using,
        attack=atk,
        parts=tuple(parts),
        total=total,
        dc=dc,
        gunplay=gunplay,
        temporary=use.temporary,
    )
    if not hit:
        return E.AttackRolled(hit=False, **common)  # type: ignore[arg-type]
    plus = use.plus + (d.mod("STR") if melee else 0) + (1 if fav else 0) + (1 if two_hands else 0)
    explode = max(0, d.level // 2) if use.sides == 6 else 0
    expr = DiceExpr(use.dice, use.sides, 1 if use.keep_high else None, None, explode, plus)
    label = f"{use.label} damage"
    if face == 20:
        rest = dice.faces(DiceRequest(use.dice - 1, 1, use.sides, label)) if use.dice > 1 else ()
        dmg = expr.result((use.sides, *rest), dice, label)
    else:
        dmg = expr.roll(dice, label)
    amount = max(1, dmg.total) * (2 if sneak else 1)
    return E.AttackRolled(hit=True, damage=dmg, amount=amount, sneak=sneak, **common)  # type: ignore[arg-type]


def harm_events(before: FightState, after: FightState, target_id: str, by: str, temporary: bool) -> list[Event]:
    """What a blow that landed means: knocked out, dead (minor NPC) or a death save."""
    t0, t = before.get(target_id), after.get(target_id)
    d: BnbData = t.data
    if d.hp > 0 or d.hp == t0.data.hp:
        return []
    if temporary:
        if d.status == OK:
            return [E.Dropped(id=t.id, hp=d.hp, outcome=KNOCKED_OUT, by=by)]
        return []
    if d.status in (DYING, DEAD):
        return []
    if t.kind == NPC and d.minor:
        return [E.Dropped(id=t.id, hp=d.hp, outcome=DEAD, by=by)]
    return [E.Dropped(id=t.id, hp=d.hp, outcome=DYING, by=by), PromptRaised(prompt=death_prompt(t, d.hp))]


def death_prompt(c: Combatant, hp: int) -> Prompt:
    d: BnbData = c.data
    bonus = " +2 Shootist" if d.cls == SHOOTIST else ""
    return Prompt(
        id=f"death:{c.id}",
        kind="death_save",
        text=f"{c.name} is at {hp} HP: save vs death (d20 + CON {d.mod('CON'):+d} − {max(0, -hp)}{bonus} ≥ {d.st})",
        combatant=c.id,
        command="death_save",
        params={"actor": c.id},
    )


def lucky_prompt(c: Combatant) -> list[Event]:
    d: BnbData = c.data
    if d.cls != GAMBLER or d.lucky_used >= lucky_streaks(d.level):
        return []
    left = lucky_streaks(d.level) - d.lucky_used
    return [
        PromptRaised(
            prompt=Prompt(
                id=f"lucky:{c.id}",
                kind="lucky_streak",
                text=f"{c.name} failed a save: re-roll with Lucky Streak ({left} left today)? Dismiss to accept it",
                combatant=c.id,
                command="lucky_streak",
                params={"actor": c.id},
            )
        )
    ]


class _Run:
    """Events of one action, with the state they lead to (for later checks in the same action)."""

    def __init__(self, state: FightState) -> None:
        self.state = state
        self.events: list[Event] = []

    def add(self, *events: Event) -> None:
        for ev in events:
            self.events.append(ev)
            self.state = evolve(self.state, ev)

    def blow(self, ev: E.AttackRolled) -> None:
        before = self.state
        self.add(ev)
        if ev.hit:
            self.add(*harm_events(before, self.state, ev.target, ev.actor, ev.temporary))


# ---------------------------------------------------------------------------
# decide


def decide(state: FightState, command: Any, dice: Roller) -> list[Event]:
    handler = _DECIDERS.get(type(command))
    if handler is None:
        raise Refused(f"Blood & Bullets does not know the command {type(command).__name__}")
    return handler(state, command, dice)


def _attack(state: FightState, cmd: C.Attack, dice: Roller) -> list[Event]:
    _in_fight(state)
    actor = _who(state, cmd.actor, "attacker")
    _can_act(state, actor)
    target = _target(state, actor, cmd.target)
    use = resolve_use(actor, cmd.weapon)
    _rate(state, actor, use)
    melee, range_mod = _mode(use, cmd.distance, target)
    if cmd.two_hands and (use.weapon is None or not use.weapon.versatile):
        raise Refused(f"only the spear gains +1 damage used two-handed, not the {use.label}")
    d: BnbData = actor.data
    sneak_ok = d.cls == GAMBLER and use.weapon is not None and use.weapon.sneak
    sneak = cmd.sneak
    if sneak and not sneak_ok:
        raise Refused("sneak attack is a Gambler's, with a knife, derringer or pocket pistol only")
    if not sneak and sneak_ok and state.round == 0 and actor.id in state.surprise:
        sneak = True
    intended, pick = None, None
    if cmd.into_melee:
        if melee:
            raise Refused("firing into a melee is for missile attacks: a melee attack picks its foe")
        crowd = [target.id]
        for cid in cmd.into_melee:
            other = _target(state, actor, cid)
            if other.id not in crowd:
                crowd.append(other.id)
        if len(crowd) > 1:
            pick = roll(f"1d{len(crowd)}", dice, "who in the melee takes the shot")
            intended, target = target.id, state.get(crowd[pick.total - 1])
    run = _Run(state)
    if use.firearm and use.carried is not None:
        run.add(E.ShotsFired(actor=actor.id, gun=use.carried.name, count=1))
    ev = roll_attack(
        state,
        actor,
        target,
        use,
        melee=melee,
        range_mod=range_mod,
        cover=cmd.cover,
        modifiers=cmd.modifiers,
        dice=dice,
        sneak=sneak,
        two_hands=cmd.two_hands,
    )
    if intended is not None:
        ev = attrs.evolve(ev, intended=intended, pick=pick)
    run.blow(ev)
    return run.events


def _critter(state: FightState, cmd: C.CritterAttacks, dice: Roller) -> list[Event]:
    _in_fight(state)
    actor = _who(state, cmd.actor, "attacker")
    _can_act(state, actor)
    target = _target(state, actor, cmd.target)
    d: BnbData = actor.data
    if not d.natural:
        raise Refused(f"{actor.name} has no listed attacks: use Attack with a weapon")
    uses = [_natural_use(n) for n in d.natural]
    for u in uses:
        _rate(state, actor, u)
    _cover(cmd.cover)
    run = _Run(state)
    for u in uses:
        if run.state.get(target.id).data.status != target.data.status:
            run.add(E.HeldFire(actor=actor.id, target=target.id, reason=f"{target.name} is down"))
            continue
        run.blow(
            roll_attack(
                run.state,
                actor,
                run.state.get(target.id),
                u,
                melee=True,
                range_mod=None,
                cover=cmd.cover,
                modifiers=cmd.modifiers,
                dice=dice,
            )
        )
    return run.events


def _guns(actor: Combatant, names: str) -> list[Carried]:
    d: BnbData = actor.data
    if not names.strip():
        loaded = [g for g in d.firearms if g.shots > 0]
        if loaded:
            return loaded[:1]
        if d.firearms:
            return list(d.firearms[:1])
        raise Refused(f"Gun-play needs a firearm: {actor.name} carries none")
    out: list[Carried] = []
    for name in names.split(","):
        if not name.strip():
            continue
        g = d.carried(name)
        if g is None or not g.spec.firearm:
            raise Refused(f"Gun-play is made with firearms: {actor.name} carries no firearm '{name.strip()}'")
        if g.name in [x.name for x in out]:
            raise Refused(f"the {g.name} is named twice: name a second gun as '{g.spec.name} 2'")
        out.append(g)
    return out


def _distances(text: str, n: int) -> list[int]:
    parts = [p.strip() for p in str(text).split(",") if p.strip()] or ["0"]
    try:
        values = [int(p) for p in parts]
    except ValueError:
        raise Refused(f"distance '{text}' must be feet: one number, or one per target") from None
    if len(values) == 1:
        return values * n
    if len(values) != n:
        raise Refused(f"give one distance for all targets or one per target ({n}), not {len(values)}")
    return values


def _gunplay(state: FightState, cmd: C.GunPlay, dice: Roller) -> list[Event]:
    _in_fight(state)
    actor = _who(state, cmd.actor, "Shootist")
    d: BnbData = actor.data
    if d.cls != SHOOTIST:
        what = f"a {d.cls}" if d.cls else "not a Shootist"
        raise Refused(f"Gun-play is the Shootist's: {actor.name} is {what}")
    _can_act(state, actor)
    if not cmd.targets:
        raise Refused("Gun-play: name a target for each attack")
    n = len(cmd.targets)
    if n > d.level:
        raise Refused(
            f"Gun-play gives one attack per level: {actor.name} is level {d.level}, so {d.level} attack(s), not {n}"
        )
    if d.gunplay:
        raise Refused(f"{actor.name} has made Gun-play this round already")
    if d.reloaded:
        raise Refused(f"reloading took {actor.name}'s action this round (Ruling: a reload is the round's action)")
    if d.used:
        raise Refused(f"{actor.name} has already attacked this round: Gun-play takes the whole round")
    guns = _guns(actor, cmd.guns)
    shots = sum(g.shots for g in guns)
    names = ", ".join(g.name for g in guns)
    if shots == 0:
        raise Refused(
            f"the {names} {'is' if len(guns) == 1 else 'are'} empty: reload first (Gun-play needs loaded shots)"
        )
    if shots < n:
        raise Refused(
            f"{actor.name} has {shots} loaded shot(s) in the {names}, fewer than the {n} attacks: "
            "Gun-play never makes more attacks than loaded shots"
        )
    targets = [_target(state, actor, t) for t in cmd.targets]
    for t in targets:
        if not t.data.hd.at_most_one:
            raise Refused(f"Gun-play is only against foes of 1 HD or fewer: {t.name} has {t.data.hd} HD")
    distances = _distances(cmd.distance, n)
    _cover(cmd.cover)
    planned = [g for g in guns for _ in range(g.shots)]
    for t, dist, g in zip(targets, distances, planned, strict=False):
        _mode(_weapon_use(actor, g), dist, t)
    left = {g.name: g.shots for g in guns}
    fired: dict[str, int] = {}
    run = _Run(state)
    attacks: list[Event] = []
    for t0, dist in zip(targets, distances, strict=True):
        t = run.state.get(t0.id)
        if t.data.status != t0.data.status:
            attacks.append(E.HeldFire(actor=actor.id, target=t.id, reason=f"{t.name} is already down"))
            continue
        gun = next(g for g in guns if left[g.name] > 0)
        left[gun.name] -= 1
        fired[gun.name] = fired.get(gun.name, 0) + 1
        use = _weapon_use(actor, gun)
        _melee, range_mod = _mode(use, dist, t)
        ev = roll_attack(
            run.state,
            actor,
            t,
            use,
            melee=False,
            range_mod=range_mod,
            cover=cmd.cover,
            modifiers=cmd.modifiers,
            dice=dice,
            gunplay=True,
            using="",
        )
        mark = len(run.events)
        run.blow(ev)
        attacks.extend(run.events[mark:])
    shots_events = [E.ShotsFired(actor=actor.id, gun=g, count=k, gunplay=True) for g, k in fired.items()]
    return shots_events + attacks


def _blast(state: FightState, cmd: C.Blast, dice: Roller) -> list[Event]:
    _in_fight(state)
    actor = _who(state, cmd.actor, "shooter")
    _can_act(state, actor)
    gun = actor.data.carried(cmd.gun or "scattergun")
    if gun is None or not gun.spec.scatter:
        raise Refused(f"a blast at several targets needs a scattergun: {actor.name} carries none called '{cmd.gun}'")
    use = _weapon_use(actor, gun)
    _rate(state, actor, use)
    if not cmd.targets:
        raise Refused("name the targets within 5 ft either side of the point aimed at")
    if len(set(cmd.targets)) != len(cmd.targets):
        raise Refused("a blast strikes each target once: name each only once")
    targets = [_target(state, actor, t) for t in cmd.targets]
    _cover(cmd.cover)
    range_mod = None
    for t in targets:
        _melee, range_mod = _mode(use, cmd.distance, t)
    run = _Run(state)
    run.add(E.ShotsFired(actor=actor.id, gun=gun.name, count=1))
    for i, t0 in enumerate(targets):
        t = run.state.get(t0.id)
        ev = roll_attack(
            run.state,
            actor,
            t,
            use,
            melee=False,
            range_mod=range_mod,
            cover=cmd.cover,
            modifiers=cmd.modifiers,
            dice=dice,
            using=gun.name if i == 0 else "",
        )
        if ev.hit and cmd.distance > 30:
            save = roll("1d20", dice, f"{t.name} saves for half")
            st = t.data.st
            total = save.total + t.data.mod("DEX")
            saved = total >= st
            amount = max(1, ev.amount // 2) if saved else ev.amount
            ev = attrs.evolve(ev, save=save, save_total=total, save_st=st, saved=saved, amount=amount)
        run.blow(ev)
    return run.events


def _reload(state: FightState, cmd: C.Reload, dice: Roller) -> list[Event]:
    actor = _who(state, cmd.actor)
    _can_act(state, actor)
    d: BnbData = actor.data
    if not d.firearms:
        raise Refused(f"{actor.name} carries no firearm to reload")
    if cmd.gun.strip():
        gun = d.carried(cmd.gun)
        if gun is None or not gun.spec.firearm:
            raise Refused(f"{actor.name} carries no firearm '{cmd.gun.strip()}'")
        if gun.shots >= gun.spec.shots:
            raise Refused(f"the {gun.name} is already full ({gun.shots} shots)")
    else:
        gun = next((g for g in d.firearms if g.shots < g.spec.shots), None)  # type: ignore[assignment]
        if gun is None:
            raise Refused(f"{actor.name}'s guns are all full")
    if d.reloaded:
        raise Refused(f"{actor.name} has already reloaded this round: a reload takes the round's action")
    if d.used or d.gunplay:
        raise Refused(f"{actor.name} has already attacked this round: a reload takes the round's action (Ruling)")
    return [E.Reloaded(actor=actor.id, gun=gun.name, before=gun.shots, after=gun.spec.shots)]


def _save_parts(c: Combatant, against: str, attribute: str, extra: tuple[Modifier, ...]) -> list[Modifier]:
    d: BnbData = c.data
    attr = SAVES.get(against, "") if attribute == "auto" else ("" if attribute == "none" else attribute)
    parts: list[Modifier] = []
    if attr:
        parts.append(Modifier(label=attr, value=d.mod(attr)))
    if against in CLASS_SAVE_BONUS.get(d.cls, ()):
        parts.append(Modifier(label=f"{d.cls} vs {against}", value=2))
    parts.extend(extra)
    return parts


def _open(state: FightState, prompt_id: str) -> bool:
    return any(p.id == prompt_id for p in state.prompts)


def _accept_lucky(state: FightState, c: Combatant) -> list[Event]:
    """A new save while a Lucky Streak offer is open accepts the earlier failure (Ruling)."""
    if _open(state, f"lucky:{c.id}"):
        return [PromptResolved(prompt_id=f"lucky:{c.id}", note="failure accepted: a new save was rolled")]
    return []


def _death_save(state: FightState, cmd: C.DeathSave, dice: Roller) -> list[Event]:
    c = _who(state, cmd.actor)
    d: BnbData = c.data
    if d.status != DYING:
        raise Refused(f"{c.name} is not dying: a death save is made when HP fall to 0 or below")
    parts = _save_parts(c, "death", "auto", ())
    if d.hp < 0:
        parts.append(Modifier(label="HP below 0", value=d.hp))
    parts.extend(cmd.modifiers)
    r = roll("1d20", dice, f"{c.name} saves vs death")
    total = r.total + sum(p.value for p in parts)
    ok = total >= d.st
    events: list[Event] = _accept_lucky(state, c)
    events.append(E.DeathSaveRolled(id=c.id, roll=r, parts=tuple(parts), total=total, st=d.st, success=ok))
    if _open(state, f"death:{c.id}"):
        events.append(PromptResolved(prompt_id=f"death:{c.id}", note="alive, unconscious" if ok else "dead"))
    if not ok:
        events += lucky_prompt(c)
    return events


def _saving_throw(state: FightState, cmd: C.SavingThrow, dice: Roller) -> list[Event]:
    c = _who(state, cmd.actor)
    d: BnbData = c.data
    if d.status == DEAD:
        raise Refused(f"{c.name} is dead and makes no saving throws")
    if cmd.against not in SAVES:
        raise Refused(f"'{cmd.against}' is not a danger of Table 3 ({', '.join(SAVES)})")
    parts = _save_parts(c, cmd.against, cmd.attribute, cmd.modifiers)
    r = roll("1d20", dice, f"{c.name} saves vs {cmd.against}")
    total = r.total + sum(p.value for p in parts)
    ok = total >= d.st
    events: list[Event] = _accept_lucky(state, c)
    events += [E.SaveRolled(id=c.id, against=cmd.against, roll=r, parts=tuple(parts), total=total, st=d.st, success=ok)]
    if not ok:
        events += lucky_prompt(c)
    return events


def _lucky(state: FightState, cmd: C.LuckyStreak, dice: Roller) -> list[Event]:
    c = _who(state, cmd.actor)
    d: BnbData = c.data
    if d.cls != GAMBLER:
        raise Refused(f"Lucky Streak is the Gambler's: {c.name} is {'a ' + d.cls if d.cls else 'not a Gambler'}")
    per_day = lucky_streaks(d.level)
    if d.lucky_used >= per_day:
        raise Refused(
            f"Lucky Streak: a level {d.level} Gambler re-rolls {per_day} failed save(s) a day, "
            f"and {c.name} has used {d.lucky_used}"
        )
    last = d.last_save
    if last is None:
        raise Refused(f"{c.name} has no failed saving throw to re-roll")
    r = roll("1d20", dice, f"{c.name} Lucky Streak")
    total = r.total + sum(p.value for p in last.parts)
    ok = total >= last.st
    events: list[Event] = [
        E.LuckyStreakUsed(
            id=c.id,
            against=last.against,
            roll=r,
            parts=last.parts,
            total=total,
            st=last.st,
            success=ok,
            left=per_day - d.lucky_used - 1,
        )
    ]
    if _open(state, f"lucky:{c.id}"):
        events.append(PromptResolved(prompt_id=f"lucky:{c.id}", note="re-rolled"))
    return events


def _loyalty(state: FightState, cmd: C.LoyaltyCheck, dice: Roller) -> list[Event]:
    c = _who(state, cmd.actor, "hireling")
    if c.kind == PC:
        raise Refused("loyalty checks are for NPCs (hirelings, or NPCs offered a bribe), not PCs")
    d: BnbData = c.data
    if d.status == DEAD:
        raise Refused(f"{c.name} is dead")
    parts: list[Modifier] = []
    leader = None
    if cmd.leader:
        lc = _who(state, cmd.leader, "leader")
        leader = lc.id
        parts.append(Modifier(label=f"{lc.name}'s CHA loyalty", value=modifier(lc.data.score("CHA"))))
    if d.loyalty_next:
        parts.append(Modifier(label="last loyalty check", value=d.loyalty_next))
    parts.extend(cmd.modifiers)
    r = roll("3d6", dice, f"{c.name} loyalty")
    total = r.total + sum(p.value for p in parts)
    result, nxt = loyalty_result(total)
    return [
        E.LoyaltyChecked(id=c.id, leader=leader, roll=r, parts=tuple(parts), total=total, result=result, next_mod=nxt)
    ]


def _bind(state: FightState, cmd: C.BindWounds, dice: Roller) -> list[Event]:
    c = _who(state, cmd.actor)
    d: BnbData = c.data
    if not state.ended:
        raise Refused("binding wounds comes after the battle: end the fight first")
    if d.status == DEAD:
        raise Refused(f"{c.name} is dead: no binding helps")
    if d.bound:
        raise Refused(f"{c.name}'s wounds from this fight are already bound")
    if d.lost <= 0:
        raise Refused(f"{c.name} lost no HP in this fight: binding restores only HP lost in this fight")
    r = roll("1d3", dice, f"{c.name} binds wounds")
    return [E.WoundsBound(id=c.id, roll=r, healed=min(r.total, d.lost, d.damage))]


def _recover(state: FightState, cmd: C.Recover, dice: Roller) -> list[Event]:
    c = _who(state, cmd.actor)
    d: BnbData = c.data
    if cmd.hours < 1:
        raise Refused("rest at least 1 hour")
    if d.status == DEAD:
        raise Refused(f"{c.name} is dead")
    if d.temp <= 0:
        raise Refused(f"{c.name} has no temporary damage to heal")
    healed = min(d.temp, max(1, d.level) * cmd.hours)
    woke = d.status == KNOCKED_OUT and d.hp + healed > 0
    return [E.TemporaryHealed(id=c.id, hours=cmd.hours, healed=healed, woke=woke)]


_DECIDERS = {
    C.Attack: _attack,
    C.CritterAttacks: _critter,
    C.GunPlay: _gunplay,
    C.Blast: _blast,
    C.Reload: _reload,
    C.DeathSave: _death_save,
    C.SavingThrow: _saving_throw,
    C.LuckyStreak: _lucky,
    C.LoyaltyCheck: _loyalty,
    C.BindWounds: _bind,
    C.Recover: _recover,
}


# ---------------------------------------------------------------------------
# evolve (pure)


def _data(state: FightState, cid: str, **changes: Any) -> FightState:
    return state.update_data(cid, **changes)


def _gun(state: FightState, cid: str, name: str, **changes: Any) -> FightState:
    d: BnbData = state.get(cid).data
    weapons = tuple(attrs.evolve(g, **changes) if g.name == name else g for g in d.weapons)
    return _data(state, cid, weapons=weapons)


def _save_done(d: BnbData, against: str, st: int, parts: tuple[Modifier, ...], ok: bool) -> LastSave | None:
    return None if ok else LastSave(against=against, st=st, parts=parts)


def evolve(state: FightState, event: Event) -> FightState:
    if isinstance(event, RoundStarted):
        return attrs.evolve(
            state,
            combatants=tuple(
                attrs.evolve(c, data=attrs.evolve(c.data, used=(), gunplay=False, reloaded=False))
                if isinstance(c.data, BnbData) and (c.data.used or c.data.gunplay or c.data.reloaded)
                else c
                for c in state.combatants
            ),
        )
    if isinstance(event, PromptResolved):
        kind, _, cid = event.prompt_id.partition(":")
        c = state.find(cid)
        if c is None:
            return state
        if kind == "lucky":
            return _data(state, cid, last_save=None)
        if kind == "death" and c.data.status == DYING:
            return _data(state, cid, status=UNCONSCIOUS)
        return state
    if isinstance(event, E.AttackRolled):
        a: BnbData = state.get(event.actor).data
        if event.using:
            state = _data(state, event.actor, used=(*a.used, event.using))
        if event.hit and event.amount > 0:
            t: BnbData = state.get(event.target).data
            if event.temporary:
                state = _data(state, event.target, temp=t.temp + event.amount)
            else:
                state = _data(state, event.target, damage=t.damage + event.amount, lost=t.lost + event.amount)
        return state
    if isinstance(event, E.Dropped):
        return _data(state, event.id, status=event.outcome, dropped_round=state.round, dropped_by=event.by)
    if isinstance(event, E.ShotsFired):
        g = state.get(event.actor).data.carried(event.gun)
        state = _gun(state, event.actor, event.gun, shots=g.shots - event.count, last_round=state.round)
        if event.gunplay:
            state = _data(state, event.actor, gunplay=True)
        return state
    if isinstance(event, E.HeldFire):
        return state
    if isinstance(event, E.Reloaded):
        state = _gun(state, event.actor, event.gun, shots=event.after)
        return _data(state, event.actor, reloaded=True)
    if isinstance(event, E.DeathSaveRolled):
        d: BnbData = state.get(event.id).data
        return _data(
            state,
            event.id,
            status=UNCONSCIOUS if event.success else DEAD,
            last_save=_save_done(d, "death", event.st, event.parts, event.success),
        )
    if isinstance(event, E.SaveRolled):
        d = state.get(event.id).data
        return _data(state, event.id, last_save=_save_done(d, event.against, event.st, event.parts, event.success))
    if isinstance(event, E.LuckyStreakUsed):
        d = state.get(event.id).data
        changes: dict[str, Any] = {"lucky_used": d.lucky_used + 1, "last_save": None}
        if event.against == "death":
            changes["status"] = UNCONSCIOUS if event.success else DEAD
        return _data(state, event.id, **changes)
    if isinstance(event, E.LoyaltyChecked):
        return _data(state, event.id, loyalty_next=event.next_mod)
    if isinstance(event, E.WoundsBound):
        d = state.get(event.id).data
        return _data(state, event.id, damage=d.damage - event.healed, lost=d.lost - event.healed, bound=True)
    if isinstance(event, E.TemporaryHealed):
        d = state.get(event.id).data
        state = _data(state, event.id, temp=d.temp - event.healed)
        return _data(state, event.id, status=OK) if event.woke else state
    if type(event) in E.EVENT_TYPES:
        raise UnknownEvent(f"Blood & Bullets has no rule for {event.TYPE}")
    return state
