"""Why each blackjack event happened: the rules of :mod:`.table` it applied, and the terms that went in.

Read from the event and the states around it (never rolled, never decided), so
fights saved before reasons existed explain too.  Every blackjack event type has
its explainer; the core events blackjack's rules shape (the GM's order, a
special's condition, the morale, powderburn and affliction prompts, a held shot)
explain here as well.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from tracker.events import Adjusted, ConditionAdded, ConditionRemoved, Event, NoteAdded, OrderSet, PromptRaised
from tracker.model import Combatant, FightState
from tracker.reasons import Reason
from tracker.text import counted

from . import events as E
from . import rest
from .presets import WEAPONS
from .records import LEVELS, BJData, Weapon, Working
from .rules.common import alike_weapons
from .table import R

Explainer = Callable[[FightState, Any, FightState], list[Reason]]


def _c(state: FightState, cid: str | None) -> Combatant | None:
    return state.find(cid) if cid else None


def _d(state: FightState, cid: str | None) -> BJData | None:
    c = _c(state, cid)
    return c.data if c is not None and isinstance(c.data, BJData) else None


def _name(state: FightState, cid: str | None) -> str:
    c = _c(state, cid)
    return c.name if c is not None else (cid or "?")


def _n(v: int) -> str:
    return f"{v:+d}".replace("-", "−")


def _faces(roll: Any) -> str:
    return f"{roll.expr} [{', '.join(map(str, roll.faces))}] = {roll.total}"


def _weapon(state: FightState, cid: str, index: int, name: str) -> Weapon:
    d = _d(state, cid)
    if d is not None and 0 <= index < len(d.weapons) and d.weapons[index].name == name:
        return d.weapons[index]
    return WEAPONS.get(name.lower(), Weapon(name=name))


def _working(state: FightState, cid: str, name: str) -> Working | None:
    d = _d(state, cid)
    return next((w for w in d.workings if w.name == name), None) if d is not None else None


# ---------------------------------------------------------------------------
# the save, whoever rolls it


def save_reasons(state: FightState, save: E.SaveRoll, threat_rule: Any = None) -> list[Reason]:
    """The Blackjack save: its d20, its limit, each part of its DV (and the rule it comes from), the mark."""
    d = _d(state, save.who)
    who = _name(state, save.who)
    face = save.roll.total
    if save.outcome == E.SUCCESS:
        verdict = f"{face} > DV {save.dv} and ≤ {save.limit}: success"
    elif save.outcome == E.OVER:
        verdict = f"{face} > {save.limit}: over the stat, fails"
    else:
        verdict = f"{face} ≤ DV {save.dv}: at or under the DV, fails"
    raw = sum(p.value for p in save.parts)
    dv = f"DV {save.dv}" if raw == save.dv else f"DV {raw} → {save.dv} (never below 0)"
    pc = d is not None and d.is_pc
    limit = f"{save.stat} {save.limit} ({who}'s stat)" if pc else f"{save.stat} = {save.limit} ({who})"
    gm: list[str] = []
    out: list[Reason] = []
    by_rule: dict[str, tuple[Any, list[str]]] = {}

    def add(rule: Any, term: str) -> None:
        by_rule.setdefault(rule.id, (rule, []))[1].append(term)

    roller = _c(state, save.who)
    conds = {c.name for c in roller.conditions} if roller is not None else set()
    for p in save.parts:
        term = f"{p.label} {_n(p.value)}"
        if p.label == "own injuries":
            add(R.INJURY_DV, f"{term} ({p.value} injur{'y' if p.value == 1 else 'ies'} marked)")
        elif p.label.endswith("'s Threat"):
            add(threat_rule or R.AGAINST_NPC, term)
        elif p.label == "lead ingested":
            add(R.WORKING_SAVE, f"{term} (+1 DV per lead)")
        elif p.label.lower() == "hexed":
            add(R.HEX, f"{term} (condition)")
        elif any(k in p.label for k in ("at nearby range", "at far range", "several targets")) or (
            p.label.lower() in WEAPONS
        ):
            add(R.WEAPON_DV, term)
        elif p.label in conds:
            gm.append(f"{term} (condition {p.label})")
        elif _is_dv_mod(state, p.label):
            add(R.DV_MODS, term)
        else:
            gm.append(f"{term} (GM)")
    out.append(Reason.of(R.SAVE, f"d20 [{face}]", limit, dv, *gm, verdict))
    if not pc:
        limit_terms = [f"Threat {d.threat} + 8 = {d.npc_limit()}" if d is not None else f"limit {save.limit}"]
        if save.deficient and d is not None:
            limit_terms = [
                f"Threat {d.threat}, deficient in {save.deficient} (sheet): saves ≤ {save.limit} (⌈{d.threat} ÷ 2⌉ + 8)"
            ]
        elif "⌈" in save.stat and d is not None:  # the GM's tick, or a file written before the phrase was kept
            limit_terms = [f"deficient: ⌈{d.threat} ÷ 2⌉ + 8 = {d.npc_limit(True)}"]
        out.append(Reason.of(R.NPC_SAVE, *limit_terms))
    out += [Reason.of(rule, *terms) for rule, terms in by_rule.values()]
    if pc and save.outcome == E.OVER:
        stat = save.stat
        if save.raised_to:
            out.append(Reason.of(R.MARKS, f"third mark: {stat} {save.limit} → {save.raised_to}, marks cleared"))
        elif save.mark:
            had = d.marks(stat) if d is not None else 0
            out.append(Reason.of(R.MARKS, f"{stat} marked ({had} → {had + 1} of 3)"))
        else:
            out.append(Reason.of(R.STAT_MAX, f"{stat} {save.limit}: no mark"))
    elif pc and save.outcome == E.UNDER:
        out.append(Reason.of(R.MARKS, f"{face} ≤ DV {save.dv}: no mark (only rolling over marks)"))
    return out


def _is_dv_mod(state: FightState, label: str) -> bool:
    return any(m.label == label for c in state.combatants if isinstance(c.data, BJData) for m in c.data.dv_mods)


# ---------------------------------------------------------------------------
# one explainer per event type


def _save_rolled(before: FightState, ev: E.SaveRolled, after: FightState) -> list[Reason]:
    """The save as its roller made it: a PC's CTRL, an NPC's Threat+8 (it said CTRL for an NPC resisting a
    working, then Threat+8 in the save's own terms: ``test_an_npc_resisting_a_working_saves_threat_plus_8``)."""
    out = save_reasons(before, ev.save)
    stat = ev.save.stat
    if ev.purpose == "keep face":
        out.insert(0, Reason.of(R.ARGUIN, f"{_name(before, ev.actor)} lost the round: {stat} save to keep face"))
    elif ev.purpose.startswith("resist "):
        out.insert(0, Reason.of(R.WORKING_SAVE, f"{_name(before, ev.actor)} resists {ev.purpose[7:]}: {stat}"))
    return out


def _attack_made(before: FightState, ev: E.AttackMade, after: FightState) -> list[Reason]:
    a, t = _name(before, ev.actor), _name(before, ev.target)
    w = _weapon(before, ev.actor, ev.weapon_index, ev.weapon)
    ad = _d(before, ev.actor)
    attacker_rolls = ev.save.who == ev.actor
    out: list[Reason] = []
    hit = "hit" if ev.hit else ("miss (jammed)" if ev.jammed else "miss")
    if attacker_rolls:
        rule = R.PC_ATTACK if ad is not None and ad.is_pc else R.NPC_ATTACK
        verdict = f"the save {'succeeds' if ev.save.success else 'fails'} → {hit}"
        out.append(Reason.of(rule, f"{a} attacks {t} with the {ev.weapon} at {ev.range} range: {a} rolls", verdict))
        stat_why = "thrown" if ev.thrown else ("ranged" if ev.save.stat == "ACC" else "melee")
        if ad is not None and ad.is_pc:
            out.append(Reason.of(R.STATS, f"{ev.weapon}, {stat_why}: {ev.save.stat}"))
        threat_rule = rule
    else:
        verdict = f"the save {'succeeds' if ev.save.success else 'fails'} → {hit}"
        out.append(Reason.of(R.RISK, f"{t} takes the risk: saves {ev.save.stat} against {a}'s {ev.weapon}", verdict))
        threat_rule = R.AGAINST_NPC
    out += save_reasons(before, ev.save, threat_rule)
    if ev.jammed:
        out.append(Reason.of(R.JAM, f"d20 [{ev.save.roll.total}] ≥ {w.jam}: the {ev.weapon} jams → miss"))
    if ev.unfired:
        left = f"shot {ev.volley}" if ev.unfired == 1 else f"shots {ev.shot + 1}–{ev.volley}"
        out.append(
            Reason.of(
                R.VOLLEY,
                f"the jam on shot {ev.shot} of {ev.volley} ends the volley: {left} not fired",
                text="a jam ends the volley: the jamming shot is spent, the later ones are not fired",
            )
        )
    out += _alike(before, ev)
    if ev.weapon_index < 0:
        out.append(Reason.of(R.FISTS, f"{a} fights with fists: lesser"))
    if ev.thrown:
        out.append(Reason.of(R.THROW_MELEE, f"{ev.weapon} thrown at {ev.range} range (ACC); it lies on the floor"))
    if ev.shots_spent:
        out.append(Reason.of(R.SHOTS, f"1 shot spent: {ev.weapon} {w.loaded} → {w.loaded - ev.shots_spent}"))
        if w.multi == "shots" and ev.volley > 1 and ev.unfired:
            fired = counted(ev.fired, "shot")
            out.append(
                Reason.of(
                    R.VOLLEY, f"{ev.weapon}: {ev.volley} shots called in one action, {fired} fired, each its own save"
                )
            )
        elif w.multi == "shots" and ev.volley > 1:
            out.append(Reason.of(R.VOLLEY, f"{ev.weapon}: {ev.volley} shots in one action, each its own save"))
        elif w.multi == "shots" and not ev.volley:  # (an event written before the shots were counted)
            out.append(Reason.of(R.VOLLEY, f"{ev.weapon}: several shots in one action, each its own save"))
    elif w.is_firearm and w.multi == "blast":
        out.append(Reason.of(R.WEAPON_DV, f"the same {ev.weapon} blast takes {t} too: no other shot spent"))
    if ev.ammo_spent:
        out.append(Reason.of(R.AMMO, f"{ev.weapon} ammunition {w.ammo} → {w.ammo - ev.ammo_spent}"))
    if ev.uses_special:
        out.append(Reason.of(R.RECHARGE, f"{ev.weapon} used: spent until a {w.recharge}-in-6 recharge"))
    default = (LEVELS[w.level] if w.level < len(LEVELS) else "fatal") if w.level >= 0 else ""
    if ev.hit and ev.level:
        given = f"; a {ev.weapon}'s own: {default}" if default else ""
        out.append(Reason.of(R.DEFAULT_LEVEL, f"{ev.level}: the GM's pick{given}"))
    elif ev.hit and default:
        out.append(Reason.of(R.DEFAULT_LEVEL, f"{ev.weapon}: {default} by default (the GM may pick another)"))
    if ev.hit and w.condition:
        out.append(Reason.of(R.SPECIAL, f"{ev.weapon}: {t} is {w.condition}"))
    return out


def _unfit(w: Weapon, volley: int) -> str:
    """Why ``w`` could not make the attack, as the state shows it ("" when it could, as far as it shows)."""
    if w.dropped:
        return "lies on the floor"
    if w.is_firearm and w.jammed:
        return "is jammed"
    if w.is_firearm and w.loaded == 0:
        return f"is empty (0/{w.shots})"
    if w.ammo == 0:
        return "has no ammunition left"
    if w.recharge and w.spent:
        return "is spent (not recharged)"
    if w.is_firearm and w.multi == "shots" and w.loaded < volley:
        return f"holds {counted(w.loaded, 'shot')}, not the volley's {volley}"
    return ""


def _alike(before: FightState, ev: E.AttackMade) -> list[Reason]:
    """Two alike weapons (rule ``alike``): which one fired, when the other could not. The event keeps the weapon
    fired, not the name the GM gave (or left empty), so this says what the state before showed of the others
    alike: each that was empty, jammed, spent, on the floor or short of the volley's shots (it said nothing when
    "Revolver" was asked for and "Revolver 2" fired:
    ``tests/systems/blackjack/test_why_round3.py::test_why_says_the_other_alike_revolver_was_empty``)."""
    d = _d(before, ev.actor)
    if d is None or not 0 <= ev.weapon_index < len(d.weapons) or d.weapons[ev.weapon_index].name != ev.weapon:
        return []
    w = d.weapons[ev.weapon_index]
    alike = [i for i in alike_weapons(d.weapons, w) if i != ev.weapon_index]
    why = [(d.weapons[i].name, _unfit(d.weapons[i], ev.volley)) for i in alike]
    said = [f"{name} {what}" for name, what in why if what]
    if not said:
        return []
    verb = "fired" if w.is_firearm else "was used"
    of = "the two" if len(alike) == 1 else f"the {len(alike) + 1}"
    return [Reason.of(R.ALIKE, f"{' and '.join(said)}: of {of} alike, the {ev.weapon} {verb}")]


def _adjusted(before: FightState, ev: Adjusted, after: FightState) -> list[Reason]:
    """ "Has acted this turn" is the one-action record (rule ``one_action``): what this change does to the turn
    (it explained with the core's generic text only:
    ``tests/systems/blackjack/test_why_round3.py::test_why_of_has_acted_names_the_one_action_rule``)."""
    if ev.field != "acted":
        return []
    who = _name(before, ev.id)
    d = _d(before, ev.id)
    was = d.action if d is not None else ""
    if ev.value:
        return [
            Reason.of(
                R.ONE_ACTION,
                f"yes: {who}'s action this turn counts as taken",
                "no attack, reload, ingest or cast until its next turn",
            )
        ]
    if not was:
        return [Reason.of(R.ONE_ACTION, f"no: {who} had taken no action this turn; it may still take one")]
    return [
        Reason.of(
            R.ONE_ACTION,
            f"no: frees {who}'s action this turn (was: {was})",
            "it may attack, reload, ingest or cast once more this turn",
        )
    ]


def _injury_marked(before: FightState, ev: E.InjuryMarked, after: FightState) -> list[Reason]:
    d = _d(before, ev.target)
    who = _name(before, ev.target)
    out: list[Reason] = []
    cause = ev.name.lower()
    if "powderburn" in cause:
        if "second casting" in cause:
            out.append(Reason.of(R.ONCE_A_DAY, "cast already today: a lesser powderburn"))
        else:
            out.append(Reason.of(R.WORKING_ROLL, "a six on the working's dice: powderburn, lesser"))
    elif cause == "lose face":
        out.append(Reason.of(R.ARGUIN, f"{who} failed to keep face: a lesser lose-face injury"))
        out.append(Reason.of(R.METAPHYSICAL, "a social injury starts lesser"))
    elif cause == "damage":
        out.append(Reason.of(R.QUICK_DAMAGE, "quick damage: an injury of the level named"))
    elif rest.is_affliction(cause) and ev.steps and ev.steps[0] == "moderate" and "untreated, worsens" not in ev.steps:
        out.append(Reason.of(R.AFFLICTIONS, f"{ev.name}: an affliction, starts moderate"))
    steps = list(ev.steps)
    prev = steps[0] if steps else "lesser"
    i = 1
    while i + 1 < len(steps):
        how, nxt = steps[i], steps[i + 1]
        if how == "slots full":
            idx = LEVELS.index(prev) if prev in LEVELS else -1
            full = f"{len(d.injuries[idx])}/{d.slots[idx]}" if d is not None and 0 <= idx < len(d.slots) else "full"
            out.append(Reason.of(R.ESCALATION, f"{prev} → {nxt} (escalated: {prev} slots full, {full})"))
        elif how in ("advantage", "disadvantage"):
            out.append(Reason.of(R.IMPACT, f"{prev} → {nxt} ({how})"))
        elif how.startswith("resists "):
            out.append(Reason.of(R.RESISTANT, f"{prev} → {nxt} ({who} resists {how[8:]})"))
        elif how.startswith("weak to "):
            out.append(Reason.of(R.WEAK, f"{prev} → {nxt} ({who} is weak to {how[8:]})"))
        elif how.startswith("immune to "):
            out.append(Reason.of(R.IMMUNE, f"{prev} → none ({who} is immune to {how[10:]})"))
        elif how == "untreated, worsens":
            out.append(Reason.of(R.AFFLICTIONS, f"{prev} → {nxt} (untreated: the GM said it worsens)"))
        prev = nxt
        i += 2
    if ev.index >= 0 and d is not None:
        if ev.fatal:
            out.append(Reason.of(R.FATAL, f"{ev.name}: fatal, {who} dies"))
        else:
            had = len(d.injuries[ev.index]) if ev.index < len(d.injuries) else 0
            out.append(
                Reason.of(
                    R.INJURY_SLOTS,
                    f"{LEVELS[ev.index]} {ev.name}: slot {had + 1} of {d.slots[ev.index]}",
                    f"{who}'s track {'/'.join(map(str, d.slots))}",
                    f"DV +1 per injury: {d.injury_count} → {d.injury_count + 1}",
                )
            )
            if ev.index == 3:
                out.append(Reason.of(R.MONSTER_SLOTS, f"{who}'s fourth box group: grievous"))
            if ev.index >= 2 and (d.worst < 2):
                out.append(Reason.of(R.SEVERE, f"{who} needs help or will die"))
    elif ev.index < 0 and not out:
        out.append(Reason.of(R.INJURY_SLOTS, f"{ev.name}: no injury marked"))
    return out


def _injury_cleared(before: FightState, ev: E.InjuryCleared, after: FightState) -> list[Reason]:
    who = _name(before, ev.target)
    what = f"{who}'s {ev.level} {ev.name} cleared"
    if ev.reason == "the paper is destroyed":
        return [Reason.of(R.PAPER, what, "the paper is destroyed")]
    if ev.reason == "it worsens":
        return [Reason.of(R.AFFLICTIONS, f"{who}'s {ev.level} {ev.name} moves up: it worsens (the GM's answer)")]
    if " by " in ev.reason:
        return [Reason.of(R.HEALING_HANDS, what, f"{ev.reason}: the worst injury")]
    how = "treatment" if ev.reason == "treatment" else f"healing ({ev.reason})"
    return [Reason.of(R.TREATMENT, what, f"{how}: one injury of the level named (or the worst)")]


def _recharge(before: FightState, ev: E.RechargeRolled, after: FightState) -> list[Reason]:
    res = "ready" if ev.ok else "not ready: no attack this time"
    return [Reason.of(R.RECHARGE, f"1d6 [{ev.roll.total}]", f"ready on {ev.need}+", res)]


def _reloaded(before: FightState, ev: E.Reloaded, after: FightState) -> list[Reason]:
    w = _weapon(before, ev.actor, ev.weapon_index, ev.weapon)
    d = _d(before, ev.actor)
    if not ev.lead:
        return [Reason.of(R.JAM, f"the {ev.weapon} still holds {w.loaded}: a reload action clears the jam, no lead")]
    lead = d.lead if d is not None else 0
    out = [Reason.of(R.RELOAD, f"1 lead spent ({lead} → {lead - 1})", f"{ev.weapon} {w.loaded} → {w.shots}")]
    if ev.jam_cleared:
        out.append(Reason.of(R.JAM, f"the {ev.weapon}'s jam is cleared"))
    return out


def _ingested(before: FightState, ev: E.LeadIngested, after: FightState) -> list[Reason]:
    d = _d(before, ev.actor)
    lead, had = (d.lead, d.ingested) if d is not None else (ev.amount, 0)
    return [
        Reason.of(
            R.INGEST,
            f"{ev.amount} lead ingested",
            f"lead {lead} → {lead - ev.amount}",
            f"ingested {had} → {had + ev.amount}",
        )
    ]


def _cast(before: FightState, ev: E.WorkingCast, after: FightState) -> list[Reason]:
    wk = _working(before, ev.actor, ev.working)
    level = f"{ev.working} level {wk.level}" if wk is not None else ev.working
    out = [
        Reason.of(R.WORKING_LEVEL, f"{level}: {ev.lead} lead ingested"),
        Reason.of(R.WORKING_ROLL, f"{ev.lead} lead ingested: {_faces(ev.roll)}", f"sixes: {ev.sixes}"),
    ]
    if ev.sixes:
        out.append(
            Reason.of(
                R.CATASTROPHE, f"{counted(ev.sixes, 'six', 'sixes')}: powderburn or a catastrophe each (the GM asks)"
            )
        )
    if ev.again:
        out.append(Reason.of(R.ONCE_A_DAY, f"{ev.working} cast already today"))
        out.append(Reason.of(R.BURN_FIRST, "its powderburn was marked before these dice"))
    return out


def _took(before: FightState, ev: E.WorkingTookEffect, after: FightState) -> list[Reason]:
    wk = _working(before, ev.actor, ev.working)
    out: list[Reason] = []
    if ev.target is None or ev.target == ev.actor:
        out.append(Reason.of(R.NO_TARGET, f"{ev.working}: no target, it happens"))
    else:
        # the save its target makes: a PC's CTRL, an NPC's Threat+8
        td = _d(before, ev.target)
        stat = "Threat+8" if td is not None and not td.is_pc else "CTRL"
        t = _name(before, ev.target)
        if ev.willing == E.WILLING_SIDE:
            out.append(
                Reason.of(
                    R.NO_TARGET,
                    f"{t} is willing: {ev.working} heals one of {_name(before, ev.actor)}'s own side",
                    "ruling: a healing working on the caster's own side is taken as willing, no save",
                )
            )
        elif ev.willing == E.WILLING_GM:
            out.append(Reason.of(R.NO_TARGET, f"{t} is willing (the GM's word): no save"))
        elif ev.took and ev.willing == E.SAVED:
            out.append(Reason.of(R.WORKING_SAVE, f"{t} failed its {stat} save"))
        elif ev.took:  # written before the event said which (an older file)
            out.append(Reason.of(R.WORKING_SAVE, f"{t} failed its {stat} save, or was willing"))
        else:
            out.append(Reason.of(R.WORKING_SAVE, f"{t}'s {stat} save succeeded: no effect"))
    if ev.took and wk is not None:
        if wk.effect == "condition" and wk.condition.lower() == "hexed":
            out.append(Reason.of(R.HEX, f"{_name(before, ev.target)} is Hexed: {_n(wk.value or 2)} DV"))
        elif wk.effect == "injury":
            out.append(Reason.of(R.NAMING, f"{LEVELS[wk.injury_level]} injury ({wk.injury or wk.name.lower()})"))
        elif wk.effect == "heal":
            out.append(Reason.of(R.HEALING_HANDS, "the worst injury clears"))
    return out


def _sixes(before: FightState, ev: E.SixesResolved, after: FightState) -> list[Reason]:
    burns = sum(1 for c in ev.choices if c == "powderburn")
    out = []
    if burns:
        out.append(
            Reason.of(R.WORKING_ROLL, f"{counted(burns, 'six', 'sixes')} taken as powderburn: a lesser injury each")
        )
    if burns < len(ev.choices):
        note = [f"the GM: {ev.note}"] if ev.note else []
        out.append(
            Reason.of(
                R.CATASTROPHE, f"{counted(len(ev.choices) - burns, 'six', 'sixes')} taken as a catastrophe", *note
            )
        )
    return out


def _morale_checked(before: FightState, ev: E.MoraleChecked, after: FightState) -> list[Reason]:
    terms = [_faces(ev.roll)]
    for cid in ev.checked:
        d = _d(before, cid)
        ml = d.morale if d is not None else 0
        res = f"breaks ({ev.outcome})" if cid in ev.broken else "holds"
        terms.append(f"{_name(before, cid)} ML {ml}: {ev.roll.total} {'>' if ev.roll.total > ml else '≤'} {ml}, {res}")
    out = [Reason.of(R.MORALE, *terms), Reason.of(R.CASUALTY, f"the side: {ev.side}")]
    extremes = [
        c.name
        for c in before.combatants
        if isinstance(c.data, BJData)
        and not c.data.is_pc
        and c.data.morale in (2, 12)
        and (c.group or "NPCs") == ev.side
    ]
    if extremes:
        out.append(Reason.of(R.MORALE_EXTREMES, f"not checking: {', '.join(extremes)}"))
    return out


def _morale_ruled(before: FightState, ev: E.MoraleRuled, after: FightState) -> list[Reason]:
    who = ", ".join(_name(before, i) for i in ev.broken)
    return [
        Reason.of(R.MORALE, f"the GM ruled {ev.side} breaks ({ev.outcome})", f"goes: {who}", text="the GM's ruling")
    ]


def _arguin_round(before: FightState, ev: E.ArguinRound, after: FightState) -> list[Reason]:
    pc, npc = _name(before, ev.pc), _name(before, ev.npc)
    if ev.pc_move == ev.npc_move:
        res = f"both {ev.pc_move}: a tie, both must keep face"
    else:
        win, lose = (ev.pc_move, ev.npc_move) if ev.npc in ev.losers else (ev.npc_move, ev.pc_move)
        res = f"{win} beats {lose}: {' and '.join(_name(before, i) for i in ev.losers)} must keep face"
    return [Reason.of(R.ARGUIN, f"{pc}: {ev.pc_move}", f"{npc}: {ev.npc_move}", res)]


def _arguin_lost(before: FightState, ev: E.ArguinLost, after: FightState) -> list[Reason]:
    terms = [f"{_name(before, ev.loser)}'s lose-face injury landed at moderate or worse: publicly shamed"]
    if ev.note:
        terms.append(ev.note)
    return [Reason.of(R.ARGUIN_LOST, *terms, f"{_name(before, ev.winner)} wins")]


def _night(before: FightState, ev: E.Rested, after: FightState) -> list[Reason]:
    terms = []
    for cid in ev.ids:
        b, a = _d(before, cid), _d(after, cid)
        if b is None or a is None:
            continue
        gone = [
            f"{LEVELS[i]} {n}" for i in range(min(2, len(b.injuries))) for n in b.injuries[i] if n not in a.injuries[i]
        ]
        terms.append(f"{_name(before, cid)}: {', '.join(gone) or 'nothing'} cleared")
    out = [Reason.of(R.REST, *terms), Reason.of(R.ONCE_A_DAY, "workings are safe again")]
    if any(d is not None and d.bound for d in (_d(after, cid) for cid in ev.ids)):
        out.append(Reason.of(R.PAPER, "injuries bound to a paper stay"))
    return out


def _passed(before: FightState, ev: E.SavePassed, after: FightState) -> list[Reason]:
    parts = [f"{p.label} {_n(p.value)}" for p in ev.parts]
    out = [Reason.of(R.SOCIAL_PASS, *parts, f"DV {ev.dv} < 0: passes with no roll")]
    if any(p.label == "own injuries" for p in ev.parts):
        out.append(Reason.of(R.INJURY_DV, "own injuries count in the DV"))
    out.append(
        Reason.of(R.ARGUIN if ev.purpose == "keep face" else R.SOCIAL, f"{ev.stat} save to {ev.purpose or 'convince'}")
    )
    return out


def _stopped(before: FightState, ev: E.WorkingStopped, after: FightState) -> list[Reason]:
    return [Reason.of(R.BURN_FIRST, f"{ev.working} is not cast: {ev.reason}")]


def _bound(before: FightState, ev: E.PaperBound, after: FightState) -> list[Reason]:
    rule = R.HEX if ev.bond.level < 0 else R.NAMING
    return [Reason.of(R.PAPER, ev.bond.describe()), Reason.of(rule, f"laid by {_name(before, ev.bond.caster)}")]


def _destroyed(before: FightState, ev: E.PaperDestroyed, after: FightState) -> list[Reason]:
    d = _d(before, ev.target)
    held = [b.describe() for b in d.bound if b.working == ev.working and b.caster == ev.caster] if d else []
    note = [f"the GM: {ev.note}"] if ev.note else []
    return [Reason.of(R.PAPER, f"the paper of {ev.working} is destroyed", *[f"frees {h}" for h in held], *note)]


def _time_passed(before: FightState, ev: rest.Rested, after: FightState) -> list[Reason]:
    who = _name(before, ev.id)
    out = [Reason.of(R.TIME, f"{who}: {ev.why}")]
    if " clears " in ev.why:
        out.append(Reason.of(R.REST, f"{who}: {ev.why.split(' clears ', 1)[1].split(';')[0]}"))
    if "untreated" in ev.why:
        out.append(Reason.of(R.AFFLICTIONS, "untreated afflictions stay; the GM is asked whether each worsens"))
    if ev.why.startswith("dead"):
        out.append(Reason.of(R.FATAL, f"{who} is dead"))
    return out


# -- the core's events that blackjack's rules shape -----------------------------------------------


def _order(before: FightState, ev: OrderSet, after: FightState) -> list[Reason]:
    if "no initiative" not in ev.note:
        return []
    return [Reason.of(R.ORDER, "PCs first, then NPCs, as added")]


def _condition(before: FightState, ev: ConditionAdded, after: FightState) -> list[Reason]:
    cond = ev.condition
    if cond.name.strip().lower() == "hexed":
        return [
            Reason.of(R.HEX, f"{_name(before, ev.id)} is Hexed: {_n(cond.value or 2)} DV", cond.note or "by the GM")
        ]
    special = WEAPONS.get(cond.note.lower()) if cond.note else None
    if special is not None and special.condition == cond.name:
        return [Reason.of(R.SPECIAL, f"{cond.note}: {_name(before, ev.id)} is {cond.name}")]
    return []


def _condition_removed(before: FightState, ev: ConditionRemoved, after: FightState) -> list[Reason]:
    if ev.reason == "the paper is destroyed":
        return [Reason.of(R.PAPER, f"{_name(before, ev.id)} is no longer {ev.name}: the paper is destroyed")]
    return []


def _prompt(before: FightState, ev: PromptRaised, after: FightState) -> list[Reason]:
    p = ev.prompt
    if p.kind == "morale":
        return [
            Reason.of(R.MORALE_TRIGGERS, p.text),
            Reason.of(R.CASUALTY, "casualties counted from the fight's start"),
        ]
    if p.kind == "powderburn":
        return [Reason.of(R.CATASTROPHE, p.text)]
    if p.kind == "worsen":
        return [Reason.of(R.AFFLICTIONS, p.text)]
    return []


def _note(before: FightState, ev: NoteAdded, after: FightState) -> list[Reason]:
    if "holds the shot" in ev.text:
        return [Reason.of(R.VOLLEY, ev.text, text="a volley's later shot at a target already down is held, not spent")]
    return []


EXPLAIN: dict[type, Explainer] = {
    E.SaveRolled: _save_rolled,
    E.AttackMade: _attack_made,
    E.InjuryMarked: _injury_marked,
    E.InjuryCleared: _injury_cleared,
    E.RechargeRolled: _recharge,
    E.Reloaded: _reloaded,
    E.LeadIngested: _ingested,
    E.WorkingCast: _cast,
    E.WorkingTookEffect: _took,
    E.SixesResolved: _sixes,
    E.MoraleChecked: _morale_checked,
    E.MoraleRuled: _morale_ruled,
    E.ArguinRound: _arguin_round,
    E.ArguinLost: _arguin_lost,
    E.Rested: _night,
    E.SavePassed: _passed,
    E.WorkingStopped: _stopped,
    E.PaperBound: _bound,
    E.PaperDestroyed: _destroyed,
    rest.Rested: _time_passed,
    OrderSet: _order,
    Adjusted: _adjusted,
    ConditionAdded: _condition,
    ConditionRemoved: _condition_removed,
    PromptRaised: _prompt,
    NoteAdded: _note,
}


def explain(before: FightState, event: Event, after: FightState) -> tuple[Reason, ...]:
    """The reasons behind one event (none for an event blackjack's rules did not shape)."""
    fn = EXPLAIN.get(type(event))
    return _merged(fn(before, event, after)) if fn is not None else ()


def _merged(reasons: list[Reason]) -> tuple[Reason, ...]:
    """One reason per rule (and statement): the terms of a rule applied twice go together, in order."""
    out: dict[tuple[str, str], Reason] = {}
    for r in reasons:
        key = (r.rule_id, r.text)
        had = out.get(key)
        out[key] = r if had is None else attrs.evolve(had, terms=(*had.terms, *r.terms))
    return tuple(out.values())
