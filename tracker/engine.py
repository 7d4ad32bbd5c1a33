"""The fight engine: the core's decide and evolve.

``decide(system, state, command, dice)`` returns the events a command produces
or raises :class:`~tracker.errors.Refused`; ``evolve(system, state, event)`` is
pure and never rolls, and is the one place an event is applied to a state
(:func:`fold`, the action log, the replay timeline and the checkpoints all go
through it).  The live fight with undo and redo is :class:`tracker.fight.Fight`.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import attrs
import cattrs

from tracker import commands as C
from tracker import events as E
from tracker import registry
from tracker.core_rules import core_rule
from tracker.dice import Roller, amount
from tracker.errors import Refused, UnknownEvent
from tracker.model import KINDS, Combatant, FightState, ViewOptions, changed
from tracker.plugin import System, initiative_events
from tracker.plugin_check import check_prompts
from tracker.shapes import check_record
from tracker.text import NAME_MAX, NOTE_MAX, TEXT_MAX, clean, clean_sheet, name_key

CORE_FIELDS = ("name", "group", "kind", "initiative")
RECENT_NOTES = 20  # the state keeps the latest notes; every note stays in the log


def initial_state(system: System) -> FightState:
    return FightState(system=system.id, data=system.initial_data())


# ---------------------------------------------------------------------------
# decide


def decide(system: System, state: FightState, command: Any, dice: Roller) -> list[E.Event]:
    """The events ``command`` produces in ``state``, or Refused with the reason."""
    return decide_full(system, state, command, dice)[0]


def decide_full(system: System, state: FightState, command: Any, dice: Roller) -> tuple[list[E.Event], FightState]:
    """The events of ``command`` (the system's follow-ups included) and the state they lead to.

    After the decision, core or the system's, the engine asks the system's
    ``react`` for follow-up events (a death-save prompt after a GM adjust, a
    morale prompt after a removal); they belong to the same GM action.
    """
    handler = _DECIDERS.get(type(command))
    if handler is not None:
        system.check_core(state, command)
        events = handler(system, state, command, dice)
    else:
        _check_turn(system, state, command)
        events = list(system.decide(state, command, dice))
    if not events and isinstance(command, C.Adjust) and command.restore:
        return [], state  # a step of a party or preset "as it was" that already holds (C.Adjust.restore)
    if not events:
        raise Refused("nothing to do")
    _check_events(events)
    check_prompts(system, events)
    after = fold(system, events, state)
    react = getattr(system, "react", None)
    restoring = isinstance(command, C.Adjust) and command.restore  # (how it was, not harm: no death save asked)
    if react is not None and not restoring:
        more = list(react(state, tuple(events), after))
        if more:
            _check_events(more)
            check_prompts(system, more)
            after = fold(system, more, after)
            events = events + more
    return events, after


def _check_events(events: Sequence[Any]) -> None:
    for ev in events:
        if not isinstance(ev, E.Event):
            raise TypeError(f"decide returned a non-event: {ev!r}")


def json_shape(value: Any, what: str = "value") -> Any:
    """``value`` exactly as it will come back from the save file (tuples become lists).

    Values that travel as plain JSON in events (sheets, GM adjustments) are
    shaped so before they are applied, so the live state and the replayed one
    are the same.
    """
    try:
        return json.loads(json.dumps(cattrs.unstructure(value), ensure_ascii=False, allow_nan=False))
    except (TypeError, ValueError):
        raise Refused(f"the {what} {value!r} cannot be saved") from None


def _check_turn(system: System, state: FightState, command: Any) -> None:
    turn_types = getattr(system, "turn_commands", ())
    if not turn_types or not isinstance(command, turn_types) or state.current is None:
        return
    actor = getattr(command, "actor", None)
    c = state.find(actor) or state.by_name(actor) if isinstance(actor, str) else None
    # someone who cannot act at all (dead, fled) gets the system's own reason instead
    if c is not None and c.id != state.current and not c.removed and system.takes_turns(state, c):
        hint = "; a held action steps in with 'act now'" if c.held else ""
        raise Refused(f"it is {state.name(state.current)}'s turn, not {c.name}'s{hint}", rule=core_rule("turn-order"))


def need(state: FightState, cid: str | None, what: str = "combatant") -> Combatant:
    """The combatant with this id (or name) still in the fight, or Refused."""
    if not cid:
        raise Refused(f"choose a {what}")
    c = state.find(cid) or state.by_name(cid)
    if c is None or c.removed:
        raise Refused(f"there is no {what} '{cid}' in this fight")
    return c


def _add(system: System, state: FightState, cmd: C.AddCombatant, dice: Roller) -> list[E.Event]:
    """Ruling: a name that only looks like one in the fight ("Bandit  1", "Bandit\u00a01", "Bandit 1" with a
    zero-width joiner) is the same name, refused as a repeat (see :func:`tracker.text.name_key`;
    tests/core/test_gm2_fixes.py::test_names_that_only_look_the_same_are_refused)."""
    name = clean(cmd.name, "Name", NAME_MAX)
    sheet = dict(cmd.sheet)
    kind = cmd.kind
    alias = clean(cmd.alias, "Name for the players", NAME_MAX)
    preset = None
    if cmd.preset:
        preset = registry.find_preset(system, cmd.preset)
        sheet = {**preset.sheet, **sheet}
        name = name or preset.name
        alias = alias or preset.name
    if not name:
        raise Refused("a combatant needs a name")
    clean_sheet(sheet)
    if kind not in KINDS:
        raise Refused(f"kind must be one of {', '.join(KINDS)}, not '{kind}'")
    if not 1 <= cmd.count <= 50:
        raise Refused("add 1 to 50 combatants at a time")
    taken = {name_key(c.name) for c in state.combatants if not c.removed}
    names: list[str] = []
    if cmd.count == 1:
        if name_key(name) in taken:
            raise Refused(f"there is already a combatant called '{name}'")
        names = [name]
    else:
        n = 1
        while len(names) < cmd.count:
            candidate = f"{name} {n}"
            if name_key(candidate) not in taken:
                names.append(candidate)
            n += 1
    group = clean(cmd.group, "Group", NAME_MAX) or (name if cmd.count > 1 else None)
    if kind == "pc":
        alias = ""
    elif not alias:
        alias = group or ""
    events: list[E.Event] = []
    next_id = state.next_id
    given = json_shape(sheet, "sheet")
    for each in names:
        checked, rolls = system.new_combatant(state, kind, sheet, dice)
        checked = json_shape(checked, "sheet")
        events.append(
            E.CombatantAdded(
                id=f"c{next_id}",
                name=each,
                kind=kind,
                group=group,
                sheet=checked,
                rolls=tuple(rolls),
                hidden=bool(cmd.hidden),
                alias=alias,
                given=None if given == checked else given,
            )
        )
        next_id += 1
    if preset is not None and preset.now:
        events += _as_it_was(system, state, events, preset, dice)
    return events + _turn_of_newcomer(system, state, events)


def _turn_of_newcomer(system: System, state: FightState, added: list[E.Event]) -> list[E.Event]:
    """Ruling: in a running fight with no one's turn (the last who could act left on its turn), a newcomer added
    takes the empty place in the order, and its turn begins ("New's turn"): it was made the turn silently, and
    ``n`` logged "New ends the turn" of a turn that never began (tests/core/test_remove_last_actor.py::
    test_a_newcomer_after_the_last_left_takes_the_turn_with_its_line)."""
    if not _running(state) or state.current is not None:
        return []
    after = fold(system, added, state)
    new_ids = {e.id for e in added if isinstance(e, E.CombatantAdded)}
    if after.current in new_ids:
        return [E.TurnStarted(id=after.current, index=after.turn)]
    return []


def _as_it_was(system: System, state: FightState, added: list[E.Event], preset: Any, dice: Roller) -> list[E.Event]:
    """The GM adjustments that bring each combatant just added from a preset kept "as it was" to how it was."""
    out: list[E.Event] = []
    s = fold(system, added, state)
    for ev in added:
        assert isinstance(ev, E.CombatantAdded)
        for field, value in preset.now.items():
            step = C.Adjust(id=ev.id, field=field, value=value, note="as the preset was kept", restore=True)
            made = _adjust(system, s, step, dice)
            s = fold(system, made, s)
            out += made
    return out


def _remove(system: System, state: FightState, cmd: C.RemoveCombatant, dice: Roller) -> list[E.Event]:
    """The combatant leaves the fight; if it is its turn, the turn passes to the next who can act.

    Ruling: the next turn is worked out as if the one leaving were already gone. When someone else comes next in
    the order, the events are as they were before this ruling: the turn ends, the next turn starts (a new round if
    the order wraps), then the removal (tests/core/test_remove_last_actor.py::test_an_ordinary_removal_logs_as_before).
    When the next turn found was the leaving one's own (no one else could act), a whole phantom round was logged:
    "Round 2; Outlaw's turn; Outlaw leaves the fight", the round counter went up and others' round-counted
    conditions ended early. Now its turn ends (what ends at the end of its turn ends), it leaves, and the next
    turn is looked for without it: none, and no round starts
    (test_removing_the_last_who_can_act_starts_no_round, test_no_condition_of_another_expires_early,
    test_the_undo_line_names_the_removal_then_the_turns_end); someone the wrapped order would have reached only
    after it (a held one, or one not surprising in a surprise round) takes the next turn, in the order without it
    (test_a_surprise_round_passes_to_the_next_round_without_the_one_leaving). When the order is to be rolled again
    at the round it wraps to, the one leaving is not rolled for (typed-in dice asked no roll for it, and it could
    roll first and take a turn in the new round before leaving): the turn ends, it leaves, then the new round's
    rolls and turn (test_a_reroll_at_the_wrap_rolls_without_the_one_leaving). Events already in a file evolve as
    they did: only the events a new removal produces change.
    """
    c = need(state, cmd.id)
    removed = E.CombatantRemoved(id=c.id, reason=clean(cmd.reason, "Reason", NOTE_MAX))
    if state.current != c.id:
        return [removed]
    try:
        probe = next_turn_events(system, state)  # (rolls nothing: typed-in dice are asked only for what is kept)
    except Refused:
        probe = []
    nxt = next((e.id for e in probe if isinstance(e, E.TurnStarted)), c.id)
    rerolled = state.reroll_next_round and any(isinstance(e, E.RoundStarted) for e in probe)
    if nxt != c.id and not rerolled:
        return [*_turn_on(system, state, dice), removed]  # someone else comes next: as before
    # its turn ends, it leaves, and the next turn is looked for without it
    head: list[E.Event] = [E.TurnEnded(id=c.id), *_expiring(state, (state.round, state.turn, 1)), removed]
    gone = fold(system, head, state)
    before_next = attrs.evolve(gone, turn=state.turn - 1)  # one step before the place the leaving one had
    try:
        return head + _turn_on(system, before_next, dice, end_current=False)
    except Refused:
        return head


def _rename(system: System, state: FightState, cmd: C.RenameCombatant, dice: Roller) -> list[E.Event]:
    """Ruling: a new name that only looks like another combatant's is refused, as in :func:`_add`
    (tests/core/test_gm2_fixes.py::test_a_rename_to_a_name_that_only_looks_the_same_is_refused).

    Ruling: a new name that looks the same as the combatant's own (the same text, or the same but for characters
    that show nothing or a compatibility form: :func:`tracker.text.name_key`) is refused as "already", as every
    system refuses a value set to what it is: it logged "Hero is renamed Hero" and so emptied the redo stack.  A
    change of letter case alone ("bandit" to "Bandit") is a change the GM can see, and is made
    (tests/core/test_gm3_fixes.py::test_a_rename_to_the_same_name_is_refused_and_keeps_redo).
    """
    c = need(state, cmd.id)
    name = clean(cmd.name, "Name", NAME_MAX)
    if not name:
        raise Refused("a combatant needs a name")
    if _looks_the_same(name, c.name):
        raise Refused(f"{c.name}'s name is already {c.name!r}")
    key = name_key(name)
    other = next((x for x in state.combatants if not x.removed and x.id != c.id and name_key(x.name) == key), None)
    if other is not None:
        raise Refused(f"there is already a combatant called '{other.name}'")
    return [E.CombatantRenamed(id=c.id, name=name)]


def _looks_the_same(a: str, b: str) -> bool:
    """Two names compared as the core compares names (:func:`name_key`), but a change of letter case counts."""
    if name_key(a) != name_key(b):
        return False
    letters = [[ch for ch in unicodedata.normalize("NFKC", x) if ch.isalpha()] for x in (a, b)]
    return letters[0] == letters[1]


def _running(state: FightState) -> bool:
    return state.started and not state.ended


def _roll_init(system: System, state: FightState, cmd: C.RollInitiative, dice: Roller) -> list[E.Event]:
    ids = tuple(need(state, i).id for i in cmd.ids) or tuple(c.id for c in state.present)
    if not ids:
        raise Refused("add combatants before rolling initiative")
    if not _running(state):
        return list(system.roll_initiative(state, ids, dice))
    if cmd.reroll:
        if state.reroll_next_round:
            raise Refused(f"the whole order is already rolled again at the start of round {state.round + 1}")
        return [E.RerollPlanned(round=state.round + 1)]
    # a running fight: only those without an initiative roll (reinforcements), slotted into the order
    new = tuple(i for i in ids if state.get(i).initiative is None)
    if not new:
        raise Refused(
            "everyone has an initiative: rolling the whole order again mid-fight is a reroll that takes effect "
            "at the next round (I asks first)"
        )
    events = list(system.roll_initiative(state, new, dice))
    rolled = {e.id for e in events if isinstance(e, E.InitiativeSet) and e.id in new and e.value is not None}
    if not rolled:
        raise Refused(f"{system.name} rolls no initiative: newcomers join at the end of the order ([ and ] move them)")
    return _slotted(state, events, rolled, "rolled in the running fight")


def _slotted(state: FightState, events: list[E.Event], moved: set[str], note: str) -> list[E.Event]:
    """``events`` with their order replaced: ``moved`` take their places by the order the events propose, the
    others keep theirs (and the turn stays with whoever has it).

    A tie the newcomers join replaces the old tie of those they joined: two bears tied, two more rolled in the
    running fight with the same initiative, are one group of four, not the old pair beside the four
    (tests/core/test_gm2_fixes.py::test_reinforcements_joining_a_tie_make_one_group)."""
    proposals = [e for e in events if isinstance(e, E.OrderSet)]
    proposed = proposals[-1].order if proposals else ()
    order = [i for i in (state.order or tuple(c.id for c in state.present)) if i not in moved]
    for cid in sorted(moved, key=lambda i: proposed.index(i) if i in proposed else len(proposed)):
        later = proposed[proposed.index(cid) + 1 :] if cid in proposed else ()
        spot = next((order.index(x) for x in later if x in order), len(order))
        order.insert(spot, cid)
    note = "; ".join([note, *_crossed(state, tuple(order), moved)])
    joined = tuple(g for p in proposals[-1:] for g in p.ties if moved & set(g))
    ties = tuple(g for g in state.ties if not moved & set(g) and not any(set(g) & set(n) for n in joined))
    ties += tuple(g for g in joined if g not in ties)
    kept = [e for e in events if not isinstance(e, E.OrderSet)]
    return [*kept, E.OrderSet(order=tuple(order), ties=ties, note=note)]


def _crossed(state: FightState, order: tuple[str, ...], moved: set[str]) -> list[str]:
    """What a new place across the turn in play does to this round, in words for the order's line.

    Ruling: a combatant given a new place in the running fight takes it at once, and the turn stays with whoever
    has it; one moved from after the turn to before it has no turn left this round, one moved from before it to
    after it comes up this round (a second time if it has acted: one moved before the turn and back has not, and the
    state does not say which, so the line says both).  The log's order line says so, so the GM can undo a change
    not meant (it happened without a word; tests/core/test_gm3_fixes.py::test_a_new_place_across_the_turn_says_so).
    """
    old, cur = state.order, state.current
    if not (state.started and not state.ended) or cur is None or cur not in old or cur not in order:
        return []
    said = []
    for cid in sorted(moved, key=order.index):
        if cid == cur or cid not in old or cid not in order:
            continue
        was_before, now_before = old.index(cid) < old.index(cur), order.index(cid) < order.index(cur)
        if now_before and not was_before:
            said.append(f"{state.name(cid)} now acts before the turn in play: no turn left this round")
        elif was_before and not now_before:
            said.append(
                f"{state.name(cid)} now comes after the turn in play: a turn this round (a second if it has acted)"
            )
    return said


def _set_init(system: System, state: FightState, cmd: C.SetInitiative, dice: Roller) -> list[E.Event]:
    if not cmd.values:
        raise Refused("give at least one initiative value")
    values: dict[str, int] = {}
    for cid, value in cmd.values.items():
        c = need(state, cid)
        if isinstance(value, bool) or not isinstance(value, int):
            raise Refused(f"initiative for {c.name} must be a whole number, not '{value}'")
        if not _running(state) or value != c.initiative:
            values[c.id] = value
    return _initiative_set(system, state, values, "set by GM")


def _initiative_set(system: System, state: FightState, values: dict[str, int], note: str) -> list[E.Event]:
    """The events of initiative values the GM set (E, or a GM adjust of one combatant's): each value, then the
    order, re-slotted in a running fight (:func:`_slotted`)."""
    rolled = {cid: (value, None, note) for cid, value in values.items()}
    if not rolled:
        raise Refused("no initiative changed")
    word = "initiative"  # a book without initiative says the number in its own word: blackjack's "Hero order 17"
    if not getattr(system, "rolls_initiative", True):
        word = getattr(system, "initiative_words", ("", "order"))[1].lower()
    events = initiative_events(state, rolled, system.initiative_tiebreak, word=word)
    if not _running(state):
        return events
    # a running fight: those set take their places, the others keep theirs, the turn stays
    return _slotted(state, events, set(rolled), "set by GM in the running fight")


def _move(system: System, state: FightState, cmd: C.MoveInOrder, dice: Roller) -> list[E.Event]:
    c = need(state, cmd.id)
    order = [i for i in (state.order or tuple(x.id for x in state.present)) if i != c.id]
    if not 0 <= cmd.position <= len(order):
        raise Refused(f"place {cmd.position + 1} is outside the order (1 to {len(order) + 1})")
    order.insert(cmd.position, c.id)
    ties = tuple(g for g in state.ties if c.id not in g)
    return [E.OrderSet(order=tuple(order), ties=ties, note=f"GM moved {c.name} to place {cmd.position + 1}")]


def _eligible(system: System, state: FightState, c: Combatant, rnd: int) -> bool:
    if c.removed or c.held:
        return False
    if rnd == 0 and c.id not in state.surprise:
        return False
    return system.takes_turns(state, c)


Point = tuple[int, int, int]  # (round, place in the order, 0 at the start of that turn / 1 at its end)


def _end_point(state: FightState, cond: Any) -> Point | None:
    """Where in the fight a timed condition ends.

    At the start or end of the turn at ``ends_on``'s place in round
    ``expires_round``; without ``ends_on`` (or once it has left the order), at
    the end of that round.
    """
    if cond.expires_round is None:
        return None
    if cond.ends_on is not None and cond.ends_on in state.order:
        return (cond.expires_round, state.order.index(cond.ends_on), 0 if cond.ends_at == "start" else 1)
    return (cond.expires_round, len(state.order), 0)


def _expiring(state: FightState, upto: Point, inclusive: bool = True) -> list[E.Event]:
    """ConditionRemoved for every timed condition whose end point the fight has reached.

    The point is reached whoever acts: a condition on (or ending on the turn
    of) a combatant whose turn is skipped still ends on time.
    """
    out: list[E.Event] = []
    for c in state.combatants:
        if c.removed:
            continue
        for cond in c.conditions:
            p = _end_point(state, cond)
            if p is not None and (p <= upto if inclusive else p < upto):
                out.append(E.ConditionRemoved(id=c.id, name=cond.name, reason="expired"))
    return out


def next_turn_events(system: System, state: FightState, end_current: bool = True) -> list[E.Event]:
    """TurnEnded, expiries, RoundStarted if the order wraps, TurnStarted of the next who can act."""
    if not state.started:
        raise Refused("the fight has not started yet")
    if state.ended:
        raise Refused("the fight is over")
    events: list[E.Event] = []
    cur = state.current
    if cur is not None and end_current:
        events.append(E.TurnEnded(id=cur))
    if not state.order:
        raise Refused("no one is in the initiative order")
    coming = next(_coming_turns(system, state), None)
    if coming is None:
        raise Refused("no one left in the order can act")
    rnd, pos, c = coming
    # ends passed on the way (the current turn's end, skipped turns), then the new turn's start
    passed = _expiring(state, (rnd, pos, 0), inclusive=False)
    at_start = [e for e in _expiring(state, (rnd, pos, 0)) if e not in passed]
    events.extend(passed)
    if rnd != state.round:
        events.append(E.RoundStarted(round=rnd))
    events.append(E.TurnStarted(id=c.id, index=pos, resumed=c.id == state.interrupted))
    events.extend(at_start)
    return events


def _coming_turns(system: System, state: FightState) -> Iterator[tuple[int, int, Combatant]]:
    """(round, place, combatant) of each turn to come after the current one, as the order gives them, to the end
    of the next round (what this state says: the turns themselves may change it)."""
    order = state.order
    n = len(order)
    pos, rnd = state.turn, state.round
    for _ in range(2 * n + 1):
        pos += 1
        if pos >= n:
            pos, rnd = 0, rnd + 1
            if rnd > state.round + 1:
                return
        c = state.get(order[pos])
        if _eligible(system, state, c, rnd) or (
            rnd != state.round and not c.removed and system.takes_turns(state, c) and c.held
        ):
            yield rnd, pos, c


def coming_turns(system: System, state: FightState) -> Iterator[str]:
    """The ids of those who take the turns to come after the current one, in order (a surprise round's turns are
    the surprising side's; a held combatant's comes back next round), as :func:`next_turn_events` would give them
    from this state; nothing before the fight starts or after it ends."""
    if state.started and not state.ended:
        for _rnd, _pos, c in _coming_turns(system, state):
            yield c.id


def turns_left_this_round(system: System, state: FightState) -> list[str]:
    """The ids of those who take the turns to come in this round (:func:`coming_turns` stopped at its end)."""
    if not state.started or state.ended:
        return []
    return [c.id for rnd, _pos, c in _coming_turns(system, state) if rnd == state.round]


def _start(system: System, state: FightState, cmd: C.StartFight, dice: Roller) -> list[E.Event]:
    if state.started:
        raise Refused("the fight has already started")
    present = [c.id for c in state.present]
    if not present:
        raise Refused("add combatants before starting the fight")
    events: list[E.Event] = []
    order = tuple(i for i in state.order if i in present)
    if not order:
        order = system.default_order(state)
    missing = tuple(i for i in present if i not in order)
    if missing or order != state.order:
        events.append(E.OrderSet(order=order + missing, ties=state.ties, note="order for the fight"))
    surprise = tuple(need(state, i).id for i in cmd.surprise)
    events.append(E.FightStarted(surprise=surprise))
    # find the first to act in a temporary state, without rolling anything
    tmp = state
    for ev in events:
        tmp = evolve(system, tmp, ev)
    # one step before the first place of round 1 (or of the surprise round 0)
    first = attrs.evolve(tmp, round=-1 if surprise else 0, turn=len(tmp.order) - 1)
    return events + next_turn_events(system, first, end_current=False)


def _next(system: System, state: FightState, cmd: C.NextTurn, dice: Roller) -> list[E.Event]:
    if state.prompts:
        raise Refused(f"resolve first: {state.prompts[0].text}", rule=core_rule("prompt"))
    return _turn_on(system, state, dice)


def _turn_on(system: System, state: FightState, dice: Roller, end_current: bool = True) -> list[E.Event]:
    """The next turn; when it starts a round and the GM chose to roll the order again, the rolls come first
    (everyone's, logged with their faces), then the new round in the new order."""
    events = next_turn_events(system, state, end_current)
    cut = next((n for n, e in enumerate(events) if isinstance(e, E.RoundStarted)), None)
    if not state.reroll_next_round or cut is None:
        return events
    head = events[:cut]
    tmp = fold(system, head, state)
    rolled = list(system.roll_initiative(tmp, tuple(c.id for c in tmp.present), dice))
    tmp = fold(system, rolled, tmp)
    last = attrs.evolve(tmp, turn=len(tmp.order) - 1)  # one step before the first place of the new round
    return head + rolled + next_turn_events(system, last, end_current=False)


def _delay(system: System, state: FightState, cmd: C.Delay, dice: Roller) -> list[E.Event]:
    cid = cmd.id or state.current
    c = need(state, cid)
    if state.current != c.id:
        raise Refused(f"only the combatant whose turn it is can hold the action, and it is not {c.name}'s turn")
    held = attrs.evolve(
        state, combatants=tuple(attrs.evolve(x, held=True) if x.id == c.id else x for x in state.combatants)
    )
    return [E.TurnDelayed(id=c.id)] + _turn_on(system, held, dice, end_current=False)


def _act_now(system: System, state: FightState, cmd: C.ActNow, dice: Roller) -> list[E.Event]:
    c = need(state, cmd.id)
    if not c.held:
        raise Refused(f"{c.name} is not holding an action")
    if state.prompts:
        raise Refused(f"resolve first: {state.prompts[0].text}", rule=core_rule("prompt"))
    if not system.takes_turns(state, c):
        # Ruling: one who fell while holding (dead, unconscious) cannot step in: act now logged its turn
        # (tests/core/test_act_now_fallen.py); the hold lapses as the next round starts, as any does
        word = system.standing(state, c).word or "out of the fight"
        raise Refused(f"{c.name} is {word} and cannot act now: the held action lapses at the next round")
    order = [i for i in state.order if i != c.id]
    at = order.index(state.current) if state.current in order else state.turn
    return [E.HeldActionTaken(id=c.id), E.TurnStarted(id=c.id, index=at)]


def _add_condition(system: System, state: FightState, cmd: C.AddCondition, dice: Roller) -> list[E.Event]:
    """Ruling: a condition is the same whatever case or spacing it is typed in, as removing one reads it: "stunned"
    on a Stunned combatant is refused as a repeat, not added beside it
    (tests/core/test_gm2_fixes.py::test_a_condition_typed_again_in_another_case_is_refused).

    Ruling: before the fight starts there is no turn to end a timed condition on; it ends at the end of round N
    (as :func:`_end_point` has it), and is recorded so, whatever start or end was asked
    (tests/core/test_gm2_fixes.py::test_a_timed_condition_before_the_fight_says_the_round_it_ends)."""
    c = need(state, cmd.id)
    name = book_name(system, clean(cmd.name, "Condition", NAME_MAX))
    if not name:
        raise Refused("a condition needs a name")
    key = name_key(name)
    same = next((x for x in c.conditions if name_key(x.name) == key), None)
    if same is not None:
        raise Refused(f"{c.name} is already {same.name}")
    expires = None
    ends_on = cmd.ends_on
    ends_at = cmd.ends_at
    if cmd.rounds is not None:
        if cmd.rounds < 1:
            raise Refused("a condition lasts at least 1 round")
        if cmd.rounds > 1000:
            raise Refused("a condition lasts at most 1000 rounds")
        if cmd.ends_at not in ("start", "end"):
            raise Refused("a condition ends at the 'start' or 'end' of a turn")
        # by default it ends at the same point of the order N rounds on: the turn it was put on in
        ends_on = need(state, ends_on).id if ends_on else state.current
        expires = max(state.round, 0) + cmd.rounds
        if ends_on is None:
            ends_at = "end"
    elif ends_on:
        raise Refused("say for how many rounds, or leave 'ends on' empty")
    cond = C._condition_from(cmd)
    note = clean(cmd.note, "Note", NOTE_MAX)
    cond = attrs.evolve(cond, name=name, ends_on=ends_on, ends_at=ends_at, expires_round=expires, note=note)
    return [E.ConditionAdded(id=c.id, condition=cond)]


def book_name(system: System, typed: str) -> str:
    """A condition the book names is stored under the plug-in's own spelling, whatever case or spacing the GM
    typed (``"  PRONE "`` is ``prone``), so the rules that read it find it; any other text is kept as typed."""
    key = " ".join(typed.split()).casefold()
    for named in system.conditions():
        if " ".join(named.name.split()).casefold() == key:
            return named.name
    return typed


def _remove_condition(system: System, state: FightState, cmd: C.RemoveCondition, dice: Roller) -> list[E.Event]:
    """The condition named exactly, else the first named so in another case or spacing (a fight from an older
    version may hold "Stunned" and "stunned": removing "stunned" removes that one;
    tests/core/test_gm2_fixes.py::test_removing_prefers_the_condition_named_exactly)."""
    c = need(state, cmd.id)
    typed = cmd.name.strip()
    key = name_key(typed)
    cond = c.condition(typed) or next((x for x in c.conditions if name_key(x.name) == key), None)
    if cond is None:
        raise Refused(f"{c.name} is not {cmd.name}")
    return [E.ConditionRemoved(id=c.id, name=cond.name, reason="removed by GM")]


def _adjust(system: System, state: FightState, cmd: C.Adjust, dice: Roller) -> list[E.Event]:
    """A GM adjustment of one value: the core's (name, group, kind, initiative) or the system's.

    Ruling: a core value set to what it is already is refused with the words the systems use for theirs ("Hero's
    group is already None"; a name as :func:`_rename` compares names): it logged "Hero is renamed Hero" or
    "initiative: 19 → 19" and so emptied the redo stack
    (tests/core/test_gm3_fixes.py::test_a_core_value_adjusted_to_itself_is_refused_and_keeps_redo).

    Ruling: an initiative set here is the same as one set by E (:func:`_set_init`, one path: the value, then the
    order re-slotted in a running fight, the turn staying where it is; the GM's "Why" goes into the value's note):
    it set the number and left the order, and E then refused the same number as "no initiative changed"
    (tests/core/test_gm3_fixes.py::test_an_initiative_adjust_reslots_the_order_as_e_does).
    """
    c = need(state, cmd.id)
    field = clean(cmd.field, "Field", NAME_MAX)
    note = clean(cmd.note, "Why", NOTE_MAX)
    if isinstance(cmd.value, str):
        clean(cmd.value, field, TEXT_MAX)
    if field in CORE_FIELDS:
        value: Any = cmd.value
        if field == "name":
            renamed = _rename(system, state, C.RenameCombatant(id=c.id, name=str(value)), dice)
            # the GM's "Why" kept as a note of the same action (the rename's event holds none: it was dropped)
            return renamed + ([E.NoteAdded(text=note, id=c.id)] if note else [])
        if field == "kind" and value not in KINDS:
            raise Refused(f"kind must be one of {', '.join(KINDS)}")
        if field == "kind" and value == c.kind:
            raise Refused(f"{c.name} is already {'a PC' if value == 'pc' else 'an NPC'}")
        if field == "initiative":
            value = C.Param(name="initiative", kind=C.INT).parse(value)
            if value == c.initiative:
                raise Refused(f"{c.name}'s initiative is already {value!r}")
            return _initiative_set(system, state, {c.id: value}, f"set by GM: {note}" if note else "set by GM")
        if field == "group":
            value = clean(value, "Group", NAME_MAX) or None
            if value == c.group or (value is not None and c.group is not None and _looks_the_same(value, c.group)):
                raise Refused(f"{c.name}'s group is already {c.group!r}")
        return [E.Adjusted(id=c.id, field=field, value=value, old=getattr(c, field), note=note)]
    label = _adjust_label(system, state, c, field)
    value = json_shape(system.check_adjust(state, c, field, cmd.value))
    old = json_shape(getattr(c.data, field, None))
    if old == value and cmd.restore:
        return []  # (as it was already: see C.Adjust.restore)
    if old == value:
        raise Refused(f"{c.name}'s {label} is already {value!r}")
    return [E.Adjusted(id=c.id, field=field, value=value, old=old, note=note, label=label)]


def _adjust_label(system: System, state: FightState, c: Combatant, field: str) -> str:
    """The name the GM picked the value by: its label in the system's list, up to any explanation in brackets
    ("HP (0 or below: dying, death save)" is "HP"); the field's own name if the list has no such value."""
    try:
        param = next((p for p in system.adjustable(state, c) if p.name == field), None)
    except Exception:  # a plug-in's list must not stop the adjustment it checks itself
        param = None
    if param is None or not param.label:
        return field
    return param.label.split(" (")[0].strip() or field


def _note(system: System, state: FightState, cmd: C.Note, dice: Roller) -> list[E.Event]:
    text = clean(cmd.text, "Note", NOTE_MAX)
    if not text:
        raise Refused("the note is empty")
    cid = need(state, cmd.id).id if cmd.id else None
    return [E.NoteAdded(text=text, id=cid)]


def _dismiss(system: System, state: FightState, cmd: C.DismissPrompt, dice: Roller) -> list[E.Event]:
    """The ruling's outcome is checked here; the system's ``react`` applies it (a death save ruled "dies")."""
    prompt = next((p for p in state.prompts if p.id == cmd.prompt_id), None)
    if prompt is None:
        raise Refused(f"there is no open prompt '{cmd.prompt_id}'")
    note = clean(cmd.note, "Ruling", NOTE_MAX)
    outcome = cmd.outcome.strip() if isinstance(cmd.outcome, str) else ""
    if outcome and outcome not in prompt.outcomes:
        said = ", ".join(prompt.outcomes) if prompt.outcomes else "none (it closes as it is)"
        raise Refused(f"Outcome: '{outcome}' is not an outcome of this prompt; its outcomes: {said}")
    return [E.PromptResolved(prompt_id=cmd.prompt_id, note=note or "settled by GM ruling", outcome=outcome)]


def _end(system: System, state: FightState, cmd: C.EndFight, dice: Roller) -> list[E.Event]:
    """The fight ends; every condition counted in rounds ends with it.

    Ruling: rounds are counted in a fight (as for :func:`_rest`), so ending the fight ends each condition of so
    many rounds, logged after the end as "its rounds are over: the fight ended" (a 2-round "pinned" stayed on the
    table after the end, still "ends this round"). A condition with no rounds stays. Undoing the end brings them
    back (one action, one undo step). Only fights ended from now on: an end already logged removes nothing.
    Test: tests/core/test_end_fight_conditions.py.

    Ruling: the fight's end ends every held action, as a new round does (a held PC read "held" and "Holding the
    action (W: act now)" after the end and after rest, with "act now" refused). The end is logged with
    ``closes_round`` ("The fight ends — held action lapses: Dusty"), and a system clears its record of the round
    too (bnb: "This round: Gun-play"); undoing the end brings the hold back. An end already logged (without
    ``closes_round``) folds as it did. Tests: tests/core/test_held_at_end.py (test_the_end_ends_a_held_action,
    test_the_log_says_the_held_action_lapses, test_undo_of_the_end_brings_the_hold_back,
    test_an_end_logged_before_folds_as_it_did), tests/systems/bnb/test_held_at_end.py.
    """
    if state.ended:
        raise Refused("the fight is already over")
    over = [
        E.ConditionRemoved(id=c.id, name=cond.name, reason="its rounds are over: the fight ended")
        for c in state.combatants
        if not c.removed
        for cond in c.conditions
        if cond.expires_round is not None
    ]
    return [E.FightEnded(note=clean(cmd.note, "Note", NOTE_MAX), closes_round=True), *over]


def _targets(state: FightState, ids: Sequence[str], what: str = "target") -> tuple[str, ...]:
    if isinstance(ids, str) or not ids:
        raise Refused(f"choose at least one {what}")
    out: list[str] = []
    for i in ids:
        c = need(state, i, what)
        if c.id not in out:
            out.append(c.id)
    return tuple(out)


def _harm(system: System, state: FightState, cmd: C.Damage | C.Heal, dice: Roller) -> list[E.Event]:
    """Quick damage or healing: targets and amount checked here, the rest by the system's own harm path."""
    targets = _targets(state, cmd.targets)
    text = clean(cmd.amount, "Amount", 60)
    if not text:
        raise Refused("Amount: a value is needed")
    note = clean(cmd.note, "Note", NOTE_MAX)
    checked = attrs.evolve(cmd, targets=targets, amount=text, note=note)
    if isinstance(checked, C.Damage) and checked.one_roll and len(targets) > 1 and _DICE.search(text.lower()):
        # one roll for all: rolled here once, logged once; each target's own rules take its total
        roll = amount(text, dice, "one roll for all")
        rolled = E.HarmRolled(roll=roll, targets=targets)
        return [rolled, *system.decide(state, attrs.evolve(checked, amount=str(roll.total)), dice)]
    return list(system.decide(state, checked, dice))


_DICE = re.compile(r"(?<![a-z])\d*d\d")  # "2d6", "d20+1": dice; "moderate", "very hurt": a level


def _rest(system: System, state: FightState, cmd: C.Rest, dice: Roller) -> list[E.Event]:
    """Let time pass before or after the fight (never during one); the system's ``rest`` hook decides."""
    if state.started and not state.ended:
        raise Refused("time passes only by turns during a fight: end the fight first, then rest")
    ids = _targets(state, cmd.ids, "combatant") if cmd.ids else tuple(c.id for c in state.present)
    if not ids:
        raise Refused("nobody to rest: add combatants first")
    hours, days = int(cmd.hours), int(cmd.days)
    if hours < 0 or days < 0:
        raise Refused("Rest: hours and days cannot be negative")
    if hours + days == 0:
        raise Refused("Rest: let at least 1 hour or 1 day pass")
    if days > 3650 or hours > 24 * 3650:
        raise Refused("Rest: at most ten years at a time")
    checked = attrs.evolve(cmd, ids=ids, hours=hours, days=days, note=clean(cmd.note, "Note", NOTE_MAX))
    rest = getattr(system, "rest", None)
    if rest is None:
        raise Refused(f"{system.name} has no rules for letting time pass")
    # a condition of so many rounds is over once hours pass (ruling: rounds are counted in a fight; a bear
    # "Enraged (ends this round)" was still shown after two days' rest)
    over = [
        E.ConditionRemoved(id=cid, name=cond.name, reason="its rounds are over: time passed")
        for cid in ids
        for cond in state.get(cid).conditions
        if cond.expires_round is not None
    ]
    return [*list(rest(state, checked, dice)), *over]


def _hide(system: System, state: FightState, cmd: C.Hide, dice: Roller) -> list[E.Event]:
    ids = _targets(state, cmd.ids, "combatant")
    todo = tuple(i for i in ids if not state.get(i).hidden)
    if not todo:
        raise Refused("already hidden from the players")
    return [E.CombatantsHidden(ids=todo)]


def _reveal(system: System, state: FightState, cmd: C.Reveal, dice: Roller) -> list[E.Event]:
    ids = _targets(state, cmd.ids, "combatant")
    todo = tuple(i for i in ids if state.get(i).hidden)
    if not todo:
        raise Refused("not hidden from the players")
    return [E.CombatantsRevealed(ids=todo)]


def _name_fight(system: System, state: FightState, cmd: C.NameFight, dice: Roller) -> list[E.Event]:
    name = clean(cmd.name, "Fight name", NAME_MAX * 2)
    if not name:
        raise Refused("the fight needs a name")
    if name == state.title:
        raise Refused(f"the fight is already called {name}")
    return [E.FightNamed(name=name)]


def _dice_mode(system: System, state: FightState, cmd: C.SetDiceMode, dice: Roller) -> list[E.Event]:
    if bool(cmd.typed) == state.typed_dice:
        raise Refused("the dice are already " + ("typed in" if cmd.typed else "rolled by the tracker"))
    return [E.DiceModeSet(typed=bool(cmd.typed))]


def _set_view(system: System, state: FightState, cmd: C.SetView, dice: Roller) -> list[E.Event]:
    v = state.view
    if (v.npc_numbers, v.npc_names, v.dice) == (cmd.npc_numbers, cmd.npc_names, cmd.dice):
        raise Refused("the players' view already shows that")
    return [E.ViewSet(npc_numbers=bool(cmd.npc_numbers), npc_names=bool(cmd.npc_names), dice=bool(cmd.dice))]


_DECIDERS: dict[type, Callable[..., list[E.Event]]] = {
    C.AddCombatant: _add,
    C.RemoveCombatant: _remove,
    C.RenameCombatant: _rename,
    C.RollInitiative: _roll_init,
    C.SetInitiative: _set_init,
    C.MoveInOrder: _move,
    C.StartFight: _start,
    C.NextTurn: _next,
    C.Delay: _delay,
    C.ActNow: _act_now,
    C.AddCondition: _add_condition,
    C.RemoveCondition: _remove_condition,
    C.Adjust: _adjust,
    C.Note: _note,
    C.DismissPrompt: _dismiss,
    C.EndFight: _end,
    C.Damage: _harm,
    C.Heal: _harm,
    C.Rest: _rest,
    C.Hide: _hide,
    C.Reveal: _reveal,
    C.NameFight: _name_fight,
    C.SetDiceMode: _dice_mode,
    C.SetView: _set_view,
}
CORE_COMMANDS: tuple[type, ...] = tuple(_DECIDERS)


# ---------------------------------------------------------------------------
# evolve


def evolve(system: System, state: FightState, event: E.Event) -> FightState:
    """Apply one event (pure): the core's part, then the system's; an event no rule applies raises UnknownEvent.

    The only place an event is applied to a state: :func:`fold`, the action log (and so the live fight, the
    replay timeline and the checkpoints) all call it.
    """
    kind = type(event)
    handler = _EVOLVERS.get(kind)
    if handler is not None:
        return system.evolve(handler(system, state, event), event)
    if kind in system.event_types:
        return system.evolve(state, event)
    raise UnknownEvent(
        f"no rule applies the event {kind.__name__} ({event.TYPE!r}): it is not in the system "
        f"'{system.id}''s event_types (a plug-in lists every event it logs there, or the log cannot read it back)"
    )


def _ev_added(system: System, s: FightState, e: E.CombatantAdded) -> FightState:
    c = Combatant(
        id=e.id,
        name=e.name,
        kind=e.kind,
        group=e.group,
        hidden=e.hidden,
        alias=e.alias,
        data=system.make_data(e.kind, e.sheet),
    )
    num = int(e.id[1:]) if e.id[1:].isdigit() else 0
    order = s.order + (e.id,) if s.started else s.order
    return changed(s, combatants=s.combatants + (c,), next_id=max(s.next_id, num + 1), order=order)


def _ev_removed(system: System, s: FightState, e: E.CombatantRemoved) -> FightState:
    s = s.update(e.id, removed=True)
    if e.id not in s.order:
        return s
    idx = s.order.index(e.id)
    order = s.order[:idx] + s.order[idx + 1 :]
    turn = s.turn - 1 if idx < s.turn else s.turn
    ties = tuple(g for g in (tuple(i for i in g if i != e.id) for g in s.ties) if len(g) > 1)
    return changed(s, order=order, turn=max(turn, 0), ties=ties)


def _ev_renamed(system: System, s: FightState, e: E.CombatantRenamed) -> FightState:
    return s.update(e.id, name=e.name)


def _ev_init(system: System, s: FightState, e: E.InitiativeSet) -> FightState:
    return s.update(e.id, initiative=e.value)


def _ev_order(system: System, s: FightState, e: E.OrderSet) -> FightState:
    cur = s.current
    turn = e.order.index(cur) if cur is not None and cur in e.order else s.turn
    return changed(s, order=e.order, ties=e.ties, turn=turn)


def _ev_started(system: System, s: FightState, e: E.FightStarted) -> FightState:
    return changed(s, started=True, surprise=e.surprise)


def _ev_reroll(system: System, s: FightState, e: E.RerollPlanned) -> FightState:
    return changed(s, reroll_next_round=True)


def _ev_round(system: System, s: FightState, e: E.RoundStarted) -> FightState:
    if s.reroll_next_round:
        s = changed(s, reroll_next_round=False)
    if any(c.held for c in s.combatants):
        s = changed(s, combatants=tuple(changed(c, held=False) if c.held else c for c in s.combatants))
    return changed(s, round=e.round, interrupted=None)


def _ev_turn(system: System, s: FightState, e: E.TurnStarted) -> FightState:
    if not 0 <= e.index < len(s.order) or s.order[e.index] != e.id:
        raise UnknownEvent(f"turn of {e.id} at place {e.index} does not match the order")
    return changed(s, turn=e.index, interrupted=None if e.resumed else s.interrupted)


def _ev_same(system: System, s: FightState, e: E.Event) -> FightState:
    return s


def _ev_delayed(system: System, s: FightState, e: E.TurnDelayed) -> FightState:
    return s.update(e.id, held=True)


def _ev_act_now(system: System, s: FightState, e: E.HeldActionTaken) -> FightState:
    cur = s.current
    order = [i for i in s.order if i != e.id]
    at = order.index(cur) if cur in order else s.turn
    order.insert(at, e.id)
    s = s.update(e.id, held=False)
    return changed(s, order=tuple(order), turn=at, interrupted=cur)


def _ev_cond_added(system: System, s: FightState, e: E.ConditionAdded) -> FightState:
    c = s.get(e.id)
    return s.replace(changed(c, conditions=c.conditions + (e.condition,)))


def _ev_cond_removed(system: System, s: FightState, e: E.ConditionRemoved) -> FightState:
    c = s.get(e.id)
    return s.replace(changed(c, conditions=tuple(x for x in c.conditions if x.name != e.name)))


def _core_value_fits(field: str, value: Any) -> bool:
    """Whether a logged value is of the kind the combatant's core field holds (a hand-edited file's "name" as a
    list passed check and replay, then crashed the fight screen, or hung it, 900 lists deep)."""
    if field == "name":
        return type(value) is str and value != ""
    if field == "group":
        return value is None or type(value) is str
    if field == "kind":
        return value in KINDS
    return value is None or type(value) is int  # initiative


def _ev_adjusted(system: System, s: FightState, e: E.Adjusted) -> FightState:
    c = s.get(e.id)
    if e.field in CORE_FIELDS:
        if not _core_value_fits(e.field, e.value):
            raise ValueError(f"{e.field} cannot be a {type(e.value).__name__}")
        return s.replace(changed(c, **{e.field: e.value}))
    after = system.adjust(s, c, e.field, e.value)
    if after.data is not c.data and after.data is not None:
        try:
            check_record(after.data)  # (a hand-edited file's "damage": "lots" passed as a number)
        except ValueError as error:
            raise ValueError(f"{e.field} cannot be {json.dumps(e.value)[:40]}: {error}") from None
    return s.replace(after)


def _ev_note(system: System, s: FightState, e: E.NoteAdded) -> FightState:
    return changed(s, notes=(*s.notes[-(RECENT_NOTES - 1) :], e.text))


def _ev_prompt(system: System, s: FightState, e: E.PromptRaised) -> FightState:
    if any(p.id == e.prompt.id for p in s.prompts):
        return s
    return changed(s, prompts=s.prompts + (e.prompt,))


def _ev_prompt_done(system: System, s: FightState, e: E.PromptResolved) -> FightState:
    return changed(s, prompts=tuple(p for p in s.prompts if p.id != e.prompt_id))


def _ev_ended(system: System, s: FightState, e: E.FightEnded) -> FightState:
    if e.closes_round and any(c.held for c in s.combatants):  # (an end logged before: holds stay, as they did)
        s = changed(s, combatants=tuple(changed(c, held=False) if c.held else c for c in s.combatants))
    return changed(s, ended=True)


def _ev_hidden(system: System, s: FightState, e: E.CombatantsHidden) -> FightState:
    for i in e.ids:
        s = s.update(i, hidden=True)
    return s


def _ev_revealed(system: System, s: FightState, e: E.CombatantsRevealed) -> FightState:
    for i in e.ids:
        s = s.update(i, hidden=False)
    return s


def _ev_named(system: System, s: FightState, e: E.FightNamed) -> FightState:
    return changed(s, title=e.name)


def _ev_dice(system: System, s: FightState, e: E.DiceModeSet) -> FightState:
    return changed(s, typed_dice=e.typed)


def _ev_view(system: System, s: FightState, e: E.ViewSet) -> FightState:
    return changed(s, view=ViewOptions(npc_numbers=e.npc_numbers, npc_names=e.npc_names, dice=e.dice))


_EVOLVERS: dict[type, Callable[..., FightState]] = {
    E.CombatantAdded: _ev_added,
    E.CombatantRemoved: _ev_removed,
    E.CombatantRenamed: _ev_renamed,
    E.InitiativeSet: _ev_init,
    E.OrderSet: _ev_order,
    E.RerollPlanned: _ev_reroll,
    E.FightStarted: _ev_started,
    E.RoundStarted: _ev_round,
    E.TurnStarted: _ev_turn,
    E.TurnEnded: _ev_same,
    E.TurnDelayed: _ev_delayed,
    E.HeldActionTaken: _ev_act_now,
    E.ConditionAdded: _ev_cond_added,
    E.ConditionRemoved: _ev_cond_removed,
    E.Adjusted: _ev_adjusted,
    E.NoteAdded: _ev_note,
    E.HarmRolled: _ev_same,
    E.PromptRaised: _ev_prompt,
    E.PromptResolved: _ev_prompt_done,
    E.FightEnded: _ev_ended,
    E.CombatantsHidden: _ev_hidden,
    E.CombatantsRevealed: _ev_revealed,
    E.FightNamed: _ev_named,
    E.DiceModeSet: _ev_dice,
    E.ViewSet: _ev_view,
}


def fold(system: System, events: Iterable[E.Event], state: FightState | None = None) -> FightState:
    """Fold events (no undo records) over a state."""
    s = initial_state(system) if state is None else state
    for ev in events:
        s = evolve(system, s, ev)
    return s
