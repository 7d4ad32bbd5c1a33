"""GM adjust: the blackjack values the GM may set, checked, and how each applies.

A value the rules cannot hold (a stat over 19, injuries that do not fit the
track, a fatal injury in the list) is refused with the reason; an adjust that
means a casualty (dead, fled, a removal) opens its morale prompt through
``react``, as an attack would.

Ruling: which workings were cast today is a value the GM may set ("Workings cast today": 'Hex, Naming'),
like the lead or the injuries. A second casting of a working that day marks its powderburn first (RULINGS,
blackjack), so the day's castings belong to the character, not to one fight: a party (F5) or a preset (M)
kept "as they are now" carries them (``saves.parties.now_values`` keeps the adjustable values), and the GM
can mend them by hand (a scene later the same day, a working cast off the table)
(``tests/systems/blackjack/test_cast_today_kept.py``:
``test_a_party_kept_as_it_is_now_remembers_the_workings_cast_today``,
``test_a_preset_kept_as_it_is_now_remembers_the_workings_cast_today``,
``test_the_gm_sets_the_workings_cast_today_and_a_recast_marks_its_powderburn``).

"Has acted this turn" is the one-action-a-turn record (rules/common.py ``one_action``): no frees the turn's
action (and a recharge already rolled), yes marks it taken; it is the fight's, never kept by a party or a preset
(``test_the_gm_frees_the_turns_action_by_an_adjustment``).
"""

from __future__ import annotations

from typing import Any

import attrs

from tracker.commands import BOOL, CHOICE, INT, Param
from tracker.errors import Refused
from tracker.model import Combatant

from .records import LEVELS, STATS, BJData, PaperBond, data
from .sheet import parse_injuries, parse_slots, split_list

OUT_CHOICES = ("in", "fled", "surrendered")
GM_ACTED = "the turn's action, as the GM set it"  # the action an adjust "Has acted this turn: yes" marks


def adjustable(c: Combatant) -> tuple[Param, ...]:
    d = data(c)
    own: list[Param] = []
    if d.is_pc:
        for s in STATS:
            own.append(Param(name=s, kind=INT, label=s.upper(), min=3, max=19))
            own.append(Param(name=f"{s}_marks", kind=INT, label=f"{s.upper()} marks", min=0, max=2))
    else:
        own.append(Param(name="threat", kind=INT, label="Threat", min=1, max=10))
        own.append(Param(name="morale", kind=INT, label="Morale", min=2, max=12))
    shots = Param(name="shots", label="Loaded shots and stacks", help="'Revolver 3, Shotgun 0, Bow 10'")
    floor = Param(
        name="floor", label="On the floor", required=False, help="thrown weapons not yet picked up: 'Hand axe'"
    )
    cast = Param(
        name="cast_today",
        label="Workings cast today",
        required=False,
        help=f"'{', '.join(w.name for w in d.workings)}': cast again today, a working marks its powderburn first",
    )
    return (
        *own,
        Param(name="slots", label="Injury slots", help="2/2/1 or 2/2/2/1"),
        Param(name="injury_list", label="Injuries", required=False, help="'lesser bruised, moderate cut'"),
        Param(name="lead", kind=INT, label="Lead", min=0, max=99),
        Param(name="ingested", kind=INT, label="Lead ingested", min=0, max=99),
        *((shots,) if any(w.tracked for w in d.weapons) else ()),
        *((floor,) if any(w.leaves_the_hand or w.dropped for w in d.weapons) else ()),
        *((cast,) if d.workings else ()),
        Param(name="acted", kind=BOOL, label="Has acted this turn (no: may act again)"),
        Param(name="dead", kind=BOOL, label="Dead"),
        Param(name="out", kind=CHOICE, choices=OUT_CHOICES, default="in", label="Out of the fight"),
    )


def _int(field: str, value: Any, lo: int, hi: int, why: str) -> int:
    v: int = Param(name=field, kind=INT).parse(value)
    if not lo <= v <= hi:
        raise Refused(why)
    return v


def check(c: Combatant, field: str, value: Any) -> Any:
    """The value as it will be logged, or Refused with the reason; None: not a field of ours."""
    d = data(c)
    if field in STATS:
        return _int(field, value, 3, 19, f"{field.upper()} must be 3 to 19 (saves max out at 19)")
    if field == "threat":
        return _int(field, value, 1, 10, "Threat runs 1 to 10")
    if field == "morale":
        return _int(field, value, 2, 12, "Morale runs 2 to 12")
    if field == "slots":
        slots = parse_slots(value)
        for i, names in enumerate(d.injuries):
            if names and (i >= len(slots) or len(names) > slots[i]):
                raise Refused("the injuries marked would not fit that track: treat or edit them first")
        if tuple(slots) == d.slots:
            raise Refused(f"{c.name}'s injury track is already {'/'.join(map(str, slots))}")
        return tuple(slots)  # as the record holds them: logged "[2, 2, 1] → [3, 2, 2]" (older files: the text typed)
    if field in ("injury_list", "injuries"):
        rows = parse_injuries(value or "", d.slots)
        return ", ".join(f"{LEVELS[i]} {name}" for i, row in enumerate(rows) for name in row)
    if field == "out":
        v = Param(name=field, kind=CHOICE, choices=OUT_CHOICES, default="in").parse(value)
        v = "" if v == "in" else v
        if v == d.out:
            raise Refused(f"{c.name} is already {v or 'in the fight'}")
        return v
    if field == "shots":
        return _check_shots(c, value)
    if field == "floor":
        return _check_floor(c, value)
    if field == "cast_today":
        return _check_cast_today(c, value)
    return None


def _check_shots(c: Combatant, value: Any) -> str:
    d = data(c)
    loaded = {}
    for item in split_list(value):
        name, _, n = item.rpartition(" ")
        w = next((w for w in d.weapons if w.name.lower() == name.strip().lower()), None)
        top = w.shots if w is not None and w.is_firearm else 99 if w is not None and w.ammo >= 0 else -1
        if w is None or top < 0 or not n.isdecimal() or int(n) > top:
            raise Refused(
                f"'{item}': name a firearm {c.name} carries and 0 to its Shots, or a bow or blowgun and its stack"
            )
        loaded[w.name.lower()] = int(n)
    text = ", ".join(
        f"{w.name} {loaded.get(w.name.lower(), w.loaded if w.is_firearm else w.ammo)}" for w in d.weapons if w.tracked
    )
    if text == d.shots:
        raise Refused(f"{c.name}'s shots are already {text}")
    return text


def _check_floor(c: Combatant, value: Any) -> str:
    d = data(c)
    names = []
    for item in split_list(value):
        w = next((w for w in d.weapons if w.name.lower() == item.lower()), None)
        if w is None or not (w.leaves_the_hand or w.dropped):
            raise Refused(
                f"'{item}': name a hand axe, hatchet, knife or throwing weapon {c.name} carries (one that can be thrown)"
            )
        names.append(w.name)
    text = ", ".join(w.name for w in d.weapons if w.name in names)
    if text == d.floor:
        raise Refused(f"{c.name}'s weapons on the floor are already {text or 'none'}")
    return text


def _check_cast_today(c: Combatant, value: Any) -> str:
    """The workings cast today, named as the sheet names them and in its order ('' for none)."""
    d = data(c)
    names = []
    for item in split_list(value):
        w = next((w for w in d.workings if w.name.lower() == item.lower()), None)
        if w is None:
            known = ", ".join(w.name for w in d.workings) or "none"
            raise Refused(f"'{item}': name a working {c.name} knows ({known})")
        names.append(w.name.lower())
    text = ", ".join(w.name for w in d.workings if w.name.lower() in names)
    if text == d.cast_today:
        raise Refused(f"{c.name}'s workings cast today are already {text or 'none'}")
    return text


def apply(c: Combatant, field: str, value: Any) -> Combatant | None:
    """The combatant with a checked value applied; None: not a field with its own way of applying."""
    d = data(c)
    if field == "slots":
        slots = tuple(parse_slots(value))
        inj = tuple(d.injuries[i] if i < len(d.injuries) else () for i in range(len(slots)))
        return _with(c, attrs.evolve(d, slots=slots, injuries=inj))
    if field in ("injury_list", "injuries"):
        inj = tuple(tuple(x) for x in parse_injuries(value or "", d.slots))
        return _with(c, attrs.evolve(d, injuries=inj, bound=_bonds_left(d.bound, inj)))
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
        return _with(c, attrs.evolve(d, weapons=ws))
    if field == "floor":
        down = {x.lower() for x in split_list(value)}
        ws = tuple(attrs.evolve(w, dropped=w.name.lower() in down) for w in d.weapons)
        return _with(c, attrs.evolve(d, weapons=ws))
    if field == "out":
        return _with(c, attrs.evolve(d, out="" if value == "in" else str(value or "")))
    if field == "acted":
        return _with(c, attrs.evolve(d, action=GM_ACTED if value else "", recharge_rolled=()))
    if field == "cast_today":
        cast = {x.lower() for x in split_list(value)}
        wks = tuple(attrs.evolve(w, cast_today=w.name.lower() in cast) for w in d.workings)
        return _with(c, attrs.evolve(d, workings=wks))
    return None


def _with(c: Combatant, d: BJData) -> Combatant:
    return attrs.evolve(c, data=d)


def _bonds_left(bound: tuple[PaperBond, ...], injuries: tuple[tuple[str, ...], ...]) -> tuple[PaperBond, ...]:
    """The bonds whose injury is still marked after the GM rewrites the track (conditions keep theirs)."""
    left: list[PaperBond] = []
    for b in bound:
        if b.level < 0:
            left.append(b)
            continue
        row = injuries[b.level] if b.level < len(injuries) else ()
        if row.count(b.name) > sum(1 for x in left if x.level == b.level and x.name == b.name):
            left.append(b)
    return tuple(left)
