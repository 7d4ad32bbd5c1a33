"""The players' view: a read-only table display that follows the live fight file.

``tracker table FILE`` runs :class:`TableApp` in a terminal; ``tracker serve
FILE`` serves the same app to browsers (see :mod:`screens.serve`).  The app
only reads the file (through :class:`saves.follow.Follower`) and has no path
that writes anything: no command palette, no screenshots, keys that change
only this viewer's own display (theme, large type).

What the players see is a projection of the fight (:func:`project`): hidden
combatants never appear; NPCs go by their alias when the GM hides NPC names;
an NPC's state is the plug-in's public descriptor unless the GM shows NPC
numbers; the log shows only public events (:func:`public_lines`).

Every word the projection gives is text, whatever the file says: control
characters are shown as escapes (:func:`tracker.text.visible`, applied once,
where :func:`project` builds what is shown), and every widget gets
:class:`~rich.text.Text`, never markup.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs
from rich.cells import cell_len
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import DataTable, Footer, Static

from saves.follow import WAITING, Follower, Snapshot
from screens import collector
from screens.signals import ending_on_signals
from tracker import Entry, Fight, Step, evolve
from tracker import events as E
from tracker.engine import coming_turns, turns_left_this_round
from tracker.model import KINDS, PC, Combatant, Condition, FightState, changed
from tracker.plugin import System
from tracker.text import counted
from tracker.text import visible as shown_as_text

LOG_LINES = 8  # how many public lines the log keeps
# how many of the latest GM actions the public log and the turn marker look back through for them (the log looked
# at the last 12 and, after a dozen actions on the hidden, showed nothing: the players could count them)
LOG_STEPS = 500


# ---------------------------------------------------------------------------
# the projection: what the players may see


@attrs.frozen
class Row:
    cid: str
    place: str
    name: str
    state: str
    conditions: str
    current: bool = False
    on_deck: bool = False
    out: bool = False
    pc: bool = False


@attrs.frozen
class Public:
    title: str
    round: str
    up: str
    on_deck: str
    rows: tuple[Row, ...]
    log: tuple[str, ...]


def visible(c: Combatant) -> bool:
    return not c.hidden


def public_names(
    state: FightState, seen: Mapping[str, int] | None = None, known_pcs: Collection[str] = ()
) -> dict[str, str]:
    """What the players call each combatant not hidden (removed ones too, for the log).

    PCs by name; NPCs by name, or by their alias when the GM hides NPC names
    (numbered when several share it: "Outlaw 1", "Outlaw 2").  ``seen``: each
    combatant's place in the order the players first saw them (:func:`first_seen`).
    Given it, a number stays with its combatant for the whole fight: in the
    order first seen, and one hidden again keeps its number (revealing a hidden
    Outlaw renamed the others, and their earlier log lines; hiding one renumbered
    the rest, which told the players someone was hidden).

    Ruling: with NPC names shown, a group member's own number ("Outlaw 3", given by the group add) is not shown
    as is: the members the players know of are numbered among themselves, as aliases are (Outlaw 3 and 4 of four
    revealed read "Outlaw 1", "Outlaw 2"; "Outlaw 3", "Outlaw 4" told of two still hidden), and one alone goes by
    the group's name (:func:`_in_group`; test:
    tests/view/test_view_secrecy.py::test_a_group_member_number_counts_only_the_members_the_players_know).

    Ruling: an NPC the players knew as a PC (``known_pcs``: :func:`known_as_pcs`) goes by its name with NPC names
    hidden, an alias or none (a PC has none; one it had as an NPC before is not used again): the players know
    the name, and the log's earlier lines keep the name they were shown with (turned NPC, every past line read
    "NPC joins the fight") (tests: tests/view/test_public_round2.py::
    test_a_pc_turned_npc_keeps_its_name_with_npc_names_hidden, test_an_npc_made_a_pc_and_back_keeps_its_name).
    """
    names: dict[str, str] = {}
    aliased: dict[str, list[str]] = {}
    order = {c.id: n for n, c in enumerate(state.combatants)}
    late = len(order)
    known = {c.id for c in state.combatants if visible(c) or (seen is not None and c.id in seen)}
    for c in state.combatants:
        shown = visible(c)
        named = c.is_pc or state.view.npc_names or c.id in known_pcs
        if not shown and (seen is None or c.id not in seen or named):
            continue
        if named:
            names[c.id] = _in_group(state, c, known, seen)
        else:
            aliased.setdefault(c.alias or "NPC", []).append(c.id)
    for alias, ids in aliased.items():
        ids.sort(key=lambda i: (seen.get(i, late) if seen is not None else 0, order[i]))
        for n, cid in enumerate(ids, start=1):
            if visible(state.get(cid)):
                names[cid] = alias if len(ids) == 1 else f"{alias} {n}"
    return names


def _numbered_in(group: str, c: Combatant) -> bool:
    """Whether ``c`` bears a number in ``group`` ("Outlaw 3" of the Outlaws), as the group add names them."""
    return not c.is_pc and c.group == group and re.fullmatch(rf"{re.escape(group)} \d+", c.name) is not None


def _in_group(state: FightState, c: Combatant, known: set[str], seen: Mapping[str, int] | None) -> str:
    """``c``'s name, its number in its group counted among the members the players know (``known``) in the order
    they first saw them (``seen``), and none while it is the only one of them ("Outlaw 1" revealed alone told the
    players of an "Outlaw 2" still hidden; "Outlaw 3" and "Outlaw 4" revealed, of an Outlaw 1 and 2)."""
    group = c.group
    if not group or not _numbered_in(group, c):
        return c.name
    order = {o.id: n for n, o in enumerate(state.combatants)}
    late = len(order)
    members = [o.id for o in state.combatants if (o.id in known or o.id == c.id) and _numbered_in(group, o)]
    if len(members) == 1:
        return group
    members.sort(key=lambda i: (seen.get(i, late) if seen is not None else 0, order[i]))
    return f"{group} {members.index(c.id) + 1}"


def first_seen(events: Iterable[E.Event | Entry]) -> dict[str, int]:
    """Each combatant's place in the order the players first saw them: added in view, or revealed.

    Ruling: only the actions in effect count (give it the events of ``Fight.steps``): an undone add or reveal
    was never seen, and its ids are given again after the undo (a wolf revealed after two outlaws added in view
    and undone read "Wolf 2"; test: tests/view/test_view_secrecy.py::test_undone_actions_are_not_seen)."""
    seen: dict[str, int] = {}
    for item in events:
        ev = item.event if isinstance(item, Entry) else item
        if type(ev) is E.CombatantAdded:
            if not ev.hidden:
                seen.setdefault(ev.id, len(seen))
        elif type(ev) is E.CombatantsRevealed:
            for cid in ev.ids:
                seen.setdefault(cid, len(seen))
    return seen


def known_as_pcs(steps: Iterable[Step]) -> frozenset[str]:
    """The combatants the players saw as PCs and the GM has made NPCs since (in the actions in effect)."""
    out: set[str] = set()
    for step in steps:
        for ev in step.events:
            if type(ev) is E.Adjusted and ev.field == "kind" and ev.old == PC:
                c = step.before.find(ev.id)
                if c is not None and visible(c):
                    out.add(ev.id)
    return frozenset(out)


def former_names(entries: Iterable[Entry]) -> dict[str, set[str]]:
    """Every name each combatant has had (added as, renamed to): a hidden one renamed "Shadow" is still not to be
    named "Lurker" in the players' view (a condition "Marked by Lurker" showed it, once renamed)."""
    had: dict[str, set[str]] = {}
    for entry in entries:
        ev = entry.event
        if type(ev) is E.CombatantAdded or type(ev) is E.CombatantRenamed:
            had.setdefault(ev.id, set()).add(ev.name)
        elif type(ev) is E.Adjusted and ev.field == "name":
            for value in (ev.old, ev.value):
                if isinstance(value, str):
                    had.setdefault(ev.id, set()).add(value)
    return had


def with_former_names(
    state: FightState, names: Mapping[str, str], had: Mapping[str, set[str]]
) -> tuple[FightState, dict[str, str]]:
    """``state`` and ``names`` as the view's words are checked against them: each name a combatant no longer has
    stands beside it as a removed stand-in of the same side (a hidden one's old name is a hidden name; a seen
    one's, a name of the one the players know)."""
    extra: list[Combatant] = []
    shown = dict(names)
    for c in state.combatants:
        for n, old in enumerate(sorted(had.get(c.id, set()) - {c.name, ""})):
            now_called = names.get(c.id, "")
            if now_called and (re.search(_word(old), now_called, re.I) or re.search(_word(now_called), old, re.I)):
                continue  # a seen one's old name inside the name it is shown by ("Marla" of "Marla Stone"): swapped
                # for the new one, it read "Marla Stone Stone's turn"
            stand_in = changed(c, id=f"{c.id}~{n}", name=old, removed=True)
            extra.append(stand_in)
            if c.id in names:
                shown[stand_in.id] = names[c.id]
    if not extra:
        return state, shown
    return changed(state, combatants=(*state.combatants, *extra)), shown


def shows_numbers(state: FightState, c: Combatant) -> bool:
    """A PC's numbers are the players' own; an NPC's only if the GM shows them."""
    return c.is_pc or state.view.npc_numbers


def _safe(fn: Any, *args: Any) -> Any:
    try:
        return fn(*args)
    except Exception:  # a plug-in bug must not take the view down
        return None


def condition_text(state: FightState, c: Combatant, cond: Condition) -> str:
    """A condition's name, its value only where numbers are shown, and the rounds left."""
    text = cond.name
    if cond.value and shows_numbers(state, c):
        text += f" {cond.value:+d}"
    left = cond.rounds_left(state)
    if left is not None:
        text += f" ({left}r)" if left > 0 else " (ends this round)"
    return text


def state_text(system: System, state: FightState, c: Combatant, names: Mapping[str, str] | None = None) -> str:
    """A PC's status in the system's own terms; an NPC's public descriptor (or status if numbers are shown).

    Given ``names`` (the players' names), the system words it with the names the players know, and a part of it
    about one they do not see is left out: twod6's "hidden from Lurker" showed a hidden wolf's name (and
    "hidden from someone" would still tell them one is there)."""
    said = state if names is None else _public_state(state, names, state)
    if shows_numbers(state, c):
        status = _without_someone(_safe(system.status, said, c) or "", names)
        standing = _safe(system.standing, state, c)
        word = standing.word if standing is not None else ""
        if word and word.lower() not in status.lower():
            return f"{word} · {status}" if status else word
        return status
    return _without_someone(_safe(system.public, said, c) or "", names)


def _without_someone(text: str, names: Mapping[str, str] | None) -> str:
    """``text``'s " · " parts but those about one hidden ("someone" in the public state), given ``names``."""
    if names is None or not re.search(_word("someone"), text):
        return text
    parts = []
    for part in text.split(" · "):
        part = re.sub(r", someone(?!\w)|(?<!\w)someone, ", "", part)
        if not re.search(_word("someone"), part):
            parts.append(part)
    return " · ".join(parts)


def _on_deck(system: System, state: FightState, shown: Mapping[str, str], after: str | None = None) -> str | None:
    """The next visible combatant to take a turn after the current one (and after ``after``'s coming turn, when
    the one shown up is still to act), as next turn would give them (in a surprise round, one of the surprising
    side or the first of round 1: it named one who did not act in it).  Turns are skipped, not combatants: the
    last of a surprise round, who opens round 1, is on deck (skipped by name, another was said to be)."""
    try:
        if state.reroll_next_round:
            coming = _this_round(system, state)
        else:
            coming = list(coming_turns(system, state))
    except Exception:  # a plug-in's takes_turns that fails: no one on deck, the view goes on
        return None
    start = coming.index(after) + 1 if after in coming else 0
    return next((cid for cid in coming[start:] if cid in shown), None)


def _this_round(system: System, state: FightState) -> list[str]:
    """The turns to come still in this round (:func:`coming_turns` stopped at the round's end).

    Ruling: while the order is provisional (it is rolled again as the next round begins: the GM's reroll, or an
    ambush whose initiative waits for the surprise action), the view makes no guess past this round: no one up
    and no one on deck from the order that will be replaced.  In a hidden ambusher's surprise turn it showed
    "Up: Ann · On deck: Bob" from the placeholder order, and round 1 then began with Bob (test:
    tests/view/test_public_round2.py::test_no_one_up_or_on_deck_while_the_ambush_order_waits)."""
    return turns_left_this_round(system, state)


def round_text(state: FightState) -> str:
    if state.ended:
        return "The fight is over"
    if not state.started:
        return "Setting up"
    return _round_line(state.round)


def _seen_turn(ev: E.Event, then: FightState, names: Mapping[str, str]) -> bool:
    """Whether ``ev`` starts a turn the players saw: of one they see now, or of one in view when it began
    (``then``: the fight as the turn began).

    Ruling: a turn is judged by who was in view when it began, not by who is now: an NPC hidden on its own turn
    (first of round 2) wound the view back to round 1, the turn before it up and "Round 2" struck from the log,
    then said again (test: tests/view/test_view_secrecy.py::test_hiding_one_on_its_own_turn_keeps_the_round)."""
    if not isinstance(ev, E.TurnStarted):
        return False
    if ev.id in names:
        return True
    c = then.find(ev.id)
    return c is not None and visible(c)


def _turns_seen(steps: Iterable[Step], names: Mapping[str, str]) -> frozenset[tuple[int, str]]:
    """The turns the players saw, by round and combatant (those of one hidden or gone since too)."""
    return frozenset(
        (step.after.round, ev.id)
        for step in steps
        for ev in step.events
        if isinstance(ev, E.TurnStarted) and _seen_turn(ev, step.after, names)
    )


def _last_seen_turn(steps: Sequence[Step], names: Mapping[str, str]) -> tuple[str, int] | None:
    """Who the last seen turn was, and in which round (None: no seen turn yet, as far as the log looks back)."""
    for step in reversed(steps):
        for ev in reversed(step.events):
            if isinstance(ev, E.TurnStarted) and _seen_turn(ev, step.after, names):
                return ev.id, step.after.round
    return None


def _turn_bookkeeping(ev: E.Event, new_round: bool = False, passed: bool = True) -> bool:
    """An event of turns passing into an unseen one, not of anything done: a turn or round starting or ending, a
    condition running out once the unseen turn or its round has begun (``passed``: one ending with the seen turn
    before it is said as ever), and in a step that starts a round (``new_round``) the order rolled again for it
    (held actions lapse with the round)."""
    return (
        isinstance(ev, E.RoundStarted | E.TurnStarted | E.TurnEnded)
        or (passed and isinstance(ev, E.ConditionRemoved) and ev.reason == "expired")
        or (new_round and isinstance(ev, E.InitiativeSet | E.OrderSet))
    )


def _passes(ev: E.Event, then: FightState, names: Mapping[str, str]) -> bool:
    """Whether ``ev`` begins what the players are not shown: a round, or an unseen one's turn."""
    return isinstance(ev, E.RoundStarted) or (isinstance(ev, E.TurnStarted) and not _seen_turn(ev, then, names))


def _as_last_seen(system: System, steps: Sequence[Step], names: Mapping[str, str]) -> FightState | None:
    """The fight as the players are shown it on a hidden turn: everything done since the last seen turn, but the
    turns and rounds that passed unseen (a hold lapsing with the round a hidden turn began, a condition running out
    at it, twod6's extra turn ending: the rows changed at that moment, and told the players someone unseen acts).
    None when the last seen turn is further back than the log looks."""
    for k in range(len(steps) - 1, -1, -1):
        if any(_seen_turn(ev, steps[k].after, names) for ev in steps[k].events):
            break
    else:
        return None
    state = steps[k].after
    held_back: dict[tuple[str, str], E.Event] = {}  # conditions run out unseen, by bearer and name
    for step in steps[k + 1 :]:
        new_round = any(isinstance(ev, E.RoundStarted) for ev in step.events)
        passed = False
        for ev in step.events:
            passed = passed or _passes(ev, step.after, names)
            if _turn_bookkeeping(ev, new_round, passed):
                if isinstance(ev, E.ConditionRemoved):
                    held_back[(ev.id, ev.name)] = ev
                continue
            if isinstance(ev, E.ConditionAdded | E.ConditionRemoved):
                # the same one again: its unseen end first (it showed twice, "Pinned (ends this round), Pinned (2r)")
                name = ev.condition.name if isinstance(ev, E.ConditionAdded) else ev.name
                ended = held_back.pop((ev.id, name), None)
                if ended is not None:
                    state = _safe(evolve, system, state, ended) or state
            state = _safe(evolve, system, state, ev) or state
    return state


def _recent_log(system: System, steps: Sequence[Step], now: FightState, names: Mapping[str, str]) -> list[str]:
    """The last public lines, from as far back as it takes to find them (GM actions on the hidden show nothing, and
    take no line's place)."""
    out: list[str] = []
    turns = _turns_seen(steps, names)
    for step in reversed(steps):
        out[:0] = public_lines(system, step, now, names, seen_turns=turns)
        if len(out) >= LOG_LINES:
            break
    return out[-LOG_LINES:]


def project(system: System, fight: Fight, title: str = "") -> Public:
    state = fight.state
    done = fight.steps
    names = public_names(state, first_seen(ev for step in done for ev in step.events), known_as_pcs(done))
    steps = done[-LOG_STEPS:]
    current = state.current if state.current in names else None
    shown_round = round_text(state)
    deck = None
    upcoming = None  # the one shown up, when its turn is still to come (no seen turn yet)
    if state.current is not None and current is None and state.started and not state.ended:
        # a hidden combatant's turn: the players still see the last seen turn (the marker went, and told them
        # someone unseen acts, and where in the order); before any seen turn, the first seen to act is up (no
        # one up happens only while the unseen act), in the round the players were told of
        last = _last_seen_turn(steps, names)
        if last is not None and last[0] in state.order:
            current, shown_round = last[0], _round_line(last[1])
            if state.interrupted == current:  # a held action taken in its turn: its turn goes on after it
                upcoming = current
        else:
            current = upcoming = _on_deck(system, state, names)
            surprise = state.round == 0 and any(i in names for i in state.surprise)
            shown_round = _round_line(0) if surprise else f"Round {max(1, state.round)}"
    if state.started and not state.ended:
        deck = _on_deck(system, state, names, after=upcoming)
        if deck == current and state.round > 0:
            deck = None  # the only one seen: its turn next round is no news ("Up: Dusty  On deck: Dusty")
    # the rows as of the turn and round the players are shown: on a hidden turn the up one's actions left, and the
    # rounds left of conditions in a round a hidden turn began, told them someone unseen acts
    seen = state
    if current is not None and current != state.current and current in state.order:
        shown_state = (_as_last_seen(system, steps, names) if upcoming is None else None) or state
        seen = changed(
            shown_state,
            turn=shown_state.order.index(current) if current in shown_state.order else state.order.index(current),
            round=_round_number(shown_round, state.round),
        )
    text_now, text_names = with_former_names(state, names, former_names(fight.entries))
    rows: list[Row] = []
    place = 0
    for c in seen.present:
        if c.id not in names:
            continue
        if c.id in seen.order:
            place += 1
        standing = _safe(system.standing, seen, c)
        conds = [_unnamed(condition_text(seen, c, cond), text_now, text_names) for cond in c.conditions]
        if c.held and _safe(system.takes_turns, seen, c) is not False:  # (one fallen while holding cannot act on it)
            conds.append("holding")
        rows.append(
            Row(
                cid=c.id,
                place=str(place) if c.id in state.order else "·",
                name=shown_as_text(names[c.id]),
                state=shown_as_text(state_text(system, seen, c, names)),
                conditions=shown_as_text(", ".join(conds)),
                current=c.id == current,
                on_deck=c.id == deck,
                out=bool(standing and standing.out),
                pc=c.is_pc,
            )
        )
    return Public(
        title=shown_as_text(state.title or title or "The fight"),
        round=shown_round,
        up=shown_as_text(names.get(current or "", "")),
        on_deck=shown_as_text(names.get(deck or "", "")),
        rows=tuple(rows),
        log=tuple(shown_as_text(line) for line in _recent_log(system, steps, text_now, text_names)),
    )


# -- the public log ------------------------------------------------------------
#
# An event's line for the players is its own public description
# (:meth:`tracker.events.Event.describe_public`), never the GM's text: prompts,
# instructions and the notes the GM typed stay with the GM.

_CORE = frozenset(E.CORE_EVENTS)


def _ids_in(value: Any, ids: frozenset[str], out: set[str], depth: int = 0) -> None:
    """Every combatant id an event mentions, wherever in its fields (tuples, dicts, nested records)."""
    if depth > 6:
        return
    if isinstance(value, str):
        if value in ids:
            out.add(value)
    elif isinstance(value, (tuple, list, frozenset, set)):
        for item in value:
            _ids_in(item, ids, out, depth + 1)
    elif isinstance(value, dict):
        for k, v in value.items():
            _ids_in(k, ids, out, depth + 1)
            _ids_in(v, ids, out, depth + 1)
    elif attrs.has(type(value)):
        for f in attrs.fields(type(value)):
            _ids_in(getattr(value, f.name), ids, out, depth + 1)


def _public_state(state: FightState, names: Mapping[str, str], now: FightState | None = None) -> FightState:
    """The state with every combatant under its public name (so an event's own text uses the alias), and the
    players' view options of ``now`` (what the view shows now, for every line: set later, they still hold)."""
    view = {} if now is None else {"view": now.view}
    return changed(
        state, combatants=tuple(changed(c, name=names.get(c.id, "someone")) for c in state.combatants), **view
    )


def _word(name: str) -> str:
    """A regular expression for ``name`` as a whole word (or words)."""
    return rf"(?<!\w){re.escape(name)}(?!\w)"


def _hidden_named(line: str, now: FightState, names: Mapping[str, str]) -> list[tuple[int, int]]:
    """Where ``line`` names a hidden combatant: the names of the seen and of the hidden looked for together, the
    longest first at each place (a hidden "Outlaw" is not in a seen "Outlaw 1", where every line about the seen
    one was dropped for it; and a hidden "Outlaw Boss" is named in full though a seen "Outlaw" begins it: the seen
    name, blanked first, hid it)."""
    seen = {n.lower() for n in names.values() if n} | {c.name.lower() for c in now.combatants if c.id in names}
    hidden = {c.name.lower() for c in now.combatants if c.id not in names and c.name} - seen
    if not hidden:
        return []
    every = sorted(seen | hidden, key=len, reverse=True)
    pattern = "|".join(_word(name) for name in every if name)
    return [m.span() for m in re.finditer(pattern, line, re.IGNORECASE) if m.group().lower() in hidden]


def _unnamed(text: str, now: FightState, names: Mapping[str, str]) -> str:
    """``text`` (a condition the GM typed on a seen combatant) with a hidden combatant's name as "someone" and an
    NPC's real name as the name the players know it by: "Marked by the Assassin" showed the hidden Assassin."""
    for start, end in sorted(_hidden_named(text, now, names), reverse=True):
        text = text[:start] + "someone" + text[end:]
    return _scrub(text, now, names) or ""


def _scrub(line: str, now: FightState, names: Mapping[str, str]) -> str | None:
    """The last guard: no hidden combatant's name (outside the names of the seen); an NPC's real name, in text a
    plug-in wrote with it, becomes the name the players know it by (in one pass, and never a real name that is
    also a name the players see: with numbered aliases, "Outlaw 1" turned into "Outlaw 2" and back)."""
    if _hidden_named(line, now, names):
        return None
    public = set(names.values())
    swaps = {
        c.name.lower(): names[c.id]
        for c in now.combatants
        if c.id in names and c.name and names[c.id] != c.name and c.name not in public
    }
    if not swaps:
        return line
    # the names the players see looked for too, longest first: an old "Deputy" swapped for "Jeb" inside a seen
    # "Deputy Jones" read "Jeb Jones"
    every = set(swaps) | {n.lower() for n in public if n}
    pattern = "|".join(_word(name) for name in sorted(every, key=len, reverse=True))
    return re.sub(pattern, lambda m: swaps.get(m.group().lower(), m.group()), line, flags=re.IGNORECASE)


def _core_line(ev: E.Event, before: FightState, now: FightState, nm: Any) -> str | None:
    if isinstance(ev, E.CombatantAdded):
        return f"{nm(ev.id)} joins the fight"
    if isinstance(ev, E.CombatantRemoved):
        return f"{nm(ev.id)} leaves the fight"
    if isinstance(ev, E.FightStarted):
        return "The fight begins" + (" with a surprise round" if ev.surprise else "")
    if isinstance(ev, E.RoundStarted):
        return "Surprise round" if ev.round == 0 else f"Round {ev.round}"
    if isinstance(ev, E.TurnStarted):
        return None if ev.resumed else f"{nm(ev.id)}'s turn"
    if isinstance(ev, E.TurnDelayed):
        return f"{nm(ev.id)} holds the action"
    if isinstance(ev, E.HeldActionTaken):
        return f"{nm(ev.id)} acts now"
    if isinstance(ev, E.ConditionAdded):
        c = now.find(ev.id)
        assert c is not None
        text = ev.condition.name
        if ev.condition.value and shows_numbers(now, c):
            text += f" {ev.condition.value:+d}"
        if ev.condition.rounds is not None:
            text += f" for {counted(ev.condition.rounds, 'round')}"
        return f"{nm(ev.id)} is {text}"
    if isinstance(ev, E.ConditionRemoved):
        return f"{nm(ev.id)} is no longer {ev.name}"
    if isinstance(ev, E.Adjusted) and ev.field == "kind" and ev.value in KINDS:
        # Ruling: a kind change is said as the side the players now see it on ("Marla is now an NPC"), whatever
        # numbers are shown: its row's "(PC)" tells it anyway, and it read "GM sets NPC's kind to npc" (test:
        # tests/view/test_public_round2.py::test_a_pc_turned_npc_keeps_its_name_with_npc_names_hidden)
        return f"{nm(ev.id)} is now {'a PC' if ev.value == PC else 'an NPC'}"
    if isinstance(ev, E.Adjusted):
        c = now.find(ev.id)
        if c is None or not shows_numbers(now, c):
            return None
        value = nm(ev.value) if isinstance(ev.value, str) and now.find(ev.value) else E.shown(ev.value)
        return f"GM sets {nm(ev.id)}'s {ev.label or ev.field} to {value}"  # (a combatant by name: it said "c2")
    if isinstance(ev, E.FightEnded):
        return "The fight ends"
    if isinstance(ev, E.CombatantsRevealed):
        return ", ".join(nm(i) for i in ev.ids) + (" appears" if len(ev.ids) == 1 else " appear")
    return None  # prompts, notes, renames, initiative rolls, hiding, view and dice settings: for the GM only


def _system_line(
    system: System, ev: E.Event, before: FightState, now: FightState, names: Mapping[str, str], mentioned: set[str]
) -> str | None:
    nm = names.get
    npcs = [i for i in mentioned if not now.get(i).is_pc]
    # the event's public text only about PCs, or with NPC numbers shown (a line about no one: only then too)
    open_numbers = now.view.npc_numbers or bool(mentioned and not npcs)
    rolls = _safe(ev.all_rolls) or ()
    if open_numbers and (now.view.dice or not rolls):
        text = _safe(ev.describe_public, _public_state(before, names, now))
        # a PC's line that names an NPC in its terms ("DV 8 (Sheriff Crane's Threat +5)"): the NPC's numbers
        if text and (now.view.npc_numbers or not _names_npc(str(text), now, names)):
            return str(text)
        if not text:
            return None
    return _tally_line(system, ev, before, now, nm)


def _tally_line(
    system: System, ev: E.Event, before: FightState, now: FightState, nm: Callable[[str], str | None]
) -> str | None:
    """What the event did, by its tally, in words without numbers but the harm to one whose numbers are shown:
    who hit or missed whom, who was harmed (``nm`` names only those the players may see do it)."""
    tally = _safe(system.tally, before, ev)
    if tally is None or not (tally.actor or tally.target):
        return None
    actor, target = nm(tally.actor or ""), nm(tally.target or "")
    if actor and target and tally.revises:  # (a roll worked out again read as a second hit: "Rook hits" twice)
        line = f"{actor}'s attack on {target} is worked out again"
        if tally.hit is not None:
            line += ": a hit" if tally.hit else ": a miss"
    elif actor and target and tally.hit is not None:
        line = f"{actor} {'hits' if tally.hit else 'misses'} {target}"
    elif actor and target and tally.deed:  # (a PC's sneak past an NPC gave the players no line at all)
        return tally.deed.replace("{actor}", actor).replace("{target}", target)
    elif actor and not tally.target and tally.deed and "{target}" not in tally.deed:
        return tally.deed.replace("{actor}", actor)  # (a PC's resolve check after a hidden foe's blow: no line)
    elif target and tally.harm < 0:  # harm taken back (a reroll): it read "Ann is harmed (-1)"
        return f"the harm to {target} is taken back"
    elif target and tally.harm:  # (the damage of a hit already said: it read as a second action, "acts against")
        line = f"{target} is harmed"
    elif tally.fell:
        return None  # a fall: the state line says it ("Doc: unconscious"; it read "the Bear acts against Doc")
    elif actor and target:
        line = f"{actor} acts against {target}"
    else:
        return None
    t = now.find(tally.target or "")
    if tally.harm > 0 and t is not None and shows_numbers(now, t) and now.view.dice:
        line += f" ({tally.harm})"
    return line


def _names_npc(text: str, now: FightState, names: Mapping[str, str]) -> bool:
    """Whether ``text`` names an NPC, by its own name or the name the players know it by."""
    for c in now.combatants:
        if c.is_pc:
            continue
        for name in {c.name, names.get(c.id, "")} - {""}:
            if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text, re.IGNORECASE):
                return True
    return False


def _has_actor(system: System, before: FightState, ev: E.Event) -> bool:
    """Whether someone did what the event records (a roll of one's own), not the GM (quick damage: "Dusty loses 2
    HP" read "Dusty is harmed (2)" when a hidden one was marked too, the words of a hidden attacker's hit)."""
    tally = _safe(system.tally, before, ev)
    return bool((tally is not None and tally.actor) or getattr(ev, "actor", None))


def _hidden_in(system: System, step: Step) -> bool:
    """Whether a combatant hidden from the players took part in the GM action (the caster of a working at a PC:
    the PC's save against it told the players the unseen caster's lead and the working's name)."""
    s = step.before
    for ev in step.events:
        after = _safe(evolve, system, s, ev) or s
        found: set[str] = set()
        _ids_in(ev, frozenset(c.id for c in after.combatants), found)
        if not isinstance(ev, E.CombatantsRevealed) and any(
            (c := st.find(cid)) is not None and not visible(c) for cid in found for st in (s, after)
        ):
            return True
        s = after
    return False


def _mentioned(ev: E.Event, now: FightState) -> set[str]:
    """The combatants an event names (a condition: its bearer; whose turn ends it is not in the players' line)."""
    if isinstance(ev, E.ConditionAdded):
        return {ev.id}
    mentioned: set[str] = set()
    _ids_in(ev, frozenset(c.id for c in now.combatants), mentioned)
    return mentioned


def _seen_then(
    ev: E.Event, before: FightState, after: FightState, now: FightState, names: Mapping[str, str], ids: set[str]
) -> bool:
    """Whether every combatant in ``ids`` is seen now and was when the event happened."""
    for cid in ids:
        if cid not in names:
            return False  # hidden now
        if isinstance(ev, E.CombatantsRevealed):
            continue
        for s in (before, after):
            c = s.find(cid)
            if c is not None and not visible(c):
                return False  # hidden when it happened
    return True


def _seen_names(state: FightState, names: Mapping[str, str]) -> Callable[[str], str | None]:
    """The public name of one the players saw in ``state`` (None for one hidden then or now)."""

    def name(cid: str) -> str | None:
        c = state.find(cid)
        return names.get(cid) if c is not None and visible(c) else None

    return name


def _round_line(number: int) -> str:
    return "Surprise round" if number == 0 else f"Round {number}"


def _round_number(line: str, default: int) -> int:
    """The round a round line says ("Round 2": 2, "Surprise round": 0)."""
    if line == _round_line(0):
        return 0
    words = line.split()
    return int(words[-1]) if len(words) == 2 and words[0] == "Round" and words[-1].isdigit() else default


def _seen_turn_follows(events: Sequence[E.Event], then: FightState, names: Mapping[str, str]) -> bool:
    """Whether the first turn to start in ``events`` is a seen one (:func:`_seen_turn`; ``then``: the fight as it
    began)."""
    turn = next((ev for ev in events if isinstance(ev, E.TurnStarted)), None)
    return turn is not None and _seen_turn(turn, then, names)


def _first_seen_turn_of_round(
    system: System,
    state: FightState,
    ev: E.TurnStarted,
    names: Mapping[str, str],
    earlier: Sequence[E.Event],
    seen_turns: Collection[tuple[int, str]] = (),
) -> bool:
    """A seen turn in a round begun by hidden turns, and the first seen one in it: the round's line goes with it
    (said alone, "Round 2" before anyone was up told the players a hidden combatant acts first).  A turn seen of
    one hidden since (``seen_turns``) said the round too (it was said again)."""
    if (
        not _seen_turn(ev, state, names)
        or ev.resumed
        or any(isinstance(e, E.RoundStarted | E.HeldActionTaken) for e in earlier)
    ):
        return False  # (a held action taken now is no turn of a new round: "Round 1" was said again)
    if any(r == state.round and cid not in state.order for r, cid in seen_turns):
        return False  # one gone since had a seen turn this round: the round was said then (a newcomer's turn after)
    for cid in state.order[: ev.index]:
        c = state.find(cid)
        if c is None or c.removed:  # (one holding had its turn: its round was said then)
            continue
        if cid not in names and (state.round, cid) not in seen_turns:
            continue
        if state.round == 0 and cid not in state.surprise:
            continue
        if _safe(system.takes_turns, state, c) is False:
            continue
        return False  # a seen combatant had its turn before: the round was said then
    return True


def _event_line(
    system: System, ev: E.Event, before: FightState, after: FightState, now: FightState, names: Mapping[str, str]
) -> str | None:
    if isinstance(ev, E.FightStarted):  # the surprising side named only where the players see one of it
        return "The fight begins" + (" with a surprise round" if any(i in names for i in ev.surprise) else "")
    mentioned = _mentioned(ev, now)
    if not _seen_then(ev, before, after, now, names, mentioned):
        return None
    if type(ev) in _CORE:
        return _core_line(ev, before, now, lambda i: names.get(i, "someone"))
    return _system_line(system, ev, before, now, names, mentioned)


def _descriptor_lines(system: System, step: Step, now: FightState, names: Mapping[str, str]) -> list[str]:
    """How a visible combatant's public state changed in one GM action ("Goblin 1: badly hurt")."""
    out = []
    for c in step.after.combatants:
        was = step.before.find(c.id)
        if c.id not in names or was is None or c.hidden or was.hidden or c.removed:
            continue
        if shows_numbers(now, c):
            old, new = _safe(system.standing, step.before, was), _safe(system.standing, step.after, c)
            a, b = (old.word if old else ""), (new.word if new else "")
        else:
            a, b = _safe(system.public, step.before, was) or "", _safe(system.public, step.after, c) or ""
        if a != b and b:
            out.append(f"{names[c.id]}: {b}")
    return out


def _initiative_roll(events: Sequence[E.Event]) -> frozenset[int]:
    """The places in ``events`` of a plug-in's events inside an initiative roll: after an initiative set and before
    the order it gives (zludge's initiative tie rolled again, among them).

    Ruling: in a GM action a hidden combatant takes part in, these are the GM's, as the core's initiative rolls
    are: an ambush whose rolls waited for a hidden ambusher's surprise action rolls them as round 1 begins, and a
    tie among the seen, said after "The fight begins" with no surprise round said, told the players someone unseen
    had acted (test: tests/view/test_public_round2.py::test_a_tie_rerolled_in_a_hidden_surprise_step_is_the_gms).
    Outside such an action they are shown as before."""
    inside = False
    out: set[int] = set()
    for n, ev in enumerate(events):
        if isinstance(ev, E.InitiativeSet):
            inside = True
        elif isinstance(ev, E.OrderSet):
            inside = False
        elif inside and type(ev) not in _CORE:
            out.add(n)
    return frozenset(out)


def public_lines(
    system: System,
    step: Step,
    now: FightState,
    names: Mapping[str, str] | None = None,
    *,
    seen_turns: Collection[tuple[int, str]] = (),
) -> list[str]:
    """The lines one GM action shows the players (none if it is all secret); ``names``: as
    :func:`public_names` gives them (by default from ``now`` alone); ``seen_turns``: the turns the players saw of
    ones hidden since (:func:`_turns_seen`), whose rounds were said with them."""
    names = public_names(now) if names is None else names
    lines: list[str] = []
    secret = _hidden_in(system, step)  # what a hidden combatant does: its effects on the seen, no more
    s = step.before
    events = step.events
    # turns passing into a hidden one: a condition running out then is not said (the players are still shown the
    # last seen turn; "Bear is no longer Blinded" came with no turn, and told of the unseen one's)
    unseen_turn = any(isinstance(ev, E.TurnStarted) for ev in events) and not any(
        _seen_turn(ev, step.after, names) for ev in events
    )
    new_round = any(isinstance(ev, E.RoundStarted) for ev in events)
    rolling = _initiative_roll(events) if secret else frozenset()
    passed = False
    for n, ev in enumerate(events):
        after = _safe(evolve, system, s, ev) or s
        passed = passed or _passes(ev, step.after, names)
        if unseen_turn and _turn_bookkeeping(ev, new_round, passed):
            line = None
        elif n in rolling:
            line = None  # part of an initiative roll made in a hidden one's action: the GM's, as the rolls are
        elif isinstance(ev, E.RoundStarted) and not _seen_turn_follows(events[n + 1 :], step.after, names):
            line = None  # said with the round's first seen turn: a round begun by a hidden turn told of it
        elif isinstance(ev, E.TurnStarted) and _first_seen_turn_of_round(system, s, ev, names, events[:n], seen_turns):
            lines.append(_round_line(s.round))
            line = _event_line(system, ev, s, after, now, names)
        elif type(ev) not in _CORE and (
            (secret and _safe(ev.all_rolls) and _has_actor(system, s, ev))
            or not _seen_then(ev, s, after, now, names, _mentioned(ev, now))
        ):
            # in a hidden combatant's action the seen see its effects (a hit, harm, an injury), not its rolls (a
            # save against its working told the unseen caster's lead); and an event that also names the hidden
            # (a Gun-play shot at a hidden foe, quick damage to the marked) says what it did to the seen
            line = _tally_line(system, ev, s, now, _seen_names(s, names))
        else:
            line = _event_line(system, ev, s, after, now, names)
        if line:
            clean = _scrub(line, now, names)
            if clean:
                lines.append(clean)
        s = after
    for line in _descriptor_lines(system, step, now, names):
        clean = _scrub(line, now, names)
        if clean and clean not in lines:
            lines.append(clean)
    return lines


def public_log(
    system: System, steps: Iterable[Step], now: FightState, names: Mapping[str, str] | None = None
) -> tuple[str, ...]:
    steps = tuple(steps)
    names = public_names(now, known_pcs=known_as_pcs(steps)) if names is None else names
    turns = _turns_seen(steps, names)
    out: list[str] = []
    for step in steps:
        out.extend(public_lines(system, step, now, names, seen_turns=turns))
    return tuple(out)


# ---------------------------------------------------------------------------
# the app


def _fitted_name(name: str, pc: bool, width: int, style: str) -> Text:
    """A row's name in its column: cut with "…", a PC's keeping its "(PC)" (at 80 columns a long PC name was cut
    unsaid, its "(PC)" gone)."""
    tail = " (PC)" if pc else ""
    text = Text(name + tail, style=style)
    if width <= 0 or text.cell_len <= width:
        return text
    cut = Text(name, style=style)
    cut.truncate(max(width - cell_len(tail), 2), overflow="ellipsis")
    cut.append(tail)
    return cut


COLUMNS = (("mark", " "), ("place", "#"), ("name", "Name"), ("state", "State"), ("conditions", "Conditions"))
# Below this many columns (a phone: a 390 px browser gives 40 to 43) the table folds: the turn mark,
# the name and the state (its word first), the conditions wrapped under the state; no place column.
NARROW = 60
NARROW_COLUMNS = (("mark", " "), ("name", "Name"), ("state", "State"))


class TableApp(App[None]):
    """The players' view of one fight file; ``served`` when each browser gets its own copy."""

    TITLE = "Players' view"
    CSS_PATH = Path(__file__).with_name("table.tcss")
    ENABLE_COMMAND_PALETTE = False  # nothing for a viewer to command
    BINDINGS = [
        Binding("t", "toggle_theme", "Light/dark"),
        Binding("l", "toggle_large", "Large type"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(
        self,
        path: str | Path,
        *,
        light: bool = False,
        large: bool = False,
        served: bool = False,
        poll: float = 0.1,
    ) -> None:
        super().__init__()
        self.path = Path(path)
        self.follower = Follower(self.path)
        self.light = light
        self.large = large
        self.served = served
        self.poll_every = poll
        self.shown: Public | None = None
        self._layout: tuple[int, ...] = ()  # the widths the table's columns were made with (empty: none yet)
        self._server_pid = os.getppid()

    def compose(self) -> ComposeResult:
        with Horizontal(id="top"):
            yield Static(id="title")
            yield Static(id="round")
        yield Static(id="turn")
        yield Static(id="problem")
        yield DataTable(id="order", cursor_type="row", zebra_stripes=True, show_cursor=False)
        yield Static(id="log")
        yield Footer()

    def on_mount(self) -> None:
        self.theme = "textual-light" if self.light else "textual-dark"
        self.set_class(self.large, "-large")
        self.update_view(force=True)
        self.set_interval(self.poll_every, self.update_view)
        if self.served:
            self.set_interval(1.0, self._check_parent)

    def on_ready(self) -> None:
        """The first frame is shown: the garbage collector, held since the command started, runs again."""
        collector.release()

    def _check_parent(self) -> None:
        """Served: end with the server that started this copy, whatever happened to it."""
        if os.getppid() != self._server_pid:
            os._exit(0)

    # -- the view ----------------------------------------------------------------
    def update_view(self, force: bool = False) -> None:
        snap = self.follower.poll()
        if snap is None and not force:
            return
        self.show(self.follower.snapshot)

    def show(self, snap: Snapshot) -> None:
        problem = self.query_one("#problem", Static)
        if snap.fight is None:
            self.shown = None
            title = snap.header.title if snap.header and snap.header.title else "Players' view"
            self.query_one("#title", Static).update(Text(shown_as_text(title)))
            self.query_one("#round", Static).update("")
            self.query_one("#turn", Static).update("")
            problem.update(Text(shown_as_text(snap.problem or "No fight to show.")))
            self.set_class(True, "-problem")
            self.set_class(snap.status == WAITING, "-waiting")
            return
        view = project(snap.fight.system, snap.fight, snap.header.title if snap.header else "")
        if view == self.shown and not self.has_class("-problem"):
            return  # nothing the players see changed: nothing is drawn (every secret action repainted each
            # browser, which anyone watching the network could count)
        self.set_class(False, "-problem")
        self.shown = view
        self.query_one("#title", Static).update(Text(view.title))
        self.query_one("#round", Static).update(Text(view.round))
        turn = Text()
        if view.up:
            turn.append("Up: ", style="bold")
            turn.append(view.up, style="bold reverse")
        if view.on_deck:
            turn.append("   On deck: ", style="bold")
            turn.append(view.on_deck)
        self.query_one("#turn", Static).update(turn)
        self._fill(view)
        self._show_log(view)

    def _show_log(self, view: Public) -> None:
        """The latest public lines, as many as the screen has room for."""
        room = max(2, min(LOG_LINES, (self.size.height - 12) // 2))
        if self.large:
            room = min(room, 3)
        width = max(10, self.size.width - 2)  # the log's padding
        kept: list[str] = []
        for line in reversed(view.log):  # the newest lines, counting the rows a long one wraps to
            rows = len(Text(line).wrap(self.console, width))
            if kept and rows > room:
                break
            kept.insert(0, line)
            room -= rows
            if room <= 0:
                break
        self.query_one("#log", Static).update(Text("\n".join(kept)))

    def on_resize(self) -> None:
        self.call_after_refresh(self._refit)  # the app's size is the new one only after this event

    def _refit(self) -> None:
        if self.shown is not None:
            self._fill(self.shown)
            self._show_log(self.shown)

    @property
    def narrow(self) -> bool:
        """A phone's width: name and state only (see :data:`NARROW`)."""
        return self.size.width < NARROW

    def _columns(self, table: DataTable[Any], view: Public) -> None:
        """The columns for the width: all of them, or (narrow) the name and the state sharing the room."""
        layout: tuple[int, ...]
        if self.narrow:
            room = max(self.size.width - 2 * len(NARROW_COLUMNS) - 1 - 2, 12)  # cell padding, the mark, a scrollbar
            longest = max([len(r.name) + (5 if r.pc else 0) for r in view.rows] + [4])
            name = min(longest, max(8, room * 2 // 5))
            layout = (1, name, room - name)
        else:
            layout = self._wide_layout(view)
        if table.columns and layout == self._layout:
            table.clear()
            return
        self._layout = layout
        table.clear(columns=True)
        for (key, label), width in zip(NARROW_COLUMNS if self.narrow else COLUMNS, layout, strict=True):
            table.add_column(label, key=key, width=width)

    def _wide_layout(self, view: Public) -> tuple[int, ...]:
        """Every column as wide as its content now when the rows fit the width (a table's own widths only grow: a
        long name hidden again left its gap), else the state column cut to what is left: the conditions always show
        (a long list of a PC's guns pushed them off the players' table at 80 columns, as they are the last column)."""
        cells = [(r.place, r.name + (" (PC)" if r.pc else ""), r.state, r.conditions) for r in view.rows]
        widths = [max([cell_len(c[i]) for c in cells] + [cell_len(COLUMNS[i + 1][1])]) for i in range(4)]
        room = self.size.width - 2 * len(COLUMNS) - 2  # each cell's padding, a scrollbar
        if 1 + sum(widths) <= room:
            return (1, *widths)
        place, name, state, conditions = widths
        conditions = min(conditions, max(cell_len("Conditions"), room // 3))
        # the name takes what the state leaves it, a third of the room kept for the state (a name was cut to a
        # quarter of the room while the state had columns to spare)
        kept = min(state, max(8, room // 3))
        name = min(name, max(8, room - 1 - place - conditions - kept))
        state = max(room - 1 - place - name - conditions, 8)
        return (1, place, name, state, conditions)

    def _fill(self, view: Public) -> None:
        table: DataTable[Any] = self.query_one("#order", DataTable)
        narrow = self.narrow
        height = None if narrow else (2 if self.large else 1)  # narrow: as many lines as a cell wraps to
        with self.batch_update():
            self._columns(table, view)
            current = None
            for n, row in enumerate(view.rows):
                style = "bold" if row.current else ("dim" if row.out else "")
                mark = Text("▶" if row.current else ("·" if row.on_deck else " "), style="bold")
                width = self._layout[1 if narrow else 2] if self._layout else 0
                name = _fitted_name(row.name, row.pc, width, style)
                state = Text(row.state, style=style)
                # Text, never str: names are shown literally, never as markup
                if narrow:
                    if row.conditions:
                        state.append("\n" + row.conditions, style=f"{style} italic".strip())
                    table.add_row(mark, name, state, key=row.cid, height=height)
                else:
                    place, conditions = Text(row.place, style=style), Text(row.conditions, style=style)
                    state.overflow = conditions.overflow = "ellipsis"  # cut to its column (they were cut unsaid)
                    table.add_row(mark, place, name, state, conditions, key=row.cid, height=height)
                if row.current:
                    current = n
            table.show_cursor = current is not None  # the cursor marks whose turn it is
            if current is not None:
                table.move_cursor(row=current, animate=False)

    # -- the viewer's own display -----------------------------------------------
    def action_toggle_theme(self) -> None:
        self.theme = "textual-light" if self.current_theme.dark else "textual-dark"

    def action_toggle_large(self) -> None:
        self.large = not self.large
        self.set_class(self.large, "-large")
        if self.shown is not None:
            self._fill(self.shown)
            self._show_log(self.shown)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return not (self.served and action == "quit")

    async def action_quit(self) -> None:
        if not self.served:  # a browser's copy ends with its page (or the server), not by a key
            self.exit()

    def action_screenshot(self, filename: str | None = None, path: str | None = None) -> None:
        """No screenshots: the view writes nothing, anywhere."""


def run(path: Path, *, light: bool = False, large: bool = False, served: bool = False) -> None:
    app = TableApp(path, light=light, large=large, served=served)
    with ending_on_signals(app):  # SIGTERM, SIGHUP: the terminal put back, as on quitting
        app.run()
