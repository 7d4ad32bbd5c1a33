"""Why a Blood & Bullets event happened: the rules of the table it applied, and every term that went in.

:func:`explain` reads only the event and the states before and after it (it never rolls or decides), so a
fight saved before reasons existed explains too.  Each die face, each modifier and where it came from is a
term: "d20 = 14", "DEX 13 → +1", "cover −2 (GM)", "level 4: 2 extra dice at most".
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from typing import Any

from systems.bnb.checks import HP_BELOW_0
from systems.bnb.events import (
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
    lucky_left,
)
from systems.bnb.rules.common import COVER_BY_CONDITION, is_favoured
from systems.bnb.rules.harm import DEATH, LUCKY
from systems.bnb.rules.rest import INTERRUPTED, Rested
from systems.bnb.rules.table import R
from systems.bnb.sheet import DEAD, DYING, KNOCKED_OUT, BnbData
from systems.bnb.tables import (
    ATTRIBUTES,
    CLASS_TABLES,
    GAMBLER,
    SHOOTIST,
    TRAILBLAZER,
    Weapon,
    find_weapon,
    lucky_streaks,
)
from tracker.commands import Modifier
from tracker.dice import Roll
from tracker.events import CombatantAdded, Event, InitiativeSet, OrderSet, PromptRaised, RoundStarted
from tracker.model import FightState
from tracker.reasons import Reason
from tracker.text import counted

_TABLE = {SHOOTIST: "Table 4", GAMBLER: "Table 5", TRAILBLAZER: "Table 6"}
_RANGES = {"short range": "up to the listed range", "medium range": "up to 2×", "long range": "up to 3×"}


def signed(n: int) -> str:
    """+1, 0, −2 (a true minus sign, as the book's tables print it)."""
    return f"−{-n}" if n < 0 else f"+{n}"


def _data(state: FightState, cid: str | None) -> BnbData | None:
    c = state.find(cid) if cid else None
    return c.data if c is not None and isinstance(c.data, BnbData) else None


def _name(state: FightState, cid: str | None) -> str:
    return state.name(cid) if cid else "?"


def _faces(r: Roll) -> str:
    return ", ".join(map(str, r.faces))


def _die(r: Roll) -> str:
    """ "d20 = 14" for one die; "3d6 [2, 5, 6] = 13" for several."""
    if len(r.faces) == 1 and not r.modifier:
        return f"{r.expr.removeprefix('1')} = {r.total}"
    return f"{r.expr} [{_faces(r)}] = {sum(r.faces) if not r.extra else r.total}"


def _who(d: BnbData) -> str:
    """ "Shootist level 3" or "HD 1+1"."""
    return f"{d.cls} level {d.level}" if d.cls else f"HD {d.hd}"


def _attribute(label: str, value: int, d: BnbData | None) -> str:
    """ "DEX 13 → +1" when the score is known, else "DEX +1"."""
    if d is not None and label in ATTRIBUTES:
        return f"{label} {d.score(label)} → {signed(value)}"
    return f"{label} {signed(value)}"


# -- the attack ------------------------------------------------------------------


def _attack_term(p: Modifier, d: BnbData | None) -> str:
    if p.label == "to-hit":
        if d is not None and d.cls:
            return f"to-hit {signed(p.value)} ({d.cls} level {d.level}, {_TABLE.get(d.cls, 'class table')})"
        return f"to-hit {signed(p.value)} (" + (f"HD {d.hd}" if d else "HD") + ", at most +15)"
    if p.label in ("STR", "DEX"):
        return _attribute(p.label, p.value, d)
    if p.label in _RANGES:
        return f"{p.label} {signed(p.value)} ({_RANGES[p.label]})"
    if p.label == "cover":
        return f"cover {signed(p.value)} (GM)"
    if p.label == COVER_BY_CONDITION:
        return f"cover {signed(p.value)} (Cover condition)"
    if is_favoured(p.label):
        return f"{p.label} {signed(p.value)}"
    return f"{p.label} {signed(p.value)} (GM)"


def _weapon(before: FightState, ev: AttackRolled) -> tuple[Weapon | None, int]:
    """The weapon of the attack (None: a critter's listed attack) and its damage die's sides."""
    d = _data(before, ev.actor)
    if d is not None:
        for n in d.natural:
            if n.name == ev.weapon:
                return None, n.sides
        carried = d.carried(ev.weapon)
        if carried is not None:  # (carried fists are a Rowdy Trailblazer's d6 too: they read as a d3 that showed 6)
            return carried.spec, 6 if carried.spec.id == "fists" and d.rowdy else carried.spec.sides
    w = find_weapon(ev.weapon)
    if w is not None and w.id == "fists":
        return w, 6 if d is not None and d.rowdy else 3
    return w, w.sides if w is not None else 6


def _favoured_rule(label: str) -> Any:
    if label == R.sure_shot.name:
        return R.sure_shot
    if label == R.close_fighter.name:
        return R.close_fighter
    return R.npc_weapon_bonus


def _attack(before: FightState, ev: AttackRolled, after: FightState) -> tuple[Reason, ...]:
    d = _data(before, ev.actor)
    t = _data(before, ev.target)
    face = ev.attack.faces[0] if ev.attack.faces else ev.attack.total
    out: list[Reason] = []
    terms = [f"d20 = {face}", *(_attack_term(p, d) for p in ev.parts)]
    verdict = "hit" if ev.hit else "miss"
    terms.append(f"total {ev.total} vs DC {ev.dc} ({_name(before, ev.target)}): {verdict}")
    classless = d is not None and not d.cls
    out.append(Reason.of(R.npc_to_hit if classless else R.to_hit, *terms))
    if face in (1, 20):
        out.append(Reason.of(R.natural, f"natural {face}: " + ("always hits" if face == 20 else "always misses")))
    labels = {p.label for p in ev.parts}
    attributes = [p for p in ev.parts if p.label in ("STR", "DEX")]
    if classless and attributes:  # an attack an older version logged, which counted them: said as it was
        added = ", ".join(f"{p.label} {signed(p.value)}" for p in attributes)
        out.append(Reason.of(R.npc_no_dex, f"{_who(d)}: logged by an older version, which added {added}"))  # type: ignore[arg-type]
    elif classless:
        out.append(Reason.of(R.npc_no_dex, f"{_who(d)}: no STR or DEX on the attack"))  # type: ignore[arg-type]
    elif "STR" in labels:
        out.append(Reason.of(R.melee, *(_attribute(p.label, p.value, d) for p in ev.parts if p.label == "STR")))
    elif "DEX" in labels:
        out.append(Reason.of(R.missile, *(_attribute(p.label, p.value, d) for p in ev.parts if p.label == "DEX")))
    for p in ev.parts:
        if p.label in _RANGES:
            out.append(Reason.of(R.range, _attack_term(p, d)))
        elif p.label == "cover":
            out.append(Reason.of(R.cover, _attack_term(p, d)))
        elif p.label == COVER_BY_CONDITION:
            out.append(Reason.of(R.cover_condition, f"{_name(before, ev.target)} is in Cover: {signed(p.value)}"))
        elif is_favoured(p.label):
            out.append(Reason.of(_favoured_rule(p.label), f"{p.label}: +1 to hit", f"+1 damage with the {ev.weapon}"))
    if ev.intended is not None and ev.pick is not None:
        out.append(
            Reason.of(
                R.into_melee,
                f"aimed at {_name(before, ev.intended)}",
                f"{ev.pick.describe()} picks {_name(before, ev.target)}",
            )
        )
    if ev.gunplay and d is not None:
        hd = f"{_name(before, ev.target)} has HD {t.hd}" if t is not None else ""
        out.append(
            Reason.of(
                R.gunplay, f"level {d.level}: up to {counted(d.level, 'attack')} this round", *([hd] if hd else ())
            )
        )
    weapon, sides = _weapon(before, ev)
    if weapon is not None and weapon.scatter:
        out.append(Reason.of(R.scattergun, f"one shot of the {ev.weapon} at everyone within 5 ft of the point"))
    if ev.hit and ev.damage is not None:
        out += _damage(before, ev, after, d, weapon, sides, face)
    return tuple(out)


def _damage(
    before: FightState,
    ev: AttackRolled,
    after: FightState,
    d: BnbData | None,
    weapon: Weapon | None,
    sides: int,
    face: int,
) -> list[Reason]:
    dmg = ev.damage
    assert dmg is not None
    out: list[Reason] = []
    dice = weapon.damage if weapon is not None and weapon.sides == sides else f"1d{sides}"
    terms = [f"{dice}: dice {_faces(dmg)}"]
    if dmg.kept != dmg.faces:
        terms.append("kept " + ", ".join(map(str, dmg.kept)))
    if dmg.extra:
        terms.append("extra dice " + ", ".join(map(str, dmg.extra)))
    rest = dmg.modifier
    if weapon is not None and weapon.plus:
        terms.append(f"{weapon.name} {signed(weapon.plus)}")
        rest -= weapon.plus
    melee = any(p.label == "STR" for p in ev.parts)
    if melee and d is not None and d.cls and d.mod("STR"):
        terms.append(_attribute("STR", d.mod("STR"), d))
        rest -= d.mod("STR")
    fav = next((p for p in ev.parts if is_favoured(p.label)), None)
    if fav is not None:
        terms.append(f"{fav.label} +1")
        rest -= 1
    if rest == 1 and weapon is not None and weapon.versatile:
        terms.append("two-handed +1")
        out.append(Reason.of(R.two_hands, f"the {weapon.name} used two-handed: +1 damage"))
    elif rest:
        terms.append(f"other {signed(rest)}")
    terms.append(f"damage {dmg.total}")
    if face == 20:
        terms.append("natural 20: the first die counts as 6")
    t_before, t_after = _data(before, ev.target), _data(after, ev.target)
    out.insert(0, Reason.of(R.damage, *terms))
    if weapon is not None and weapon.keep_high:
        out.append(Reason.of(R.keep_highest, f"2d6 [{_faces(dmg)}] keeps {max(dmg.kept or dmg.faces)}"))
    if sides == 6 and d is not None:
        limit = max(0, d.level // 2)
        who = f"level {d.level}" if d.cls else f"HD {d.level} (its level)"
        sixes = [f for f in (*dmg.kept, *dmg.extra) if f == 6]
        if sixes or dmg.extra:
            extra = "extra dice " + (", ".join(map(str, dmg.extra)) if dmg.extra else "none")
            out.append(
                Reason.of(
                    R.exploding,
                    f"{who}: {counted(limit, 'extra die', 'extra dice')} at most",
                    f"6s rolled: {len(sixes)}",
                    extra,
                )
            )
            if not d.cls:
                out.append(Reason.of(R.critter_level, f"{who}: explodes as level {d.level}"))
    elif sides == 3:
        out.append(Reason.of(R.small_dice, f"d3 [{_faces(dmg)}]: no extra dice"))
    if dmg.total < 1:
        out.append(Reason.of(R.at_least_one, f"damage {dmg.total} → 1"))
    if ev.temporary:
        out.append(Reason.of(R.fists, f"{ev.amount} temporary damage"))
        if sides == 6:
            out.append(Reason.of(R.rowdy, "fists d6 instead of d3"))
    if ev.sneak:
        out.append(Reason.of(R.sneak_attack, f"×2: {max(1, dmg.total)} → {max(1, dmg.total) * 2}"))
    if ev.save is not None:
        dex = ev.save_total - ev.save.total
        full = max(1, dmg.total) * (2 if ev.sneak else 1)
        st = f" vs ST {ev.save_st}" if ev.save_st else ""
        out.append(
            Reason.of(
                R.scattergun_save,
                f"beyond 30 ft: {_name(before, ev.target)} saves for half",
                f"d20 = {ev.save.total}",
                _attribute("DEX", dex, t_before),
                f"total {ev.save_total}{st}: " + (f"half, {full} → {ev.amount}" if ev.saved else "failed, full damage"),
            )
        )
    if ev.amount != dmg.total:  # what made the roll's damage the amount dealt, beside the HP it left
        how = [
            w
            for w, on in (("at least 1", dmg.total < 1), ("×2 sneak attack", ev.sneak), ("half: saved", ev.saved))
            if on
        ]
        out[0] = Reason.of(
            R.damage, *out[0].terms, f"{ev.amount} dealt ({', '.join(how)})" if how else f"{ev.amount} dealt"
        )
    if t_before is not None and t_after is not None:
        kind = " (temporary)" if ev.temporary else ""
        out[0] = Reason.of(R.damage, *out[0].terms, f"{_name(before, ev.target)} HP {t_before.hp} → {t_after.hp}{kind}")
    return out


# -- shots, reloads ----------------------------------------------------------------


def _shots(before: FightState, ev: ShotsFired, after: FightState) -> tuple[Reason, ...]:
    d = _data(before, ev.actor)
    g = d.carried(ev.gun) if d is not None else None
    terms = (
        [f"{ev.gun}: {g.shots} → {counted(g.shots - ev.count, 'shot')} (holds {g.spec.shots})"]
        if g
        else [counted(ev.count, "shot")]
    )
    out = [Reason.of(R.shots, *terms)]
    if ev.gunplay:
        out.append(Reason.of(R.gunplay_targets, f"{counted(ev.count, 'Gun-play attack')}: a shot each"))
    elif ev.blast:
        out.append(Reason.of(R.scattergun, "one shot, at every target of the blast"))
    return tuple(out)


def _held(before: FightState, ev: HeldFire, after: FightState) -> tuple[Reason, ...]:
    down = ev.reason or f"{_name(before, ev.target)} is down"
    d = _data(before, ev.actor)
    if d is not None and d.natural and not d.firearms:  # a critter's listed attack (it cited Gun-play's line)
        return (Reason.of(R.critter_held, down, "the rest of its listed attacks are not made"),)
    return (Reason.of(R.held_fire, down, "no shot spent"),)


def _reloaded(before: FightState, ev: Reloaded, after: FightState) -> tuple[Reason, ...]:
    return (
        Reason.of(
            R.reload, f"{ev.gun}: {ev.before} → {counted(ev.after, 'shot')}", "the round's action: no attack this round"
        ),
        Reason.of(R.shots, f"the {ev.gun} holds {ev.after} (Table 12)"),
    )


# -- falls, death, saves --------------------------------------------------------------


def _dropped(before: FightState, ev: Dropped, after: FightState) -> tuple[Reason, ...]:
    who = _name(before, ev.id)
    d = _data(before, ev.id)
    by = f" by {_name(before, ev.by)}" if ev.by else ""
    if ev.outcome == DEAD:
        return (Reason.of(R.minor_npc, f"{who} is a minor NPC at {ev.hp} HP{by}: dead, no save"),)
    if ev.outcome == KNOCKED_OUT:
        temp = f"temporary damage {_data(after, ev.id).temp}" if _data(after, ev.id) else "temporary damage"  # type: ignore[union-attr]
        return (Reason.of(R.knocked_out, f"{who} at {ev.hp} HP{by}", temp, "no death save"),)
    st = f"ST {d.st}" if d is not None else "its ST"
    return (Reason.of(R.death, f"{who} at {ev.hp} HP{by}", f"a death save is due ({st})"),)


def _st(d: BnbData | None) -> tuple[Reason, ...]:
    """Where the Saving Throw number comes from: the class table, or 19 − HD."""
    if d is None:
        return ()
    if d.cls:
        return (Reason.of(R.class_tables, f"ST {d.st}: {d.cls} level {d.level} ({_TABLE.get(d.cls, 'class table')})"),)
    hd = 0 if d.hd.half else d.hd.dice
    return (Reason.of(R.critter_save, f"ST {d.st} = 19 − HD {hd}"),)


_CLASS_SAVE = {SHOOTIST: R.shootist_save, GAMBLER: R.gambler_save, TRAILBLAZER: R.trailblazer_save}


def _save_terms(roll: Roll, parts: tuple[Modifier, ...], total: int, st: int, d: BnbData | None, end: str) -> list[str]:
    terms = [f"d20 = {roll.total}"]
    for p in parts:
        if p.label in ATTRIBUTES:
            terms.append(_attribute(p.label, p.value, d))
        elif p.label == HP_BELOW_0:
            terms.append(f"{-p.value} HP below 0 → {signed(p.value)}")
        elif d is not None and p.label.startswith(f"{d.cls} vs "):
            terms.append(f"{p.label} {signed(p.value)}")
        else:
            terms.append(f"{p.label} {signed(p.value)} (GM)")
    terms.append(f"total {total} vs ST {st}: {end}")
    return terms


def _save_extras(parts: tuple[Modifier, ...], d: BnbData | None) -> list[Reason]:
    out: list[Reason] = []
    for p in parts:
        if p.label in ATTRIBUTES:
            out.append(Reason.of(R.save_attribute, _attribute(p.label, p.value, d)))
        elif d is not None and d.cls in _CLASS_SAVE and p.label.startswith(f"{d.cls} vs "):
            out.append(Reason.of(_CLASS_SAVE[d.cls], f"{p.label} {signed(p.value)}"))
    return out


def _death_save(before: FightState, ev: DeathSaveRolled, after: FightState) -> tuple[Reason, ...]:
    """A failed death save is "dead" only when no Lucky Streak is left to re-roll it: with one left, the term
    ends as the log line does ("fails: dies unless a Lucky Streak re-rolls it", ``DeathSaveRolled.describe``)
    and Lucky Streak on any save says how many are left (test_why_round3.py::test_a_failed_death_save_*)."""
    d = _data(before, ev.id)
    c = before.find(ev.id)
    end = "unconscious, needs medical help" if ev.success else "dead"
    lucky: list[Reason] = []
    if not ev.success and c is not None and d is not None and lucky_left(c):
        left = lucky_streaks(d.level) - d.lucky_used
        end = f"fails: dies unless a Lucky Streak re-rolls it ({left} left today)"
        streaks = "Lucky Streak" if left == 1 else "Lucky Streaks"
        lucky.append(Reason.of(R.lucky_any_save, f"a failed death save may be re-rolled: {left} {streaks} left today"))
    terms = _save_terms(ev.roll, ev.parts, ev.total, ev.st, d, end)
    return (Reason.of(R.death_save, *terms), *lucky, *_save_extras(ev.parts, d), *_st(d))


def _save(before: FightState, ev: SaveRolled, after: FightState) -> tuple[Reason, ...]:
    d = _data(before, ev.id)
    terms = _save_terms(ev.roll, ev.parts, ev.total, ev.st, d, "saved" if ev.success else "failed")
    return (Reason.of(R.saving_throw, f"vs {ev.against}", *terms), *_save_extras(ev.parts, d), *_st(d))


def _lucky(before: FightState, ev: LuckyStreakUsed, after: FightState) -> tuple[Reason, ...]:
    d = _data(before, ev.id)
    per_day = lucky_streaks(d.level) if d is not None else ev.left + 1
    level = f"level {d.level}: " if d is not None else ""
    end = "saved" if ev.success else "failed again"
    if ev.of_death_save:
        end = "survives, unconscious" if ev.success else "dies"
    out = [
        Reason.of(R.lucky_streak, f"{level}{per_day} a day", f"{ev.left} left today"),
        Reason.of(
            R.lucky_any_save,
            f"re-rolls the failed save vs {ev.against}",
            *_save_terms(ev.roll, ev.parts, ev.total, ev.st, d, end),
        ),
    ]
    if ev.restored:
        out.append(Reason.of(R.scattergun_save, f"half damage after all: {ev.restored} HP back"))
    return tuple(out)


def _revived(before: FightState, ev: Revived, after: FightState) -> tuple[Reason, ...]:
    d = _data(after, ev.id)
    hp = f"HP {d.hp}" if d is not None else "HP above 0"
    return (Reason.of(R.death, f"{_name(before, ev.id)}: {hp}, above 0 again (the GM's adjust)", "no death save"),)


def _still_dead(before: FightState, ev: StillDead, after: FightState) -> tuple[Reason, ...]:
    d = _data(after, ev.id)
    hp = f"HP {d.hp}" if d is not None else "HP above 0"
    return (
        Reason.of(
            R.death,
            f"{_name(before, ev.id)}: {hp} (the GM's adjust), still dead",
            "an adjust of HP does not raise the dead",
            "the GM sets Status to bring them back",
        ),
    )


def _death_settled(before: FightState, ev: DeathSaveWaived | DeathRuled, after: FightState) -> tuple[Reason, ...]:
    how = "dies" if isinstance(ev, DeathRuled) else "lives, unconscious"
    return (Reason.of(R.death_by_ruling, f"the GM's ruling for {_name(before, ev.id)}: {how}", "no roll"),)


def _loyalty(before: FightState, ev: LoyaltyChecked, after: FightState) -> tuple[Reason, ...]:
    terms = [f"3d6 [{_faces(ev.roll)}] = {ev.roll.total}"]
    out: list[Reason] = []
    lead = _data(before, ev.leader)
    for p in ev.parts:
        if p.label.endswith("'s CHA loyalty"):
            cha = f" (CHA {lead.score('CHA')})" if lead is not None else ""
            terms.append(f"{p.label} {signed(p.value)}{cha}")
            out.append(Reason.of(R.loyalty_modifier, f"{_name(before, ev.leader)}{cha}: {signed(p.value)}"))
        elif p.label == "last loyalty check":
            terms.append(f"last check left {signed(p.value)}")
        else:
            terms.append(f"{p.label} {signed(p.value)} (GM)")
    terms.append(f"total {ev.total}: {ev.result}")
    return (Reason.of(R.loyalty, *terms), *out)


# -- healing ----------------------------------------------------------------------


def _bound(before: FightState, ev: WoundsBound, after: FightState) -> tuple[Reason, ...]:
    d = _data(before, ev.id)
    lost = f"HP lost in this fight: {d.lost}" if d is not None else ""
    return (Reason.of(R.binding_wounds, f"1d3 = {ev.roll.total}", *([lost] if lost else ()), f"{ev.healed} HP back"),)


def _rate(d: BnbData | None) -> tuple[int, str]:
    if d is None:
        return 1, "level 1"
    rate = max(1, d.level)
    return rate, (f"level {d.level}" if d.cls else f"HD {d.level} (its level)")


def _temporary(before: FightState, ev: TemporaryHealed, after: FightState) -> tuple[Reason, ...]:
    rate, who = _rate(_data(before, ev.id))
    woke = ["HP above 0: comes to"] if ev.woke else []
    return (
        Reason.of(
            R.temporary_healing,
            f"{who}: {rate} an hour",
            counted(ev.hours, "hour"),
            f"{ev.healed} temporary healed",
            *woke,
        ),
    )


def _rested(before: FightState, ev: Rested, after: FightState) -> tuple[Reason, ...]:
    d = _data(before, ev.id)
    rate, who = _rate(d)
    out: list[Reason] = []
    if d is not None and d.status == DEAD:
        return (Reason.of(R.rest, "dead: no rest heals the dead"),)
    if d is not None and d.status == DYING:
        return (Reason.of(R.death_save, "dying: the death save comes first"),)
    span = ev.why.split(";")[0] if ev.why else ""
    days = _full_days(span)
    capped: list[str] = []
    if d is not None and ev.lethal and ev.lethal == d.damage and ev.lethal < rate * days:
        capped = [
            f"{counted(days, 'day')} × {rate} HP = {rate * days}, but only {d.damage} HP of lethal damage taken: "
            "healing stops at the HP lost"
        ]
    out.append(
        Reason.of(R.rest, *([span] if span else ()), f"{who}: {rate} HP a full day", *capped, f"{ev.lethal} HP healed")
    )
    if d is not None and not d.cls:
        least = ", at least 1" if d.level < 1 else ""  # (HD ½ or 0: "heals as level 0" beside "1 HP a full day")
        out.append(Reason.of(R.npc_rest, f"{who}: heals as level {d.level}{least}"))
    if f"of {INTERRUPTED} rest" in ev.why:  # (not "uninterrupted")
        out.append(Reason.of(R.interrupted_rest, "interrupted: no lethal damage heals"))
    if ev.temporary or (d is not None and d.temp):
        out.append(Reason.of(R.temporary_healing, f"{who}: {rate} temporary an hour", f"{ev.temporary} healed"))
    if ev.revived:
        out.append(Reason.of(R.temporary_healing, "HP above 0: comes to"))
    if ev.lucky:
        per_day = lucky_streaks(d.level) if d is not None else ev.lucky
        out.append(Reason.of(R.lucky_streak, f"a day passed: {per_day} a day again", f"{ev.lucky} used back"))
    return tuple(out)


def _full_days(span: str) -> int:
    """The full days of uninterrupted rest a Rested's ``why`` names ("2 days and 5 hours of uninterrupted rest":
    2; 30 hours: 1); 0 for interrupted rest or a span it cannot read."""
    if f"of {INTERRUPTED} rest" in span or "uninterrupted" not in span:
        return 0
    days = re.search(r"(\d+) days?\b", span)
    hours = re.search(r"(\d+) hours?\b", span)
    return (int(days.group(1)) if days else 0) + (int(hours.group(1)) // 24 if hours else 0)


def _note(note: str) -> list[str]:
    return [f"GM's note: {note}"] if note else []


def _hp_lost(before: FightState, ev: HpLost, after: FightState) -> tuple[Reason, ...]:
    b, a = _data(before, ev.id), _data(after, ev.id)
    hp = [f"HP {b.hp} → {a.hp}"] if b is not None and a is not None else []
    kind = "temporary " if ev.temporary else ""
    out = [Reason.of(R.quick_damage, f"the GM's {kind}damage: {ev.roll.describe()}", *hp, *_note(ev.note))]
    if ev.temporary:
        out.append(Reason.of(R.fists, f"{ev.amount} temporary damage"))
    return tuple(out)


def _hp_healed(before: FightState, ev: HpHealed, after: FightState) -> tuple[Reason, ...]:
    b, a = _data(before, ev.id), _data(after, ev.id)
    terms = [f"the GM's healing: {ev.roll.describe()}", f"temporary {ev.temporary}, then lethal {ev.lethal}"]
    if b is not None and a is not None:
        terms.append(f"HP {b.hp} → {a.hp} (max {a.max_hp})")
    healed = ev.temporary + ev.lethal
    if healed and ev.roll.total > healed:  # (Ruling in events.capped)
        top = f" {a.max_hp}" if a is not None else ""
        terms.append(f"capped by max HP{top}: {ev.roll.total} given, {healed} healed, {ev.roll.total - healed} over")
    if ev.revived:
        terms.append("back above 0 HP: on their feet")
    return (Reason.of(R.quick_healing, *terms, *_note(ev.note)),)


# -- core events the rules shaped ---------------------------------------------------


def _added(before: FightState, ev: CombatantAdded, after: FightState) -> tuple[Reason, ...]:
    d = _data(after, ev.id)
    if d is None:
        return ()
    out: list[Reason] = []
    hp = [f"HP {r.describe()}" for r in ev.rolls] or [f"HP {d.max_hp} (set)"]
    if d.cls:
        out.append(
            Reason.of(R.class_tables, f"{d.cls} level {d.level}: HD {d.hd}, to-hit {signed(d.to_hit)}, ST {d.st}")
        )
        out.append(Reason.of(R.hit_points, *hp))
        mods = [_attribute(a, d.mod(a), d) for a in ATTRIBUTES if d.mod(a)]
        out.append(Reason.of(R.attribute_modifier, *(mods or ["every attribute 9–12: +0"])))
        row = CLASS_TABLES[d.cls][d.level - 1]
        out.append(
            Reason.of(
                R.defence_class,
                "10",
                _attribute("DEX", d.mod("DEX"), d),
                f"Defence Bonus {signed(row.defence)}",
                f"DC {d.dc}",
            )
        )
    else:
        out.append(Reason.of(R.npc_hit_dice, f"HD {d.hd}", *hp, f"DC {d.dc}"))
        if d.hd.half:
            out.append(Reason.of(R.half_hd, "½ HD: 1d3 HP, counts as 0 HD"))
        out.append(Reason.of(R.npc_to_hit, f"to-hit {signed(d.to_hit)} (HD {d.hd})"))
        out.append(Reason.of(R.critter_save, f"ST {d.st} = 19 − HD {0 if d.hd.half else d.hd.dice}"))
    return tuple(out)


def _initiative(before: FightState, ev: InitiativeSet, after: FightState) -> tuple[Reason, ...]:
    if ev.roll is None:
        if ev.note:  # a reinforcement sharing its group's roll
            return (Reason.of(R.group_initiative, ev.note, f"initiative {ev.value}"),)
        return ()  # the GM's number: the core explains it
    terms = [f"d20 = {ev.roll.faces[0] if ev.roll.faces else ev.roll.total}"]
    if ev.roll.modifier:
        terms.append(f"modifier {signed(ev.roll.modifier)}")
    terms.append(f"initiative {ev.value}")
    out = [Reason.of(R.initiative, *terms)]
    c = after.find(ev.id)
    if ev.note or (c is not None and c.group):
        out.append(Reason.of(R.group_initiative, ev.note or f"{_name(after, ev.id)} rolls alone (PC or important NPC)"))
    return tuple(out)


def _tie_broken(state: FightState, first: str, then: str, ties: tuple[tuple[str, ...], ...]) -> str:
    """ "Shoot before Trail: both initiative 10; DEX 13 over 10", for two neighbours in the order whose
    initiative tied and whom the rule set apart (DEX, then level or HD); "" for any others."""
    a, b, da, db = state.find(first), state.find(then), _data(state, first), _data(state, then)
    if a is None or b is None or da is None or db is None or a.initiative is None or a.initiative != b.initiative:
        return ""
    if any(first in group and then in group for group in ties):
        return ""  # still tied: said below
    dex_a, dex_b = da.score("DEX"), db.score("DEX")
    by = f"DEX {dex_a} over {dex_b}" if dex_a != dex_b else f"DEX {dex_a} each; {_who(da)} over {_who(db)}"
    return f"{a.name} before {b.name}: both initiative {a.initiative}; {by}"


def _order(before: FightState, ev: OrderSet, after: FightState) -> tuple[Reason, ...]:
    if ev.note != "by initiative":
        return ()  # the GM's order: the core explains it
    out = [Reason.of(R.initiative, "highest first: " + ", ".join(_name(after, i) for i in ev.order))]
    for group in ev.ties:
        terms = []
        for cid in group:
            c = after.find(cid)
            d = _data(after, cid)
            if c is not None and d is not None:
                terms.append(f"{c.name}: initiative {c.initiative}, DEX {d.score('DEX')}, {_who(d)}")
        out.append(Reason.of(R.initiative_ties, *terms, "still tied: they act at the same time"))
        out.append(Reason.of(R.simultaneous, "their blows land even if one of them drops"))
    broken = [line for a, b in itertools.pairwise(ev.order) if (line := _tie_broken(after, a, b, ev.ties))]
    if broken:
        out.append(Reason.of(R.initiative_ties, *broken))
    return tuple(out)


def _prompt(before: FightState, ev: PromptRaised, after: FightState) -> tuple[Reason, ...]:
    p = ev.prompt
    if p.kind == DEATH:
        return (Reason.of(R.death_save, p.text),)
    if p.kind == LUCKY:
        return (Reason.of(R.lucky_any_save, p.text),)
    return ()


def _round(before: FightState, ev: RoundStarted, after: FightState) -> tuple[Reason, ...]:
    if after.round <= 1:
        return ()
    return (Reason.of(R.keep_order, f"round {after.round}: the first round's order"),)


_EXPLAIN: dict[type[Event], Callable[[FightState, Any, FightState], tuple[Reason, ...]]] = {
    AttackRolled: _attack,
    Dropped: _dropped,
    ShotsFired: _shots,
    HeldFire: _held,
    Reloaded: _reloaded,
    DeathSaveRolled: _death_save,
    SaveRolled: _save,
    LuckyStreakUsed: _lucky,
    LoyaltyChecked: _loyalty,
    WoundsBound: _bound,
    TemporaryHealed: _temporary,
    HpLost: _hp_lost,
    HpHealed: _hp_healed,
    DeathSaveWaived: _death_settled,
    DeathRuled: _death_settled,
    Revived: _revived,
    StillDead: _still_dead,
    Rested: _rested,
    CombatantAdded: _added,
    InitiativeSet: _initiative,
    OrderSet: _order,
    PromptRaised: _prompt,
    RoundStarted: _round,
}


def explain(before: FightState, event: Event, after: FightState) -> tuple[Reason, ...]:
    """The reasons of one event (empty for an event the rules did not shape)."""
    fn = _EXPLAIN.get(type(event))
    return fn(before, event, after) if fn is not None else ()


__all__ = ["explain", "signed"]
