"""decide: 2d6 Gamma commands checked against the rules, rolled, turned into events.

Rulings of our own (beyond RULINGS.md), each with a test:
- Armor's penalty falls on every melee check, a melee parry included (so light armor nets 0 on a
  parry): the only reading under which the book's worked example (11 against 10, the attacker
  wins) adds up.
- Actions belong to the combatant whose turn it is (or who spent a cinematic on an extra turn,
  which lasts until the next turn starts); nothing is done while a prompt is open.
- Aim lasts until the combatant's next attack or a check that uses it; a melee attack wastes it.
- Stealth's advantage lasts until the sneaker's next attack.
- A disabled limb's penalty counts on the combatant's attack and defense checks unless the GM
  unticks "Disabled limbs count" for that roll; several limbs add up.
- On a doubled attack the attacker picks, after the roll, a second result (a second wound), or
  instead of the declared result a disabled limb with one wound.
- Wounds beyond 0 in one blow kill ("any wound at 0"); a resolve check against unconsciousness
  is not rolled for someone already unconscious; one open death check covers a tripled attack
  and falling to 0 in the same blow; two unconsciousness checks at once keep the higher DC.
- The unconscious −3 applies to a resolve check only if the combatant was unconscious before
  the blow that called for it.
- Casting can always be opposed by Cast (a counterspell needs no Repel Attack); a Cast defense
  against weapons needs Repel Attack.  Blast is a casting and an attack: half-round with Fast
  Caster or Multiattack.  A Mass Spell rolls one Cast against each target's defense.
- Entangle holds one foe, as a grapple does: a Mass Spell cannot entangle several at once.
- Breaking a grapple is an attack action (Melee (Unarmed) vs the grappler's, tie to the grappler);
  the grappler lets go as a quick action.  A combatant who falls unconscious or dies is out of
  any grapple.
- A cinematic reroll takes the combatant's last failed attack, resolve, skill or opposed check
  (Stealth, breaking a grapple, Negate), before the next turn starts; a Stealth roll that lost to
  several watchers is rerolled once and compared with each Notice it lost to; a lost defense
  cannot be rerolled (the attacker's result has landed).
- Graceful: the first 20-ft move of a turn costs no action.
"""

from __future__ import annotations

from typing import Any

import attrs

from systems.twod6 import commands as K
from systems.twod6.checks import CheckRoll, beats, ratio, roll_check
from systems.twod6.events import (
    NO_COST,
    ActionTaken,
    Aimed,
    AttackRolled,
    CinematicSpent,
    EffectApplied,
    OpposedRolled,
    ResolveRolled,
    SkillChecked,
    Wounded,
)
from systems.twod6.sheet import (
    ARCHERY,
    ATHLETICS,
    BLAST,
    CAST,
    ENTANGLE,
    FAST_CASTER,
    FAVORED_ENEMY,
    GRACEFUL,
    HEAVY,
    IMPROVISATION,
    LIGHT,
    MASS_SPELL,
    MELEE,
    MULTIATTACK,
    NEGATE,
    NOTICE,
    PERFORM,
    REPEL_ATTACK,
    RESOLVE,
    SHOOTING,
    SNEAK_ATTACK,
    SNIPER,
    SPELL_TURNING,
    STATS,
    STEALTH,
    THROWING,
    UNARMED,
    VICIOUS_PARRY,
    Data,
)
from tracker.commands import Modifier
from tracker.dice import Roller
from tracker.errors import Refused
from tracker.events import Event, PromptRaised, PromptResolved
from tracker.model import Combatant, FightState, Prompt

RANGED = (SHOOTING, ARCHERY, THROWING, K.BLAST_SKILL, K.ENTANGLE_SKILL)
UNDEFENDABLE = (SHOOTING, ARCHERY)
CASTING = (K.BLAST_SKILL, K.ENTANGLE_SKILL)
WEAPON_SKILLS = (HEAVY, LIGHT, SHOOTING, ARCHERY, THROWING)
ARMOR_HINDERS = (*MELEE, THROWING, CAST, ATHLETICS, *CASTING, K.REPEL_SKILL)
AIM_FITS = (SHOOTING, ARCHERY, THROWING, CAST, ATHLETICS, PERFORM, "Ride", *CASTING)
STAT_DEFAULTS: dict[str, tuple[str, ...]] = {
    HEAVY: ("str",),
    LIGHT: ("agi",),
    UNARMED: ("str", "agi"),
    SHOOTING: ("dex",),
    ARCHERY: ("dex",),
    THROWING: ("dex",),
    CAST: ("int", "wil"),
    ATHLETICS: ("str", "agi", "dex"),
    RESOLVE: ("wil",),
    NOTICE: ("per",),
    STEALTH: ("agi",),
    PERFORM: ("agi", "dex", "cha"),
    "Ride": ("dex", "agi"),
}


def base_skill(skill: str) -> str:
    """The sheet skill a roll uses: Cast for every spell."""
    return CAST if skill.startswith(CAST) else skill


class Ctx:
    """The state as decide's events will leave it, so later events see earlier ones."""

    def __init__(self, system: Any, state: FightState) -> None:
        self.system = system
        self.state = state
        self.events: list[Event] = []
        self.before = {c.id: bool(c.data and c.data.unconscious) for c in state.combatants}

    def add(self, *events: Event) -> None:
        from tracker.engine import evolve

        for ev in events:
            self.state = evolve(self.system, self.state, ev)
            self.events.append(ev)

    def get(self, cid: str) -> Combatant:
        return self.state.get(cid)


# ---------------------------------------------------------------------------
# who may do what


def who(state: FightState, cid: str | None, what: str = "combatant") -> Combatant:
    if not cid:
        raise Refused(f"choose a {what}")
    c = state.find(cid) or state.by_name(cid)
    if c is None or c.removed:
        raise Refused(f"there is no {what} '{cid}' in this fight")
    return c


def acting(state: FightState, c: Combatant) -> None:
    """Refuse unless ``c`` may take actions now."""
    if not state.started:
        raise Refused("start the fight first: actions are counted per turn")
    if state.ended:
        raise Refused("the fight is over")
    if state.prompts:
        raise Refused(f"resolve first: {state.prompts[0].text}")
    if c.data.dead:
        raise Refused(f"{c.name} is dead")
    if c.data.unconscious:
        raise Refused(f"{c.name} is unconscious and cannot act")
    if state.current != c.id and not c.data.extra_turn:
        raise Refused(
            f"it is {state.name(state.current)}'s turn: {c.name} acts on its own turn "
            "(or spends a cinematic for an extra turn)"
        )


def afford(c: Combatant, cost: str) -> None:
    d: Data = c.data
    if cost == "quick" and d.quick < 1:
        raise Refused(f"{c.name} has no quick action left this turn (two quick actions a turn)")
    if cost == "half" and d.half < 1:
        raise Refused(
            f"{c.name} has no half-round action left this turn (two half-round or one full-round action a turn)"
        )
    if cost == "full" and d.half < 2:
        raise Refused(
            f"{c.name} cannot take a full-round action: it takes the turn's two half-round actions "
            f"and {c.name} has {d.half} left (one full-round action a turn)"
        )


def in_grapple(c: Combatant, doing: str) -> None:
    d: Data = c.data
    if d.grappled_by or d.grappling:
        raise Refused(
            f"{c.name} is in a grapple: it can only speak, attack with Melee (Unarmed) "
            f"or try to break the grapple, not {doing}"
        )


def attack_cost(c: Combatant, skill: str) -> str:
    d: Data = c.data
    if d.has(MULTIATTACK) or (skill in CASTING and d.has(FAST_CASTER)):
        return "half"
    return "full"


def cast_cost(c: Combatant) -> str:
    return "half" if c.data.has(FAST_CASTER) else "full"


def spend_cinematic(ctx: Ctx, c: Combatant, use: str) -> None:
    if c.data.cinematics < 1:
        raise Refused(f"{c.name} has no cinematic to spend (a cinematic is gained at the first dot of experience)")
    ctx.add(CinematicSpent(actor=c.id, use=use))


# ---------------------------------------------------------------------------
# the parts of a check


def stat_part(c: Combatant, skill: str, stat: str) -> Modifier:
    d: Data = c.data
    if stat != "auto":
        if stat not in STATS:
            raise Refused(f"'{stat}' is not a stat ({', '.join(STATS)})")
        return Modifier(label=stat.upper(), value=d.stat(stat))
    options = STAT_DEFAULTS.get(base_skill(skill))
    if options is None:
        raise Refused(f"choose the stat for {skill}: stats are situational, the GM picks the fitting one")
    best = max(options, key=d.stat)
    return Modifier(label=best.upper(), value=d.stat(best))


def skill_parts(c: Combatant, skill: str, stat: str) -> list[Modifier]:
    """Ranks + stat + item(s), and the armor penalty where armor hinders."""
    d: Data = c.data
    base = base_skill(skill)
    parts = [Modifier(label=f"{base} ranks", value=d.ranks(base)), stat_part(c, skill, stat)]
    parts += [Modifier(label=i.name, value=i.bonus) for i in d.item_bonus(base)]
    if skill in ARMOR_HINDERS and d.armor_penalty:
        parts.append(Modifier(label=f"{d.armor} armor", value=d.armor_penalty))
    if skill in MELEE and d.prone:
        parts.append(Modifier(label="prone", value=-2))
    return parts


def aim_part(c: Combatant, skill: str, use: str) -> int:
    d: Data = c.data
    if use == "no":
        return 0
    fits = skill in AIM_FITS
    if use == "yes":
        if not fits:
            raise Refused(
                f"aiming helps the next shooting, archery, throwing, casting, athletics, perform or ride check, "
                f"not {skill}"
            )
        if not d.aim:
            raise Refused(f"{c.name} has not aimed (aiming is a full-round action)")
    return d.aim if fits else 0


def aim_bonus(c: Combatant) -> int:
    d: Data = c.data
    bonus = max(1, d.stat("per"))
    return bonus * 2 if d.has(SNIPER) else bonus


# ---------------------------------------------------------------------------
# wounds, results and prompts


def resolve_prompt(ctx: Ctx, cid: str, dc: int, stakes: str, why: str) -> None:
    c = ctx.get(cid)
    d: Data = c.data
    if d.dead:
        return
    if stakes == "unconscious" and d.unconscious:
        return
    pid = f"{'death' if stakes == 'death' else 'resolve'}:{cid}"
    open_ = next((p for p in ctx.state.prompts if p.id == pid), None)
    if open_ is not None:
        if open_.params.get("dc", 0) >= dc:
            return
        ctx.add(PromptResolved(prompt_id=pid, note=f"replaced by a DC {dc} check"))
    penalty = -3 if ctx.before.get(cid) else 0
    outcome = "fall unconscious" if stakes == "unconscious" else "die"
    ctx.add(
        PromptRaised(
            prompt=Prompt(
                id=pid,
                kind="resolve",
                text=f"{c.name} must make a DC {dc} resolve check or {outcome} ({why})",
                combatant=cid,
                command="resolve",
                params={"actor": cid, "stakes": stakes, "stat": "wil", "dc": dc, "penalty": penalty},
            )
        )
    )


def wound(ctx: Ctx, target: str, n: int, by: str | None) -> None:
    d: Data = ctx.get(target).data
    if d.dead:
        return
    old, new = d.wounds, d.wounds - n
    ctx.add(Wounded(target=target, wounds=n, by=by))
    if old == 0 or new < 0:
        for p in ctx.state.prompts:
            if p.combatant == target:
                ctx.add(PromptResolved(prompt_id=p.id, note=f"{ctx.get(target).name} is dead"))
        return
    if new == 0:
        resolve_prompt(ctx, target, 7, "death", "reduced to 0 wounds")
    elif new == 1 and d.max_wounds > 1:
        resolve_prompt(ctx, target, 9, "unconscious", "1 wound left")
    elif new == 2 and d.max_wounds > 2:
        resolve_prompt(ctx, target, 7, "unconscious", "2 wounds left")


def land(ctx: Ctx, by: str, target: str, result: str, attack_total: int) -> None:
    """One result of a won attack lands on ``target``."""
    if ctx.get(target).data.dead:
        return
    if result == "wound":
        wound(ctx, target, 1, by)
    elif result == "unconscious":
        resolve_prompt(ctx, target, attack_total, "unconscious", "knock-out blow")
    else:
        ctx.add(EffectApplied(target=target, effect=result, by=by))


def check_result(skill: str, result: str, c: Combatant) -> None:
    if skill == K.ENTANGLE_SKILL and result != "grapple":
        raise Refused("Entangle is a grapple at range: its result is grapple")
    if result == "grapple" and skill not in (UNARMED, K.ENTANGLE_SKILL):
        raise Refused("grappling is done only with Melee (Unarmed) (or the Entangle spell)")
    if skill in RANGED and skill != K.ENTANGLE_SKILL and result in K.MELEE_RESULTS:
        raise Refused(f"{result} is a melee result: a {skill} attack can wound, disarm or distract")
    if result not in K.RESULTS:
        raise Refused(f"'{result}' is not an attack result ({', '.join(K.RESULTS)})")


# ---------------------------------------------------------------------------
# attack


def defense_options(t: Combatant, skill: str) -> list[str]:
    d: Data = t.data
    repel = not d.negated and (d.has(REPEL_ATTACK) or (skill in CASTING and d.ranks(CAST) > 0))
    if skill in UNDEFENDABLE:
        return [K.REPEL_SKILL] if repel else [K.ARMOR_ONLY]
    opts = [s for s in MELEE if d.ranks(s) > 0] + [ATHLETICS]
    if d.ranks(PERFORM) > 0 and skill not in CASTING:
        opts.append(PERFORM)
    if skill in CASTING:
        opts.append(RESOLVE)
    if repel:
        opts.append(K.REPEL_SKILL)
    return opts


def defense_parts(
    state: FightState, a: Combatant, t: Combatant, skill: str, choice: str, stat: str, limbs: bool
) -> tuple[str, list[Modifier]]:
    d: Data = t.data
    armor = Modifier(label=f"{d.armor} armor", value=d.armor_defense)
    if d.unconscious:
        return "unconscious (no bonus)", [Modifier(label="unconscious", value=-3)]
    unaware_surprise = state.round == 0 and bool(state.surprise) and t.id not in state.surprise
    if t.id in a.data.hidden_from or unaware_surprise:
        why = "caught by stealth" if t.id in a.data.hidden_from else "surprised"
        return f"armor only ({why})", [armor]
    if choice == "auto":
        options = defense_options(t, skill)
        scored = []
        for opt in options:
            _label, parts = defense_parts(state, a, t, skill, opt, stat, limbs)
            scored.append((sum(p.value for p in parts), -options.index(opt), opt))
        choice = max(scored)[2]
    if skill in UNDEFENDABLE and choice not in (K.ARMOR_ONLY, K.REPEL_SKILL):
        raise Refused(
            f"{skill} cannot be defended except by magic: the defender rolls 2d6 + armor alone "
            "(or Cast with Repel Attack)"
        )
    if choice == K.ARMOR_ONLY:
        return K.ARMOR_ONLY, [armor]
    if choice == K.REPEL_SKILL:
        if d.negated:
            raise Refused(f"{t.name}'s powers are negated until the end of its next turn")
        if not d.has(REPEL_ATTACK) and skill not in CASTING:
            raise Refused(f"Repel Attack is a spell talent {t.name} does not have (any caster may counter a spell)")
    if choice == RESOLVE and skill not in CASTING:
        raise Refused("resolve can oppose a spell, not a weapon")
    parts = skill_parts(t, choice, stat)
    parts.append(armor)
    if limbs and d.limbs:
        parts.append(Modifier(label="disabled limb", value=d.limb_penalty))
    return choice, parts


def attack_parts(state: FightState, a: Combatant, t: Combatant, cmd: K.Attack) -> tuple[list[Modifier], int]:
    d: Data = a.data
    skill = cmd.skill
    parts = skill_parts(a, skill, cmd.stat)
    if skill in MELEE and d.prone and cmd.result == "trip":
        parts = [p for p in parts if p.label != "prone"] + [Modifier(label="prone, tripping", value=2)]
    if cmd.limb_penalty and d.limbs:
        parts.append(Modifier(label="disabled limb", value=d.limb_penalty))
    if cmd.improvised and not d.has(IMPROVISATION):
        parts.append(Modifier(label="improvised", value=-2))
    if cmd.cover:
        parts.append(Modifier(label="moving/cover", value=-cmd.cover))
    foes = {x.lower() for x in d.talent_args(FAVORED_ENEMY)}
    if foes & {(t.data.race or "").lower(), (t.group or "").lower()} - {""}:
        parts.append(Modifier(label="favored enemy", value=1))
    if t.id in d.hidden_from:
        sneak = sum(1 for arg in d.talent_args(SNEAK_ATTACK) if not arg or arg == base_skill(skill))
        if sneak:
            parts.append(Modifier(label="sneak attack", value=sneak))
    aim = aim_part(a, skill, cmd.use_aim)
    if aim:
        parts.append(Modifier(label="aim", value=aim))
    parts += list(cmd.modifiers)
    return parts, aim


def decide_attack(system: Any, state: FightState, cmd: K.Attack, dice: Roller) -> list[Event]:
    a = who(state, cmd.actor, "attacker")
    acting(state, a)
    d: Data = a.data
    skill = cmd.skill
    if skill not in K.ATTACK_SKILLS:
        raise Refused(f"'{skill}' is not an attack skill ({', '.join(K.ATTACK_SKILLS)})")
    if (d.grappled_by or d.grappling) and skill != UNARMED:
        in_grapple(a, f"an attack with {skill}")
    if d.disarmed and skill in WEAPON_SKILLS:
        raise Refused(f"{a.name} is disarmed: draw a weapon (quick) or pick it up (half-round) first")
    if skill in CASTING:
        spell = BLAST if skill == K.BLAST_SKILL else ENTANGLE
        if not d.has(spell):
            raise Refused(f"{spell} is a spell talent {a.name} does not have")
        if d.negated:
            raise Refused(f"{a.name}'s powers are negated until the end of its next turn")
    check_result(skill, cmd.result, a)
    if cmd.cover and skill not in UNDEFENDABLE:
        raise Refused("the moving/cover penalty is for shooting and archery; use a modifier for anything else")
    targets = [who(state, t, "target") for t in cmd.targets]
    if not targets:
        raise Refused("choose a target")
    if len({t.id for t in targets}) != len(targets):
        raise Refused("each target is named once")
    if len(targets) > 1 and not (skill in CASTING and d.has(MASS_SPELL)):
        raise Refused("only a Mass Spell takes several targets")
    if len(targets) > 1 and skill == K.ENTANGLE_SKILL:
        raise Refused("Entangle is a grapple, and a grapple holds one foe: a Mass Spell cannot entangle several")
    for t in targets:
        if t.id == a.id:
            raise Refused(f"{a.name} cannot attack itself")
        if t.data.dead:
            raise Refused(f"{t.name} is already dead")
    cost = attack_cost(a, skill)
    afford(a, cost)
    ctx = Ctx(system, state)
    if cmd.auto_critical:
        spend_cinematic(ctx, a, "automatic critical")
    planned = [(t, *attack_parts(state, a, t, cmd)) for t in targets]  # refuse before any die is rolled
    for t in targets:
        defense_parts(state, a, t, skill, cmd.defense, cmd.defense_stat, cmd.limb_penalty)
    dice_only = roll_check(dice, f"{a.name} {skill}", (), automatic=cmd.auto_critical)
    for n, (t, parts, aim) in enumerate(planned):
        kept = tuple(p for p in parts if p.value)
        attack = attrs.evolve(dice_only, parts=kept, total=dice_only.total + sum(p.value for p in kept))
        label, dparts = defense_parts(state, a, t, skill, cmd.defense, cmd.defense_stat, cmd.limb_penalty)
        dparts += list(cmd.defense_modifiers)
        if cmd.defense_critical:
            spend_cinematic(ctx, ctx.get(t.id), "automatic critical on defense")
        defense = roll_check(dice, f"{t.name} defense", tuple(dparts), automatic=cmd.defense_critical)
        resolve_attack(ctx, a.id, t.id, skill, cmd.result, attack, defense, label, cost if n == 0 else NO_COST, aim)
    return ctx.events


def resolve_attack(
    ctx: Ctx,
    aid: str,
    tid: str,
    skill: str,
    result: str,
    attack: CheckRoll,
    defense: CheckRoll,
    defense_skill: str,
    cost: str,
    aim: int,
    reroll: bool = False,
) -> None:
    hit = beats(attack, defense)
    times = ratio(attack, defense) if hit else 1
    ctx.add(
        AttackRolled(
            actor=aid,
            target=tid,
            skill=skill,
            result=result,
            attack=attack,
            defense=defense,
            defense_skill=defense_skill,
            hit=hit,
            times=times,
            cost=cost,
            aim_used=aim,
            reroll=reroll,
        )
    )
    a, t = ctx.get(aid), ctx.get(tid)
    if not hit:
        doubled = not defense.fumble and defense.total >= 2 * max(attack.total, 1)
        if doubled and skill in MELEE and t.data.has(VICIOUS_PARRY) and not t.data.down:
            riposte_prompt(ctx, t, a, "Vicious Parry", {"kind": "parry"})
        elif doubled and skill in CASTING and defense_skill == K.REPEL_SKILL and t.data.has(SPELL_TURNING):
            riposte_prompt(ctx, t, a, "Spell Turning", {"kind": "turn", "result": result, "dc": attack.total})
        return
    if times == 1:
        land(ctx, aid, tid, result, attack.total)
        return
    ctx.add(
        PromptRaised(
            prompt=Prompt(
                id=f"double:{aid}:{tid}",
                kind="double",
                text=f"{a.name} {'tripled' if times == 3 else 'doubled'} {t.name}'s defense: "
                f"choose a second result to go with '{result}' (wound again for two wounds), or a useless limb and "
                "one wound instead",
                combatant=aid,
                command="double_result",
                params={"actor": aid, "target": tid, "declared": result, "skill": skill, "attack_total": attack.total},
            )
        )
    )
    if times == 3:
        if not t.data.unconscious:
            ctx.add(EffectApplied(target=tid, effect="unconscious", by=aid, note="tripled"))
        resolve_prompt(ctx, tid, 7, "death", "tripled")


def riposte_prompt(ctx: Ctx, t: Combatant, a: Combatant, what: str, params: dict[str, Any]) -> None:
    pid = f"{params['kind']}:{t.id}"
    text = (
        f"{t.name} doubled {a.name}'s attack: Vicious Parry may disarm, trip, shove or grapple {a.name}"
        if params["kind"] == "parry"
        else f"{t.name} doubled {a.name}'s spell: Spell Turning may reflect it ({params['result']}) onto {a.name}"
    )
    ctx.add(
        PromptRaised(
            prompt=Prompt(
                id=pid,
                kind=params["kind"],
                text=text,
                combatant=t.id,
                command="riposte",
                params={"actor": t.id, "target": a.id, **params},
            )
        )
    )


def decide_double(system: Any, state: FightState, cmd: K.ChooseDouble) -> list[Event]:
    a = who(state, cmd.actor, "attacker")
    t = who(state, cmd.target, "defender")
    pid = f"double:{a.id}:{t.id}"
    prompt = next((p for p in state.prompts if p.id == pid), None)
    if prompt is None:
        raise Refused(f"{a.name} has no doubled attack on {t.name} to choose a result for")
    declared, skill, total = prompt.params["declared"], prompt.params["skill"], prompt.params["attack_total"]
    ctx = Ctx(system, state)
    if cmd.choice == "limb":
        if cmd.penalty not in (-2, -3):
            raise Refused("a useless limb gives −2 or −3 on rolls using it")
        limb = cmd.limb.strip() or "limb"
        if any(x.name.lower() == limb.lower() for x in t.data.limbs):
            raise Refused(f"{t.name}'s {limb} is already useless")
        ctx.add(EffectApplied(target=t.id, effect="limb", by=a.id, limb=limb, penalty=cmd.penalty, note="doubled"))
        wound(ctx, t.id, 1, a.id)
    else:
        check_result(K.BLAST_SKILL if skill == K.ENTANGLE_SKILL else skill, cmd.choice, a)
        if cmd.choice == declared and declared != "wound":
            raise Refused("choose a different second result: only wounds can be taken twice")
        if declared == cmd.choice == "wound":
            wound(ctx, t.id, 2, a.id)
        else:
            land(ctx, a.id, t.id, declared, total)
            land(ctx, a.id, t.id, cmd.choice, total)
    if any(p.id == pid for p in ctx.state.prompts):
        ctx.add(PromptResolved(prompt_id=pid, note=cmd.choice))
    return ctx.events


def decide_riposte(system: Any, state: FightState, cmd: K.Riposte) -> list[Event]:
    t = who(state, cmd.actor, "defender")
    a = who(state, cmd.target, "attacker")
    prompt = next((p for p in state.prompts if p.id in (f"parry:{t.id}", f"turn:{t.id}")), None)
    if prompt is None or prompt.params.get("target") != a.id:
        raise Refused(f"{t.name} has not doubled an attack by {a.name} (Vicious Parry and Spell Turning need that)")
    ctx = Ctx(system, state)
    if prompt.kind == "parry":
        if cmd.result not in ("disarm", "trip", "shove", "grapple"):
            raise Refused("Vicious Parry can disarm, trip, shove or grapple the attacker")
        land(ctx, t.id, a.id, cmd.result, 0)
    else:
        result = prompt.params["result"]
        if cmd.result != result:
            raise Refused(f"Spell Turning reflects the spell as it was cast: {result}")
        land(ctx, t.id, a.id, result, int(prompt.params.get("dc", 0)))
    ctx.add(PromptResolved(prompt_id=prompt.id, note=cmd.result))
    return ctx.events


# ---------------------------------------------------------------------------
# resolve, skill checks, stealth, grapples, negate


def resolve_parts(c: Combatant, stat: str, penalty: int, mods: tuple[Modifier, ...]) -> list[Modifier]:
    d: Data = c.data
    parts = [Modifier(label="Resolve ranks", value=d.ranks(RESOLVE)), Modifier(label=stat.upper(), value=d.stat(stat))]
    parts += [Modifier(label=i.name, value=i.bonus) for i in d.item_bonus(RESOLVE)]
    if penalty:
        parts.append(Modifier(label="unconscious", value=penalty))
    return parts + list(mods)


def decide_resolve(system: Any, state: FightState, cmd: K.Resolve, dice: Roller) -> list[Event]:
    c = who(state, cmd.actor)
    pid = f"{'death' if cmd.stakes == 'death' else 'resolve'}:{c.id}"
    prompt = next((p for p in state.prompts if p.id == pid), None)
    if prompt is None:
        raise Refused(f"no resolve check against {cmd.stakes} is due for {c.name}")
    if cmd.stat not in ("wil", "tou"):
        raise Refused("resolve uses WIL (fear, unconsciousness, death) or TOU (disease, poison)")
    dc = int(prompt.params["dc"])
    ctx = Ctx(system, state)
    if cmd.auto_critical:
        spend_cinematic(ctx, c, "automatic critical")
    parts = resolve_parts(c, cmd.stat, int(prompt.params.get("penalty", 0)), cmd.modifiers)
    check = roll_check(dice, f"{c.name} resolve", tuple(parts), automatic=cmd.auto_critical)
    passed = not check.fumble and check.total >= dc
    ctx.add(ResolveRolled(actor=c.id, check=check, dc=dc, stakes=cmd.stakes, passed=passed))
    ctx.add(PromptResolved(prompt_id=pid, note="passed" if passed else "failed"))
    return ctx.events


def decide_check(system: Any, state: FightState, cmd: K.SkillCheck, dice: Roller) -> list[Event]:
    c = who(state, cmd.actor)
    acting(state, c)
    in_grapple(c, f"a {cmd.skill} check")
    skill = cmd.skill.strip()
    if not skill:
        raise Refused("name the skill")
    if cmd.cost not in ("quick", "half", "full", NO_COST):
        raise Refused("a check takes a quick, half-round or full-round action (or none)")
    afford(c, cmd.cost)
    parts = skill_parts(c, skill, cmd.stat)
    aim = aim_part(c, skill, "yes") if cmd.use_aim else 0
    if aim:
        parts.append(Modifier(label="aim", value=aim))
    ctx = Ctx(system, state)
    if cmd.auto_critical:
        spend_cinematic(ctx, c, "automatic critical")
    check = roll_check(dice, f"{c.name} {skill}", tuple(parts + list(cmd.modifiers)), automatic=cmd.auto_critical)
    passed = not check.fumble and check.total >= cmd.dc
    ctx.add(SkillChecked(actor=c.id, skill=skill, check=check, dc=cmd.dc, passed=passed, cost=cmd.cost, aim_used=aim))
    return ctx.events


def decide_sneak(system: Any, state: FightState, cmd: K.Sneak, dice: Roller) -> list[Event]:
    c = who(state, cmd.actor)
    acting(state, c)
    in_grapple(c, "sneaking")
    afford(c, "half")
    targets = [who(state, t, "target") for t in cmd.targets]
    if not targets:
        raise Refused("choose whom to sneak past")
    ctx = Ctx(system, state)
    if cmd.auto_critical:
        spend_cinematic(ctx, c, "automatic critical")
    parts = tuple(skill_parts(c, STEALTH, cmd.stat) + list(cmd.modifiers))
    check = roll_check(dice, f"{c.name} Stealth", parts, automatic=cmd.auto_critical)
    for n, t in enumerate(targets):
        tparts = [] if t.data.unconscious else skill_parts(t, NOTICE, "auto")
        if t.data.unconscious:
            tparts = [Modifier(label="unconscious", value=-3)]
        notice = roll_check(dice, f"{t.name} Notice", tuple(tparts))
        ctx.add(
            OpposedRolled(
                actor=c.id,
                target=t.id,
                purpose="sneaks",
                check=check,
                opposing=notice,
                success=beats(check, notice),
                cost="half" if n == 0 else NO_COST,
            )
        )
    return ctx.events


def decide_break(system: Any, state: FightState, cmd: K.BreakGrapple, dice: Roller) -> list[Event]:
    c = who(state, cmd.actor)
    acting(state, c)
    holder_id = c.data.grappled_by
    if not holder_id:
        raise Refused(f"{c.name} is not grappled")
    holder = state.get(holder_id)
    cost = attack_cost(c, UNARMED)
    afford(c, cost)
    ctx = Ctx(system, state)
    if cmd.auto_critical:
        spend_cinematic(ctx, c, "automatic critical")
    parts = tuple(skill_parts(c, UNARMED, cmd.stat) + list(cmd.modifiers))
    check = roll_check(dice, f"{c.name} Melee (Unarmed)", parts, automatic=cmd.auto_critical)
    hparts = (
        [Modifier(label="unconscious", value=-3)] if holder.data.unconscious else skill_parts(holder, UNARMED, "auto")
    )
    hold = roll_check(dice, f"{holder.name} Melee (Unarmed)", tuple(hparts))
    won = beats(check, hold)
    ctx.add(
        OpposedRolled(
            actor=c.id,
            target=holder.id,
            purpose="breaks the grapple",
            check=check,
            opposing=hold,
            success=won,
            cost=cost,
        )
    )
    if won:
        ctx.add(EffectApplied(target=c.id, effect="freed", by=holder.id))
    return ctx.events


def decide_negate(system: Any, state: FightState, cmd: K.Negate, dice: Roller) -> list[Event]:
    c = who(state, cmd.actor, "caster")
    acting(state, c)
    in_grapple(c, "casting")
    t = who(state, cmd.target, "target")
    if not c.data.has(NEGATE):
        raise Refused(f"Negate is a spell talent {c.name} does not have")
    if c.data.negated:
        raise Refused(f"{c.name}'s powers are negated until the end of its next turn")
    if t.id == c.id:
        raise Refused("Negate shuts off another caster's powers")
    cost = cast_cost(c)
    afford(c, cost)
    ctx = Ctx(system, state)
    if cmd.auto_critical:
        spend_cinematic(ctx, c, "automatic critical")
    parts = tuple(skill_parts(c, CAST, cmd.stat) + list(cmd.modifiers))
    check = roll_check(dice, f"{c.name} Cast", parts, automatic=cmd.auto_critical)
    tparts = [Modifier(label="unconscious", value=-3)] if t.data.unconscious else skill_parts(t, CAST, cmd.target_stat)
    opposing = roll_check(dice, f"{t.name} Cast", tuple(tparts))
    ctx.add(
        OpposedRolled(
            actor=c.id,
            target=t.id,
            purpose="negates",
            check=check,
            opposing=opposing,
            success=beats(check, opposing),
            cost=cost,
        )
    )
    return ctx.events


# ---------------------------------------------------------------------------
# other actions and cinematics


def decide_aim(system: Any, state: FightState, cmd: K.Aim) -> list[Event]:
    c = who(state, cmd.actor)
    acting(state, c)
    in_grapple(c, "aiming")
    afford(c, "full")
    return [Aimed(actor=c.id, bonus=aim_bonus(c), cost="full")]


def decide_act(system: Any, state: FightState, cmd: K.Act) -> list[Event]:
    c = who(state, cmd.actor)
    acting(state, c)
    if cmd.action not in K.ACTIONS:
        raise Refused(f"'{cmd.action}' is not an action here ({', '.join(K.ACTIONS)})")
    cost, effect = K.ACTIONS[cmd.action]
    d: Data = c.data
    if cmd.action not in ("speak", "release grapple"):
        in_grapple(c, cmd.action)
    if effect == "stand" and not d.prone:
        raise Refused(f"{c.name} is not prone")
    if effect == "release" and not d.grappling:
        raise Refused(f"{c.name} is not holding anyone in a grapple")
    graceful = effect == "move" and d.has(GRACEFUL) and not d.graceful_used
    if graceful:
        cost = NO_COST
    else:
        afford(c, cost)
    events: list[Event] = [ActionTaken(actor=c.id, action=cmd.action, cost=cost, note=cmd.note.strip())]
    if graceful:
        events = [ActionTaken(actor=c.id, action=cmd.action, cost=cost, note="Graceful, no action")]
    if effect == "release" and d.grappling:
        events.append(EffectApplied(target=d.grappling, effect="freed", by=c.id))
    return events


OPPOSED_NAMES = {"sneaks": "Stealth check", "breaks the grapple": "check to break the grapple", "negates": "Negate"}


def decide_cinematic(system: Any, state: FightState, cmd: K.SpendCinematic, dice: Roller) -> list[Event]:
    c = who(state, cmd.actor)
    d: Data = c.data
    if cmd.use not in K.CINEMATIC_USES:
        raise Refused(f"a cinematic buys: {', '.join(K.CINEMATIC_USES)} (or an automatic critical, before a roll)")
    if d.cinematics < 1:
        raise Refused(f"{c.name} has no cinematic to spend (a cinematic is gained at the first dot of experience)")
    ctx = Ctx(system, state)
    if cmd.use == "extra turn":
        if not state.started or state.ended:
            raise Refused("an extra turn is taken during the fight")
        if state.prompts:
            raise Refused(f"resolve first: {state.prompts[0].text}")
        if d.down:
            raise Refused(f"{c.name} is {'dead' if d.dead else 'unconscious'} and cannot take a turn")
        ctx.add(CinematicSpent(actor=c.id, use="extra turn"))
        return ctx.events
    if cmd.use == "ignore death":
        if not d.death_save_failed:
            raise Refused(f"{c.name} has not failed a save against death")
        ctx.add(CinematicSpent(actor=c.id, use="ignore death"))
        return ctx.events
    failed = d.last_failed
    if failed is None:
        raise Refused(f"{c.name} has no failed check to reroll this turn")
    what = failed.label
    if failed.kind == "attack":
        t = who(state, failed.target or "", "target")
        if t.data.dead:
            raise Refused(f"{t.name} is already dead: the failed {failed.label} has nothing left to reroll for")
    if failed.kind == "opposed":
        what = OPPOSED_NAMES.get(failed.skill, failed.skill)
        if failed.skill == "breaks the grapple" and d.grappled_by != failed.target:
            raise Refused(f"{c.name} is no longer held by {state.name(failed.target or '')}: nothing to break")
    ctx.add(CinematicSpent(actor=c.id, use=f"reroll the failed {what}"))
    check = roll_check(dice, failed.label, failed.parts)
    if failed.kind == "opposed":
        for tid, opposing in failed.against:
            won = beats(check, opposing)
            ctx.add(
                OpposedRolled(
                    actor=c.id,
                    target=tid,
                    purpose=failed.skill,
                    check=check,
                    opposing=opposing,
                    success=won,
                    cost=NO_COST,
                    reroll=True,
                )
            )
            if won and failed.skill == "breaks the grapple":
                ctx.add(EffectApplied(target=c.id, effect="freed", by=tid))
    elif failed.kind == "attack":
        t = who(state, failed.target or "", "target")
        resolve_attack(
            ctx, c.id, t.id, failed.skill, failed.result, check, failed.defense, failed.defense_skill, NO_COST, 0, True
        )
    elif failed.kind == "resolve":
        passed = not check.fumble and check.total >= failed.dc
        ctx.add(ResolveRolled(actor=c.id, check=check, dc=failed.dc, stakes=failed.stakes, passed=passed, reroll=True))
    else:
        passed = not check.fumble and check.total >= failed.dc
        ctx.add(
            SkillChecked(
                actor=c.id, skill=failed.skill, check=check, dc=failed.dc, passed=passed, cost=NO_COST, reroll=True
            )
        )
    return ctx.events


def decide(system: Any, state: FightState, command: Any, dice: Roller) -> list[Event] | None:
    if isinstance(command, K.Attack):
        return decide_attack(system, state, command, dice)
    if isinstance(command, K.Aim):
        return decide_aim(system, state, command)
    if isinstance(command, K.Act):
        return decide_act(system, state, command)
    if isinstance(command, K.Sneak):
        return decide_sneak(system, state, command, dice)
    if isinstance(command, K.SkillCheck):
        return decide_check(system, state, command, dice)
    if isinstance(command, K.BreakGrapple):
        return decide_break(system, state, command, dice)
    if isinstance(command, K.Negate):
        return decide_negate(system, state, command, dice)
    if isinstance(command, K.Resolve):
        return decide_resolve(system, state, command, dice)
    if isinstance(command, K.ChooseDouble):
        return decide_double(system, state, command)
    if isinstance(command, K.Riposte):
        return decide_riposte(system, state, command)
    if isinstance(command, K.SpendCinematic):
        return decide_cinematic(system, state, command, dice)
    return None
