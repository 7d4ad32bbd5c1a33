"""The figures of a fight summary, read off a replay timeline (no Textual here).

Only what is in effect at the chosen point counts: an action that was undone
(and not redone) by then is left out, as it never happened.  Hits, misses,
harm and falls come from the system's ``tally``; every roll an event carries
is compared with the expected value of its dice expression.
"""

from __future__ import annotations

from functools import lru_cache
from math import comb

import attrs

from tracker.dice import DiceError, Roll, parse
from tracker.events import Event, Redone, RoundStarted, TurnStarted, Undone
from tracker.model import PC, FightState
from tracker.plugin import Tally
from tracker.replay import Timeline

OTHER = "other"  # the side of harm without a known actor


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
    fell_round: int | None = None
    left: bool = False  # removed from the fight


@attrs.frozen
class Fall:
    round: int
    seq: int
    who: str  # name
    by: str | None  # name of who felled them, if known


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

    def fighter(self, name: str) -> Fighter:
        for f in self.fighters:
            if f.name == name or f.id == name:
                return f
        raise KeyError(name)

    @property
    def sides(self) -> tuple[str, ...]:
        seen = {side for _r, by in self.harm_by_round for side in by}
        return tuple(s for s in ("pc", "npc", OTHER) if s in seen)


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
    if tally is not None and tally.actor:
        return tally.actor
    for name in ("actor", "id", "by"):
        value = getattr(event, name, None)
        if isinstance(value, str) and state.find(value) is not None:
            return value
    return None


def summarize(timeline: Timeline, upto: int | None = None) -> Summary:
    """The summary of the fight after the first ``upto`` entries (default: all)."""
    n = len(timeline)
    pos = n if upto is None else max(0, min(upto, n))
    system = timeline.system
    final = timeline.state_at(pos)
    stats: dict[str, dict[str, int]] = {}
    fell_round: dict[str, int] = {}
    falls: list[Fall] = []
    harm_by_round: dict[int, dict[str, int]] = {}
    totals = {"rolls": 0, "above": 0, "below": 0, "even": 0}
    actions: set[int] = set()
    last_actor: dict[int, str] = {}
    events = 0

    def bump(cid: str | None, key: str, by: int = 1) -> None:
        if cid is None:
            return
        stats.setdefault(cid, {})
        stats[cid][key] = stats[cid].get(key, 0) + by

    def side_of(state: FightState, cid: str | None) -> str:
        c = state.find(cid) if cid else None
        return OTHER if c is None else ("pc" if c.kind == PC else "npc")

    for i in timeline.in_effect(pos):
        entry = timeline.entries[i]
        ev = entry.event
        before = timeline.state_at(i)
        events += 1
        actions.add(entry.action)
        if isinstance(ev, RoundStarted):
            harm_by_round.setdefault(ev.round, {})
            continue
        if isinstance(ev, TurnStarted):
            if not ev.resumed:
                bump(ev.id, "turns")
            continue
        try:
            tally = system.tally(before, ev)
        except Exception:  # a plug-in bug must not take the summary down
            tally = None
        if tally is not None and tally.actor is None and tally.target:
            # harm or a fall with no actor named (an injury marked after an attack): the action's last actor
            last = last_actor.get(entry.action)
            if last is not None and last != tally.target:
                tally = attrs.evolve(tally, actor=last)
        actor = _actor_of(ev, tally, before)
        if tally is not None and tally.actor:
            last_actor[entry.action] = tally.actor
        for r in _rolls_of(ev):
            mean = expected(r.expr)
            if mean is None:
                continue
            totals["rolls"] += 1
            key = "above" if r.total > mean else "below" if r.total < mean else "even"
            totals[key] += 1
            bump(actor, "rolls_" + key)
        if tally is None:
            continue
        if tally.actor and (tally.hit is not None or tally.harm):
            bump(tally.actor, "actions")
        if tally.hit is True:
            bump(tally.actor, "hits")
        elif tally.hit is False:
            bump(tally.actor, "misses")
        if tally.harm:
            bump(tally.actor, "harm_dealt", tally.harm)
            bump(tally.target, "harm_taken", tally.harm)
            side = side_of(before, tally.actor)
            if side == OTHER and tally.target:  # no actor known: the other side of the one harmed
                side = {"pc": "npc", "npc": "pc"}.get(side_of(before, tally.target), OTHER)
            by_side = harm_by_round.setdefault(before.round, {})
            by_side[side] = by_side.get(side, 0) + tally.harm
        if tally.fell and tally.target and tally.target not in fell_round:
            fell_round[tally.target] = before.round
            falls.append(
                Fall(
                    round=before.round,
                    seq=entry.seq,
                    who=before.name(tally.target),
                    by=before.name(tally.actor) if tally.actor else None,
                )
            )

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
                left=c.removed,
            )
        )
    in_log = {e.action for e in timeline.entries[:pos] if not isinstance(e.event, (Undone, Redone))}
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
    )
