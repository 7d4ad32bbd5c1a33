"""Morale: the book's triggers (decided in ``react`` after any action) and the 2d6 check.

"The referee rolls 2d6 and compares the result against the NPC's morale score
whenever they suffer the first casualty on their side, half their number is
taken out of combat, (if alone) they suffer 2 moderate injuries."

Rulings made here (beyond the rules table: ``morale``, ``casualty``, ``morale_triggers``), each named in a test:
- A side is the NPCs sharing a group (ungrouped NPCs are one side); one 2d6 is
  rolled for the side and compared with each standing member's Morale
  (``test_morale_sides_are_groups_and_ungrouped_npcs_are_one_side``).
- Morale is checked during the fight only (from its start to its end). A
  casualty is an NPC dropped, killed, broken or removed after the fight has
  started; NPCs already out when it started (removed during setup, dead, fled)
  are no casualties and do not count in their side's number
  (``test_a_removal_during_setup_is_no_casualty``).
- A Severe injury leaves an NPC down ("need help or will die") but still in
  the fight: it is no casualty and not out of its side's number until it dies,
  breaks (flees, surrenders) or is removed
  (``test_a_severe_npc_is_no_casualty_until_it_dies``).
- Whatever meets a trigger (an attack, quick damage, a GM adjust, a removal, a
  working) opens the prompt in the same action, logged; a trigger prompts once;
  a trigger met while that side's check is open waits for the next action after
  it (``test_a_gm_marking_an_npc_dead_prompts_morale_at_once``).
- A fight file written before this rule moved into ``react`` (its combatants
  carry sheet revision 1) opened the prompts of a GM adjust or a removal inside
  ``evolve``, unlogged; :func:`legacy_prompts` keeps replaying them exactly
  (``test_an_old_fight_file_replays_to_the_same_state``).
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from tracker.dice import Roller, roll
from tracker.errors import Refused
from tracker.events import Event, PromptRaised, PromptResolved
from tracker.kit import Draft, need, prompt, resolve
from tracker.model import NPC, Combatant, FightState, Prompt

from ..commands import MoraleCheck
from ..events import MoraleChecked, MoraleRuled
from ..records import data, fight
from ..table import R, applies
from .common import rules, side_of


def _sides(state: FightState, leave_out: tuple[str, ...] = ()) -> dict[str, list[Combatant]]:
    sides: dict[str, list[Combatant]] = {}
    for c in state.combatants:
        if c.kind == NPC and c.id not in leave_out:
            sides.setdefault(side_of(c), []).append(c)
    return sides


def _triggers(members: list[Combatant], side: str, seen: tuple[str, ...]) -> list[tuple[str, str]]:
    standing = [c for c in members if not c.removed and data(c).standing]
    out = len(members) - len(standing)
    found: list[tuple[str, str]] = []
    if out >= 1 and f"casualty:{side}" not in seen:
        found.append((f"casualty:{side}", "first casualty"))
    if len(members) >= 2 and 2 * out >= len(members) and f"half:{side}" not in seen:
        found.append((f"half:{side}", "half its number out of the fight"))
    if len(standing) == 1:
        lone = data(standing[0])
        if len(lone.slots) > 1 and len(lone.injuries[1]) >= 2 and f"alone:{standing[0].id}" not in seen:
            found.append((f"alone:{standing[0].id}", f"{standing[0].name} alone with 2 moderate injuries"))
    return found


def _open_on(state: FightState, side: str) -> Prompt | None:
    """The side's open morale prompt (its combatant is the member who checks)."""
    for p in state.prompts:
        if p.kind == "morale" and p.combatant is not None:
            c = state.find(p.combatant)
            if c is not None and c.kind == NPC and side_of(c) == side:
                return p
    return None


def _checkers(members: list[Combatant]) -> list[Combatant]:
    return [c for c in members if not c.removed and data(c).standing and 2 < data(c).morale < 12]


def _text(side: str, found: list[tuple[str, str]]) -> str:
    return f"{side}: {'; '.join(w for _, w in found)} — morale check (2d6 against Morale)"


def _params(checker: Combatant, found: list[tuple[str, str]]) -> dict[str, str]:
    return {"actor": checker.id, "trigger": "|".join(k for k, _ in found)}


@applies(R.MORALE_TRIGGERS, R.CASUALTY, R.MORALE_EXTREMES)
def due_prompts(state: FightState) -> list[PromptRaised]:
    """The morale prompts the book's triggers call for now (none outside the fight)."""
    if not state.started or state.ended:
        return []
    record = fight(state)
    out: list[PromptRaised] = []
    for side, members in _sides(state, record.setup_out).items():
        checkers = _checkers(members)
        if not checkers or _open_on(state, side) is not None:
            continue
        found = _triggers(members, side, record.morale_seen)
        if found:
            c = checkers[0]
            params = _params(c, found)
            out.append(prompt("morale", _text(side, found), c.id, command="morale", params=params, outcomes=OUTCOMES))
    return out


HOLDS, FLEES, SURRENDERS = "holds", "breaks: flees", "breaks: surrenders"
OUTCOMES = (HOLDS, FLEES, SURRENDERS)  # a morale prompt settled by ruling


@applies(R.MORALE)
def ruled(before: FightState, events: Sequence[Event]) -> list[Event]:
    """A morale prompt the GM settled by ruling: a side that breaks flees or surrenders, every member that checks
    morale with it (as a failed roll would have it); one that holds stays."""
    out: list[Event] = []
    for ev in events:
        if not isinstance(ev, PromptResolved) or ev.outcome not in (FLEES, SURRENDERS):
            continue
        p = next((x for x in before.prompts if x.id == ev.prompt_id and x.kind == "morale"), None)
        c = before.find(p.combatant) if p is not None and p.combatant else None
        if c is None:
            continue
        side = side_of(c)
        members = [x for x in before.combatants if x.kind == NPC and side_of(x) == side and not x.removed]
        broken = tuple(x.id for x in _checkers(members))
        if broken:
            out.append(MoraleRuled(side=side, broken=broken, outcome="fled" if ev.outcome == FLEES else "surrendered"))
    return out


def legacy_prompts(state: FightState) -> list[PromptRaised]:
    """What the plug-in's evolve opened after a GM adjust or a removal in fight files written before morale
    moved into react (every NPC counted, removed during setup too; one prompt id per side). Replay only."""
    record = fight(state)
    out: list[PromptRaised] = []
    for side, members in _sides(state).items():
        pid = f"morale:{side}"
        checkers = _checkers(members)
        if not checkers or any(p.id == pid for p in state.prompts):
            continue
        found = _triggers(members, side, record.morale_seen)
        if found:
            c = checkers[0]
            old = Prompt(id=pid, kind="morale", text=_text(side, found), combatant=c.id, command="morale")
            out.append(PromptRaised(prompt=attrs.evolve(old, params=_params(c, found))))
    return out


@rules.on(MoraleCheck)
@applies(R.MORALE, R.CASUALTY)
def _morale(d: Draft, cmd: MoraleCheck, dice: Roller) -> None:
    c = need(d.state, cmd.actor)
    if data(c).is_pc:
        raise Refused("morale checks are for NPCs: the referee rolls 2d6 against an NPC side's Morale", rule=R.MORALE)
    side = side_of(c)
    members = [x for x in d.state.combatants if x.kind == NPC and side_of(x) == side and not x.removed]
    checkers = _checkers(members)
    if not checkers:
        raise Refused(
            f"no one on the {side} side checks morale (Morale 12 never checks; Morale 2 never fights)",
            rule=R.MORALE_EXTREMES,
        )
    r = roll("2d6", dice, f"{side} morale")
    broken = tuple(x.id for x in checkers if r.total > data(x).morale)
    outcome = "fled" if cmd.outcome == "flees" else "surrendered"
    d.add(MoraleChecked(side=side, roll=r, checked=tuple(x.id for x in checkers), broken=broken, outcome=outcome))
    p = _open_on(d.state, side)
    if p is not None:
        d.add(resolve(d.state, "morale", p.combatant, f"2d6 = {r.total}"))
