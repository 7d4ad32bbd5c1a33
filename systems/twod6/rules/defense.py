"""Defense: the defender's roll against an attack (skill, armor, and what takes them away).

Rulings (rules ``favored_enemy``, ``stealth``, ``parry_penalty``, ``limb``, ``repel`` of ``table.R``) and our
own, each with its test:
- Favored Enemy: "They receive a +1 on all combat rolls against this race" — on defense too
  (test_favored_enemy_adds_1_on_attack_and_on_defense); not on a roll of armor alone (stealth,
  surprise, shooting without magic), which adds nothing but armor
  (test_favored_enemy_is_not_added_to_an_armor_only_roll).
- Stealth's armor-only defense covers "melee, archery, shooting, throwing, intimidate, or diplomacy",
  not spells (test_stealth_gives_armor_only_against_weapons_not_spells).
- Armor's melee penalty falls on a melee parry too (test_armor_still_penalises_a_melee_parry).
- A disabled limb's penalty counts on defense unless the GM unticks "Disabled limbs count"
  (test_a_disabled_limb_penalises_the_defense_too).
- Casting can always be opposed by Cast (a counterspell needs no Repel Attack); a Cast defense against
  weapons needs Repel Attack (test_repel_attack_defends_with_cast_even_against_shooting).
"""

from __future__ import annotations

from systems.twod6.commands import ARMOR_ONLY, REPEL_SKILL
from systems.twod6.record import data
from systems.twod6.rules.common import CASTING, UNCONSCIOUS_PENALTY, UNDEFENDABLE, perform_ranks, skill_parts
from systems.twod6.sheet import ATHLETICS, CAST, MELEE, PERFORM, REPEL_ATTACK, RESOLVE
from systems.twod6.table import R, applies
from tracker.commands import Modifier
from tracker.errors import Refused
from tracker.model import Combatant, FightState


def defense_options(t: Combatant, skill: str) -> list[str]:
    """What "auto" weighs for the defender. Ruling: a melee parry is weighed when the defender has ranks in it or
    an item for it ("Club: Melee (Heavy) +1"), as Athletics is weighed without ranks: the best is taken (a
    clubman with no ranks parried 10 but was given Athletics 9)."""
    d = data(t)
    repel = not d.negated and (d.has(REPEL_ATTACK) or (skill in CASTING and d.ranks(CAST) > 0))
    if skill in UNDEFENDABLE:
        return [REPEL_SKILL] if repel else [ARMOR_ONLY]
    held = {i.skill for i in d.items}
    opts = [s for s in MELEE if d.ranks(s) > 0 or s in held] + [ATHLETICS]
    if perform_ranks(t).value > 0 and skill not in CASTING:
        opts.append(PERFORM)
    if skill in CASTING:
        opts.append(RESOLVE)
    if repel:
        opts.append(REPEL_SKILL)
    return opts


def caught_by_stealth(a: Combatant, t: Combatant, skill: str) -> bool:
    """Stealth leaves armor only against melee, archery, shooting and throwing, not a spell."""
    return t.id in data(a).hidden_from and skill not in CASTING


@applies(
    R.ARMOR, R.PARRY_PENALTY, R.UNDEFENDABLE, R.REPEL, R.SURPRISE, R.STEALTH, R.FAVORED_ENEMY, R.UNCONSCIOUS, R.LIMB
)
def defense_parts(
    state: FightState, a: Combatant, t: Combatant, skill: str, choice: str, stat: str, limbs: bool
) -> tuple[str, list[Modifier]]:
    d = data(t)
    armor = Modifier(label=f"{d.armor} armor", value=d.armor_defense)
    if d.unconscious:
        return "unconscious (no bonus)", [UNCONSCIOUS_PENALTY]
    unaware_surprise = state.round == 0 and bool(state.surprise) and t.id not in state.surprise
    if caught_by_stealth(a, t, skill) or unaware_surprise:
        why = "surprised" if unaware_surprise and not caught_by_stealth(a, t, skill) else "caught by stealth"
        return f"armor only ({why})", [armor]
    if choice == "auto":
        options = defense_options(t, skill)
        scored = []
        for opt in options:
            _label, parts = defense_parts(state, a, t, skill, opt, stat, limbs)
            scored.append((sum(p.value for p in parts), -options.index(opt), opt))
        choice = max(scored)[2]
    if skill in UNDEFENDABLE and choice not in (ARMOR_ONLY, REPEL_SKILL):
        raise Refused(
            f"{skill} cannot be defended except by magic: the defender rolls 2d6 + armor alone "
            "(or Cast with Repel Attack)",
            rule=R.UNDEFENDABLE,
        )
    if choice == ARMOR_ONLY:
        return ARMOR_ONLY, [armor]
    if choice == REPEL_SKILL:
        if d.negated:
            raise Refused(f"{t.name}'s powers are negated until the end of its next turn", rule=R.NEGATE)
        if not d.has(REPEL_ATTACK) and skill not in CASTING:
            raise Refused(
                f"Repel Attack is a spell talent {t.name} does not have (any caster may counter a spell)", rule=R.REPEL
            )
    if choice == RESOLVE and skill not in CASTING:
        raise Refused("resolve can oppose a spell, not a weapon", rule=R.RESOLVE)
    parts = skill_parts(t, choice, stat)
    parts.append(armor)
    if limbs and d.limbs:
        parts.append(Modifier(label="disabled limb", value=d.limb_penalty))
    if d.favors_against(a):
        parts.append(Modifier(label="favored enemy", value=1))
    return choice, parts
