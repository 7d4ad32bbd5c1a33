"""The Blackjack save: roll 1d20, success when DV < roll ≤ the stat (an NPC: ≤ Threat + 8).

The DV is the sum of its labelled parts (the target's Threat, weapon and range
notes, situational modifiers) and the roller's own: +1 per injury and any
condition with a DV value (a Hex's +2). It never goes below 0. Every part shows
in the log with its label.

Rulings made here (beyond the rules table: ``stat_max``, ``social_pass``), each named in a test:
- Rolling over a stat at 19 does not mark it (it cannot rise further)
  (``test_stat_max_19_does_not_mark``).
- A social save (negotiation, keeping face) whose DV before the floor at 0 is
  negative passes with no roll: "If it goes negative, the check passes
  automatically" (``test_a_negotiation_whose_dv_goes_negative_passes_with_no_roll``).
"""

from __future__ import annotations

from collections.abc import Iterable

from tracker.dice import Roller, roll
from tracker.model import Combatant, FightState

from .deficiency import matching
from .events import OVER, SUCCESS, UNDER, DvPart, SavePassed, SaveRoll
from .records import data
from .table import ENCUMBERED, HEX_DV, HEXED, R, applies


@applies(R.INJURY_DV, R.HEX)
def own_parts(c: Combatant) -> list[DvPart]:
    """The roller's own DV: +1 per injury, plus conditions with a DV value (a Hex).  A condition named Hexed
    the GM wrote with no value counts the Hex's +2 (rule ``hex``); Encumbered counts as a lesser injury, +1
    (RULINGS, other DV sources)."""
    parts = []
    d = data(c)
    if d.injury_count:
        parts.append(DvPart(label="own injuries", value=d.injury_count))
    for cond in c.conditions:
        name = cond.name.strip().lower()
        if name == ENCUMBERED.lower() and not cond.value:
            parts.append(DvPart(label=f"{ENCUMBERED} (a lesser injury)", value=1))
            continue
        value = cond.value or (HEX_DV if name == HEXED.lower() else 0)
        if value:
            parts.append(DvPart(label=cond.name, value=value))
    return parts


def encumbered(c: Combatant) -> bool:
    """Whether the combatant carries over 12 burden slots: a lesser slot is taken (l.36)."""
    return any(cond.name.strip().lower() == ENCUMBERED.lower() for cond in c.conditions)


def all_parts(c: Combatant, parts: Iterable[DvPart]) -> tuple[DvPart, ...]:
    """The given parts and the roller's own, the zero ones left out."""
    return tuple(p for p in (*parts, *own_parts(c)) if p.value)


def raw_dv(c: Combatant, parts: Iterable[DvPart]) -> int:
    """The DV before the floor at 0."""
    return sum(p.value for p in all_parts(c, parts))


@applies(R.NPC_SAVE)
def deficient_in(c: Combatant, stat: str, *tested: str) -> str:
    """The phrase of an NPC's "Deficient in" that names what its save tests ('' if none, and always for a PC).

    A phrase matches when all its words are among the save's: the stat and the words of ``tested`` (the attack
    the NPC makes, the weapon or special and its kind and tags, "working" and the working, the purpose), in the
    words a GM writes for them ("shooting", "guns", "magic"; the table and the rulings: :mod:`.deficiency`).
    """
    d = data(c)
    if d.is_pc or not d.deficiencies:
        return ""
    return matching(d.deficiencies, (stat, *tested))


@applies(R.SOCIAL_PASS)
def auto_pass(c: Combatant, stat: str, parts: Iterable[DvPart], purpose: str) -> SavePassed | None:
    """A social save whose DV goes negative passes with no roll: the event saying so, else None."""
    every = all_parts(c, parts)
    dv = sum(p.value for p in every)
    if dv >= 0:
        return None
    name = stat.upper() if data(c).is_pc else "Threat+8"
    return SavePassed(actor=c.id, stat=name, dv=dv, parts=every, purpose=purpose)


@applies(R.SAVE, R.NPC_SAVE, R.MARKS, R.STAT_MAX)
def blackjack_save(
    dice: Roller,
    c: Combatant,
    stat: str,
    parts: Iterable[DvPart],
    label: str,
    deficient: bool = False,
    tested: Iterable[str] = (),
) -> SaveRoll:
    """d20: success when DV < roll ≤ stat (an NPC: ≤ Threat + 8, ⌈Threat ÷ 2⌉ + 8 when ``deficient`` is ticked
    or its sheet is deficient in the stat or in what ``tested`` names: ``deficient_in``); DV never below 0."""
    d = data(c)
    phrase = deficient_in(c, stat, *tested)
    deficient = deficient or bool(phrase)
    every = all_parts(c, parts)
    dv = max(0, sum(p.value for p in every))
    if d.is_pc:
        stat_name = stat.upper()
        limit = d.stat(stat)
    else:
        stat_name = "⌈Threat/2⌉+8" if deficient else "Threat+8"
        limit = d.npc_limit(deficient)
    r = roll("1d20", dice, f"{c.name} {label}".strip())
    face = r.total
    outcome = OVER if face > limit else UNDER if face <= dv else SUCCESS
    mark = d.is_pc and outcome == OVER and limit < 19
    raised = 0
    if mark and d.marks(stat) + 1 >= 3:
        raised = min(19, limit + 1)
    return SaveRoll(
        who=c.id,
        stat=stat_name,
        limit=limit,
        dv=dv,
        parts=every,
        roll=r,
        outcome=outcome,
        mark=mark,
        raised_to=raised,
        deficient=phrase,
    )


def apply_save(state: FightState, save: SaveRoll) -> FightState:
    """A PC that rolled over marks the stat; the third mark clears them and raises it."""
    if not save.mark:
        return state
    c = state.get(save.who)
    key = save.stat.lower()
    if save.raised_to:
        return state.update_data(c.id, **{key: save.raised_to, f"{key}_marks": 0})
    return state.update_data(c.id, **{f"{key}_marks": data(c).marks(key) + 1})
