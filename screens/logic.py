"""What the screens need from the core, kept free of widgets so it is easy to test.

Forms are built from :class:`~tracker.commands.Param` declarations; this module
turns what the GM typed into values, finds the command behind a prompt, reads
and writes party files and turns log entries into lines.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from tracker import Entry, Fight, evolve
from tracker import commands as C
from tracker.dice import DiceRequest
from tracker.errors import Refused
from tracker.events import Redone, Undone
from tracker.model import KINDS, Combatant, FightState, Prompt
from tracker.plugin import System

LOG_KEEP = 400  # lines of the log kept on screen (the file keeps everything)
LOG_OPEN = 60  # lines shown when a fight is opened


class ProbeRoller:
    """Lowest faces for every request: lets the app ask the rules "would you refuse this?"

    Refusals come before any roll, so a dry run with this roller shows the
    rule's reason in the form without spending the seeded roller's faces or
    asking the GM for typed-in dice.
    """

    def faces(self, request: DiceRequest) -> tuple[int, ...]:
        return (request.lo,) * request.count


def specs(system: System) -> tuple[C.CommandSpec, ...]:
    """The system's commands, then the core ones every system has."""
    own = tuple(system.commands())
    names = {s.name for s in own}
    return own + tuple(s for s in C.CORE_SPECS if s.name not in names)


def find_spec(system: System, name: str | None) -> C.CommandSpec | None:
    for s in specs(system):
        if s.name == name:
            return s
    return None


def resolve_one(state: FightState, text: str) -> str:
    """A combatant id from what the GM typed: its place in the list, its name or its id."""
    key = text.strip()
    present = state.present
    if key.isdecimal() and 1 <= int(key) <= len(present):
        return present[int(key) - 1].id
    low = key.lower()
    for c in present:
        if low in (c.name.lower(), c.id.lower()):
            return c.id
    starts = [c for c in present if c.name.lower().startswith(low)]
    if len(starts) == 1:
        return starts[0].id
    if len(starts) > 1:
        raise Refused(f"'{key}' could be {', '.join(c.name for c in starts[:4])}: type more of the name")
    raise Refused(f"there is no combatant '{key}' in this fight")


def resolve_many(state: FightState, text: str) -> tuple[str, ...]:
    """Several combatants, comma separated; repeats allowed (two shots at one target)."""
    out: list[str] = []
    for part in re.split(r"[,;]", text):
        part = part.strip()
        if not part:
            continue
        m = re.fullmatch(r"(.+?)\s*[x×]\s*(\d+)", part)
        times = 1
        if m and not part.isdecimal():
            part, times = m.group(1), int(m.group(2))
        out.extend([resolve_one(state, part)] * max(times, 1))
    return tuple(out)


def form_values(state: FightState, params: Sequence[C.Param], raw: Mapping[str, Any]) -> dict[str, Any]:
    """Typed text per field -> values the spec can parse; Refused names the bad field."""
    out: dict[str, Any] = {}
    for p in params:
        value = raw.get(p.name)
        if p.kind == C.COMBATANTS and isinstance(value, str):
            try:
                value = resolve_many(state, value) or None
            except Refused as e:
                raise Refused(f"{p.title}: {e}") from None
        elif isinstance(value, str) and not value.strip():
            value = None
        out[p.name] = value
    return out


def parse_params(state: FightState, params: Sequence[C.Param], raw: Mapping[str, Any]) -> dict[str, Any]:
    values = form_values(state, params, raw)
    return {p.name: p.parse(values.get(p.name)) for p in params}


def roles(spec: C.CommandSpec, turn_commands: Collection[type] = ()) -> tuple[str | None, str | None]:
    """The form's actor (starts on the current combatant) and subject (starts on the GM's selection).

    A spec says so with ``actor`` and ``subject``; one that does not gets the
    first required combatant field besides the actor as its subject, and when
    the actor is its only combatant field and the command is not a turn action
    (a save, a death save, an injury the GM inflicts), the actor is the subject:
    the GM chose that combatant, so the form starts on it.
    """
    names = {p.name: p for p in spec.params}
    actor = spec.actor if spec.actor in names else None
    if spec.subject in names:
        return actor, spec.subject
    others = [p for p in spec.params if p.kind in (C.COMBATANT, C.COMBATANTS) and p.required and p.name != actor]
    if others:
        return actor, others[0].name
    turn = tuple(turn_commands)
    if actor and not (turn and isinstance(spec.build, type) and issubclass(spec.build, turn)):
        return actor, actor
    return actor, None


def prefill(
    spec: C.CommandSpec,
    state: FightState,
    selected: str | None,
    given: Mapping[str, Any] | None = None,
    *,
    marked: Sequence[str] = (),
    out: Collection[str] = (),
    turn_commands: Collection[type] = (),
) -> dict[str, Any]:
    """Starting values: the current combatant acts; the selected one (or the marked ones) is the subject.

    A subject of one combatant starts on the first marked one (not the actor), when some are marked: the
    marks say whom the GM means, as they do for a subject of several.  When the selected combatant is the
    actor itself, a target falls back to the first foe still in the fight; an optional one (an opponent, a
    working's target) is never guessed.
    """
    values: dict[str, Any] = {}
    for p in spec.params:
        if p.default is not None:
            values[p.name] = p.default
    actor, subject = roles(spec, turn_commands)
    current = state.current
    acting = None
    if actor and actor != subject:
        acting = current or selected
        kind = next((p.side for p in spec.params if p.name == actor), "")
        if kind in KINDS:  # a PC's field (Arguin'): on an NPC's turn, the selected PC, else the first
            acting = of_kind(state, kind, (acting, selected), out)
        if acting:
            values[actor] = acting
            values.update(spec.defaults_for(state, acting))
    if subject:
        param = next(p for p in spec.params if p.name == subject)
        target = selected
        if marked and param.kind != C.COMBATANTS:
            target = next((m for m in marked if m != acting), target)
        me = state.find(acting) if acting else None
        chosen_one = state.find(target) if target else None
        if param.side in KINDS:  # an NPC's field (Arguin'): it started on the selected PC
            target = of_kind(state, param.side, (target,), (*out, *((acting,) if acting else ())))
        elif me is not None and param.side == "foe" and (chosen_one is None or chosen_one.kind == me.kind):
            # a foe's field (Arguin's NPC) is never one of the actor's side: it started on the selected PC
            foes = seen_first([c for c in state.present if c.kind != me.kind and c.id not in out])
            target = foes[0].id if foes else None
        elif me is not None and param.side == "ally" and target in (None, acting):
            # an ally's field (first aid's patient), the actor selected: another of its side, else itself (it
            # started on an enemy)
            allies = [c for c in state.present if c.kind == me.kind and c.id != me.id and c.id not in out]
            target = allies[0].id if allies else me.id
        elif not param.required and target in (None, acting):
            target = None  # one that may stay empty (a blackjack working's target: none is the caster): no foe
        elif acting and target in (None, acting):
            foes = seen_first([c for c in state.present if me is not None and c.kind != me.kind and c.id not in out])
            target = foes[0].id if foes else None
        if param.kind == C.COMBATANTS:
            chosen = tuple(marked) or ((target,) if target else ())
            if chosen:
                values[subject] = chosen
        elif target:
            values[subject] = target
            if subject == actor:
                values.update(spec.defaults_for(state, target))
    if given:
        values.update(given)
    return values


def seen_first(foes: list[Combatant]) -> list[Combatant]:
    """Foes the players see before the hidden (a PC's attack started on a hidden sniper, one Enter from being
    logged), in the order's order."""
    return sorted(foes, key=lambda c: c.hidden)


def of_kind(state: FightState, kind: str, prefer: Sequence[str | None], out: Collection[str] = ()) -> str | None:
    """The first of ``prefer`` who is a ``kind`` (pc or npc), else the first such one present."""
    for cid in prefer:
        c = state.find(cid) if cid else None
        if c is not None and c.kind == kind:
            return c.id
    return next((c.id for c in state.present if c.kind == kind and c.id not in out), None)


def prompt_prefill(spec: C.CommandSpec, state: FightState, prompt: Prompt) -> dict[str, Any]:
    values = prefill(spec, state, None)
    if spec.actor and prompt.combatant:
        values[spec.actor] = prompt.combatant
        values.update(spec.defaults_for(state, prompt.combatant))
    values.update(prompt.params)
    return values


def shown(value: Any, state: FightState | None = None) -> str:
    """A value as the GM would type it back into a field."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple | list):
        parts = [shown(v, state) for v in value]
        return ", ".join(parts)
    if isinstance(value, C.Modifier):
        return value.describe()
    if state is not None and isinstance(value, str) and state.find(value):
        return state.name(value)
    return str(value)


# -- the log --------------------------------------------------------------


def entry_lines(fight: Fight, limit: int = LOG_KEEP) -> list[str]:
    """Log lines of the last ``limit`` entries, each described against the state just before it (as the replay
    and the file's other readers describe it)."""
    entries = fight.entries[-limit:]
    out: list[str] = []
    actions: dict[int, list[Entry]] = {}
    for e in entries:
        actions.setdefault(e.action, []).append(e)
    for action, group in actions.items():
        before = fight.log.action_before(action) or fight.state
        out += action_lines(fight, [e.event for e in group], before, group[0].seq)
    return out


def action_lines(fight: Fight, events: Sequence[Any], before: FightState, first_seq: int | None) -> list[str]:
    """The log lines of one action's ``events`` (numbered from ``first_seq``), each described against the state
    just before it: a combatant added with its kept state is named in the lines that set that state (they said
    "GM sets c4's HP", described against the state before the combatant joined)."""
    out: list[str] = []
    state = before
    for n, ev in enumerate(events):
        out.append(line_for(fight, ev, state, None if first_seq is None else first_seq + n))
        if not isinstance(ev, Undone | Redone):
            with contextlib.suppress(Exception):  # (a plug-in failing here failed the action already)
                state = evolve(fight.system, state, ev)
    return out


def line_for(fight: Fight, event: Any, state: FightState, seq: int | None = None) -> str:
    try:
        if isinstance(event, Undone | Redone):
            text = ("undone: " if isinstance(event, Undone) else "redone: ") + fight.describe_action(event.action)
        else:
            text = event.describe(state)
    except Exception as e:  # a plug-in's describe must not take the screen down
        text = f"{type(event).__name__} ({type(e).__name__} while describing it)"
    return f"{seq:>4} {text}" if seq is not None else text


def combatant_label(state: FightState, c: Combatant) -> str:
    return f"{c.name}" + (f" [{c.group}]" if c.group else "")


def summaries(items: Iterable[str]) -> str:
    return ", ".join(items)
