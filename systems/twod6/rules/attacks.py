"""Attacks: attack against defense, the declared result, doubling and tripling, Vicious Parry, Spell Turning.

Rulings (rules ``favored_enemy``, ``stealth``, ``double_lands``, ``sniper``, ``limb`` of ``table.R``) and our
own, each with its test:
- Favored Enemy gives +1 on the attack as on the defense (see ``defense``); the race is the foe's sheet
  race, or its group's name (test_favored_enemy_adds_1_on_attack_and_on_defense).
- A spell after a successful Stealth check gains no Sneak Attack bonus and does not use up the Stealth
  (test_stealth_gives_armor_only_against_weapons_not_spells); otherwise the advantage lasts until the
  sneaker's next attack on that target.
- On a doubled or tripled hit the declared result lands at once; only the extra choice waits for
  the GM (test_a_doubled_hit_lands_the_declared_result_at_once).  A knock-out ("unconscious") lands as its
  resolve check (DC = the attack total), and the defender falls only if it fails: the prompt says "'unconscious'
  waits on Bob's DC 12 resolve check (it lands only if the check fails)", not "'unconscious' has landed", which
  had a GM mark the defender out before the check (a tripled blow, which knocks out whatever its check: "lands with
  the tripled blow's resolve check, pass or fail"); every other result lands at once and its prompt says "'trip' has landed"
  (test_round4_fixes.py::test_a_doubled_knock_out_prompt_says_only_its_check_is_raised).  The extra choice is a second
  result (a second wound), or a disabled limb with its wound; when the declared result was a wound,
  that wound is the limb's (test_doubled_a_limb_comes_with_one_wound).
- Ruling (rule ``aim``): the aim gives its bonus to "the next shooting, archery, throwing, casting,
  athletics, perform or ride check (as fits)", and RULINGS' "an aim is spent only by such a check" is
  read as: a check that takes the aim's bonus spends it (a Blast, an aimed Athletics check: one aim
  gave +PER to every Blast of the fight), and so does a shooting, archery or throwing check the GM
  tells not to use it (an aim at another target); a check the aim does not apply to (a melee attack)
  leaves it (test_a_melee_attack_between_aim_and_shot_does_not_spend_the_aim,
  test_a_check_that_takes_the_aim_spends_it_and_one_it_does_not_apply_to_leaves_it).  Sniper's
  doubling stays for shooting, archery and throwing only.
- A disabled limb's penalty counts on the attack unless the GM unticks "Disabled limbs count"; several
  limbs add up (test_doubled_a_limb_comes_with_one_wound).
- Blast is a casting and an attack: half-round with Fast Caster or Multiattack
  (test_fast_caster_makes_a_blast_half_round).  A Mass Spell rolls one Cast against each target's defense
  (test_mass_spell_rolls_one_cast_against_each_target); Entangle holds one foe, as a grapple does
  (test_a_mass_spell_cannot_entangle_several_foes).
"""

from __future__ import annotations

from typing import Any

import attrs

from systems.twod6.checks import CheckRoll, beats, ratio, roll_check
from systems.twod6.commands import (
    ATTACK_SKILLS,
    BLAST_SKILL,
    ENTANGLE_SKILL,
    MELEE_RESULTS,
    REPEL_SKILL,
    RESULTS,
    Attack,
    ChooseDouble,
    Riposte,
)
from systems.twod6.events import DOUBLED, NO_COST, PARRIED, TURNED, AttackRolled, EffectApplied
from systems.twod6.record import data
from systems.twod6.rules.common import (
    CASTING,
    RANGED,
    SNIPER_SKILLS,
    UNDEFENDABLE,
    WEAPON_SKILLS,
    acting,
    afford,
    aim_part,
    attack_cost,
    base_skill,
    in_grapple,
    is_prone,
    skill_parts,
    spend_cinematic,
)
from systems.twod6.rules.defense import caught_by_stealth, defense_parts
from systems.twod6.rules.harm import DEATH, UNCONSCIOUS, ask_resolve, due, wound
from systems.twod6.sheet import (
    BLAST,
    ENTANGLE,
    IMPROVISATION,
    MASS_SPELL,
    MELEE,
    SNEAK_ATTACK,
    SPELL_TURNING,
    UNARMED,
    VICIOUS_PARRY,
)
from systems.twod6.table import R, applies
from tracker.commands import Modifier
from tracker.dice import Roller
from tracker.errors import Refused
from tracker.events import PromptResolved
from tracker.kit import Draft, need, open_prompt, prompt
from tracker.model import Combatant, FightState, Prompt

# ---------------------------------------------------------------------------
# results


@applies(R.WOUNDS, R.KNOCKOUT, R.DISTRACT, R.TRIP, R.GRAPPLE, R.DECLARED)
def land(d: Draft, by: str, target: str, result: str, attack_total: int, *, times: int = 1, source: str = "") -> None:
    """One result of a won attack lands on ``target`` (``times``: the blow's ratio to the defense; ``source``: what
    chose it after the roll, a doubled blow's extra result, a Vicious Parry or Spell Turning, for Why?)."""
    if data(d.get(target)).dead:
        return
    if result == "wound":
        wound(d, target, 1, by, times=times, source=source)
    elif result == "unconscious":
        ask_resolve(d, target, attack_total, UNCONSCIOUS, "knock-out blow", rule=R.KNOCKOUT)
    else:
        d.add(EffectApplied(target=target, effect=result, by=by, source=source))


def check_result(skill: str, result: str) -> None:
    if skill == ENTANGLE_SKILL and result != "grapple":
        raise Refused("Entangle is a grapple at range: its result is grapple", rule=R.ENTANGLE)
    if result == "grapple" and skill not in (UNARMED, ENTANGLE_SKILL):
        raise Refused("grappling is done only with Melee (Unarmed) (or the Entangle spell)", rule=R.GRAPPLE)
    if skill in RANGED and skill != ENTANGLE_SKILL and result in MELEE_RESULTS:
        raise Refused(f"{result} is a melee result: a {skill} attack can wound, disarm or distract", rule=R.DECLARED)
    if result not in RESULTS:
        raise Refused(f"'{result}' is not an attack result ({', '.join(RESULTS)})", rule=R.DECLARED)


# ---------------------------------------------------------------------------
# attack


@applies(R.IMPROVISED, R.FAVORED_ENEMY, R.SNEAK_ATTACK, R.AIM, R.SNIPER, R.TRIP, R.LIMB, R.UNDEFENDABLE)
def attack_parts(a: Combatant, t: Combatant, cmd: Attack) -> tuple[list[Modifier], int]:
    d = data(a)
    skill = cmd.skill
    parts = skill_parts(a, skill, cmd.stat)
    if skill in MELEE and is_prone(a) and cmd.result == "trip":
        parts = [p for p in parts if p.label != "prone"] + [Modifier(label="prone, tripping", value=2)]
    if cmd.limb_penalty and d.limbs:
        parts.append(Modifier(label="disabled limb", value=d.limb_penalty))
    if cmd.improvised and not d.has(IMPROVISATION):
        parts.append(Modifier(label="improvised", value=-2))
    if cmd.cover:
        parts.append(Modifier(label="moving/cover", value=-cmd.cover))
    if d.favors_against(t):
        parts.append(Modifier(label="favored enemy", value=1))
    if caught_by_stealth(a, t, skill):
        sneak = sum(1 for arg in d.talent_args(SNEAK_ATTACK) if not arg or arg == base_skill(skill))
        if sneak:
            parts.append(Modifier(label="sneak attack", value=sneak))
    aim = aim_part(a, skill, cmd.use_aim)
    if aim:
        parts.append(Modifier(label="aim", value=aim))
    parts += list(cmd.modifiers)
    return parts, aim


def check_attack(state: FightState, a: Combatant, cmd: Attack) -> list[Combatant]:
    """Refuse an attack the rules do not allow; the targets it is made against."""
    d = data(a)
    skill = cmd.skill
    if skill not in ATTACK_SKILLS:
        raise Refused(f"'{skill}' is not an attack skill ({', '.join(ATTACK_SKILLS)})")
    if (d.grappled_by or d.grappling) and skill != UNARMED:
        in_grapple(state, a, f"an attack with {skill}")
    if d.disarmed and skill in WEAPON_SKILLS:
        raise Refused(f"{a.name} is disarmed: draw a weapon (quick) or pick it up (half-round) first", rule=R.DECLARED)
    if skill in CASTING:
        spell = BLAST if skill == BLAST_SKILL else ENTANGLE
        if not d.has(spell):
            raise Refused(f"{spell} is a spell talent {a.name} does not have", rule=R.BLAST)
        if d.negated:
            raise Refused(f"{a.name}'s powers are negated until the end of its next turn", rule=R.NEGATE)
    check_result(skill, cmd.result)
    if cmd.cover and skill not in UNDEFENDABLE:
        raise Refused(
            "the moving/cover penalty is for shooting and archery; use a modifier for anything else",
            rule=R.UNDEFENDABLE,
        )
    targets = [need(state, t, "target") for t in cmd.targets]
    if not targets:
        raise Refused("choose a target")
    if len({t.id for t in targets}) != len(targets):
        raise Refused("each target is named once")
    if len(targets) > 1 and not (skill in CASTING and d.has(MASS_SPELL)):
        raise Refused("only a Mass Spell takes several targets", rule=R.MASS_SPELL)
    if len(targets) > 1 and skill == ENTANGLE_SKILL:
        raise Refused(
            "Entangle is a grapple, and a grapple holds one foe: a Mass Spell cannot entangle several", rule=R.ENTANGLE
        )
    for t in targets:
        if t.id == a.id:
            raise Refused(f"{a.name} cannot attack itself")
        if data(t).dead:
            raise Refused(f"{t.name} is already dead")
    return targets


@applies(
    R.OPPOSED,
    R.DECLARED,
    R.MULTIATTACK,
    R.FULL_ROUND,
    R.FAST_CASTER,
    R.MASS_SPELL,
    R.BLAST,
    R.ENTANGLE,
    R.CRITICAL,
    R.SNAKE_EYES,
    R.AUTO_CRITICAL,
)
def decide_attack(d: Draft, cmd: Attack, dice: Roller) -> None:
    a = need(d.state, cmd.actor, "attacker")
    acting(d.state, a)
    targets = check_attack(d.state, a, cmd)
    skill = cmd.skill
    cost = attack_cost(a, skill)
    afford(a, cost)
    if cmd.auto_critical:
        spend_cinematic(d, a, "automatic critical", tuple(t.id for t in targets))
    planned = [(t, *attack_parts(a, t, cmd)) for t in targets]  # refuse before any die is rolled
    for t in targets:
        defense_parts(d.state, a, t, skill, cmd.defense, cmd.defense_stat, cmd.limb_penalty)
    dice_only = roll_check(dice, f"{a.name} {skill}", (), automatic=cmd.auto_critical)
    for n, (t, parts, aim) in enumerate(planned):
        kept = tuple(p for p in parts if p.value)
        attack = attrs.evolve(dice_only, parts=kept, total=dice_only.total + sum(p.value for p in kept))
        label, dparts = defense_parts(d.state, a, t, skill, cmd.defense, cmd.defense_stat, cmd.limb_penalty)
        dparts += list(cmd.defense_modifiers)
        if cmd.defense_critical:
            spend_cinematic(d, d.get(t.id), "automatic critical on defense", (a.id,))
        defense = roll_check(dice, f"{t.name} defense", tuple(dparts), automatic=cmd.defense_critical)
        keeps_aim = not aim and skill not in SNIPER_SKILLS  # (rule ``aim``: the check that takes it spends it)
        resolve_attack(
            d, a.id, t.id, skill, cmd.result, attack, defense, label, cost if n == 0 else NO_COST, aim, keeps_aim
        )


@applies(R.OPPOSED, R.DOUBLE, R.DOUBLE_LANDS, R.TRIPLE, R.VICIOUS_PARRY, R.SPELL_TURNING)
def resolve_attack(
    d: Draft,
    aid: str,
    tid: str,
    skill: str,
    result: str,
    attack: CheckRoll,
    defense: CheckRoll,
    defense_skill: str,
    cost: str,
    aim: int,
    keeps_aim: bool,
    reroll: bool = False,
) -> None:
    """Log the attack and land what it won: the declared result at once, then the prompts."""
    hit = beats(attack, defense)
    times = ratio(attack, defense) if hit else 1
    d.add(
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
            keeps_aim=keeps_aim,
            keeps_stealth=reroll or skill in CASTING,
        )
    )
    a, t = d.get(aid), d.get(tid)
    if not hit:
        doubled = not defense.fumble and defense.total >= 2 * max(attack.total, 1)
        td = data(t)
        if doubled and skill in MELEE and td.has(VICIOUS_PARRY) and not td.down:
            riposte_prompt(d, t, a, {"kind": "parry"})
        elif doubled and skill in CASTING and defense_skill == REPEL_SKILL and td.has(SPELL_TURNING):
            riposte_prompt(d, t, a, {"kind": "turn", "result": result, "dc": attack.total})
        return
    land(
        d,
        aid,
        tid,
        "entangle" if skill == ENTANGLE_SKILL and result == "grapple" else result,
        attack.total,
        times=times,
    )
    if times == 1 or data(d.get(tid)).dead:
        return
    d.add(
        prompt(
            "double",
            f"{a.name} {'tripled' if times == 3 else 'doubled'} {t.name}'s defense and "
            f"{declared_state(d.state, tid, result, times)}: "
            + (
                "choose a second result (wound again for two wounds), or a useless limb with its wound"
                if result == "wound"  # (a wound picked after a disarm is one wound: it said "two")
                else "choose a second result (a wound is one), or a useless limb with its wound"
            ),
            tid,
            command="double_result",
            params={
                "actor": aid,
                "target": tid,
                "declared": result,
                "skill": skill,
                "attack_total": attack.total,
                "landed": True,
                "times": times,
            },
            outcomes=(NO_SECOND,),
        )
    )
    if times == 3:
        ask_resolve(d, tid, 7, DEATH, "tripled", rule=R.TRIPLE, knockout=True, by=aid)


@applies(R.DOUBLE_LANDS, R.KNOCKOUT)
def declared_state(state: FightState, tid: str, result: str, times: int) -> str:
    """What a doubled or tripled blow's declared result has done, for its prompt: "'trip' has landed"; a knock-out
    only raises its resolve check, and the prompt says so (module docstring)."""
    if result != UNCONSCIOUS:
        return f"'{result}' has landed"
    name = state.name(tid)
    if times == 3:
        return f"'{result}' lands with the tripled blow's resolve check, pass or fail ({name} is out either way)"
    check = due(state, tid, UNCONSCIOUS)
    if check is not None:
        dc = check.params.get("dc")
        return f"'{result}' waits on {name}'s DC {dc} resolve check (it lands only if the check fails)"
    if data(state.get(tid)).unconscious:
        return f"'{result}' changes nothing ({name} is already unconscious)"
    return f"'{result}' lands with {name}'s tripled-blow resolve check, pass or fail"


NO_SECOND = "no second result"  # a doubled attack's prompt settled by ruling: the declared result stands alone
DECLINED = "declined"  # a Vicious Parry or Spell Turning the defender lets pass


def riposte_prompt(d: Draft, t: Combatant, a: Combatant, params: dict[str, Any]) -> None:
    kind = params["kind"]
    text = (
        f"{t.name} doubled {a.name}'s attack: Vicious Parry may disarm, trip, shove or grapple {a.name}"
        if kind == "parry"
        else f"{t.name} doubled {a.name}'s spell: Spell Turning may reflect it ({params['result']}) onto {a.name}"
    )
    params = {"actor": t.id, "target": a.id, **params}
    d.add(prompt(kind, text, t.id, command="riposte", params=params, outcomes=(DECLINED,)))


def double_prompt(state: FightState, aid: str, tid: str) -> Prompt | None:
    for p in state.prompts:
        if p.kind == "double" and p.params.get("actor") == aid and p.params.get("target") == tid:
            return p
    return None


def _times(p: Prompt, t: Combatant) -> int:
    """How many times over the attack beat the defense, for its prompt's extra choice: 2 or 3.

    Ruling: a limb taken on a tripled attack is logged "(tripled)" (the book: "should triple a defender's roll"),
    not "(doubled)"; a prompt from an older file, which did not keep the ratio, is read from its text
    (test_combat.py::test_a_limb_taken_on_a_tripled_attack_is_logged_tripled).  Events already logged keep their
    note."""
    if "times" in p.params:
        return int(p.params["times"])
    return 3 if f" tripled {t.name}'s defense" in p.text else 2


@applies(R.DOUBLE, R.DOUBLE_LANDS, R.LIMB)
def decide_double(d: Draft, cmd: ChooseDouble, dice: Roller) -> None:
    a = need(d.state, cmd.actor, "attacker")
    t = need(d.state, cmd.target, "defender")
    p = double_prompt(d.state, a.id, t.id)
    if p is None:
        raise Refused(f"{a.name} has no doubled attack on {t.name} to choose a result for", rule=R.DOUBLE)
    declared, skill, total = p.params["declared"], p.params["skill"], int(p.params["attack_total"])
    landed = bool(p.params.get("landed"))  # a prompt from an older file: the declared result waits too
    how = "tripled" if _times(p, t) == 3 else "doubled"
    if cmd.choice == "limb":
        if cmd.penalty not in (-2, -3):
            raise Refused("a useless limb gives −2 or −3 on rolls using it", rule=R.LIMB)
        limb = cmd.limb.strip() or "limb"
        if any(x.name.lower() == limb.lower() for x in data(t).limbs):
            raise Refused(f"{t.name}'s {limb} is already useless", rule=R.LIMB)
        d.add(
            EffectApplied(target=t.id, effect="limb", by=a.id, limb=limb, penalty=cmd.penalty, note=how, source=DOUBLED)
        )
        if not (landed and declared == "wound"):
            wound(d, t.id, 1, a.id, source=DOUBLED)
    else:
        check_result(BLAST_SKILL if skill == ENTANGLE_SKILL else skill, cmd.choice)
        if cmd.choice == declared and declared != "wound":
            raise Refused("choose a different second result: only wounds can be taken twice", rule=R.DOUBLE)
        if landed:
            land(d, a.id, t.id, cmd.choice, total, source=DOUBLED)
        elif declared == cmd.choice == "wound":
            wound(d, t.id, 2, a.id, source=DOUBLED)
        else:
            land(d, a.id, t.id, declared, total)
            land(d, a.id, t.id, cmd.choice, total, source=DOUBLED)
    if any(q.id == p.id for q in d.state.prompts):
        d.add(PromptResolved(prompt_id=p.id, note=cmd.choice))


@applies(R.VICIOUS_PARRY, R.SPELL_TURNING)
def decide_riposte(d: Draft, cmd: Riposte, dice: Roller) -> None:
    t = need(d.state, cmd.actor, "defender")
    a = need(d.state, cmd.target, "attacker")
    p = open_prompt(d.state, "parry", t.id) or open_prompt(d.state, "turn", t.id)
    if p is None or p.params.get("target") != a.id:
        raise Refused(
            f"{t.name} has not doubled an attack by {a.name} (Vicious Parry and Spell Turning need that)",
            rule=R.VICIOUS_PARRY,
        )
    if p.kind == "parry":
        if cmd.result not in ("disarm", "trip", "shove", "grapple"):
            raise Refused("Vicious Parry can disarm, trip, shove or grapple the attacker", rule=R.VICIOUS_PARRY)
        land(d, t.id, a.id, cmd.result, 0, source=PARRIED)
    else:
        result = p.params["result"]
        if cmd.result != result:
            raise Refused(f"Spell Turning reflects the spell as it was cast: {result}", rule=R.SPELL_TURNING)
        land(d, t.id, a.id, result, int(p.params.get("dc", 0)), source=TURNED)
    d.add(PromptResolved(prompt_id=p.id, note=cmd.result))
