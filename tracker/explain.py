"""Why: the rules behind every logged event, with their sources and the terms that went in.

:func:`explain` (``tracker.explain(fight, seq)``) takes a live fight (anything with a ``log``) or a loaded
log (:class:`~tracker.replay.Timeline`, :class:`~tracker.log.ActionLog`), finds the entry ``seq`` and works
out the states just before and after it (the state before its GM action, then that action's earlier events
folded: pure, nothing is rolled).  It gives the core's reasons for a core event (the :data:`CORE_RULES`
table: turn order, initiative, held actions, conditions and their expiry, undo, the GM's adjustments and
rulings), then whatever the system's ``explain(before, event, after)`` says.  Everything is read from the
events and the states, so a fight saved before reasons existed explains as well as a new one.

The records are :class:`~tracker.reasons.Rule` and :class:`~tracker.reasons.Reason` (re-exported here);
:func:`roll_terms`, :func:`quick_harm` and :func:`rest` help a plug-in's ``explain`` word its terms the way
the core does.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from typing import Any, NamedTuple

import attrs

from tracker import events as E
from tracker.core_rules import CORE_RULES, core_rule
from tracker.dice import Roll
from tracker.log import ActionLog, NeedOlder
from tracker.model import Combatant, Condition, FightState
from tracker.plugin import Standing, System
from tracker.reasons import Reason, Rule, cites

__all__ = [
    "CORE_RULES",
    "ActionHead",
    "Reason",
    "Rule",
    "cites",
    "core_reasons",
    "core_rule",
    "explain",
    "explain_event",
    "quick_harm",
    "rest",
    "roll_terms",
    "standing",
    "standing_seq",
]


# ---------------------------------------------------------------------------
# terms


def roll_terms(roll: Roll | None, what: str = "") -> tuple[str, ...]:
    """A roll as terms: what it was for, the dice and every face, what was kept, what exploded, the modifier."""
    if roll is None:
        return ()
    label = what or roll.label or "roll"
    if not roll.faces:
        return (f"{label}: {roll.describe()}",)
    out = [f"{label}: {roll.expr}, faces {', '.join(map(str, roll.faces))}"]
    if roll.kept != roll.faces:
        out.append(f"kept {', '.join(map(str, roll.kept))}")
    if roll.extra:
        out.append(f"exploded: +{' +'.join(map(str, roll.extra))}")
    if roll.modifier:
        out.append(f"modifier {roll.modifier:+d}")
    out.append(f"total {roll.total}")
    return tuple(out)


def quick_harm(roll: Roll | None, target: str, *, heal: bool = False, amount: int | None = None) -> Reason:
    """The core's reason for a quick damage or healing event a plug-in logged: the GM's direct harm, the
    amount and its dice (a plug-in's ``explain`` gives it with its own reasons)."""
    terms = [f"{'healing for' if heal else 'harm to'} {target} (the GM's)"]
    terms += roll_terms(roll, "amount")
    if amount is not None and (roll is None or amount != roll.total):
        terms.append(f"applied: {amount}")
    return Reason.of(core_rule("quick-harm"), *terms)


def rest(hours: int = 0, days: int = 0, note: str = "") -> Reason:
    """The core's reason for what a system's rest logged: the time the GM let pass (and the GM's note)."""
    spans = [f"{n} {unit}{'' if n == 1 else 's'}" for n, unit in ((days, "day"), (hours, "hour")) if n]
    terms = [f"time passed: {' and '.join(spans) or 'none'}"]
    if note:
        terms.append(f"GM's note: {note}")
    return Reason.of(core_rule("rest"), *terms)


def _name(state: FightState, cid: str | None) -> str:
    return state.name(cid) if cid else "-"


def _until(state: FightState, cond: Condition) -> str:
    if cond.expires_round is None:
        return "until removed"
    span = f"{cond.rounds} round{'' if cond.rounds == 1 else 's'}: " if cond.rounds else ""
    if not cond.ends_on:  # (it ends at the end of the round, whatever start or end an older file holds)
        return f"{span}to the end of round {cond.expires_round}"
    return f"{span}to the {cond.ends_at} of {_name(state, cond.ends_on)}'s turn in round {cond.expires_round}"


def _can_act(system: System, state: FightState, c: Combatant, rnd: int) -> bool:
    if c.removed or c.held or (rnd == 0 and c.id not in state.surprise):
        return False
    try:
        return bool(system.takes_turns(state, c))
    except Exception:  # a plug-in failing: nobody is said to be passed over
        return True


def _why_out(system: System, state: FightState, c: Combatant) -> str:
    if c.removed:
        return "removed"
    if c.held:
        return "holding the action"
    if state.round == 0 and c.id not in state.surprise:
        return "not in the surprise round"
    try:
        word = system.standing(state, c).word
    except Exception:  # a plug-in's standing failing: the fact stays, the word goes
        word = ""
    return word or "cannot act"


# ---------------------------------------------------------------------------
# the core's reasons, event by event


class ActionHead(NamedTuple):
    """The first line of the GM action an event belongs to: what the GM did that led to it."""

    seq: int
    line: str  # its words, as the log shows them
    event: E.Event


def core_reasons(
    system: System,
    before: FightState,
    event: E.Event,
    after: FightState,
    *,
    first_in_action: bool = True,
    took_back: str = "",
    head: ActionHead | None = None,
) -> tuple[Reason, ...]:
    """The core's reasons for one event (none for a system's own events).

    ``first_in_action`` tells a prompt settled by the GM's ruling (the first event of its action) from one a
    command resolved; ``took_back`` is what an undo or a redo took back or did again, in words; ``head`` is the
    first line of the event's action (what closed a prompt: its command, or healing, a removal…).
    """
    handler = _REASONS.get(type(event))
    if handler is None:
        return ()
    out = handler(system, before, event, after, first_in_action, took_back, head)
    return tuple(out)


def _turn(system: System, b: FightState, e: E.TurnStarted, a: FightState, *_: Any) -> list[Reason]:
    terms = [f"place {e.index + 1} of {len(a.order)} in the order", f"round {a.round}"]
    if e.resumed:
        terms.append(f"{_name(b, e.id)}'s turn goes on after a held action")
    elif b.order == a.order and len(b.order) > 1:
        n = len(b.order)
        start = b.turn + 1
        if a.round == 0 and e.id == next((i for i in b.order if i in b.surprise), None):
            start = 0  # the fight's first turn: from the top of the order (the state's turn is already at it)
        stop = e.index if e.index >= start else e.index + n
        for i in range(start, stop):
            c = b.find(b.order[i % n])
            if c is not None and not _can_act(system, b, c, a.round):
                terms.append(f"passed over: {c.name} ({_why_out(system, b, c)})")
    return [Reason.of(core_rule("turn-order"), *terms)]


def _round(system: System, b: FightState, e: E.RoundStarted, a: FightState, *_: Any) -> list[Reason]:
    if e.round == 0:
        terms = ["the surprise round"]
    elif b.round == 0:  # the fight's first round: no turn has passed the bottom of the order yet
        terms = ["the surprise round is over" if b.surprise else "the fight starts"]
    else:
        terms = ["the turn passed the bottom of the order"]
    terms.append(f"round {e.round}")
    if e.round == 0 and a.surprise:
        terms.append("acting: " + ", ".join(_name(a, i) for i in a.surprise))
    lapsed = [c.name for c in b.combatants if c.held and not c.removed]
    out = [Reason.of(core_rule("round"), *terms)]
    if lapsed:
        out.append(Reason.of(core_rule("held-action"), "holds that lapse: " + ", ".join(lapsed)))
    if b.reroll_next_round:
        out.append(Reason.of(core_rule("reroll"), "the order was rolled again for this round"))
    return out


def _initiative(system: System, b: FightState, e: E.InitiativeSet, a: FightState, *_: Any) -> list[Reason]:
    terms = [f"{_name(b, e.id)}: {e.word} {e.value if e.value is not None else 'none'}"]  # (blackjack: "order 5")
    terms += roll_terms(e.roll)
    if e.note:
        terms.append(e.note)
    elif e.roll is None:
        terms.append("set by the GM")
    return [Reason.of(core_rule("initiative"), *terms)]


def _order(system: System, b: FightState, e: E.OrderSet, a: FightState, *_: Any) -> list[Reason]:
    places = []
    for n, cid in enumerate(e.order, 1):
        c = a.find(cid)
        init = "" if c is None or c.initiative is None else f" ({c.initiative})"
        places.append(f"{n}. {_name(a, cid)}{init}")
    note = e.note
    if note.startswith("GM moved"):
        rule = core_rule("order-gm")
    elif "running fight" in note and not note.startswith("set by GM"):  # (E in a running fight: the GM's numbers)
        rule = core_rule("newcomers")
    elif note == "order for the fight":
        rule = core_rule("fight-start")
    else:
        rule = core_rule("initiative")
    terms = ["order: " + ", ".join(places)]
    if note:
        terms.append(note)
    out = [Reason.of(rule, *terms)]
    if e.ties:
        same = "; ".join(" & ".join(_name(a, i) for i in g) for g in e.ties)
        out.append(Reason.of(core_rule("initiative-ties"), f"acting at the same time: {same}"))
    return out


def _started(system: System, b: FightState, e: E.FightStarted, a: FightState, *_: Any) -> list[Reason]:
    terms = [f"{len(a.order)} in the order"]
    if e.surprise:
        terms.append("surprise round for " + ", ".join(_name(a, i) for i in e.surprise))
    return [Reason.of(core_rule("fight-start"), *terms)]


def _reroll(system: System, b: FightState, e: E.RerollPlanned, a: FightState, *_: Any) -> list[Reason]:
    return [Reason.of(core_rule("reroll"), f"everyone rolls at the start of round {e.round}", "asked by the GM")]


def _turn_ended(system: System, b: FightState, e: E.TurnEnded, a: FightState, *_: Any) -> list[Reason]:
    return [Reason.of(core_rule("turn-order"), f"{_name(b, e.id)}'s turn is over", f"round {b.round}")]


def _delayed(system: System, b: FightState, e: E.TurnDelayed, a: FightState, *_: Any) -> list[Reason]:
    return [Reason.of(core_rule("held-action"), f"{_name(b, e.id)} holds (its turn, round {b.round})")]


def _act_now(system: System, b: FightState, e: E.HeldActionTaken, a: FightState, *_: Any) -> list[Reason]:
    terms = [f"{_name(b, e.id)} steps in"]
    if b.current and b.current != e.id:
        terms.append(f"before {_name(b, b.current)}, whose turn goes on afterwards")
    return [Reason.of(core_rule("act-now"), *terms)]


def _cond_added(system: System, b: FightState, e: E.ConditionAdded, a: FightState, *_: Any) -> list[Reason]:
    c = e.condition
    terms = [f"{_name(b, e.id)}: {c.name}" + (f" {c.value:+d}" if c.value else ""), _until(b, c)]
    if c.note:
        terms.append(f"GM's note: {c.note}")
    return [Reason.of(core_rule("condition"), *terms)]


def _cond_removed(system: System, b: FightState, e: E.ConditionRemoved, a: FightState, *_: Any) -> list[Reason]:
    who = b.find(e.id)
    cond = who.condition(e.name) if who is not None else None
    if e.reason == "expired":
        terms = [f"{_name(b, e.id)}: {e.name}"]
        if cond is not None:
            terms.append("it lasted " + _until(b, cond))
        terms.append("the turns moved past that point (whether or not that turn was played)")
        return [Reason.of(core_rule("condition-expiry"), *terms)]
    how = "taken off by the GM" if e.reason == "removed by GM" else (e.reason or "ended by the rules")
    return [Reason.of(core_rule("condition-removed"), f"{_name(b, e.id)}: {e.name}", how)]


def _added(system: System, b: FightState, e: E.CombatantAdded, a: FightState, *_: Any) -> list[Reason]:
    terms = [f"{e.name} as {e.kind.upper()}" + (f" in {e.group}" if e.group else "")]
    for r in e.rolls:
        terms += roll_terms(r)
    if b.started:
        terms.append("joins the end of the order")
    if b.started and not b.ended and b.current is None and a.current == e.id:  # (tracker.engine._turn_of_newcomer)
        terms.append("no one had the turn (the last who could act left on it): it takes the empty place, its turn")
    out = [Reason.of(core_rule("roster"), *terms)]
    if e.hidden:
        out.append(Reason.of(core_rule("hidden"), f"{e.name} joins hidden from the players"))
    return out


def _removed(system: System, b: FightState, e: E.CombatantRemoved, a: FightState, *_: Any) -> list[Reason]:
    terms = [f"{_name(b, e.id)} leaves the fight"]
    if e.reason:
        terms.append(f"why: {e.reason}")
    if b.started and not b.ended and b.current == e.id:  # (tracker.engine._remove: its turn ended first)
        terms.append("it left on its turn: the turn ended, and the next is found without it (none if no one can act)")
    return [Reason.of(core_rule("roster"), *terms)]


def _renamed(system: System, b: FightState, e: E.CombatantRenamed, a: FightState, *_: Any) -> list[Reason]:
    return [Reason.of(core_rule("roster"), f"{_name(b, e.id)} is now called {e.name}", "the GM's change")]


def _hidden(system: System, b: FightState, e: E.Event, a: FightState, *_: Any) -> list[Reason]:
    ids: tuple[str, ...] = getattr(e, "ids", ())
    verb = "hidden" if isinstance(e, E.CombatantsHidden) else "shown again"
    return [Reason.of(core_rule("hidden"), f"{verb}: " + ", ".join(_name(b, i) for i in ids), "the GM's choice")]


def _adjusted(system: System, b: FightState, e: E.Adjusted, a: FightState, *_: Any) -> list[Reason]:
    """The value in the log line's words (its label, yes/no, "none", a combatant's name): the line itself,
    without the note, which is a term of its own (it read "Hero's grappled_by: None → 'c1'" beside the log's
    "Grappled by: none → Bandit 1"; test_a_gm_adjustment_reads_as_its_log_line_in_every_system).  The rule's
    reading stays with a note too: the note is said once, as that term (it replaced the reading and came again;
    test_explain_round3.py::test_a_gm_adjustment_with_a_note_*)."""
    change = attrs.evolve(e, note="").describe(b).removeprefix("GM sets ")
    terms = [change, "set by the GM"]
    if e.note:
        terms.append(f"GM's note: {e.note}")
    return [Reason.of(core_rule("gm-adjust"), *terms)]


def _note(system: System, b: FightState, e: E.NoteAdded, a: FightState, *_: Any) -> list[Reason]:
    terms = [f"about {_name(b, e.id)}"] if e.id else []
    return [Reason.of(core_rule("note"), *terms, f"the note: {e.text}")]


def _harm_rolled(system: System, b: FightState, e: E.HarmRolled, a: FightState, *_: Any) -> list[Reason]:
    caught = ", ".join(_name(b, t) for t in e.targets)
    return [Reason.of(core_rule("one-roll"), *roll_terms(e.roll, "the roll"), f"caught: {caught}", "(the GM's choice)")]


def _action(system: System, command: str) -> str:
    """The name the GM knows a system's action by (its form's title, "Death save"), not its id ("death_save")."""
    try:
        found = next((spec.title for spec in system.commands() if spec.name == command), "")
    except Exception:  # a plug-in's trouble: its id, made readable
        found = ""
    return found or command.replace("_", " ")


def _prompt(system: System, b: FightState, e: E.PromptRaised, a: FightState, *_: Any) -> list[Reason]:
    p = e.prompt
    terms = [f"open: {p.text}"]
    if p.combatant:
        terms.append(f"for {_name(b, p.combatant)}")
    if p.command:
        terms.append(f"resolved by: {_action(system, p.command)}")
    if p.outcomes:
        terms.append("a ruling may settle it as: " + " / ".join(p.outcomes))
    return [Reason.of(core_rule("prompt"), *terms)]


def _resolved(
    system: System,
    b: FightState,
    e: E.PromptResolved,
    a: FightState,
    first: bool,
    took_back: str = "",
    head: ActionHead | None = None,
) -> list[Reason]:
    """A prompt closed: the GM's ruling (the first event of its action, with an outcome or a note), else the
    action that closed it.

    Ruling: a prompt names the action that closed it by that action's log line (the log keeps events, not
    commands: what closed it may be the command it asked for, or healing above 0 HP, a removal, a moot check),
    then the rules' note.  It read "resolved by Death save" then "healed above 0 HP: no death save"
    (test_a_prompt_closed_by_healing_names_the_healing_not_the_death_save).
    """
    p = next((x for x in b.prompts if x.id == e.prompt_id), None)
    text = p.text if p is not None else e.prompt_id
    if e.outcome or (first and e.note):
        terms = [f"prompt: {text}"]
        terms.append(f"outcome picked: {e.outcome}" if e.outcome else "outcome: closed as it is")
        if e.note:
            terms.append(f"GM's note: {e.note}")
        return [Reason.of(core_rule("gm-ruling"), *terms, text=f"The GM's ruling: {e.note or e.outcome}")]
    terms = [f"prompt: {text}"]
    if head is not None and head.event is not e:
        terms.append(f"closed by event {head.seq}: {head.line}")
    if e.note:
        terms.append(e.note)
    return [Reason.of(core_rule("prompt"), *terms)]


def _ended(system: System, b: FightState, e: E.FightEnded, a: FightState, *_: Any) -> list[Reason]:
    terms = [f"after round {b.round}"] + ([f"GM's note: {e.note}"] if e.note else [])
    out = [Reason.of(core_rule("fight-end"), *terms)]
    lapsed = [c.name for c in b.combatants if c.held and not c.removed] if e.closes_round else []
    if lapsed:  # (tracker.engine._end: the end closes the round, as a new round does)
        out.append(Reason.of(core_rule("held-action"), "holds that lapse as the fight ends: " + ", ".join(lapsed)))
    return out


def _setting(system: System, b: FightState, e: E.Event, a: FightState, *_: Any) -> list[Reason]:
    if isinstance(e, E.FightNamed):
        term = f"name: {e.name}"
    elif isinstance(e, E.DiceModeSet):
        term = "dice typed in by the GM" if e.typed else "dice rolled by the tracker"
    else:
        term = e.describe(b)
    return [Reason.of(core_rule("settings"), term, "the GM's choice")]


def _undone(
    system: System, b: FightState, e: E.Event, a: FightState, first: bool, took_back: str, *_: Any
) -> list[Reason]:
    what = took_back or "an action older than this log"
    if isinstance(e, E.Undone):
        return [Reason.of(core_rule("undo"), f"took back {what}")]
    return [Reason.of(core_rule("redo"), f"did again {what}")]


_REASONS: dict[type, Any] = {
    E.TurnStarted: _turn,
    E.RoundStarted: _round,
    E.InitiativeSet: _initiative,
    E.OrderSet: _order,
    E.FightStarted: _started,
    E.RerollPlanned: _reroll,
    E.TurnEnded: _turn_ended,
    E.TurnDelayed: _delayed,
    E.HeldActionTaken: _act_now,
    E.ConditionAdded: _cond_added,
    E.ConditionRemoved: _cond_removed,
    E.CombatantAdded: _added,
    E.CombatantRemoved: _removed,
    E.CombatantRenamed: _renamed,
    E.CombatantsHidden: _hidden,
    E.CombatantsRevealed: _hidden,
    E.Adjusted: _adjusted,
    E.NoteAdded: _note,
    E.HarmRolled: _harm_rolled,
    E.PromptRaised: _prompt,
    E.PromptResolved: _resolved,
    E.FightEnded: _ended,
    E.FightNamed: _setting,
    E.DiceModeSet: _setting,
    E.ViewSet: _setting,
    E.Undone: _undone,
    E.Redone: _undone,
}


def explain_event(
    system: System,
    before: FightState,
    event: E.Event,
    after: FightState,
    *,
    first_in_action: bool = True,
    took_back: str = "",
    head: ActionHead | None = None,
) -> tuple[Reason, ...]:
    """The core's reasons for ``event`` (if it is a core event), then the system's."""
    own = core_reasons(system, before, event, after, first_in_action=first_in_action, took_back=took_back, head=head)
    return own + tuple(system.explain(before, event, after))


# ---------------------------------------------------------------------------
# from a fight or a log


def _log(fight: Any) -> ActionLog:
    log = getattr(fight, "log", fight)
    if not isinstance(log, ActionLog):
        raise TypeError(f"explain needs a fight or a log, not {type(fight).__name__}")
    return log


def _whole(fight: Any) -> ActionLog:
    """The fight's log with every entry at hand (a fight opened from a checkpoint reads its older part)."""
    entries = getattr(fight, "entries", None)
    if entries is not None and fight is not getattr(fight, "log", fight):
        list(entries)  # a live fight loads the older part of its log when every entry is asked for
    return _log(fight)


def _index(log: ActionLog, seq: int) -> int:
    n = len(log)
    guess = seq - 1
    if 0 <= guess < n and log.entry(guess).seq == seq:
        return guess
    loaded = log.loaded
    i = bisect_left(loaded, seq, key=lambda e: e.seq)
    if i < len(loaded) and loaded[i].seq == seq:
        return i + log.base_entries
    raise KeyError(f"there is no event {seq} in this fight's log")


def explain(fight: Any, seq: int) -> tuple[Reason, ...]:
    """The reasons behind logged event ``seq`` of a live fight or a loaded log (KeyError if there is none)."""
    try:
        return _explain(_log(fight), seq)
    except NeedOlder:
        return _explain(_whole(fight), seq)


def _explain(log: ActionLog, seq: int) -> tuple[Reason, ...]:
    index = _index(log, seq)
    entry = log.entry(index)
    before, after = log.state_at(index), log.state_at(index + 1)
    ev = entry.event
    took_back = ""
    if isinstance(ev, E.Undone | E.Redone):
        span = log.action_seqs(ev.action)
        lines = "" if span is None else f"event {span[0]}" if span[0] == span[1] else f"events {span[0]}–{span[1]}"
        took_back = log.describe_action(ev.action)
        took_back = f"{lines}: {took_back}" if lines else took_back
    first = index == 0 or log.entry(index - 1).action != entry.action
    head = None
    if isinstance(ev, E.PromptResolved):  # what closed it: the first line of its action
        start = index
        while start > 0 and log.entry(start - 1).action == entry.action:
            start -= 1
        try:
            words = log.describe(start)
        except NeedOlder:
            raise
        except Exception as e:  # a plug-in's describe failing: the prompt is still explained
            words = f"({type(e).__name__} while describing it)"
        head = ActionHead(int(log.entry(start).seq), words, log.entry(start).event)
    reasons = explain_event(log.system, before, ev, after, first_in_action=first, took_back=took_back, head=head)
    if entry.action in log.undone_actions and not isinstance(ev, E.Undone | E.Redone):
        undos = _undos_of(log.loaded, entry.action, index - log.base_entries)
        where = f" (event {undos[-1]})" if undos else ""
        again = ", after it was done again" if len(undos) > 1 else ""
        reasons += (Reason.of(core_rule("undo"), f"this action was taken back later{where}{again}"),)
    return reasons


def _undos_of(entries: Sequence[Any], action: int, start: int) -> list[int]:
    """The undos of an action after ``start``, in order: the last is the one that stands (the action is undone at
    the end of the log; an earlier one was redone)."""
    return [
        int(entry.seq)
        for entry in entries[max(start, 0) :]
        if type(entry.event) is E.Undone and entry.event.action == action
    ]


def standing(system: System, state: FightState, c: Combatant, *, default: Standing | None = None) -> Standing:
    """The word the initiative list shows for ``c``: the system's standing first, else the core's own words,
    "gone" for a removed combatant (out of the fight) and "held" for one holding its action.

    ``default``: what a plug-in's failing ``standing`` counts as (the core's words still added); None lets its
    exception go up, for the caller to report.

    Ruling: Why? on a combatant explains this word, the table's, found by :func:`standing_seq`; it asked the
    system only, so a held combatant was "fit to fight" and its cause the line it joined on, under a table that
    said "held" (tests/core/test_explain_held.py, tests/ui/test_why_held.py).
    """
    if default is None:
        found = system.standing(state, c)
    else:
        try:
            found = system.standing(state, c)
        except Exception:  # a plug-in failing: its word goes, the core's stay
            found = default
    if not found.word and c.removed:
        return Standing(word="gone", out=True)
    if not found.word and c.held:
        return Standing(word="held")
    return found


def standing_seq(fight: Any, cid: str, upto: int | None = None) -> int | None:
    """The event that last changed combatant ``cid``'s standing word (dead, unconscious, down, fled, held,
    gone…: :func:`standing`, as the initiative list shows it), or None
    when nothing in the log did (or the combatant is not in it).  ``upto``: only the first ``upto`` entries
    count (a replay's position).

    A fight opened from its checkpoint holds only the log after it: a word set before it is looked for in the
    whole log (read from the file), as :func:`explain` does; it said None, and the fight screen's Y explained the
    last log line (tests/core/test_why_reopened.py).  A bare partial log, which cannot read its older part, says
    None rather than a wrong event.
    """
    try:
        return _standing_seq(_log(fight), cid, upto)
    except NeedOlder:
        pass
    try:
        return _standing_seq(_whole(fight), cid, upto)
    except NeedOlder:
        return None


def _standing_seq(log: ActionLog, cid: str, upto: int | None) -> int | None:
    """:func:`standing_seq` in ``log``; NeedOlder when the answer may lie before a partial log's loaded part."""
    system = log.system

    def word(position: int) -> str | None:
        s = log.state_at(position)
        c = s.find(cid)
        return None if c is None else standing(system, s, c).word

    end = len(log) if upto is None else max(0, min(upto, len(log)))
    starts = [s for s in log.action_starts if s < end] + [end]
    # an undo or a redo is no cause, nor an action taken back by then: "why is Rook comatose?" pointed at the
    # undo of the blow that killed him, not at the shot that made him comatose.  (Undos in the loaded part take
    # back actions in it or before it; those before it are looked at only in the whole log, with every undo.)
    back: set[int] = set()
    for i in range(starts[0], end):
        ev = log.entry(i).event
        if isinstance(ev, E.Undone):
            back.add(ev.action)
        elif isinstance(ev, E.Redone):
            back.discard(ev.action)
    for j in range(len(starts) - 2, -1, -1):
        lo, hi = starts[j], starts[j + 1]
        first = log.entry(lo)
        if isinstance(first.event, (E.Undone, E.Redone)) or first.action in back:
            continue
        if word(lo) == word(hi):
            continue
        for i in range(hi - 1, lo - 1, -1):
            if word(i) != word(i + 1):
                return int(log.entry(i).seq)
    if log.partial:
        raise NeedOlder("the standing was set before the loaded part of the log")
    return None
