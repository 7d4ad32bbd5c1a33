"""The figures of a fight summary, read off a replay timeline (no Textual here).

Only what is in effect at the chosen point counts: an action that was undone
(and not redone) by then is left out, as it never happened.  Hits, misses,
harm and falls come from the system's ``tally``; every roll an event carries
is compared with the expected value of its dice expression, counted once in the
figures and in at most one combatant's row (see ``summarize``).
"""

from __future__ import annotations

from functools import lru_cache
from math import comb

import attrs

from tracker.dice import DiceError, Roll, parse
from tracker.events import (
    Adjusted,
    CombatantAdded,
    CombatantRemoved,
    Event,
    HeldActionTaken,
    InitiativeSet,
    Redone,
    RoundStarted,
    TurnStarted,
    Undone,
)
from tracker.model import PC, Combatant, FightState
from tracker.plugin import Standing, System, Tally
from tracker.replay import Timeline

OTHER = "other"  # the side of harm without a known actor (a GM adjustment, say)
SIDE_NAMES = {"pc": "PCs", "npc": "NPCs", OTHER: "GM / other"}


@attrs.frozen
class Fighter:
    """One combatant's part in the fight."""

    id: str
    name: str
    side: str  # "pc" or "npc"
    turns: int = 0
    actions: int = 0  # tallied deeds as the actor (attacks, shots, ...)
    hits: int = 0
    misses: int = 0
    harm_dealt: int = 0
    harm_taken: int = 0
    rolls_above: int = 0
    rolls_below: int = 0
    rolls_even: int = 0
    fell_round: int | None = None  # the round of the first fall
    falls: int = 0  # times out of the fight (up again in between)
    left: bool = False  # removed from the fight


@attrs.frozen
class Fall:
    round: int
    seq: int
    who: str  # name
    by: str | None  # name of who felled them, if known


def in_round(number: int) -> str:
    """A round as the summary says it: round 0 is the surprise round (the chart's "S"; it said "before round 1")."""
    return "the surprise round" if number == 0 else f"round {number}"


def fall_line(fall: Fall) -> str:
    """One fall in words: "Scout fell in the surprise round (log line 21), felled by Bart"."""
    by = f", felled by {fall.by}" if fall.by else ""
    return f"{fall.who} fell in {in_round(fall.round)} (log line {fall.seq}){by}"


@attrs.frozen
class Summary:
    position: int  # entries counted (the point of the log)
    length: int  # entries in the whole log
    rounds: int
    events: int  # events in effect
    actions: int  # GM actions in effect
    undone: int  # GM actions taken back (and not redone) by this point
    fighters: tuple[Fighter, ...]
    falls: tuple[Fall, ...]
    harm_by_round: tuple[tuple[int, dict[str, int]], ...]  # (round, side -> harm dealt by that side)
    rolls: int
    rolls_above: int
    rolls_below: int
    rolls_even: int
    awards: tuple[str, ...] = ()  # what the fight earned, in the system's words (``System.awards``)
    # rolls given to no combatant's row (a side's morale roll, a GM's quick harm with no actor): ``rolls`` is the
    # sum of the rows' rolls plus these
    rolls_unowned: int = 0

    def fighter(self, name: str) -> Fighter:
        for f in self.fighters:
            if f.name == name or f.id == name:
                return f
        raise KeyError(name)

    @property
    def sides(self) -> tuple[str, ...]:
        seen = {side for _r, by in self.harm_by_round for side in by}
        return tuple(s for s in ("pc", "npc", OTHER) if s in seen)


def rolls_text(s: Summary) -> str:
    """The roll figures in words; rolls in no combatant's row are said so, so the rows plainly add up.

    "Rolls: 17 — 5 above their expected value, 12 below; 2 in no combatant's row".
    """
    even = f", {s.rolls_even} on it" if s.rolls_even else ""
    unowned = f"; {s.rolls_unowned} in no combatant's row" if s.rolls_unowned else ""
    return f"Rolls: {s.rolls} — {s.rolls_above} above their expected value, {s.rolls_below} below{even}{unowned}"


# -- how a combatant stands at the end -------------------------------------------


def _guarded(fn: object, *args: object) -> object:
    try:
        return fn(*args)  # type: ignore[operator]
    except Exception:  # a plug-in failing on a damaged state: no word, not a crash
        return None


def standing_word(system: System, state: FightState, c: Combatant) -> str:
    """The state word a GM must never miss (dead, dying, fled, unconscious…; "" when fit).

    For a combatant removed from the fight, the word it had when it was removed
    (its record is kept as it was): "dead" for an NPC removed after dying.
    """
    found = _guarded(system.standing, state, attrs.evolve(c, removed=False) if c.removed else c)
    word = found.word if isinstance(found, Standing) else ""
    if c.removed and word in ("gone", "out"):  # the core's own words for having left
        return ""
    return word


def end_state(system: System, state: FightState, c: Combatant) -> str:
    """A combatant's state, its state word first: "dead · HP -3/2 · DC 10".

    A removed combatant says both what it was and that it was removed: "dead,
    then removed" ("removed from the fight" when it was fit).  The system's status
    follows the word unless it already says it.
    """
    word = standing_word(system, state, c)
    if c.removed:
        return f"{word}, then removed" if word else "removed from the fight"
    status = _guarded(system.status, state, c)
    status = status if isinstance(status, str) else "(status unavailable)"
    if not word:
        return status or "-"
    if status.lower().startswith(word.lower()):
        return status
    return f"{word} · {status}" if status else word


# -- expected value of a dice expression ----------------------------------------


@lru_cache(maxsize=512)
def expected(expr: str) -> float | None:
    """The mean total of a dice expression (None if it does not parse).

    Exact for plain, keep-highest/lowest and Fudge dice; for exploding dice the
    extra dice are counted as if each kept die could explode (exact without keep).
    """
    try:
        e = parse(expr)
    except DiceError:
        return None
    if e.fudge:
        return float(e.modifier)
    s, n = e.sides, e.count
    mean = (1 + s) / 2
    if e.keep_high is not None:
        kept = e.keep_high
        total = sum(_order_stat(n, s, j, high=True) for j in range(1, kept + 1))
    elif e.keep_low is not None:
        kept = e.keep_low
        total = sum(_order_stat(n, s, j, high=False) for j in range(1, kept + 1))
    else:
        kept = n
        total = n * mean
    if e.explode:
        total += mean * _expected_extra(kept, s, e.explode)
    return total + e.modifier


def _order_stat(n: int, s: int, j: int, *, high: bool) -> float:
    """E of the j-th highest (or lowest) of n dice with s sides: sum over x of P(it is >= x)."""
    need = j if high else n - j + 1  # dice that must show >= x
    out = 0.0
    for x in range(2, s + 1):
        p = (s - x + 1) / s
        out += sum(comb(n, m) * p**m * (1 - p) ** (n - m) for m in range(need, n + 1))
    return 1 + out


def _expected_extra(kept: int, s: int, limit: int) -> float:
    """Mean number of extra dice: each top face (kept or extra) adds one, at most ``limit``."""
    p = 1 / s
    # distribution over pending explosions after the first roll
    dist: dict[int, float] = {}
    for m in range(kept + 1):
        dist[m] = comb(kept, m) * p**m * (1 - p) ** (kept - m)
    extra = 0.0
    for _ in range(limit):
        rolling = sum(q for k, q in dist.items() if k > 0)
        if rolling < 1e-12:
            break
        extra += rolling
        nxt: dict[int, float] = {0: dist.get(0, 0.0)}
        for k, q in dist.items():
            if k == 0:
                continue
            nxt[k] = nxt.get(k, 0.0) + q * p  # the extra die explodes again: pending stays
            nxt[k - 1] = nxt.get(k - 1, 0.0) + q * (1 - p)
        dist = nxt
    return extra


# -- the summary ---------------------------------------------------------------


def _rolls_of(event: Event) -> tuple[Roll, ...]:
    """Every roll the event carries (nested records included)."""
    return event.all_rolls()


def _actor_of(event: Event, tally: Tally | None, state: FightState) -> str | None:
    """Who did ``event``: the rules' tally's actor, else its ``actor``, ``id`` or ``by``.  An event the rules tally
    as harm to a target with no actor (the GM's quick damage) was done by no one: its ``id`` is the one harmed, and
    the GM's damage dice counted as the victim's own rolls."""
    if tally is not None and tally.actor:
        return tally.actor
    harmed = tally is not None and tally.target is not None and tally.target == getattr(event, "id", None)
    for name in ("actor", "by") if harmed else ("actor", "id", "by"):
        value = getattr(event, name, None)
        if isinstance(value, str) and state.find(value) is not None:
            return value
    return None


def _roll_owners(event: Event, rolls: tuple[Roll, ...], actor: str | None, state: FightState) -> list[str | None]:
    """Whose row each roll goes to (None: no one's).

    A combatant's setup rolls (hit points rolled as it joins) are its own; an event pairing ``ids`` one to one with
    its ``rolls`` (a tie rolled again among several) gives each its own; any other roll goes to the event's actor.
    """
    if isinstance(event, CombatantAdded):
        return [event.id] * len(rolls)
    ids, paired = getattr(event, "ids", None), getattr(event, "rolls", None)
    if (
        actor is None
        and isinstance(ids, tuple)
        and isinstance(paired, tuple)
        and len(ids) == len(paired) == len(rolls)
        and paired == rolls
        and all(isinstance(i, str) and state.find(i) is not None for i in ids)
    ):
        return list(ids)
    return [actor if actor is not None and state.find(actor) is not None else None] * len(rolls)


def _shared_roll(event: Event, state: FightState) -> tuple[str, Roll] | None:
    """The (group, roll) of an initiative roll a group shares: every member's InitiativeSet carries the same roll."""
    if not isinstance(event, InitiativeSet) or event.roll is None:
        return None
    c = state.find(event.id)
    return (c.group, event.roll) if c is not None and c.group else None


def _tally(system: System, state: FightState, event: Event, last: str | None) -> Tally | None:
    """What the system says the event meant; harm or a fall with no actor named goes to the action's last actor."""
    try:
        tally = system.tally(state, event)
    except Exception:  # a plug-in bug must not take the summary down
        return None
    if tally is not None and tally.actor is None and tally.target and last is not None and last != tally.target:
        # an injury marked after an attack, in the same GM action: the attacker's
        tally = attrs.evolve(tally, actor=last)
    return tally


def _context(state: FightState) -> tuple[object, ...]:
    """What a system's standing may read besides the combatant: prompts, the order and the turn."""
    return (state.prompts, state.order, state.ties, state.data, state.round, state.turn, state.interrupted, state.ended)


def _same(a: tuple[object, ...], b: tuple[object, ...]) -> bool:
    """The same context: the same records (by identity, never compared deeply) and the same turn."""
    return a[0] is b[0] and a[1] is b[1] and a[2] is b[2] and a[3] is b[3] and a[4:] == b[4:]


class _Standings:
    """Who is out of the fight (``System.standing(...).out``), asked once per changed combatant.

    A plug-in failing to say is taken as "not out" (the summary never fails on it).
    """

    def __init__(self, system: System) -> None:
        self.system = system
        self._memo: dict[str, tuple[Combatant, tuple[object, ...], bool]] = {}

    def out(self, state: FightState, c: Combatant, context: tuple[object, ...]) -> bool:
        known = self._memo.get(c.id)
        if known is not None and known[0] is c and _same(known[1], context):
            return known[2]
        try:
            value = bool(self.system.standing(state, c).out)
        except Exception:
            value = False
        self._memo[c.id] = (c, context, value)
        return value


def _changed(before: FightState, after: FightState, every: bool) -> list[tuple[Combatant | None, Combatant]]:
    """(before, after) of each combatant an event may have changed the standing of (every one if ``every``)."""
    b, a = before.combatants, after.combatants
    if len(b) == len(a):
        return [(x, y) for x, y in zip(b, a, strict=True) if every or x is not y]
    old = {c.id: c for c in b}
    return [(old.get(y.id), y) for y in a if every or old.get(y.id) is not y]


def summarize(timeline: Timeline, upto: int | None = None) -> Summary:
    """The summary of the fight after the first ``upto`` entries (default: all).

    Every roll in effect counts once in the figures (``rolls``) and in at most one combatant's row, so the rows'
    rolls plus ``rolls_unowned`` make ``rolls``.  Hit points rolled as a combatant joins are its own.
    Ruling: a group's shared initiative roll (the same roll in each member's InitiativeSet, one GM action) is one
    roll, counted once, in the row of the member it is first logged for; the other members' rows leave it out.
    """
    n = len(timeline)
    pos = n if upto is None else max(0, min(upto, n))
    system = timeline.system
    final = timeline.state_at(pos)
    stats: dict[str, dict[str, int]] = {}
    fell_round: dict[str, int] = {}
    falls: list[Fall] = []
    fall_action: list[int] = []  # the GM action of each fall
    # who has fallen and is not up again -> the index of the fall.  Up again is judged between GM actions
    # only: within one, a system may take someone out and keep them in a moment (a prompt raised, say)
    down: dict[str, int] = {}
    seen_out: set[str] = set()  # of those, who has been out between actions since
    harm_by_round: dict[int, dict[str, int]] = {}
    totals = {"rolls": 0, "above": 0, "below": 0, "even": 0, "unowned": 0}
    shared: set[tuple[int, str, Roll]] = set()  # (action, group, roll): group initiative rolls counted
    actions: set[int] = set()
    last_actor: dict[int, str] = {}
    last_hit: dict[str, bool] = {}  # each actor's last tallied outcome (what a revision takes back)
    joined: set[str] = set()  # who joined in the current GM action: its adjustments set it up, they harm no one
    acting_now: set[tuple[int, str]] = set()  # (action, id): a held action taken
    events = 0
    standings = _Standings(system)

    def bump(cid: str | None, key: str, by: int = 1) -> None:
        if cid is None:
            return
        stats.setdefault(cid, {})
        stats[cid][key] = stats[cid].get(key, 0) + by

    def side_of(state: FightState, cid: str | None) -> str:
        c = state.find(cid) if cid else None
        return OTHER if c is None else ("pc" if c.kind == PC else "npc")

    def fall(state: FightState, who: str, by: str | None, seq: int, action: int) -> None:
        previous = down.get(who)
        if previous is not None:  # already down: only who felled them may still be learnt (same action)
            f = falls[previous]
            if f.by is None and by is not None and fall_action[previous] == action:
                falls[previous] = attrs.evolve(f, by=state.name(by))
            return
        down[who] = len(falls)
        fell_round.setdefault(who, state.round)
        bump(who, "falls")
        falls.append(Fall(round=state.round, seq=seq, who=state.name(who), by=state.name(by) if by else None))
        fall_action.append(action)

    def settle(state: FightState) -> None:
        """Between GM actions: who fell and is out is seen out; who was seen out and is in again is up."""
        context = _context(state)
        for who in list(down):
            c = state.find(who)
            if c is None or c.removed:
                continue
            if standings.out(state, c, context):
                seen_out.add(who)
            elif who in seen_out:  # up again: a later fall counts anew
                del down[who]
                seen_out.discard(who)

    entries = timeline.entries
    action = None
    after: FightState | None = None
    last_index = -2
    for i in timeline.in_effect(pos):
        entry = entries[i]
        ev = entry.event
        before = after if i == last_index + 1 and after is not None else timeline.state_at(i)
        after = None
        last_index = i
        if entry.action != action:
            action = entry.action
            joined.clear()
            if down:
                settle(before)
        events += 1
        actions.add(entry.action)
        if isinstance(ev, RoundStarted):
            harm_by_round.setdefault(ev.round, {})
        elif isinstance(ev, HeldActionTaken):
            acting_now.add((entry.action, ev.id))
        elif isinstance(ev, TurnStarted):
            # a turn held and taken later is one turn (it counted twice: as it began and as it was taken)
            if not ev.resumed and (entry.action, ev.id) not in acting_now:
                bump(ev.id, "turns")
        else:
            if isinstance(ev, CombatantAdded):
                joined.add(ev.id)
            # a combatant added as it was kept (a preset, a party as saved) is set up by adjustments in the same
            # action: its starting wounds are not harm taken in this fight
            setup = isinstance(ev, Adjusted) and ev.id in joined
            tally = None if setup else _tally(system, before, ev, last_actor.get(entry.action))
            actor = _actor_of(ev, tally, before)
            if tally is not None and tally.actor:
                last_actor[entry.action] = tally.actor
            group_roll = _shared_roll(ev, before)
            if group_roll is not None and (entry.action, *group_roll) in shared:
                rolls: tuple[Roll, ...] = ()  # the group's roll, counted for its first member
            else:
                rolls = _rolls_of(ev)
                if group_roll is not None:
                    shared.add((entry.action, *group_roll))
            for r, owner in zip(rolls, _roll_owners(ev, rolls, actor, before), strict=True):
                mean = expected(r.expr)
                if mean is None:
                    continue
                totals["rolls"] += 1
                key = "above" if r.total > mean else "below" if r.total < mean else "even"
                totals[key] += 1
                if owner is None:
                    totals["unowned"] += 1
                bump(owner, "rolls_" + key)
            if tally is not None:
                if tally.revises and tally.actor in last_hit:  # the deed tallied before is taken back
                    hit_before = last_hit.pop(tally.actor)
                    bump(tally.actor, "hits" if hit_before else "misses", -1)
                    bump(tally.actor, "actions", -1)
                if tally.actor and (tally.hit is not None or (tally.harm and not tally.revises)):
                    bump(tally.actor, "actions")
                if tally.hit is not None and tally.actor:
                    last_hit[tally.actor] = tally.hit
                if tally.hit is True:
                    bump(tally.actor, "hits")
                elif tally.hit is False:
                    bump(tally.actor, "misses")
                if tally.harm:
                    bump(tally.actor, "harm_dealt", tally.harm)
                    bump(tally.target, "harm_taken", tally.harm)
                    side = side_of(before, tally.actor)
                    if side == OTHER and tally.target and not isinstance(ev, Adjusted):
                        # no actor known: the other side of the one harmed (a GM's adjustment stays the GM's)
                        side = {"pc": "npc", "npc": "pc"}.get(side_of(before, tally.target), OTHER)
                    by_side = harm_by_round.setdefault(before.round, {})
                    by_side[side] = by_side.get(side, 0) + tally.harm
                if tally.fell and tally.target and before.find(tally.target) is not None:
                    fall(before, tally.target, tally.actor, entry.seq, entry.action)
        # a fall by whatever event took someone out: a rules attack, quick damage, a GM adjustment
        after = timeline.state_at(i + 1)
        if after is before or isinstance(ev, (CombatantAdded, CombatantRemoved)):
            continue
        cb, ca = _context(before), _context(after)
        for was, now in _changed(before, after, every=not _same(cb, ca)):
            if was is None or now.removed or was.removed or now.id in down or now.id in joined:
                continue
            out_before = standings.out(before, was, cb)
            out_after = standings.out(after, now, ca)
            if out_after and not out_before:
                last = last_actor.get(entry.action)
                fall(before, now.id, last if last != now.id else None, entry.seq, entry.action)

    fighters = []
    for c in final.combatants:
        st = stats.get(c.id, {})
        fighters.append(
            Fighter(
                id=c.id,
                name=c.name,
                side="pc" if c.kind == PC else "npc",
                turns=st.get("turns", 0),
                actions=st.get("actions", 0),
                hits=st.get("hits", 0),
                misses=st.get("misses", 0),
                harm_dealt=st.get("harm_dealt", 0),
                harm_taken=st.get("harm_taken", 0),
                rolls_above=st.get("rolls_above", 0),
                rolls_below=st.get("rolls_below", 0),
                rolls_even=st.get("rolls_even", 0),
                fell_round=fell_round.get(c.id),
                falls=st.get("falls", 0),
                left=c.removed,
            )
        )
    in_log = {e.action for e in entries[:pos] if not isinstance(e.event, (Undone, Redone))}
    return Summary(
        position=pos,
        length=n,
        rounds=final.round,
        events=events,
        actions=len(actions),
        undone=len(in_log - actions),
        fighters=tuple(fighters),
        falls=tuple(falls),
        harm_by_round=tuple(sorted(harm_by_round.items())),
        rolls=totals["rolls"],
        rolls_above=totals["above"],
        rolls_below=totals["below"],
        rolls_even=totals["even"],
        awards=_awards(system, final),
        rolls_unowned=totals["unowned"],
    )


def _awards(system: System, state: FightState) -> tuple[str, ...]:
    """The system's awards for the fight (XP); a plug-in failing to say gives none, not a crash."""
    found = _guarded(system.awards, state)
    return tuple(str(x) for x in found) if isinstance(found, tuple) else ()
