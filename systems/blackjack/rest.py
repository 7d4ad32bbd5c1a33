"""Letting time pass in blackjack (l.182–184): the core ``Rest`` command, decided here.

Rules ``time``, ``rest`` and ``afflictions`` of the rules table, each tested in tests/systems/blackjack/test_rest.py:
- "A good night's rest will clear all lesser or moderate injuries" (l.184): a
  Rest of at least one night (a day, or 8 hours or more) of quality "good
  night's rest" clears them (not those bound to a paper); "poor rest" clears
  none. (test_a_good_nights_rest_clears_lesser_and_moderate_injuries)
- **Ruling:** an affliction (an injury whose name names hunger, thirst, poison,
  snake venom, venom or disease, l.182) is not cleared by rest: it needs
  treatment, and untreated it worsens. The tracker keeps no record of treatment
  outside its Treat command, which clears the injury, so every affliction still
  marked counts as untreated.
- The book gives no rate of worsening: when time passes the tracker lists each
  untreated affliction and asks the GM whether it worsens, one prompt per
  affliction, raised in the same logged action as the rest (the project's prompt
  mechanism: each names the ``worsen_affliction`` command with its fields, so the
  GM settles it in the prompt list, yes or no, one by one; a form would ask
  everything at once and leave nothing open in the log). A "yes" moves it one
  level up the track (slots full: further; past the last: Fatal, dead), a "no"
  leaves it. (test_time_passing_asks_about_each_untreated_affliction)
- **Ruling:** time passing again before the GM answered asks again, a question of its own (its own prompt
  id), each answered on its own, one step each (``_ask``;
  test_time_passing_twice_before_an_answer_asks_twice_each_answered_on_its_own).
- **Ruling:** a blowgun's dart injury worsens over time (the Blowgun's note, l.203) as an affliction does:
  rest keeps it and the GM is asked (``worsens_untreated``; test_a_dart_injury_is_kept_by_rest_and_asked_about).
- The dead stay dead. (test_the_dead_stay_dead)
- **Ruling:** a working is safe once a day (l.228): time passing by at least a
  night (a day, or 8 hours or more), whatever the rest's quality, starts a new
  day, and every working is safe to cast again, as the plug-in's own night's
  rest already had it. (test_a_new_day_makes_the_workings_safe_again)
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from tracker.commands import BOOL, CommandSpec, Param, Rest
from tracker.dice import Roller
from tracker.errors import Refused
from tracker.events import Event, PromptRaised, PromptResolved
from tracker.kit import Draft, need
from tracker.model import FightState, Prompt
from tracker.text import counted

from .commands import GOOD_NIGHT
from .commands import Rest as NightsRest
from .events import InjuryCleared
from .evolve import evolve
from .records import LEVELS, BJData, data
from .rules.common import rules
from .rules.harm import injury
from .sheet import words
from .table import R, applies

GOOD = GOOD_NIGHT
POOR = "poor rest"
QUALITIES = (GOOD, POOR)
AFFLICTIONS = ("hunger", "thirst", "poison", "venom", "disease")
WORSEN = "worsen_affliction"


def is_affliction(name: str) -> bool:
    low = name.lower()
    return any(word in low for word in AFFLICTIONS)


DART = "dart"  # what a blowgun's injury is called (rules/attacks.py ``_wound``)


def worsens_untreated(name: str) -> bool:
    """An injury rest keeps and time passing asks about: an affliction, or a blowgun's dart.

    Ruling: the book's Blowgun note "Injuries worsen over time" (l.203) makes a dart injury one that worsens
    untreated, as afflictions do: it starts at the weapon's level (lesser), a night's rest keeps it, and when
    time passes the GM is asked whether it worsens one step; treatment clears it like any injury. A dart
    injury is one whose name holds the word dart (the name the blowgun's injury is given; 'darts', '(dart)').
    """
    return is_affliction(name) or any(w.strip("()") == DART for w in words(name))


@attrs.frozen(kw_only=True)
class Rested(Event):
    """One combatant's injuries after time passed (``injuries``), what cleared (``why``), and whether a new day
    came (``new_day``: its workings are safe to cast again; absent from files written before it: no change)."""

    TYPE: ClassVar[str] = "blackjack.time_passed"
    id: str
    injuries: tuple[tuple[str, ...], ...] = attrs.field(default=())
    why: str = attrs.field(default="")
    new_day: bool = attrs.field(default=False)

    def describe(self, state: FightState) -> str:
        return f"{state.name(self.id)}: {self.why}"


@attrs.frozen(kw_only=True)
class WorsenAffliction:
    """The GM's answer to "does this untreated affliction worsen?": yes moves it one level up the track."""

    target: str
    name: str
    level: str = attrs.field(default="moderate")
    worsens: bool = attrs.field(default=False)


REST_EVENTS: tuple[type[Event], ...] = (Rested,)
SPECS = (
    CommandSpec(
        name=WORSEN,
        title="Affliction worsens?",
        build=lambda target, name, level="moderate", worsens=False: WorsenAffliction(
            target=target, name=name, level=level, worsens=worsens
        ),
        params=(
            Param(name="target", kind="combatant", label="Who"),
            Param(name="name", label="Affliction"),
            Param(name="level", label="Now", required=False, default="moderate"),
            Param(name="worsens", kind=BOOL, default=False, label="Worsens one level"),
        ),
        actor=None,
        subject="target",
        help="An untreated affliction (hunger, thirst, poison, snake venom, disease) or blowgun dart worsens one "
        "level, or not.",
    ),
)


def _cleared(d: BJData) -> tuple[tuple[tuple[str, ...], ...], list[str]]:
    out: list[tuple[str, ...]] = []
    gone: list[str] = []
    for idx, row in enumerate(d.injuries):
        if idx >= 2:
            out.append(row)
            continue
        free = list(d.free_injuries(idx))
        keep = [n for n in row if n not in free or worsens_untreated(n)]
        gone += [f"{LEVELS[idx]} {n}" for n in row if n in free and not worsens_untreated(n)]
        out.append(tuple(keep))
    return tuple(out), gone


def _ask(cid: str, who: str, idx: int, name: str, taken: set[str], before: int) -> PromptRaised:
    """The question whether one untreated affliction worsens, with an id no open prompt has (``taken``: the
    ids open or given in this passing of time, the new one added).

    Ruling: each passing of time asks its own question, one step each, answered on its own: time passing again
    before the GM answered asks again ("again: N asked before still open", ``before``), so two nights untreated
    may worsen it two steps; the answers go oldest question first. (The question used the id
    ``worsen:<who>:<n>``, n its place among this passing's afflictions; a second passing gave the same id, the
    core kept the first prompt and dropped the second, though the log showed it asked twice.)
    """
    level = LEVELS[idx] if idx < len(LEVELS) else "fatal"
    again = f" (asked again: {counted(before, 'question')} on it still open)" if before else ""
    text = f"{who}'s untreated {name} ({level}): does it worsen?{again}"
    params = {"target": cid, "name": name, "level": level, "worsens": True}
    n = 0
    while f"worsen:{cid}:{n}" in taken:
        n += 1
    pid = f"worsen:{cid}:{n}"
    taken.add(pid)
    return PromptRaised(prompt=Prompt(id=pid, kind="worsen", text=text, combatant=cid, command=WORSEN, params=params))


@applies(R.TIME, R.REST, R.AFFLICTIONS, R.FATAL, R.ONCE_A_DAY)
def rest(state: FightState, cmd: Rest, dice: Roller) -> list[Event]:
    quality = cmd.quality or GOOD
    if quality not in QUALITIES:
        raise Refused(f"Rest: quality '{quality}' is not one of: {', '.join(QUALITIES)}", rule=R.TIME)
    nights = cmd.days + cmd.hours // 24 + (1 if cmd.hours % 24 >= 8 else 0)
    out: list[Event] = []
    asks: list[Event] = []
    open_asks = [p for p in state.prompts if p.command == WORSEN]
    taken = {p.id for p in state.prompts}
    for cid in cmd.ids:
        c = state.get(cid)
        d = data(c)
        if d.dead:
            out.append(Rested(id=cid, injuries=d.injuries, why="dead: no rest heals the dead"))
            continue
        injuries, gone = _cleared(d) if nights and quality == GOOD else (d.injuries, [])
        if gone:
            why = f"a {quality} clears {', '.join(gone)}"
        elif quality != GOOD and d.injury_count:
            why = f"{quality}: no injury clears"
        elif not nights and d.injury_count:
            why = "less than a night: no injury clears"
        else:
            why = "nothing to clear" if not d.injury_count else "no lesser or moderate injury to clear"
        afflictions = [(i, n) for i, row in enumerate(injuries) for n in row if worsens_untreated(n)]
        cast = [w.name for w in d.workings if w.cast_today]
        if nights and cast:
            why += f"; a new day: {', '.join(cast)} safe to cast again"
        if afflictions:
            why += "; untreated: " + ", ".join(f"{LEVELS[i]} {n}" for i, n in afflictions) + " (the GM is asked)"
        out.append(Rested(id=cid, injuries=injuries, why=why, new_day=bool(nights)))
        for i, n in afflictions:
            before = sum(1 for p in open_asks if p.combatant == cid and p.params.get("name") == n)
            asks.append(_ask(cid, c.name, i, n, taken, before))
    return out + asks


@evolve.on(Rested)
def _rested(state: FightState, e: Rested) -> FightState:
    if not e.new_day:
        return state.update_data(e.id, injuries=e.injuries)
    workings = tuple(attrs.evolve(w, cast_today=False) for w in data(state.get(e.id)).workings)
    return state.update_data(e.id, injuries=e.injuries, workings=workings)


@rules.on(NightsRest)
def _nights_rest(d: Draft, cmd: NightsRest, dice: Roller) -> None:
    """The plug-in's own night's rest (its scripting command): one good night, decided as time passing decides
    it (it cleared afflictions, where letting a night pass kept them and asked; files written before keep their
    ``blackjack.rested`` events, which fold as they did)."""
    s = d.state
    if s.started and not s.ended:
        raise Refused("a night's rest comes after the fight: end the fight first", rule=R.REST)
    ids = tuple(need(s, i).id for i in cmd.ids) or tuple(c.id for c in s.present)
    if not ids:
        raise Refused("nobody to rest: add combatants first")
    d.add(*rest(s, Rest(ids=ids, days=1, quality=GOOD), dice))


@rules.on(WorsenAffliction)
@applies(R.AFFLICTIONS)
def _worsen(d: Draft, cmd: WorsenAffliction, dice: Roller) -> None:
    t = need(d.state, cmd.target)
    p = next(
        (
            p
            for p in d.state.prompts
            if p.command == WORSEN and p.combatant == t.id and p.params.get("name") == cmd.name
        ),
        None,
    )
    td = data(t)
    idx = next((i for i, row in enumerate(td.injuries) if cmd.name in row), -1)
    if idx < 0:
        raise Refused(f"{t.name} has no affliction '{cmd.name}'", rule=R.AFFLICTIONS)
    if cmd.worsens:
        d.add(InjuryCleared(target=t.id, index=idx, name=cmd.name, level=LEVELS[idx], reason="it worsens"))
        marked = injury(
            d.state, t.id, idx + 1, cmd.name, steps=(LEVELS[idx], "untreated, worsens", td.level_name(idx + 1))
        )
        if marked is not None:
            d.add(marked)
    if p is not None:
        d.add(PromptResolved(prompt_id=p.id, note="it worsens" if cmd.worsens else "it does not worsen"))
