"""Blackjack: the weird-west Core Rules with Blackjack saves, injury slots and lead-working.

The book has no initiative: the order is the GM's (PCs as added, then NPCs),
reorderable at any time; rounds are counted as usual.

Where things are: :mod:`.commands` (verbs and their forms), :mod:`.rules` (the
deciders by family, and ``react``), :mod:`.evolve`, :mod:`.events`,
:mod:`.checks` (the Blackjack save), :mod:`.records` and :mod:`.sheet` (the
combatant's record and its sheet), :mod:`.presets` (the book's catalogues and
stat lines), :mod:`.show` (status, detail, standing, the players' view),
:mod:`.adjust` (GM adjust), :mod:`.table` (the rules table, by id) and :mod:`.why`
(the reasons behind each event). Rulings beyond the table are in each module's
docstring, each with its test.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tracker.commands import CHOICE, Adjust, CommandSpec, Delay, Param, RollInitiative
from tracker.dice import Roll, Roller
from tracker.errors import Refused
from tracker.events import Adjusted, Event, OrderSet
from tracker.model import Combatant, FightState
from tracker.plugin import BaseSystem, BookCondition, Preset, Standing, Tally
from tracker.reasons import Reason, Rule

from . import adjust, rules, show
from . import rest as resting
from .about import ABOUT
from .commands import SPECS, Attack, CastWorking, IngestLead, Reload
from .events import EVENT_TYPES, AttackMade, InjuryMarked, MoraleChecked, MoraleRuled
from .evolve import evolve
from .presets import presets, weapon_table
from .records import LEVELS, BJData, BJFight, data
from .rules.common import action_rule
from .sheet import check_sheet, make_data, sheet_fields
from .table import CONDITIONS, R, applies
from .table import rules as rule_table

DAMAGE_LEVELS = (*LEVELS[:2], "severe", "grievous", "fatal")
HEAL_LEVELS = ("worst", *LEVELS)


class BlackjackSystem(BaseSystem):
    about = ABOUT
    event_types = EVENT_TYPES + resting.REST_EVENTS
    rest_qualities = resting.QUALITIES
    fight_only = ("floor", "acted")  # not carried by a party kept as it is now
    initiative_words = ("set the order", "Order")  # no initiative in the book: I sets the order (g1 audit, F3)
    rolls_initiative = False  # so no running fight's I in the help; E sets the order by numbers (g2 audit, F3)
    prompt_data = {"morale": ("trigger",)}  # the morale triggers a prompt uses up, beyond the form's fields
    # actions on one's own turn; saves, morale, Arguin', healing and the GM's commands are not
    turn_commands = (Attack, Reload, IngestLead, CastWorking)

    # -- sheets --------------------------------------------------------------
    def sheet_fields(self, kind: str) -> tuple[Param, ...]:
        return sheet_fields(kind)

    def presets(self) -> tuple[Preset, ...]:
        return presets()

    def new_combatant(
        self, state: FightState, kind: str, sheet: Mapping[str, Any], dice: Roller
    ) -> tuple[dict[str, Any], tuple[Roll, ...]]:
        return check_sheet(kind, sheet), ()

    def make_data(self, kind: str, sheet: Mapping[str, Any]) -> BJData:
        return make_data(kind, sheet)

    def initial_data(self) -> BJFight:
        return BJFight()

    # -- order ---------------------------------------------------------------
    @applies(R.ORDER)
    def roll_initiative(self, state: FightState, ids: tuple[str, ...], dice: Roller) -> list[Event]:
        """The book has no initiative: the GM's order, PCs as added, then NPCs.  Already so, it is refused (it
        logged the same "Order: …" line again: tests/systems/blackjack/test_order_again.py)."""
        order = self.default_order(state)
        if order == state.order and not state.ties:
            raise Refused("the order is already PCs, then NPCs, as added: nothing to set (E sets it by numbers)")
        return [OrderSet(order=order, note="no initiative in this book: PCs, then NPCs, as added")]

    def takes_turns(self, state: FightState, combatant: Combatant) -> bool:
        return data(combatant).standing

    # -- commands ------------------------------------------------------------
    def commands(self) -> tuple[CommandSpec, ...]:
        return SPECS + resting.SPECS

    def rest(self, state: FightState, command: Any, dice: Roller) -> list[Event]:
        return resting.rest(state, command, dice)

    def decide(self, state: FightState, command: Any, dice: Roller) -> list[Event]:
        return rules.decide(self, state, command, dice)

    def react(self, before: FightState, events: Sequence[Event], after: FightState) -> list[Event]:
        return rules.react(before, events, after, self)

    def evolve(self, state: FightState, event: Event) -> FightState:
        return evolve(state, event)

    def harm_params(self, heal: bool) -> tuple[Param, ...]:
        """Harm is an injury level; healing is a treatment clearing one injury of a level (or the worst)."""
        if heal:
            return (
                Param(
                    name="amount",
                    kind=CHOICE,
                    choices=HEAL_LEVELS,
                    default="worst",
                    label="Injury treated",
                    help="treatment clears one injury of this level (not one bound to a paper)",
                ),
            )
        return (
            Param(
                name="amount",
                kind=CHOICE,
                choices=DAMAGE_LEVELS,
                default="lesser",
                label="Injury level",
                help="marked like any injury: a full level moves it up; Fatal kills; grievous only on monster tracks",
            ),
        )

    # -- showing -------------------------------------------------------------
    def standing(self, state: FightState, combatant: Combatant) -> Standing:
        return show.standing(state, combatant)

    def status(self, state: FightState, combatant: Combatant) -> str:
        return show.status(state, combatant)

    def detail(self, state: FightState, combatant: Combatant) -> str:
        return show.detail(state, combatant)

    def public(self, state: FightState, combatant: Combatant) -> str:
        return show.public(state, combatant)

    def help(self) -> str:
        actions = "\n".join(f"  [{s.key or '-'}] {s.title}: {s.help}" for s in SPECS)
        return (
            "Blackjack save: d20, success when DV < roll ≤ stat (ACC shootin' and throwin', BODY melee and danger,\n"
            "CTRL nerve and workings). NPCs save ≤ Threat + 8 (⌈Threat/2⌉ + 8 deficient). Each injury +1 DV; DV\n"
            "never below 0, and a social save whose DV goes negative passes with no roll.\n"
            "Rolling over a stat marks it; 3 marks raise it by 1 (max 19).\n"
            "A PC attacking: DV = target's Threat + weapon/range notes + its DV modifiers + own injuries.\n"
            "An NPC attacking rolls its own save; for specials each target saves against the NPC's Threat.\n"
            "Anyone can attack with Fists (lesser). Hand axes, hatchets and knives can be thrown at nearby range\n"
            "(ACC); the thrown weapon lies on the floor until the GM gives it back.\n"
            "Injuries: Lesser 2, Moderate 2, Severe 1 (monsters may have Grievous); a full level pushes up; Fatal kills.\n"
            "Severe: dying, needs help or will die. Quick damage is an injury level; quick healing treats one injury.\n"
            "One action a turn: an attack (a revolver's or repeater's volley of several shots is one; any other\n"
            "gun fires one), a reload, ingesting lead or casting; a second waits for the next turn (GM adjust\n"
            "'Has acted this turn' frees it). Saves, morale and Arguin' take no action; outside the fight's turns\n"
            "nothing is limited (ingesting out of combat takes 10 seconds).\n"
            "Lead: each shot spends one; reload = 1 lead and an action. Workings: ingest N lead (an action), cast\n"
            "(another action, next turn), Nd6: each 6 is powderburn (lesser) or a catastrophe. Once a day safely;\n"
            "again costs a lesser powderburn first. A Hex or a Naming lasts until its paper is destroyed.\n"
            "Morale: 2d6 over Morale breaks a side, prompted during the fight at its first casualty, half out, or a\n"
            "lone NPC with 2 moderate injuries. Sides are NPC groups (ungrouped NPCs are one side).\n"
            "Order: no initiative; the GM's order (PCs, then NPCs), reorderable.\n\n"
            f"Actions:\n{actions}\n\nWeapons and attacks:\n{weapon_table()}"
        )

    # -- GM adjust -------------------------------------------------------------
    def check_core(self, state: FightState, command: Any) -> None:
        """A PC saves on its stats, an NPC on its Threat: the sheet is the kind's, so the kind stays.  The book
        has no initiative: in a running fight the GM's order stays as the GM made it.  One action a turn: one who
        has taken its turn's action has none left to hold (rules/common.py ``one_action``,
        ``test_one_who_acted_cannot_hold_the_action``)."""
        if isinstance(command, RollInitiative) and state.started and not state.ended:
            raise Refused(
                "this book has no initiative: the order is the GM's (newcomers join at its end; [ and ] move them)",
                rule=R.ORDER,
            )
        if isinstance(command, Delay) and state.current is not None:
            c = state.find(command.id or state.current) or state.by_name(command.id or "")
            if c is not None and c.id == state.current and isinstance(c.data, BJData) and c.data.action:
                raise Refused(
                    f"{c.name} has taken this turn's action ({c.data.action}): there is none left to hold; "
                    "end the turn",
                    rule=action_rule(c.data.action),
                )
        if isinstance(command, Adjust) and command.field == "kind":
            c = state.find(command.id) or state.by_name(command.id)
            if c is not None and command.value != c.kind:
                other = "a PC" if c.kind == "npc" else "an NPC"
                raise Refused(
                    f"{c.name}'s sheet is {'a Threat and Morale' if c.kind == 'npc' else 'stats'}: "
                    f"remove {c.name} and add it again as {other}"
                )

    def adjustable(self, state: FightState, combatant: Combatant) -> tuple[Param, ...]:
        return adjust.adjustable(combatant)

    def check_adjust(self, state: FightState, combatant: Combatant, field: str, value: Any) -> Any:
        """Ruling: "Has acted this turn: yes" is for the combatant whose turn it is in the running fight; on anyone
        else it would be wiped, unsaid, as its turn begins, so it is refused (it was logged and then did nothing;
        tests/systems/blackjack/test_one_action.py::test_has_acted_yes_is_only_for_the_one_whose_turn_it_is)."""
        checked = adjust.check(combatant, field, value)
        if checked is None:
            checked = super().check_adjust(state, combatant, field, value)
        if field == "acted" and checked and (state.current != combatant.id or not state.started or state.ended):
            raise Refused(
                f"only the one whose turn it is can be marked as having acted: {combatant.name}'s own turn starts "
                "with its action free"
            )
        return checked

    def adjust(self, state: FightState, combatant: Combatant, field: str, value: Any) -> Combatant:
        applied = adjust.apply(combatant, field, value)
        return super().adjust(state, combatant, field, value) if applied is None else applied

    # -- why ------------------------------------------------------------------
    def rules(self) -> tuple[Rule, ...]:
        return rule_table()

    def explain(self, before: FightState, event: Event, after: FightState) -> tuple[Reason, ...]:
        from .why import explain  # imported on first use: a launch explains nothing (see screens/launch.py)

        return explain(before, event, after)

    def conditions(self) -> tuple[BookCondition, ...]:
        return CONDITIONS

    def tally(self, state: FightState, event: Event) -> Tally | None:
        if isinstance(event, AttackMade):
            return Tally(actor=event.actor, target=event.target, hit=event.hit)
        if isinstance(event, InjuryMarked):
            return Tally(target=event.target, harm=0 if event.index < 0 else 1, fell=event.fatal)
        if isinstance(event, MoraleChecked | MoraleRuled):
            return Tally(target=event.broken[0] if event.broken else None, fell=bool(event.broken))
        if isinstance(event, Adjusted) and event.field in ("injury_list", "injuries"):
            # injuries the GM wrote in: one harm each, as an injury marked by the rules
            c = state.find(event.id)
            if c is None:
                return None
            added = _injuries(self.adjust(state, c, event.field, event.value)) - _injuries(c)
            return Tally(target=c.id, harm=added) if added > 0 else None
        return None


def _injuries(c: Combatant) -> int:
    return sum(len(row) for row in data(c).injuries)


system = BlackjackSystem()

__all__ = ["BlackjackSystem", "system"]
