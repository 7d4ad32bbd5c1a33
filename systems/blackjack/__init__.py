"""Blackjack: the weird-west Core Rules with Blackjack saves, injury slots and lead-working.

The book has no initiative: the order is the GM's (PCs as added, then NPCs),
reorderable at any time; rounds are counted as usual.  Rulings beyond
RULINGS.md are listed in :mod:`.sheet` and :mod:`.rules`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from tracker import engine
from tracker.commands import BOOL, CHOICE, INT, CommandSpec, Param
from tracker.dice import Roll, Roller
from tracker.errors import Refused
from tracker.events import Adjusted, CombatantRemoved, Event, OrderSet
from tracker.model import Combatant, FightState
from tracker.plugin import BaseSystem, Preset, Tally

from . import commands as C
from . import rules
from .commands import SPECS
from .events import EVENT_TYPES, AttackMade, InjuryMarked, MoraleChecked
from .presets import presets, weapon_table
from .sheet import LEVELS, STATS, BJData, check_sheet, make_data, parse_injuries, parse_slots, sheet_fields, split_list


def track(d: BJData) -> str:
    """Injury boxes, e.g. ■□|□□|□."""
    groups = []
    for i, n in enumerate(d.slots):
        filled = len(d.injuries[i])
        groups.append("■" * filled + "□" * (n - filled))
    return "|".join(groups)


class BlackjackSystem(BaseSystem):
    id = "blackjack"
    name = "Blackjack (weird-west Core Rules)"
    version = "1.0"
    summary = "Blackjack saves (DV < d20 ≤ stat), injury slots that escalate, shots and lead, lead-working powderburn"
    event_types = EVENT_TYPES
    # actions on one's own turn; saves, morale, Arguin', healing and the GM's commands are not
    turn_commands = (C.Attack, C.Reload, C.IngestLead, C.CastWorking)

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

    def initial_data(self) -> rules.BJFight:
        return rules.BJFight()

    # -- order ---------------------------------------------------------------
    def roll_initiative(self, state: FightState, ids: tuple[str, ...], dice: Roller) -> list[Event]:
        """The book has no initiative: the GM's order, PCs as added, then NPCs."""
        return [OrderSet(order=self.default_order(state), note="no initiative in this book: PCs, then NPCs, as added")]

    def takes_turns(self, state: FightState, combatant: Combatant) -> bool:
        return combatant.data.standing

    # -- commands ------------------------------------------------------------
    def commands(self) -> tuple[CommandSpec, ...]:
        return SPECS

    def decide(self, state: FightState, command: Any, dice: Roller) -> list[Event]:
        return rules.decide(self, state, command, dice)

    def evolve(self, state: FightState, event: Event) -> FightState:
        state = rules.evolve(state, event)
        if isinstance(event, (Adjusted, CombatantRemoved)) and state.started and not state.ended:
            # a GM edit or removal can meet a morale trigger: the prompt opens with it
            for raised in rules.morale_prompts(state):
                state = engine.evolve(self, state, raised)
        return state

    # -- showing -------------------------------------------------------------
    def status(self, state: FightState, c: Combatant) -> str:
        d: BJData = c.data
        if d.is_pc:
            head = f"ACC {d.acc} BODY {d.body} CTRL {d.ctrl}"
        else:
            head = f"T{d.threat} ML{d.morale}"
        parts = [head, track(d)]
        if d.dead:
            parts.append("DEAD")
        elif d.out:
            parts.append(d.out.upper())
        elif len(d.slots) > 2 and d.injuries[2]:
            parts.append("SEVERE: needs help")
        guns = [w.describe() for w in d.weapons if w.is_firearm or w.ammo >= 0 or w.jammed or w.spent]
        if guns:
            parts.append(", ".join(guns))
        if d.lead or d.ingested or d.is_pc:
            parts.append(f"lead {d.lead}" + (f" ({d.ingested} ingested)" if d.ingested else ""))
        if d.pending_sixes:
            parts.append(f"{d.pending_sixes} six(es) to resolve")
        return " | ".join(parts)

    def detail(self, state: FightState, c: Combatant) -> str:
        d: BJData = c.data
        lines = [f"{c.name} ({c.kind.upper()}{', ' + c.group if c.group else ''})", self.status(state, c)]
        if d.is_pc:
            lines.append("Marks: " + ", ".join(f"{s.upper()} {getattr(d, s + '_marks')}/3" for s in STATS))
        else:
            lines.append(f"Saves ≤ {d.npc_limit()} (deficient ≤ {d.npc_limit(True)}); size {d.size}")
        for i, names in enumerate(d.injuries):
            lines.append(f"{d.level_name(i).capitalize()} ({len(names)}/{d.slots[i]}): {', '.join(names) or '-'}")
        lines.append("Weapons: " + (", ".join(w.describe() for w in d.weapons) or "-"))
        for w in d.workings:
            lines.append(f"Working: {w.name} (lead {w.level}){' — cast today' if w.cast_today else ''}")
        for label, vals in (
            ("Deficient", d.deficiencies),
            ("Resists", d.resistances),
            ("Weak", d.weaknesses),
            ("Immune", d.immunities),
        ):
            if vals:
                lines.append(f"{label}: {', '.join(vals)}")
        for m in d.dv_mods:
            lines.append(f"{m.label}: {m.value:+d} DV against {' '.join(m.tags)}")
        if d.specials:
            lines.append(f"Specials: {d.specials}")
        if c.conditions:
            lines.append("Conditions: " + ", ".join(x.describe() for x in c.conditions))
        return "\n".join(lines)

    def help(self) -> str:
        actions = "\n".join(f"  [{s.key or '-'}] {s.title}: {s.help}" for s in SPECS)
        return (
            "Blackjack save: d20, success when DV < roll ≤ stat (ACC shootin', BODY melee and danger, CTRL nerve and\n"
            "workings). NPCs save ≤ Threat + 8 (⌈Threat/2⌉ + 8 deficient). Each injury +1 DV; DV never below 0.\n"
            "Rolling over a stat marks it; 3 marks raise it by 1 (max 19).\n"
            "A PC attacking: DV = target's Threat + weapon/range notes + its DV modifiers + own injuries.\n"
            "An NPC attacking rolls its own save; for specials each target saves against the NPC's Threat.\n"
            "Anyone can attack with Fists (lesser). A working that lays a Hex or Naming needs a target.\n"
            "Injuries: Lesser 2, Moderate 2, Severe 1 (monsters may have Grievous); a full level pushes up; Fatal kills.\n"
            "Lead: each shot spends one; reload = 1 lead and an action. Workings: ingest N lead (an action), cast\n"
            "(an action), Nd6: each 6 is powderburn (lesser) or a catastrophe. Once a day safely.\n"
            "Morale: 2d6 over Morale breaks a side, prompted at its first casualty, half out, or a lone NPC with 2\n"
            "moderate injuries. Sides are NPC groups (ungrouped NPCs are one side).\n"
            "Order: no initiative; the GM's order (PCs, then NPCs), reorderable.\n\n"
            f"Actions:\n{actions}\n\nWeapons and attacks:\n{weapon_table()}"
        )

    # -- GM adjust -------------------------------------------------------------
    def adjustable(self, state: FightState, c: Combatant) -> tuple[Param, ...]:
        d: BJData = c.data
        own: list[Param] = []
        if d.is_pc:
            for s in STATS:
                own.append(Param(name=s, kind=INT, label=s.upper(), min=3, max=19))
                own.append(Param(name=f"{s}_marks", kind=INT, label=f"{s.upper()} marks", min=0, max=2))
        else:
            own.append(Param(name="threat", kind=INT, label="Threat", min=1, max=10))
            own.append(Param(name="morale", kind=INT, label="Morale", min=2, max=12))
        return (
            *own,
            Param(name="slots", label="Injury slots", help="2/2/1 or 2/2/2/1"),
            Param(name="injury_list", label="Injuries", required=False, help="'lesser bruised, moderate cut'"),
            Param(name="lead", kind=INT, label="Lead", min=0, max=99),
            Param(name="ingested", kind=INT, label="Lead ingested", min=0, max=99),
            *(
                (Param(name="shots", label="Loaded shots and stacks", help="'Revolver 3, Shotgun 0, Bow 10'"),)
                if any(w.is_firearm or w.ammo >= 0 for w in d.weapons)
                else ()
            ),
            Param(name="dead", kind=BOOL, label="Dead"),
            Param(
                name="out", kind=CHOICE, choices=("in", "fled", "surrendered"), default="in", label="Out of the fight"
            ),
        )

    def check_adjust(self, state: FightState, c: Combatant, field: str, value: Any) -> Any:
        d: BJData = c.data
        if field in STATS:
            v = Param(name=field, kind=INT).parse(value)
            if not 3 <= v <= 19:
                raise Refused(f"{field.upper()} must be 3 to 19 (saves max out at 19)")
            return v
        if field == "threat":
            v = Param(name=field, kind=INT).parse(value)
            if not 1 <= v <= 10:
                raise Refused("Threat runs 1 to 10")
            return v
        if field == "morale":
            v = Param(name=field, kind=INT).parse(value)
            if not 2 <= v <= 12:
                raise Refused("Morale runs 2 to 12")
            return v
        if field == "slots":
            slots = parse_slots(value)
            for i, names in enumerate(d.injuries):
                if names and (i >= len(slots) or len(names) > slots[i]):
                    raise Refused("the injuries marked would not fit that track: treat or edit them first")
            if tuple(slots) == d.slots:
                raise Refused(f"{c.name}'s injury track is already {'/'.join(map(str, slots))}")
            return "/".join(map(str, slots))
        if field in ("injury_list", "injuries"):
            rows = parse_injuries(value or "", d.slots)
            return ", ".join(f"{LEVELS[i]} {name}" for i, row in enumerate(rows) for name in row)
        if field == "out":
            v = Param(name=field, kind=CHOICE, choices=("in", "fled", "surrendered"), default="in").parse(value)
            v = "" if v == "in" else v
            if v == d.out:
                raise Refused(f"{c.name} is already {v or 'in the fight'}")
            return v
        if field == "shots":
            loaded = {}
            for item in split_list(value):
                name, _, n = item.rpartition(" ")
                w = next((w for w in d.weapons if w.name.lower() == name.strip().lower()), None)
                top = w.shots if w is not None and w.is_firearm else 99 if w is not None and w.ammo >= 0 else -1
                if w is None or top < 0 or not n.isdigit() or int(n) > top:
                    raise Refused(
                        f"'{item}': name a firearm {c.name} carries and 0 to its Shots, or a bow or blowgun and its stack"
                    )
                loaded[w.name.lower()] = int(n)
            text = ", ".join(
                f"{w.name} {loaded.get(w.name.lower(), w.loaded if w.is_firearm else w.ammo)}"
                for w in d.weapons
                if w.is_firearm or w.ammo >= 0
            )
            if text == d.shots:
                raise Refused(f"{c.name}'s shots are already {text}")
            return text
        return super().check_adjust(state, c, field, value)

    def adjust(self, state: FightState, c: Combatant, field: str, value: Any) -> Combatant:
        d: BJData = c.data
        if field == "slots":
            slots = tuple(parse_slots(value))
            inj = tuple(d.injuries[i] if i < len(d.injuries) else () for i in range(len(slots)))
            return attrs.evolve(c, data=attrs.evolve(d, slots=slots, injuries=inj))
        if field in ("injury_list", "injuries"):
            inj = tuple(tuple(x) for x in parse_injuries(value or "", d.slots))
            return attrs.evolve(c, data=attrs.evolve(d, injuries=inj))
        if field == "shots":
            loaded = {}
            for item in split_list(value):
                name, _, n = item.rpartition(" ")
                loaded[name.strip().lower()] = int(n)
            ws = tuple(
                w
                if w.name.lower() not in loaded
                else attrs.evolve(w, loaded=loaded[w.name.lower()])
                if w.is_firearm
                else attrs.evolve(w, ammo=loaded[w.name.lower()])
                for w in d.weapons
            )
            return attrs.evolve(c, data=attrs.evolve(d, weapons=ws))
        if field == "out":
            return attrs.evolve(c, data=attrs.evolve(d, out="" if value == "in" else str(value or "")))
        return super().adjust(state, c, field, value)

    def tally(self, state: FightState, event: Event) -> Tally | None:
        if isinstance(event, AttackMade):
            return Tally(actor=event.actor, target=event.target, hit=event.hit)
        if isinstance(event, InjuryMarked):
            return Tally(target=event.target, harm=0 if event.index < 0 else 1, fell=event.fatal)
        if isinstance(event, MoraleChecked):
            return Tally(target=event.broken[0] if event.broken else None, fell=bool(event.broken))
        return None


system = BlackjackSystem()

__all__ = ["BlackjackSystem", "system"]
