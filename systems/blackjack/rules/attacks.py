"""Attacks (shots, volleys, blasts, blows, throws, specials) and reloading.

Rulings made here (beyond the rules table: ``impact``, ``volley``, ``jam``, ``risk``, ``throw_melee``), each
named in a test:
- "The PC's impact" is read from the PC's side: attacking, advantage raises the
  level; defending, it lowers it (``test_impact_on_a_defending_pc_and_never_below_lesser``).
- A volley's later shots at a target an earlier shot killed are held (no shot
  spent); a jam ends the volley and the jamming shot is spent
  (``test_a_later_shot_at_a_dead_target_is_held``, ``test_a_jam_ends_the_volley_and_the_jamming_shot_is_spent``).
  The jamming shot's log line says how many of the volley's shots are not fired, and Why? the shots fired and
  that the jam ended the volley (``test_a_jam_in_a_volley_says_the_shots_fired_and_the_ones_not_fired``).
- A jammed gun that still holds shots is cleared by a reload action for no lead
  (``test_rusty_revolver_jams_on_19_and_reload_clears_it``).
- When an NPC's effect takes an NPC (a breath over a crowd of PCs and outlaws),
  the NPC target saves as an NPC does (≤ Threat + 8) over the attacker's Threat
  plus its own DV, as a PC would; a PC's attack is always the PC's own save
  (``test_fire_breath_over_a_pc_and_an_outlaw_each_saves``).
- Ruling: that NPC target's save is halved (⌈Threat ÷ 2⌉ + 8) when its sheet is deficient in the special's stat,
  name, kind or tags (``checks.deficient_in``); an NPC attacking also tests what it makes, shooting, throwing or
  fighting (``_making``; ``test_deficient_words.py::test_the_gms_words_match``), and the attack form's "NPC deficient" tick counts for whichever
  NPC rolls: the attacker, or with the risk on the target an NPC target (a PC target is untouched)
  (``test_deficient_everywhere.py::test_the_attack_forms_tick_halves_the_npc_target_that_saves``).
- The book's melee axes and knives (hand axe, hatchet, hunting knife, knife)
  "can be thrown … and use the Accuracy (ACC) save": at nearby range, never
  far, with an ACC save and the melee weapon's lesser injury; the thrown weapon
  then lies on the floor and cannot be used until the GM gives it back (GM
  adjust "On the floor") (``test_a_hand_axe_or_knife_can_be_thrown_at_nearby_range``).
- So does a Throwing axe or Throwing knife of the table once thrown at nearby range (the book makes them burden
  items, "2 to a slot", l.204–205, not a supply like arrows); "Throwing knife x2" carries two, thrown one after
  the other (``test_a_throwing_knife_thrown_lies_on_the_floor_and_a_second_one_is_thrown_next``).
- The weapon an attack takes (``common.find_weapon``): of two alike ("Revolver", "Revolver 2") the named one if it
  is ready and can make the attack asked for, else the other that can (the log names the one fired); an empty
  field, the first ready weapon in the sheet's order that can make it (its range, its targets), no kind preferred
  (``tests/systems/blackjack/test_weapon_choice.py``). A reload named takes, of two alike, one that needs it.
- Ruling: a special that grapples (the Bear hug, l.261 "BOD save or be grappled"; a GM's own special whose name
  says hug, grapple, grab, constrict or squeeze) is at arm's reach: with the range on auto it reads "close" (l.20),
  as a melee or natural attack does; other specials (a breath, buffeting wings) stay "nearby". Only the range
  logged changes: a special's save is the target's, with no range part
  (``test_a_bear_hug_is_close_and_a_breath_stays_nearby``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tracker.dice import Roller, roll
from tracker.errors import Refused
from tracker.events import ConditionAdded, NoteAdded
from tracker.kit import Draft
from tracker.model import Condition
from tracker.text import counted

from ..checks import blackjack_save
from ..commands import Attack, Reload
from ..deficiency import FIGHTING, SHOOTING, THROWING
from ..events import AttackMade, DvPart, RechargeRolled, Reloaded
from ..records import Weapon, data
from ..sheet import level_index, matches, norm, split_list, words
from ..table import R, applies
from .common import able, find_weapon, one_action, rules
from .harm import impact_shift, injury

GRAPPLES = ("hug", "grapple", "grab", "constrict", "squeeze")  # words naming a special that holds its target


def grapples(w: Weapon) -> bool:
    """An NPC's special that seizes its target (the Bear hug, l.261, "BOD save or be grappled"): one that lays
    Grappled, or whose name says hug, grapple, grab, constrict or squeeze (a GM's own "Tentacle grab: special")."""
    if w.kind != "special":
        return False
    return norm(w.condition) == "grappled" or any(x in GRAPPLES for x in words(w.name))


def _making(w: Weapon, ranged: bool) -> str:
    """What an NPC attacking makes, for its sheet's "Deficient in" (:mod:`..deficiency`): shooting a firearm, bow
    or blowgun, throwing at range, fighting at close range (a blow, a bite); a special, nothing more than itself."""
    if w.kind in ("firearm", "bow", "blowgun"):
        return SHOOTING
    if w.kind == "special":
        return ""
    return THROWING if ranged else FIGHTING


def _range(w: Weapon, rng: str) -> str:
    """The range the GM set; on auto, close for a melee or natural attack and a special that grapples (arm's
    reach, l.20), nearby for the rest."""
    if rng != "auto":
        return rng
    return "close" if w.kind in ("melee", "natural") or grapples(w) else "nearby"


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


def _check_weapon(name: str, w: Weapon, rng: str, targets: list[str]) -> None:
    """Refuse what the weapon cannot do: its range, its targets, its shots."""
    if w.dropped:
        raise Refused(
            f"{name}'s {w.name} lies on the floor where it was thrown: the GM gives it back (adjust)",
            rule=R.THROW_MELEE,
        )
    if w.kind == "bow" and rng == "close":
        raise Refused(f"a {w.name} cannot be used at melee range (it can shoot over cover)", rule=R.BOW)
    if (w.kind == "thrown" or w.throwable) and rng == "far":
        # a thrown weapon of the table (l.204–205), or a melee one thrown by the second-pass ruling
        raise Refused(f"a {w.name} cannot reach far range", rule=R.THROWN if w.kind == "thrown" else R.THROW_MELEE)
    if w.kind in ("melee", "natural") and rng != "close" and not w.throwable:
        raise Refused(f"{w.name} is a melee attack: the target must be close (in melee)", rule=R.MELEE)
    many = len(targets) > 1
    if many and w.multi not in ("shots", "blast", "area"):
        raise Refused(
            f"the {w.name} takes one target: only a revolver or repeater fires several shots in one action, "
            "and a shotgun blast takes several targets",
            rule=R.VOLLEY,
        )
    if w.multi in ("blast", "area") and len(set(targets)) != len(targets):
        raise Refused(f"the {w.name} strikes each target once", rule=R.WEAPON_DV)
    if w.is_firearm:
        if w.jammed:
            raise Refused(f"{name}'s {w.name} is jammed: clear it with a reload action first", rule=R.JAM)
        shots = len(targets) if w.multi == "shots" else 1
        if w.loaded == 0:
            raise Refused(
                f"{name}'s {w.name} is empty: each shot spends one; reload (1 lead and an action)", rule=R.SHOTS
            )
        if w.loaded < shots:
            raise Refused(
                f"{name}'s {w.name} has {counted(w.loaded, 'shot')} loaded, not the {shots} asked for", rule=R.SHOTS
            )
    if w.ammo >= 0 and w.ammo < len(targets):
        raise Refused(f"{name}'s {w.name} ammunition stack has {w.ammo} left, not {len(targets)}", rule=R.AMMO)


def _able_for(name: str, rng: str, targets: list[str]) -> Callable[[Weapon], bool]:
    """What an attack needs of a weapon (``find_weapon``'s fit): ready, and able to make the attack asked for
    at its range (auto: the weapon's own) on its targets."""

    def able_to(w: Weapon) -> bool:
        if not w.ready:
            return False
        try:
            _check_weapon(name, w, _range(w, rng), targets)
        except Refused:
            return False
        return True

    return able_to


def _naming_an_able_one(
    refused: Refused, weapons: Sequence[Weapon], named: Weapon, fit: Callable[[Weapon], bool]
) -> Refused:
    """The refusal of the weapon taken, naming the first other on the sheet that can make this attack.

    Ruling: the attack form starts on the first ready weapon (``commands.attack_defaults``), worked out before the
    GM sets the range or the targets, so the GM who then sets nearby, or marks a second target, sends the Outlaw's
    Machete while the Revolver could: the refusal says so ("Machete is a melee attack …; the Revolver can make
    this attack (name it, or empty the weapon field)"); nothing is added when no other weapon can
    (tests/systems/blackjack/test_weapon_choice.py::test_a_weapon_refused_names_one_that_can).
    """
    other = next((x for x in weapons if x is not named and fit(x)), None)
    if other is None:
        return refused
    hint = f"the {other.name} can make this attack (name it, or empty the weapon field)"
    return Refused(f"{refused.message}; {hint}", rule=refused.rule)


def _needs_reload(w: Weapon) -> bool:
    """What a reload named needs of a weapon (``find_weapon``'s fit): a firearm jammed or not full."""
    return w.is_firearm and (w.jammed or w.loaded < w.shots)


@rules.on(Attack)
@applies(
    R.PC_ATTACK,
    R.NPC_ATTACK,
    R.AGAINST_NPC,
    R.STATS,
    R.WEAPON_DV,
    R.DV_MODS,
    R.DEFAULT_LEVEL,
    R.SPECIAL,
    R.RECHARGE,
    R.JAM,
    R.IMPACT,
    R.VOLLEY,
)
def _attack(d: Draft, cmd: Attack, dice: Roller) -> None:
    state = d.state
    a = able(state, cmd.actor, "attacker")
    if not data(a).is_pc and data(a).morale == 2:
        raise Refused(f"{a.name} has Morale 2: an NPC of Morale 2 will not fight", rule=R.MORALE_EXTREMES)
    then = "attack next turn"
    used = next((w for w in data(a).weapons if data(a).action == f"fired the {w.name}"), None)
    if used is not None and used.multi not in ("blast", "area"):  # (a blast takes its targets in one: no hint)
        then += " (only a revolver or repeater fires several shots in one action: one attack, a target per shot)"
    one_action(state, a, then)
    if not cmd.targets:
        raise Refused("choose a target")
    targets = [able(state, t, "target").id for t in cmd.targets]
    wi, w = find_weapon(a, cmd.weapon, _able_for(a.name, cmd.range, targets))
    if w.recharge and w.spent and state.current == a.id and w.name in data(a).recharge_rolled:
        raise Refused(
            f"{a.name}'s {w.name} did not recharge this turn (its roll was made): it may recharge next turn; "
            "this turn's action is still free for another attack",
            rule=R.RECHARGE,
        )
    rng = _range(w, cmd.range)
    try:
        _check_weapon(a.name, w, rng, targets)
    except Refused as refused:
        raise _naming_an_able_one(refused, data(a).weapons, w, _able_for(a.name, cmd.range, targets)) from None
    thrown = w.leaves_the_hand and rng != "close"
    # the weapon's kind, as "Deficient in" tests it: a melee weapon thrown at range is no melee (a blow at close
    # range, as "hand-to-hand": test_deficient_words.py::test_phrases_that_must_not_match)
    kind = "" if thrown and w.kind == "melee" else w.kind
    many = len(targets) > 1
    risk = cmd.risk
    if risk == "auto":
        risk = "target" if w.kind == "special" and w.stat else "attacker"
    if risk == "target" and data(a).is_pc:
        raise Refused(
            "the risk goes on the target only when it saves against an NPC's effect: a PC attacking makes its own save",
            rule=R.RISK,
        )
    levels: dict[str, int] = {}
    for each in set(targets):
        slots = len(data(state.get(each)).slots)
        levels[each] = w.level if cmd.level == "default" else level_index(cmd.level, slots)
    if w.recharge and w.spent:
        r = roll("1d6", dice, f"{w.name} recharge")
        need6 = 7 - w.recharge
        d.add(RechargeRolled(actor=a.id, weapon=w.name, weapon_index=wi, roll=r, need=need6, ok=r.total >= need6))
        if r.total < need6:
            return
    tags = _tags(w, cmd.tags)
    mods = [DvPart(label=m.label, value=m.value) for m in cmd.modifiers]
    fired = 0
    for i, tid in enumerate(targets):
        a = d.get(a.id)
        t = d.get(tid)
        ad, td = data(a), data(t)
        if (wi >= 0 and ad.weapons[wi].jammed) or not ad.standing:
            break
        if not td.standing:
            d.add(NoteAdded(text=f"{a.name} holds the shot: {t.name} is already down", id=a.id))
            continue
        if risk == "attacker":
            parts: list[DvPart] = []
            if ad.is_pc and not td.is_pc:
                parts.append(DvPart(label=f"{t.name}'s Threat", value=td.threat))
            if w.multi == "blast" and many:
                parts.append(DvPart(label=f"{w.name}, several targets", value=w.blast_dv))
            elif w.dv:
                parts.append(DvPart(label=w.name, value=w.dv))
            if rng == "nearby" and w.near_dv:
                parts.append(DvPart(label=f"{w.name} at nearby range", value=w.near_dv))
            if rng == "far" and w.far_dv:
                parts.append(DvPart(label=f"{w.name} at far range", value=w.far_dv))
            for mod in td.dv_mods:
                if matches((" ".join(mod.tags),), tags):
                    parts.append(DvPart(label=mod.label, value=mod.value))
            ranged = w.kind in ("firearm", "bow", "blowgun") or thrown or (w.kind == "thrown" and rng != "close")
            stat = "ACC" if ranged else "BODY"
            label = f"attacks {t.name} with the {w.name}"
            making = _making(w, ranged)
            save = blackjack_save(dice, a, stat, parts + mods, label, cmd.deficient, (making, *tags, kind, w.name))
            jammed = bool(w.jam) and save.roll.total >= w.jam
            hit = save.success and not jammed
        else:
            parts = []
            if not ad.is_pc:
                parts.append(DvPart(label=f"{a.name}'s Threat", value=ad.threat))
            label = f"saves against {w.name}"
            save = blackjack_save(dice, t, w.stat or "BODY", parts + mods, label, cmd.deficient, (*tags, kind, w.name))
            jammed = False
            hit = not save.success
        first = i == 0
        fired += 1
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
                thrown=thrown,
                volley=len(targets) if w.is_firearm and w.multi == "shots" else 1,
                level="" if cmd.level == "default" else cmd.level,
                shot=i + 1,
                fired=fired,
            )
        )
        if hit:
            if w.condition and not t.condition(w.condition):
                d.add(ConditionAdded(id=t.id, condition=Condition(name=w.condition, note=w.name)))
            level = levels[t.id]
            if level >= 0:
                sign = -1 if td.is_pc and not ad.is_pc else 1
                shifted, how = impact_shift(level, td.fatal_index, cmd.impact, sign)
                steps = (td.level_name(level), *how, td.level_name(shifted)) if how else ()
                d.add(injury(d.state, t.id, shifted, w.injury or _wound(w), tags, steps))
        if jammed:
            break


@rules.on(Reload)
@applies(R.RELOAD, R.JAM)
def _reload(d: Draft, cmd: Reload, dice: Roller) -> None:
    a = able(d.state, cmd.actor)
    one_action(d.state, a, "reload next turn", R.RELOAD)
    if cmd.weapon:
        wi, w = find_weapon(a, cmd.weapon, _needs_reload)
    else:
        guns = [(i, w) for i, w in enumerate(data(a).weapons) if w.is_firearm]
        if not guns:
            raise Refused(f"{a.name} carries no firearm to reload", rule=R.RELOAD)
        wi, w = min(guns, key=lambda x: (not x[1].jammed, x[1].loaded - x[1].shots))
    if not w.is_firearm:
        raise Refused(f"only firearms reload with lead; the {w.name} is not one", rule=R.RELOAD)
    if w.jammed and w.loaded > 0:
        d.add(Reloaded(actor=a.id, weapon=w.name, weapon_index=wi, lead=0, jam_cleared=True))
        return
    if w.loaded >= w.shots:
        raise Refused(f"{a.name}'s {w.name} is already loaded ({w.loaded}/{w.shots})", rule=R.RELOAD)
    if data(a).lead < 1:
        raise Refused(f"reloading spends 1 lead, and {a.name} has no lead left", rule=R.RELOAD)
    d.add(Reloaded(actor=a.id, weapon=w.name, weapon_index=wi, lead=1, jam_cleared=w.jammed))
