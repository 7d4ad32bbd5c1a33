"""Zludge 1.0 Alpha: 4dF on the ladder, attack against defense rolls, wound boxes by damage level, fatigue.

Rulings made here where the book and RULINGS.md are silent (binding for the code,
the tests and the help):

- *Acting*: a combatant "acts" when its turn starts (each turn is its one action):
  that ends flat-footedness and clears the clip, so a clip's -1 weighs on the
  defense rolls made before the victim's next turn, not on that turn's action.
  Zludge actions (attack, skill roll, first aid, other action) are taken on one's
  own turn, one per turn, while the fight runs; before or after it they are free.
- *Helpless defenders*: a target that is prone (Incapacitated, Exhausted) or
  unconscious makes no defense roll either: fixed defense -1, as a stationary
  flat-footed target.
- *Defense and situational modifiers*: a fixed defense still takes the GM's ±1
  defense modifiers (cover); aspects and plot points need a roll to spend on.
- *Aspect reroll*: "reroll" rolls the 4dF again and the new roll counts; the log
  shows both.
- *After the roll* (``invoke``): right after a roll, before anything else is
  logged, the attacker, the defender (if it rolled) or the one who made a skill
  roll may invoke an aspect (+1 or reroll) or spend a plot point (+1) on it.  The
  outcome is read again: the wound the first reading dealt is taken back (a
  death too) and the new one dealt; first aid treats or not; a reopen prompt
  opens or closes.  Each side may invoke one aspect and spend one plot point per
  roll, before and after together.  A revision does not roll a hit location a
  miss never rolled.
- *Auto defense*: against Melee or Unarmed attacks the defender uses the best of
  Acrobatics (less a bulky-armor penalty), Unarmed, and Melee if armed with a
  melee weapon; against Ranged attacks, Acrobatics.
- *Penalties*: every physical roll (attack, defense, initiative, physical checks)
  takes the worst of clipped and wound penalty plus the fatigue penalty; first aid
  (Medical) is not physical and takes only fatigue.  Exhausted is -3 to all rolls.
- *Fatigue beyond Unconscious*: with no fatigue box left the combatant stays
  Unconscious; the extra fatigue is logged and lost (it does not become a wound).
- *Clipped armor*: a tie deals 0-level damage whatever the armor (armor reduces
  only hits).  Armor that covers some locations counts only when the hit location
  is known (called or rolled) and covered.
- *Skill modifier*: -1 + ranks (+2 for a specialization that applies, rank
  modifier at most +4) + the skill's attribute, if the sheet names one.  The rank
  pyramid is not checked (the tracker holds only the fight's skills).
- *First aid* is a Medical(First Aid) roll: a medic with a "First Aid"
  specialization in Medical uses it by itself.
- *Helpless defenders* show "no defense roll" in the log with the reason
  (prone, unconscious) instead of "flat-footed".
- *GM adjust* edits skills, attributes, aspects and the aspects checked off
  today as the sheet writes them (attributes may go beyond ±1: the GM says so);
  wounds and fatigue change through mark_wound, mark_fatigue and clear_box.
- *Initiative*: unconscious combatants do not roll; ties that stay tied after 20
  rerolls act simultaneously.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from tracker import commands as core
from tracker.commands import CommandSpec, Param
from tracker.dice import Roll, Roller
from tracker.errors import Refused
from tracker.events import Event
from tracker.model import Combatant, FightState
from tracker.plugin import BaseSystem, Preset, Tally

from . import commands as C
from . import events as Z
from . import rules
from .presets import presets as _presets
from .sheet import (
    COMATOSE,
    FATIGUE_STATES,
    INCAPACITATED,
    TEXT_FIELDS,
    WOUND_STATES,
    ZludgeData,
    apply_text_adjust,
    build_data,
    check_text_adjust,
    ladder,
    normalize,
    track_text,
)
from .sheet import adjustable as _adjustable
from .sheet import sheet_fields as _sheet_fields

HELP = """Zludge: 4dF (each die -1, 0, +1) + skill modifier, read on the ladder
+4 Superb, +3 Great, +2 Good, +1 Decent, 0 Fair, -1 Poor, -2 Bad, -3 Terrible, -4 Abysmal.
Skills default to -1 Poor; each rank +1, a specialization +2 (rank modifier at most +4), plus its attribute.

Initiative: Reflexes roll, highest first, ties roll again among themselves; the order is kept.
  Ambush (ambush_initiative): ambushers roll Stealth, victims the average of Reflexes and Alertness
  rounded up; unseen ambushers may get a surprise action (start the fight with them as surprise).
Flat-footed until its first turn: no defense roll, fixed defense -1 stationary / 0 moving.
Attack: Melee/Ranged/Unarmed roll vs the defense roll (Acrobatics, or Melee/Unarmed against close attacks).
  Less: miss. Equal: clipped, 0-level damage. More: weapon level - armor level; +4 or more: +1 level.
  0-level damage checks a Scratched box and clips (-1 until the victim's next action); below 0: no damage.
  Called shot -2 picks the location; else 1d6: 1 head, 2-3 torso, 4 right arm, 5 left arm, 6 legs.
  Situational modifiers ±1 each, labelled. Aspect (once a day): +1 or reroll. One plot point: +1.
  Before the roll in the action's form, or after it with invoke (i), before anything else happens.
Wounds: Scratched 3, Hurt 2, Very Hurt 1, Incapacitated 1, Comatose 1 boxes; a full level checks the next
  higher free box; none above Comatose: death. Durability adds a box to levels 0,1,2,3 in turn;
  Fortitude +1/-1: one Scratched box more/less.
Penalties: Hurt -1, Very Hurt -2, Incapacitated -3 (prone, cannot attack), Comatose -4 (unconscious);
  the worst of clip and wound applies; fatigue adds (Tired -1, Very Tired -2, Exhausted -3 and prone,
  Unconscious: no actions).
First aid: a Medical roll of 0 or more makes each wound impair one level less; a failed physical check
  may reopen them (reopen_wounds).

Actions: attack (a), invoke (i: aspect or plot point after the roll), ambush_initiative (A),
  roll_skill (r), first_aid (f), reopen_wounds, mark_wound (w), mark_fatigue (t), clear_box,
  refresh_aspects, act (o: any other action)."""


class ZludgeSystem(BaseSystem):
    id = "zludge"
    name = "Zludge"
    version = "1.0"
    summary = "Zludge 1.0 Alpha: 4dF ladder, attack vs defense rolls, wound boxes by damage level, fatigue track"
    event_types = Z.EVENT_TYPES

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
        return build_data(normalize(kind, sheet))

    def initial_data(self) -> rules.ZludgeFight:
        return rules.ZludgeFight()

    # -- order ---------------------------------------------------------------
    def roll_initiative(self, state: FightState, ids: tuple[str, ...], dice: Roller) -> list[Event]:
        return rules.initiative(state, ids, dice)

    def initiative_tiebreak(self, combatant: Combatant) -> tuple[Any, ...]:
        return tuple(combatant.data.init_tiebreak) if combatant.data else ()

    def check_core(self, state: FightState, command: Any) -> None:
        if isinstance(command, core.StartFight) and command.surprise:
            ambushers = state.data.ambushers if state.data else ()
            for cid in command.surprise:
                c = rules.need(state, cid)
                if c.id not in ambushers:
                    raise Refused(
                        f"only an unseen ambusher gets a surprise action, and {c.name} is not one "
                        "(roll ambush initiative naming the ambushers first)"
                    )

    def takes_turns(self, state: FightState, combatant: Combatant) -> bool:
        d: ZludgeData = combatant.data
        return not d.unconscious

    # -- commands ------------------------------------------------------------
    def commands(self) -> tuple[CommandSpec, ...]:
        return C.specs()

    def decide(self, state: FightState, command: Any, dice: Roller) -> list[Event]:
        events = rules.decide(state, command, dice)
        if events is None:
            return super().decide(state, command, dice)
        return events

    def evolve(self, state: FightState, event: Event) -> FightState:
        return rules.evolve(state, event)

    # -- showing -------------------------------------------------------------
    def condition_words(self, d: ZludgeData) -> list[str]:
        words: list[str] = []
        if d.dead:
            return ["DEAD"]
        if d.wound_state > 0:
            treated = " treated" if d.wound_effect < d.wound_state else ""
            words.append(f"{WOUND_STATES[d.wound_state]}{treated} {d.wound_penalty:+d}")
        if d.wound_effect >= COMATOSE:
            words.append("unconscious")
        elif d.wound_effect >= INCAPACITATED:
            words.append("prone")
        if d.clipped:
            words.append("clipped -1")
        if d.fatigue_state >= 0:
            pen = "no actions" if d.fatigue_state == 4 else f"{d.fatigue_penalty:+d}"
            words.append(f"{FATIGUE_STATES[d.fatigue_state]} {pen}")
        if not d.acted:
            words.append("flat-footed")
        return words or ["unhurt"]

    def status(self, state: FightState, combatant: Combatant) -> str:
        d: ZludgeData = combatant.data
        parts = [", ".join(self.condition_words(d))]
        parts.append(track_text(d.wounds, d.wound_capacity, WOUND_STATES))
        if d.fatigue:
            parts.append("fatigue " + track_text(d.fatigue, d.fatigue_capacity, FATIGUE_STATES))
        skill = d.weapon_skill
        parts.append(f"{skill} {ladder(d.skill_mod(skill))}, wpn {d.weapon_level}, armor {d.armor_level}")
        parts.append(f"PP {d.plot_points}")
        return " · ".join(parts)

    def detail(self, state: FightState, combatant: Combatant) -> str:
        d: ZludgeData = combatant.data
        lines = [f"{combatant.name}: {', '.join(self.condition_words(d))}"]
        pen = sum(m.value for m in d.penalties(True))
        lines.append(f"Penalty to physical actions: {ladder(pen)}" if pen else "No penalty")
        if d.attributes or d.fortitude:
            attrs_ = [f"Fortitude {ladder(d.fortitude)}", *(f"{n} {ladder(v)}" for n, v in d.attributes)]
            lines.append("Attributes: " + ", ".join(attrs_))
        skills = [
            f"{s.name} {ladder(d.skill_mod(s.name))}"
            + "".join(f" ({sp} {ladder(d.skill_mod(s.name, sp))})" for sp in s.specs)
            for s in d.skills
        ]
        lines.append("Skills: " + (", ".join(skills) if skills else "none (all -1 Poor)"))
        lines.append(f"Weapon: {d.weapon} (level {d.weapon_level}, {d.weapon_skill})")
        covers = f", covers {', '.join(d.armor_covers)}" if d.armor_covers else ""
        bulky = f", -{d.armor_penalty} Acrobatics" if d.armor_penalty else ""
        lines.append(f"Armor: {d.armor} (level {d.armor_level}{bulky}{covers})")
        aspects = [f"[{'x' if a in d.aspects_used else ' '}] {a}" for a in d.aspects]
        lines.append("Aspects: " + (", ".join(aspects) if aspects else "none"))
        lines.append(f"Plot points: {d.plot_points}")
        lines.append(f"Wounds (Durability {d.durability}): " + track_text(d.wounds, d.wound_capacity, WOUND_STATES))
        lines.append(f"Fatigue (Endurance {d.endurance}): " + track_text(d.fatigue, d.fatigue_capacity, FATIGUE_STATES))
        return "\n".join(lines)

    def help(self) -> str:
        return HELP

    # -- GM adjust -----------------------------------------------------------
    def adjustable(self, state: FightState, combatant: Combatant) -> tuple[Param, ...]:
        return _adjustable()

    def check_adjust(self, state: FightState, combatant: Combatant, field: str, value: Any) -> Any:
        if field in TEXT_FIELDS:
            return check_text_adjust(combatant.data, field, value)
        return super().check_adjust(state, combatant, field, value)

    def adjust(self, state: FightState, combatant: Combatant, field: str, value: Any) -> Combatant:
        if field in TEXT_FIELDS:
            return attrs.evolve(combatant, data=apply_text_adjust(combatant.data, field, str(value or "")))
        return super().adjust(state, combatant, field, value)

    def tally(self, state: FightState, event: Event) -> Tally | None:
        if isinstance(event, Z.AttackResolved):
            return Tally(actor=event.actor, target=event.target, hit=event.outcome != "miss")
        if isinstance(event, Z.WoundMarked):
            before: ZludgeData = state.get(event.target).data
            fell = event.box is None or (event.box >= INCAPACITATED and before.wound_effect < INCAPACITATED)
            return Tally(target=event.target, harm=1, fell=fell)
        return None


system = ZludgeSystem()
