"""Zludge 1.0 Alpha: 4dF on the ladder, attack against defense rolls, wound boxes by damage level, fatigue.

The plug-in: ``commands`` (the commands and their forms), ``rules/`` (decide,
by family: initiative, attacks, harm, actions, invoke), ``evolve`` (one
function per event), ``events``, ``model`` (the records), ``sheet`` (the
sheet form and its checks), ``checks`` (the roll), ``views`` (status, detail,
standing, public), ``presets``.  Each module's docstring keeps its rulings;
the general ones made here where the book is silent (binding for the code,
the tests and the help; the rules table is :mod:`systems.zludge.table`):

- *Acting*: a combatant "acts" when its turn starts (each turn is its one action):
  that ends flat-footedness and clears the clip, so a clip's -1 weighs on the
  defense rolls made before the victim's next turn, not on that turn's action.
  Zludge actions (attack, skill roll, first aid, other action) are taken on one's
  own turn, one per turn, while the fight runs; before or after it they are free.
- *Penalties*: every physical roll (attack, defense, initiative, physical checks)
  takes the worst of clipped and wound penalty plus the fatigue penalty; first aid
  (Medical) is not physical and takes only fatigue.  Exhausted is -3 to every
  roll the GM still allows (rule ``exhausted``: "most actions not possible").
- *Fatigue beyond Unconscious*: with no fatigue box left the combatant stays
  Unconscious; the extra fatigue is logged and lost (it does not become a wound).
- *Skill modifier*: -1 + ranks (+2 for a specialization that applies, rank
  modifier at most +4) + the skill's attribute, if the sheet names one.  The rank
  pyramid is not checked (the tracker holds only the fight's skills).
- *GM adjust* edits skills, attributes, aspects and the aspects checked off
  today as the sheet writes them (attributes may go beyond ±1: the GM says so);
  wounds and fatigue change through mark_wound, mark_fatigue, clear_box and the
  quick damage and heal.  An adjust of Durability, Endurance or Fortitude that
  would leave more checked boxes at a level than the track holds is refused.
- *Initiative*: unconscious combatants do not roll; ties that stay tied after 20
  rerolls act simultaneously.
- *Presets*: the weapons and armor of the book's level lists are reference data
  (preset kinds "weapon" and "armor"), not combatants; the people are NPCs.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from tracker.commands import CommandSpec, Delay, Param, StartFight
from tracker.dice import Roll, Roller
from tracker.errors import Refused
from tracker.events import Adjusted, Event
from tracker.kit import need
from tracker.model import Combatant, FightState
from tracker.plugin import BaseSystem, BookCondition, Preset, Standing, Tally
from tracker.reasons import Reason, Rule

from . import commands, events, rules, table, views
from .about import ABOUT
from .conditions import conditions as _conditions
from .contest import contest_spec
from .evolve import evolve as evolve_state
from .fight import ZludgeFight, fight_data
from .model import (
    FATIGUE_STATES,
    INCAPACITATED,
    WOUND_STATES,
    ZludgeData,
    capacity,
    compact_track,
    data,
    ladder,
    overfull,
    parse_track,
)
from .presets import presets as _presets
from .rules import rest as resting
from .sheet import (
    TEXT_FIELDS,
    apply_text_adjust,
    build_data,
    check_text_adjust,
    normalize,
)
from .sheet import adjustable as _adjustable
from .sheet import sheet_fields as _sheet_fields
from .table import R

HELP = """Zludge: 4dF (each die -1, 0, +1) + skill modifier, read on the ladder
+4 Superb, +3 Great, +2 Good, +1 Decent, 0 Fair, -1 Poor, -2 Bad, -3 Terrible, -4 Abysmal.
Skills default to -1 Poor; each rank +1 (at most 3), a specialization +2 (rank modifier at most +4),
plus its attribute. Bulky armor's penalty falls on every Athletics and Acrobatics roll.

Initiative: Reflexes roll, highest first, ties roll again among themselves (same modifiers); the order is kept.
  Ambush (ambush_initiative): ambushers roll Stealth, victims the average of Reflexes and Alertness
  rounded up; unseen ambushers may get a surprise action (start the fight with them as surprise), before
  the rolls if the ambush is declared 'after the surprise action' (rolled as round 1 begins).
Flat-footed until its first turn: no defense roll, fixed defense -1 stationary / 0 moving.
Attack: Melee/Ranged/Unarmed roll vs the defense roll (Acrobatics, or Melee/Unarmed against close attacks).
  Less: miss. Equal: clipped, 0-level damage. More: weapon level - armor level; +4 or more: +1 level.
  Unarmed attacks are 0-level. 0-level damage checks a Scratched box and clips (-1 until the victim's
  next action); below 0: no damage.
  Called shot -2 picks the location; else 1d6: 1 head, 2-3 torso, 4 right arm, 5 left arm, 6 legs,
  rolled for every attack on armor that does not cover every location (it counts only where it covers).
  Situational modifiers ±1 each, labelled. Aspect (once a day): +1 or reroll. One plot point: +1.
  Before the roll in the action's form, or after it with invoke (i), before anything else happens.
Wounds: Scratched 3, Hurt 2, Very Hurt 1, Incapacitated 1, Comatose 1 boxes; a full level checks the next
  higher free box; none above Comatose: death. Durability (0-3 ranks) adds a box to levels 0, 1, 2 in turn;
  Fortitude +1/-1: one Scratched box more/less.
Penalties: Hurt -1, Very Hurt -2, Incapacitated -3 (prone, cannot attack), Comatose -4 (unconscious);
  the worst of clip and wound applies; fatigue adds (Tired -1, Very Tired -2, Exhausted -3 and prone,
  Unconscious: no actions).
First aid: a few minutes' work with bandages, so not while the fight runs: after it (or before it), a
  Medical roll of 0 or more makes each wound impair one level less; a failed physical check or a lost
  physical contest may reopen them (reopen_wounds).
Quick damage: a damage level 0-4 checks one box per target like an attack, armor not counted (fatigue:
  physical fatigue); 'weapon N, armor counts' takes each target's armor off first (below 0: no damage).
  Quick heal: not during a fight (wounds heal over weeks); after it, clears one box of the level.
Skill rolls and contests: 'Medical (First Aid)' names a specialization; a skill the sheet does not
  list rolls untrained (-1 Poor), a typo of one it lists is refused. Each side of a contest takes its
  situational modifiers, an aspect and a plot point, before the roll or after it (i). A skill roll, and
  each side of a contest, is physical (wound and clip penalties) by its skill: Acrobatics, Athletics,
  Reflexes, Stealth, Endurance, Durability, Melee, Ranged, Unarmed yes; Alertness, Medical, Survival and
  others no, unless the GM says otherwise.
Holding (D) is the turn's one action put off: one who has taken it has none to hold."""

# what the help's list of actions adds to a key (the list itself comes from the commands' specs)
ACTION_NOTES = {"invoke": "aspect or plot point after the roll", "act": "any other action"}


def actions_help(specs: Sequence[CommandSpec]) -> str:
    """The help's list of actions with their keys, from the commands' specs: typed by hand it named the ambush's
    key as A (the core's Add; the key is b) and left out contest (k). Test: test_skill_names.py::test_help_*."""
    parts = []
    for s in specs:
        inside = ": ".join(x for x in (s.key, ACTION_NOTES.get(s.name)) if x)
        parts.append(f"{s.name} ({inside})" if inside else s.name)
    return textwrap.fill("Actions: " + ", ".join(parts) + ".", width=100, subsequent_indent="  ")


class ZludgeSystem(BaseSystem):
    about = ABOUT
    event_types = (*events.EVENT_TYPES, *resting.REST_EVENTS, events.ContestRolled)
    rest_qualities = resting.QUALITIES
    fight_only = ("acted", "spent", "clipped")  # not carried by a party kept as it is now

    # -- sheets --------------------------------------------------------------
    def sheet_fields(self, kind: str) -> tuple[Param, ...]:
        return _sheet_fields(kind)

    def presets(self) -> tuple[Preset, ...]:
        return _presets()

    def new_combatant(
        self, state: FightState, kind: str, sheet: Mapping[str, Any], dice: Roller
    ) -> tuple[dict[str, Any], tuple[Roll, ...]]:
        parsed, _ = super().new_combatant(state, kind, sheet, dice)
        return normalize(kind, parsed), ()

    def make_data(self, kind: str, sheet: Mapping[str, Any]) -> ZludgeData:
        return build_data(normalize(kind, sheet, strict=False))

    def initial_data(self) -> ZludgeFight:
        return ZludgeFight()

    # -- order ---------------------------------------------------------------
    def roll_initiative(self, state: FightState, ids: tuple[str, ...], dice: Roller) -> list[Event]:
        return rules.initiative(state, ids, dice)

    def initiative_tiebreak(self, combatant: Combatant) -> tuple[Any, ...]:
        return tuple(data(combatant).init_tiebreak) if combatant.data else ()

    def check_core(self, state: FightState, command: Any) -> None:
        """The ambush's surprise round (below), and the held action: one action a turn (l.104), so a held action
        is the turn's one action taken later in the round.

        Ruling (rule ``hold``): one who has taken its turn's action has none left to hold; the hold is refused
        (it once passed, and acting on the held turn gave a second action in the same round). The GM's adjust
        "Has taken this turn's action: no" frees it.  Tests: test_round4_table.py::
        test_one_who_has_acted_cannot_hold_the_action_and_the_gm_can_free_it."""
        if isinstance(command, Delay) and state.current is not None and state.started and not state.ended:
            c = state.find(command.id or state.current) or state.by_name(command.id or "")
            if c is not None and c.id == state.current and data(c).spent:
                raise Refused(
                    f"{c.name} has taken this turn's action: holding it now would give a second one this round; "
                    "end the turn (GM adjust 'Has taken this turn's action: no' frees it)",
                    rule=R.hold,
                )
        fd = fight_data(state)
        if isinstance(command, StartFight) and fd.ambush_waits:
            able = [i for i in command.surprise if not data(need(state, i)).unconscious]
            if not able:
                raise Refused(
                    "the ambush initiative waits for the surprise action: mark an unseen ambusher able to act for "
                    "the surprise round (or roll the ambush initiative now, b)",
                    rule=R.surprise,
                )
        if isinstance(command, StartFight) and command.surprise:
            ambushers = fd.ambushers
            for cid in command.surprise:
                c = need(state, cid)
                if c.id not in ambushers:
                    raise Refused(
                        f"only an unseen ambusher gets a surprise action, and {c.name} is not one "
                        "(roll ambush initiative naming the ambushers first)",
                        rule=R.surprise,
                    )

    def takes_turns(self, state: FightState, combatant: Combatant) -> bool:
        return not data(combatant).unconscious

    # -- commands ------------------------------------------------------------
    def commands(self) -> tuple[CommandSpec, ...]:
        return (*commands.specs(), contest_spec())

    def rest(self, state: FightState, command: Any, dice: Roller) -> list[Event]:
        return resting.rest(state, command, dice)

    def decide(self, state: FightState, command: Any, dice: Roller) -> list[Event]:
        if not rules.rules.knows(command):
            return super().decide(state, command, dice)
        return rules.decide(self, state, command, dice)

    # the module's evolve itself (not a method calling it: a long log's fold calls it for every event)
    evolve = staticmethod(evolve_state)

    def harm_params(self, heal: bool) -> tuple[Param, ...]:
        return commands.harm_params(heal)

    def react(self, before: FightState, events: Sequence[Event], after: FightState) -> list[Event]:
        """Harm raises no prompt in Zludge (see ``rules.harm``); a combatant removed leaves its prompt closed."""
        return rules.react(before, events, after)

    # -- showing -------------------------------------------------------------
    def standing(self, state: FightState, combatant: Combatant) -> Standing:
        if combatant.removed:
            return super().standing(state, combatant)
        return views.standing(combatant)

    def status(self, state: FightState, combatant: Combatant) -> str:
        return views.status(combatant, state.started and not state.ended)

    def detail(self, state: FightState, combatant: Combatant) -> str:
        text = views.detail(combatant, state.started and not state.ended)
        rolled = data(combatant).init_tiebreak
        if not rolled:
            return text
        # how its tie was broken, under its title: the table showed equal initiatives in an order nothing explained
        title, _, rest = text.partition("\n")
        tie = "Tie rolled again: " + ", then ".join(ladder(t) for t in rolled)  # (one line at 80x24)
        return "\n".join(x for x in (title, tie, rest) if x)

    def public(self, state: FightState, combatant: Combatant) -> str:
        return views.public(combatant)

    def help(self) -> str:
        return f"{HELP}\n\n{actions_help(self.commands())}"

    # -- why -----------------------------------------------------------------
    def rules(self) -> tuple[Rule, ...]:
        return table.rules()

    def explain(self, before: FightState, event: Event, after: FightState) -> tuple[Reason, ...]:
        from . import why  # imported on first use: a launch explains nothing (see screens/launch.py)

        return why.explain(before, event, after)

    def conditions(self) -> tuple[BookCondition, ...]:
        return _conditions()

    def surprise(self, state: FightState) -> tuple[str, ...]:
        """Ruling: the ambushers declared (``b``) are marked for the surprise round the start form offers; an
        ambusher the victims saw gets none (only an unseen one may act, seeds/zludge "surprise action"), and the
        GM unmarks it."""
        return fight_data(state).ambushers

    # -- GM adjust -----------------------------------------------------------
    def adjustable(self, state: FightState, combatant: Combatant) -> tuple[Param, ...]:
        return _adjustable()

    def check_adjust(self, state: FightState, combatant: Combatant, field: str, value: Any) -> Any:
        """Ruling (as blackjack's "Has acted this turn"): "Has taken this turn's action: yes" is for the one whose
        turn it is in the running fight; on anyone else its own turn's start would wipe it unsaid, so it is
        refused. "no" frees the turn's action (a second action the GM allows, or a hold after it).
        Test: test_round4_table.py::test_one_who_has_acted_cannot_hold_the_action_and_the_gm_can_free_it."""
        if field == "spent":
            checked = super().check_adjust(state, combatant, field, value)
            if checked and (state.current != combatant.id or not state.started or state.ended):
                raise Refused(
                    f"only the one whose turn it is can be marked as having taken its action: {combatant.name}'s "
                    "own turn starts with its action free",
                    rule=R.turn,
                )
            return checked
        if field in TEXT_FIELDS:
            return check_text_adjust(data(combatant), field, value)
        if field in TRACK_FIELDS:
            d = data(combatant)
            fatigue = field == "fatigue_track"
            cap, names = (d.fatigue_capacity, FATIGUE_STATES) if fatigue else (d.wound_capacity, WOUND_STATES)
            return compact_track(parse_track(str(value or ""), cap, names, fatigue), cap)
        checked = super().check_adjust(state, combatant, field, value)
        d = data(combatant)
        if field in ("durability", "fortitude"):
            ranks, fort = (checked, d.fortitude) if field == "durability" else (d.durability, checked)
            _check_track(combatant.name, d.wounds, capacity(ranks, fort), WOUND_STATES, field)
        if field == "endurance":
            _check_track(combatant.name, d.fatigue, capacity(checked, 0), FATIGUE_STATES, field)
        return checked

    def adjust(self, state: FightState, combatant: Combatant, field: str, value: Any) -> Combatant:
        if field in TRACK_FIELDS:
            d = data(combatant)
            fatigue = field == "fatigue_track"
            cap, names = (d.fatigue_capacity, FATIGUE_STATES) if fatigue else (d.wound_capacity, WOUND_STATES)
            boxes = parse_track(str(value or ""), cap, names, fatigue)
            record = attrs.evolve(d, fatigue=boxes) if fatigue else attrs.evolve(d, wounds=boxes)
            return attrs.evolve(combatant, data=record)
        if field in TEXT_FIELDS:
            return attrs.evolve(combatant, data=apply_text_adjust(data(combatant), field, str(value or "")))
        return super().adjust(state, combatant, field, value)

    def tally(self, state: FightState, event: Event) -> Tally | None:
        if isinstance(event, events.AttackResolved):
            return Tally(actor=event.actor, target=event.target, hit=event.outcome != "miss")
        if isinstance(event, events.ContestRolled):
            return _contest_tally(state, event)
        if isinstance(event, events.RollRevised) and event.side == "contest":
            return _revised_contest_tally(state, event)
        if isinstance(event, events.RollRevised) and event.outcome:
            # an aspect or plot point after the roll: the attack's outcome now is the revised one
            last = fight_data(state).last_roll
            if last is not None and isinstance(last.event, events.AttackResolved):
                a = last.event
                return Tally(actor=a.actor, target=a.target, hit=event.outcome != "miss", revises=True)
            return None
        if isinstance(event, events.HarmTakenBack):
            taken = len(data(state.get(event.target)).wounds) - len(event.wounds)
            return Tally(target=event.target, harm=-taken) if taken > 0 else None
        if isinstance(event, events.WoundMarked):
            before = data(state.get(event.target))
            fell = event.box is None or (event.box >= INCAPACITATED and before.wound_effect < INCAPACITATED)
            return Tally(target=event.target, harm=1, fell=fell)
        if isinstance(event, Adjusted) and event.field == "wound_track" and isinstance(event.value, str):
            before = data(state.get(event.id))
            added = sum(ch.isdigit() for ch in event.value) - len(before.wounds)
            return Tally(target=event.id, harm=added) if added > 0 else None
        return None


TRACK_FIELDS = ("wound_track", "fatigue_track")

# the players' lines of a contest (ruling in ``_contest_tally``)
_PLACE = ("{actor}", "{target}")


def _skills(first: events.ContestSide, second: events.ContestSide) -> str:
    """ "{actor} and {target} contest Athletics", "{actor} Stealth against {target} Alertness": the skills without
    a specialization (an NPC's sheet is not the players' to read)."""
    a, b = (s.skill.split("(")[0].strip() for s in (first, second))
    return f"{{actor}} and {{target}} contest {a}" if a == b else f"{{actor}} {a} against {{target}} {b}"


def _who(ev: events.ContestRolled, cid: str | None) -> str:
    return _PLACE[0] if cid == ev.first.id else _PLACE[1]


def _contest_tally(state: FightState, ev: events.ContestRolled) -> Tally | None:
    """The players' line of a contest round, without numbers: who contested what, and who won.

    Ruling (players' view; twod6's opposed check gives "Marla Intimidate vs Goblin: succeeds"): a contest between
    two combatants the players see says "Ann and Grunk contest Athletics: Grunk wins" (a tie or equal scores:
    "a tie, both roll again"; roll 2 on names its roll), never a number nor a specialization; a hidden side is never
    named (the view gives no line at all then, as for an attack); an NPC's Stealth as the first side is no line (as
    twod6's NPC sneak: how it went is what the PCs missed).  With NPC numbers shown the event's own line is shown.
    A zludge contest once gave the players no line in the default view.
    Tests: tests/systems/zludge/test_contest_view.py."""
    first = state.find(ev.first.id)
    if ev.first.skill.split("(")[0].strip().lower() == "stealth" and not (first and first.is_pc):
        return None
    head = _skills(ev.first, ev.second)
    if ev.round > 1:
        head += f", roll {ev.round}"
    out = f"{_who(ev, ev.winner)} wins" if ev.winner else "a tie, both roll again"
    return Tally(actor=ev.first.id, target=ev.second.id, deed=f"{head}: {out}")


def _revised_contest_tally(state: FightState, rr: events.RollRevised) -> Tally | None:
    """An aspect or plot point after a contest's roll, for the players: "Ann invokes 'Quick' after the roll: Ann and
    Grunk's Athletics contest is worked out again: a tie, both roll again".  A PC's aspect is named (the players'
    own), an NPC's is "an aspect"; no total.  (Ruling in :func:`_contest_tally`.)"""
    last = fight_data(state).last_roll
    if last is None or not isinstance(last.event, events.ContestRolled):
        return None
    ev = last.event
    if _contest_tally(state, ev) is None:
        return None
    who = state.find(rr.who)
    spent = []
    if rr.aspect:
        spent.append(f"invokes '{rr.aspect}'" if who is not None and who.is_pc else "invokes an aspect")
    if rr.plot_point:
        spent.append("spends a plot point")
    out = f"{_who(ev, rr.winner)} wins" if rr.winner else "a tie, both roll again"
    a, b = (side.skill.split("(")[0].strip() for side in (ev.first, ev.second))
    what = f"{{actor}} and {{target}}'s {a} contest" if a == b else f"{{actor}}'s {a} against {{target}}'s {b}"
    said = f"{_who(ev, rr.who)} {' and '.join(spent)} after the roll: {what} is worked out again"
    return Tally(actor=ev.first.id, target=ev.second.id, deed=f"{said}: {out}")


def _check_track(name: str, boxes: Any, cap: tuple[int, ...], names: tuple[str, ...], field: str) -> None:
    lvl = overfull(boxes, cap)
    if lvl is not None:
        have = sum(1 for b in boxes if b.level == lvl)
        raise Refused(
            f"{name} has {have} {names[lvl]} boxes checked and that {field} leaves room for {cap[lvl]}: "
            "clear a box first",
            rule=R.boxes,
        )


system = ZludgeSystem()
