"""Blackjack decide and evolve: saves, attacks, injury escalation, lead, morale.

Rulings made here (beyond RULINGS.md), each named in a test:
- Impact never lowers an injury below lesser (a landed blow always marks);
  only resistance ignores a lesser injury. "The PC's impact" is read from the
  PC's side: attacking, advantage raises the level; defending, it lowers it.
- Resistance and weakness to the same attack cancel out.
- A volley's later shots at a target an earlier shot killed are held (no shot
  spent); a jam ends the volley. The jamming shot is spent.
- A jammed gun that still holds shots is cleared by a reload action for no lead.
- A fatal injury needs no slot: a combatant at Fatal is dead and takes no turns.
- Rolling over a stat at 19 does not mark it (it cannot rise further).
- Morale: a side is the NPCs sharing a group (ungrouped NPCs are one side);
  dead, fled, surrendered and removed members are out of the fight. One 2d6
  is rolled for the side and compared with each standing member's Morale.
  A trigger prompts once; a trigger met while a check is open waits for the
  next command after it. A GM adjustment (dead, fled, injuries) or a removal
  during the fight that meets a trigger opens the prompt with it.
- A second casting the same day costs its lesser powderburn at once; the
  sixes of a casting wait for the GM's choice (powderburn or catastrophe per
  die) in a prompt. Catastrophe injuries land on the caster; injure others with
  the Inflict injury command.
- Arguin': when both sides' lose-face injuries land at moderate or above in the
  same round, the side with less to lose (the GM's pick, default the NPC) wins.
- When an NPC's effect takes an NPC (a breath over a crowd of PCs and outlaws),
  the NPC target saves as an NPC does (≤ Threat + 8) over the attacker's Threat
  plus its own DV, as a PC would; a PC's attack is always the PC's own save.
- Anyone can fight with Fists (lesser, bludgeoning) even when the sheet lists
  none: "Fists" (or "unarmed") names them, and a combatant with no weapons
  on the sheet attacks with them.
- A night's rest is refused while a fight is running: it comes after the fight.
- A working that lays a condition or an injury (Hex, Naming) needs a target:
  cast without one it is refused rather than landing on the caster. A healing
  working with no target heals the caster; a note working just happens.
"""

from __future__ import annotations

from typing import Any

import attrs

from tracker import engine
from tracker.dice import Roller, roll
from tracker.errors import Refused, UnknownEvent
from tracker.events import ConditionAdded, Event, NoteAdded, PromptRaised, PromptResolved
from tracker.model import NPC, Combatant, Condition, FightState, Prompt

from . import commands as C
from .events import (
    OVER,
    SUCCESS,
    UNDER,
    ArguinLost,
    ArguinRound,
    AttackMade,
    DvPart,
    InjuryCleared,
    InjuryMarked,
    LeadIngested,
    MoraleChecked,
    RechargeRolled,
    Reloaded,
    Rested,
    SaveRoll,
    SaveRolled,
    SixesResolved,
    WorkingCast,
    WorkingTookEffect,
)
from .sheet import WEAPONS, BJData, Weapon, Working, level_index, matches, norm, split_list, words

FISTS = WEAPONS["fists"]


@attrs.frozen(kw_only=True)
class BJFight:
    """The fight-level record: morale triggers already prompted."""

    morale_seen: tuple[str, ...] = ()


class Draft:
    """Events decided so far and the state they lead to (for escalation within one action)."""

    def __init__(self, system: Any, state: FightState) -> None:
        self.system = system
        self.state = state
        self.events: list[Event] = []

    def add(self, *events: Event | None) -> None:
        for ev in events:
            if ev is None:
                continue
            self.events.append(ev)
            self.state = engine.evolve(self.system, self.state, ev)


# ---------------------------------------------------------------------------
# lookups and checks


def present(state: FightState, cid: str | None, what: str = "combatant") -> Combatant:
    if not cid:
        raise Refused(f"choose a {what}")
    c = state.find(cid) or state.by_name(cid)
    if c is None or c.removed:
        raise Refused(f"there is no {what} '{cid}' in this fight")
    return c


def able(state: FightState, cid: str | None, what: str = "combatant") -> Combatant:
    """A combatant who can still act: not dead (Fatal), not fled or surrendered."""
    c = present(state, cid, what)
    if c.data.dead:
        raise Refused(f"{c.name} is dead (a Fatal injury) and cannot act")
    if c.data.out:
        raise Refused(f"{c.name} has {c.data.out} and is out of the fight")
    return c


BARE_HANDS = ("fists", "fist", "unarmed", "punch", "bare hands")


def find_weapon(c: Combatant, name: str) -> tuple[int, Weapon]:
    """The named weapon (exact, then by prefix); empty: the first ready one; Fists are always at hand (index -1)."""
    ws = c.data.weapons
    key = name.strip().lower()
    if key:
        for exact in (True, False):
            for i, w in enumerate(ws):
                if (w.name.lower() == key) if exact else w.name.lower().startswith(key):
                    return i, w
        if key in BARE_HANDS:
            return -1, FISTS
        have = ", ".join(w.name for w in ws) or "nothing"
        raise Refused(f"{c.name} has no weapon '{name}' (has: {have}; anyone can use Fists)")
    if not ws:
        return -1, FISTS
    for i, w in enumerate(ws):
        if w.is_firearm and (w.loaded == 0 or w.jammed):
            continue
        if w.ammo == 0 or (w.recharge and w.spent):
            continue
        return i, w
    return 0, ws[0]


def find_working(c: Combatant, name: str) -> tuple[int, Working]:
    key = name.strip().lower()
    for exact in (True, False):
        for i, w in enumerate(c.data.workings):
            if (w.name.lower() == key) if exact else (key and w.name.lower().startswith(key)):
                return i, w
    raise Refused(f"{c.name} does not know a working called '{name}' (workings must be learned)")


def side_of(c: Combatant) -> str:
    return c.group or "NPCs"


# ---------------------------------------------------------------------------
# the Blackjack save


def dv_parts(c: Combatant) -> list[DvPart]:
    """The roller's own DV: +1 per injury, plus conditions with a DV value (a Hex)."""
    parts = []
    if c.data.injury_count:
        parts.append(DvPart(label="own injuries", value=c.data.injury_count))
    for cond in c.conditions:
        if cond.value:
            parts.append(DvPart(label=cond.name, value=cond.value))
    return parts


def blackjack_save(
    dice: Roller, c: Combatant, stat: str, parts: list[DvPart], label: str, deficient: bool = False
) -> SaveRoll:
    """d20: success when DV < roll ≤ stat (an NPC: ≤ Threat + 8); DV never below 0."""
    d: BJData = c.data
    all_parts = tuple(p for p in (*parts, *dv_parts(c)) if p.value)
    dv = max(0, sum(p.value for p in all_parts))
    if d.is_pc:
        stat_name = stat.upper()
        limit = d.stat(stat)
    else:
        stat_name = "⌈Threat/2⌉+8" if deficient else "Threat+8"
        limit = d.npc_limit(deficient)
    r = roll("1d20", dice, f"{c.name} {label}".strip())
    face = r.total
    outcome = OVER if face > limit else UNDER if face <= dv else SUCCESS
    mark = d.is_pc and outcome == OVER and limit < 19
    raised = 0
    if mark and getattr(d, f"{stat.lower()}_marks") + 1 >= 3:
        raised = min(19, limit + 1)
    return SaveRoll(
        who=c.id,
        stat=stat_name,
        limit=limit,
        dv=dv,
        parts=all_parts,
        roll=r,
        outcome=outcome,
        mark=mark,
        raised_to=raised,
    )


def apply_save(state: FightState, save: SaveRoll) -> FightState:
    if not save.mark:
        return state
    c = state.get(save.who)
    key = save.stat.lower()
    if save.raised_to:
        return state.update_data(c.id, **{key: save.raised_to, f"{key}_marks": 0})
    return state.update_data(c.id, **{f"{key}_marks": getattr(c.data, f"{key}_marks") + 1})


# ---------------------------------------------------------------------------
# injuries


def injury(
    state: FightState, cid: str, index: int, name: str, tags: tuple[str, ...] = (), steps: tuple[str, ...] = ()
) -> InjuryMarked | None:
    """Mark an injury: immunity, resistance (lesser ignored), weakness, then up the track while full."""
    c = state.get(cid)
    d: BJData = c.data
    if d.dead:
        return None
    n = d.fatal_index
    idx = max(0, min(index, n))
    path = list(steps) if steps else [d.level_name(idx)]
    immune = matches(d.immunities, tags)
    if immune:
        return InjuryMarked(target=cid, name=name, steps=(*path, f"immune to {immune}", "none"), index=-1)
    res, weak = matches(d.resistances, tags), matches(d.weaknesses, tags)
    if res and not weak:
        if idx == 0:
            return InjuryMarked(target=cid, name=name, steps=(*path, f"resists {res}", "ignored"), index=-1)
        idx = idx - 1 if idx < n else n - 1
        path += [f"resists {res}", d.level_name(idx)]
    elif weak and not res:
        idx = min(idx + 1, n)
        path += [f"weak to {weak}", d.level_name(idx)]
    while idx < n and len(d.injuries[idx]) >= d.slots[idx]:
        idx += 1
        path += ["slots full", d.level_name(idx)]
    return InjuryMarked(target=cid, name=name, steps=tuple(path), index=idx, fatal=idx >= n)


def impact_shift(level: int, fatal: int, impact: str, sign: int) -> tuple[int, tuple[str, ...]]:
    """Impact moves the level one step (never below lesser, never past fatal)."""
    if impact == "none" or level < 0:
        return level, ()
    delta = sign if impact == "advantage" else -sign
    return max(0, min(fatal, level + delta)), (impact,)


# ---------------------------------------------------------------------------
# morale


def morale_prompts(state: FightState) -> list[Event]:
    """Prompts for the book's triggers: first casualty, half out, a lone NPC with 2 moderate injuries."""
    seen = state.data.morale_seen if state.data else ()
    sides: dict[str, list[Combatant]] = {}
    for c in state.combatants:
        if c.kind == NPC:
            sides.setdefault(side_of(c), []).append(c)
    out_events: list[Event] = []
    for side, members in sides.items():
        pid = f"morale:{side}"
        if any(p.id == pid for p in state.prompts):
            continue
        standing = [c for c in members if not c.removed and c.data.standing]
        checkers = [c for c in standing if 2 < c.data.morale < 12]
        if not checkers:
            continue
        out = len(members) - len(standing)
        found: list[tuple[str, str]] = []
        if out >= 1 and f"casualty:{side}" not in seen:
            found.append((f"casualty:{side}", "first casualty"))
        if len(members) >= 2 and 2 * out >= len(members) and f"half:{side}" not in seen:
            found.append((f"half:{side}", "half its number out of the fight"))
        if len(standing) == 1:
            lone = standing[0]
            if len(lone.data.slots) > 1 and len(lone.data.injuries[1]) >= 2 and f"alone:{lone.id}" not in seen:
                found.append((f"alone:{lone.id}", f"{lone.name} alone with 2 moderate injuries"))
        if not found:
            continue
        why = "; ".join(w for _, w in found)
        out_events.append(
            PromptRaised(
                prompt=Prompt(
                    id=pid,
                    kind="morale",
                    text=f"{side}: {why} — morale check (2d6 against Morale)",
                    combatant=checkers[0].id,
                    command="morale",
                    params={"actor": checkers[0].id, "trigger": "|".join(k for k, _ in found)},
                )
            )
        )
    return out_events


# ---------------------------------------------------------------------------
# decide


def decide(system: Any, state: FightState, cmd: Any, dice: Roller) -> list[Event]:
    handler = _DECIDE.get(type(cmd))
    if handler is None:
        raise Refused(f"Blackjack does not know the command {type(cmd).__name__}")
    d = Draft(system, state)
    handler(d, cmd, dice)
    d.add(*morale_prompts(d.state))
    return d.events


def _range(w: Weapon, rng: str) -> str:
    if rng != "auto":
        return rng
    return "close" if w.kind in ("melee", "natural") else "nearby"


def _tags(w: Weapon, extra: str) -> tuple[str, ...]:
    tags = list(w.tags)
    for t in split_list(extra):
        if t.startswith("-"):
            drop = set(words(t[1:]))
            tags = [x for x in tags if norm(x) not in drop]
        else:
            tags.extend(words(t))
    return tuple(tags)


def _wound(w: Weapon) -> str:
    return {"firearm": "gunshot", "bow": "arrow wound", "blowgun": "dart"}.get(w.kind, f"{w.name.lower()} wound")


def _attack(d: Draft, cmd: C.Attack, dice: Roller) -> None:
    state = d.state
    a = able(state, cmd.actor, "attacker")
    if not a.data.is_pc and a.data.morale == 2:
        raise Refused(f"{a.name} has Morale 2: an NPC of Morale 2 will not fight")
    if not cmd.targets:
        raise Refused("choose a target")
    targets = [able(state, t, "target").id for t in cmd.targets]
    wi, w = find_weapon(a, cmd.weapon)
    rng = _range(w, cmd.range)
    if w.kind == "bow" and rng == "close":
        raise Refused(f"a {w.name} cannot be used at melee range (it can shoot over cover)")
    if w.kind == "thrown" and rng == "far":
        raise Refused(f"a {w.name} cannot reach far range")
    if w.kind in ("melee", "natural") and rng != "close":
        raise Refused(f"{w.name} is a melee attack: the target must be close (in melee)")
    many = len(targets) > 1
    if many and w.multi not in ("shots", "blast", "area"):
        raise Refused(
            f"the {w.name} takes one target: only a revolver or repeater fires several shots in one action, "
            "and a shotgun blast takes several targets"
        )
    if w.multi in ("blast", "area") and len(set(targets)) != len(targets):
        raise Refused(f"the {w.name} strikes each target once")
    if w.is_firearm:
        if w.jammed:
            raise Refused(f"{a.name}'s {w.name} is jammed: clear it with a reload action first")
        need = len(targets) if w.multi == "shots" else 1
        if w.loaded == 0:
            raise Refused(f"{a.name}'s {w.name} is empty: each shot spends one; reload (1 lead and an action)")
        if w.loaded < need:
            raise Refused(f"{a.name}'s {w.name} has {w.loaded} shot(s) loaded, not the {need} asked for")
    if w.ammo >= 0 and w.ammo < len(targets):
        raise Refused(f"{a.name}'s {w.name} ammunition stack has {w.ammo} left, not {len(targets)}")
    risk = cmd.risk
    if risk == "auto":
        risk = "target" if w.kind == "special" and w.stat else "attacker"
    if risk == "target" and a.data.is_pc:
        raise Refused(
            "the risk goes on the target only when it saves against an NPC's effect: a PC attacking makes its own save"
        )
    levels: dict[str, int] = {}
    for t in set(targets):
        td = state.get(t).data
        levels[t] = w.level if cmd.level == "default" else level_index(cmd.level, len(td.slots))
    if w.recharge and w.spent:
        r = roll("1d6", dice, f"{w.name} recharge")
        need6 = 7 - w.recharge
        d.add(RechargeRolled(actor=a.id, weapon=w.name, weapon_index=wi, roll=r, need=need6, ok=r.total >= need6))
        if r.total < need6:
            return
    tags = _tags(w, cmd.tags)
    for i, tid in enumerate(targets):
        a = d.state.get(a.id)
        t = d.state.get(tid)
        if (wi >= 0 and a.data.weapons[wi].jammed) or not a.data.standing:
            break
        if not t.data.standing:
            d.add(NoteAdded(text=f"{a.name} holds the shot: {t.name} is already down", id=a.id))
            continue
        mods = [DvPart(label=m.label, value=m.value) for m in cmd.modifiers]
        if risk == "attacker":
            parts: list[DvPart] = []
            if a.data.is_pc and not t.data.is_pc:
                parts.append(DvPart(label=f"{t.name}'s Threat", value=t.data.threat))
            if w.multi == "blast" and many:
                parts.append(DvPart(label=f"{w.name}, several targets", value=w.blast_dv))
            elif w.dv:
                parts.append(DvPart(label=w.name, value=w.dv))
            if rng == "nearby" and w.near_dv:
                parts.append(DvPart(label=f"{w.name} at nearby range", value=w.near_dv))
            if rng == "far" and w.far_dv:
                parts.append(DvPart(label=f"{w.name} at far range", value=w.far_dv))
            for mod in t.data.dv_mods:
                if matches((" ".join(mod.tags),), tags):
                    parts.append(DvPart(label=mod.label, value=mod.value))
            ranged = w.kind in ("firearm", "bow", "blowgun") or (w.kind == "thrown" and rng != "close")
            stat = "ACC" if ranged else "BODY"
            deficient = cmd.deficient or bool(matches(a.data.deficiencies, (*tags, w.kind, w.name)))
            save = blackjack_save(dice, a, stat, parts + mods, f"attacks {t.name}", deficient)
            jammed = bool(w.jam) and save.roll.total >= w.jam
            hit = save.success and not jammed
        else:
            parts = []
            if not a.data.is_pc:
                parts.append(DvPart(label=f"{a.name}'s Threat", value=a.data.threat))
            save = blackjack_save(dice, t, w.stat or "BODY", parts + mods, f"saves against {w.name}")
            jammed = False
            hit = not save.success
        first = i == 0
        d.add(
            AttackMade(
                actor=a.id,
                target=t.id,
                weapon=w.name,
                weapon_index=wi,
                range=rng,
                save=save,
                hit=hit,
                jammed=jammed,
                shots_spent=1 if w.is_firearm and (w.multi == "shots" or first) else 0,
                ammo_spent=1 if w.ammo >= 0 else 0,
                uses_special=bool(w.recharge) and first,
            )
        )
        if hit:
            if w.condition and not t.condition(w.condition):
                d.add(ConditionAdded(id=t.id, condition=Condition(name=w.condition, note=w.name)))
            level = levels[t.id]
            if level >= 0:
                sign = -1 if t.data.is_pc and not a.data.is_pc else 1
                shifted, how = impact_shift(level, t.data.fatal_index, cmd.impact, sign)
                steps = (t.data.level_name(level), *how, t.data.level_name(shifted)) if how else ()
                d.add(injury(d.state, t.id, shifted, w.injury or _wound(w), tags, steps))
        if jammed:
            break


def _save(d: Draft, cmd: C.MakeSave, dice: Roller) -> None:
    a = able(d.state, cmd.actor)
    parts = []
    if cmd.against:
        o = present(d.state, cmd.against)
        if not o.data.is_pc:
            parts.append(DvPart(label=f"{o.name}'s Threat", value=o.data.threat))
    if cmd.dv:
        parts.append(DvPart(label="DV", value=cmd.dv))
    parts += [DvPart(label=m.label, value=m.value) for m in cmd.modifiers]
    level = -1 if cmd.fail_level == "none" else level_index(cmd.fail_level, len(a.data.slots))
    save = blackjack_save(dice, a, cmd.stat, parts, cmd.purpose or "save", cmd.deficient)
    d.add(SaveRolled(actor=a.id, save=save, purpose=cmd.purpose))
    if not save.success and level >= 0:
        shifted, how = impact_shift(level, a.data.fatal_index, cmd.impact, -1)
        steps = (a.data.level_name(level), *how, a.data.level_name(shifted)) if how else ()
        d.add(injury(d.state, a.id, shifted, cmd.injury or cmd.purpose or "injury", (), steps))


def _reload(d: Draft, cmd: C.Reload, dice: Roller) -> None:
    a = able(d.state, cmd.actor)
    if cmd.weapon:
        wi, w = find_weapon(a, cmd.weapon)
    else:
        guns = [(i, w) for i, w in enumerate(a.data.weapons) if w.is_firearm]
        if not guns:
            raise Refused(f"{a.name} carries no firearm to reload")
        wi, w = min(guns, key=lambda x: (not x[1].jammed, x[1].loaded - x[1].shots))
    if not w.is_firearm:
        raise Refused(f"only firearms reload with lead; the {w.name} is not one")
    if w.jammed and w.loaded > 0:
        d.add(Reloaded(actor=a.id, weapon=w.name, weapon_index=wi, lead=0, jam_cleared=True))
        return
    if w.loaded >= w.shots:
        raise Refused(f"{a.name}'s {w.name} is already loaded ({w.loaded}/{w.shots})")
    if a.data.lead < 1:
        raise Refused(f"reloading spends 1 lead, and {a.name} has no lead left")
    d.add(Reloaded(actor=a.id, weapon=w.name, weapon_index=wi, lead=1, jam_cleared=w.jammed))


def _ingest(d: Draft, cmd: C.IngestLead, dice: Roller) -> None:
    a = able(d.state, cmd.actor)
    if cmd.amount < 1:
        raise Refused("ingest at least 1 lead")
    if a.data.lead < cmd.amount:
        raise Refused(f"lead-working: {a.name} carries {a.data.lead} lead, too little to ingest {cmd.amount}")
    d.add(LeadIngested(actor=a.id, amount=cmd.amount))


def _cast(d: Draft, cmd: C.CastWorking, dice: Roller) -> None:
    a = able(d.state, cmd.actor, "caster")
    wi, wk = find_working(a, cmd.working)
    if a.data.pending_sixes:
        raise Refused(f"first choose powderburn or catastrophe for {a.name}'s last sixes")
    n = a.data.ingested
    if n < wk.level:
        raise Refused(
            f"lead-working: {wk.name} needs {wk.level} lead ingested (an action before casting); "
            f"{a.name} has ingested {n} and carries {a.data.lead}"
        )
    target = able(d.state, cmd.target, "target") if cmd.target else None
    if target is None and wk.effect in ("condition", "injury"):
        raise Refused(
            f"{wk.name} works on a target (who saves CTRL against it): choose one; "
            "only a working with no target just happens"
        )
    r = roll(f"{n}d6", dice, f"{a.name} casts {wk.name}")
    sixes = sum(1 for f in r.faces if f == 6)
    tid = target.id if target else None
    d.add(
        WorkingCast(
            actor=a.id, working=wk.name, working_index=wi, lead=n, roll=r, sixes=sixes, again=wk.cast_today, target=tid
        )
    )
    if wk.cast_today:
        d.add(injury(d.state, a.id, 0, "powderburn (second casting today)"))
    took = True
    if target is not None and not cmd.willing and target.id != a.id:
        t = d.state.get(target.id)
        parts = [DvPart(label="lead ingested", value=n)] + [DvPart(label=m.label, value=m.value) for m in cmd.modifiers]
        save = blackjack_save(dice, t, "CTRL", parts, f"resists {wk.name}")
        d.add(SaveRolled(actor=t.id, save=save, purpose=f"resist {wk.name}"))
        took = not save.success
    d.add(WorkingTookEffect(actor=a.id, working=wk.name, target=tid, took=took, note=wk.notes if took else ""))
    on = tid or a.id
    if took:
        who = d.state.get(on)
        if wk.effect == "condition" and wk.condition and not who.condition(wk.condition):
            cond = Condition(name=wk.condition, value=wk.value, note=f"{wk.name} by {a.name}")
            d.add(ConditionAdded(id=on, condition=cond))
        elif wk.effect == "injury":
            d.add(injury(d.state, on, wk.injury_level, wk.injury or wk.name.lower(), ("working",)))
        elif wk.effect == "heal":
            d.add(_clear_worst(who, f"{wk.name} by {a.name}"))
    if sixes:
        d.add(
            PromptRaised(
                prompt=Prompt(
                    id=f"sixes:{a.id}",
                    kind="powderburn",
                    text=f"{a.name} rolled {sixes} six(es) casting {wk.name}: powderburn or catastrophe for each",
                    combatant=a.id,
                    command="burn",
                    params={"actor": a.id, "choices": ", ".join(["powderburn"] * sixes)},
                )
            )
        )


_CHOICE_WORDS = {"p": "powderburn", "powderburn": "powderburn", "c": "catastrophe", "catastrophe": "catastrophe"}


def parse_injury_list(text: str, c: Combatant) -> list[tuple[int, str]]:
    out = []
    for item in split_list(text):
        level, _, name = item.partition(" ")
        out.append((level_index(level, len(c.data.slots)), name.strip() or "catastrophe"))
    return out


def _burn(d: Draft, cmd: C.ResolveSixes, dice: Roller) -> None:
    a = present(d.state, cmd.actor, "caster")
    n = a.data.pending_sixes
    if n == 0:
        raise Refused(f"{a.name} has no sixes waiting: powderburn comes from the 6s of a working's roll")
    raw = split_list(cmd.choices) or ["powderburn"] * n
    choices = []
    for x in raw:
        word = _CHOICE_WORDS.get(x.lower())
        if word is None:
            raise Refused(f"'{x}' is neither powderburn nor catastrophe")
        choices.append(word)
    if len(choices) != n:
        raise Refused(f"{n} six(es) were rolled: give one choice per six (powderburn or catastrophe)")
    extra = parse_injury_list(cmd.injuries, a)
    if extra and "catastrophe" not in choices:
        raise Refused("only a catastrophe inflicts other injuries; choose catastrophe for a six first")
    d.add(SixesResolved(actor=a.id, choices=tuple(choices), note=cmd.note))
    for ch in choices:
        if ch == "powderburn":
            d.add(injury(d.state, a.id, 0, "powderburn"))
    for idx, name in extra:
        d.add(injury(d.state, a.id, idx, name))
    if any(p.id == f"sixes:{a.id}" for p in d.state.prompts):
        d.add(PromptResolved(prompt_id=f"sixes:{a.id}", note=", ".join(choices)))


def _morale(d: Draft, cmd: C.MoraleCheck, dice: Roller) -> None:
    c = present(d.state, cmd.actor)
    if c.data.is_pc:
        raise Refused("morale checks are for NPCs: the referee rolls 2d6 against an NPC side's Morale")
    side = side_of(c)
    members = [x for x in d.state.combatants if x.kind == NPC and side_of(x) == side and not x.removed]
    checkers = [x for x in members if x.data.standing and 2 < x.data.morale < 12]
    if not checkers:
        raise Refused(f"no one on the {side} side checks morale (Morale 12 never checks; Morale 2 never fights)")
    r = roll("2d6", dice, f"{side} morale")
    broken = tuple(x.id for x in checkers if r.total > x.data.morale)
    outcome = "fled" if cmd.outcome == "flees" else "surrendered"
    d.add(MoraleChecked(side=side, roll=r, checked=tuple(x.id for x in checkers), broken=broken, outcome=outcome))
    pid = f"morale:{side}"
    if any(p.id == pid for p in d.state.prompts):
        d.add(PromptResolved(prompt_id=pid, note=f"2d6 = {r.total}"))


_BEATS = {"defend": "attack", "attack": "flourish", "flourish": "defend"}


def _argue(d: Draft, cmd: C.Argue, dice: Roller) -> None:
    pc = able(d.state, cmd.actor, "PC")
    npc = able(d.state, cmd.npc, "NPC")
    if not pc.data.is_pc or npc.data.is_pc:
        raise Refused("Arguin' puts one PC against one NPC, each speaking for a side")
    for m in (cmd.pc_move, cmd.npc_move):
        if m not in _BEATS:
            raise Refused(f"'{m}' is not a move: attack, defend or flourish")
    if cmd.pc_move == cmd.npc_move:
        losers: tuple[str, ...] = (pc.id, npc.id)
    elif _BEATS[cmd.pc_move] == cmd.npc_move:
        losers = (npc.id,)
    else:
        losers = (pc.id,)
    d.add(ArguinRound(pc=pc.id, npc=npc.id, pc_move=cmd.pc_move, npc_move=cmd.npc_move, losers=losers))
    shamed = []
    for lid in losers:
        c = d.state.get(lid)
        save = blackjack_save(dice, c, "CTRL", [], "keeps face")
        d.add(SaveRolled(actor=lid, save=save, purpose="keep face"))
        if not save.success:
            inj = injury(d.state, lid, 0, "lose face", ("social",))
            d.add(inj)
            if inj is not None and inj.index >= 1:
                shamed.append(lid)
    if len(shamed) == 2:
        loser = pc.id if cmd.less_to_lose == "npc" else npc.id
        d.add(
            ArguinLost(
                loser=loser,
                winner=npc.id if loser == pc.id else pc.id,
                note="both shamed: ties favour the side with less to lose",
            )
        )
    elif shamed:
        d.add(ArguinLost(loser=shamed[0], winner=npc.id if shamed[0] == pc.id else pc.id))


def _injure(d: Draft, cmd: C.Injure, dice: Roller) -> None:
    t = present(d.state, cmd.target, "target")
    if t.data.dead:
        raise Refused(f"{t.name} is already dead")
    idx = level_index(cmd.level, len(t.data.slots))
    d.add(injury(d.state, t.id, idx, cmd.name.strip() or "injury", words(cmd.tags)))


def _clear_worst(c: Combatant, reason: str) -> InjuryCleared | None:
    for idx in range(len(c.data.slots) - 1, -1, -1):
        if c.data.injuries[idx]:
            return InjuryCleared(
                target=c.id, index=idx, name=c.data.injuries[idx][-1], level=c.data.level_name(idx), reason=reason
            )
    return None


def _treat(d: Draft, cmd: C.Treat, dice: Roller) -> None:
    t = present(d.state, cmd.target, "patient")
    if t.data.dead:
        raise Refused(f"{t.name} is dead: no treatment clears a Fatal injury")
    if cmd.level == "worst":
        ev = _clear_worst(t, "treatment")
        if ev is None:
            raise Refused(f"{t.name} has no injury to treat")
        d.add(ev)
        return
    idx = level_index(cmd.level, len(t.data.slots))
    if not t.data.injuries[idx]:
        raise Refused(f"{t.name} has no {cmd.level} injury to treat")
    d.add(InjuryCleared(target=t.id, index=idx, name=t.data.injuries[idx][-1], level=cmd.level, reason="treatment"))


def _rest(d: Draft, cmd: C.Rest, dice: Roller) -> None:
    s = d.state
    if s.started and not s.ended:
        raise Refused("a night's rest comes after the fight: end the fight first")
    ids = tuple(present(s, i).id for i in cmd.ids) or tuple(c.id for c in s.combatants if not c.removed)
    ids = tuple(i for i in ids if not s.get(i).data.dead)
    if not ids:
        raise Refused("no one alive to rest")
    d.add(Rested(ids=ids))


_DECIDE = {
    C.Attack: _attack,
    C.MakeSave: _save,
    C.Reload: _reload,
    C.IngestLead: _ingest,
    C.CastWorking: _cast,
    C.ResolveSixes: _burn,
    C.MoraleCheck: _morale,
    C.Argue: _argue,
    C.Injure: _injure,
    C.Treat: _treat,
    C.Rest: _rest,
}


# ---------------------------------------------------------------------------
# evolve


def _set_weapon(state: FightState, cid: str, index: int, **changes: Any) -> FightState:
    c = state.get(cid)
    ws = list(c.data.weapons)
    ws[index] = attrs.evolve(ws[index], **changes)
    return state.update_data(cid, weapons=tuple(ws))


def evolve(state: FightState, ev: Event) -> FightState:
    if isinstance(ev, SaveRolled):
        return apply_save(state, ev.save)
    if isinstance(ev, AttackMade):
        state = apply_save(state, ev.save)
        if ev.weapon_index < 0:  # bare hands: nothing to spend
            return state
        w = state.get(ev.actor).data.weapons[ev.weapon_index]
        changes: dict[str, Any] = {}
        if ev.shots_spent:
            changes["loaded"] = max(0, w.loaded - ev.shots_spent)
        if ev.ammo_spent:
            changes["ammo"] = max(0, w.ammo - ev.ammo_spent)
        if ev.jammed:
            changes["jammed"] = True
        if ev.uses_special:
            changes["spent"] = True
        return _set_weapon(state, ev.actor, ev.weapon_index, **changes) if changes else state
    if isinstance(ev, InjuryMarked):
        if ev.index < 0:
            return state
        c = state.get(ev.target)
        if ev.fatal:
            return state.update_data(c.id, dead=True)
        inj = list(c.data.injuries)
        inj[ev.index] = (*inj[ev.index], ev.name)
        return state.update_data(c.id, injuries=tuple(inj))
    if isinstance(ev, InjuryCleared):
        c = state.get(ev.target)
        inj = list(c.data.injuries)
        row = list(inj[ev.index])
        if ev.name in row:
            del row[len(row) - 1 - row[::-1].index(ev.name)]
        elif row:
            row.pop()
        inj[ev.index] = tuple(row)
        return state.update_data(c.id, injuries=tuple(inj))
    if isinstance(ev, RechargeRolled):
        return _set_weapon(state, ev.actor, ev.weapon_index, spent=not ev.ok)
    if isinstance(ev, Reloaded):
        w = state.get(ev.actor).data.weapons[ev.weapon_index]
        loaded = w.shots if ev.lead else w.loaded
        state = _set_weapon(state, ev.actor, ev.weapon_index, loaded=loaded, jammed=False)
        return state.update_data(ev.actor, lead=state.get(ev.actor).data.lead - ev.lead)
    if isinstance(ev, LeadIngested):
        d = state.get(ev.actor).data
        return state.update_data(ev.actor, lead=d.lead - ev.amount, ingested=d.ingested + ev.amount)
    if isinstance(ev, WorkingCast):
        d = state.get(ev.actor).data
        wks = list(d.workings)
        wks[ev.working_index] = attrs.evolve(wks[ev.working_index], cast_today=True)
        return state.update_data(ev.actor, ingested=0, workings=tuple(wks), pending_sixes=d.pending_sixes + ev.sixes)
    if isinstance(ev, SixesResolved):
        return state.update_data(ev.actor, pending_sixes=0)
    if isinstance(ev, MoraleChecked):
        for cid in ev.broken:
            state = state.update_data(cid, out=ev.outcome)
        return state
    if isinstance(ev, Rested):
        for cid in ev.ids:
            d = state.get(cid).data
            inj = tuple(() if i < 2 else row for i, row in enumerate(d.injuries))
            wks = tuple(attrs.evolve(w, cast_today=False) for w in d.workings)
            state = state.update_data(cid, injuries=inj, workings=wks)
        return state
    if isinstance(ev, (WorkingTookEffect, ArguinRound, ArguinLost)):
        return state
    if isinstance(ev, PromptRaised) and ev.prompt.kind == "morale":
        keys = tuple(k for k in str(ev.prompt.params.get("trigger", "")).split("|") if k)
        data = state.data or BJFight()
        seen = data.morale_seen + tuple(k for k in keys if k not in data.morale_seen)
        return attrs.evolve(state, data=attrs.evolve(data, morale_seen=seen))
    if ev.TYPE.startswith("blackjack."):
        raise UnknownEvent(f"no blackjack rule applies {ev.TYPE}")
    return state
