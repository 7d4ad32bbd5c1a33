"""What every family of blackjack rules shares: the registry, who can act, weapons and workings by name, sides.

Rulings made here (beyond the rules table: ``fists``, ``casualty``), each named in a test:
- Anyone can fight with Fists (lesser, bludgeoning) even when the sheet lists
  none: "Fists" (or "unarmed") names them, and a combatant with no weapons
  on the sheet attacks with them (``test_anyone_can_punch_with_fists_for_a_lesser_injury``).
- A side is the NPCs sharing a group; ungrouped NPCs are one side
  (``test_morale_sides_are_groups_and_ungrouped_npcs_are_one_side``).
- Ruling: one action a turn. An attack (a revolver's or repeater's volley of several shots is one action,
  a shotgun blast one, any other weapon one shot or blow; an NPC's special one), a reload, ingesting lead
  and casting a working each take the combatant's action for its turn (l.189 "spend lead and an action to
  reload", l.194–196 "multiple shots per round" for revolver and repeater only, l.221 "ingesting lead as an
  action … and subsequently activating a working using another action"); a second one in the same turn is
  refused in the rule's words and waits for the combatant's next turn. An attack takes one weapon, so an
  Outlaw's second revolver fires on a later turn (one revolver already fires several shots in one action).
  Saves, morale, Arguin', treatment, injuries and the GM's commands take no action. Out of the fight's turns
  (before it starts, after it ends) nothing is limited: outside combat ingesting takes 10 seconds. A failed
  recharge roll takes no action (the creature does something else), but is rolled once a turn. A combatant
  that has acted cannot hold its action; a turn resumed after a held action stepped in keeps its action.
  The GM frees the turn's action with the adjust "Has acted this turn" set to no. The refusal cites the rules
  table's ``one_action`` ("One action a turn", ruling on l.221), or the rule of the action taken when it says so
  itself (ingesting, casting: l.221; reloading: l.217), or after a gun fired shot by shot the volley's rule its
  hint explains
  (``tests/systems/blackjack/test_one_action.py``: ``test_ingesting_takes_the_turn_and_casting_waits_for_the_next``,
  ``test_a_pistol_fires_once_a_turn_a_revolver_volley_is_one_action``,
  ``test_reload_takes_the_turns_action``, ``test_nothing_is_limited_out_of_the_fights_turns``,
  ``test_the_gm_frees_the_turns_action_by_an_adjustment``, ``test_a_failed_recharge_takes_no_action_once_a_turn``,
  ``test_an_npc_special_takes_the_turns_action``, ``test_one_who_acted_cannot_hold_the_action``,
  ``test_a_turn_resumed_after_a_held_action_keeps_its_action``).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from tracker.errors import Refused
from tracker.kit import Rules, need
from tracker.model import Combatant, FightState
from tracker.reasons import Rule

from ..presets import WEAPONS
from ..records import Weapon, Working, data
from ..table import R, applies

rules = Rules()

FISTS = WEAPONS["fists"]
BARE_HANDS = ("fists", "fist", "unarmed", "punch", "bare hands")


def able(state: FightState, cid: str | None, what: str = "combatant") -> Combatant:
    """A combatant who can still act: not dead (Fatal), not fled or surrendered."""
    c = need(state, cid, what)
    d = data(c)
    if d.dead:
        raise Refused(f"{c.name} is dead (a Fatal injury) and cannot act", rule=R.FATAL)
    if d.out:
        raise Refused(f"{c.name} has {d.out} and is out of the fight", rule=R.MORALE)
    return c


def action_rule(action: str) -> Rule:
    """The rule that makes the action already taken one action: ingesting or casting (l.221) and reloading
    (l.217) say so themselves; an attack, an NPC's special and the action the GM marked taken come under the
    one-action ruling (``one_action``). It cited the revolver's "Multiple shots" for a knife or a Bear hug
    (``tests/systems/blackjack/test_why_round3.py::test_a_second_action_after_a_knife_or_a_bear_hug_cites_one_action_a_turn``).
    """
    if action.startswith(("ingested", "cast", "tried to cast")):
        return R.INGEST
    if action.startswith(("reloaded", "cleared")):
        return R.RELOAD
    return R.ONE_ACTION


def _fired_one_by_one(c: Combatant, done: str) -> bool:
    """Whether the action taken fired a gun one shot at a time (not a shotgun's blast): a second attack after it
    is refused with the volley's hint, so it cites the volley's rule (a revolver fires its shots in one action)."""
    return any(done == f"fired the {w.name}" and w.multi not in ("blast", "area") for w in data(c).weapons)


@applies(R.ONE_ACTION, R.INGEST, R.RELOAD, R.VOLLEY)
def one_action(state: FightState, c: Combatant, then: str, rule: Rule | None = None) -> None:
    """Refused when ``c`` has taken its action in its current turn of the fight: ``then`` says what waits for its
    next turn ("cast the working next turn"); ``rule``, the rule of the action asked for (by default, for an
    attack: after a gun fired one shot at a time the volley's rule, its hint's; else the one that makes the
    action taken one action, :func:`action_rule`)."""
    if state.current != c.id:
        return
    done = data(c).action
    if done:
        if rule is None:
            rule = R.VOLLEY if _fired_one_by_one(c, done) else action_rule(done)
        raise Refused(f"{c.name} has taken this turn's action ({done}): {then}", rule=rule)


def alike_weapons(ws: tuple[Weapon, ...] | list[Weapon], named: Weapon) -> list[int]:
    """The indexes of the weapons alike to ``named``: one carried twice or more is "Revolver", "Revolver 2"…
    (``sheet.parse_weapons`` numbers the second and later), so "Revolver 2" is alike only to a "Revolver" carried
    too (a "Colt 45" alone has none)."""
    base = re.sub(r"\s+\d+$", "", named.name).lower()
    if not any(w.name.lower() == base for w in ws):
        base = named.name.lower()
    pattern = re.compile(re.escape(base) + r"(\s+\d+)?")
    return [i for i, w in enumerate(ws) if pattern.fullmatch(w.name.lower())]


@applies(R.FISTS, R.ALIKE)
def find_weapon(c: Combatant, name: str, fit: Callable[[Weapon], bool] | None = None) -> tuple[int, Weapon]:
    """The named weapon (exact, then by prefix); empty: the first ready one that ``fit`` takes; Fists are always at
    hand (index -1). ``fit`` is what the caller needs of the weapon (by default: ready, ``Weapon.ready``).

    Ruling: two alike ("2 Revolvers" → "Revolver", "Revolver 2"; "Throwing knife x2") are one kind of weapon
    carried twice, and the tracker's number is not the GM's choice: naming either takes, of the two, the named one
    if it fits, else the first other that fits (an Outlaw naming "Revolver" when it is empty fires the loaded
    "Revolver 2", and the log names "Revolver 2"; reloading "Revolver" reloads the empty one). When none fits,
    the one named, or one not lying on the floor, is taken and refused in the rule's words ("empty … reload")
    (``tests/systems/blackjack/test_weapon_choice.py``: ``test_naming_an_empty_revolver_fires_the_loaded_one_of_two_alike``,
    ``test_naming_revolver_2_when_it_is_empty_fires_the_first_and_a_loaded_named_one_is_kept``,
    ``test_a_volley_named_takes_the_revolver_holding_enough_shots``, ``test_both_revolvers_empty_is_refused_as_before``,
    ``test_reloading_a_named_revolver_reloads_the_empty_one_of_two_alike``). The rules table's ``alike``; the
    attack's Why? says what the state showed of the other alike (empty, jammed, on the floor, too few shots), since
    the event keeps the weapon fired, not the name asked for
    (``tests/systems/blackjack/test_why_round3.py::test_why_says_the_other_alike_revolver_was_empty``).

    Ruling: an empty weapon field takes the first weapon in the sheet's order that is ready and fits (the attack:
    one that can make the attack asked for, its range and its targets, ``rules/attacks.py``); if none fits, the
    first ready one (refused in the rule's words), then the first. No kind is preferred (a loaded firearm is not
    put before the Machete the sheet lists first): the sheet's order is what the GM sees, the attack form starts
    on the same weapon (``commands.attack_defaults``: with the range on auto and one target they agree), and the
    tracker keeps no weapon "last used" across turns to guess from. The GM who wants another weapon names it,
    or sets the range or targets that only it can reach (``test_an_empty_weapon_field_takes_the_first_ready_weapon_that_can_make_the_attack``,
    ``test_an_empty_field_with_nothing_able_is_refused_on_the_first_ready_weapon``).
    """
    ws = data(c).weapons
    ok: Callable[[Weapon], bool] = fit or (lambda w: w.ready)
    key = name.strip().lower()
    if key:
        exact = [(i, w) for i, w in enumerate(ws) if w.name.lower() == key]
        found = exact + [(i, w) for i, w in enumerate(ws) if w.name.lower().startswith(key) and (i, w) not in exact]
        if found:
            named = found[0]
            alike = [named] + [(i, ws[i]) for i in alike_weapons(ws, named[1]) if i != named[0]]
            picked = next((x for x in alike if ok(x[1])), None)
            if picked is not None:
                return picked
            # none fits: one still in hand (as before), refused by the caller in the rule's words
            return next(((i, w) for i, w in found if not w.dropped), named)
        if key in BARE_HANDS:
            return -1, FISTS
        have = ", ".join(w.name for w in ws) or "nothing"
        raise Refused(f"{c.name} has no weapon '{name}' (has: {have}; anyone can use Fists)", rule=R.FISTS)
    if not ws:
        return -1, FISTS
    ready = [(i, w) for i, w in enumerate(ws) if w.ready]
    return next((x for x in ready if ok(x[1])), ready[0] if ready else (0, ws[0]))


def find_working(c: Combatant, name: str) -> tuple[int, Working]:
    key = name.strip().lower()
    for exact in (True, False):
        for i, w in enumerate(data(c).workings):
            if (w.name.lower() == key) if exact else (key and w.name.lower().startswith(key)):
                return i, w
    raise Refused(f"{c.name} does not know a working called '{name}' (workings must be learned)", rule=R.LEARNED)


def side_of(c: Combatant) -> str:
    return c.group or "NPCs"
