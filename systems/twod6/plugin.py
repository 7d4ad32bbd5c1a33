"""2d6 Core Rules Gamma: opposed 2d6 checks with rolling criticals, wounds with resolve
thresholds, and an action economy of quick, half-round and full-round actions.

The plug-in: ``commands`` (verbs and forms), ``rules`` (decide, by family, and react), ``evolve``,
``events``, ``sheet``, ``checks`` (the 2d6 roll), ``presets``.  Each module's docstring keeps the
rulings of our own that it implements, each with its test.  In this module, each with its test:

- The GM may set who grapples a combatant (the holder's side follows; empty frees both)
  (test_gm_frees_a_grapple_and_both_sides_let_go), its useless limbs as text ("left leg -3")
  (test_gm_heals_or_sets_useless_limbs_as_text) and the half-round actions it loses next turn
  (test_gm_sets_the_half_round_actions_lost_next_turn); lowering the most wounds lowers the wounds
  left with it (test_lowering_the_most_wounds_lowers_the_wounds_left).
- Initiative ties reroll the whole initiative check (2d6 + PER + AGI) among the tied only, again and
  again while they still tie, and the rerolls only order the tied (the initiative shown stays the
  first roll); initiative the GM sets by hand is not rerolled
  (test_initiative_is_2d6_plus_per_plus_agi_and_ties_reroll_among_the_tied). The dead tie with no one: a
  newcomer on a dead combatant's initiative rolls no tie with it (test_a_newcomer_tied_with_the_dead_rolls_no_tie_with_them).
- What the GM sees: ``standing`` is "dead" or "unconscious" (out of the fight); ``status`` starts
  with the wounds, then "grappled" (or "entangled"), the actions left to the current combatant, the
  cinematics, then the other flags as words, most important first (names in the detail pane: ruling in
  ``TwoD6System.status``);
  ``public`` tells the players fresh / wounded / badly wounded (1 left) / down / dead, never a number
  (test_standing_status_and_public_for_each_state).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import attrs

from systems.twod6 import rules, table
from systems.twod6.about import ABOUT
from systems.twod6.checks import two_d6
from systems.twod6.commands import SPECS
from systems.twod6.events import (
    EVENT_TYPES,
    AttackRolled,
    ContestRolled,
    EffectApplied,
    InitiativeTieRolled,
    OpposedRolled,
    ResolveRolled,
    Reworked,
    Wounded,
)
from systems.twod6.evolve import evolve
from systems.twod6.presets import PRESETS
from systems.twod6.record import Data, data, make_data
from systems.twod6.rules import rest as resting
from systems.twod6.rules import turn_flags
from systems.twod6.rules.harm import check_dismiss
from systems.twod6.sheet import STAT_MAX, STAT_MIN, STATS, Item, check_sheet, parse_limbs, sheet_fields
from systems.twod6.table import R, applies
from tracker.commands import BOOL, COMBATANT, INT, STR, CommandSpec, Delay, DismissPrompt, Param
from tracker.dice import Roll, Roller
from tracker.errors import Refused
from tracker.events import Adjusted, Event, InitiativeSet, OrderSet
from tracker.kit import need
from tracker.model import Combatant, FightState, changed
from tracker.plugin import FIT, BaseSystem, BookCondition, Preset, Standing, Tally
from tracker.reasons import Reason, Rule

MAX_TIE_ROUNDS = 20

HELP = """2d6 Core Rules Gamma
Checks: 2d6 + skill ranks + stat + item ≥ DC. Snake eyes (2) fail; 11 or 12 count as 11 and roll
2d6 more (no bonuses), again on 11/12. Opposed in combat: tie to the defender.
Initiative: 2d6 + PER + AGI; ties reroll among the tied; the order is kept.
Turn: two quick actions and two half-round actions (or one full-round); only a whole turn is held (D).
Attack: full-round (half with Multiattack). Aim: full-round, +PER (min +1) on the next ranged check, ×2 with Sniper
on shooting, archery or throwing; spent by the check that takes it (a melee attack keeps it).
Attack vs defense: shooting/archery are defended by 2d6 + armor alone (or Repel Attack).
Armor light/medium/heavy: +1/+2/+3 defense, −1/−2/−3 on melee attacks, throwing, casting and
athletics (a melee parry too, as the book's worked example counts it); medium or heavy without Armor Proficiency defends at +1 only.
Favored Enemy: +1 on attack and defense against that race. Stealth first: a weapon attack, Intimidate or
Diplomacy meets armor only (+1 with Sneak Attack for it).
Opposed check (o): Intimidate vs Resolve, Bluff vs Notice or Bluff, Diplomacy vs Diplomacy, Stealth vs
Notice, Perform vs Perform, Cast vs Cast or Resolve…; the higher total wins, a tie to the one opposing.
Declare the result first: wound, disarm, distract; melee also knock out, trip, shove, grapple (unarmed).
×2: the declared result lands, then a second result (or a second wound), or a limb and a wound;
choose it before the resolve check: one check a blow, the lowest threshold's.
×3: also DC 7 resolve or die (rolled first), then unconscious either way.
Wounds 3 + TOU (+1 Extra Wound): at 2 left DC 7, at 1 left DC 9 resolve or unconscious; at 0
unconscious, then DC 7 (−3) or die; any wound at 0 kills. Unconscious: −3, no bonus on defense.
Quick damage and healing count wounds (1, 1+1, 1d3); healing from 0 wakes.
Cinematics: extra turn, reroll a failed check (until its own next turn), automatic critical (before
the roll), ignore death.
Keys: a attack · i aim · m move/other · s stealth · k skill check · o opposed check · b break grapple ·
g negate · r resolve · d doubled result · v vicious parry/spell turning · c cinematic"""


_ADJUST_NAMES: frozenset[str] | None = None


class TwoD6System(BaseSystem):
    about = ABOUT
    event_types = EVENT_TYPES + resting.REST_EVENTS + turn_flags.EVENTS
    rest_qualities = resting.QUALITIES
    fight_only = (
        "quick",
        "half",
        "aim",
        "distracted",
        "grappled_by",
        "prone",
        "negated",
        "disarmed",
    )  # not carried by a party kept as it is now
    # what the prompts carry for the rules to read back, beyond the fields of the form they open
    prompt_data = {
        "resolve": ("dc", "knockout", "by", "penalty", "rule"),
        "double_result": ("declared", "skill", "attack_total", "landed", "times"),
        "riposte": ("kind", "dc"),
    }

    # -- sheets -------------------------------------------------------------
    def sheet_fields(self, kind: str) -> tuple[Param, ...]:
        return sheet_fields(kind)

    def presets(self) -> tuple[Preset, ...]:
        """The book's presets."""

        return PRESETS

    def new_combatant(
        self, state: FightState, kind: str, sheet: Mapping[str, Any], dice: Roller
    ) -> tuple[dict[str, Any], tuple[Roll, ...]]:
        return check_sheet(sheet), ()

    def make_data(self, kind: str, sheet: Mapping[str, Any]) -> Data:
        return make_data(kind, sheet)

    # -- initiative -----------------------------------------------------------
    def _init_roll(self, c: Combatant, dice: Roller, label: str) -> Roll:
        r = two_d6(dice, label)
        d = data(c)
        mod = d.stat("per") + d.stat("agi")
        return attrs.evolve(r, expr=f"2d6{mod:+d}" if mod else "2d6", modifier=mod, total=r.total + mod)

    @applies(R.INITIATIVE, R.INITIATIVE_TIE)
    def roll_initiative(self, state: FightState, ids: tuple[str, ...], dice: Roller) -> list[Event]:
        events: list[Event] = []
        keys: dict[str, tuple[int, ...]] = {}
        for i in ids:
            c = state.get(i)
            r = self._init_roll(c, dice, f"{c.name} initiative")
            events.append(InitiativeSet(id=i, value=r.total, roll=r, note="2d6 + PER + AGI"))
            keys[i] = (r.total,)
        for c in state.combatants:
            if not c.removed and c.id not in keys and c.initiative is not None:
                keys[c.id] = (c.initiative, *data(c).init_tiebreak)
        # a tie that involves a fresh roll rerolls among all who share that initiative, but the dead: they take no
        # more turns, so they keep their place and roll nothing (ruling; a newcomer tied with them only rolls none)
        pending = []
        for group in _groups(keys, lambda k: k[:1]):
            living = tuple(i for i in group if not data(state.get(i)).dead)
            if len(living) > 1 and any(i in ids for i in living):
                pending.append(living)
        for g in pending:
            for i in g:
                keys[i] = keys[i][:1]
        for _ in range(MAX_TIE_ROUNDS):
            if not pending:
                break
            nxt: list[tuple[str, ...]] = []
            for g in pending:
                depth = len(keys[g[0]]) - 1
                rolls = tuple(self._init_roll(state.get(i), dice, f"{state.name(i)} initiative tie") for i in g)
                values = tuple(r.total for r in rolls)
                events.append(InitiativeTieRolled(ids=g, rolls=rolls, values=values, depth=depth))
                for i, v in zip(g, values, strict=True):
                    keys[i] = (*keys[i], v)
                nxt += [h for h in _groups({i: keys[i] for i in g}, lambda k: k) if len(h) > 1]
            pending = nxt
        order = tuple(sorted(keys, key=lambda i: keys[i], reverse=True))
        ties = tuple(g for g in _groups(keys, lambda k: k) if len([i for i in g if not data(state.get(i)).dead]) > 1)
        rest = tuple(c.id for c in state.combatants if not c.removed and c.id not in keys)
        events.append(OrderSet(order=order + rest, ties=ties, note="by initiative"))
        return events

    # -- turns, commands ---------------------------------------------------------
    def check_core(self, state: FightState, command: Any) -> None:
        """A prompt dismissed (``check_dismiss``), and the held turn.

        Ruling (rule ``hold``; the book gives a round's actions, @48608, and says nothing of holding): a held turn
        comes back whole as the combatant steps in (two quick and two half-round actions), so only a turn with all
        its actions left may be held; once it has spent any (a quick action too), or lost a half-round action to
        a distraction, the hold is refused, and the GM's adjust of "Quick actions left" and "Half-round actions
        left" back to 2 frees it. The free Graceful move spends no action and does not stop a hold. A hold once
        passed after a full-round attack, and the held turn gave a second attack in the same round.
        Tests: test_round4_table.py::test_a_turn_with_actions_spent_cannot_be_held,
        test_a_turn_with_only_a_quick_action_spent_cannot_be_held_either,
        test_a_whole_turn_can_be_held_and_comes_back_whole, test_the_gm_frees_the_hold_by_giving_the_actions_back."""
        if isinstance(command, DismissPrompt):
            check_dismiss(state, command)
        if isinstance(command, Delay) and state.current is not None and state.started and not state.ended:
            c = state.find(command.id or state.current) or state.by_name(command.id or "")
            if c is not None and c.id == state.current and isinstance(c.data, Data):
                d = c.data
                if d.quick < 2 or d.half < 2:
                    half = "half-round action" if d.half == 1 else "half-round actions"
                    raise Refused(
                        f"{c.name} has {d.quick} quick and {d.half} {half} left this turn, not a whole turn's: a "
                        "held turn comes back whole, so holding it now would give more actions than the round's; "
                        "use what is left or end the turn (GM adjust 'Quick actions left' and 'Half-round actions "
                        "left' to 2 frees it)",
                        rule=R.HOLD,
                    )

    def takes_turns(self, state: FightState, combatant: Combatant) -> bool:
        return not data(combatant).down

    def commands(self) -> tuple[CommandSpec, ...]:
        return SPECS

    def decide(self, state: FightState, command: Any, dice: Roller) -> list[Event]:
        return rules.decide(self, state, command, dice)

    def rest(self, state: FightState, command: Any, dice: Roller) -> list[Event]:
        return resting.rest(state, command, dice)

    def react(self, before: FightState, events: Sequence[Event], after: FightState) -> list[Event]:
        return rules.react(self, before, events, after)

    # the Evolver itself (not a method calling it: a long log's fold calls it for every event)
    evolve = staticmethod(evolve)

    def harm_params(self, heal: bool) -> tuple[Param, ...]:
        if heal:
            return (Param(name="amount", label="Wounds regained", help="1, 1+1 or 1d3; never above the maximum"),)
        return (Param(name="amount", label="Wounds", help="1, 1+1 or 1d3; thresholds call for resolve checks"),)

    # -- showing ---------------------------------------------------------------
    def standing(self, state: FightState, combatant: Combatant) -> Standing:
        if combatant.removed:
            return super().standing(state, combatant)
        d = data(combatant)
        if d.dead:
            return Standing(word="dead", out=True)
        if d.unconscious:
            return Standing(word="unconscious", out=True)
        return FIT

    def public(self, state: FightState, combatant: Combatant) -> str:
        """Fresh, wounded, badly wounded (1 left), down (unconscious) or dead: never a number."""
        if combatant.removed:
            return "gone"
        d = data(combatant)
        if d.dead:
            return "dead"
        if d.unconscious:
            return "down"
        if d.wounds >= d.max_wounds:
            return "fresh"
        return "badly wounded" if d.wounds <= 1 else "wounded"

    def _actions_left(self, state: FightState, c: Combatant) -> str:
        """The current turn's actions left, shown only in the running fight (ruling in
        :mod:`systems.twod6.rules.turn_flags`)."""
        d = data(c)
        if d.down or state.ended or (state.current != c.id and not d.extra_turn):
            return ""
        return f"{d.quick} quick, {d.half} half"

    def _flags(self, state: FightState, c: Combatant) -> list[str]:
        """Everything the combatant is under, in full (the detail pane's "Now:"), most important first."""
        return [f.full for f in _flag_parts(state, data(c))]

    def status(self, state: FightState, c: Combatant) -> str:
        """Short, the most important first: the wounds, held or not ("grappled", "entangled"), the numbers of the
        turn (the actions left to the current combatant, the cinematics), the other flags as words, and last
        what names others ("hidden from Goblin, Lurker").

        Ruling: the list's status column is about 30 characters wide at 80x24 (45 with no condition in the
        list; about 50 at 120x36), and what was cut was lost to the GM: "grappled by Sheriff's Dep…" cut the
        name anyway and every flag after it, and at 120x36 the cinematics, last.  So a flag is a word, the names
        go to the detail pane ("Now: grappled by Sheriff's Deputy Bartholomew Quincy"), and the order is by
        importance: held first (it limits all it may do), then the numbers (main numbers first, as every
        system's status), then grappling, prone, disarmed, negated, extra turn, distracted, the useless limbs,
        aim, hiding (stealth: not "hidden", the word of the GM's H mark, "(hidden)").  A part about one hidden
        from the players still names it ("grappled by Lurker", "hidden from Goblin, Lurker", the last at the end):
        the players' view of a PC words its status with "someone" for the hidden and leaves out any part naming
        them, so a PC held by a hidden wolf does not read "grappled" there
        (tests/systems/twod6/test_status_short.py, tests/ui/test_twod6_status_row.py).
        """
        d = data(c)
        parts = _flag_parts(state, d)
        bits = [f"Wounds {d.wounds}/{d.max_wounds}", *(f.short for f in parts if f.place == HELD)]
        bits += [self._actions_left(state, c), f"cin {d.cinematics}" if d.cinematics else ""]
        bits += [f.short for f in parts if f.place == WORD] + [f.short for f in parts if f.place == LAST]
        return " · ".join(b for b in bits if b)

    def detail(self, state: FightState, c: Combatant) -> str:
        d = data(c)
        word = self.standing(state, c).word
        head = f"Wounds {d.wounds}/{d.max_wounds}" + (f" — {word.upper()}" if word else "")
        if d.init_tiebreak:  # how its tie for initiative was broken (the table shows only its place: "8·1"); on this
            # line, not one of its own: at 80x24 the pane has no line to spare
            head += " · tie reroll " + ", ".join(map(str, d.init_tiebreak))
        left = self._actions_left(state, c)
        flags = self._flags(state, c)
        lines = [
            head,
            f"Actions left: {left}" + (" (or one full-round)" if d.half == 2 else "") if left else "",
            "Now: " + ", ".join(flags) if flags else "",
            " ".join(f"{k.upper()} {d.stat(k):+d}" for k in STATS),
            "Skills: " + (", ".join(f"{n} {r}" for n, r in d.skills) or "none"),
            "Talents: " + (", ".join(d.talents) or "none"),
            "Items: " + ("; ".join(_item_shown(i) for i in d.items) or "none"),
            f"Armor: {d.armor}{' (fine)' if d.fine_armor else ''} (defense {d.armor_defense:+d}, "
            f"penalty {d.armor_penalty:+d})",
            f"Race: {d.race}" if d.race else "",
            f"Cinematics: {d.cinematics}",
        ]
        return "\n".join(x for x in lines if x)

    def help(self) -> str:
        return HELP

    # -- GM adjust ---------------------------------------------------------------
    def adjustable(self, state: FightState, combatant: Combatant) -> tuple[Param, ...]:
        d = data(combatant)
        return (
            Param(name="wounds", kind=INT, label="Wounds left", min=0, max=d.max_wounds),
            Param(name="max_wounds", kind=INT, label="Most wounds (the wounds taken stay)", min=1, max=20),
            Param(name="cinematics", kind=INT, label="Cinematics", min=0, max=99),
            Param(name="quick", kind=INT, label="Quick actions left", min=0, max=2),
            Param(name="half", kind=INT, label="Half-round actions left", min=0, max=2),
            Param(name="aim", kind=INT, label="Aim bonus", min=0, max=20),
            Param(name="unconscious", kind=BOOL, label="Unconscious"),
            Param(name="dead", kind=BOOL, label="Dead"),
            Param(name="prone", kind=BOOL, label="Prone"),
            Param(name="disarmed", kind=BOOL, label="Disarmed"),
            Param(name="negated", kind=BOOL, label="Powers negated"),
            Param(name="distracted", kind=INT, label="Half-round actions lost next turn", min=0, max=2),
            Param(
                name="grappled_by",
                kind=COMBATANT,
                label="Grappled by",
                required=False,
                help="who holds this combatant; empty: free (the holder lets go too)",
            ),
            Param(
                name="useless_limbs",
                kind=STR,
                label="Useless limbs",
                required=False,
                help="name and penalty, comma-separated: left leg -3, arm -2",  # the adjust form adds "none: clear it"
            ),
            *(Param(name=k, kind=INT, label=k.upper(), min=STAT_MIN, max=STAT_MAX) for k in STATS),
        )

    def check_adjust(self, state: FightState, combatant: Combatant, field: str, value: Any) -> Any:
        if field == "grappled_by":
            text = str(value or "").strip()
            if not text:
                return None
            holder = need(state, text, "grappler")
            if holder.id == combatant.id:
                raise Refused(f"{combatant.name} cannot grapple itself")
            if data(holder).down:
                raise Refused(f"{holder.name} is {'dead' if data(holder).dead else 'unconscious'}: out of any grapple")
            return holder.id
        if field == "useless_limbs":
            return ", ".join(f"{x.name} {x.penalty:+d}" for x in parse_limbs(str(value or "")))
        checked = super().check_adjust(state, combatant, field, value)
        d = data(combatant)
        if field == "unconscious" and not checked and d.wounds == 0 and not d.dead:
            raise Refused(
                f"{combatant.name} has 0 wounds: unconscious until regaining a wound (heal or set the wounds first)"
            )
        return checked

    def adjust(self, state: FightState, combatant: Combatant, field: str, value: Any) -> Combatant:
        d = data(combatant)
        if field == "useless_limbs":
            return changed(combatant, data=changed(d, limbs=parse_limbs(str(value or ""))))
        if field in STATS:
            stats = tuple(value if k == field else d.stat(k) for k in STATS)
            return changed(combatant, data=changed(d, stats=stats))
        if field == "max_wounds":  # a corrected maximum: the wounds taken stay, so those left follow it
            taken = d.max_wounds - d.wounds
            return changed(combatant, data=changed(d, max_wounds=value, wounds=max(0, value - taken)))
        if field not in self._adjustable_names(state, combatant):
            raise Refused(f"{combatant.name} has no value '{field}' to adjust")
        return super().adjust(state, combatant, field, value)

    def _adjustable_names(self, state: FightState, combatant: Combatant) -> frozenset[str]:
        """The names of the adjustable values: the same for every combatant (only their bounds differ), so
        found once; replaying a log applies adjustments without building the forms each time."""
        global _ADJUST_NAMES
        if _ADJUST_NAMES is None:
            _ADJUST_NAMES = frozenset(p.name for p in self.adjustable(state, combatant))
        return _ADJUST_NAMES

    # -- why ------------------------------------------------------------------------
    def rules(self) -> tuple[Rule, ...]:
        return table.rules()

    def explain(self, before: FightState, event: Event, after: FightState) -> tuple[Reason, ...]:
        from systems.twod6 import why  # imported on first use: a launch explains nothing (see screens/launch.py)

        return why.explain(before, event, after)

    def conditions(self) -> tuple[BookCondition, ...]:
        return table.CONDITIONS

    def tally(self, state: FightState, event: Event) -> Tally | None:
        if isinstance(event, AttackRolled):
            return Tally(actor=event.actor, target=event.target, hit=event.hit)
        if isinstance(event, Reworked):
            # a lost defense rerolled with a cinematic: the attack's hit and its wounds are taken back (the attack
            # worked out again against the new defense follows, and counts)
            back = event.before.wounds - data(state.get(event.target)).wounds
            return Tally(actor=event.by, target=event.target, harm=-back if back > 0 else 0, revises=True)
        if isinstance(event, Wounded):
            before = data(state.get(event.target))
            left = before.wounds - event.wounds
            return Tally(actor=event.by, target=event.target, harm=event.wounds, fell=not before.down and left <= 0)
        if isinstance(event, EffectApplied) and event.effect in ("unconscious", "dead"):
            return Tally(actor=event.by, target=event.target, fell=not data(state.get(event.target)).down)
        if isinstance(event, ResolveRolled) and not event.passed:
            return Tally(target=event.actor, fell=not data(state.get(event.actor)).down)
        if isinstance(event, ResolveRolled):  # the players' line when the numbers are not theirs to see
            kept = "stays conscious" if event.stakes == "unconscious" else "lives"
            return Tally(actor=event.actor, deed=f"{{actor}} makes the resolve check against {event.stakes}: {kept}")
        if isinstance(event, OpposedRolled):  # the players' line without the other side's numbers
            deed = OPPOSED_DEEDS.get(event.purpose, f"{{actor}} {event.purpose} vs {{target}}")
            again = " (cinematic reroll)" if event.reroll else ""
            actor = state.find(event.actor)
            if event.purpose == "sneaks" and not (actor and actor.is_pc):
                return None  # an NPC's sneak past a PC: how it went is what the PC missed, no line for the players
            said = f"{deed}{again}: {'succeeds' if event.success else 'fails'}"
            return Tally(actor=event.actor, target=event.target, deed=said)
        if isinstance(event, ContestRolled):  # the players' line without the numbers
            actor = state.find(event.actor)
            if event.skill == "Stealth" and not (actor and actor.is_pc):
                return None  # (as an NPC's sneak: how it went is what the PC missed)
            again = " (cinematic reroll)" if event.reroll else ""
            said = f"{{actor}} {event.skill} vs {{target}}{again}: {'succeeds' if event.success else 'fails'}"
            return Tally(actor=event.actor, target=event.target, deed=said)
        if isinstance(event, Adjusted) and event.field == "wounds" and type(event.value) is int:
            # the GM taking wounds off harmed them as much
            c = state.find(event.id)
            lost = 0 if c is None else data(c).wounds - event.value
            return Tally(target=event.id, harm=lost) if lost > 0 else None
        return None


HELD, WORD, LAST = "held", "word", "last"  # where a flag stands in the status (see TwoD6System.status)


class Flag(NamedTuple):
    """A flag of a combatant as the status words it (``short``) and as the detail pane does (``full``)."""

    short: str
    full: str
    place: str = WORD


def _flag_parts(state: FightState, d: Data) -> list[Flag]:
    """Each flag of the combatant, most important first: ``Flag("grappled", "grappled by Sheriff's Deputy
    Bartholomew Quincy", HELD)``.  One about a combatant hidden from the players names it in the status too
    (see :meth:`TwoD6System.status`)."""
    parts: list[Flag] = []
    if d.grappled_by:
        word = "entangled" if d.entangled else "grappled"
        full = f"{word} by {state.name(d.grappled_by)}"
        parts.append(Flag(full if _hidden(state, (d.grappled_by,)) else word, full, HELD))
    if d.grappling:
        full = f"grappling {state.name(d.grappling)}"
        parts.append(Flag(full if _hidden(state, (d.grappling,)) else "grappling", full))
    parts += [
        Flag(name, name)
        for name, on in (
            ("prone", d.prone),
            ("disarmed", d.disarmed),
            ("negated", d.negated),
            ("extra turn", d.extra_turn),
        )
        if on
    ]
    if d.distracted:
        parts.append(Flag("distracted", f"distracted −{d.distracted} half"))
    parts += [Flag(f"{limb.name} {limb.penalty:+d}", f"{limb.name} {limb.penalty:+d}") for limb in d.limbs]
    if d.aim:
        aim = f"aim {d.aim:+d}" + (" (×2 Sniper)" if d.aim_sniper else "")
        parts.append(Flag(aim, aim))
    if d.hidden_from:
        full = "hidden from " + ", ".join(state.name(i) for i in d.hidden_from)
        parts.append(Flag(full, full, LAST) if _hidden(state, d.hidden_from) else Flag("hiding", full))
    return parts


def _hidden(state: FightState, ids: Sequence[str]) -> bool:
    """Is any of ``ids`` a combatant hidden from the players?"""
    return any(c is not None and c.hidden for c in map(state.find, ids))


def _item_shown(item: Item) -> str:
    """An item as the detail pane shows it, ``Longsword (Melee (Heavy) +1)``; items are separated by ';'.

    A name holding a ':' (two items run together by a sheet checked before commas split items, kept so by its
    fight file) is quoted, so it reads as the one item it is: ``"Longsword: Melee (Heavy) +1, Pendant" (Cast +1)``
    (test_sheet_typos.py::test_an_older_fight_file_with_items_typed_with_commas_replays_as_before).
    """
    name = f'"{item.name}"' if ":" in item.name else item.name
    return f"{name} ({item.skill} {item.bonus:+d})"


def _groups(keys: Mapping[str, tuple[int, ...]], key: Any) -> list[tuple[str, ...]]:
    seen: dict[tuple[int, ...], list[str]] = {}
    for i in sorted(keys, key=lambda i: keys[i], reverse=True):
        seen.setdefault(key(keys[i]), []).append(i)
    return [tuple(g) for g in seen.values()]


OPPOSED_DEEDS = {
    "sneaks": "{actor} sneaks past {target}",
    "breaks the grapple": "{actor} tries to break {target}'s grapple",
    "negates": "{actor} tries to negate {target}'s powers",
}

system = TwoD6System()
