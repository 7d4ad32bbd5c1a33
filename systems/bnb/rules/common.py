"""What every Blood & Bullets action checks: the fight, who may act now, the weapon used, its rate, range and cover.

Rulings made here (GM defaults; a logged GM adjustment overrides any of them):
- A combatant attacks with one weapon a round, as often as its rate allows:
  melee weapons once, missiles and firearms per Tables 11–12; a critter makes
  each listed attack once. Switching to another weapon in the same round is
  refused (the GM can clear "acted" by an adjustment to allow it).
  (tests: test_a_combatant_attacks_with_one_weapon_a_round,
  test_the_gm_can_clear_the_rounds_action_by_an_adjustment)
  Ruling (the lead's, r1 finding 1): an NPC's stat line of weapons ("Spear,
  tomahawk +1", "Bow, knife", "Carbine, sabre", "Long Rifle, Horse Pistol or
  Wood Axe") is the weapons it carries, one a round at its rate of fire, as a
  PC's; only a critter's natural attacks ("Claws, Bite") each come every round.
  The refusal says so ("Brave's 'spear, tomahawk' are weapons it carries: one
  a round"). (test_round4_fixes.py:
  test_an_npc_is_refused_a_second_weapon_in_a_round_and_told_why,
  test_a_black_bear_makes_both_claws_and_bite_in_a_round)
- A melee weapon reaches 5 ft ("in melee"); a throwable one (‡) farther is
  thrown; a critter's listed attack is melee. (test_a_critters_listed_attack_reaches_only_5_ft)
- A surprise round is for the side granted it: the others make no attack,
  Gun-play, blast or reload in it. (test_only_the_side_granted_surprise_acts_in_the_surprise_round)
- Holding (rule ``hold``, binding): a PC may act at any moment of the
  round once its own place in the order has come ("at any time after they were
  due to act"), interrupting others, never before it; NPCs act on their own
  turn only, or with those tied with them (simultaneous).
  (test_a_pc_cannot_act_before_its_place_in_the_order,
  test_npcs_act_on_their_own_turn_but_pcs_may_act_later_in_the_round)
- A combatant dropped by a simultaneous actor (same initiative, DEX and level)
  still takes that round's turn, and may attack in it.
  (test_simultaneous_actors_damage_lands_even_if_one_drops)
"""

from __future__ import annotations

import attrs

from systems.bnb.rules.table import R
from systems.bnb.sheet import OK, BnbData, data
from systems.bnb.tables import MELEE, SHOOTIST, TRAILBLAZER, WEAPON_BY_ID, Carried, Natural, Weapon, find_weapon
from tracker.commands import Modifier
from tracker.errors import Refused
from tracker.kit import need
from tracker.model import Combatant, FightState
from tracker.text import counted

ACTED = "the round's action"  # marks a round's action the GM set as taken (adjust "acted")

APPLIES = (  # the rules these checks decide (rules/table.py)
    R.surprise,  # can_act
    R.hold,  # due
    R.simultaneous,  # simultaneous_drop
    R.one_weapon,  # check_rate
    R.rate_of_fire,
    R.every_other_round,
    R.critter_attacks,
    R.shots,
    R.melee,  # mode
    R.missile,
    R.range,
    R.cover,  # cover, cover_of
    R.cover_condition,
    R.sure_shot,  # favoured
    R.close_fighter,
    R.npc_weapon_bonus,
)


@attrs.frozen
class Use:
    """What an attack is made with: a carried weapon, fists, or a critter's listed attack."""

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


def weapon_use(carried: Carried, rowdy: bool = False) -> Use:
    """The use of a weapon carried; fists listed on a Rowdy sheet (a Trailblazer's) hit for d6, as unlisted ones
    do (bnb l.72: they hit for d3 when the sheet listed them)."""
    w = carried.spec
    sides = 6 if rowdy and w.id == "fists" else w.sides
    return Use(carried.name, carried.name, w.dice, sides, w.plus, w.keep_high, w.temporary, w, carried)


def _fists(d: BnbData) -> Use:
    return Use("fists", "fists", 1, 6 if d.rowdy else 3, 0, False, True, WEAPON_BY_ID["fists"], None)


def natural_use(n: Natural) -> Use:
    return Use(n.name, n.name, 1, n.sides)


def resolve_use(c: Combatant, name: str) -> Use:
    """The weapon or listed attack named (empty: the favoured, else the first one, else fists)."""
    d = data(c)
    key = name.strip().lower()
    if not key:
        fav = next((x for x in d.weapons if x.weapon == d.favoured), None)
        if fav is not None:
            return weapon_use(fav, d.rowdy)
        if d.weapons:
            return weapon_use(d.weapons[0], d.rowdy)
        if d.natural:
            return natural_use(d.natural[0])
        return _fists(d)
    for n in d.natural:
        if n.name == key:
            return natural_use(n)
    carried = d.carried(key)
    if carried is not None:
        return weapon_use(carried, d.rowdy)
    w = find_weapon(key)
    if w is not None and w.id == "fists":
        return _fists(d)
    has = list(dict.fromkeys([x.name for x in d.weapons] + [n.name for n in d.natural] + ["fists"]))
    raise Refused(f"{c.name} carries no '{name.strip()}' (has: {', '.join(has)})")


# ---------------------------------------------------------------------------
# who may act


def simultaneous_drop(state: FightState, c: Combatant) -> bool:
    """Dropped this round by someone acting at exactly the same time: its blow still lands."""
    d = data(c)
    return (
        d.dropped_round == state.round
        and d.dropped_by is not None
        and d.dropped_by != c.id
        and d.dropped_by in state.tied_with(c.id)
    )


def in_fight(state: FightState) -> None:
    if not state.started:
        raise Refused("the fight has not started: roll initiative and start it first")
    if state.ended:
        raise Refused("the fight is over")


def can_act(state: FightState, c: Combatant) -> None:
    """Refused unless ``c`` may take an action now: up, in the surprise round's side, and due to act."""
    if state.round == 0 and state.surprise and c.id not in state.surprise:
        side = ", ".join(state.name(i) for i in state.surprise)
        raise Refused(
            f"the surprise round is for {side}: {c.name} is caught by surprise and acts from round 1", rule=R.surprise
        )
    status = data(c).status
    if status != OK and not simultaneous_drop(state, c):
        raise Refused(f"{c.name} is {status}: the dead, the dying and the unconscious make no attacks", rule=R.death)
    due(state, c)


def due(state: FightState, c: Combatant) -> None:
    """Holding: a PC acts on its turn or any time later in the round; an NPC only on its own turn.

    "Individuals can withhold their initiative and wait for an opportunity to
    act at any time after they were due to act. NPCs can't do this."
    """
    cur = state.current
    if cur is None or c.id == cur or c.id in state.tied_with(cur):
        return
    if not c.is_pc:
        raise Refused(
            f"it is {state.name(cur)}'s turn: NPCs act on their own turn (they may not withhold their action)",
            rule=R.hold,
        )
    if c.held or (c.id in state.order and state.order.index(c.id) < state.turn):
        return  # its place has come this round: a held action may step in at any moment
    at = f" (initiative {c.initiative})" if c.initiative is not None else ""
    raise Refused(
        f"{c.name}{at} is not due yet: it is {state.name(cur)}'s turn, and a PC may hold its action "
        "to act later in the round, never act before its own turn",
        rule=R.hold,
    )


def target(state: FightState, actor: Combatant, cid: str) -> Combatant:
    t = need(state, cid, "target")
    if t.id == actor.id:
        raise Refused(f"{actor.name} cannot attack themself")
    if data(t).status == "dead":
        raise Refused(f"{t.name} is already dead")
    return t


# ---------------------------------------------------------------------------
# rate, range, cover, the favoured weapon


def _one_weapon(c: Combatant, d: BnbData) -> str:
    """Why a second weapon waits: for an NPC whose line lists weapons, that those are weapons it carries."""
    if d.cls or len(d.weapons) < 2:
        return "one weapon a round, at its rate of fire"
    carried = ", ".join(w.name for w in d.weapons)
    return f"{c.name}'s '{carried}' are weapons it carries: one a round, at its rate of fire, as a PC's"


def check_rate(state: FightState, c: Combatant, use: Use) -> None:
    d = data(c)
    if d.reloaded:
        raise Refused(f"reloading took {c.name}'s action this round: a reload is the round's action", rule=R.reload)
    if d.gunplay:
        raise Refused(
            f"{c.name} made Gun-play this round: it takes the round and replaces the guns' rate of fire",
            rule=R.gunplay_targets,
        )
    count = d.used.count(use.key)
    w = use.weapon
    natural = {n.name for n in d.natural}
    if w is None:
        other = next((k for k in d.used if k not in natural), None)
    else:
        other = next((k for k in d.used if k != use.key), None)
    if other == ACTED:
        raise Refused(
            f"{c.name} has taken the round's action (set by the GM): the next attack comes next round",
            rule=R.one_weapon,
        )
    if other is not None:
        raise Refused(f"{c.name} has attacked with the {other} this round: {_one_weapon(c, d)}", rule=R.one_weapon)
    if w is None:
        if count:
            raise Refused(
                f"{c.name} has made the {use.label} attack this round: each listed attack once a round",
                rule=R.critter_attacks,
            )
        return
    limit = 1 if w.kind == MELEE and not w.range else w.per_round
    if count >= limit:
        rof = "½" if w.rof == "1/2" else w.rof
        raise Refused(
            f"the {use.label} allows {counted(limit, 'attack')} a round (rate of fire {rof}): used {count} this round",
            rule=R.rate_of_fire,
        )
    if w.rof == "1/2" and use.carried is not None and use.carried.last_round is not None:
        last = use.carried.last_round
        if state.round - last < 2:
            raise Refused(
                f"the {use.label} fires every other round (rate of fire ½): it fired in round {last}, "
                f"next in round {last + 2}",
                rule=R.every_other_round,
            )
    if use.firearm and use.carried is not None and use.carried.shots <= 0:
        raise Refused(f"the {use.label} is empty: reload it first (it takes the round's action)", rule=R.shots)


def mode(use: Use, distance: int, t: Combatant) -> tuple[bool, Modifier | None]:
    """Melee or missile, and the range modifier; Refused if out of reach or range."""
    if distance < 0:
        raise Refused("the distance cannot be negative")
    w = use.weapon
    if w is None:
        if distance > 5:
            raise Refused(
                f"the {use.label} is a melee attack: {t.name} at {distance} ft is out of reach (melee is within 5 ft)",
                rule=R.melee,
            )
        return True, None
    if w.kind == MELEE and (distance <= 5 or not w.range):
        if distance > 5:
            raise Refused(
                f"the {use.label} is a melee weapon: {t.name} at {distance} ft is out of reach (melee is within 5 ft)",
                rule=R.melee,
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
        f"{t.name} at {distance} ft is out of range: the {use.label} reaches {3 * r} ft (long range is 3× {r} ft)",
        rule=R.range,
    )


COVER = "Cover"  # the condition the rules read (rule cover_condition), stored under this name
COVER_BY_CONDITION = "cover (Cover condition)"  # its modifier's label in the log
DEFAULT_COVER = 2  # a Cover condition with no value set


def cover_of(t: Combatant, value: int) -> Modifier | None:
    """An attack's cover penalty at ``t``: the one the attack sets (``cover``), else the target's Cover
    condition's value (1–4; :data:`DEFAULT_COVER` when none is set) — rule ``cover_condition``."""
    if value:
        return cover(value)
    key = COVER.lower()  # as the GM typed it: "  COVER " is the Cover condition too
    cond = next((x for x in t.conditions if " ".join(x.name.split()).lower() == key), None)
    if cond is None:
        return None
    return Modifier(label=COVER_BY_CONDITION, value=-max(1, min(4, abs(cond.value) or DEFAULT_COVER)))


def cover(value: int) -> Modifier:
    if not 0 <= value <= 4:
        raise Refused(f"cover is a penalty of 1 to 4 set by the Referee, not {value}", rule=R.cover)
    return Modifier(label="cover", value=-value)


STAT_LINE = " (stat line)"  # an NPC's "Pistol +1": its modifier's label ends so (older files: " +1")


def is_favoured(label: str) -> bool:
    """Whether a modifier's label is a favoured weapon's +1 (Sure Shot, Close Fighter, a stat line's "+1")."""
    return label in (R.sure_shot.name, R.close_fighter.name) or label.endswith((STAT_LINE, " +1"))


def favoured(c: Combatant, use: Use) -> Modifier | None:
    """Sure Shot / Close Fighter / an NPC's "Pistol +1": +1 to hit and damage with that weapon."""
    d = data(c)
    if use.weapon is None or not d.favoured or d.favoured != use.weapon.id:
        return None
    label = {SHOOTIST: R.sure_shot.name, TRAILBLAZER: R.close_fighter.name}.get(
        d.cls, f"{use.weapon.name} (stat line)"
    )  # (the value is said after it)
    return Modifier(label=label, value=1)
